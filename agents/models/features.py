"""A network's first layer over Savanna observations, computed from the active features only.

An observation is a long vector of small counts, nearly all zero, so as in NNUE evaluators
``active_features`` lists the active features (a value ``v`` listed ``v`` times) and
``sparse_linear`` sums the matching weight columns (torch's ``embedding_bag``, forward and
backward): the same function and gradients as ``nn.Linear`` on the dense observation, at about
a tenth of the arithmetic.

>>> layer = torch.nn.Linear(4, 2)
>>> obs = np.array([[0, 1, 0, 2]], np.uint8)
>>> dense = layer(torch.from_numpy(obs).float())
>>> features = torch.from_numpy(active_features(obs))
>>> torch.allclose(dense, sparse_linear(features, layer.weight, layer.bias))
True
"""
import numpy as np
import torch
import torch.nn.functional as F
from numba import njit

__all__ = ["active_features", "stack_features", "sparse_linear"]


def active_features(obs):
    """``int32 [n, k]``: the indices of the non-zero entries of each row of a ``uint8
    [n, f]`` observation batch, each repeated by its value; rows are padded with ``f`` (the
    observation size), with at least one pad each."""
    return _list_features(np.ascontiguousarray(obs, np.uint8).reshape(len(obs), -1))


@njit(cache=True)
def _list_features(obs):
    n, f = obs.shape
    counts = np.empty(n, np.int64)
    width, binary = 1, True
    for r in range(n):
        total, bits = 0, 0
        for j in range(f):
            total += obs[r, j]
            bits |= obs[r, j]
        counts[r] = total
        width = max(width, total + 1)
        binary &= bits <= 1
    out = np.empty((n, width), np.int32)
    for r in range(n):
        c = 0
        for j in range(f):
            out[r, c] = j  # written at every entry, kept when it is non-zero: no branch
            c += obs[r, j] != 0
            if not binary:
                for _ in range(1, obs[r, j]):
                    out[r, c] = j
                    c += 1
        out[r, counts[r]:] = f
    return out


def stack_features(blocks, size):
    """One ``[sum n, max k]`` array of the rows of several ``active_features`` blocks of
    observations of ``size`` entries."""
    width = max(block.shape[1] for block in blocks)
    out = np.full((sum(len(block) for block in blocks), width), size, np.int32)
    start = 0
    for block in blocks:
        out[start:start + len(block), :block.shape[1]] = block
        start += len(block)
    return out


def sparse_linear(features, weight, bias, scale=1.0, weight_t=None):
    """``nn.Linear(weight, bias)`` of ``scale *`` the dense observations whose active
    features are ``features`` (an int32 tensor from ``active_features``); differentiable in
    ``weight`` and ``bias``. The kernel reads the weight transposed: ``weight_t``, if given,
    is ``weight.t().contiguous()`` made once for many calls with the same weights (a copy
    per call costs a quarter of a millisecond on Zèbres' 128 x 660 layer)."""
    return _SparseLinear.apply(features, weight, bias, float(scale), weight_t)


class _SparseLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, features, weight, bias, scale, weight_t):
        flat, starts, counts = _bags(features.numpy(), weight.shape[1])
        if weight_t is None:
            weight_t = weight.t().contiguous()
        out = F.embedding_bag(torch.from_numpy(flat), weight_t, torch.from_numpy(starts),
                              mode="sum")
        ctx.bags, ctx.scale = (flat, starts, counts), scale
        return torch.add(bias, out, alpha=scale) if scale != 1 else out.add_(bias)

    @staticmethod
    def backward(ctx, grad):
        rows, starts = _rows_of_features(*ctx.bags)
        grad_weight_t = F.embedding_bag(torch.from_numpy(rows), grad.contiguous(),
                                        torch.from_numpy(starts), mode="sum")
        if ctx.scale != 1:
            grad_weight_t *= ctx.scale
        return None, grad_weight_t.t().contiguous(), grad.sum(dim=0), None, None


@njit(cache=True)
def _bags(features, size):
    """The rows' features end to end (pads dropped), where each row starts, and how many
    times each feature occurs."""
    flat = np.empty(features.size, np.int32)
    starts = np.empty(len(features), np.int32)
    counts = np.zeros(size, np.int32)
    k = 0
    for r in range(features.shape[0]):
        starts[r] = k
        for c in range(features.shape[1]):
            j = features[r, c]
            if j == size:
                break
            flat[k] = j
            counts[j] += 1
            k += 1
    return flat[:k], starts, counts


@njit(cache=True)
def _rows_of_features(flat, starts, counts):
    """The transposed lists, by a counting sort: ``rows[firsts[j]:firsts[j + 1]]`` are the
    rows (with repeats) in which feature ``j`` is active."""
    firsts = np.empty(len(counts), np.int32)
    total = 0
    for j in range(len(counts)):
        firsts[j] = total
        total += counts[j]
    fill = firsts.copy()
    rows = np.empty(len(flat), np.int32)
    for r in range(len(starts)):
        end = starts[r + 1] if r + 1 < len(starts) else len(flat)
        for k in range(starts[r], end):
            rows[fill[flat[k]]] = r
            fill[flat[k]] += 1
    return rows, firsts
