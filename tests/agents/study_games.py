"""Games whose study has a known answer, and a perfect player, for ``tests/agents/test_study.py``.

* ``CoinFlip(seat_zero=50)``: a coin is tossed first (a chance node: seat 0 wins with
  ``seat_zero`` percent), then each player in turn makes a choice that changes nothing; the
  coin's seat wins (+1, the other -1). Pure chance: no skill chain, upsets half the time, and
  seat 0 wins ``seat_zero`` percent of the games whoever plays.
* ``PerfectAgent``: the exact solver's move (``savanna.agents.play.exact``), the first best on
  ties; on ``tiny_games.Nim`` it never loses from a winning start.
"""
import numpy as np
from numba import njit

from savanna import CHANCE, TERMINAL, Kernels
from savanna.agents.play.exact import solve
from tests.agents.tiny_games import TinyGame, _copy_base

COIN_DTYPE = np.dtype([("coin", np.int8), ("stage", np.int8), ("seat_zero", np.int8)])


@njit(cache=True)
def _coin_player(s, i):
    r = s[i]
    if r.coin < 0:
        return CHANCE
    if r.stage >= 2:
        return TERMINAL
    return r.stage


@njit(cache=True)
def _coin_legal(s, i, out):
    out[0] = 0
    out[1] = 1
    return 2


@njit(cache=True)
def _coin_step(s, i, action, rewards):
    r = s[i]
    rewards[:] = 0.0
    r.stage += 1
    if r.stage == 2:
        rewards[r.coin] = 1.0
        rewards[1 - r.coin] = -1.0


@njit(cache=True)
def _coin_probs(s, i, probs):
    probs[0] = s[i].seat_zero / 100.0
    probs[1] = 1.0 - probs[0]


@njit(cache=True)
def _coin_apply(s, i, outcome):
    s[i].coin = outcome


@njit(cache=True)
def _coin_observe(s, i, player, out):
    out[0] = s[i].coin
    out[1] = s[i].stage


class CoinFlip(TinyGame):
    name = "coin_flip"
    num_players = 2
    num_actions = 2
    max_chance_outcomes = 2
    max_plies = 2
    obs_shape = (2,)
    state_dtype = COIN_DTYPE
    zero_sum = True
    has_chance = True
    perfect_information = True
    kernels = Kernels(_copy_base, _coin_player, _coin_legal, _coin_step, _coin_probs,
                      _coin_apply, _coin_observe)
    action_names = ("heads", "tails")

    def __init__(self, seat_zero=50):
        self.seat_zero = seat_zero
        self._base_state = np.zeros(1, COIN_DTYPE)
        self._base_state[0]["coin"] = -1
        self._base_state[0]["seat_zero"] = seat_zero


class PerfectAgent:
    """The exact solver's move (module docstring)."""

    name = "perfect"

    def settings(self):
        return {}

    def act(self, game, states, rng):
        actions = np.empty(len(states), np.int64)
        for k in range(len(states)):
            _, values = solve(game, states[k: k + 1])
            mover = int(game.current_player(states[k: k + 1])[0])
            actions[k] = int(np.nanargmax(values[:, mover]))
        return actions
