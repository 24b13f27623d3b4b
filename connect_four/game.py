"""Connect four as a ``savanna.game.Game``, on the bitboards of ``connect_four._kernels``.

The standard game: 6 rows, 7 columns, x (seat 0) first, four in a row in any direction wins
(+1 / -1), a full board is a draw. The same rules, action ids (columns 0..6) and returns as
OpenSpiel's ``connect_four``, which the tests check it against.

>>> game = ConnectFourGame()
>>> s = game.from_text("......./......./......./......./......./...x...")
>>> s, rewards = game.step(s, [game.string_to_action(s[0], "d")])
>>> print(game.render(s[0]))
"""
import numpy as np

from savanna.binding import Kernels
from savanna.connect_four import _kernels as K
from savanna.connect_four import notation
from savanna.draw import Drawing
from savanna.game import Game

__all__ = ["ConnectFourGame"]


STONE_COLOURS = ((220, 50, 40), (240, 200, 40))  # x red, o yellow


class ConnectFourGame(Game):
    """Connect four on a 6x7 board (no options)."""

    name = "connect_four"
    version = 0
    rules_version = "v0 connect four 6x7 (OpenSpiel's connect_four)"
    num_players = 2
    num_actions = notation.NUM_ACTIONS
    max_chance_outcomes = 0
    max_plies = K.MAX_PLIES
    obs_shape = K.OBS_SHAPE
    obs_high = 1  # stone planes
    state_dtype = K.STATE_DTYPE
    zero_sum = True
    has_chance = False
    perfect_information = True
    kernels = Kernels.from_module(K)
    state_errors = K.STATE_ERRORS
    notation = notation

    def __init__(self):
        empty = ((None,) * notation.NUM_COLS,) * notation.NUM_ROWS
        self._base_state = self._row(empty)

    def base_state(self):
        return self._base_state

    def from_position(self, cells):
        """A batch of one state holding ``cells[row][col]`` (row 0 at the bottom; ``None``,
        0 or 1); a ValueError if no game reaches that board."""
        return self.check_states(self._row(cells))

    def _row(self, cells):
        """The state of ``cells``, unchecked; ``to_move`` and ``outcome`` derived from it."""
        own = [0, 0]
        for row, line in enumerate(cells):
            for col, stone in enumerate(line):
                if stone is not None:
                    own[stone] |= 1 << (K.HEIGHT * col + row)
        stones = sum(b.bit_count() for b in own)
        four = [K.has_four.py_func(np.uint64(b)) for b in own]  # plain Python: no compiling
        s = np.zeros(1, self.state_dtype)
        s[0]["own"] = own
        s[0]["to_move"] = stones % 2
        s[0]["outcome"] = (0 if four[0] else 1 if four[1]
                           else K.DRAW if stones == K.NUM_CELLS else K.PLAYING)
        return s

    def to_position(self, row):
        """``cells[row][col]`` of one state (row 0 at the bottom)."""
        own = [int(b) for b in self.as_batch(row)[0]["own"]]
        return tuple(tuple(next((p for p in (0, 1) if own[p] >> (K.HEIGHT * col + r) & 1), None)
                           for col in range(notation.NUM_COLS))
                     for r in range(notation.NUM_ROWS))

    def picture_labels(self, row):
        return list(notation.COLUMNS)

    def _drawing(self, row, player):
        """The board (columns a-g as moves name them), the stones, whose turn or the result
        (perfect information: the same from every seat)."""
        cells, cell = self.to_position(row), 40
        r = self.as_batch(row)[0]
        d = Drawing(7 * cell + 20, 6 * cell + 70, background=(245, 245, 240))
        d.rect(10, 30, 7 * cell, 6 * cell, fill=(40, 90, 170), radius=6)
        for col in range(notation.NUM_COLS):
            d.text(10 + cell * col + cell / 2, 18, notation.COLUMNS[col], size=14)
            for height in range(notation.NUM_ROWS):
                owner = cells[height][col]
                colour = (245, 245, 240) if owner is None else STONE_COLOURS[owner]
                d.circle(10 + cell * col + cell / 2, 30 + cell * (5 - height) + cell / 2,
                         cell * 0.4, fill=colour)
        outcome = int(r["outcome"])
        status = (f"{notation.STONES[int(r['to_move'])]} to move" if outcome == K.PLAYING else
                  "draw" if outcome == K.DRAW else f"{notation.STONES[outcome]} wins")
        d.text(10 + 3.5 * cell, 6 * cell + 52, f"connect four: {status}", size=15)
        return d

    def _text(self, row, player):
        """The board, top row first, with column letters below (perfect information: the same
        from every seat)."""
        text = self.to_text(row)
        return "\n".join(text.split("/")) + "\n" + notation.COLUMNS
