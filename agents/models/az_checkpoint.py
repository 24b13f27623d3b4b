"""AlphaZero's checkpoint files: their contents (``network_contents``: the network with its
game and settings; a trainer adds its state) and their format, sealed and checked
(``savanna.agents.models.checkpoint``)."""
from savanna.agents.models.az_config import AZConfig
from savanna.agents.models.checkpoint import CheckpointFormat
from savanna.agents.models.networks import AZNet

__all__ = ["CHECKPOINT", "load_checkpoint", "network_contents", "save_checkpoint"]


CHECKPOINT = CheckpointFormat(
    "savanna-az", 2,  # 2: the whole file sealed, the game options stored
    "AlphaZero", AZConfig.from_dict, AZNet,
    contents={"counters": dict, "model": dict},
    trainer_contents={"learner": dict, "selfplay": dict, "credit": float, "moves": int,
                      "positions": int, "rng": dict},
    value_per_player=True)


def network_contents(game, config, model, counters=None, extra=None):
    """A checkpoint's contents holding a network only: ``model`` (a state dict) trained with
    ``config`` (an ``AZConfig``) for ``game``."""
    return CHECKPOINT.header(game, config, extra, counters=counters or {}, model=model)


def save_checkpoint(data, path):
    """Writes checkpoint contents sealed with their SHA-256, atomically."""
    CHECKPOINT.save(data, path)


def load_checkpoint(path, game=None):
    """An AlphaZero checkpoint's contents, verified and checked in full before anything is
    built from them (``savanna.agents.models.checkpoint.CheckpointFormat.load``)."""
    return CHECKPOINT.load(path, game)
