"""The compiled search: flat-array trees and one search loop, the selection rule bound per template.

A tree is a set of arrays (``savanna.agents.play.search.Tree`` owns them); a batch of trees
shares one pool, tree ``g`` rooted at node ``g``:

* ``nodes``    one row of ``NODE_DTYPE`` per node: its parent, its children (the contiguous
               block ``first_child .. first_child + num_children - 1``; ``num_children = -1``
               until the node is expanded), the slot of its state (-1 until the state is
               computed), the player to move there, the action or chance outcome leading to it,
               its prior (a chance node's children carry the outcome probabilities), visits and
               pending visits (virtual loss while a batch of leaves waits for the evaluator);
* ``values``   float64[nodes, P]: the sum over visits of the returns collected below the node;
* ``rewards``  float32[nodes, P]: the reward vector of the step that led to the node;
* ``raw``, ``log_priors``  Gumbel search only (empty otherwise): float32[nodes, P], the
               network's value vector of each evaluated node, and float64[nodes], the log of each
               decision child's prior, taken once at expansion;
* ``states``   the game's states, one per node whose state has been computed;
* ``counts``   int64[2]: nodes and states in use.

Children are allocated when their parent is expanded, their states only when first chosen, so
the tree costs a simulation one state copy and one step per node it adds. The value of child
``k`` for the player ``p`` who chooses at its parent is ``rewards[k, p] + values[k, p] /
visits[k]``: returns are vectors, credited at each node to whoever chose there, which works for
any number of players, turns that do not alternate, and chance nodes.

**One loop, three rules** (mctx's shape: one search with the rule passed in). ``simulate``
runs the descents of every tree (select, expand chance nodes, compute states; written in the
loop, not as a function: a call passing a score of arrays per descent costs as many reference
counts and a Gumbel search 15-25 % of its compiled time) and evaluates each leaf as ``RULE``
says:

* ``UCT``: ``Q + c * sqrt(ln N / n)`` (unvisited children first, at random); a new leaf is
  valued at once by random playouts and backed up, its children made at its second visit;
* ``PUCT``: ``Q + c * prior * sqrt(N) / (1 + n)``; leaves wait, marked pending (a pending
  visit counts as a loss, so the descents of one batch spread), for a batched evaluator;
* ``GUMBEL``: Danihelka et al., "Policy improvement by planning with Gumbel" (ICLR 2022), as
  mctx's ``gumbel_muzero_policy``: at the root Gumbel top-k with sequential halving
  (``table[m, i]``, from ``savanna.agents.play.gumbel.considered_visits``, is the visit count
  simulation ``i`` looks for when ``m`` actions are considered; among the children with that
  count the best ``gumbel + log prior + sigma(q)``), inside the child maximising
  ``pi'(a) - N(a) / (1 + sum N)`` with ``pi' = softmax(log prior + sigma(q))``; ``sigma(q)`` is
  mctx's ``qtransform_completed_by_mix_value`` (``completed_q``). One leaf per tree per call,
  all trees' leaves evaluated in one forward pass.

Waiting leaves get their priors and values from ``expand_and_backup``. Chance nodes are
sampled by probability (``select_chance``) or, in Gumbel search with ``expect_chance``
(Stochastic MuZero's chance nodes; the other rules compile without that code), the outcome
furthest behind its probability is followed and each chance node on the path takes the
expectation over its visited outcomes as its value (``expect_chance_values``).

``RULE`` is a number bound into the template (``savanna.agents.play.search.compiled_search``
binds it through ``Game.compiled`` with the game's kernels, ``A``, ``C`` and, for UCT, the
game's random ``playout_one``; see ``savanna.binding``): numba prunes the branches of the other
rules before it compiles, so each rule's loop holds only its own code, as a loop written for it
alone would. Never call the loops of this module itself.
"""
import math
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from savanna.game import CHANCE, TERMINAL
from savanna.rng import below, uniform

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    from savanna.binding import (
        RULE,
        A,
        C,
        apply_chance_one,
        chance_probs_one,
        current_player_one,
        legal_actions_one,
        observe_one,
        playout_one,
        step_one,
    )

UCT, PUCT, GUMBEL = 0, 1, 2  # the selection rules and leaf evaluations (``RULE``)

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
TINY_PRIOR = 1e-30  # floor of a prior before its log (a softmax may underflow to 0)
UNCONSIDERED = -1e30  # added to the root scores of children that are not considered now


@njit(cache=True)
def has_room(nodes, states, counts, new_nodes, new_states):
    """Whether ``new_nodes`` nodes and ``new_states`` states still fit."""
    return (counts[0] + new_nodes <= nodes.shape[0]
            and counts[1] + new_states <= states.shape[0])


@njit(cache=True)
def set_roots(nodes, values, rewards, raw, log_priors, states, counts, roots):
    """Empties the pool and makes ``roots[g]`` the root of tree ``g`` (node and slot ``g``)."""
    for g in range(len(roots)):
        states[g] = roots[g]
        init_node(nodes, values, rewards, g, -1, 0, 1.0)
        nodes[g].slot = g
        nodes[g].player = current_player_one(states, g)
        if RULE == GUMBEL:
            raw[g, :] = 0.0
            log_priors[g] = 0.0
    counts[0] = len(roots)
    counts[1] = len(roots)


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
                for q in range(len(delta)):  # a loop: ``values[j, :] += delta`` compiles
                    values[j, q] += delta[q]  # numba's broadcasting, 3 s of a cold start
                j = nodes[j].parent
        k = nd.parent


