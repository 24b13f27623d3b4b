"""The compiled half of MCTS: a flat-array tree searched by numba loops over a game's kernels.

A tree is a set of arrays (``savanna.agents.play.mcts.Tree`` owns them):

* ``nodes``    one row of ``NODE_DTYPE`` per node: its parent, its children (the contiguous
               block ``first_child .. first_child + num_children - 1``; ``num_children = -1``
               until the node is expanded), the slot of its state (-1 until the state is
               computed), the player to move there, the action or chance outcome leading to it,
               its prior (a chance node's children carry the outcome probabilities), visits and
               pending visits (virtual loss while a batch of leaves waits for the evaluator);
* ``values``   float64[nodes, P]: the sum over visits of the returns collected below the node;
* ``rewards``  float32[nodes, P]: the reward vector of the step that led to the node;
* ``states``   the game's states, one per node whose state has been computed;
* ``counts``   int64[2]: nodes and states in use.

Children are allocated when their parent is expanded, their states only when first chosen, so
the tree costs a simulation one state copy and one step per node it adds. The value of child
``k`` for the player ``p`` who chooses at its parent is ``rewards[k, p] + values[k, p] /
visits[k]``: returns are vectors, credited at each node to whoever chose there, which works for
any number of players, turns that do not alternate, and chance nodes (which choose nothing and
are sampled by probability).

This module is a template: ``savanna.agents.play.mcts.compiled_search`` binds it through
``Game.compiled`` (the game's kernels, ``A``, ``C`` and the game's random ``playout_one``; see
``savanna.binding``) in a generated copy per game class, which numba caches. Never call
the loops of this module itself.
"""
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from savanna.game import CHANCE, TERMINAL
from savanna.rng import below, uniform

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    from savanna.binding import (
        A,
        C,
        apply_chance_one,
        chance_probs_one,
        current_player_one,
        legal_actions_one,
        playout_one,
        step_one,
    )

NODE_DTYPE = np.dtype([
    ("parent", np.int32),
    ("first_child", np.int32),
    ("num_children", np.int32),
    ("slot", np.int32),
    ("visits", np.int32),
    ("pending", np.int32),
    ("prior", np.float32),
    ("action", np.int16),
    ("player", np.int8),
], align=True)

NOT_EXPANDED = -1
VIRTUAL_LOSS = 1.0  # a pending visit counts as this loss for the player choosing there


@njit(cache=True)
def has_room(nodes, states, counts, new_nodes, new_states):
    """Whether ``new_nodes`` nodes and ``new_states`` states still fit."""
    return (counts[0] + new_nodes <= nodes.shape[0]
            and counts[1] + new_states <= states.shape[0])


@njit(cache=True)
def set_root(nodes, values, rewards, states, counts, root):
    """Empties the tree and makes ``root[0]`` its only node."""
    states[0] = root[0]
    counts[0] = 1
    counts[1] = 1
    init_node(nodes, values, rewards, 0, -1, 0, 1.0)
    nodes[0].slot = 0
    nodes[0].player = current_player_one(states, 0)


@njit(cache=True, inline="always")
def init_node(nodes, values, rewards, k, parent, action, prior):
    nd = nodes[k]
    nd.parent = parent
    nd.first_child = -1
    nd.num_children = NOT_EXPANDED
    nd.slot = -1
    nd.visits = 0
    nd.pending = 0
    nd.prior = prior
    nd.action = action
    nd.player = TERMINAL
    values[k, :] = 0.0
    rewards[k, :] = 0.0


@njit(cache=True)
def expand(nodes, values, rewards, states, counts, node, priors, actions, probs):
    """Creates the children of ``node``: its legal actions with priors ``priors[action]``
    (renormalised over the legal ones; uniform if they sum to zero), or its chance outcomes
    with their probabilities. Returns False, changing nothing, if the tree is full."""
    nd = nodes[node]
    first = counts[0]
    if nd.player == CHANCE:
        probs[:] = 0.0  # a game may write only its possible outcomes
        chance_probs_one(states, nd.slot, probs)
        n = 0
        for o in range(C):
            if probs[o] > 0.0:
                n += 1
        if not has_room(nodes, states, counts, n, 0):
            return False
        k = first
        for o in range(C):
            if probs[o] > 0.0:
                init_node(nodes, values, rewards, k, node, o, probs[o])
                k += 1
    else:
        n = legal_actions_one(states, nd.slot, actions)
        if not has_room(nodes, states, counts, n, 0):
            return False
        total = 0.0
        for j in range(n):
            total += priors[actions[j]]
        for j in range(n):
            prior = priors[actions[j]] / total if total > 0.0 else 1.0 / n
            init_node(nodes, values, rewards, first + j, node, actions[j], prior)
    nd.first_child = first
    nd.num_children = n
    counts[0] = first + n
    return True


