"""A policy-value network's forward pass for search, in numba instead of torch.

A search evaluates a few dozen leaves at a time, where torch's per-call overhead costs more
than the arithmetic: ``network_evaluator`` copies the weights once and runs the trunk in serial
numba loops (the first layer from the active features, the priors a masked softmax at the legal
actions only); from ``BLAS_ROWS`` rows on (self-play's batches) the dense layers use torch's
matrix product instead. The values are those of ``net.from_features``; the tests check both
paths against torch's forward pass.
"""
import numpy as np
import torch
from numba import njit
from torch import nn

from savanna.agents.models.networks import probabilities

__all__ = ["network_evaluator"]

BLAS_ROWS = 64  # rows from which torch's product beats the loop (measured: 2x at 128, 4x at 1,024)


def network_evaluator(net):
    """The search's evaluator on ``net`` as its weights are now: ``(obs uint8[n, O], mask
    bool[n, A]) -> (priors float64[n, A], values float32[n, P] in relative seats)``."""
    layers = [m for m in net.trunk if isinstance(m, nn.Linear)]
    if [type(m) for m in net.trunk] != [nn.Linear, nn.ReLU] * len(layers):
        raise ValueError("network_evaluator needs a trunk of Linear and ReLU pairs")
    trunk = [_arrays(m) for m in layers]
    table = trunk[0][0] * np.float32(net.obs_scale)
    value = _arrays(net.value)

    def evaluate(obs, mask):
        hidden = _first_layer(np.ascontiguousarray(obs, np.uint8).reshape(len(obs), -1),
                              table, trunk[0][1])
        for weight, bias in trunk[1:]:
            hidden = _linear(hidden, weight, bias, True)
        priors = probabilities(torch.from_numpy(hidden), net.policy, mask)
        return priors, _linear(hidden, *value, False)

    return evaluate


def _arrays(layer):
    """An ``nn.Linear``'s weights transposed (``float32 [in, out]``) and its bias."""
    return (np.ascontiguousarray(layer.weight.detach().numpy().T, np.float32),
            np.ascontiguousarray(layer.bias.detach().numpy(), np.float32))


def _linear(x, weight, bias, relu):
    """``x @ weight + bias``, then ReLU if ``relu``: the loop for a few rows, torch's product
    for many."""
    if len(x) < BLAS_ROWS:
        return _dense(x, weight, bias, relu)
    out = torch.addmm(torch.from_numpy(bias), torch.from_numpy(x), torch.from_numpy(weight))
    return (out.relu_() if relu else out).numpy()


@njit(cache=True)
def _first_layer(obs, table, bias):
    """``relu(obs @ table + bias)``, adding the rows of the non-zero entries only."""
    n, f = obs.shape
    out = _biased(n, bias)
    for r in range(n):
        for j in range(f):
            if obs[r, j] != 0:
                v = np.float32(obs[r, j])
                for k in range(table.shape[1]):
                    out[r, k] += v * table[j, k]
    return _relu(out)


@njit(cache=True)
def _dense(x, weight, bias, relu):
    """``x @ weight + bias``, then ReLU if ``relu``."""
    n, width = x.shape
    out = _biased(n, bias)
    for r in range(n):
        for j in range(width):
            v = x[r, j]
            if v != 0:
                for k in range(weight.shape[1]):
                    out[r, k] += v * weight[j, k]
    return _relu(out) if relu else out


# Element loops rather than ``out[r] = bias`` and ``np.maximum``: numba compiles a slice
# assignment's shape-mismatch message (string formatting) and a ufunc for those, seconds of a
# fresh install's first search, for no speed.
@njit(cache=True)
def _biased(n, bias):
    """``n`` rows, each a copy of ``bias``."""
    out = np.empty((n, bias.shape[0]), np.float32)
    for r in range(n):
        for k in range(bias.shape[0]):
            out[r, k] = bias[k]
    return out


@njit(cache=True)
def _relu(out):
    """``max(out, 0)``, in place."""
    for r in range(out.shape[0]):
        for k in range(out.shape[1]):
            if out[r, k] < 0:
                out[r, k] = 0
    return out
