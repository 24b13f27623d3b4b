"""The TD value network: one hidden layer over a seat's observation, small enough to run
inside compiled loops (numba), one state at a time.

``V(observe(s, seat)) = tanh(b2 + w2 . relu(b1 + x @ w1))`` estimates the return still to
come to ``seat`` from state ``s`` (the games' returns lie in [-1, 1]). Observations are
player-relative, so one network values every seat. They are mostly zeros: the input layer
adds the rows of ``w1`` of the nonzero inputs only (``sparse``), which makes a value cost
``nonzeros * hidden`` multiply-adds (benchmarks/RESULTS.md, "TD": why this beats batched
torch on one core).

The weights travel as one tuple ``net = (w1 float32[F, H], b1 float32[H], w2 float32[H],
b2 float32[1])`` and the scratch of one evaluation as ``work = (index int64[F], x float32[F],
hidden float64[H])`` (``new_work``), so that compiled callers pass
two arguments.

>>> net = new_net(obs_size=5, hidden=8, rng=0)
>>> obs = np.array([1, 0, 2, 0, 0], np.uint8)
>>> -1 < observed_value(net, obs, new_work(net)) < 1
True
"""
import numpy as np
from numba import njit

__all__ = ["new_net", "new_work", "observed_value", "sparse", "train_toward", "value_of"]


def new_net(obs_size: int, hidden: int, rng) -> tuple:
    """A network of fresh small random weights for observations of ``obs_size`` values."""
    rng = np.random.default_rng(rng)
    w1 = (rng.standard_normal((obs_size, hidden)) * 0.1).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.standard_normal(hidden) * 0.1).astype(np.float32)
    return w1, b1, w2, np.zeros(1, np.float32)


def new_work(net: tuple) -> tuple:
    """The scratch arrays of one evaluation with ``net`` (see the module docstring)."""
    size, hidden = net[0].shape
    return np.zeros(size, np.int64), np.zeros(size, np.float32), np.zeros(hidden, np.float64)


@njit(cache=True)
def sparse(obs, index, x):
    """Writes the nonzero inputs of ``obs`` into ``index`` (positions) and ``x`` (values);
    returns how many."""
    n = 0
    for k in range(obs.shape[0]):
        if obs[k] != 0:
            index[n] = k
            x[n] = obs[k]
            n += 1
    return n


@njit(cache=True)
def value_of(net, index, x, n, hidden):
    """The value of the sparse input ``index[:n], x[:n]``; leaves the hidden layer's
    pre-activations in ``hidden`` (``train_toward`` reads them)."""
    w1, b1, w2, b2 = net
    size = hidden.shape[0]
    for j in range(size):
        hidden[j] = b1[j]
    for k in range(n):
        row, v = index[k], x[k]
        for j in range(size):
            hidden[j] += v * w1[row, j]
    z = np.float64(b2[0])
    for j in range(size):
        if hidden[j] > 0.0:
            z += w2[j] * hidden[j]
    return np.tanh(z)


@njit(cache=True)
def observed_value(net, obs, work):
    """The value of the observation ``obs`` (uint8[F])."""
    index, x, hidden = work
    return value_of(net, index, x, sparse(obs, index, x), hidden)


@njit(cache=True)
def train_toward(net, obs, work, target, step):
    """One gradient step of size ``step`` moving the value of the observation ``obs`` toward
    ``target`` (squared error); returns the value before the step."""
    w1, b1, w2, b2 = net
    index, x, hidden = work
    n = sparse(obs, index, x)
    y = value_of(net, index, x, n, hidden)
    g = step * (target - y) * (1.0 - y * y)
    size = hidden.shape[0]
    delta = np.zeros(size, np.float64)
    for j in range(size):
        if hidden[j] > 0.0:
            delta[j] = g * w2[j]
            w2[j] += g * hidden[j]
            b1[j] += delta[j]
    b2[0] += g
    for k in range(n):
        row, v = index[k], x[k]
        for j in range(size):
            w1[row, j] += delta[j] * v
    return y
