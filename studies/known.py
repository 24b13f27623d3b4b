"""Games whose study has a known answer, so that every measure of ``savanna study`` can be
checked on them (``savanna study --calibrate``, the study's tests).

* ``CoinFlip(seat_zero=50)``: a coin is tossed first (a chance node: seat 0 wins with
  ``seat_zero`` percent), then each player in turn makes a choice that changes nothing; the
  coin's seat wins (+1, the other -1). Pure chance: no skill, upsets half the time, the result
  changed by chance alone in half the games, and seat 0 wins ``seat_zero`` percent of the games
  whoever plays.
* ``LateCoin(seat_zero=50)``: the coin tossed last: each player makes a choice that changes
  nothing, then the coin is tossed and seat 0 reveals it (its only move): the outcome stays
  open at both choices and is sure at the reveal (uncertainty 1/3 with a fair coin).
* ``MixedNim(heaps=(2, 3, 4), coin=0)``: Duersch et al.'s "x%-chess" on Nim: a chance node
  first sends ``coin`` percent of the games to a fair coin (the player to move then makes one
  choice that changes nothing, and the coin's seat wins) and the others to Nim on ``heaps``
  (whoever takes the last object wins). Its share of chance against Nim is ``coin`` percent;
  with ``coin=0`` it is Nim, without chance. Heaps 1, 1, 0 leave no choice (seat 1 always
  wins): no skill and no chance.
* ``PerfectAgent``: the exact solver's move (``savanna.agents.play.exact``), the first best on
  ties; it never loses Nim from a winning start.
"""
import numpy as np
from numba import njit

from savanna import CHANCE, TERMINAL, Game, Kernels

__all__ = ["CoinFlip", "FieldTextGame", "LateCoin", "MixedNim", "PerfectAgent", "copy_base",
           "nim_moves", "nim_take"]


class FieldTextGame(Game):
    """A small game's plumbing: its state as text of ``field=value`` pairs of its dtype (the
    only notation these games need), named actions, one base state (``copy_base`` starts
    every game from it). The known games' base, and the tests' tiny games'."""

    version = 1
    action_names: tuple
    _base_state: np.ndarray

    def base_state(self):
        return self._base_state

    def to_text(self, row):
        row = self.as_batch(row)[0]
        return " ".join(f"{name}={','.join(str(int(v)) for v in np.ravel(row[name]))}"
                        for name in self.state_dtype.names)

    def from_text(self, text):
        s = np.zeros(1, self.state_dtype)
        fields = dict(part.partition("=")[::2] for part in text.split())
        if set(fields) != set(self.state_dtype.names) or not all(fields.values()):
            raise ValueError(f"a {self.name} state needs the fields "
                             f"{', '.join(self.state_dtype.names)}; got {text!r}")
        for name, value in fields.items():
            s[0][name] = [int(v) for v in value.split(",")] if "," in value else int(value)
        return s

    def action_to_string(self, row, action):
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action must be in 0..{self.num_actions - 1}, got {action}")
        return self.action_names[action]

    def string_to_action(self, row, text):
        if text not in self.action_names:
            raise ValueError(f"unknown action {text!r}; known: {', '.join(self.action_names)}")
        return self.action_names.index(text)


class _KnownGame(FieldTextGame):
    perfect_information = True
    zero_sum = True


@njit(cache=True)
def copy_base(s, i, base, streams):
    """``init_one`` of a game that starts from its base state."""
    s[i] = base[0]


# ----- CoinFlip ---------------------------------------------------------------------------------

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


class CoinFlip(_KnownGame):
    """A coin decides; the players' choices change nothing (module docstring)."""

    name = "coin_flip"
    num_players = 2
    num_actions = 2
    max_chance_outcomes = 2
    max_plies = 2
    obs_shape = (2,)
    state_dtype = COIN_DTYPE
    has_chance = True
    kernels = Kernels(copy_base, _coin_player, _coin_legal, _coin_step, _coin_probs,
                      _coin_apply, _coin_observe)
    action_names = ("heads", "tails")

    def __init__(self, seat_zero=50):
        if not isinstance(seat_zero, int) or not 0 <= seat_zero <= 100:
            raise ValueError(f"seat_zero must be a percentage 0..100, got {seat_zero!r}")
        self.seat_zero = seat_zero
        self._base_state = np.zeros(1, COIN_DTYPE)
        self._base_state[0]["coin"] = -1
        self._base_state[0]["seat_zero"] = seat_zero


# ----- LateCoin: the coin tossed after both choices, then revealed by a forced move -------------

@njit(cache=True)
def _late_player(s, i):
    r = s[i]
    if r.stage >= 3:
        return TERMINAL
    if r.stage == 2 and r.coin < 0:
        return CHANCE
    return r.stage % 2


@njit(cache=True)
def _late_legal(s, i, out):
    if s[i].stage == 2:
        out[0] = 2
        return 1
    out[0] = 0
    out[1] = 1
    return 2


@njit(cache=True)
def _late_step(s, i, action, rewards):
    r = s[i]
    rewards[:] = 0.0
    r.stage += 1
    if r.stage == 3:
        rewards[r.coin] = 1.0
        rewards[1 - r.coin] = -1.0


