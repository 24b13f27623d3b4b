"""The compiled half of distillation: one UCT search per game of a batch, in one parallel call.

``search_moves`` searches every active game of a batch with the MCTS kernels
(``savanna.agents._mcts_kernels``: ``set_root``, ``run_uct``, ``root_children``), writes what the
search knows at its root (the visits of every action, the mean return of the mover after each
action, the root's mean return vector) and picks the move: drawn in proportion to the visits
for a game's first ``sample_decisions`` decisions (the openings vary), the most visited after.

The games are split into chunks, one tree per chunk (``nodes`` and ``tree_states`` hold
``chunks`` trees end to end, each large enough that ``run_uct`` never fills it), and the chunks
run on numba's threads. Each game draws from its own stream, so the results never depend on the
thread count.

A template: ``savanna.agents.distill.compiled_distill`` binds it through ``Game.compiled`` (the
game's kernels, ``A``, ``C``) with the MCTS kernels compiled for the same game.
"""
from typing import TYPE_CHECKING

import numpy as np
from numba import njit, prange

from savanna.rng import below, uniform

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    from savanna.agents._mcts_kernels import root_children, run_uct, set_root
    from savanna.binding import A, current_player_one


@njit(cache=True)
def search_range(lo, hi, s, active, decisions, streams, sims, c, rollouts, sample_decisions,
                 nodes, values, rewards, tree_states, counts, visits, q, root_values, chosen):
    returns = np.zeros((A, values.shape[1]), np.float64)
    for i in range(lo, hi):
        if not active[i]:
            continue
        set_root(nodes, values, rewards, tree_states, counts, s[i:i + 1])
        run_uct(nodes, values, rewards, tree_states, counts, streams[i:i + 1], sims, c, rollouts)
        visits[i, :] = 0
        returns[:, :] = 0.0
        root_children(nodes, values, rewards, visits[i], returns)
        player = current_player_one(s, i)
        total = 0
        for a in range(A):
            q[i, a] = returns[a, player] / visits[i, a] if visits[i, a] > 0 else 0.0
            total += visits[i, a]
        root_values[i, :] = values[0, :] / nodes[0].visits
        chosen[i] = pick(visits[i], total, decisions[i] < sample_decisions, streams, i)


@njit(cache=True, inline="always")
def pick(visits, total, sample, streams, i):
    """An action drawn in proportion to ``visits`` (``sample``), else the most visited (ties
    broken from stream ``i``)."""
    if sample:
        u = uniform(streams, i) * total
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


@njit(cache=True, parallel=True)
def search_moves(s, active, decisions, streams, sims, c, rollouts, sample_decisions, nodes,
                 values, rewards, tree_states, counts, visits, q, root_values, chosen):
    """Searches state ``i`` where ``active[i]`` with ``sims`` UCT simulations (exploration
    ``c``, ``rollouts`` playouts per leaf); writes ``visits[i, a]``, ``q[i, a]`` (the mover's mean
    return after ``a``, 0 where unvisited), ``root_values[i]`` (absolute seats) and
    ``chosen[i]``. ``decisions[i]`` counts the decisions already made in game ``i``."""
    n = s.shape[0]
    chunks = counts.shape[0]
    node_cap = nodes.shape[0] // chunks
    state_cap = tree_states.shape[0] // chunks
    for k in prange(chunks):
        a, b = k * node_cap, (k + 1) * node_cap
        search_range(k * n // chunks, (k + 1) * n // chunks, s, active, decisions, streams,
                     sims, c, rollouts, sample_decisions, nodes[a:b], values[a:b],
                     rewards[a:b], tree_states[k * state_cap:(k + 1) * state_cap], counts[k],
                     visits, q, root_values, chosen)
