"""Batched, compiled loops shared by every game: a template specialised on a game's kernels.

The loops are written once here and call a game's scalar kernels by the free names of
``savanna.binding`` (the ``Kernels`` fields, ``A`` and ``C``), which ``Game.compiled``
binds in a generated copy of this module per game class (``Game.drivers``), so that numba
caches the compiled loops. The number of players is read from the shapes of the reward arrays,
so one compiled copy serves every player count. Never call the loops of this module itself;
the shared codes live in ``savanna.codes``.
"""
from typing import TYPE_CHECKING

import numpy as np
from numba import njit, prange

from savanna.codes import (
    CHANCE,
    ILLEGAL_ACTION,
    NO_CHANCE_OUTCOME,
    NO_LEGAL_ACTION,
    NOT_A_DECISION,
    OPPONENT_NONE,
    OPPONENT_RANDOM,
    TERMINAL,
)
from savanna.rng import below, uniform

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    from savanna.binding import (
        A,
        C,
        apply_chance_one,
        chance_probs_one,
        current_player_one,
        legal_actions_one,
        observe_one,
        reset_one,
        scores_one,
        step_one,
        valid_one,
    )

CHUNKS = 64  # work items of a parallel loop: enough to balance any thread count


@njit(cache=True)
def reset_batch(s, base, streams):
    for i in range(s.shape[0]):
        reset_one(s, i, base, streams)


@njit(cache=True)
def current_player_batch(s, out):
    for i in range(s.shape[0]):
        out[i] = current_player_one(s, i)


@njit(cache=True)
def legal_mask_batch(s, mask):
    actions = np.empty(A, np.int16)
    for i in range(s.shape[0]):
        mask[i, :] = False
        if current_player_one(s, i) >= 0:
            for j in range(legal_actions_one(s, i, actions)):
                mask[i, actions[j]] = True


@njit(cache=True)
def step_batch(s, actions, rewards):
    for i in range(s.shape[0]):
        step_one(s, i, actions[i], rewards[i])


@njit(cache=True)
def chance_probs_batch(s, probs):
    for i in range(s.shape[0]):
        probs[i, :] = 0.0
        if current_player_one(s, i) == CHANCE:
            chance_probs_one(s, i, probs[i])


@njit(cache=True)
def apply_chance_batch(s, outcomes):
    for i in range(s.shape[0]):
        apply_chance_one(s, i, outcomes[i])


@njit(cache=True)
def observe_batch(s, players, obs):
    for i in range(s.shape[0]):
        observe_one(s, i, players[i], obs[i])


@njit(cache=True)
def scores_batch(s, out):
    for i in range(s.shape[0]):
        scores_one(s, i, out[i])


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def random_action(s, i, streams, actions):
    return actions[below(streams, i, legal_actions_one(s, i, actions))]


@njit(cache=True)
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
            for q in range(total.shape[0]):
                total[q] += rewards[q]
            plies += 1


@njit(cache=True)
def random_playouts(s, streams, totals, plies):
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    rewards = np.zeros(totals.shape[1], np.float32)
    for i in range(s.shape[0]):
        plies[i] = playout_one(s, i, streams, actions, probs, rewards, totals[i])


@njit(cache=True, parallel=True)
def random_playouts_parallel(s, streams, totals, plies):
    """``random_playouts`` on slices of the batch, spread over numba's threads."""
    n = s.shape[0]
    chunks = min(n, CHUNKS)
    for c in prange(chunks):
        lo, hi = c * n // chunks, (c + 1) * n // chunks
        random_playouts(s[lo:hi], streams[lo:hi], totals[lo:hi], plies[lo:hi])


@njit(cache=True, inline="always")
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
            for q in range(gained.shape[1]):
                gained[i, q] += rewards[q]
        else:
            waiting[i] = True
            return


@njit(cache=True, inline="always")
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


NEW_GAME = -1  # an env_step_batch action: a new game in that slot


