"""Records from the command line: ``match`` and ``tournament`` save them, ``savanna replay``
steps through them (keys from stdin, ``--ply``, ``--all``, GIF and SVG), ``savanna play``
starts from a position or a record, records the game and offers hints. Exit codes, output,
and one-line errors for bad files, games and plies."""
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from savanna.cli.main import main
from savanna.records import read_records

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def zebres_records(tmp_path_factory):
    """A match's folder: two recorded Zèbres games."""
    out = tmp_path_factory.mktemp("match")
    assert main(["match", "zebres", "greedy", "random", "--games", "2", "--workers", "1",
                 "--no-progress", "--out", str(out / "m")]) == 0
    return out / "m" / "records.jsonl"


@pytest.fixture(scope="module")
def banjooli_records(tmp_path_factory):
    out = tmp_path_factory.mktemp("match") / "m"
    assert main(["match", "banjooli", "random", "random", "random", "-o", "terrain=1",
                 "--games", "1", "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    return out / "records.jsonl"


def one_line_error(capsys, command):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"savanna {command}: error: ")
    return err


def test_a_match_saves_its_records_and_metadata(zebres_records):
    records = read_records(zebres_records)
    assert [r.agents for r in records] == [["greedy:chance_depth=1", "random"],
                                           ["random", "greedy:chance_depth=1"]]
    for r in records:
        r.states()
    meta = json.loads((zebres_records.parent / "match.json").read_text())["metadata"]
    assert meta["game"] == "zebres" and meta["options"]["board"] == "standard"


def test_no_records_leaves_them_out(tmp_path, capsys):
    assert main(["tournament", "zebres", "random", "random", "--games-per-pair", "1",
                 "--workers", "1", "--no-progress", "--no-records", "--out",
                 str(tmp_path / "t")]) == 0
    assert not (tmp_path / "t" / "records.jsonl").exists()
    assert (tmp_path / "t" / "tournament.json").exists()


def test_replay_prints_one_ply_or_every_ply(zebres_records, capsys):
    plies = read_records(zebres_records)[1].plies
    assert main(["replay", str(zebres_records), "--game", "1", "--ply", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"ply 2/{plies}\nseat 1 (greedy:chance_depth=1): ")
    assert "inauguration" in text  # the game's text picture
    assert main(["replay", str(zebres_records), "--all"]) == 0
    text = capsys.readouterr().out
    assert [line.split()[1] for line in text.splitlines() if line.startswith("ply ")] == [
        f"{k}/{read_records(zebres_records)[0].plies}"
        for k in range(read_records(zebres_records)[0].plies + 1)]
    assert "(end; returns " in text


def test_replay_steps_forward_and_back_with_keys(zebres_records, capsys, monkeypatch):
    keys = "n\n\np\n999\nx\n\u00b2\n\uff15\n" + "9" * 5000 + "\n5\nq\nn\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(keys))
    assert main(["replay", str(zebres_records)]) == 0
    text = capsys.readouterr().out
    shown = [line.split()[-1].split("/")[0] for line in text.splitlines()
             if line.split("> ")[-1].startswith("ply ")]
    assert shown == ["0", "1", "2", "1", "5"]
    assert "no ply 999: plies go from 0 to " in text and "unknown key 'x'" in text
    # '²' and '５' are digits to str.isdigit, 5000 digits too many for int(): unknown keys
    assert "unknown key '\u00b2'" in text and "unknown key '\uff15'" in text
    assert "unknown key '99999" in text


def test_replay_reads_keys_from_standard_input_until_its_end(zebres_records):
    done = subprocess.run([sys.executable, "-m", "savanna.cli", "replay",
                           str(zebres_records)],
                          input="n\n", capture_output=True, text=True, cwd=ROOT,
                          env=os.environ | {"PYTHONPATH": str(ROOT)}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "ply 1/" in done.stdout and done.stderr == ""


def test_replay_shows_one_seat_s_view(banjooli_records, capsys):
    assert main(["replay", str(banjooli_records), "--ply", "0"]) == 0
    everything = capsys.readouterr().out
    assert main(["replay", str(banjooli_records), "--ply", "0", "--player", "1"]) == 0
    view = capsys.readouterr().out
    assert "cards=?," in view and "cards=?," not in everything
    assert "(the view of seat 1)" in view


def test_replay_exports_a_gif_and_an_animated_svg(zebres_records, tmp_path, capsys):
    from PIL import Image

    data = json.loads(zebres_records.read_text().splitlines()[0])
    data.update(moves=data["moves"][:5], returns=None)  # the first five moves (fast to draw)
    path = tmp_path / "opening.jsonl"
    path.write_text(json.dumps(data) + "\n")
    plies = read_records(path)[0].plies
    gif, svg = tmp_path / "game.gif", tmp_path / "game.svg"
    assert main(["replay", str(path), "--gif", str(gif), "--svg", str(svg),
                 "--seconds", "0.5"]) == 0
    assert capsys.readouterr().out == f"saved {gif}\nsaved {svg}\n"
    with Image.open(gif) as image:
        assert image.n_frames == plies + 1 and image.info["duration"] == 500
    root = ET.fromstring(svg.read_text())
    frames = [g for g in root if g.tag.endswith("g")]
    assert len(frames) == plies + 1
    assert all(g[0].tag.endswith("animate") for g in frames)
    assert main(["replay", str(path), "--gif", str(gif)]) == 2
    assert "exists; give a new file" in one_line_error(capsys, "replay")


@pytest.mark.parametrize("content, argv, message", [
    (None, ["--game", "2"], "--game must be in 0..1 ("),
    (None, ["--ply", "999"], "ply must be in 0.."),
    (None, ["--player", "2"], "--player must be a seat in 0..1, got 2"),
    (None, ["--game", "-1"], "argument --game: expected an int in 0..1000000000, got '-1'"),
    (None, ["--seconds", "0"], "--seconds must be in (0, 3600), got 0"),
    (None, ["--ply", "1", "--all"], "not allowed with argument --ply"),
    ("", [], "holds no records"),
    ("{}\nnot json\n", [], "line 1: not a savanna-record/1 record"),
    ("line 2 is bad", [], "line 1 is not JSON (Expecting value at column 1)"),
])
def test_bad_replays_are_one_line_errors(content, argv, message, zebres_records, tmp_path,
                                         capsys):
    path = zebres_records
    if content is not None:
        path = tmp_path / "bad.jsonl"
        path.write_text(content)
    assert main(["replay", str(path), *argv]) == 2
    assert message in one_line_error(capsys, "replay")


def test_replay_of_a_missing_file_or_a_record_that_does_not_replay(zebres_records, tmp_path,
                                                                   capsys):
    assert main(["replay", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read records file" in one_line_error(capsys, "replay")
    lines = zebres_records.read_text().splitlines()
    data = json.loads(lines[1])
    data["moves"][3]["action"] = data["moves"][2]["action"]
    path = tmp_path / "edited.jsonl"
    path.write_text(lines[0] + "\n" + json.dumps(data) + "\n")
    assert main(["replay", str(path), "--game", "1", "--ply", "0"]) == 2
    assert "line 2: move 3 (" in one_line_error(capsys, "replay")


# ----- play: start anywhere, record, hint ---------------------------------------------------------
def test_play_from_a_position_records_the_game(tmp_path, capsys, monkeypatch):
    position = "....../....../...e../....../...... r 5 - place"  # after start 3, E d3, impala +2
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    path = tmp_path / "game.jsonl"
    assert main(["play", "zebres", "--agent", "mcts:sims=50", "--position", position,
                 "--records", str(path)]) == 0
    text = capsys.readouterr().out
    assert "hint (mcts:sims=50,c=1.4, 50 simulations; mean value for seat 0: " in text
    (record,) = read_records(path)
    assert record.start == position and record.agents == ["human", "mcts:sims=50,c=1.4"]
    assert record.returns is None and record.info == {"command": "play"}
    record.states()


def test_play_from_a_recorded_position(zebres_records, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    path = tmp_path / "again.jsonl"
    assert main(["play", "zebres", "--agent", "random", "--load", str(zebres_records),
                 "--game", "1", "--ply", "4", "--records", str(path)]) == 0
    (record,) = read_records(path)
    original = read_records(zebres_records)[1]
    assert record.start == original.game().to_text(original.position(4))
    assert record.info["from"] == f"{zebres_records} game 1 ply 4"


@pytest.mark.parametrize("argv, message", [
    (["--position", "nonsense"], "savanna play: error: "),
    (["--ply", "3"], "--game and --ply choose a position of a recorded game: give --load"),
    (["--overwrite"], "--overwrite needs --records"),
    (["--load", "{records}", "-o", "board=president"], "--load plays the recorded game with"),
    (["--load", "{records}", "--game", "7"], "--game must be in 0..1 ("),
    (["--load", "{records}", "--ply", "999"], "ply must be in 0.."),
    (["--records", "{records}"], "exists; give a new file, or allow overwriting"),
])
def test_play_start_mistakes_are_one_line_errors(argv, message, zebres_records, capsys):
    argv = [a.replace("{records}", str(zebres_records)) for a in argv]
    assert main(["play", "zebres", "--agent", "random", *argv]) == 2
    assert message in one_line_error(capsys, "play")


def test_play_load_names_a_record_of_another_game(zebres_records, capsys):
    assert main(["play", "bonobo", "--load", str(zebres_records)]) == 2
    assert "is a game of 'zebres', not 'bonobo'" in one_line_error(capsys, "play")


def test_replay_says_when_the_rules_changed_since_the_game(zebres_records, tmp_path, capsys,
                                                            monkeypatch):
    data = json.loads(zebres_records.read_text().splitlines()[0])
    data["rules_version"] = "v0 zebres.md@000000000000"
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(data) + "\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["replay", str(path)]) == 0
    assert "(played under v0 zebres.md@000000000000, replayed under v0 zebres.md@" in (
        capsys.readouterr().out)
