"""``savanna train ppo|az``: flags generated from the settings dataclasses (every field, its doc
and default), ``--config FILE`` under the flags, ``--resume`` refusing new settings, one-line
errors, and an AlphaZero run in a new folder."""
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from savanna.agents.models.az_config import AZConfig
from savanna.agents.models.ppo_config import PPOConfig
from savanna.cli.arguments import NOT_FLAGS, add_config_flags, run_settings
from savanna.cli.main import build_parser, main
from savanna.metadata import package_version
from savanna.records import read_records

ROOT = Path(__file__).resolve().parents[2]
TRAINERS = [("ppo", PPOConfig), ("az", AZConfig)]


def settings(argv, cls):
    """The settings dict ``savanna train <argv>`` would start a run with."""
    return run_settings(cls, build_parser().parse_args(["train", *argv]), ())


@pytest.mark.parametrize("algorithm, cls, examples", [
    ("ppo", PPOConfig, ["--steps N learner decisions in all, e.g. 3M (default: 3000000)",
                        "--opponents TEXT shares of the games played against each opponent kind "
                        "(default: self=0.4,random=0.1,greedy=0.5)",
                        "--num-envs N, --envs N games played at once (default: 512, at most 65536)",
                        "--anneal-lr, --no-anneal-lr decay the learning rate"]),
    ("az", AZConfig, ["--ladder A,B the agents evaluated against, one per rung (default: "
                      "mcts:sims=100,mcts:sims=1000)",
                      "--minutes X training time of the run (evaluations not counted) "
                      "(default: 60.0)"]),
])
def test_every_setting_is_a_flag_with_its_doc_and_default(algorithm, cls, examples, capsys):
    with pytest.raises(SystemExit):
        main(["train", algorithm, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for f in dataclasses.fields(cls):
        flag = "--" + f.name.replace("_", "-")
        shown = f" {flag} " in text or f" {flag}, " in text
        assert shown == (f.name not in NOT_FLAGS), flag
        assert f.metadata["doc"] in text or f.name in NOT_FLAGS, f.name
    for example in examples:
        assert example in text


def test_flags_are_read_into_the_config():
    config = PPOConfig.from_dict(settings(
        ["ppo", "bonobo", "--steps", "250k", "--envs", "8", "--hidden", "16,16", "--lr", "3e-4",
         "--no-anneal-lr", "--opponents", "random=1", "-o", "num_players=3"], PPOConfig))
    assert (config.game, config.game_options, config.steps, config.num_envs) == (
        "bonobo", {"num_players": 3}, 250_000, 8)
    assert (config.hidden, config.lr, config.anneal_lr, config.opponents) == (
        (16, 16), 3e-4, False, {"random": 1.0})
    assert config.rollout_len == PPOConfig().rollout_len  # not given: the default
    az = AZConfig.from_dict(settings(["az", "zebres", "--ladder", "random,greedy",
                                      "--minutes", "0.5", "--gumbel-scale", "0"], AZConfig))
    assert (az.ladder, az.minutes, az.gumbel_scale) == (("random", "greedy"), 0.5, 0.0)


@pytest.mark.parametrize("algorithm, cls", TRAINERS)
def test_a_config_file_is_read_under_the_flags(algorithm, cls, tmp_path):
    earlier = cls(game="bonobo", game_options={"num_players": 3}, seed=4, hidden=(32,),
                  threads=2)
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**earlier.to_dict(), "metadata": {"git_commit": None}}))
    again = cls.from_dict(settings([algorithm, "--config", str(path)], cls))  # a run's own
    assert again == earlier
    changed = cls.from_dict(settings([algorithm, "--config", str(path), "--seed", "9",
                                      "-o", "num_players=4"], cls))
    assert changed == dataclasses.replace(earlier, seed=9, game_options={"num_players": 4})
    (tmp_path / "seed.json").write_text('{"seed": 2}')
    other = cls.from_dict(settings([algorithm, "zebres", "--config", str(tmp_path / "seed.json")],
                                   cls))
    assert (other.game, other.seed, other.hidden) == ("zebres", 2, cls().hidden)


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not JSON"),
    ('{"game": "zebres", "hidden": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "JSON nested more than 64 deep"),
    ("1" * 5000, "is not JSON ('Exceeds the limit"),
    ("[1, 2]", "must hold a JSON object of settings, got [1, 2]"),
    ('{"game": "zebres", "stepz": 3}', "unknown PPO settings ['stepz']; known: "),
    ('{"game": "zebres", "hidden": "wide"}', "hidden must be 1 to 8 layer widths"),
    ('{"game": "zebres", "num_envs": 1000000000000}', "num_envs must be at most 65536, got"),
    ('{"game": "zebres", "seed": 1e400}', "PPO setting seed must be an int"),
    ('{"game": "zebres", "seed": 100000000000000000000}', "seed must be at most 922337"),
    ('{"game": "zebres", "game_options": {"size": 9}}', "game 'zebres': "),
    ('{"seed": 1}', "name the game to train on (e.g. savanna train ppo zebres)"),
])
def test_a_bad_config_file_is_a_one_line_error(content, message, tmp_path, monkeypatch,
                                                capsys):
    monkeypatch.chdir(tmp_path)  # a short path: a long one is clipped in the message
    path = tmp_path / "config.json"
    path.write_text(content)
    assert main(["train", "ppo", "--config", "config.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("savanna train ppo: error: ")
    assert message in err


@pytest.mark.parametrize("argv, message", [
    (["ppo", "--config", "missing.json", "zebres"], "cannot read settings file 'missing.json'"),
    (["ppo", "--resume", "runs/x", "--lr", "0.1"],
     "only --steps may change, got --lr"),
    (["az", "--resume", "runs/x", "zebres", "--games", "8", "-o", "num_players=2"],
     "only --minutes may change, got a game, --games, -o"),
    (["az", "--resume", "runs/x", "--config", "c.json"], "only --minutes may change, got --config"),
    (["az", "zebres", "--sims", "many"], "argument --sims: sims must be a number like 3M"),
    (["az", "zebres", "--lr", "inf"], "argument --lr: lr must be a finite number, got 'inf'"),
    (["az", "zebres", "--hidden", "8,x"], "hidden must be comma-separated ints, got 'x'"),
    (["az", "zebres", "--batch-size", "0"], "batch_size must be a positive int, got 0"),
    (["az"], "name the game to train on (e.g. savanna train az zebres)"),
    (["az", "zebres", "--actors", "4"], "--actors and --address are for --backend ray"),
    (["az", "zebres", "--backend", "dask"], "argument --backend: invalid choice: 'dask'"),
    (["sarsa", "zebres"], "invalid choice: 'sarsa'"),
])
def test_bad_train_arguments_are_one_line_errors_naming_the_trainer(argv, message, capsys):
    assert main(["train", *argv]) == 2
    err = capsys.readouterr().err
    prog = "savanna train" if argv[0] == "sarsa" else f"savanna train {argv[0]}"
    assert err.count("\n") == 1 and err.startswith(f"{prog}: error: ") and message in err


def test_a_setting_of_a_type_without_a_flag_is_refused_when_flags_are_made():
    @dataclasses.dataclass
    class Odd:
        values: list = dataclasses.field(default_factory=list, metadata={"doc": "a list"})

    with pytest.raises(TypeError, match="no flag for the setting values"):
        add_config_flags(build_parser(), Odd)


def test_the_other_commands_do_not_import_torch():
    """The trainers' flags are made when ``train`` runs (their modules import torch)."""
    code = ("import sys; from savanna.cli.main import build_parser; "
            "build_parser().parse_args(['match', 'zebres', 'random', 'random']); "
            "print('torch' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "False"


def test_an_alphazero_run_gets_a_new_folder_and_an_atomic_config(tmp_path, monkeypatch,
                                                                  capsys):
    monkeypatch.setattr("savanna.files.stamp", lambda: "20260101-120000")
    taken = tmp_path / "zebres-az-3-20260101-120000"
    taken.mkdir()  # by another run started in the same second
    assert main(["train", "az", "zebres", "--seed", "3", "--minutes", "0.001", "--games", "2",
                 "--sims", "2", "--max-considered", "2", "--hidden", "8", "--batch-size", "4",
                 "--replay-window", "8", "--eval-games", "2", "--eval-sims", "2",
                 "--ladder", "random", "--runs-dir", str(tmp_path)]) == 0
    assert list(taken.iterdir()) == []
    folder = tmp_path / "zebres-az-3-20260101-120000-2"
    data = json.loads((folder / "config.json").read_text())
    metadata = data.pop("metadata")
    config = AZConfig.from_dict(data)
    assert (config.seed, config.games, config.ladder) == (3, 2, ("random",))
    assert metadata["options"] == {"board": "standard", "first_placer": 1}
    assert metadata["rules_version"].startswith("v0 zebres.md@")
    assert metadata["package_version"] == package_version()
    assert {"best.pt", "config.json", "last.pt", "eval.csv"} <= {p.name for p in folder.iterdir()}
    evaluation = folder / "eval-records" / "step-0.jsonl"  # at the start (and at the end)
    assert len(read_records(evaluation)) == 2  # --eval-games against the one rung
    assert not list(folder.glob("*.tmp*"))


@pytest.mark.parametrize("setting, value", [("games", 10**9), ("replay_window", 10**12),
                                            ("sims", 10**9), ("seed", 2**64)])
def test_alphazero_counts_past_their_maximum_are_refused_before_anything_is_built(setting,
                                                                                  value):
    from savanna.agents.models.az_config import AZConfig

    with pytest.raises(ValueError, match=f"^{setting} must be at most [0-9]+, got {value}$"):
        AZConfig(**{setting: value})
