"""The trainers' networks and their masked policy head, in one place.

``PolicyValueNet`` (PPO's) is a small MLP over the player-relative observation whose first
layer reads the active features (``savanna.agents.models.features``); ``AZNet`` (AlphaZero's)
has one value per player. ``network_shapes`` gives their parameters' shapes without building
them, so that a checkpoint is checked before anything is allocated. The policy head is
evaluated at the legal actions only, fused with the masked softmax (the architecture guide
gives the gradients); ``masked_log_probs`` is the same distribution in plain torch.
"""
import contextlib
import math

import numpy as np
import torch
from numba import njit
from torch import nn

from savanna.agents.models.features import active_features, sparse_linear
from savanna.errors import clip

__all__ = ["AZNet", "MASKED_LOGIT", "PolicyValueNet", "cross_entropy", "load_weights",
           "log_prob_and_entropy", "masked_log_probs", "network_shapes", "probabilities",
           "sample"]

MASKED_LOGIT = -1e8


# ----- the networks ---------------------------------------------------------------------------
class PolicyValueNet(nn.Module):
    """A small MLP over the flattened player-relative observation: shared trunk, a policy
    head (one logit per action) and a value head (the observer's expected return). The first
    layer is computed from the observation's active features
    (``savanna.agents.models.features``)."""

    def __init__(self, obs_size, num_actions, hidden=(128, 128), obs_scale=1.0):
        super().__init__()
        layers, width = [], obs_size
        for h in hidden:
            layers += [_layer(width, h, np.sqrt(2)), nn.ReLU(inplace=True)]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.policy = _layer(width, num_actions, 0.01)
        self.value = _layer(width, 1, 1.0)
        self.obs_scale = float(obs_scale)
        self._weight_t = None  # within fixed_weights(): the first layer's weight, transposed

    @classmethod
    def for_game(cls, game, hidden):
        """The network of ``hidden`` widths for ``game``'s observations and actions."""
        return cls(math.prod(game.obs_shape), game.num_actions, hidden, _obs_scale(game))

    def forward(self, obs):
        """``obs`` uint8 ``[n, obs_size]`` (array or tensor) -> ``(logits [n, A], values [n])``."""
        return self.from_features(torch.from_numpy(active_features(np.asarray(obs))))

    def from_features(self, features):
        """The same from the observations' ``active_features`` (an int32 tensor)."""
        hidden = self.encode(features)
        return self.policy(hidden), self.value(hidden).squeeze(-1)

    def encode(self, features):
        """The trunk's output, which the policy and value heads read."""
        first, *rest = self.trunk  # not trunk[1:]: a new Sequential at every call
        hidden = sparse_linear(features, first.weight, first.bias, self.obs_scale, self._weight_t)
        for layer in rest:
            hidden = layer(hidden)
        return hidden

    @contextlib.contextmanager
    def fixed_weights(self):
        """Within it, the caller's promise that the weights do not change (a rollout, a
        batch of searches): the first layer's weight is transposed for its kernel once, not
        at every call (``savanna.agents.models.features.sparse_linear``)."""
        self._weight_t = self.trunk[0].weight.detach().t().contiguous()
        try:
            yield self
        finally:
            self._weight_t = None


class AZNet(PolicyValueNet):
    """PPO's trunk and policy head with a value head of one output per player (relative
    seats: output ``k`` is the return of seat ``(observer + k) % P``)."""

    def __init__(self, obs_size, num_actions, num_players, hidden=(128, 128), obs_scale=1.0):
        super().__init__(obs_size, num_actions, hidden, obs_scale)
        self.value = nn.Linear(hidden[-1], num_players)
        nn.init.zeros_(self.value.bias)

    @classmethod
    def for_game(cls, game, hidden):
        """The network of ``hidden`` widths for ``game``'s observations, actions and players."""
        return cls(math.prod(game.obs_shape), game.num_actions, game.num_players, hidden,
                   _obs_scale(game))

    def from_features(self, features):
        """``(logits [n, A], values [n, P])`` from the observations' active features."""
        hidden = self.encode(features)
        return self.policy(hidden), self.value(hidden)


