"""PPO's checkpoint files, sealed and checked (``savanna.agents.models.checkpoint``): a run's
``best.pt`` holds the network, its ``last.pt`` the whole trainer."""
import torch

from savanna.agents.models.checkpoint import CheckpointFormat
from savanna.agents.models.networks import PolicyValueNet
from savanna.agents.models.ppo_config import PPOConfig

__all__ = ["CHECKPOINT", "load_checkpoint", "network_from_checkpoint", "save_atomically"]


CHECKPOINT = CheckpointFormat(
    "savanna-ppo", 3,  # 2: the contents sealed with a SHA-256; 3: the whole file, options
    "PPO", PPOConfig.from_dict, PolicyValueNet,
    contents={"num_players": int, "global_step": int},
    trainer_contents={"model": dict, "optimizer": dict, "pool": list, "counters": dict,
                      "rng": dict, "envs": list, "episode_return": torch.Tensor},
    snapshots="pool")


def save_atomically(data, path):
    """Write checkpoint contents ``data`` at ``path``, sealed and atomically."""
    CHECKPOINT.save(data, path)


def load_checkpoint(path, game=None, need_trainer=False):
    """A PPO checkpoint's contents, verified and checked in full before anything is built
    from them (``savanna.agents.models.checkpoint.CheckpointFormat.load``)."""
    return CHECKPOINT.load(path, game, need_trainer)


def network_from_checkpoint(data, game):
    """The policy-value network stored in checkpoint contents from ``load_checkpoint``, in
    eval mode."""
    return CHECKPOINT.network(data, game)
