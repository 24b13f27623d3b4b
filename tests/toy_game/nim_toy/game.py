"""Nim as a ``savanna.game.Game``, on the kernels of ``nim_toy._kernels``.

>>> game = NimGame(misere=True)
>>> s = game.from_text("heaps=0,0,1 to_move=1")
>>> s, rewards = game.step(s, [game.string_to_action(s[0], "c1")])
>>> rewards.tolist()
[[1.0, -1.0]]
"""
import numpy as np

from nim_toy import _kernels as K
from nim_toy import _observe, _validity, notation, render, spec
from savanna.binding import Kernels
from savanna.game import Game


class NimGame(Game):
    """Nim on heaps of 3, 5 and 7; ``misere``: whoever takes the last object loses."""

    name = "nim_toy"
    version = 0
    rules_version = "v0 Nim on heaps of 3, 5 and 7, normal or misère"
    num_players = spec.NUM_PLAYERS
    num_actions = spec.NUM_ACTIONS
    max_chance_outcomes = 0
    max_plies = spec.MAX_PLIES
    obs_shape = (spec.OBS.size,)
    obs_high = spec.MAX_HEAP  # the heaps are observed as counts
    state_dtype = K.STATE_DTYPE
    zero_sum = True
    has_chance = False
    perfect_information = True
    kernels = Kernels.from_module(K, _observe, _validity)
    state_errors = _validity.STATE_ERRORS
    notation = notation

    def __init__(self, misere=False):
        if not isinstance(misere, (bool, np.bool_)):
            raise ValueError(f"misere must be True or False, got {misere!r}")
        self.misere = bool(misere)
        self._base_state = self._row(notation.Position(spec.START, 0))

    def __repr__(self):
        return f"NimGame(misere={self.misere})"

    def base_state(self):
        return self._base_state

    def from_position(self, pos):
        return self.check_states(self._row(pos))

    def _row(self, pos):
        s = np.zeros(1, self.state_dtype)
        s[0]["heaps"] = pos.heaps
        s[0]["to_move"] = pos.to_move
        s[0]["misere"] = self.misere
        return s

    def to_position(self, row):
        r = self.check_row(row)[0]
        return notation.Position(tuple(int(h) for h in r["heaps"]), int(r["to_move"]))

    def _text(self, row, player):
        return render.text(self.to_position(row), self.misere)

    def _drawing(self, row, player):
        return render.drawing(self.to_position(row), self.misere)
