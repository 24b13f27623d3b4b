"""Checkpoint files shared by every trainer: sealed whole with a SHA-256, written atomically, and
their contents checked in one place before anything is built from it.

A file is two header lines, ``savanna-checkpoint`` and ``<format> <version> <sha256>``, then
the torch serialisation of the contents (read with ``weights_only=True``); the SHA-256 covers
every byte after the header. Each trainer declares its files as a ``CheckpointFormat``, whose
``load`` checks keys, settings, network sizes (before any allocation) and weights;
``check_game`` refuses a network of another game or other game options.
"""
import glob
import hashlib
import io
import math
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

from savanna.agents.models.networks import load_weights, network_shapes
from savanna.agents.settings import TYPE_CHECKS, TYPE_NAMES
from savanna.errors import clip, is_int
from savanna.files import read_at_most
from savanna.metadata import game_options, option_differences

__all__ = ["CheckpointFormat", "check_game", "check_keys", "load_sealed", "quoted_path",
           "save_sealed"]

MAGIC = b"savanna-checkpoint\n"
MAX_FILE_BYTES = 4 << 30  # refused before reading: 8 layers of 4096 and their pool fit well
MAX_HEADER_BYTES = 256    # the header's second line: format, version and SHA-256
# Sizes a network is built from, bounded before any allocation (a bigger game is a mistake)
MAX_OBS_SIZE, MAX_ACTIONS, MAX_PLAYERS = 1 << 20, 1 << 16, 16
# What every trainer's contents hold, by key and type
COMMON_CONTENTS = {"game": str, "game_options": dict, "obs_shape": list, "num_actions": int,
                   "num_players": int, "config": dict, "extra": dict}