@njit(cache=True)
def materialise(nodes, rewards, states, counts, child):
    """Computes the state of ``child`` from its parent's. False if no state slot is left."""
    if not has_room(nodes, states, counts, 0, 1):
        return False
    slot = counts[1]
    counts[1] = slot + 1
    nd = nodes[child]
    parent = nodes[nd.parent]
    states[slot] = states[parent.slot]
    if parent.player == CHANCE:
        apply_chance_one(states, slot, nd.action)
    else:
        step_one(states, slot, nd.action, rewards[child])
    nd.slot = slot
    nd.player = current_player_one(states, slot)
    return True


@njit(cache=True)
def select_chance(nodes, node, streams):
    """A child of chance node ``node`` drawn with the outcome probabilities."""
    nd = nodes[node]
    u = uniform(streams, 0)
    last = nd.first_child + nd.num_children - 1
    for k in range(nd.first_child, last):
        u -= nodes[k].prior
        if u < 0.0:
            return k
    return last


@njit(cache=True)
def select_uct(nodes, values, rewards, node, c, streams):
    """UCT: an unvisited child if any (chosen at random), else the best
    ``Q + c * sqrt(ln N / n)`` for the player who chooses at ``node``."""
    nd = nodes[node]
    first, n, p = nd.first_child, nd.num_children, nd.player
    start = below(streams, 0, n)
    for j in range(n):
        k = first + (start + j) % n
        if nodes[k].visits == 0:
            return k
    log_n = np.log(nd.visits)
    best, best_score = first, -np.inf
    for k in range(first, first + n):
        v = nodes[k].visits
        score = rewards[k, p] + values[k, p] / v + c * np.sqrt(log_n / v)
        if score > best_score:
            best, best_score = k, score
    return best


@njit(cache=True)
def select_puct(nodes, values, rewards, node, c):
    """PUCT: the best ``Q + c * prior * sqrt(N) / (1 + n)`` for the player choosing at
    ``node``; pending visits count as losses; an unvisited child is valued at the node's
    own mean value (first-play urgency)."""
    nd = nodes[node]
    p = nd.player
    parent_n = nd.visits + nd.pending
    fpu = values[node, p] / nd.visits if nd.visits > 0 else 0.0
    scale = c * np.sqrt(max(parent_n, 1))
    best, best_score = nd.first_child, -np.inf
    for k in range(nd.first_child, nd.first_child + nd.num_children):
        ch = nodes[k]
        n = ch.visits + ch.pending
        if n == 0:
            q = fpu
        else:
            q = rewards[k, p] + (values[k, p] - VIRTUAL_LOSS * ch.pending) / n
        score = q + scale * ch.prior / (1 + n)
        if score > best_score:
            best, best_score = k, score
    return best


@njit(cache=True)
def backup(nodes, values, rewards, leaf, ret):
    """Adds the return vector ``ret`` (the value of ``leaf``; used as scratch) to every node
    from ``leaf`` up to the root, adding to it the reward of each step on the way."""
    k = leaf
    while k >= 0:
        nodes[k].visits += 1
        for q in range(values.shape[1]):
            values[k, q] += ret[q]
            ret[q] += rewards[k, q]
        k = nodes[k].parent


@njit(cache=True)
def rollout_value(states, slot, streams, rollouts, scratch, actions, probs, step_rewards,
                  total, out):
    """Mean return vector of ``rollouts`` random playouts from ``states[slot]``."""
    out[:] = 0.0
    for _ in range(rollouts):
        scratch[0] = states[slot]
        total[:] = 0.0
        playout_one(scratch, 0, streams, actions, probs, step_rewards, total)
        for q in range(out.shape[0]):
            out[q] += total[q] / rollouts


