"""Arrays of any dtype (a batch of game states, a structured array) inside checkpoints.

``torch.load(weights_only=True)``, which reads checkpoints without running pickled code, takes
tensors and plain Python values only: ``pack`` turns a numpy array into a uint8 tensor of its
bytes, and ``unpack`` reads it back into the dtype and shape of an array of the run being
resumed, refusing one of another size.
"""
import numpy as np
import torch

__all__ = ["pack", "unpack"]


def pack(value):
    """A numpy array as a uint8 tensor of its bytes; anything else (an rng state) as it is."""
    if isinstance(value, np.ndarray):
        return torch.from_numpy(np.frombuffer(value.tobytes(), np.uint8).copy())
    return value


def unpack(saved, like):
    """What ``pack`` made of an array like ``like`` (same dtype and shape), or ``saved`` as it
    is when ``like`` is no array; a ValueError if the sizes differ."""
    if isinstance(like, np.ndarray):
        data = saved.numpy().tobytes()
        if len(data) != like.nbytes:
            raise ValueError("checkpoint does not fit this run (environment arrays differ)")
        return np.frombuffer(data, like.dtype).reshape(like.shape)
    return saved
