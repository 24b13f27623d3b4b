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

CHUNKS = 64  # work items of a parallel loop: enough to balance any thread count


def make_drivers(kernels, num_actions, num_players, max_chance_outcomes):
    """Compile-ready batch loops for one game. Returns a namespace of jitted functions."""
    reset_one = kernels.reset_one
    current_player_one = kernels.current_player_one
    legal_actions_one = kernels.legal_actions_one
    step_one = kernels.step_one
    chance_probs_one = kernels.chance_probs_one
    apply_chance_one = kernels.apply_chance_one
    observe_one = kernels.observe_one
    scores_one = kernels.scores_one
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

    @njit
    def scores_batch(s, out):
        for i in range(s.shape[0]):
            scores_one(s, i, out[i])

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
    def playouts_range(lo, hi, s, streams, totals, plies):
        actions = np.empty(A, np.int16)
        probs = np.empty(C, np.float64)
        rewards = np.zeros(P, np.float32)
        for i in range(lo, hi):
            plies[i] = playout_one(s, i, streams, actions, probs, rewards, totals[i])

    @njit
    def random_playouts(s, streams, totals, plies):
        playouts_range(0, s.shape[0], s, streams, totals, plies)

    @njit(parallel=True)
    def random_playouts_parallel(s, streams, totals, plies):
        n = s.shape[0]
        chunks = min(n, CHUNKS)
        for c in prange(chunks):
            playouts_range(c * n // chunks, (c + 1) * n // chunks, s, streams, totals, plies)

    @njit(inline="always")
    def advance(s, i, seats, streams, opponent, gained, waiting, actions, probs, rewards):
        """Play chance nodes and random opponents until state ``i`` reaches its learner's seat
        or the end; with an external opponent, stop at its turn and set ``waiting[i]``."""
        waiting[i] = False
        while True:
            p = current_player_one(s, i)
            if p == TERMINAL or (p >= 0 and (p == seats[i] or opponent == OPPONENT_NONE)):
                return
            if p == CHANCE:
                apply_chance_one(s, i, sample_chance(s, i, streams, probs))
            elif opponent == OPPONENT_RANDOM:
                step_one(s, i, random_action(s, i, streams, actions), rewards)
                for q in range(P):
                    gained[i, q] += rewards[q]
            else:
                waiting[i] = True
                return

    @njit(inline="always")
    def view(s, i, seats, opponent, obs, mask, actions):
        """Observation and int8 mask of state ``i`` from its learner's seat (self-play: the
        player to move, or the last mover at the end)."""
        p = current_player_one(s, i)
        if opponent == OPPONENT_NONE and p >= 0:
            seats[i] = p
        observe_one(s, i, seats[i], obs[i])
        mask[i, :] = 0
        if p >= 0 and p == seats[i]:
            for j in range(legal_actions_one(s, i, actions)):
                mask[i, actions[j]] = 1

    @njit
    def env_step_range(lo, hi, s, act, acting, fresh, seats, streams, opponent, gained, waiting,
                       obs, mask, players):
        actions = np.empty(A, np.int16)
        probs = np.empty(C, np.float64)
        rewards = np.zeros(P, np.float32)
        for i in range(lo, hi):
            if not acting[i]:
                continue
            if fresh:
                gained[i, :] = 0.0
            step_one(s, i, act[i], rewards)
            for q in range(P):
                gained[i, q] += rewards[q]
            advance(s, i, seats, streams, opponent, gained, waiting, actions, probs, rewards)
            if not waiting[i]:
                view(s, i, seats, opponent, obs, mask, actions)
            players[i] = current_player_one(s, i)

    @njit
    def env_step_batch(s, act, acting, fresh, seats, streams, opponent, gained, waiting, obs,
                       mask, players):
        """Where ``acting[i]``: apply ``act[i]``, add its rewards to ``gained[i]`` (zeroed first
        if ``fresh``), advance to the learner's next decision, write the observation and mask
        (unless an external opponent must move first) and the player to move. One compiled
        call steps the whole batch."""
        env_step_range(0, s.shape[0], s, act, acting, fresh, seats, streams, opponent, gained,
                       waiting, obs, mask, players)

    @njit(parallel=True)
    def env_step_batch_parallel(s, act, acting, fresh, seats, streams, opponent, gained, waiting,
                                obs, mask, players):
        n = s.shape[0]
        chunks = min(n, CHUNKS)
        for c in prange(chunks):
            env_step_range(c * n // chunks, (c + 1) * n // chunks, s, act, acting, fresh, seats,
                           streams, opponent, gained, waiting, obs, mask, players)

    @njit
    def env_reset_batch(s, which, template, streams, seats, fixed_seat, opponent, gained,
                        waiting, obs, mask, players):
        """Where ``which[i]``: a new game, the learner's seat (``fixed_seat`` or drawn), then
        advance to the learner's first decision and write the observation and mask."""
        actions = np.empty(A, np.int16)
        probs = np.empty(C, np.float64)
        rewards = np.zeros(P, np.float32)
        for i in range(s.shape[0]):
            if not which[i]:
                continue
            reset_one(s, i, template, streams)
            seats[i] = fixed_seat if fixed_seat >= 0 else below(streams, i, P)
            gained[i, :] = 0.0
            advance(s, i, seats, streams, opponent, gained, waiting, actions, probs, rewards)
            if not waiting[i]:
                view(s, i, seats, opponent, obs, mask, actions)
            players[i] = current_player_one(s, i)

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
        scores_batch=scores_batch,
        playout_one=playout_one,
        random_playouts=random_playouts,
        random_playouts_parallel=random_playouts_parallel,
        env_step_batch=env_step_batch,
        env_step_batch_parallel=env_step_batch_parallel,
        env_reset_batch=env_reset_batch,
        legal_check_batch=legal_check_batch,
    )
