"""Bonobo Beach as a ``savanna.game.Game``, on the bitboard kernels of ``savanna.bonobo._kernels``.

``BonoboGame(num_players=2)`` for 2, 3 or 4 players. The [decision]s taken where the rules are
silent (each tested in tests/bonobo/test_rules.py) and which positions are possible: the game's
page (docs/games/bonobo.md).

>>> game = BonoboGame(3)
>>> s = game.init(1)
>>> s, rewards = game.step(s, [game.string_to_action(s[0], "draw")])
>>> game.apply_chance(s, [game.string_to_outcome("+3")])
>>> print(game.render(s[0]))
"""
import numpy as np

from savanna.binding import Kernels
from savanna.bonobo import _kernels as K
from savanna.bonobo import _observe, _validity, notation, spec
from savanna.bonobo.render import move_spot, pile_spot, render_drawing, render_text
from savanna.game import Game

__all__ = ["BonoboGame"]


class BonoboGame(Game):
    """Bonobo Beach: 2-4 players lay rhombus tiles on a beach and score their pawns."""

    name = "bonobo"
    version = 0
    rules_version = "v0 bonobo.md@c54b777ac262"  # tests/test_metadata.py checks the spec
    num_actions = spec.NUM_ACTIONS
    max_chance_outcomes = spec.MAX_CHANCE_OUTCOMES
    max_plies = spec.MAX_PLIES
    obs_shape = (spec.OBS.size,)
    obs_high = 1  # every part of spec.OBS is a 0/1 plane, one-hot or thermometer
    state_dtype = K.STATE_DTYPE
    zero_sum = True
    has_chance = True
    perfect_information = True
    kernels = Kernels.from_module(K, _observe, _validity)
    state_errors = _validity.STATE_ERRORS
    notation = notation

    def __init__(self, num_players=2):
        notation.check_num_players(num_players)
        self.num_players = int(num_players)
        # checked by the tests
        self._base_state = self._row(notation.start_position(self.num_players))

    def __repr__(self):
        return f"BonoboGame(num_players={self.num_players})"

    def base_state(self):
        return self._base_state

    # ----- positions and text ---------------------------------------------------------------
    def from_position(self, pos):
        """A batch of one state holding ``pos`` (a ``notation.Position``), or a one-line
        ValueError if it is no possible position of this game (``notation.check_position``,
        then the kernels' own ``valid_one``, so that both agree)."""
        notation.check_position(pos)
        if pos.num_players != self.num_players:
            raise ValueError(f"the position has {pos.num_players} players, this game "
                             f"{self.num_players}")
        return self.check_states(self._row(pos))

    def _row(self, pos):
        """The state of a checked position, itself unchecked."""
        s = np.zeros(1, self.state_dtype)
        row = s[0]
        covered, slots, tval = 0, [0, 0], [0] * spec.NUM_TRIANGLES
        for k, v in pos.tiles:
            slots[k >> 6] |= 1 << (k & 63)
            for t in spec.SLOTS[k]:
                covered |= 1 << t
                tval[t] = v
        pawns = [0] * 4
        for spot, owner in pos.pawns:
            pawns[owner] |= 1 << spot
        row["covered"] = covered
        row["slots"] = slots
        row["tval"] = tval
        row["pawns"] = pawns
        row["score"][: self.num_players] = pos.score
        row["pile"] = pos.pile
        row["drawn"] = spec.VALUES.index(pos.drawn) if pos.phase == "place" else -1
        row["phase"] = spec.PHASES.index(pos.phase)
        row["to_move"] = pos.to_move
        row["num_players"] = self.num_players
        return s

    def to_position(self, row):
        """The ``notation.Position`` of one state (a ValueError if it is not possible)."""
        return self._position(self.check_row(row)[0])

    def _position(self, r):
        """The position of state row ``r``, itself unchecked."""
        slots = [int(m) for m in r["slots"]]
        tiles = tuple((k, int(r["tval"][spec.SLOTS[k][0]])) for k in range(spec.NUM_SLOTS)
                      if slots[k >> 6] >> (k & 63) & 1)
        pawns = tuple(sorted((s, p) for p in range(self.num_players)
                             for s in range(spec.NUM_SPOTS) if int(r["pawns"][p]) >> s & 1))
        phase = spec.PHASES[r["phase"]]
        return notation.Position(self.num_players, tiles, pawns,
                          tuple(int(x) for x in r["score"][: self.num_players]),
                          tuple(int(x) for x in r["pile"]), int(r["to_move"]), phase,
                          spec.VALUES[r["drawn"]] if phase == "place" else None)

    def outcome_to_string(self, outcome):
        """The name of chance outcome ``outcome``: the drawn tile's value, ``'-4'`` .. ``'+4'``."""
        if not 0 <= outcome < len(spec.VALUES):
            raise ValueError(f"chance outcome must be in 0..{len(spec.VALUES) - 1}, "
                             f"got {outcome!r}")
        return notation.value_name(spec.VALUES[outcome])

    def string_to_outcome(self, text):
        return notation.parse_outcome(text)

    # ----- scores and pictures --------------------------------------------------------------
    def _text(self, row, player):
        """A text picture of one state (see ``render.render_text``); perfect information: the
        same from every ``player``'s seat."""
        return render_text(self.to_position(row))

    def _drawing(self, row, player):
        """The beach with named triangles and spots, the tiles with their corner numbers, pawns,
        scores and a legend (perfect information: the same from every seat)."""
        return render_drawing(self.to_position(row))

    def _move_spot(self, action):
        return move_spot(action)

    def picture_labels(self, row):
        """Every spot, and every free triangle (tiles go there)."""
        covered = {t for k, _ in self.to_position(row).tiles for t in spec.SLOTS[k]}
        return [notation.spot_name(k) for k in range(spec.NUM_SPOTS)] + [
            notation.triangle_name(t) for t in range(spec.NUM_TRIANGLES) if t not in covered]

    def move_spots(self, row):
        """As ``Game.move_spots``, and ``draw`` at the pile named beside the board."""
        spots = super().move_spots(row)
        if spec.DRAW in self.legal_actions(row):
            spots[spec.DRAW] = tuple(float(v) for v in pile_spot(self.num_players))
        return spots
