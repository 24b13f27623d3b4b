"""The compiled half of AlphaZero's search: many games' trees searched together, Gumbel at the root.

One flat pool holds the trees of a batch of ``G`` games, in ``savanna.agents.play._mcts_kernels``'
layout (``nodes``, ``values``, ``rewards``, ``states``, ``counts``; node ``g`` is the root of game
``g``) plus ``raw``: float32[nodes, P], the network's value vector of each evaluated node, and
``log_priors``: float64[nodes], the log of each decision child's prior, taken once at
expansion rather than at every selection. The
node helpers (``expand``, ``materialise``, ``backup``, ``select_chance``, ``init_node``) are the
MCTS ones, bound from ``savanna.agents.play.mcts.compiled_search``, so values are per-player vectors
credited to whoever chooses, for any number of players, non-alternating turns and chance nodes.

A search round (``descend``) walks every unfinished game down to one leaf (an unexpanded
decision node), writing its observation and legal mask for the network; simulations that end
the game are backed up at once and the game descends again. Python evaluates all the leaves in
one forward pass; ``expand_and_backup`` gives them their priors and values. So a round has one
leaf per game and needs no virtual loss.

Selection follows Danihelka et al., "Policy improvement by planning with Gumbel" (ICLR 2022),
as mctx's ``gumbel_muzero_policy`` does:

* **root**: Gumbel top-k with sequential halving. ``table[m, i]`` (from ``considered_visits``)
  is the visit count that simulation ``i`` looks for when ``m`` actions are considered; among
  the root's children with that count, the one maximising ``gumbel + log prior + sigma(q)``
  is chosen. The first ``m`` simulations thus try the top ``m`` of ``gumbel + log prior`` (a
  sample without replacement from the prior), and later phases halve them by their values;
* **inside**: the paper's deterministic selection, the child maximising
  ``pi'(a) - N(a) / (1 + sum N)`` with ``pi' = softmax(log prior + sigma(q))``;
* ``sigma(q)`` is ``qtransform_completed_by_mix_value``: unvisited children take the node's
  mixed value (its network value blended with the prior-weighted mean Q of visited children),
  all are rescaled to [0, 1] by their min and max (or, with ``value_range`` > 0, divided by
  that fixed span: mctx's ``rescale_values=False``, so that small, noisy differences stay
  small), then scaled by ``(maxvisit_init + max N) * value_scale``.

The move and the policy target (``root_results``): the improved policy
``softmax(log prior + sigma(q))`` over the legal actions, and the action maximising
``gumbel + log prior + sigma(q)`` among the most visited.

**Chance nodes.** A descent through a chance node follows one outcome, so a simulation still
costs one network evaluation whatever the branching (a Bonobo draw has up to 8 outcomes). By
default (``expect_chance`` False) the outcome is sampled with its probability
(``select_chance``) and the node's value is the mean of the returns through it: unbiased, and
the expectation as its visits grow, as OpenSpiel's MCTS treats chance. With ``expect_chance``
(Stochastic MuZero's chance nodes, Antonoglou et al. 2022) the outcome is the one furthest
behind its probability (``select_outcome``: the largest ``p(o) - N(o) / (1 + sum N)``, so the
visits follow the probabilities without sampling noise) and, after each backup, every chance
node on the path takes as its value the expectation ``sum p(o) V(o) / sum p(o)`` over its
visited outcomes (``expect_chance_values``), the difference passed up to its ancestors: one
lucky roll no longer weighs as much as its count of visits says, and once every outcome has
been visited the node's value is the exact expectation of its outcomes' values.

A template: ``savanna.agents.play.gumbel.compiled_az`` binds it through ``Game.compiled``
(the game's kernels, ``A``, ``C``; see ``savanna.binding``) with the MCTS helpers named above.
"""
import math
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from savanna.game import CHANCE, TERMINAL

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    from savanna.agents.play._mcts_kernels import (
        backup,
        expand,
        init_node,
        materialise,
        select_chance,
    )
    from savanna.binding import A, C, current_player_one, legal_actions_one, observe_one


