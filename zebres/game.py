"""Drôles de Zèbres as a ``savanna.game.Game``, on the bitboard kernels of
``savanna.zebres._kernels``.

Options: ``board`` (``"standard"`` or ``"president"``) and ``first_placer`` (0 red, 1 green,
default 1). The readings taken where the rules are silent, and which positions are possible:
the game's page (docs/games/zebres.md).

>>> game = ZebresGame()
>>> s = game.from_text("....../....../....../....../...... r - - setup")
>>> s, rewards = game.step(s, [game.string_to_action(s[0], "start 3")])
>>> print(game.render(s[0]))
"""
import numpy as np

from savanna.binding import Kernels
from savanna.errors import clip
from savanna.game import Game
from savanna.zebres import _kernels as K
from savanna.zebres import _observe, _validity, notation, spec
from savanna.zebres.notation import Position, Token
from savanna.zebres.render import impala_spot, move_spot, render_drawing, render_text
from savanna.zebres.spec import KINDS

__all__ = ["ZebresGame"]


class ZebresGame(Game):
    """Drôles de Zèbres: two players place 15 animals each on a 30-cell reserve."""

    name = "zebres"
    version = 0
    rules_version = "v0 zebres.md@503e0784256e"  # tests/test_metadata.py checks the spec
    num_players = spec.NUM_PLAYERS
    num_actions = spec.NUM_ACTIONS
    max_chance_outcomes = 0
    max_plies = spec.MAX_PLIES
    obs_shape = (spec.OBS.size,)
    obs_high = 1  # every part of spec.OBS is a 0/1 plane, one-hot or thermometer
    state_dtype = K.STATE_DTYPE
    zero_sum = True
    has_chance = False
    perfect_information = True
    kernels = Kernels.from_module(K, _observe, _validity)
    state_errors = _validity.STATE_ERRORS
    notation = notation

    def __init__(self, board="standard", first_placer=1):
        notation.check_board_name(board)
        notation.check_first_placer(first_placer)
        self.board = board
        self.first_placer = int(first_placer)
        self._base_state = self._row(notation.start_position(first_placer))

    def __repr__(self):
        return f"ZebresGame(board={self.board!r}, first_placer={self.first_placer})"

    def base_state(self):
        return self._base_state

    # ----- positions and text ---------------------------------------------------------------
    def from_position(self, pos):
        """A batch of one state holding ``pos`` (a ``notation.Position``) on this game's board,
        checked by ``check_states`` too, so that parsing and ``valid_one`` agree."""
        notation.validate(pos, self.board, self.first_placer)
        return self.check_states(self._row(pos))

    def _row(self, pos):
        """The batch of one state that writes a validated ``pos``."""
        own = [0, 0]
        kind = [0] * len(KINDS)
        down = 0
        for cell, token in enumerate(pos.board):
            if token is not None:
                own[token.player] |= 1 << cell
                kind[KINDS.index(token.kind)] |= 1 << cell
                down |= int(token.down) << cell
        s = np.zeros(1, self.state_dtype)
        row = s[0]
        row["own"] = own
        row["kind"] = kind
        row["down"] = down
        row["swapped"] = sum(1 << c for c in pos.swapped)
        row["board"] = spec.BOARDS.index(self.board)
        row["impala"] = -1 if pos.impala is None else pos.impala
        row["inauguration"] = -1 if pos.inauguration is None else pos.inauguration
        row["to_move"] = pos.to_move
        row["phase"] = spec.PHASES.index(pos.phase)
        row["croc"] = -1 if pos.croc_cell is None else pos.croc_cell
        return s

    def to_position(self, row):
        """The ``notation.Position`` of one state (checked first: a corrupted row is a
        ValueError, not a wrong picture)."""
        r = self.check_row(row)[0]
        own = [int(m) for m in r["own"]]
        kind = [int(m) for m in r["kind"]]
        down = int(r["down"])
        board = []
        for cell in range(spec.NUM_CELLS):
            b = 1 << cell
            if (own[0] | own[1]) & b:
                board.append(Token(0 if own[0] & b else 1,
                                   KINDS[next(t for t in range(len(KINDS)) if kind[t] & b)],
                                   bool(down & b)))
            else:
                board.append(None)
        phase = spec.PHASES[r["phase"]]
        swapped = int(r["swapped"])
        return Position(
            tuple(board), int(r["to_move"]), None if r["impala"] < 0 else int(r["impala"]),
            None if r["inauguration"] < 0 else int(r["inauguration"]), phase,
            int(r["croc"]) if phase == "croc" else None,
            frozenset(c for c in range(spec.NUM_CELLS) if swapped >> c & 1))

    def from_text(self, text):
        """A batch of one state from the notation, e.g. ``'....../... r - - setup'``, written
        canonically (see ``Game.from_text``)."""
        s = self.from_position(notation.parse(text, self.board))
        self._check_canonical(text, self.to_text(s))
        return s

    def perft(self, row, depth):
        """Distinct sequences of ``depth`` decisions from one state: rules §8's check."""
        if (not isinstance(depth, (int, np.integer)) or isinstance(depth, bool)
                or not 0 <= depth <= self.max_plies):
            raise ValueError(f"depth must be an int in 0..{self.max_plies} (no game is "
                             f"longer), got {clip(depth)}")
        return K.perft(self.check_row(row), int(depth))

    # ----- scores and pictures --------------------------------------------------------------
    def _text(self, row, player):
        """A text picture: rivers, tokens, track labels with Impala, sectors, hands, phase
        (perfect information: the same from every ``player``'s seat)."""
        return render_text(self.to_position(row), self._board_of(row), self._scores_of(row))

    def _drawing(self, row, player):
        """Sectors, rivers, named cells, tokens, the track with Impala, hands, points, legend
        (perfect information: the same from every seat)."""
        return render_drawing(self.to_position(row), self._board_of(row), self._scores_of(row))

    def _move_spot(self, action):
        return move_spot(action)

    def picture_labels(self, row):
        return ["a1", "f1", "a5", "f5", "0", "21"]  # the corner cells, the track's ends

    def move_spots(self, row):
        """As ``Game.move_spots``, and each of Impala's steps at the track position it reaches."""
        spots = super().move_spots(row)
        impala = int(self.as_batch(row)[0]["impala"])
        for action in self.legal_actions(row):
            if spec.IMPALA < action <= spec.IMPALA + 3 and impala >= 0:
                x, y = impala_spot(impala, action - spec.IMPALA)
                spots[action] = (float(x), float(y))
        return spots

    def _scores_of(self, row):
        return tuple(int(v) for v in self.scores(self.as_batch(row))[0])

    def _board_of(self, row):
        return spec.BOARDS[int(self.as_batch(row)[0]["board"])]