@njit(cache=True)
def env_step_batch(s, act, acting, fresh, base, seats, fixed_seat, streams, opponent, gained,
                   waiting, obs, mask, players):
    """Where ``acting[i]``: apply ``act[i]`` and add its rewards to ``gained[i]`` (zeroed first
    if ``fresh``), or, where ``act[i]`` is ``NEW_GAME``, start a new game from ``base`` with the
    learner at ``fixed_seat`` (drawn when negative) and zero ``gained[i]``; then advance to the
    learner's next decision, write the observation and mask (unless an external opponent must
    move first) and the player to move. One compiled call steps the whole batch; reset and
    step share it, so that an env compiles a game's kernels into one loop, not two."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    rewards = np.zeros(gained.shape[1], np.float32)
    for i in range(s.shape[0]):
        if not acting[i]:
            continue
        if act[i] == NEW_GAME:
            reset_one(s, i, base, streams)
            seats[i] = fixed_seat if fixed_seat >= 0 else below(streams, i, gained.shape[1])
            gained[i, :] = 0.0
        else:
            if fresh:
                gained[i, :] = 0.0
            step_one(s, i, act[i], rewards)
            for q in range(gained.shape[1]):
                gained[i, q] += rewards[q]
        advance(s, i, seats, streams, opponent, gained, waiting, actions, probs, rewards)
        if not waiting[i]:
            view(s, i, seats, opponent, obs, mask, actions)
        players[i] = current_player_one(s, i)


@njit(cache=True, parallel=True)
def env_step_batch_parallel(s, act, acting, fresh, base, seats, fixed_seat, streams, opponent,
                            gained, waiting, obs, mask, players):
    """``env_step_batch`` on slices of the batch, spread over numba's threads (the slices keep
    the arrays' types: the serial loop compiles once for both)."""
    n = s.shape[0]
    chunks = min(n, CHUNKS)
    for c in prange(chunks):
        lo, hi = c * n // chunks, (c + 1) * n // chunks
        env_step_batch(s[lo:hi], act[lo:hi], acting[lo:hi], fresh, base, seats[lo:hi],
                       fixed_seat, streams[lo:hi], opponent, gained[lo:hi], waiting[lo:hi],
                       obs[lo:hi], mask[lo:hi], players[lo:hi])


@njit(cache=True, inline="always")
def new_game(s, i, base, streams, seats, fixed_seat, opponent, gained, waiting, obs, mask,
             players, actions, probs, rewards):
    """A new game in slot ``i`` (the vector env's autoreset): the learner's seat
    (``fixed_seat`` or drawn), then advance to the learner's first decision and write the
    observation and mask."""
    reset_one(s, i, base, streams)
    seats[i] = fixed_seat if fixed_seat >= 0 else below(streams, i, gained.shape[1])
    gained[i, :] = 0.0
    advance(s, i, seats, streams, opponent, gained, waiting, actions, probs, rewards)
    if not waiting[i]:
        view(s, i, seats, opponent, obs, mask, actions)
    players[i] = current_player_one(s, i)


# The vector env's whole step (``vector_step_batch``): Gymnasium's autoreset modes, the parts
# of a step, and what became of each game in the first part.
NEXT_STEP = 0
SAME_STEP = 1
DISABLED = 2
BEGIN = 1             # part: the learner's move and everything played up to its next turn
END = 2               # part: rewards, terminal flags, SAME_STEP's resets, the rows handed out
WHOLE = BEGIN | END   # both in one pass (no external opponent to call between them)
STEPPED = 0           # the learner's action was applied
SKIPPED = 1           # a finished game, reset (NEXT_STEP) or left as it was (DISABLED)
REFUSED = 2           # an illegal action: the game ends, lost, untouched


@njit(cache=True, inline="always")
def is_illegal(mask, i, a):
    return a < 0 or a >= A or mask[i, a] == 0


@njit(cache=True, inline="always")
def copy_row(dst, i, src):
    """``dst[i] = src[i]`` as a plain loop: numba's row assignment copies the source into a
    temporary first (it cannot rule out overlap), twelve times slower on Zèbres' rows."""
    to, row = dst[i], src[i]
    for j in range(row.shape[0]):
        to[j] = row[j]


@njit(cache=True)
def vector_step_range(lo, hi, s, act, part, autoreset, copy, base, seats, fixed_seat,
                      streams, opponent, gained, waiting, obs, mask, players, done, fate,
                      out):
    """``vector_step_batch`` on games ``lo..hi-1``; returns how many games ended."""
    rewards_out, terminated, obs_out, mask_out, final_obs, final_mask, was_final = out
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    rewards = np.zeros(gained.shape[1], np.float32)
    ended = 0
    for i in range(lo, hi):
        if part & BEGIN:
            if done[i]:
                fate[i] = SKIPPED
                if autoreset == NEXT_STEP:
                    new_game(s, i, base, streams, seats, fixed_seat, opponent, gained,
                             waiting, obs, mask, players, actions, probs, rewards)
            elif is_illegal(mask, i, act[i]):
                fate[i] = REFUSED
            else:
                fate[i] = STEPPED
                gained[i, :] = 0.0
                step_one(s, i, act[i], rewards)
                for q in range(gained.shape[1]):
                    gained[i, q] += rewards[q]
                advance(s, i, seats, streams, opponent, gained, waiting, actions, probs,
                        rewards)
                if not waiting[i]:
                    view(s, i, seats, opponent, obs, mask, actions)
                players[i] = current_player_one(s, i)
        if part & END:
            if fate[i] == STEPPED:
                rewards_out[i] = gained[i, seats[i]]
                terminated[i] = players[i] == TERMINAL
            else:
                rewards_out[i] = -1.0 if fate[i] == REFUSED else 0.0
                terminated[i] = fate[i] == REFUSED
            # DISABLED: a finished game stays finished until reset(options={"reset_mask"})
            done[i] = terminated[i] or (fate[i] == SKIPPED and autoreset == DISABLED)
            if terminated[i]:
                ended += 1
            if autoreset == SAME_STEP:
                if terminated[i]:
                    copy_row(final_obs, i, obs)
                    copy_row(final_mask, i, mask)
                    new_game(s, i, base, streams, seats, fixed_seat, opponent, gained,
                             waiting, obs, mask, players, actions, probs, rewards)
                    done[i] = False
                elif was_final[i]:  # a row handed out as final last step, not this one
                    final_obs[i, :] = 0
                    final_mask[i, :] = 0
                was_final[i] = terminated[i]
            if copy:
                copy_row(obs_out, i, obs)
                copy_row(mask_out, i, mask)
    return ended


