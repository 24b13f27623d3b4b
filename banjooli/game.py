"""Banjooli Xeet as a ``savanna.game.Game``, on the kernels of ``savanna.banjooli._kernels``.

Options: ``num_players`` 2..5, ``terrain`` (1..6 tiles), ``special`` (a special tile),
``course`` (an explicit course) and ``berries`` (the berry variant). What each means, the
readings taken where the rules are silent and which states are possible: the game's page
(docs/games/banjooli.md).

>>> game = BanjooliGame(num_players=3)
>>> s = game.init(1, rng=0)
>>> print(game.render(s[0]))
"""
import numpy as np

from savanna.banjooli import _kernels as K
from savanna.banjooli import _observe, _validity, notation, spec
from savanna.banjooli.render import move_spot, render_drawing, render_text
from savanna.binding import Kernels
from savanna.errors import check_choice, check_int, clip
from savanna.game import Game

__all__ = ["BanjooliGame"]

SPECIAL_OPTIONS = (None, "crocodiles", "canyon", "lava", "vortex", "random")


def _ground_cells(face):
    return spec.face_kinds(face).count(spec.GROUND)


def _fewest_ground_cells(terrain, special, course):
    """The fewest ground cells (where berries go) a course of these options can have: the
    explicit course's, else the special tile's fewest plus the smallest drawn faces (six
    catalogue faces share the smallest count, one a curve, so no adjacent curves need not
    raise it)."""
    if course is not None:
        return sum(_ground_cells(spec.FACE_NAMES.index(f)) for f in course)
    drawn = sorted(_ground_cells(f) for f in spec.CATALOGUE)
    if special is None:
        return sum(drawn[:terrain])
    specials = range(12, 16) if special == "random" else [spec.SPECIALS[special]]
    return min(_ground_cells(f) for f in specials) + sum(drawn[: terrain - 1])