class LateCoin(CoinFlip):
    """Each player makes a choice that changes nothing, then the coin is tossed and seat 0
    reveals it, its only move (module docstring)."""

    name = "late_coin"
    num_actions = 3
    max_plies = 3
    kernels = Kernels(copy_base, _late_player, _late_legal, _late_step, _coin_probs,
                      _coin_apply, _coin_observe)
    action_names = ("heads", "tails", "reveal")


# ----- MixedNim ---------------------------------------------------------------------------------
# mode: -1 before the first chance node, 0 Nim, 1 or 2 the coin's game won by seat mode - 1,
# 3 the coin's game over. Nim's action = heap * 4 + (taken - 1); the coin's game has action 0.

NIM_DTYPE = np.dtype([("heaps", np.int8, (3,)), ("to_move", np.int8), ("mode", np.int8),
                      ("coin", np.int8)])


@njit(cache=True)
def _nim_player(s, i):
    r = s[i]
    if r.mode < 0:
        return CHANCE
    if r.mode == 3 or (r.mode == 0 and r.heaps[0] + r.heaps[1] + r.heaps[2] == 0):
        return TERMINAL
    return r.to_move


@njit(cache=True)
def nim_moves(heaps, out):
    """Nim's legal actions on three ``heaps`` (``heap * 4 + taken - 1``), written into
    ``out``; returns how many. The known Nim's and the tests' tiny Nim's."""
    n = 0
    for h in range(3):
        for k in range(heaps[h]):
            out[n] = h * 4 + k
            n += 1
    return n


@njit(cache=True)
def nim_take(r, action, rewards):
    """Plays Nim's ``action`` on the state ``r`` (fields ``heaps`` and ``to_move``): whoever
    takes the last object wins (+1, the other -1); else the other player moves."""
    r.heaps[action // 4] -= action % 4 + 1
    if r.heaps[0] + r.heaps[1] + r.heaps[2] == 0:
        rewards[r.to_move] = 1.0
        rewards[1 - r.to_move] = -1.0
    else:
        r.to_move = 1 - r.to_move


@njit(cache=True)
def _nim_legal(s, i, out):
    if s[i].mode != 0:
        out[0] = 0
        return 1
    return nim_moves(s[i].heaps, out)


@njit(cache=True)
def _nim_step(s, i, action, rewards):
    r = s[i]
    rewards[:] = 0.0
    if r.mode != 0:
        winner = r.mode - 1
        rewards[winner] = 1.0
        rewards[1 - winner] = -1.0
        r.mode = 3
        return
    nim_take(r, action, rewards)


@njit(cache=True)
def _nim_probs(s, i, probs):
    share = s[i].coin / 100.0
    probs[0] = 1.0 - share
    probs[1] = share / 2
    probs[2] = share / 2


@njit(cache=True)
def _nim_apply(s, i, outcome):
    s[i].mode = outcome


@njit(cache=True)
def _nim_observe(s, i, player, out):
    for h in range(3):
        out[h] = s[i].heaps[h]
    out[3] = s[i].mode


class MixedNim(_KnownGame):
    """Nim with ``coin`` percent of its games replaced by a coin flip (module docstring)."""

    name = "mixed_nim"
    num_players = 2
    num_actions = 12
    max_chance_outcomes = 3
    max_plies = 12
    obs_shape = (4,)
    obs_high = 4
    state_dtype = NIM_DTYPE
    kernels = Kernels(copy_base, _nim_player, _nim_legal, _nim_step, _nim_probs, _nim_apply,
                      _nim_observe)
    action_names = tuple(f"take {k + 1} from {h}" for h in range(3) for k in range(4))

    def __init__(self, heaps=(2, 3, 4), coin=0):
        heaps = tuple(heaps)
        if len(heaps) != 3 or not all(0 <= h <= 4 for h in heaps) or sum(heaps) == 0:
            raise ValueError(f"heaps must be three sizes in 0..4, not all zero; got {heaps!r}")
        if not isinstance(coin, int) or not 0 <= coin <= 100:
            raise ValueError(f"coin must be a percentage 0..100, got {coin!r}")
        self.heaps, self.coin = heaps, coin  # options, as savanna.metadata.game_options reads
        self.has_chance = coin > 0  # coin=0: Nim, whose first node is decided in advance
        self._base_state = np.zeros(1, NIM_DTYPE)
        self._base_state[0]["heaps"] = heaps
        self._base_state[0]["mode"] = -1 if coin else 0
        self._base_state[0]["coin"] = coin


class PerfectAgent:
    """The exact solver's move (module docstring)."""

    name = "perfect"

    def settings(self):
        return {}

    def act(self, game, states, rng):
        from savanna.agents.play.exact import solve

        actions = np.empty(len(states), np.int64)
        for k in range(len(states)):
            _, values = solve(game, states[k: k + 1])
            mover = int(game.current_player(states[k: k + 1])[0])
            actions[k] = int(np.nanargmax(values[:, mover]))
        return actions
