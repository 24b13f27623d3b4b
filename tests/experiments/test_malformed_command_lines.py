"""Every mistake a user can make on the command line, for every subcommand, ends the same way:
exit status 2 and exactly one line on stderr, ``savanna <command>: error: ...`` naming the
mistake, before any game is played or file written, and no warning. The table: bad, huge and
full-width numbers, unknown flags, unwritable paths, existing files and folders, hostile JSON,
a raw pickle given as a checkpoint."""
import pickle
import warnings

import pytest

from savanna.agents.arena.ladder import Ladder
from savanna.cli.main import main
from savanna.records import make_record, write_records
from savanna.registry import make_game

POSITION = "z...../..G.../....../.l..../...... g 21 - move"
HUGE = "9" * 30
WIDE = "５"  # FULLWIDTH DIGIT FIVE: int() reads it as 5


@pytest.fixture
def paths(tmp_path, monkeypatch):
    """In a fresh working folder: an existing file and picture, a folder holding a file, a
    file of JSON nested 100,000 deep (records, ladder and settings files alike), a ladder and
    a records file (of an unfinished game)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("mine\n")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "result.json").write_text("{}")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000 + "\n")
    (tmp_path / "old.svg").write_text("<svg/>")
    (tmp_path / "raw.pt").write_bytes(pickle.dumps({"format": "savanna-ppo"}, protocol=4))
    Ladder.new("zebres").save(tmp_path / "ladder.json")
    game = make_game("zebres")
    start = game.init(1, 0)
    write_records(tmp_path / "game.jsonl", [make_record(game, start, [], ["random"] * 2)])
    return {"file": "file.txt", "full": "full", "deep": "deep.json", "ladder": "ladder.json",
            "records": "game.jsonl", "existing_svg": "old.svg", "raw": "raw.pt"}


def expected_int(low, high):
    return f"expected an int in {low}..{high}, got"


GAMES = expected_int(1, 10_000_000)
SEED = expected_int(0, 2**63 - 1)
COUNT = expected_int(1, 10**9)

TABLE = [
    # --version and the top level
    (["--version", "extra"], "", "invalid choice: 'extra'"),
    (["--version", "warmup"], "", "--version takes no command or other arguments"),
    (["--frobnicate"], "", "unrecognized arguments: --frobnicate"),
    (["chess"], "", "invalid choice: 'chess'"),
    # play
    (["play", "zebres", "--seed", WIDE], "play", SEED),
    (["play", "zebres", "--seed", str(2**64)], "play", SEED),
    (["play", "zebres", "--seat", "１"], "play", expected_int(0, 10**9)),
    (["play", "zebres", "--sims", HUGE], "play", COUNT),
    (["play", "bonobo", "--players", WIDE], "play", COUNT),
    (["play", "zebres", "--agent", f"mcts:sims={WIDE}"], "play", "bad value '５' for sims"),
    (["play", "zebres", "--records", "/proc/x.jsonl"], "play", "cannot write in folder '/proc'"),
    (["play", "zebres", "--records", "{file}"], "play", "exists; give a new file"),
    (["play", "zebres", "--records", "{full}"], "play", "is a folder, not a file"),
    (["play", "zebres", "--load", "{deep}"], "play", "line 1: JSON nested more than 64 deep"),
    (["play", "zebres", "--frobnicate"], "play", "unrecognized arguments: --frobnicate"),
    # match
    (["match", "zebres", "random", "random", "--games", WIDE], "match", GAMES),
    (["match", "zebres", "random", "random", "--games", HUGE], "match", GAMES),
    (["match", "zebres", "random", "random", "--games", "1e3"], "match", GAMES),
    (["match", "zebres", "random", "random", "--workers", "100000"], "match",
     expected_int(1, 1024)),
    (["match", "zebres", "random", "random", "--seed", HUGE], "match", SEED),
    (["match", "bonobo", "random", "random", "-o", f"num_players={WIDE}"], "match",
     "disagree"),
    (["match", "zebres", "random", f"mcts:c=1.{WIDE}"], "match", "bad value '1.５' for c"),
    (["match", "zebres", "random", "random", "--out", "/proc/x"], "match",
     "cannot create folder '/proc/x'"),
    (["match", "zebres", "random", "random", "--out", "{full}"], "match", "already holds files"),
    (["match", "zebres", "random", "random", "--out", "{file}"], "match",
     "is a file, not a folder"),
    (["match", "zebres", "ppo:{raw}", "random"], "match", "agent 'ppo': 'raw.pt' is not a "),
    (["match", "zebres", "az:{raw}", "random"], "match", "agent 'az': 'raw.pt' is not a "),
    (["match", "zebres", "random", "random", "--frobnicate"], "match",
     "unrecognized arguments: --frobnicate"),
    # tournament
    (["tournament", "zebres", "--games-per-pair", WIDE], "tournament", GAMES),
    (["tournament", "zebres", "--games-per-pair", HUGE], "tournament", GAMES),
    (["tournament", "zebres", "--workers", "0"], "tournament", expected_int(1, 1024)),
    (["tournament", "zebres", "--out", "/proc/x"], "tournament", "cannot create folder"),
    (["tournament", "zebres", "--out", "{full}"], "tournament", "already holds files"),
    (["tournament", "zebres", "--frobnicate"], "tournament", "unrecognized arguments"),
    # replay
    (["replay", "{deep}"], "replay", "line 1: JSON nested more than 64 deep"),
    (["replay", "{file}"], "replay", "line 1 is not JSON"),
    (["replay", "/proc/none.jsonl"], "replay", "cannot read records file"),
    (["replay", "{file}", "--game", WIDE], "replay", expected_int(0, 10**9)),
    (["replay", "{file}", "--ply", HUGE], "replay", expected_int(0, 10**9)),
    (["replay", "{file}", "--seconds", WIDE], "replay", "must be a finite number, got '５'"),
    (["replay", "{file}", "--seconds", "1e400"], "replay", "must be a finite number"),
    (["replay", "{file}", "--frobnicate"], "replay", "unrecognized arguments"),
    # review
    (["review", "{deep}"], "review", "line 1: JSON nested more than 64 deep"),
    (["review", "/proc/none.jsonl"], "review", "cannot read records file"),
    (["review", "{records}", "--game", WIDE], "review", expected_int(0, 10**9)),
    (["review", "{records}", "--game", "1"], "review", "--game must be in 0..0"),
    (["review", "{records}", "--threshold", WIDE], "review", "must be a finite number, got '５'"),
    (["review", "{records}", "--seed", WIDE], "review", SEED),
    (["review", "{records}", "--agent", "mcts:sims=x"], "review", "sims"),
    (["review", "{records}", "--out", "{file}"], "review", "exists; give a new file"),
    (["review", "{records}", "--out", "/proc/x.csv"], "review", "cannot write in folder"),
    (["review", "{records}", "--frobnicate"], "review", "unrecognized arguments"),
    # train ppo
    (["train", "ppo", "zebres", "--steps", WIDE], "train ppo", "steps must be a number like"),
    (["train", "ppo", "zebres", "--envs", HUGE], "train ppo", "num_envs must be in 0 .. 65536"),
    (["train", "ppo", "zebres", "--rollout-len", "1e9"], "train ppo",
     "rollout_len must be in 0 .. 4096"),
    (["train", "ppo", "zebres", "--seed", "1e30"], "train ppo", "seed must be in 0 .. "),
    (["train", "ppo", "zebres", "--lr", WIDE], "train ppo", "lr must be a finite number"),
    (["train", "ppo", "zebres", "--hidden", f"128,12{WIDE}"], "train ppo",
     "hidden must be comma-separated ints"),
    (["train", "ppo", "zebres", "--opponents", f"self={WIDE}"], "train ppo",
     "bad opponent share 'self=５'"),
    (["train", "ppo", "--config", "{deep}"], "train ppo", "JSON nested more than 64 deep"),
    (["train", "ppo", "--config", "/proc/none.json"], "train ppo", "cannot read settings file"),
    (["train", "ppo", "--resume", "{file}"], "train ppo", "file.txt"),
    (["train", "ppo", "zebres", "--frobnicate"], "train ppo", "unrecognized arguments"),
    # train az
    (["train", "az", "zebres", "--games", "1e9"], "train az", "games must be in 0 .. 65536"),
    (["train", "az", "zebres", "--replay-window", "1G"], "train az",
     "replay_window must be in 0 .. 16777216"),
    (["train", "az", "zebres", "--minutes", WIDE], "train az", "minutes must be a finite number"),
    (["train", "az", "zebres", "--actors", WIDE], "train az", COUNT),
    (["train", "az", "--config", "{deep}"], "train az", "JSON nested more than 64 deep"),
    (["train", "az", "zebres", "--frobnicate"], "train az", "unrecognized arguments"),
    # distill and fit
    (["distill", "zebres", "--games", WIDE], "distill", "games must be a number like"),
    (["distill", "zebres", "--games", "1e9"], "distill", "games must be an int in 1..10,000,000"),
    (["distill", "zebres", "--teacher", "greedy"], "distill", "the teacher must be a UCT agent"),
    (["distill", "zebres", "--teacher", "mcts:sims=4,determinizations=8"], "distill",
     "must not exceed its sims"),
    (["distill", "zebres", "--student", "frob"], "distill", "unknown agent 'frob'"),
    (["distill", "zebres", "--opponent", "random"], "distill", "give student too"),
    (["distill", "zebres", "--out", "{full}"], "distill", "holds other files; give a new folder\n"),
    (["distill", "--resume", "{full}"], "distill", "is not a distillation dataset"),
    (["distill", "zebres", "--frobnicate"], "distill", "unrecognized arguments"),
    (["fit", "{file}"], "fit", "is not a distillation dataset"),
    (["fit", "{full}", "--hidden", f"1{WIDE}"], "fit", "hidden must be comma-separated ints"),
    (["fit", "{full}", "--steps", HUGE], "fit", "steps must be"),
    (["fit", "{full}", "--config", "{deep}"], "fit", "JSON nested more than 64 deep"),
    (["fit", "{full}", "--frobnicate"], "fit", "unrecognized arguments"),
    # analyse
    (["analyse", "zebres", POSITION, "--seed", WIDE], "analyse", SEED),
    (["analyse", "zebres", POSITION, "--agent", f"mcts:sims={HUGE}"], "analyse",
     "cannot fit in a tree of max_nodes"),
    (["analyse", "zebres", POSITION, "--frobnicate"], "analyse", "unrecognized arguments"),
    # ladder
    (["ladder", "add", "greedy", "--games", WIDE], "ladder add", GAMES),
    (["ladder", "add", "greedy", "--games", HUGE], "ladder add", GAMES),
    (["ladder", "add", "greedy", "--seed", WIDE], "ladder add", SEED),
    (["ladder", "add", "greedy", "--file", "{deep}"], "ladder add",
     "JSON nested more than 64 deep"),
    (["ladder", "add", "greedy", "--file", "/proc/x.json"], "ladder add",
     "cannot write in folder '/proc'"),
    (["ladder", "add", "greedy", "--file", "{full}"], "ladder add", "is a folder, not a file"),
    (["ladder", "add", "greedy", "--frobnicate"], "ladder add", "unrecognized arguments"),
    (["ladder", "show", "--file", "{deep}"], "ladder show", "JSON nested more than 64 deep"),
    (["ladder", "show", "--file", "/proc/none.json"], "ladder show", "no ladder file"),
    (["ladder", "show", "--frobnicate"], "ladder show", "unrecognized arguments"),
    (["ladder", "show", "--file", "{ladder}", "--plot", "/proc/x.png"], "ladder show",
     "cannot write in folder '/proc'"),
    (["ladder", "show", "--file", "{ladder}", "--plot", "{file}"], "ladder show",
     "must name a .png or .svg file"),
    (["replay", "{records}", "--gif", "/proc/x.gif"], "replay", "cannot write in folder"),
    (["replay", "{records}", "--svg", "{existing_svg}"], "replay", "exists; give a new file"),
    (["replay", "{records}", "--gif", "{full}"], "replay", "is a folder, not a file"),
    # serve (each refused before the server starts)
    (["serve", "--port", HUGE], "serve", expected_int(1, 65535)),
    (["serve", "--port", WIDE], "serve", expected_int(1, 65535)),
    (["serve", "--max-sims", HUGE], "serve", expected_int(1, 10**7)),
    (["serve", "--workers", "0"], "serve", expected_int(1, 64)),
    (["serve", "--max-seconds", "0"], "serve", "--max-seconds must be in (0, 3600], got 0"),
    (["serve", "--max-seconds", WIDE], "serve", "must be a finite number, got '５'"),
    (["serve", "{file}"], "serve", "file.txt is not a folder"),
    (["serve", "--save", "{file}"], "serve", "--save file.txt is not a folder"),
    (["serve", "--frobnicate"], "serve", "unrecognized arguments"),
    # sweep, bench, warmup, demo
    (["sweep", "ppo", "zebres", "--trials", WIDE], "sweep", COUNT),
    (["sweep", "ppo", "zebres", "--rungs", HUGE], "sweep", COUNT),
    (["sweep", "ppo", "zebres", "--seed", WIDE], "sweep", SEED),
    (["sweep", "ppo", "zebres", "--budget", WIDE], "sweep", "--budget must be a number like"),
    (["sweep", "ppo", "--config", "{deep}"], "sweep", "JSON nested more than 64 deep"),
    (["sweep", "ppo", "zebres", "--frobnicate"], "sweep", "unrecognized arguments"),
    (["bench", "--frobnicate"], "bench", "unrecognized arguments: --frobnicate"),
    (["bench", "--games", "chess", "--no-write"], "bench", "invalid choice: 'chess'"),
    (["warmup", "--frobnicate"], "warmup", "unrecognized arguments"),
    (["warmup", "--jobs", "0"], "warmup", expected_int(1, 1024)),
    (["demo", "--games", WIDE], "demo", GAMES),
    (["demo", "--sims", HUGE], "demo", COUNT),
    (["demo", "--seed", WIDE], "demo", SEED),
    (["demo", "--frobnicate"], "demo", "unrecognized arguments"),
    # check
    (["check", "chess"], "check", "unknown game 'chess'; registered: "),
    # study
    (["study", "zebres", "--players", "7", "--out", "fresh"], "study",
     "zebres takes 2 players, not 7"),
    (["study", "zebres", "--budget", "huge", "--out", "fresh"], "study",
     "invalid choice: 'huge'"),
    (["study", "zebres", "--seed", WIDE, "--out", "fresh"], "study", SEED),
    (["study", "zebres", "--out", "{file}"], "study", "is a file, not a folder"),
]


@pytest.mark.parametrize("argv, command, message", TABLE,
                         ids=[" ".join(row[0])[:60] for row in TABLE])
def test_a_malformed_command_line_is_one_line_and_exit_2(argv, command, message, paths,
                                                         capsys):
    argv = [arg.format(**paths) for arg in argv]
    with warnings.catch_warnings(record=True) as caught:  # a warning is a line on stderr too
        warnings.simplefilter("always")
        assert main(argv) == 2
    assert [str(w.message) for w in caught] == []
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(f"{f'savanna {command}'.strip()}: error: ")
    assert message.format(**paths) in err
    assert len(err) < 300


def test_the_table_covers_every_subcommand():
    """A new subcommand needs its rows."""
    from savanna.cli.main import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    covered = {argv[0] for argv, _, _ in TABLE}
    assert set(commands) <= covered
