"""A user's script that plays a network agent through ``play_match`` (or trains PPO on two
workers) at its top level, without ``if __name__ == "__main__":``: torch is loaded, so the
workers are spawned, and they must not run the script again (each would start the match anew:
multiprocessing's 'bootstrapping phase' RuntimeError, over and over)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
from savanna import make_game
from savanna.agents import make_agent, play_match

result = play_match(make_game("zebres"), [make_agent({spec!r}), make_agent("random")],
                    games=4, seed=0, workers=2, progress=False)
print(result.table())
"""


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    """Untrained PPO and AlphaZero networks for Zèbres, saved as checkpoints."""
    from savanna.agents.models.az_checkpoint import save_checkpoint
    from savanna.agents.models.az_config import AZConfig
    from savanna.agents.models.ppo_config import PPOConfig
    from savanna.agents.training import alphazero, ppo

    folder = tmp_path_factory.mktemp("nets")
    ppo.Trainer(PPOConfig(game="zebres", num_envs=8, rollout_len=4, minibatches=1,
                          hidden=(16, 16))).save(folder / "ppo.pt", full=False)
    trainer = alphazero.Trainer(AZConfig(game="zebres", games=2, sims=8, hidden=(16, 16)))
    save_checkpoint(trainer.checkpoint(full=False), folder / "az.pt")
    return folder


@pytest.mark.parametrize("spec", [
    "ppo:{folder}/ppo.pt",
    pytest.param("az:{folder}/az.pt,sims=4", marks=pytest.mark.slow),  # the same path, 25 s
])
def test_a_script_without_a_main_guard_plays_a_network_agent_on_workers(spec, checkpoints,
                                                                        tmp_path):
    script = tmp_path / "match.py"
    script.write_text(SCRIPT.format(spec=spec.format(folder=checkpoints)))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "zebres: 4 games, seats rotated" in done.stdout
    assert done.stderr == ""


TRAIN_SCRIPT = """\
from savanna.agents.models.ppo_config import PPOConfig
from savanna.agents.training.ppo import Trainer

trainer = Trainer(PPOConfig(game="zebres", num_envs=8, rollout_len=4, minibatches=1,
                            hidden=(16, 16), workers=2))
print("episodes" in trainer.step(), trainer.global_step)
trainer.close()
"""


def test_a_script_without_a_main_guard_trains_ppo_on_two_workers(tmp_path):
    """The PPO workers are spawned too (``savanna.agents.processes``), and the same way."""
    script = tmp_path / "train.py"
    script.write_text(TRAIN_SCRIPT)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "32"]
    assert done.stderr == ""
