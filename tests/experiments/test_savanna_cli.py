"""The ``savanna`` command: help everywhere, one-line errors, a typed game, a tiny match."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli import main

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["play", "match", "tournament", "bench", "demo"]


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    assert "usage:" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["match", "chess", "random", "random"],
     "unknown game 'chess'; available: banjooli, bonobo, zebres"),
    (["match", "zebres", "random", "mtcs"], "unknown agent 'mtcs'; available: "),
    (["match", "zebres", "mcts:sims=abc", "random"],
     "agent 'mcts': bad value 'abc' for sims (expected int)"),
    (["match", "zebres", "random"], "zebres is a 2-player game: give 2 agents, got 1"),
    (["match", "zebres", "random", "random", "-o", "size=9"],
     "game 'zebres' has no option 'size'; options: board, first_placer"),
    (["play", "zebres", "--agent", "random", "--sims", "10"],
     "agent 'random' has no setting 'sims'"),
    (["tournament", "zebres", "random"], "needs at least 2 agents, got 1"),
])
def test_bad_arguments_end_with_one_line_naming_the_mistake(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith(f"savanna {argv[0]}: error")


def test_a_typed_game_explains_bad_entries_and_plays_to_the_end(capsys, monkeypatch):
    """The human plays red: a wrong kind of move, nonsense and the moves list, then always
    the first legal move until the game ends."""
    script = ["Z a1", "hello", "moves", "help"]
    outputs = []

    def human(prompt):
        outputs.append(capsys.readouterr().out)
        if script:
            return script.pop(0)
        listing = [line for line in outputs[-1].splitlines() if line.startswith("legal moves: ")]
        if not listing:
            return "moves"
        return listing[-1].removeprefix("legal moves: ").split(", ")[0]

    monkeypatch.setattr("builtins.input", human)
    assert main(["play", "zebres", "--agent", "greedy", "--seed", "1"]) == 0
    outputs.append(capsys.readouterr().out)
    text = "".join(outputs)
    assert "error: illegal move 'Z a1' here; legal: start 0, start 1" in text
    assert "error: unknown action 'hello'" in text
    assert "Type a move by its name ('start 0', 'start 1', 'start 2')" in text
    assert "you (seat 0): start 0" in text
    assert "greedy:chance_depth=1 (seat 1): " in text
    assert text.rstrip().splitlines()[-1].startswith(("You win", "You lose", "Draw"))


def test_play_reads_moves_from_standard_input_and_stops_at_its_end():
    script = "Z a1\n\nmoves\nstart 3\n"
    done = subprocess.run([sys.executable, "-m", "experiments", "play", "zebres", "--agent",
                           "random"], input=script, capture_output=True, text=True, cwd=ROOT,
                          env=os.environ | {"PYTHONPATH": str(ROOT)}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "error: illegal move 'Z a1' here" in done.stdout
    assert "you (seat 0): start 3" in done.stdout
    assert "random (seat 1): " in done.stdout
    assert done.stdout.rstrip().endswith("You left the game.")


def test_a_tiny_match_prints_its_table_and_saves_json_and_csv(tmp_path, capsys):
    out = tmp_path / "m"
    assert main(["match", "zebres", "greedy", "random", "--games", "4", "--workers", "1",
                 "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "zebres: 4 games, seats rotated" in text
    assert "Elo difference (greedy:chance_depth=1 - random)" in text
    data = json.loads((out / "match.json").read_text())
    assert data["agents"] == ["greedy:chance_depth=1", "random"] and data["games"] == 4
    assert len((out / "games.csv").read_text().splitlines()) == 5