@njit(cache=True)
def run_uct(nodes, values, rewards, states, counts, streams, num_sims, c, rollouts):
    """Runs up to ``num_sims`` UCT simulations with random rollouts; returns how many ran
    (fewer when the tree is full: grow it and call again; the tree stays consistent and
    the random stream is rewound to the start of the unfinished simulation, so the search
    does not depend on how the arrays grew)."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    uniform_priors = np.ones(A, np.float64)
    scratch = np.empty(1, states.dtype)
    step_rewards = np.zeros(values.shape[1], np.float32)
    total = np.zeros(values.shape[1], np.float32)
    leaf_value = np.zeros(values.shape[1], np.float64)
    for sim in range(num_sims):
        seed = streams[0]  # restored if the tree fills up, so the retry draws the same
        node = 0
        while True:
            nd = nodes[node]
            if nd.player == TERMINAL:
                leaf_value[:] = 0.0
                break
            if nd.num_children == NOT_EXPANDED:
                if nd.player >= 0 and nd.visits == 0 and node != 0:
                    rollout_value(states, nd.slot, streams, rollouts, scratch, actions,
                                  probs, step_rewards, total, leaf_value)
                    break
                if not expand(nodes, values, rewards, states, counts, node,
                              uniform_priors, actions, probs):
                    streams[0] = seed
                    return sim
            if nd.player == CHANCE:
                child = select_chance(nodes, node, streams)
            else:
                child = select_uct(nodes, values, rewards, node, c, streams)
            if nodes[child].slot < 0 and not materialise(nodes, rewards, states, counts,
                                                         child):
                streams[0] = seed
                return sim
            node = child
        backup(nodes, values, rewards, node, leaf_value)
    return num_sims


@njit(cache=True)
def select_leaves(nodes, values, rewards, states, counts, streams, num_leaves, c, leaves):
    """PUCT descents for a batch: each ends at a decision node not yet expanded (written to
    ``leaves`` and marked pending along its path, for the evaluator) or at the end of the
    game (backed up at once). Chance nodes on the way are expanded and sampled. Returns
    ``(leaves collected, simulations finished)``; stops early when the tree is full."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    no_priors = np.ones(A, np.float64)
    ret = np.zeros(values.shape[1], np.float64)
    collected = 0
    finished = 0
    for _ in range(num_leaves):
        seed = streams[0]  # restored if the tree fills up, so the retry draws the same
        node = 0
        while True:
            nd = nodes[node]
            if nd.player == TERMINAL or (nd.player >= 0
                                         and nd.num_children == NOT_EXPANDED):
                break
            if nd.num_children == NOT_EXPANDED and not expand(
                    nodes, values, rewards, states, counts, node, no_priors, actions, probs):
                streams[0] = seed
                return collected, finished
            if nd.player == CHANCE:
                child = select_chance(nodes, node, streams)
            else:
                child = select_puct(nodes, values, rewards, node, c)
            if nodes[child].slot < 0 and not materialise(nodes, rewards, states, counts,
                                                         child):
                streams[0] = seed
                return collected, finished
            node = child
        if nodes[node].player == TERMINAL:
            ret[:] = 0.0
            backup(nodes, values, rewards, node, ret)
            finished += 1
            continue
        leaves[collected] = node
        collected += 1
        k = node
        while k >= 0:
            nodes[k].pending += 1
            k = nodes[k].parent
    return collected, finished


@njit(cache=True)
def expand_and_backup(nodes, values, rewards, states, counts, leaves, priors, leaf_values):
    """Gives each leaf of a batch its evaluation: children with ``priors[j]`` (once, if a
    leaf came twice), then backs up ``leaf_values[j]`` and clears the pending marks.
    The caller leaves room for ``len(leaves) * num_actions`` nodes."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    ret = np.empty(values.shape[1], np.float64)
    for j in range(leaves.shape[0]):
        leaf = leaves[j]
        k = leaf
        while k >= 0:
            nodes[k].pending -= 1
            k = nodes[k].parent
        if nodes[leaf].num_children == NOT_EXPANDED:
            expand(nodes, values, rewards, states, counts, leaf, priors[j], actions, probs)
        ret[:] = leaf_values[j]
        backup(nodes, values, rewards, leaf, ret)


@njit(cache=True)
def root_children(nodes, values, rewards, visits, returns):
    """Adds the visits of each root action to ``visits[a]`` and the sum of the returns of
    those visits, counted from the root, to ``returns[a]``."""
    root = nodes[0]
    for k in range(root.first_child, root.first_child + root.num_children):
        a = nodes[k].action
        visits[a] += nodes[k].visits
        for q in range(values.shape[1]):
            returns[a, q] += values[k, q] + nodes[k].visits * rewards[k, q]
