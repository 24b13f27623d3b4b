"""The dice race as a ``savanna.game.Game``, on the kernels of ``race_toy._kernels``; it
draws its own pictures (``_text``, ``_drawing``).

>>> game = RaceGame(goal=4)
>>> s = game.from_text("pos=3,0,1 to_move=0 roll=2")
>>> s, rewards = game.step(s, [game.string_to_action(s[0], "step")])
>>> rewards.tolist()
[[1.0, -0.5, -0.5]]
"""
import numpy as np

from race_toy import _kernels as K
from race_toy import notation
from savanna.binding import Kernels
from savanna.draw import Drawing
from savanna.errors import check_int
from savanna.game import Game

COLOURS = ((200, 60, 60), (60, 120, 200), (60, 160, 80))


class RaceGame(Game):
    """Three players race to square ``goal`` (4..8), a die of 1..3 rolled before each move."""

    name = "race_toy"
    version = 0
    rules_version = "v0 the dice race of race_toy/__init__.py"
    num_players = K.NUM_PLAYERS
    num_actions = K.NUM_ACTIONS
    max_chance_outcomes = K.DIE
    max_plies = K.MAX_PLIES
    obs_shape = K.OBS_SHAPE
    obs_high = K.OBS_HIGH
    state_dtype = K.STATE_DTYPE
    zero_sum = True
    has_chance = True
    perfect_information = True
    kernels = Kernels.from_module(K)
    state_errors = K.STATE_ERRORS
    notation = notation

    def __init__(self, goal=6):
        self.goal = check_int("goal", goal, K.MIN_GOAL, K.MAX_GOAL)
        self._base_state = self._row(notation.Position((0, 0, 0), 0, 0))

    def __repr__(self):
        return f"RaceGame(goal={self.goal})"

    def base_state(self):
        return self._base_state

    def from_position(self, pos):
        return self.check_states(self._row(pos))

    def _row(self, pos):
        s = np.zeros(1, self.state_dtype)
        if max(pos.pos) > 127:
            raise ValueError(f"a square is at most {self.goal + K.DIE - 1}, got {max(pos.pos)}")
        s[0]["pos"] = pos.pos
        s[0]["to_move"] = pos.to_move
        s[0]["roll"] = pos.roll
        s[0]["goal"] = self.goal
        return s

    def to_position(self, row):
        r = self.check_row(row)[0]
        return notation.Position(tuple(int(p) for p in r["pos"]), int(r["to_move"]),
                                 int(r["roll"]))

    def _status(self, pos):
        winners = [p for p in range(K.NUM_PLAYERS) if pos.pos[p] >= self.goal]
        if winners:
            return f"player {winners[0]} wins"
        roll = f"rolled {pos.roll}" if pos.roll else "to roll"
        return f"player {pos.to_move} {roll}"

    def _text(self, row, player):
        pos = self.to_position(row)
        track = [f"{p} |{'.' * pos.pos[p]}o{'.' * max(0, self.goal - pos.pos[p])}|"
                 for p in range(K.NUM_PLAYERS)]
        return "\n".join([*track, self._status(pos)])

    def _drawing(self, row, player):
        pos = self.to_position(row)
        cell = 30
        d = Drawing(cell * (self.goal + K.DIE + 1), cell * K.NUM_PLAYERS + 50,
                    background=(245, 245, 240))
        for p in range(K.NUM_PLAYERS):
            y = 20 + cell * p + cell / 2
            d.text(12, y + 5, str(p), size=14)
            d.circle(30 + cell * pos.pos[p], y, cell * 0.4, fill=COLOURS[p])
        d.text(d.width / 2, cell * K.NUM_PLAYERS + 40, self._status(pos), size=14)
        return d
