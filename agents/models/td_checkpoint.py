"""TD model files: the value network with its game and settings (a run's ``best.pt``), or the
whole trainer (its ``last.pt``), sealed and written atomically as every checkpoint
(``savanna.agents.models.checkpoint``), and checked before anything is built from them."""
import numpy as np
import torch

from savanna.agents.models.checkpoint import (
    check_game,
    check_keys,
    load_sealed,
    quoted_path,
    save_sealed,
)
from savanna.agents.models.td_config import TDConfig
from savanna.metadata import game_options

__all__ = ["load_model", "net_from_contents", "save_model", "td_contents"]

FORMAT, VERSION = "savanna-td", 1
CONTENTS = {"game": str, "game_options": dict, "obs_shape": list, "num_actions": int,
            "num_players": int, "config": dict, "extra": dict, "net": dict, "games": int}
NET_KEYS = ("w1", "b1", "w2", "b2")


def td_contents(game, config, net, games, extra=None, **more):
    """A model file's contents: ``net`` (``savanna.agents.models.td_value``'s tuple) trained
    with ``config`` for ``games`` self-play games on ``game``; ``more``: the trainer's state."""
    return {"game": game.name, "game_options": game_options(game),
            "obs_shape": list(game.obs_shape), "num_actions": game.num_actions,
            "num_players": game.num_players, "config": config.to_dict(),
            "extra": extra or {}, "games": int(games),
            "net": {k: torch.from_numpy(np.array(w)) for k, w in zip(NET_KEYS, net)}, **more}


def save_model(data, path):
    """Writes model file contents sealed and atomically."""
    save_sealed(data, path, FORMAT, VERSION)


def load_model(path, game=None):
    """A TD model file's contents, checked (against ``game`` when given): a one-line
    ValueError naming the file for anything else."""
    name = quoted_path(path)
    data = load_sealed(path, name, FORMAT, VERSION, "TD")

    def invalid(what):
        return ValueError(f"{name} is not a valid TD model file: {what}")

    check_keys(data, CONTENTS, invalid)
    TDConfig.from_dict(data["config"])
    net = data["net"]
    if not isinstance(net, dict) or sorted(net) != sorted(NET_KEYS) or not all(
            isinstance(w, torch.Tensor) and w.dtype == torch.float32 for w in net.values()):
        raise invalid(f"its network must be float32 tensors {', '.join(NET_KEYS)}")
    size, hidden = int(np.prod(data["obs_shape"])), data["config"]["hidden"]
    shapes = {"w1": (size, hidden), "b1": (hidden,), "w2": (hidden,), "b2": (1,)}
    if any(tuple(net[k].shape) != s for k, s in shapes.items()):
        raise invalid(f"its weights are not of the shapes {shapes}")
    if not all(torch.isfinite(w).all() for w in net.values()):
        raise invalid("its weights are not all finite")
    if game is not None:
        check_game(data, game, name)
    return data


def net_from_contents(data):
    """The network tuple (``savanna.agents.models.td_value``) of checked contents."""
    return tuple(np.ascontiguousarray(data["net"][k].numpy()) for k in NET_KEYS)
