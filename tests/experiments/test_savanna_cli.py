"""The ``savanna`` command: help everywhere, one-line errors, a typed game, a tiny match,
game options and the player count, the board drawn after chance nodes."""
import argparse
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from savanna.cli.arguments import option_value
from savanna.cli.main import build_parser, main
from savanna.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["play", "match", "tournament", "replay", "train", "bench", "warmup", "demo"]


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_every_command_has_help_in_plain_text(command, capsys):
    """No ``%%`` left by argparse's escaping, no reST double backticks from the docstrings,
    and the prog is the ``savanna`` command (bench's parser lives in benchmarks)."""
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: savanna {' '.join(command)}".rstrip() + " ")
    assert "%%" not in text and "``" not in text and "python -m savanna.benchmarks" not in text


def test_the_match_help_speaks_of_95_percent_intervals(capsys):
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    assert "with 95% intervals" in " ".join(capsys.readouterr().out.split())


def _parsers(parser):
    """Every (sub)command's parser under ``parser``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield sub
                yield from _parsers(sub)


def test_the_address_help_names_the_flag_that_plays_on_ray_in_its_own_command():
    named = {}
    for parser in _parsers(build_parser()):
        options = parser._option_string_actions
        if "--address" in options:
            flag, *value = re.search(r"\(with ([^)]+)\)", options["--address"].help)[1].split()
            assert flag in options, (parser.prog, flag)
            assert all(v in options[flag].choices for v in value), (parser.prog, value)
            named[parser.prog.split(maxsplit=1)[1]] = " ".join([flag, *value])
    assert named == {"match": "--backend ray", "tournament": "--backend ray",
                     "train az": "--backend ray", "sweep": "--backend ray", "study": "--ray"}


def test_version(capsys):
    assert main(["--version"]) == 0
    assert re.fullmatch(r"savanna \d+\.\d+\.\d+\S*( \(git [0-9a-f]{40}(\+dirty)?\))?\n",
                        capsys.readouterr().out)


@pytest.mark.parametrize("argv, message", [
    (["match", "chess", "random", "random"],
     f"unknown game 'chess'; available: {', '.join(sorted(GAMES))}"),
    (["match", "zebres", "random", "mtcs"], "unknown agent 'mtcs'; available: "),
    (["match", "zebres", "random", "./nowhere.py:MyAgent"],
     "agent './nowhere.py:MyAgent' cannot be imported: ImportError: no file nowhere.py"),
    (["match", "zebres", "random", "savanna.nowhere:MyAgent"],
     "agent 'savanna.nowhere:MyAgent' cannot be imported: ModuleNotFoundError"),
    (["match", "zebres", "random", "savanna.errors:clip"],
     "agent 'savanna.errors:clip' is not a class"),
    (["match", "zebres", "mcts:sims=abc", "random"],
     "agent 'mcts': bad value 'abc' for sims (expected int)"),
    (["match", "zebres", "random"], "zebres takes 2 players, not 1 (the number of agents)"),
    (["match", "bonobo", "random"], "bonobo takes 2 to 4 players, not 1 (the number of agents)"),
    (["match", "zebres", "random", "random", "-o", "size=9"],
     "game 'zebres' has no option 'size'; options: board, first_placer"),
    (["play", "zebres", "--agent", "random", "--sims", "10"],
     "agent 'random' has no setting 'sims'"),
    (["tournament", "zebres", "random"], "needs at least 2 agents, got 1"),
    (["match", "zebres", "random", "random", "--games", "abc"],
     "argument --games: expected an int in 1..10000000, got 'abc' (see savanna match --help)"),
    (["match", "zebres", "random", "random", "--gmaes", "3"], "unrecognized arguments: --gmaes"),
    (["match", "zebres", "random", "random", "-o", "board"],
     "game option must be KEY=VALUE, got 'board'"),
    (["match", "bonobo", "random", "random", "random", "-o", "num_players=4"],
     "the number of agents (3) and -o num_players=4 disagree"),
    (["play", "bonobo", "--players", "3", "-o", "num_players=4"],
     "--players (3) and -o num_players=4 disagree"),
    (["match", "banjooli", "random", "random", "-o", "course=K3,K4"],
     "course has two adjacent curves K3, K4"),
    (["train", "ppo", "zebres", "--steps", "many"],
     "argument --steps: steps must be a number like 3M, 250k or 1e6, got 'many'"),
    (["train", "ppo", "zebres", "--steps", "1e400"], "steps must be in 0 .. 1e15, got '1e400'"),
    (["match", "zebres", "random", "random", "--games", "-3"],
     "argument --games: expected an int in 1..10000000, got '-3'"),
    (["match", "zebres", "random", "random", "--seed", "-1"],
     "argument --seed: expected an int in 0..9223372036854775807, got '-1'"),
    (["demo", "--sims", "0"], "argument --sims: expected an int in 1..1000000000, got '0'"),
    (["train", "ppo", "zebres", "--envs", "0"], "num_envs must be a positive int, got 0"),
    (["train", "ppo", "zebres", "--envs", "x"],
     "argument --num-envs/--envs: num_envs must be a number like 3M"),
    (["train", "ppo", "zebres", "-o", "size=9"], "game 'zebres' has no option 'size'"),
    (["match", "zebres", "random", "random", "--address", "auto"],
     "--address is the Ray cluster's: give it with --backend ray"),
    (["tournament", "zebres", "--backend", "spark"],
     "argument --backend: invalid choice: 'spark'"),
    (["sweep", "ppo", "zebres", "--budget", "lots"], "--budget must be a number like 3M"),
    (["sweep", "az", "zebres", "--budget", "-1"], "--budget must be minutes > 0 for az, got '-1'"),
    (["sweep", "dqn", "zebres"], "argument algorithm: invalid choice: 'dqn'"),
])
def test_bad_arguments_end_with_one_line_naming_the_mistake(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    prog = " ".join(argv[:2] if argv[0] == "train" else argv[:1])  # train ppo, train az
    assert err.count("\n") == 1 and message in err and err.startswith(f"savanna {prog}: error")


@pytest.mark.parametrize("argv", [
    ["match", "x" * 1_200_000, "random", "random"],
    ["match", "zebres", "random", "random", "-o", "board=" + "x" * 1_200_000],
    ["match", "zebres", "random", "random", "-o", "x" * 1_200_000],
    ["match", "zebres", "random", "mcts:sims=" + "1x" * 600_000],
    ["train", "ppo", "zebres", "--steps", "x" * 1_200_000],
])
def test_a_huge_bad_input_gives_a_short_message(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 250 and "xxx..." in err.replace("1x", "x")


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
    done = subprocess.run([sys.executable, "-m", "savanna.cli", "play", "zebres", "--agent",
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


def test_a_match_takes_its_player_count_from_the_agents(tmp_path, capsys):
    out = tmp_path / "m"
    assert main(["match", "bonobo", "random", "random", "random", "--games", "3", "--workers",
                 "1", "--no-progress", "--out", str(out)]) == 0
    data = json.loads((out / "match.json").read_text())
    assert sorted(data["per_game"]["seats"][0]) == [0, 1, 2]


def test_a_game_option_with_commas_is_a_list(tmp_path, capsys):
    """Banjooli's fixed course: four faces, not the eleven characters of the text."""
    out = tmp_path / "m"
    assert main(["match", "banjooli", "random", "random", "-o", "course=K3,T8,T6,T1", "-o",
                 "berries=true", "--games", "2", "--workers", "1", "--no-progress", "--out",
                 str(out)]) == 0
    assert "banjooli: 2 games" in capsys.readouterr().out


@pytest.mark.parametrize("text, value", [
    ("K3,T8,T6,T1", ("K3", "T8", "T6", "T1")), ("K3,", ("K3",)), ("3", 3), ("-2", -2),
    ("true", True), ("False", False), ("none", None), ("president", "president"),
])
def test_option_values(text, value):
    assert option_value(text) == value and type(option_value(text)) is type(value)


@pytest.mark.parametrize("argv, script, marker", [
    (["play", "bonobo", "--agent", "random"], "draw\nquit\n", "\nplace "),
    (["play", "banjooli", "--agent", "random"], "quit\n", " phase=reroll dice="),
])
def test_the_board_is_drawn_after_chance_before_a_human_decides(argv, script, marker, capsys,
                                                                monkeypatch):
    """Bonobo: after 'draw', the drawn tile is shown before the human places it. Banjooli:
    the rolled dice are shown before the human chooses rerolls."""
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main([*argv, "--seed", "4"]) == 0
    *answered, last = capsys.readouterr().out.split("'quit')> ")
    since_chance = answered[-1].rsplit("chance: ", 1)[1]
    assert marker in since_chance