@njit(cache=True)
def simulate(nodes, values, rewards, raw, log_priors, states, counts, streams, done, num_sims,
             c, rollouts, gumbel, table, value_scale, maxvisit_init, value_range, expect_chance,
             leaves, players, obs, masks):
    """The search loop: tree ``g`` (root node ``g``, random stream ``streams[g]``) descends
    until ``done[g]`` reaches ``num_sims``, one per descent. A descent ends at a node at the
    end of the game or an unexpanded decision node (UCT: one not visited yet, the root aside;
    UCT expands a decision node it visits again), expanding and sampling the chance nodes on
    its way. A descent that ends the game is
    backed up at once; UCT values a leaf by ``rollouts`` random playouts and backs it up; PUCT
    and Gumbel write it as leaf ``j`` (``leaves[j]``, its player, its observation by that
    player, its legal mask) for the evaluator, PUCT marking its path pending and descending
    again, Gumbel going on to the next tree. Returns ``(leaves written, short)``: ``short`` is
    True when a tree stopped because the pool is full (grow it and call again: the tree is
    consistent and its stream rewound to the start of the unfinished descent, so the search
    does not depend on how the arrays grew). ``gumbel`` (float64[trees, A]) and the settings
    after it are Gumbel's; ``c`` is UCT's and PUCT's."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    no_priors = np.ones(A, np.float64)
    ret = np.zeros(values.shape[1], np.float64)
    q = np.empty(max(A, C), np.float64)
    pi = np.empty(max(A, C), np.float64)
    scratch = np.empty(1, states.dtype)
    step_rewards = np.zeros(values.shape[1], np.float32)
    total = np.zeros(values.shape[1], np.float32)
    collected, short = 0, False
    for g in range(len(done)):
        stream = streams[g:g + 1]
        while done[g] < num_sims:
            seed = stream[0]  # restored if the pool fills up, so the retry draws the same
            leaf = g  # the descent
            while True:
                nd = nodes[leaf]
                if nd.player == TERMINAL:
                    break
                if nd.num_children == NOT_EXPANDED:
                    if nd.player >= 0 and (RULE != UCT or (nd.visits == 0 and leaf != g)):
                        break
                    if not expand(nodes, values, rewards, states, counts, leaf, no_priors,
                                  actions, probs):
                        leaf = -1
                        break
                if nd.player == CHANCE:
                    child = (select_outcome(nodes, leaf) if RULE == GUMBEL and expect_chance
                             else select_chance(nodes, leaf, stream))
                elif RULE == UCT:
                    child = select_uct(nodes, values, rewards, leaf, c, stream)
                elif RULE == PUCT:
                    child = select_puct(nodes, values, rewards, leaf, c)
                elif leaf == g:
                    child = select_root(nodes, values, rewards, raw, log_priors, g, gumbel,
                                        table, value_scale, maxvisit_init, value_range, q)
                else:
                    child = select_interior(nodes, values, rewards, raw, log_priors, leaf,
                                            value_scale, maxvisit_init, value_range, q, pi)
                if nodes[child].slot < 0 and not materialise(nodes, rewards, states, counts,
                                                             child):
                    leaf = -1
                    break
                leaf = child
            if leaf < 0:
                stream[0] = seed
                short = True
                break
            done[g] += 1
            if nodes[leaf].player == TERMINAL:
                ret[:] = 0.0
            elif RULE == UCT:
                rollout_value(states, nodes[leaf].slot, stream, rollouts, scratch, actions,
                              probs, step_rewards, total, ret)
            else:
                write_leaf(nodes, states, leaf, collected, leaves, obs, masks, players, actions)
                collected += 1
                if RULE == GUMBEL:
                    break
                k = leaf
                while k >= 0:
                    nodes[k].pending += 1
                    k = nodes[k].parent
                continue
            backup(nodes, values, rewards, leaf, ret)
            if RULE == GUMBEL and expect_chance:
                expect_chance_values(nodes, values, rewards, leaf, ret)
    return collected, short


@njit(cache=True)
def expand_and_backup(nodes, values, rewards, raw, log_priors, states, counts, leaves, players,
                      priors, leaf_values, expect_chance):
    """Gives leaf ``j`` of a batch its evaluation: children with ``priors[j]`` (once, if a
    leaf came twice), then backs up ``leaf_values[j]`` (PUCT: absolute seats, its pending
    marks cleared; Gumbel: relative to the leaf's player, rotated here and kept in ``raw``;
    then, in Gumbel search with ``expect_chance``, the expectations of the chance nodes above
    it). The caller leaves room for ``len(leaves) * A`` nodes."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    num_players = values.shape[1]
    ret = np.empty(num_players, np.float64)
    for j in range(len(leaves)):
        leaf = leaves[j]
        if RULE == GUMBEL:
            for k in range(num_players):
                seat = (players[j] + k) % num_players
                ret[seat] = leaf_values[j, k]
                raw[leaf, seat] = leaf_values[j, k]
        else:
            k = leaf
            while k >= 0:
                nodes[k].pending -= 1
                k = nodes[k].parent
            for seat in range(num_players):
                ret[seat] = leaf_values[j, seat]
        if nodes[leaf].num_children == NOT_EXPANDED:
            expand(nodes, values, rewards, states, counts, leaf, priors[j], actions, probs)
            if RULE == GUMBEL:
                first = nodes[leaf].first_child
                for k in range(first, first + nodes[leaf].num_children):
                    log_priors[k] = math.log(max(nodes[k].prior, TINY_PRIOR))
        backup(nodes, values, rewards, leaf, ret)
        if RULE == GUMBEL and expect_chance:
            expect_chance_values(nodes, values, rewards, leaf, ret)


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
        for k in range(values.shape[1]):
            root_values[g, k] = values[g, k] / nd.visits
