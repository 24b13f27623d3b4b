"""Checkpoint files shared by every trainer: sealed with a SHA-256, written atomically.

A checkpoint is a torch file (read with ``weights_only=True``: no pickled code runs) holding
``{"format", "version", "sha256", "payload"}``: the payload is the torch serialisation of the
contents as bytes, stored with their SHA-256, so that a changed or missing byte anywhere is
refused on load rather than played. Each trainer checks its own contents on top
(``savanna_agents.ppo.load_checkpoint``, ``savanna_agents.alphazero.load_checkpoint``).
"""
import glob
import hashlib
import io
import os
import warnings
from pathlib import Path

import numpy as np
import torch

from savanna.errors import clip

__all__ = ["open_sealed", "quoted_path", "save_sealed", "torch_load"]


def save_sealed(data, path, format, version):
    """Write ``data`` sealed at ``path`` without ever leaving a partial file: into a temporary
    file in the same folder, fsynced, then renamed over ``path``. If writing fails (a full
    disk) the temporary file is removed and the previous checkpoint kept; temporary files left
    by a run killed mid-write are removed first. One process writes a given checkpoint at a
    time (a run owns its folder)."""
    payload = _serialized(data)
    blob = _serialized({"format": format, "version": version,
                        "sha256": hashlib.sha256(payload).hexdigest(),
                        "payload": torch.from_numpy(np.frombuffer(payload, np.uint8).copy())})
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


def open_sealed(path, format, kind):
    """``(version, outer)`` of the checkpoint at ``path`` whose format is ``format``; a
    one-line ValueError naming the file for a missing, unreadable or foreign one. ``kind``
    names the checkpoint in messages ("PPO"). Verify the payload with ``contents``."""
    name = quoted_path(path)
    if not Path(path).is_file():
        raise ValueError(f"no {kind} checkpoint at {name}")
    outer = torch_load(path, name, kind)
    if not isinstance(outer, dict) or outer.get("format") != format:
        raise ValueError(f"{name} is not a Savanna {kind} checkpoint (expected format "
                         f"{format!r})")
    return outer.get("version"), outer


def contents(outer, path, kind):
    """The contents sealed in ``outer`` (from ``open_sealed``), once their bytes match the
    SHA-256 stored with them."""
    name = quoted_path(path)
    payload, digest = outer.get("payload"), outer.get("sha256")
    if not (isinstance(payload, torch.Tensor) and payload.dtype == torch.uint8
            and payload.dim() == 1 and isinstance(digest, str)):
        raise ValueError(f"{name} is not a readable {kind} checkpoint (its payload or SHA-256 "
                         "is missing)")
    blob = payload.numpy().tobytes()
    if hashlib.sha256(blob).hexdigest() != digest:
        raise ValueError(f"{name} is corrupt: its contents do not match their SHA-256 (the "
                         "file changed after it was written)")
    return torch_load(io.BytesIO(blob), name, kind)


def quoted_path(path):
    """``path`` quoted for a message, cut to its last 80 characters (its name matters most)."""
    text = str(path)
    return repr(text) if len(text) <= 80 else repr("..." + text[-77:])


def torch_load(source, name, kind):
    """The objects in ``source`` by torch's safe unpickler; a file it cannot read is a one-line
    ValueError (and torch's warnings on the way, e.g. about a foreign pickle protocol, are
    not shown: the error says what matters)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return torch.load(source, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many kinds on a damaged file
        raise ValueError(f"{name} is not a readable {kind} checkpoint (corrupt, truncated or "
                         f"not a torch file: {type(err).__name__})") from None


def _serialized(data):
    buffer = io.BytesIO()
    torch.save(data, buffer)
    return buffer.getvalue()
