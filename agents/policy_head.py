"""The masked policy distribution of the PPO learner, as fused numba kernels.

The learner needs, per row of logits and legal-action mask, only the log-probability of one
action and the entropy over the legal actions (to learn), or one sampled action (to play).
Composed from torch ops this costs a dozen passes over ``[n, A]`` tensors (the masked
log-softmax alone takes a slow path in ``exp`` for the masked entries); here each is one
pass over the legal entries, forward and backward, with the analytic gradient::

    p = softmax over the legal actions,   log p_k = z_k - logsumexp_legal(z)
    d log p_a / d z_k = [k == a] - p_k
    d H / d z_k       = -p_k (log p_k + H)         (legal k; 0 for illegal ones)

Illegal actions get probability exactly 0, whatever their logits. ``agents.ppo``'s
``masked_log_probs`` is the same distribution in plain torch; the tests check the two agree,
values and gradients.
"""
import math

import numpy as np
import torch
from numba import njit

__all__ = ["log_prob_and_entropy", "sample"]


def log_prob_and_entropy(logits, legal, actions):
    """``(log p(actions) [n], entropy [n])`` of the masked softmax of ``logits [n, A]``
    (``legal`` bool ``[n, A]``, ``actions`` int64 ``[n]``), differentiable in ``logits``."""
    return _LogProbEntropy.apply(logits, legal, actions)


def sample(logits, legal, generator):
    """``(actions int64 [n], their log-probabilities float32 [n])`` drawn from the masked
    softmax by inverse CDF, on one uniform per row from the torch ``generator``."""
    uniforms = torch.rand(len(logits), generator=generator, dtype=torch.float64)
    actions, log_probs = _sample(logits.detach().numpy(), legal.numpy(), uniforms.numpy())
    return torch.from_numpy(actions), torch.from_numpy(log_probs)


class _LogProbEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, legal, actions):
        z, legal, actions = logits.detach().numpy(), legal.numpy(), actions.numpy()
        log_prob, entropy, log_norm = _forward(z, legal, actions)
        ctx.save_for_backward(logits, torch.from_numpy(log_norm), torch.from_numpy(entropy))
        ctx.legal, ctx.actions = legal, actions
        return torch.from_numpy(log_prob), torch.from_numpy(entropy)

    @staticmethod
    def backward(ctx, grad_log_prob, grad_entropy):
        logits, log_norm, entropy = ctx.saved_tensors
        grad = _backward(logits.detach().numpy(), ctx.legal, ctx.actions, log_norm.numpy(),
                         entropy.numpy(), grad_log_prob.contiguous().numpy(),
                         grad_entropy.contiguous().numpy())
        return torch.from_numpy(grad), None, None


@njit(cache=True)
def _normaliser(z, legal, r):
    """Row ``r``'s largest legal logit ``top`` and ``sum exp(z - top)`` over its legal
    actions (the caller guarantees one): ``logsumexp = top + log(total)``."""
    top = -math.inf
    for k in range(z.shape[1]):
        if legal[r, k] and z[r, k] > top:
            top = z[r, k]
    total = 0.0
    for k in range(z.shape[1]):
        if legal[r, k]:
            total += math.exp(z[r, k] - top)
    return top, total


@njit(cache=True)
def _forward(z, legal, actions):
    n = len(z)
    log_prob = np.empty(n, np.float32)
    entropy = np.empty(n, np.float32)
    log_norm = np.empty(n, np.float32)
    for r in range(n):
        top, total = _normaliser(z, legal, r)
        norm = top + math.log(total)
        h = 0.0
        for k in range(z.shape[1]):
            if legal[r, k]:
                lp = z[r, k] - norm
                h -= math.exp(lp) * lp
        log_prob[r] = z[r, actions[r]] - norm
        entropy[r] = h
        log_norm[r] = norm
    return log_prob, entropy, log_norm


@njit(cache=True)
def _backward(z, legal, actions, log_norm, entropy, grad_log_prob, grad_entropy):
    grad = np.zeros(z.shape, np.float32)
    for r in range(len(z)):
        for k in range(z.shape[1]):
            if legal[r, k]:
                lp = z[r, k] - log_norm[r]
                p = math.exp(lp)
                grad[r, k] = -grad_log_prob[r] * p - grad_entropy[r] * p * (lp + entropy[r])
        grad[r, actions[r]] += grad_log_prob[r]
    return grad


@njit(cache=True)
def _sample(z, legal, uniforms):
    n = len(z)
    actions = np.empty(n, np.int64)
    log_probs = np.empty(n, np.float32)
    for r in range(n):
        top, total = _normaliser(z, legal, r)
        target, cumulative = uniforms[r] * total, 0.0
        for k in range(z.shape[1]):
            if legal[r, k]:
                actions[r] = k  # the last legal action if rounding leaves target uncovered
                cumulative += math.exp(z[r, k] - top)
                if cumulative > target:
                    break
        log_probs[r] = z[r, actions[r]] - top - math.log(total)
    return actions, log_probs