def _layer(fan_in, fan_out, gain):
    layer = nn.Linear(fan_in, fan_out)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def _obs_scale(game):
    """The factor that brings ``game``'s observation values into [0, 1]."""
    return 1.0 / float(game.obs_high)


def network_shapes(obs_size, num_actions, hidden, values=1):
    """``{parameter name: shape}`` of ``PolicyValueNet(obs_size, num_actions, hidden)``
    (``values``: outputs of the value head, an ``AZNet``'s players), computed without building
    it (a checkpoint is checked before anything is allocated)."""
    shapes, width = {}, obs_size
    for k, h in enumerate(hidden):
        shapes[f"trunk.{2 * k}.weight"], shapes[f"trunk.{2 * k}.bias"] = (h, width), (h,)
        width = h
    shapes.update({"policy.weight": (num_actions, width), "policy.bias": (num_actions,),
                   "value.weight": (values, width), "value.bias": (values,)})
    return shapes


def load_weights(net, weights):
    """Loads a state dict (float16 weights are read as float32) into ``net``; a one-line
    ValueError if they do not fit it."""
    try:
        net.load_state_dict(weights)
    except RuntimeError as err:
        raise ValueError(f"checkpoint weights do not fit the network: "
                         f"{clip(str(err).splitlines()[0])}") from None


# ----- the masked policy head -----------------------------------------------------------------
def masked_log_probs(logits, mask):
    """Log-probabilities with illegal actions shifted by ``MASKED_LOGIT``: their probability
    is exactly 0 and everything stays finite, even with a single legal action (the dense
    twin of the fused functions below, for the agents' play)."""
    return torch.log_softmax(logits + (1 - mask.float()) * MASKED_LOGIT, dim=-1)



def log_prob_and_entropy(hidden, layer, legal, actions):
    """``(log p(actions) [n], entropy [n])`` of the masked softmax of ``layer(hidden)``
    (``layer`` an ``nn.Linear``, ``legal`` bool ``[n, A]``, ``actions`` int64 ``[n]``),
    differentiable in ``hidden`` and the layer's parameters."""
    return _LogProbEntropy.apply(hidden, layer.weight, layer.bias, legal, actions)


def cross_entropy(hidden, layer, legal, target):
    """``[n]``: ``-sum_k target[r, k] log p[r, k]`` for the masked softmax ``p`` of
    ``layer(hidden)`` (AlphaZero's policy loss against the search's policy; ``target`` float32
    ``[n, A]`` must be 0 at illegal actions), differentiable in ``hidden`` and the layer's
    parameters. Its gradient in ``z_k`` is ``p_k sum(target) - target_k`` at legal ``k``."""
    return _CrossEntropy.apply(hidden, layer.weight, layer.bias, legal, target)


@torch.no_grad()
def sample(hidden, layer, legal, generator):
    """``(actions int64 [n], their log-probabilities float32 [n])`` drawn from the masked
    softmax of ``layer(hidden)`` by inverse CDF, on one uniform per row from ``generator``."""
    uniforms = torch.rand(len(hidden), generator=generator, dtype=torch.float64)
    actions, log_probs = _sample(hidden.numpy(), layer.weight.numpy(), layer.bias.numpy(),
                                 legal.numpy(), uniforms.numpy())
    return torch.from_numpy(actions), torch.from_numpy(log_probs)


@torch.no_grad()
def probabilities(hidden, layer, legal):
    """``float64 [n, A]``: the masked softmax of ``layer(hidden)`` (``legal`` a bool array),
    computed at the legal actions only and 0 elsewhere (AlphaZero's priors for its search)."""
    return _probabilities(hidden.numpy(), layer.weight.numpy(), layer.bias.numpy(),
                          np.ascontiguousarray(legal, np.bool_))


