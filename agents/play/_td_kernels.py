"""The TD player's compiled half (a template, bound to one game by ``game.compiled``): action
values by 0-, 1- or 2-ply expectimax over chance with a TD value network, and a self-play
game that records what each seat saw.

``F0(x, seat)``: 0 at the end, else the network's value of ``observe(x, seat)``.
``Fk(x, seat)`` (k = 1, 2): at a chance node, the expectation over the states where chance
leaves it (every outcome when one chance node leads to a decision, else ``samples`` draws of
the whole chain: a roll of several dice); at a decision node of player ``q``, ``q`` picks by
``r_q + F(k-1)(after, q)`` and the value is ``r_seat + F(k-1)(that after, seat)``. The value of
action ``a`` at ply k is ``r_player(a) + Fk(after a, player)``: ply 1 is GNU Backgammon's
1-ply (the dice, then the opponent's best 0-ply reply). Rewards are the step's, so games that
pay along the way are valued right.

Buffers travel as one tuple ``buf = (scratch states[SLOTS], actions int16[5, A], rewards
float32[5, P], weights float64[5, S], probs float64[C], streams uint64[1])``
(``savanna.agents.play.td_agent.buffers``): a row of each per search depth, ``S = max(C,
samples)`` children per chance node; the player count is the rewards' width.
"""
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from savanna.agents.models.td_value import observed_value
from savanna.codes import CHANCE, TERMINAL
from savanna.rng import below, uniform

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    from savanna.binding import (
        C,
        apply_chance_one,
        chance_probs_one,
        current_player_one,
        legal_actions_one,
        observe_one,
        step_one,
    )


@njit(cache=True)
def future(s, i, seat, net, obs, work):
    """F0: the network's value of state ``i`` for ``seat``; 0 at the end."""
    if current_player_one(s, i) == TERMINAL:
        return 0.0
    observe_one(s, i, seat, obs)
    return observed_value(net, obs, work)


@njit(cache=True)
def draw_chance(s, i, probs, streams):
    """Applies one chance outcome to state ``i``, drawn by its probabilities."""
    chance_probs_one(s, i, probs)
    u = uniform(streams, 0)
    last = 0
    for o in range(C):
        if probs[o] > 0.0:
            last = o
            u -= probs[o]
            if u < 0.0:
                break
    apply_chance_one(s, i, last)


@njit(cache=True)
def settle(x, k, free, buf, d, samples):
    """Where chance leaves the chance node ``x[k]``: the states, written to
    ``scratch[free:free + m]``, and their weights, ``weights[d, :m]``; returns ``m``."""
    scratch, _, _, weights, probs, streams = buf
    chance_probs_one(x, k, probs)
    m = 0
    for o in range(C):
        if probs[o] > 0.0:
            scratch[free + m] = x[k]
            apply_chance_one(scratch, free + m, o)
            if current_player_one(scratch, free + m) == CHANCE:
                m = -1  # a chain of chance nodes: sampled below
                break
            weights[d, m] = probs[o]
            m += 1
    if m >= 0:
        return m
    for j in range(samples):
        scratch[free + j] = x[k]
        while current_player_one(scratch, free + j) == CHANCE:
            draw_chance(scratch, free + j, probs, streams)
        weights[d, j] = 1.0 / samples
    return samples


@njit(cache=True)
def reply0(y, k, seat, free, net, obs, work, buf, d):
    """``r_seat + F0(after, seat)`` once the mover of ``y[k]`` (a decision or the end) picks
    by 0-ply; uses ``scratch[free]`` and ``scratch[free + 1]``."""
    scratch, actions, rewards, _, _, _ = buf
    q = current_player_one(y, k)
    if q == TERMINAL:
        return 0.0
    best, kept = -np.inf, 0.0
    for j in range(legal_actions_one(y, k, actions[d])):
        scratch[free] = y[k]
        step_one(scratch, free, actions[d, j], rewards[d])
        v = rewards[d, q] + future(scratch, free, q, net, obs, work)
        if v > best:
            best, kept = v, rewards[d, seat]
            scratch[free + 1] = scratch[free]
    if q == seat:
        return best
    return kept + future(scratch, free + 1, seat, net, obs, work)


@njit(cache=True)
def value1(x, k, seat, free, net, obs, work, buf, d, samples):
    """F1(x[k], seat) (the module docstring); uses the scratch from ``free`` on."""
    player = current_player_one(x, k)
    if player == TERMINAL:
        return 0.0
    if player != CHANCE:
        return reply0(x, k, seat, free, net, obs, work, buf, d)
    scratch, weights = buf[0], buf[3]
    m = settle(x, k, free, buf, d, samples)
    total = 0.0
    for j in range(m):
        total += weights[d, j] * reply0(scratch, free + j, seat, free + m, net, obs, work,
                                        buf, d + 1)
    return total