def save_sealed(data, path, format, version):
    """Write ``data`` sealed at ``path`` without ever leaving a partial file: into a temporary
    file in the same folder, fsynced, then renamed over ``path``. If writing fails (a full
    disk) the temporary file is removed and the previous checkpoint kept; temporary files left
    by a run killed mid-write are removed first. One process writes a given checkpoint at a
    time (a run owns its folder)."""
    body = _serialized(data)
    blob = MAGIC + f"{format} {version} {_digest(format, version, body)}\n".encode() + body
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        stale.unlink(missing_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as err:
        tmp.unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise OSError(err.errno, f"could not save the checkpoint {quoted_path(path)} "
                                     f"({err.strerror or clip(str(err))}); the previous file, "
                                     "if any, is kept") from None
        raise
    folder = os.open(path.parent, os.O_RDONLY)  # make the rename itself durable
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def load_sealed(path, name, format, version, kind):
    """The contents of the checkpoint at ``path`` (``name`` in messages: ``quoted_path``) of
    ``format`` and ``version``, once every byte matches the seal; a one-line ValueError naming
    the file for a missing, oversized, unreadable, foreign, damaged or other-version one: its
    size (from ``stat``) and its header are checked before its body is read. ``kind`` names it
    in messages ("PPO"). ``CheckpointFormat.load`` checks the contents too."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):  # a device reads without end, a FIFO blocks
            raise ValueError(f"{name} is not a regular file, so no {kind} checkpoint")
        if info.st_size > MAX_FILE_BYTES:
            raise ValueError(f"{name} is {info.st_size} bytes, more than any {kind} "
                             f"checkpoint (at most {MAX_FILE_BYTES})")
        with open(path, "rb") as f:
            digest = _sealed_digest(f, name, format, version, kind)
            start, body = f.tell(), read_at_most(f, MAX_FILE_BYTES + 1)
        if start + len(body) > MAX_FILE_BYTES:
            raise ValueError(f"{name} grew past {MAX_FILE_BYTES} bytes while it was read")
    except FileNotFoundError:
        raise ValueError(f"no {kind} checkpoint at {name}") from None
    except OSError as err:
        raise ValueError(f"could not read the {kind} checkpoint {name} "
                         f"({err.strerror or type(err).__name__})") from None
    if digest != _digest(format, version, body):
        raise ValueError(f"{name} is corrupt: its bytes do not match their SHA-256 (the file "
                         "changed after it was written)")
    try:
        return torch.load(io.BytesIO(body), map_location="cpu", weights_only=True)
    except Exception as err:  # a sealed file torch cannot read: written by a foreign tool
        raise ValueError(f"{name} is not a readable {kind} checkpoint "
                         f"({type(err).__name__})") from None


def _sealed_digest(f, name, format, version, kind):
    """The SHA-256 that the header of the open checkpoint ``f`` seals its body with, once the
    header says ``format`` and ``version`` (read up to the body, at most a line's bytes)."""
    if f.read(len(MAGIC)) != MAGIC:
        raise ValueError(f"{name} is not a Savanna {kind} checkpoint (no savanna-checkpoint "
                         "header; files from before whole-file seals must be saved again)")
    header = f.readline(MAX_HEADER_BYTES)
    fields = header.decode("ascii", errors="replace").removesuffix("\n").split(" ")
    if not header.endswith(b"\n") or len(fields) != 3 or fields[0] != format:
        raise ValueError(f"{name} is not a Savanna {kind} checkpoint (expected format "
                         f"{format!r})")
    if fields[1] != str(version):
        raise ValueError(f"{name} has checkpoint version {fields[1][:20]}; this code reads "
                         f"version {version}")
    return fields[2]


@dataclass(frozen=True)
class CheckpointFormat:
    """One trainer's checkpoint files: their header and the layout of their contents, which
    ``load`` checks in full (see the module docstring). The trainers declare theirs beside
    their settings (``savanna.agents.models.ppo_checkpoint.CHECKPOINT``,
    ``savanna.agents.models.az_checkpoint.CHECKPOINT``).
    """

    format: str              # the header's format name ("savanna-ppo")
    version: int             # raised whenever the contents change
    kind: str                # the trainer, in messages ("PPO")
    read_config: Callable    # the settings class's ``from_dict`` (a ValueError if bad)
    network_class: type      # the network (``for_game(game, hidden)``, ``models.networks``)
    contents: dict           # keys and types beyond ``COMMON_CONTENTS``
    trainer_contents: dict   # keys and types of a full checkpoint's ``trainer`` part
    value_per_player: bool = False   # the value head has one output per player, not one
    snapshots: str | None = None     # a full checkpoint holds the network in trainer["model"]
    # and past weights in trainer[snapshots] (PPO's "pool"); otherwise the network is "model"

    def header(self, game, config, extra=None, **contents):
        """The contents every checkpoint opens with (``COMMON_CONTENTS``: the game, its options
        and sizes, the run's settings ``config``, the run loop's ``extra``) and this format's
        own ``contents``."""
        return {"game": game.name, "game_options": game_options(game),
                "obs_shape": list(game.obs_shape), "num_actions": game.num_actions,
                "num_players": game.num_players, "config": config.to_dict(), **contents,
                "extra": extra or {}}

    def save(self, data, path):
        """Writes checkpoint contents ``data`` at ``path``, sealed with their SHA-256 and
        atomically (``save_sealed``)."""
        save_sealed(data, path, self.format, self.version)

    def load(self, path, game=None, need_trainer=False):
        """The contents of the checkpoint at ``path``, verified (the whole file's SHA-256) and
        checked (keys, types, settings, sizes, the weights' shapes and values) before anything
        is built from them: a one-line ValueError naming the file and what is wrong for a
        missing, truncated, corrupt, foreign or malformed file, one trained on another game or
        other options than ``game`` (when given), or, with ``need_trainer``, one that holds
        the network only."""
        name = quoted_path(path)
        data = load_sealed(path, name, self.format, self.version, self.kind)
        if isinstance(data, dict) and need_trainer and "trainer" not in data:
            raise ValueError(f"{name} holds a network only; resume needs a full checkpoint")
        self.check(data, name)
        if game is not None:
            check_game(data, game, name)
        return data

    def check(self, data, name):
        """The run's settings (``read_config(data["config"])``) once the contents ``data`` of
        the file ``name`` pass every check, or a one-line ValueError saying what is wrong."""
        def invalid(what):
            return ValueError(f"{name} is not a valid {self.kind} checkpoint: {what}")

        check_keys(data, {**COMMON_CONTENTS, **self.contents}, invalid)
        obs = data["obs_shape"]
        if not (obs and all((type(n) is int or is_int(n)) and n > 0 for n in obs)
                and math.prod(obs) <= MAX_OBS_SIZE):
            raise invalid(f"obs_shape is {clip(obs)}, expected positive ints of product at "
                          f"most {MAX_OBS_SIZE}")
        for key, most in (("num_actions", MAX_ACTIONS), ("num_players", MAX_PLAYERS)):
            if not 1 <= data[key] <= most:
                raise invalid(f"{key} is {data[key]}, expected 1..{most}")
        try:
            config = self.read_config(data["config"])
        except ValueError as err:
            raise invalid(f"its settings are wrong: {err}") from None
        expected = network_shapes(math.prod(obs), data["num_actions"], config.hidden,
                                  data["num_players"] if self.value_per_player else 1)
        for label, state in self._networks(data, invalid).items():
            problem = _weights_problem(state, expected)
            if problem:
                raise invalid(f"{label} does not fit its settings "
                              f"(hidden={list(config.hidden)}): {problem}")
        return config

    def network(self, data, game):
        """The network stored in contents that ``load`` checked, for ``game``, in eval mode."""
        net = self.network_class.for_game(game, tuple(data["config"]["hidden"]))
        load_weights(net, self._networks(data, ValueError)["the network"])
        return net.eval()

    def _networks(self, data, invalid):
        """``{label: weights}`` of every network in the contents (a full checkpoint's
        ``trainer`` part checked for its keys); ``invalid(reason)`` makes the error."""
        if "trainer" in data:
            trainer = data["trainer"]
            check_keys(trainer, self.trainer_contents, invalid, "'trainer'")
            if self.snapshots is not None:
                networks = {"the network": trainer["model"]}
                networks.update((f"snapshot {i}", w)
                                for i, w in enumerate(trainer[self.snapshots]))
                return networks
        if "model" in data:
            return {"the network": data["model"]}
        raise invalid("it holds no network ('model' and 'trainer' are missing)")


def check_keys(data, spec, invalid, where="the contents"):
    """Each key of ``spec`` is in the dict ``data``, its value of the declared type (``invalid``
    turns a reason into the error)."""
    if not isinstance(data, dict):
        raise invalid(f"{where} must be a dict, got {type(data).__name__}")
    for key, kind in spec.items():
        if key not in data:
            raise invalid(f"{key!r} is missing from {where}")
        value = data[key]
        if type(value) is kind and kind is not float:
            continue  # the usual case, as declared (a bool is no int: its type is bool)
        if not (TYPE_CHECKS[kind](value) if kind in TYPE_CHECKS else isinstance(value, kind)):
            raise invalid(f"{key!r} is {clip(value, 40)}, expected "
                          f"{TYPE_NAMES.get(kind, kind.__name__)}")


def _weights_problem(state, expected):
    """What keeps the weights ``state`` from loading into a network of shapes ``expected`` or
    from playing (a NaN or infinite weight), in one line, or None."""
    if not isinstance(state, dict):
        return f"its weights are {type(state).__name__}, not a dict"
    missing, unexpected = sorted(set(expected) - set(state)), sorted(set(state) - set(expected))
    if missing or unexpected:
        return f"missing weights {clip(missing)}, unexpected {clip(unexpected)}"
    for key, shape in expected.items():
        w = state[key]
        if not (isinstance(w, torch.Tensor) and w.is_floating_point()
                and tuple(w.shape) == shape):
            got = tuple(w.shape) if isinstance(w, torch.Tensor) else type(w).__name__
            return f"{key} is {got}, expected a float tensor of shape {shape}"
        if not torch.isfinite(w).all():
            return f"{key} holds NaN or infinite weights"
    return None


def check_game(data, game, name):
    """A ValueError if the checked contents ``data`` were trained on another game than
    ``game``: its name, options (``savanna.metadata.game_options``), observation, actions or
    players differ."""
    theirs = (data["game"], data["game_options"], tuple(data["obs_shape"]), data["num_actions"],
              data["num_players"])
    ours = (game.name, game_options(game), tuple(game.obs_shape), game.num_actions,
            game.num_players)
    if theirs[0] == ours[0] and theirs[1] != ours[1]:
        raise ValueError(f"{name} was trained on {game.name} with other options: "
                         f"{option_differences(theirs[1], ours[1])}")
    if theirs != ours:
        raise ValueError(f"{name} was trained on {data['game']} {clip(theirs[1], 60)} (obs "
                         f"{theirs[2]}, {theirs[3]} actions, {theirs[4]} players), not on "
                         f"{game.name} {clip(ours[1], 60)} (obs {ours[2]}, {ours[3]} actions, "
                         f"{ours[4]} players)")


def quoted_path(path):
    """``path`` quoted for a message, cut to its last 80 characters (its name matters most)."""
    text = str(path)
    return repr(text) if len(text) <= 80 else repr("..." + text[-77:])


def _digest(format, version, body):
    return hashlib.sha256(f"{format} {version}\n".encode() + body).hexdigest()


def _serialized(data):
    buffer = io.BytesIO()
    torch.save(data, buffer)
    return buffer.getvalue()