class _LogProbEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, hidden, weight, bias, legal, actions):
        arrays = (hidden.detach().numpy(), weight.detach().numpy(), bias.detach().numpy(),
                  legal.numpy(), actions.numpy())
        log_prob, entropy, logits, log_norm = _forward(*arrays)
        ctx.arrays, ctx.saved = arrays, (logits, log_norm, entropy)
        return torch.from_numpy(log_prob), torch.from_numpy(entropy)

    @staticmethod
    def backward(ctx, grad_log_prob, grad_entropy):
        grads = _backward(*ctx.arrays, *ctx.saved, grad_log_prob.contiguous().numpy(),
                          grad_entropy.contiguous().numpy())
        return (*(torch.from_numpy(g) for g in grads), None, None)


class _CrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, hidden, weight, bias, legal, target):
        arrays = (hidden.detach().numpy(), weight.detach().numpy(), bias.detach().numpy(),
                  legal.numpy(), target.numpy())
        loss, logits, log_norm = _cross_entropy_forward(*arrays)
        ctx.arrays, ctx.saved = arrays, (logits, log_norm)
        return torch.from_numpy(loss)

    @staticmethod
    def backward(ctx, grad_loss):
        grads = _cross_entropy_backward(*ctx.arrays, *ctx.saved,
                                        grad_loss.contiguous().numpy())
        return (*(torch.from_numpy(g) for g in grads), None, None)


@njit(cache=True)
def _legal_list(legal, r, out):
    """Writes row ``r``'s legal actions to ``out`` (no branch per entry); returns how many."""
    count = 0
    for k in range(legal.shape[1]):
        out[count] = k
        count += legal[r, k]
    return count


@njit(cache=True, fastmath=True)
def _logit(hidden, weight, bias, r, k):
    """``z[r, k]``. The dot products here and their gradients in ``_backward`` are compiled
    with fastmath (unlike the game kernels): reassociation lets them vectorise (3.5x faster),
    and their operands are finite weights and activations."""
    total = bias[k]
    for d in range(hidden.shape[1]):
        total += hidden[r, d] * weight[k, d]
    return total


@njit(cache=True)
def _row_logits(hidden, weight, bias, r, actions, count, logits):
    """Row ``r``'s logits at its ``count`` legal ``actions`` (into ``logits``), their
    maximum ``top`` and ``sum exp(z - top)``: ``logsumexp = top + log(total)``."""
    top = -math.inf
    for c in range(count):
        k = actions[c]
        logits[r, k] = _logit(hidden, weight, bias, r, k)
        top = max(top, logits[r, k])
    total = 0.0
    for c in range(count):
        total += math.exp(logits[r, actions[c]] - top)
    return top, total


@njit(cache=True)
def _row_log_norm(hidden, weight, bias, legal, r, legal_actions, logits):
    """Row ``r``'s legal actions (into ``legal_actions``), their logits (into ``logits``),
    and ``(count, logsumexp over them)``."""
    count = _legal_list(legal, r, legal_actions)
    top, total = _row_logits(hidden, weight, bias, r, legal_actions, count, logits)
    return count, top + math.log(total)


@njit(cache=True)
def _forward(hidden, weight, bias, legal, actions):
    n, num_actions = legal.shape
    log_prob = np.empty(n, np.float32)
    entropy = np.empty(n, np.float32)
    log_norm = np.empty(n, np.float32)
    logits = np.empty((n, num_actions), np.float32)  # filled at legal actions only
    legal_actions = np.empty(num_actions, np.int64)
    for r in range(n):
        count, norm = _row_log_norm(hidden, weight, bias, legal, r, legal_actions, logits)
        h = 0.0
        for c in range(count):
            lp = logits[r, legal_actions[c]] - norm
            h -= math.exp(lp) * lp
        log_prob[r] = logits[r, actions[r]] - norm
        entropy[r] = h
        log_norm[r] = norm
    return log_prob, entropy, logits, log_norm


