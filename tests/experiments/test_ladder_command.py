"""``savanna ladder add`` and ``show``: a file created and grown, a plot, one-line errors."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from savanna.agents.arena.ladder import Ladder
from savanna.cli.main import main
from savanna.files import locked

ROOT = Path(__file__).resolve().parents[2]


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
    from savanna.agents.arena.ladder import Ladder
    Ladder.new("zebres").save(tmp_path / "x.json")
    code, out, err = run(["ladder", *argv], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"savanna ladder {argv[0]}: error: ")
    assert message in err and err.count("\n") == 1


def test_two_adds_at_once_keep_both_agents_and_they_meet(tmp_path):
    """Two ``savanna ladder add`` processes started together on one file: the lock beside the
    file makes them wait (this test holds it until both do), then each reads, plays and saves
    in turn, so both agents are on the ladder and the later one played the earlier."""
    Ladder.new("zebres").save(tmp_path / "x.json")
    command = [sys.executable, "-m", "savanna.cli", "ladder", "add", "--games", "2",
               "--file", "x.json", "--workers", "1", "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with locked(tmp_path / "x.json"):
        adds = [subprocess.Popen([*command[:5], agent, *command[5:]], cwd=tmp_path, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for agent in ("greedy", "mcts:sims=4")]
        for add in adds:
            assert add.stdout.readline().startswith("waiting for another savanna ladder add")
    for add in adds:
        _, err = add.communicate(timeout=300)
        assert add.returncode == 0 and err == ""
    ladder = Ladder.load(tmp_path / "x.json")
    first, second = ladder.agents[1:]
    assert {first, second} == {"greedy:chance_depth=1", "mcts:sims=4,c=1.4"}
    assert [m["agents"] for m in ladder.matches] == [[first, "random"], [second, "random"],
                                                     [second, first]]


@pytest.mark.parametrize("command", [[], ["add"], ["show"]])
def test_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["ladder", *command, "--help"])
    text = capsys.readouterr().out
    prog = " ".join(["savanna", "ladder", *command])
    assert exit_.value.code == 0 and text.startswith(f"usage: {prog} ")
    assert "``" not in text and "%%" not in text