@njit(cache=True, inline="always")
def first_illegal(act, done, mask):
    """The first game whose learner's action is illegal (finished games excepted), or -1."""
    for i in range(act.shape[0]):
        if not done[i] and is_illegal(mask, i, act[i]):
            return i
    return -1


@njit(cache=True)
def vector_step_batch(s, act, part, autoreset, refuse, copy, base, seats, fixed_seat,
                      streams, opponent, gained, waiting, obs, mask, players, done, fate, out):
    """The vector env's step in one call, ``part`` of it (``BEGIN``, ``END`` or ``WHOLE``).

    BEGIN, per game: finished (``done``): reset it (``NEXT_STEP``) or leave it (``DISABLED``);
    an illegal action: refused (the game ends, lost); else apply it and play on to the
    learner's next turn (``advance``). END: the learner's reward and terminal flag into ``out``
    (``rewards, terminated, obs_out, mask_out, final_obs, final_mask, was_final``); with
    ``SAME_STEP``, a finished game's last rows into ``final_obs``/``final_mask`` (zeros where
    no game ended) and a new game; with ``copy``, the rows into ``obs_out``/``mask_out``.
    ``refuse``: when an action is illegal, change nothing and return ``(that game, 0)``; else
    ``(-1, games ended)``."""
    if refuse and part & BEGIN:
        bad = first_illegal(act, done, mask)
        if bad >= 0:
            return bad, 0
    ended = vector_step_range(0, s.shape[0], s, act, part, autoreset, copy, base, seats,
                              fixed_seat, streams, opponent, gained, waiting, obs, mask,
                              players, done, fate, out)
    return -1, ended


@njit(cache=True, parallel=True)
def vector_step_batch_parallel(s, act, part, autoreset, refuse, copy, base, seats,
                               fixed_seat, streams, opponent, gained, waiting, obs, mask,
                               players, done, fate, out):
    """``vector_step_batch`` spread over numba's threads (one parallel region)."""
    if refuse and part & BEGIN:
        bad = first_illegal(act, done, mask)
        if bad >= 0:
            return bad, 0
    n = s.shape[0]
    chunks = min(n, CHUNKS)
    ended = 0
    for c in prange(chunks):
        ended += vector_step_range(c * n // chunks, (c + 1) * n // chunks, s, act, part,
                                   autoreset, copy, base, seats, fixed_seat, streams,
                                   opponent, gained, waiting, obs, mask, players, done, fate,
                                   out)
    return -1, ended




@njit(cache=True, inline="always")
def state_error(s, i, base, buf, probs):
    """``(code, n)``: code 0 when state ``i`` is possible (``valid_one``) and playable (a
    decision node with a legal action, a chance node with a possible outcome, or the end),
    else why not; ``n`` legal actions, written into ``buf``, at a decision node."""
    code = valid_one(s, i, base)
    if code != 0:
        return code, 0
    n = 0
    p = current_player_one(s, i)
    if p >= 0:
        n = legal_actions_one(s, i, buf)
        if n == 0:
            return NO_LEGAL_ACTION, 0
    elif p == CHANCE:
        probs[:] = 0.0
        chance_probs_one(s, i, probs)
        if probs.sum() <= 0.0:
            return NO_CHANCE_OUTCOME, 0
    return 0, n


@njit(cache=True)
def first_invalid(s, base, actions):
    """``(i, code)`` of the first state that cannot be played, or ``(-1, 0)``. With one action
    per state (``actions`` not empty), also ``NOT_A_DECISION`` or ``ILLEGAL_ACTION`` where
    ``actions[i]`` is not legal in state ``i``: one pass validates a whole ``step``. One loop
    for both checks, so that ``valid_one`` (often inlined) compiles once."""
    buf = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    for i in range(s.shape[0]):
        code, n = state_error(s, i, base, buf, probs)
        if code != 0:
            return i, code
        if actions.shape[0] == 0:
            continue
        if current_player_one(s, i) < 0:
            return i, NOT_A_DECISION
        ok = False
        for j in range(n):
            if buf[j] == actions[i]:
                ok = True
                break
        if not ok:
            return i, ILLEGAL_ACTION
    return -1, 0
