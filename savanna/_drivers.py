"""Batched, compiled loops shared by every game, specialised on a game's scalar kernels.

A game supplies seven scalar kernels (see ``savanna.game.Kernels``); ``make_drivers`` closes
over them and returns the batch entry points, random playouts and the vector-env step. The
loops are written once here, so the three games share them instead of copying them.

Closures over jitted functions cannot be cached by numba, so the drivers compile once per
process (``Game.warmup()`` does it up front); the game kernels they call are cached.
"""
from types import SimpleNamespace

import numpy as np
from numba import njit, prange

from savanna.rng import below, uniform

CHANCE = -1
TERMINAL = -2

# How a vector env's non-learning seats are played inside the compiled step.
OPPONENT_NONE = 0      # self-play: the learner plays every seat
OPPONENT_RANDOM = 1    # uniform random legal actions, chosen in the kernel
OPPONENT_EXTERNAL = 2  # stop and hand the batch to a Python policy


def make_drivers(kernels, num_actions, num_players, max_chance_outcomes):
    """Compile-ready batch loops for one game. Returns a namespace of jitted functions."""
    reset_one = kernels.reset_one
    current_player_one = kernels.current_player_one
    legal_actions_one = kernels.legal_actions_one
    step_one = kernels.step_one
    chance_probs_one = kernels.chance_probs_one
    apply_chance_one = kernels.apply_chance_one
    observe_one = kernels.observe_one
    A = num_actions
    P = num_players
    C = max(1, max_chance_outcomes)

    @njit
    def reset_batch(s, template, streams):
        for i in range(s.shape[0]):
            reset_one(s, i, template, streams)

    @njit
    def current_player_batch(s, out):
        for i in range(s.shape[0]):
            out[i] = current_player_one(s, i)

    @njit
    def legal_mask_batch(s, mask):
        actions = np.empty(A, np.int16)
        for i in range(s.shape[0]):
            mask[i, :] = False
            if current_player_one(s, i) >= 0:
                for j in range(legal_actions_one(s, i, actions)):
                    mask[i, actions[j]] = True

    @njit
    def step_batch(s, actions, rewards):
        for i in range(s.shape[0]):
            step_one(s, i, actions[i], rewards[i])

    @njit
    def chance_probs_batch(s, probs):
        for i in range(s.shape[0]):
            probs[i, :] = 0.0
            if current_player_one(s, i) == CHANCE:
                chance_probs_one(s, i, probs[i])

    @njit
    def apply_chance_batch(s, outcomes):
        for i in range(s.shape[0]):
            apply_chance_one(s, i, outcomes[i])

    @njit
    def observe_batch(s, players, obs):
        for i in range(s.shape[0]):
            observe_one(s, i, players[i], obs[i])

    @njit(inline="always")
    def sample_chance(s, i, streams, probs):
        chance_probs_one(s, i, probs)
        u = uniform(streams, i)
        last = 0
        for o in range(C):
            if probs[o] > 0.0:
                last = o
                u -= probs[o]
                if u < 0.0:
                    return o
        return last  # rounding left u a hair above zero

    @njit(inline="always")
    def random_action(s, i, streams, actions):
        return actions[below(streams, i, legal_actions_one(s, i, actions))]

    @njit
    def playout_one(s, i, streams, actions, probs, rewards, total):
        """Play state ``i`` to the end at random; add its rewards to ``total``; return plies."""
        plies = 0
        while True:
            p = current_player_one(s, i)
            if p == TERMINAL:
                return plies
            if p == CHANCE:
                apply_chance_one(s, i, sample_chance(s, i, streams, probs))
            else:
                step_one(s, i, random_action(s, i, streams, actions), rewards)
                for q in range(P):
                    total[q] += rewards[q]
                plies += 1

    @njit
    def random_playouts(s, streams, totals, plies):
        actions = np.empty(A, np.int16)
        probs = np.empty(C, np.float64)
        rewards = np.zeros(P, np.float32)
        for i in range(s.shape[0]):
            plies[i] = playout_one(s, i, streams, actions, probs, rewards, totals[i])

    @njit(parallel=True)
    def random_playouts_parallel(s, streams, totals, plies):
        n = s.shape[0]
        chunks = min(n, 64)
        for c in prange(chunks):
            actions = np.empty(A, np.int16)
            probs = np.empty(C, np.float64)
            rewards = np.zeros(P, np.float32)
            for i in range(c * n // chunks, (c + 1) * n // chunks):
                plies[i] = playout_one(s, i, streams, actions, probs, rewards, totals[i])

    @njit
    def advance_batch(s, seats, streams, opponent, gained, waiting):
        """Play chance nodes and (if random) opponents until each state reaches its learner's
        seat, the end, or an external opponent (then ``waiting[i]`` is set)."""
        actions = np.empty(A, np.int16)
        probs = np.empty(C, np.float64)
        rewards = np.zeros(P, np.float32)
        for i in range(s.shape[0]):
            waiting[i] = False
            while True:
                p = current_player_one(s, i)
                if p == TERMINAL or (p >= 0 and (p == seats[i] or opponent == OPPONENT_NONE)):
                    break
                if p == CHANCE:
                    apply_chance_one(s, i, sample_chance(s, i, streams, probs))
                elif opponent == OPPONENT_RANDOM:
                    step_one(s, i, random_action(s, i, streams, actions), rewards)
                    for q in range(P):
                        gained[i, q] += rewards[q]
                else:
                    waiting[i] = True
                    break

    @njit
    def act_batch(s, actions, active, gained):
        """Apply ``actions[i]`` where ``active[i]``; add the rewards to ``gained``."""
        rewards = np.zeros(P, np.float32)
        for i in range(s.shape[0]):
            if active[i]:
                step_one(s, i, actions[i], rewards)
                for q in range(P):
                    gained[i, q] += rewards[q]

    @njit
    def legal_check_batch(s, actions):
        """Index of the first state whose action is not legal there, or -1."""
        buf = np.empty(A, np.int16)
        for i in range(s.shape[0]):
            if current_player_one(s, i) < 0:
                return i
            a = actions[i]
            ok = False
            for j in range(legal_actions_one(s, i, buf)):
                if buf[j] == a:
                    ok = True
                    break
            if not ok:
                return i
        return -1

    return SimpleNamespace(
        reset_batch=reset_batch,
        current_player_batch=current_player_batch,
        legal_mask_batch=legal_mask_batch,
        step_batch=step_batch,
        chance_probs_batch=chance_probs_batch,
        apply_chance_batch=apply_chance_batch,
        observe_batch=observe_batch,
        playout_one=playout_one,
        random_playouts=random_playouts,
        random_playouts_parallel=random_playouts_parallel,
        advance_batch=advance_batch,
        act_batch=act_batch,
        legal_check_batch=legal_check_batch,
    )