NOT_EXPANDED = -1
TINY_PRIOR = 1e-30  # floor of a prior before its log (a softmax may underflow to 0)
UNCONSIDERED = -1e30  # added to the root scores of children that are not considered now


def considered_visits(max_considered, num_sims):
    """``int32[max_considered + 1, num_sims]``: row ``m`` is the visit count each simulation
    looks for at the root when ``m`` actions are considered (mctx's
    ``get_table_of_considered_visits``: sequential halving, at least one visit per phase)."""
    table = np.zeros((max_considered + 1, num_sims), np.int32)
    for m in range(max_considered + 1):
        if m <= 1:
            table[m] = np.arange(num_sims)
            continue
        log2max = math.ceil(math.log2(m))
        sequence, visits, considered = [], [0] * m, m
        while len(sequence) < num_sims:
            for _ in range(max(1, int(num_sims / (log2max * considered)))):
                sequence.extend(visits[:considered])
                for i in range(considered):
                    visits[i] += 1
            considered = max(2, considered // 2)
        table[m] = sequence[:num_sims]
    return table


@njit(cache=True)
def set_roots(nodes, values, rewards, raw, log_priors, states, counts, roots):
    """Empties the pool and makes ``roots[g]`` the root of game ``g`` (node and slot ``g``)."""
    for g in range(len(roots)):
        states[g] = roots[g]
        init_node(nodes, values, rewards, g, -1, 0, 1.0)
        nodes[g].slot = g
        nodes[g].player = current_player_one(states, g)
        raw[g, :] = 0.0
        log_priors[g] = 0.0
    counts[0] = len(roots)
    counts[1] = len(roots)


@njit(cache=True)
def write_leaf(nodes, states, node, j, leaves, obs, masks, players, actions):
    """Makes ``node`` leaf ``j`` of the round: its observation by its player, its legal mask."""
    nd = nodes[node]
    leaves[j] = node
    players[j] = nd.player
    observe_one(states, nd.slot, nd.player, obs[j])
    masks[j, :] = False
    for k in range(legal_actions_one(states, nd.slot, actions)):
        masks[j, actions[k]] = True


@njit(cache=True)
def collect_roots(nodes, states, num_games, leaves, obs, masks, players):
    """The roots as the first round's leaves (the network's priors and values of the roots)."""
    actions = np.empty(A, np.int16)
    for g in range(num_games):
        write_leaf(nodes, states, g, g, leaves, obs, masks, players, actions)


@njit(cache=True)
def completed_q(nodes, values, rewards, raw, node, value_scale, maxvisit_init, value_range, q):
    """``q[j]``: sigma of the completed Q-value of child ``j`` of ``node`` for the player
    choosing there (mctx's ``qtransform_completed_by_mix_value``, see the module docstring)."""
    nd = nodes[node]
    p, first, n = nd.player, nd.first_child, nd.num_children
    visits, most, prior_sum, weighted = 0, 0, 0.0, 0.0
    for j in range(n):
        ch = nodes[first + j]
        if ch.visits > 0:
            q[j] = rewards[first + j, p] + values[first + j, p] / ch.visits
            prior = max(ch.prior, TINY_PRIOR)
            visits += ch.visits
            most = max(most, ch.visits)
            prior_sum += prior
            weighted += prior * q[j]
    mixed = raw[node, p]
    if visits > 0:
        mixed = (mixed + visits * weighted / prior_sum) / (visits + 1)
    low, high = np.inf, -np.inf
    for j in range(n):
        if nodes[first + j].visits == 0:
            q[j] = mixed
        low = min(low, q[j])
        high = max(high, q[j])
    span = value_range if value_range > 0 else max(high - low, 1e-8)
    scale = (maxvisit_init + most) * value_scale / span
    for j in range(n):
        q[j] = (q[j] - low) * scale


@njit(cache=True)
def select_root(nodes, values, rewards, raw, log_priors, g, gumbel, table, value_scale,
                maxvisit_init, value_range, q):
    """Gumbel root selection with sequential halving for game ``g`` (its root is node ``g``)."""
    nd = nodes[g]
    first, n = nd.first_child, nd.num_children
    completed_q(nodes, values, rewards, raw, g, value_scale, maxvisit_init, value_range, q)
    done = 0
    for j in range(n):
        done += nodes[first + j].visits
    target = table[min(n, table.shape[0] - 1), done]
    best, best_score = first, -np.inf
    for j in range(n):
        ch = nodes[first + j]
        score = gumbel[g, ch.action] + log_priors[first + j] + q[j]
        if ch.visits != target:
            score += UNCONSIDERED
        if score > best_score:
            best, best_score = first + j, score
    return best


@njit(cache=True)
def improved_policy(nodes, log_priors, node, q, out):
    """``out[j] = softmax(log prior + q)[j]`` over the children of ``node``."""
    nd = nodes[node]
    first, n = nd.first_child, nd.num_children
    top = -np.inf
    for j in range(n):
        out[j] = log_priors[first + j] + q[j]
        top = max(top, out[j])
    total = 0.0
    for j in range(n):
        out[j] = math.exp(out[j] - top)
        total += out[j]
    for j in range(n):
        out[j] /= total


@njit(cache=True)
def select_interior(nodes, values, rewards, raw, log_priors, node, value_scale, maxvisit_init,
                    value_range, q, pi):
    """The deterministic selection: the child maximising ``pi'(a) - N(a) / (1 + sum N)``."""
    nd = nodes[node]
    first, n = nd.first_child, nd.num_children
    completed_q(nodes, values, rewards, raw, node, value_scale, maxvisit_init, value_range, q)
    improved_policy(nodes, log_priors, node, q, pi)
    visits = 0
    for j in range(n):
        visits += nodes[first + j].visits
    best, best_score = first, -np.inf
    for j in range(n):
        score = pi[j] - nodes[first + j].visits / (1.0 + visits)
        if score > best_score:
            best, best_score = first + j, score
    return best


@njit(cache=True)
def select_outcome(nodes, node):
    """The outcome of chance node ``node`` furthest behind its probability: the largest
    ``p(o) - N(o) / (1 + sum N)`` (the first of equals)."""
    nd = nodes[node]
    first, n = nd.first_child, nd.num_children
    best, best_score = first, -np.inf
    for k in range(first, first + n):
        score = nodes[k].prior - nodes[k].visits / (1.0 + nd.visits)
        if score > best_score:
            best, best_score = k, score
    return best


@njit(cache=True)
def expect_chance_values(nodes, values, rewards, leaf, delta):
    """After a backup from ``leaf``: every chance node on its path, from the bottom up, takes
    ``visits * sum p(o) V(o) / sum p(o)`` (over its visited outcomes ``o``, ``V(o)`` the return
    through ``o``) as its value sum, and the change is added to its ancestors' sums (their
    visits are unchanged, so the change of their mean is the same). ``delta``: scratch."""
    k = leaf
    while k >= 0:
        nd = nodes[k]
        if nd.player == CHANCE and nd.visits > 0:
            mass = 0.0
            delta[:] = 0.0
            for j in range(nd.first_child, nd.first_child + nd.num_children):
                ch = nodes[j]
                if ch.visits > 0:
                    mass += ch.prior
                    for q in range(len(delta)):
                        delta[q] += ch.prior * (rewards[j, q] + values[j, q] / ch.visits)
            for q in range(len(delta)):
                expected = nd.visits * delta[q] / mass
                delta[q] = expected - values[k, q]
                values[k, q] = expected
            j = nd.parent
            while j >= 0:
                values[j, :] += delta
                j = nodes[j].parent
        k = nd.parent


@njit(cache=True)
def descend(nodes, values, rewards, raw, log_priors, states, counts, gumbel, table, sims_done,
            num_sims, value_scale, maxvisit_init, value_range, expect_chance, streams, leaves,
            leaf_games, obs, masks, players):
    """One round: every game with simulations left descends to a leaf (written as leaf ``j``
    of the round, with ``leaf_games[j] = g``); simulations that reach the end of the game are
    backed up at once and the game descends again. Returns ``(leaves, short)``: ``short`` is
    True when some game stopped because the pool is full (grow it; that game tries again)."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    no_priors = np.ones(A, np.float64)
    ret = np.zeros(values.shape[1], np.float64)
    q = np.empty(max(A, C), np.float64)
    pi = np.empty(max(A, C), np.float64)
    collected, short = 0, False
    for g in range(len(sims_done)):
        stream = streams[g:g + 1]
        while sims_done[g] < num_sims:
            node, full = g, False
            while True:
                nd = nodes[node]
                if nd.player == TERMINAL or (nd.player >= 0
                                             and nd.num_children == NOT_EXPANDED):
                    break
                if nd.num_children == NOT_EXPANDED and not expand(
                        nodes, values, rewards, states, counts, node, no_priors, actions,
                        probs):
                    full = True
                    break
                if nd.player == CHANCE:
                    child = (select_outcome(nodes, node) if expect_chance
                             else select_chance(nodes, node, stream))
                elif node == g:
                    child = select_root(nodes, values, rewards, raw, log_priors, g, gumbel,
                                        table, value_scale, maxvisit_init, value_range, q)
                else:
                    child = select_interior(nodes, values, rewards, raw, log_priors, node,
                                            value_scale, maxvisit_init, value_range, q, pi)
                if nodes[child].slot < 0 and not materialise(nodes, rewards, states, counts,
                                                             child):
                    full = True
                    break
                node = child
            if full:
                short = True
                break
            if nodes[node].player == TERMINAL:
                ret[:] = 0.0
                backup(nodes, values, rewards, node, ret)
                if expect_chance:
                    expect_chance_values(nodes, values, rewards, node, ret)
                sims_done[g] += 1
                continue
            write_leaf(nodes, states, node, collected, leaves, obs, masks, players, actions)
            leaf_games[collected] = g
            collected += 1
            break
    return collected, short


@njit(cache=True)
def expand_and_backup(nodes, values, rewards, raw, log_priors, states, counts, leaves,
                      leaf_games, players, priors, relative_values, sims_done, expect_chance):
    """Gives leaf ``j`` its children with ``priors[j]`` and backs up its value vector,
    ``relative_values[j]`` rotated from its player's seat to absolute seats (then, with
    ``expect_chance``, the expectations of the chance nodes above it); counts the simulation
    of its game. The caller leaves room for ``len(leaves) * A`` nodes."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    num_players = values.shape[1]
    ret = np.empty(num_players, np.float64)
    for j in range(len(leaves)):
        leaf = leaves[j]
        for k in range(num_players):
            ret[(players[j] + k) % num_players] = relative_values[j, k]
        raw[leaf, :] = ret
        expand(nodes, values, rewards, states, counts, leaf, priors[j], actions, probs)
        first = nodes[leaf].first_child
        for k in range(first, first + nodes[leaf].num_children):
            log_priors[k] = math.log(max(nodes[k].prior, TINY_PRIOR))
        backup(nodes, values, rewards, leaf, ret)
        if expect_chance:
            expect_chance_values(nodes, values, rewards, leaf, ret)
        sims_done[leaf_games[j]] += 1


@njit(cache=True)
def root_results(nodes, values, rewards, raw, log_priors, gumbel, value_scale, maxvisit_init,
                 value_range, policy, chosen, root_values):
    """Per game: the improved policy (``policy[g, a]``, zero where illegal), the move (the best
    ``gumbel + log prior + sigma(q)`` among the most visited root children) and the root's
    mean value vector."""
    q = np.empty(A, np.float64)
    pi = np.empty(A, np.float64)
    for g in range(len(chosen)):
        nd = nodes[g]
        first, n = nd.first_child, nd.num_children
        completed_q(nodes, values, rewards, raw, g, value_scale, maxvisit_init, value_range, q)
        improved_policy(nodes, log_priors, g, q, pi)
        most = 0
        for j in range(n):
            policy[g, nodes[first + j].action] = pi[j]
            most = max(most, nodes[first + j].visits)
        best, best_score = first, -np.inf
        for j in range(n):
            ch = nodes[first + j]
            score = gumbel[g, ch.action] + log_priors[first + j] + q[j]
            if ch.visits == most and score > best_score:
                best, best_score = first + j, score
        chosen[g] = nodes[best].action
        root_values[g, :] = values[g, :] / nd.visits