class BanjooliGame(Game):
    """Banjooli Xeet: an ostrich race on dice, won by the best secret prediction."""

    name = "banjooli"
    version = 0
    rules_version = "v0 banjooli.md@ec4582fd47a9"  # tests/test_metadata.py checks the spec
    num_actions = spec.NUM_ACTIONS
    max_chance_outcomes = spec.MAX_CHANCE_OUTCOMES
    max_plies = spec.MAX_PLIES
    obs_shape = (spec.OBS.size,)
    obs_high = 1  # every part of spec.OBS is a 0/1 plane, one-hot or thermometer
    state_dtype = K.STATE_DTYPE
    zero_sum = True
    has_chance = True
    perfect_information = False
    kernels = Kernels.from_module(K, _observe, _validity)
    state_errors = _validity.STATE_ERRORS
    notation = notation

    def __init__(self, num_players=2, terrain=None, special=None, berries=False, course=None):
        check_int("num_players", num_players, spec.MIN_PLAYERS, spec.MAX_PLAYERS)
        check_choice("special", special, SPECIAL_OPTIONS)
        if not isinstance(berries, (bool, np.bool_)):
            raise ValueError(f"berries must be True or False, got {clip(berries)}")
        if terrain is not None:
            check_int("terrain", terrain, 1, spec.MAX_TERRAIN)
        if course is not None:
            course = self._check_course(course)
            if special is not None:
                raise ValueError(f"special={special!r} with an explicit course: put the special "
                                 "tile in the course instead")
            if terrain is not None and terrain != len(course):
                raise ValueError(f"terrain={terrain} but the course has {len(course)} faces")
            terrain = len(course)
        terrain = 4 if terrain is None else terrain
        if berries and _fewest_ground_cells(terrain, special, course) < num_players:
            what = "this course" if course else f"a {terrain}-tile course, special={special!r},"
            raise ValueError(
                f"{num_players} players need {num_players} ground cells for their berries but "
                f"{what} may have only {_fewest_ground_cells(terrain, special, course)}")
        self.num_players = int(num_players)
        self.terrain = int(terrain)
        self.special = special
        self.berries = bool(berries)
        self.course = course
        t = np.zeros(1, self.state_dtype)
        r = t[0]
        r["players"] = self.num_players
        r["nterrain"] = self.terrain
        r["special"] = (K.SPECIAL_NONE if special is None else
                        K.SPECIAL_RANDOM if special == "random" else spec.SPECIALS[special])
        r["fixed"] = course is not None
        r["course"] = -1
        if course is not None:
            r["course"][: len(course)] = [spec.FACE_NAMES.index(f) for f in course]
        r["nest"] = 0b11111
        r["phase"] = spec.PLACE if berries else spec.ROLL
        r["variant"] = berries
        r["berry_cell"] = -1
        r["berry_kind"] = -1
        r["dice"] = -1
        r["direction"] = 1
        r["mover"] = -1
        r["safe"] = -1
        self._base_state = t

    @staticmethod
    def _check_course(course):
        if not isinstance(course, (list, tuple)) or not all(isinstance(f, str) for f in course):
            raise ValueError(f"course must be a list of face names, got {clip(course)}")
        if not 1 <= len(course) <= spec.MAX_TERRAIN:
            raise ValueError(f"course must list 1..{spec.MAX_TERRAIN} faces, got {len(course)}")
        for f in course:
            if f not in spec.FACE_NAMES:
                raise ValueError(f"unknown face {clip(f)} in course; known: "
                                 f"{', '.join(spec.FACE_NAMES)}")
        twice = [f for i, f in enumerate(course) if f in course[:i]]
        if twice:
            raise ValueError(f"course lists the face {twice[0]} twice: each tile is laid once")
        for a, b in zip(course, course[1:]):
            if a.startswith("K") and b.startswith("K"):
                raise ValueError(f"course has two adjacent curves {a}, {b}: the rules forbid it")
        return list(course)

    def __repr__(self):
        return (f"BanjooliGame(num_players={self.num_players}, terrain={self.terrain}, "
                f"special={self.special!r}, berries={self.berries}, course={self.course!r})")

    def base_state(self):
        return self._base_state

    # ----- positions and text ---------------------------------------------------------------
    def from_position(self, pos):
        """A batch of one state holding ``pos`` (a ``notation.Position``), or a ValueError if
        it is not a possible state of this game (``check_states``)."""
        if not isinstance(pos, notation.Position):
            raise ValueError(f"expected a banjooli notation.Position, got {clip(pos)}")
        if pos.players != self.num_players:
            raise ValueError(f"position has {clip(pos.players)} players, this game "
                             f"{self.num_players}")
        if pos.variant != self.berries:
            raise ValueError(f"position {'has' if pos.variant else 'lacks'} the berry fields but "
                             f"this game has berries={self.berries}")
        if len(pos.course) != self.terrain:
            raise ValueError(f"position has {len(pos.course)} terrain tiles, this game "
                             f"{self.terrain}")
        if not all(isinstance(f, int) and 0 <= f < len(spec.FACE_NAMES) for f in pos.course):
            raise ValueError(f"course faces must be ints 0..{len(spec.FACE_NAMES) - 1}, got "
                             f"{clip(pos.course)}")
        s = self._base_state.copy()
        try:
            self._write(s[0], pos)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"position has a field of the wrong type or size: "
                             f"{clip(pos)}") from None
        K.fill_course_one(s, 0)
        self.check_states(s)
        if self.to_position(s[0]) != pos:  # e.g. a float or a bit mask wrapped by the dtype
            raise ValueError(f"position fields must be as notation.parse builds them: {clip(pos)}")
        return s

    @staticmethod
    def _write(r, pos):
        """Copy the fields of ``pos`` into the state row ``r`` (the course sets aside)."""
        r["course"][: len(pos.course)] = pos.course
        r["cells"] = [-1 if c is None else c for c in pos.cells]
        r["places"] = pos.places
        r["narrived"] = sum(1 for p in pos.places if p)
        r["nest"] = sum(1 << c for c in range(5) if pos.nest[c])
        r["scared"] = sum(1 << c for c in range(5) if pos.scared[c])
        r["dice"] = [-1 if f is None else f for f in pos.dice]
        r["phase"] = pos.phase
        r["to_move"] = pos.to_move
        r["direction"] = pos.direction
        r["turn"] = pos.turn
        r["mover"] = pos.mover
        r["points"] = pos.points
        r["safe"] = pos.safe
        r["cards"][: pos.players] = pos.cards
        if pos.variant:
            P = pos.players
            r["berry_cell"][:P] = [-1 if c is None else c for c in pos.berry_cells]
            r["berry_kind"][:P] = [-1 if b is None else b for b in pos.berry_kinds]
            r["seen"][:P] = [sum(1 << p for p in seats) for seats in pos.seen]
            r["collected"][:P] = [sum(1 << b for b in kinds) for kinds in pos.collected]
            r["spear"] = sum(1 << p for p in pos.spear)
            r["frenzy"] = pos.frenzy
            r["jokers"] = pos.jokers

    def to_position(self, row):
        """The ``notation.Position`` of one state (checked: ``check_states``)."""
        r = self.check_row(row)[0]
        k = int(r["nterrain"])
        P = int(r["players"])
        berries = {}
        if r["variant"]:
            berries = dict(
                variant=True,
                berry_cells=tuple(None if c < 0 else int(c) for c in r["berry_cell"][:P]),
                berry_kinds=tuple(None if b < 0 else int(b) for b in r["berry_kind"][:P]),
                seen=tuple(tuple(p for p in range(P) if m >> p & 1) for m in r["seen"][:P]),
                collected=tuple(tuple(b for b in range(11) if m >> b & 1)
                                for m in r["collected"][:P]),
                spear=tuple(p for p in range(P) if r["spear"] >> p & 1),
                frenzy=tuple(int(f) for f in r["frenzy"]), jokers=int(r["jokers"]))
        return notation.Position(
            players=int(r["players"]), course=tuple(int(f) for f in r["course"][:k]),
            cells=tuple(None if c < 0 else int(c) for c in r["cells"]),
            places=tuple(int(p) for p in r["places"]),
            nest=tuple(bool(r["nest"] >> c & 1) for c in range(5)),
            scared=tuple(bool(r["scared"] >> c & 1) for c in range(5)),
            cards=tuple(int(c) for c in r["cards"][: r["players"]]),
            to_move=int(r["to_move"]), direction=int(r["direction"]), turn=int(r["turn"]),
            phase=int(r["phase"]), dice=tuple(None if f < 0 else int(f) for f in r["dice"]),
            mover=int(r["mover"]), points=int(r["points"]), safe=int(r["safe"]), **berries)

    def outcome_to_string(self, outcome):
        """The name of chance outcome ``outcome``: the face a die shows, ``R B G Y P W``."""
        if not 0 <= outcome < len(spec.FACES):
            raise ValueError(f"chance outcome must be in 0..{len(spec.FACES) - 1}, "
                             f"got {outcome!r}")
        return spec.FACES[outcome]

    def string_to_outcome(self, text):
        """The chance outcome named ``text`` (a die face, ``R B G Y P W``): the inverse of
        ``outcome_to_string``."""
        if len(text) != 1 or text not in spec.FACES:
            raise ValueError(f"a die face must be one of {', '.join(spec.FACES)}, got {text!r}")
        return spec.FACES.index(text)

    # ----- scores, hidden information, pictures ---------------------------------------------
    def _resample_hidden(self, s, player, rng):
        """The copies ``s`` made consistent with what ``player`` knows: the other seats' cards are
        redrawn from the cards ``player`` has not seen (all but their own), and the berries on
        the track whose kind ``player`` has not seen are redrawn from the kinds that are neither
        seen by ``player`` on the track nor collected (collected berries are public)."""
        P = self.num_players
        others = [p for p in range(P) if p != player]
        for r in s:
            unseen = [c for c in range(10) if c != r["cards"][player]]
            r["cards"][others] = rng.choice(unseen, size=len(others), replace=False)
            if not self.berries:
                continue
            hidden = [k for k in range(P) if r["berry_kind"][k] >= 0
                      and not r["seen"][k] >> player & 1]
            known = {int(r["berry_kind"][k]) for k in range(P)
                     if r["berry_kind"][k] >= 0 and k not in hidden}
            known |= {b for m in r["collected"][:P] for b in range(11) if int(m) >> b & 1}
            pool = [b for b in range(11) if b not in known]
            r["berry_kind"][hidden] = rng.choice(pool, size=len(hidden), replace=False)
        return s

    def _text(self, row, player):
        """A text picture: the course as a track (finish at the top), ostriches, dice, phase.
        With a ``player``, the others' prediction cards and the berry kinds that seat has not
        seen are hidden (``?``)."""
        return render_text(self.to_position(row), player)

    def _drawing(self, row, player):
        """The race track with named cells, dice, whose turn, cards, points and a legend; with
        a ``player``, the others' cards and points and the berries that seat has not seen are
        hidden."""
        return render_drawing(self.to_position(row), self.scores(row)[0].tolist(), player)

    def move_spots(self, row):
        """As ``Game.move_spots``: each move at the cell or ostrich it names
        (``render.move_spot``); rerolls, keep, pass and the spear have no place."""
        pos = self.to_position(row)
        spots = {a: move_spot(pos, a) for a in self.legal_actions(row)}
        return {a: (float(xy[0]), float(xy[1])) for a, xy in spots.items() if xy is not None}

    def action_to_string(self, row, action):
        """As ``Game.action_to_string``, and a reroll by the faces its dice show
        (``notation.reroll_name``: ``reroll R1,B,sorcery W``) once they are rolled."""
        name = super().action_to_string(row, action)
        if not spec.A_REROLL < action < spec.A_MOVE:
            return name
        dice = self.to_position(row).dice
        return name if None in dice else notation.reroll_name(dice, action - spec.A_REROLL)

    def string_to_action(self, row, text):
        """As ``Game.string_to_action``; a reroll by its dice's faces (``reroll R1,sorcery W``)
        or by their places (the notation's ``reroll 0,5``)."""
        key = " ".join(str(text).split())
        dice = self.to_position(row).dice if key.startswith("reroll ") else (None,)
        if None not in dice and not key[7:].replace(",", "").isdigit():
            for a in self.legal_actions(row):  # the dice read once, not once an action
                if (spec.A_REROLL < a < spec.A_MOVE
                        and notation.reroll_name(dice, a - spec.A_REROLL) == key):
                    return a
        return super().string_to_action(row, text)

    def picture_labels(self, row):
        last = self.to_position(row).last_row
        return ["a0", "c0", f"a{last}", f"c{last}", "START", "FINISH"]
