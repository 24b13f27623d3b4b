"""``savanna ladder add`` and ``show``: a file created and grown, a plot, one-line errors."""
import json

import pytest

from savanna_experiments.cli import main


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_add_then_show_with_a_plot(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for agent in ("greedy", "mcts:sims=8"):
        code, out, _ = run(["ladder", "add", agent, "--games", "4", "--workers", "1",
                            "--no-progress"], capsys)
        assert code == 0 and "saved to runs/ladder-zebres.json" in out
    data = json.loads((tmp_path / "runs" / "ladder-zebres.json").read_text())
    assert data["agents"] == ["random", "greedy:chance_depth=1", "mcts:sims=8,c=1.4"]
    assert len(data["matches"]) == 3
    code, out, _ = run(["ladder", "show", "--plot", "ladder.png"], capsys)
    assert code == 0 and "random = 0 Elo" in out and "plot saved to ladder.png" in out
    assert (tmp_path / "ladder.png").read_bytes().startswith(b"\x89PNG")
    code, out, _ = run(["ladder", "show", "--plot", "ladder.svg"], capsys)
    assert (tmp_path / "ladder.svg").read_text().startswith("<svg")


@pytest.mark.parametrize("argv, message", [
    (["show"], "no ladder file 'runs/ladder-zebres.json': create it with savanna ladder add"),
    (["show", "--file", "x.json", "--game", "bonobo"], "x.json' is a zebres ladder, not 'bonobo'"),
    (["show", "--file", "x.json", "-o", "board=president"], "has the game options {}"),
    (["show", "--file", "x.json", "--plot", "taken.png"], "'taken.png' exists; give a new file"),
    (["show", "--file", "x.json", "--plot", "out.jpg"], "--plot must name a .png or .svg file"),
    (["add", "random", "--file", "x.json"], "'random' is on the ladder already"),
    (["add", "mtcs", "--file", "x.json"], "unknown agent 'mtcs'"),
    (["add", "greedy", "--games", "0"],
     "argument --games: expected an int in 1..10000000, got '0'"),
    (["add", "greedy", "--game", "chess"], "unknown game 'chess'"),
    (["show", "--file", "bad.json"], "ladder file 'bad.json' is not JSON"),
])
def test_mistakes_are_one_line_errors_with_exit_2(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.png").write_bytes(b"")
    (tmp_path / "bad.json").write_text("{")
    from savanna_agents.ladder import Ladder
    Ladder.new("zebres").save(tmp_path / "x.json")
    code, out, err = run(["ladder", *argv], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"savanna ladder {argv[0]}: error: ")
    assert message in err and err.count("\n") == 1


def test_two_adds_at_once_keep_both_agents(tmp_path, monkeypatch, capsys):
    """While one ``ladder add`` plays, another saves the file: both new agents stay."""
    import savanna_agents.ladder
    from savanna_agents.ladder import Ladder

    monkeypatch.chdir(tmp_path)
    Ladder.new("zebres").save("x.json")
    real = savanna_agents.ladder.play_match

    def meanwhile(*args, **kwargs):
        other = Ladder.load("x.json")
        monkeypatch.setattr(savanna_agents.ladder, "play_match", real)
        other.add("greedy", games=2, workers=1, progress=False)
        other.save("x.json")
        return real(*args, **kwargs)

    monkeypatch.setattr(savanna_agents.ladder, "play_match", meanwhile)
    code, _, _ = run(["ladder", "add", "mcts:sims=4", "--games", "2", "--file", "x.json",
                      "--workers", "1", "--no-progress"], capsys)
    assert code == 0
    assert Ladder.load("x.json").agents == ["random", "greedy:chance_depth=1",
                                            "mcts:sims=4,c=1.4"]


@pytest.mark.parametrize("command", [[], ["add"], ["show"]])
def test_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["ladder", *command, "--help"])
    text = capsys.readouterr().out
    prog = " ".join(["savanna", "ladder", *command])
    assert exit_.value.code == 0 and text.startswith(f"usage: {prog} ")
    assert "``" not in text and "%%" not in text
