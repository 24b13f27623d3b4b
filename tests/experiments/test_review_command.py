"""``savanna review``: the CSV of a recorded tournament game is the Python call's, written to
``--out`` or printed; an existing file is kept without ``--overwrite``; a bad file, game index or
agent is a one-line error (exit 2) and writes nothing."""
import pytest

from savanna import make_game
from savanna.agents import review
from savanna.agents.play.review import default_reviewer
from savanna.cli.main import main
from savanna.cli.review_command import counted
from savanna.records import read_records
from tests.agents.test_review import AGENT, write_tournament_game


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    return write_tournament_game(tmp_path_factory.mktemp("match"))


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_csv_is_the_python_calls(records, tmp_path, capsys):
    out = tmp_path / "review.csv"
    code, printed, err = run(["review", records, "--game", 1, "--agent", AGENT, "--seed", 2,
                              "--threshold", 0.15, "--out", out], capsys)
    assert code == 0, err
    expected = review(read_records(records)[1], AGENT, threshold=0.15, seed=2)
    assert out.read_text() == expected.to_csv()
    lines = printed.splitlines()
    assert lines[0] == f"saved {out}"
    assert lines[1].startswith(f"{len(expected.decisions)} decisions reviewed by "
                               f"{expected.agent}; {len(expected.marked)} marked")
    for line, s in zip(lines[2:4], expected.summary(), strict=True):  # one per player
        assert line.strip().startswith(f"player {s['player']} ({expected.agents[s['player']]})")
        assert f"{counted(s['inaccuracies'], 'inaccuracy')}, " \
            f"{counted(s['mistakes'], 'mistake')}, {counted(s['blunders'], 'blunder')}" in line
        assert f"accuracy {s['accuracy']:.0f}%" in line
        assert f"average loss {s['average_drop']:.1f} points" in line
    assert [line.split(":")[0].strip() for line in lines[4:]] == \
        [f"move {k + 1}" for k in expected.marked["ply"]]  # the move list's numbers
    for line, m in zip(lines[4:], expected.marked, strict=True):  # a loss in words, never "-"
        shown = m["confirmed_drop"] if expected.confirm else m["drop"]  # the confirming search's
        assert f"{m['label']}, lost {100 * shown:.1f} points" in line
        assert f"player {m['player']} played" in line
    assert "review" in err  # the progress bar


def test_counts_are_plural_unless_one():
    assert [counted(n, "mistake") for n in (0, 1, 2)] == ["0 mistakes", "1 mistake",
                                                          "2 mistakes"]
    assert counted(1, "inaccuracy") == "1 inaccuracy" and counted(3, "inaccuracy") == \
        "3 inaccuracies"


def test_without_out_the_csv_goes_to_standard_output(records, capsys):
    code, printed, err = run(["review", records, "--agent", AGENT, "--no-progress"], capsys)
    assert code == 0
    assert printed == review(read_records(records)[0], AGENT).to_csv()
    assert err.startswith(f"{read_records(records)[0].plies} decisions reviewed")


def test_confirm_0_marks_every_first_drop_past_the_threshold(records, capsys):
    record = read_records(records)[0]
    code, printed, err = run(["review", records, "--agent", AGENT, "--confirm", 0,
                              "--threshold", 0.05, "--no-progress"], capsys)
    assert code == 0
    expected = review(record, AGENT, threshold=0.05, confirm=0)
    assert printed == expected.to_csv()
    d = expected.decisions
    assert d["label"].tolist() == ["" if x <= 0.05 else x > 0.15 and "blunder" or
                                   x > 0.1 and "mistake" or "inaccuracy" for x in d["drop"]]
    assert "confirmed" not in err.splitlines()[0]
    confirmed = review(record, AGENT, threshold=0.05)
    assert set(confirmed.marked["ply"]) <= set(expected.marked["ply"])


def test_repeats_sets_how_many_searches_confirm_a_mark(records, capsys):
    record = read_records(records)[0]
    code, printed, err = run(["review", records, "--agent", AGENT, "--repeats", 1,
                              "--threshold", 0.05, "--no-progress"], capsys)
    assert code == 0
    assert printed == review(record, AGENT, threshold=0.05, repeats=1).to_csv()
    assert "each confirmed by a search 4 times deeper" in err.splitlines()[0]


def test_an_existing_file_is_kept_without_overwrite(records, tmp_path, capsys):
    out = tmp_path / "review.csv"
    out.write_text("mine")
    code, _, err = run(["review", records, "--agent", AGENT, "--out", out], capsys)
    assert code == 2 and "exists" in err and len(err.splitlines()) == 1
    assert out.read_text() == "mine"
    code, _, _ = run(["review", records, "--agent", AGENT, "--out", out, "--overwrite",
                      "--no-progress"], capsys)
    assert code == 0 and out.read_text().startswith("ply,player,action,move")


@pytest.mark.parametrize("argv, message", [
    (["{missing}"], "cannot read records file"),
    (["{bad}"], "line 1 is not JSON"),
    (["{records}", "--game", "2"], "--game must be in 0..1"),
    (["{records}", "--agent", "nosuch"], "nosuch"),
    (["{records}", "--agent", "random"], "analysis needs a search agent"),
    (["{records}", "--agent", "mcts:sims=0"], "sims"),
    (["{records}", "--threshold", "-1"], "threshold must be"),
    (["{records}", "--threshold", "nan"], "must be a finite number"),
    (["{records}", "--out", "{tmp}/none/x.csv"], "no folder"),
    (["{records}", "--confirm", "65"], "confirm must be an int in 0..64"),
    (["{records}", "--confirm", "-1"], "expected an int"),
    (["{records}", "--repeats", "0"], "repeats must be an int in 1..16"),
])
def test_bad_input_is_a_one_line_error_and_writes_nothing(records, tmp_path, capsys, argv,
                                                          message):
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    names = {"records": records, "missing": tmp_path / "missing.jsonl",
             "bad": tmp_path / "bad.jsonl", "tmp": tmp_path}
    out = tmp_path / "out.csv"
    argv = [a.format(**names) for a in argv]
    code, printed, err = run(["review", *argv, "--no-progress",
                              *([] if "--out" in argv else ["--out", out])], capsys)
    assert code == 2 and printed == ""
    assert err.startswith("savanna review: error: ") and message in err, err
    assert len(err.splitlines()) == 1
    assert not out.exists()


def test_a_game_without_a_shipped_baseline_is_reviewed_by_mcts(tmp_path, capsys):
    """Connect four, like any plug-in game, ships no AlphaZero baseline: the default reviewer
    is then MCTS, which every game has."""
    assert main(["match", "connect_four", "random", "random", "--games", "1", "--workers", "1",
                 "--out", str(tmp_path / "m")]) == 0
    capsys.readouterr()
    code, out, err = run(["review", tmp_path / "m" / "records.jsonl", "--no-progress"], capsys)
    assert code == 0, err
    assert "decisions reviewed by mcts:sims=400" in err, err


def test_each_game_gets_its_measured_reviewer():
    """The shipped network reviews Zèbres and Bonobo Beach; Banjooli, whose network's marks a
    deeper search confirmed once in 12 games, is reviewed by ``mcts:sims=400``."""
    assert default_reviewer(make_game("zebres")) == "az:baseline,sims=128"
    assert default_reviewer(make_game("bonobo", num_players=2)) == "az:baseline,sims=128"
    assert default_reviewer(make_game("banjooli", num_players=2)) == "mcts:sims=400"
