"""The compiled half of distillation: UCT searches of a batch of roots in one parallel call.

``search_roots`` searches every active root (a game's state, or one determinization of it) with
the UCT search loop (``savanna.agents.play.search``) and writes the visits of every action, the
mover's summed returns after each and the root's mean return vector; ``pick_moves`` draws each
game's move in proportion to the visits for its first ``sample_decisions`` decisions, then
takes the most visited. The roots run in chunks on numba's threads, each on its own stream, so
results never depend on the thread count. A template: ``compiled_distill`` of
``savanna.agents.training.distill`` binds it.
"""
from typing import TYPE_CHECKING

import numpy as np
from numba import njit, prange

from savanna.rng import below, uniform

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    from savanna.agents.play._search_kernels import root_children, set_roots, simulate
    from savanna.binding import A, current_player_one


@njit(cache=True)
def search_range(lo, hi, s, active, streams, sims, c, rollouts, nodes, values, rewards,
                 tree_states, counts, visits, returns, root_values):
    p = values.shape[1]
    sums = np.zeros((A, p), np.float64)
    done = np.zeros(1, np.int64)
    raw, log_priors = np.empty((0, p), np.float32), np.empty(0, np.float64)  # Gumbel's only
    gumbel, table = np.empty((0, A), np.float64), np.empty((0, 0), np.int32)
    leaves, players = np.empty(0, np.int32), np.empty(0, np.int64)  # UCT evaluates in place
    obs, masks = np.empty((0, 0), np.uint8), np.empty((0, A), np.bool_)
    for i in range(lo, hi):
        if not active[i]:
            continue
        set_roots(nodes, values, rewards, raw, log_priors, tree_states, counts, s[i:i + 1])
        done[0] = 0
        simulate(nodes, values, rewards, raw, log_priors, tree_states, counts, streams[i:i + 1],
                 done, sims[i], c, rollouts, gumbel, table, 0.0, 0.0, 0.0, False, leaves,
                 players, obs, masks)
        visits[i, :] = 0
        sums[:, :] = 0.0
        root_children(nodes, values, rewards, visits[i], sums)
        player = current_player_one(s, i)
        for a in range(A):
            returns[i, a] = sums[a, player]
        root_values[i, :] = values[0, :] / nodes[0].visits


@njit(cache=True, parallel=True)
def search_roots(s, active, streams, sims, c, rollouts, nodes, values, rewards, tree_states,
                 counts, visits, returns, root_values):
    """Searches root ``i`` where ``active[i]`` with ``sims[i]`` UCT simulations (exploration
    ``c``, ``rollouts`` playouts per leaf) on stream ``i``; writes ``visits[i, a]``,
    ``returns[i, a]`` (the sum of the mover's returns over those visits) and
    ``root_values[i]`` (the mean return vector, absolute seats)."""
    n = s.shape[0]
    chunks = counts.shape[0]
    node_cap = nodes.shape[0] // chunks
    state_cap = tree_states.shape[0] // chunks
    for k in prange(chunks):
        a, b = k * node_cap, (k + 1) * node_cap
        search_range(k * n // chunks, (k + 1) * n // chunks, s, active, streams, sims, c,
                     rollouts, nodes[a:b], values[a:b], rewards[a:b],
                     tree_states[k * state_cap:(k + 1) * state_cap], counts[k], visits,
                     returns, root_values)


@njit(cache=True)
def pick_moves(active, visits, decisions, sample_decisions, streams, chosen):
    """``chosen[i]`` for every active game ``i``: drawn in proportion to ``visits[i]`` while
    ``decisions[i] < sample_decisions``, else the most visited (ties broken at random), from
    stream ``i``."""
    for i in range(len(active)):
        if active[i]:
            chosen[i] = pick(visits[i], decisions[i] < sample_decisions, streams, i)


@njit(cache=True, inline="always")
def pick(visits, sample, streams, i):
    """An action drawn in proportion to ``visits`` (``sample``), else the most visited (ties
    broken from stream ``i``)."""
    if sample:
        u = uniform(streams, i) * visits.sum()
        for a in range(A):
            u -= visits[a]
            if u < 0.0 and visits[a] > 0:
                return a
    best, ties = -1, 0
    for a in range(A):
        if visits[a] > 0 and (best < 0 or visits[a] > visits[best]):
            best, ties = a, 1
        elif best >= 0 and visits[a] == visits[best]:
            ties += 1
            if below(streams, i, ties) == 0:
                best = a
    return best