@njit(cache=True, fastmath=True)
def _backward(hidden, weight, bias, legal, actions, logits, log_norm, entropy,
              grad_log_prob, grad_entropy):
    grad_hidden = np.zeros(hidden.shape, np.float32)
    grad_weight = np.zeros(weight.shape, np.float32)
    grad_bias = np.zeros(bias.shape, np.float32)
    legal_actions = np.empty(legal.shape[1], np.int64)
    for r in range(len(hidden)):
        for c in range(_legal_list(legal, r, legal_actions)):
            k = legal_actions[c]
            lp = logits[r, k] - log_norm[r]
            p = math.exp(lp)
            dz = -grad_log_prob[r] * p - grad_entropy[r] * p * (lp + entropy[r])
            if k == actions[r]:
                dz += grad_log_prob[r]
            _add_logit_grad(hidden, weight, r, k, dz, grad_hidden, grad_weight, grad_bias)
    return grad_hidden, grad_weight, grad_bias


@njit(cache=True, fastmath=True)
def _add_logit_grad(hidden, weight, r, k, dz, grad_hidden, grad_weight, grad_bias):
    """Adds the gradient ``dz`` of logit ``z[r, k]`` to those of ``hidden`` and the layer."""
    grad_bias[k] += dz
    for d in range(hidden.shape[1]):
        grad_hidden[r, d] += dz * weight[k, d]
        grad_weight[k, d] += dz * hidden[r, d]


@njit(cache=True)
def _cross_entropy_forward(hidden, weight, bias, legal, target):
    n, num_actions = legal.shape
    loss = np.empty(n, np.float32)
    log_norm = np.empty(n, np.float32)
    logits = np.empty((n, num_actions), np.float32)  # filled at legal actions only
    legal_actions = np.empty(num_actions, np.int64)
    for r in range(n):
        count, norm = _row_log_norm(hidden, weight, bias, legal, r, legal_actions, logits)
        value = 0.0
        for c in range(count):
            k = legal_actions[c]
            value += target[r, k] * (norm - logits[r, k])
        loss[r] = value
        log_norm[r] = norm
    return loss, logits, log_norm


@njit(cache=True)
def _cross_entropy_backward(hidden, weight, bias, legal, target, logits, log_norm, grad_loss):
    grad_hidden = np.zeros(hidden.shape, np.float32)
    grad_weight = np.zeros(weight.shape, np.float32)
    grad_bias = np.zeros(bias.shape, np.float32)
    legal_actions = np.empty(legal.shape[1], np.int64)
    for r in range(len(hidden)):
        count = _legal_list(legal, r, legal_actions)
        mass = 0.0
        for c in range(count):
            mass += target[r, legal_actions[c]]
        for c in range(count):
            k = legal_actions[c]
            p = math.exp(logits[r, k] - log_norm[r])
            _add_logit_grad(hidden, weight, r, k, grad_loss[r] * (p * mass - target[r, k]),
                            grad_hidden, grad_weight, grad_bias)
    return grad_hidden, grad_weight, grad_bias


@njit(cache=True)
def _sample(hidden, weight, bias, legal, uniforms):
    n, num_actions = legal.shape
    actions = np.empty(n, np.int64)
    log_probs = np.empty(n, np.float32)
    logits = np.empty((n, num_actions), np.float32)
    legal_actions = np.empty(num_actions, np.int64)
    for r in range(n):
        count = _legal_list(legal, r, legal_actions)
        top, total = _row_logits(hidden, weight, bias, r, legal_actions, count, logits)
        target, cumulative = uniforms[r] * total, 0.0
        for c in range(count):
            actions[r] = legal_actions[c]  # the last legal action if rounding leaves target
            cumulative += math.exp(logits[r, actions[r]] - top)  # uncovered
            if cumulative > target:
                break
        log_probs[r] = logits[r, actions[r]] - top - math.log(total)
    return actions, log_probs


@njit(cache=True)
def _probabilities(hidden, weight, bias, legal):
    n, num_actions = legal.shape
    out = np.zeros((n, num_actions), np.float64)
    logits = np.empty((n, num_actions), np.float32)
    legal_actions = np.empty(num_actions, np.int64)
    for r in range(n):
        count = _legal_list(legal, r, legal_actions)
        top, total = _row_logits(hidden, weight, bias, r, legal_actions, count, logits)
        for c in range(count):
            k = legal_actions[c]
            out[r, k] = math.exp(logits[r, k] - top) / total
    return out