@njit(cache=True)
def reply1(y, k, seat, free, net, obs, work, buf, d, samples):
    """As ``reply0`` with the mover picking by 1-ply and the value F1."""
    scratch, actions, rewards, _, _, _ = buf
    q = current_player_one(y, k)
    if q == TERMINAL:
        return 0.0
    best, kept = -np.inf, 0.0
    for j in range(legal_actions_one(y, k, actions[d])):
        scratch[free] = y[k]
        step_one(scratch, free, actions[d, j], rewards[d])
        v = rewards[d, q] + value1(scratch, free, q, free + 2, net, obs, work, buf, d + 1,
                                   samples)
        if v > best:
            best, kept = v, rewards[d, seat]
            scratch[free + 1] = scratch[free]
    if q == seat:
        return best
    return kept + value1(scratch, free + 1, seat, free + 2, net, obs, work, buf, d + 1,
                         samples)


@njit(cache=True)
def value2(x, k, seat, free, net, obs, work, buf, d, samples):
    """F2(x[k], seat)."""
    player = current_player_one(x, k)
    if player == TERMINAL:
        return 0.0
    if player != CHANCE:
        return reply1(x, k, seat, free, net, obs, work, buf, d, samples)
    scratch, weights = buf[0], buf[3]
    m = settle(x, k, free, buf, d, samples)
    total = 0.0
    for j in range(m):
        total += weights[d, j] * reply1(scratch, free + j, seat, free + m, net, obs, work,
                                        buf, d + 1, samples)
    return total


@njit(cache=True)
def action_values(s, i, ply, samples, net, obs, work, buf, out):
    """``out[a]`` = the value of each legal action ``a`` of decision node ``s[i]`` for its
    mover at ``ply`` (0, 1 or 2), ``-inf`` for the others; returns the mover."""
    scratch, actions, rewards, _, _, _ = buf
    player = current_player_one(s, i)
    out[:] = -np.inf
    for j in range(legal_actions_one(s, i, actions[0])):
        a = actions[0, j]
        scratch[0] = s[i]
        step_one(scratch, 0, a, rewards[0])
        if ply == 0:
            later = future(scratch, 0, player, net, obs, work)
        elif ply == 1:
            later = value1(scratch, 0, player, 1, net, obs, work, buf, 1, samples)
        else:
            later = value2(scratch, 0, player, 1, net, obs, work, buf, 1, samples)
        out[a] = rewards[0, player] + later
    return player


@njit(cache=True)
def values_batch(s, seats, net, obs, work, out):
    """``out[i]`` = F0(s[i], seats[i]): the network's value of each state for a seat."""
    for i in range(s.shape[0]):
        out[i] = future(s, i, seats[i], net, obs, work)


@njit(cache=True)
def selfplay_game(s, i, net, obs, work, buf, epsilon, values, obs_log, cum_log, end_log,
                  total):
    """Plays state ``i`` to the end, every seat choosing by 0-ply (a uniform legal action with
    probability ``epsilon``), and records after each real choice (two or more legal actions)
    what every seat sees (``obs_log[t, seat]``), the returns so far (``cum_log[t]``) and
    whether the game ended (``end_log[t]``); ``total``: the game's returns. Returns the
    records written, or -1 if ``obs_log`` filled up first."""
    _, actions, rewards, _, probs, streams = buf
    players = total.shape[0]
    total[:] = 0.0
    t = 0
    while True:
        player = current_player_one(s, i)
        if player == TERMINAL:
            return t
        if player == CHANCE:
            draw_chance(s, i, probs, streams)
            continue
        n = legal_actions_one(s, i, actions[0])
        if n == 1:
            a = actions[0, 0]
        elif uniform(streams, 0) < epsilon:
            a = actions[0, below(streams, 0, n)]
        else:
            action_values(s, i, 0, 1, net, obs, work, buf, values)
            a = np.argmax(values)
        step_one(s, i, a, rewards[0])
        for q in range(players):
            total[q] += rewards[0, q]
        if n > 1:
            if t == obs_log.shape[0]:
                return -1
            for q in range(players):
                observe_one(s, i, q, obs_log[t, q])
                cum_log[t, q] = total[q]
            end_log[t] = current_player_one(s, i) == TERMINAL
            t += 1
