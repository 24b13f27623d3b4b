"""``savanna train ppo``: a tiny Zèbres run stopped and resumed, its folder, its agent."""
import csv

import numpy as np
import pytest

from savanna.agents.models.ppo_config import PPOConfig
from savanna.agents.play.registry import make_agent
from savanna.agents.training.ppo import Trainer
from savanna.cli.arguments import parse_count
from savanna.cli.main import main
from savanna.cli.train_ppo import run_training, text_curve
from savanna.records import read_records
from savanna.registry import make_game


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def stopped_and_resumed(tmp_path_factory):
    """A run of 4 updates, stopped after 2 (as Ctrl-C does) and resumed."""
    runs = tmp_path_factory.mktemp("runs")
    config = PPOConfig(steps=4 * 128, num_envs=16, rollout_len=8, minibatches=2, hidden=(16,),
                       eval_every=256, eval_games=4, checkpoint_every=128, threads=1)
    messages = []
    folder = run_training(config, runs_dir=runs, progress=False, write=messages.append,
                          stop_after=2)
    after_stop = {name: rows(folder / name) for name in ("metrics.csv", "eval.csv")}
    run_training(resume=folder, progress=False, write=messages.append)
    return folder, after_stop, messages


def test_a_stopped_run_saves_and_says_how_to_resume(stopped_and_resumed):
    folder, after_stop, messages = stopped_and_resumed
    assert folder.name.startswith("zebres-ppo-0-")
    assert [int(r["step"]) for r in after_stop["metrics.csv"]] == [128, 256]
    # the evaluation due with the checkpoint at 256 runs before it is saved (a run killed
    # after that checkpoint then has it once, never twice)
    assert [int(r["step"]) for r in after_stop["eval.csv"]] == [0, 256]
    assert any(f"--resume {folder}" in m for m in messages)


def test_the_resumed_run_continues_its_logs(stopped_and_resumed):
    folder, _, messages = stopped_and_resumed
    assert any("resuming" in m and "step 256" in m for m in messages)
    assert [int(r["step"]) for r in rows(folder / "metrics.csv")] == [128, 256, 384, 512]
    assert [int(r["step"]) for r in rows(folder / "eval.csv")] == [0, 256, 512]
    for name in ("config.json", "last.pt", "best.pt", "curve.png"):
        assert (folder / name).is_file(), name
    assert sorted(p.name for p in (folder / "eval-records").iterdir()) == [
        "step-0.jsonl", "step-256.jsonl", "step-512.jsonl"]
    records = read_records(folder / "eval-records" / "step-512.jsonl")
    assert [r.agents[r.info["match_game"] % 2] for r in records[:2]] == [
        "ppo:checkpoint=step 512"] * 2
    assert len(text_curve(folder).splitlines()) == 4


def test_the_best_checkpoint_is_an_agent(stopped_and_resumed, tmp_path):
    folder, _, _ = stopped_and_resumed
    game = make_game("zebres")
    agent = make_agent(f"ppo:{folder / 'best.pt'}")
    states = game.init(8, rng=0)
    actions = agent.act(game, states, np.random.default_rng(0))
    assert game.legal_mask(states)[np.arange(8), actions].all()
    status = main(["match", "zebres", f"ppo:{folder / 'best.pt'}", "random", "--games", "2",
                   "--workers", "1", "--no-progress", "--out", str(tmp_path / "match")])
    assert status == 0


def test_bad_train_arguments_are_one_line_errors(tmp_path, capsys):
    assert main(["train", "ppo"]) == 2
    assert main(["train", "ppo", "--resume", str(tmp_path)]) == 2
    assert main(["train", "ppo", "zebres", "--opponents", "mcts=1"]) == 2
    assert main(["train", "ppo", "zebres", "--hidden", "wide"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 4 and all(e.startswith("savanna train ppo: error:") for e in errors)
    assert "no PPO checkpoint" in errors[1] and "unknown opponent kinds" in errors[2]


def test_steps_are_read_with_suffixes():
    assert [parse_count(t, "steps") for t in ("3M", "250k", "1e6", "4096", "1.5m", "0")] == [
        3_000_000, 250_000, 1_000_000, 4096, 1_500_000, 0]
    with pytest.raises(ValueError, match="steps must be a number"):
        parse_count("lots", "steps")
    with pytest.raises(ValueError, match="steps must be a whole number, got '1.5'"):
        parse_count("1.5", "steps")


def test_shaped_rewards_telescope_to_the_game_returns():
    """Potential shaping adds Phi(s') - Phi(s), Phi = 0 at the end and at a Zèbres game's
    first decision (no token placed yet): over every whole game the shaped rewards sum to
    the game's reward, while single steps differ."""
    settings = dict(steps=1024, num_envs=16, rollout_len=64, minibatches=2, hidden=(16,),
                    opponents={"random": 1.0}, threads=1)
    plain, shaped = (Trainer(PPOConfig(shaping=k, **settings)) for k in (0.0, 0.1))
    plain.collect()
    shaped.collect()
    assert np.array_equal(plain.buffer.actions, shaped.buffer.actions)
    extra = shaped.buffer.rewards - plain.buffer.rewards
    assert np.abs(extra).max() > 0.05
    games = 0
    for env in range(16):
        ends = np.flatnonzero(plain.buffer.dones[:, env])
        for start, end in zip(ends[:-1] + 1, ends[1:]):
            assert extra[start:end + 1, env].sum() == pytest.approx(0, abs=1e-4)
            games += 1
    assert games >= 8
