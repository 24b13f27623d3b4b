"""The Game protocol: batched game facts and rules on arrays of states.

A game is declared constants plus scalar numba kernels (``savanna.binding.Kernels``); this base
class turns them into the batched, checked Python API that agents and environments use (each
method checks what enters, then calls ``game.unchecked``, the same calls without checks).
States are rows of a structured dtype, a single state a batch of one. ``current_player`` is
``0..P-1``, ``CHANCE`` (-1) or ``TERMINAL`` (-2); ``step`` returns per-player rewards
``float32[n, P]``; chance nodes are ordinary states; observations are player-relative. The
Game API guide (docs/guides/game-api.md) shows it all.
"""
from types import ModuleType
from typing import Any

import numpy as np

from savanna import _drivers, binding, draw
from savanna.binding import Kernels
from savanna.codes import (
    CHANCE,
    ILLEGAL_ACTION,
    NO_CHANCE_OUTCOME,
    NO_LEGAL_ACTION,
    NOT_A_DECISION,
    TERMINAL,
)
from savanna.errors import check_int, clip
from savanna.rng import as_generator, make_streams
from savanna.unchecked import Unchecked, sample_outcomes

__all__ = ["CHANCE", "TERMINAL", "Game", "Row", "Seed", "States"]

States = np.ndarray  # a batch: a 1-d array of the game's state dtype
Row = np.ndarray | np.void  # one state: a row (np.void) or a batch of one
Seed = int | np.random.Generator | None  # where randomness comes from
ArrayLike = Any  # anything np.asarray takes
# The most states one call makes (init): 16M rows is gigabytes already; more is a mistake, and
# numpy would fail only after trying to allocate them.
MAX_BATCH = 1 << 24
NO_ACTIONS = np.empty(0, np.int64)  # first_invalid checks the states alone


# What a game's declarations require it to define: declaration -> (value, hook, why). Checked
# when a Game subclass is defined (``Game.__init_subclass__``).
HIDDEN_INFORMATION_HOOKS = {
    "private_chance": (True, "chance_private_to",
                       "the seat that alone sees a chance outcome (records, the board and the "
                       "conformance suite ask it)"),
    "perfect_information": (False, "_resample_hidden",
                            "redrawing what a seat cannot see (resample_hidden: the searches "
                            "determinize with it)"),
}


class Game:
    """Base class: subclasses set the declared facts, ``kernels``, and the text methods."""

    name: str
    version: int
    # "v<version> <spec file>@<its sha256, 12 hex digits>": the rules a record was played by
    rules_version: str = "unspecified"
    num_players: int
    num_actions: int
    max_chance_outcomes: int
    max_plies: int
    obs_shape: tuple
    obs_high: int = 1  # the largest observation value: the envs' Box bound, networks' scale
    state_dtype: np.dtype
    zero_sum: bool
    has_chance: bool
    perfect_information: bool
    # some chance outcomes are dealt to one seat alone (a card to a hand): chance_private_to
    private_chance: bool = False
    kernels: Kernels  # absent only in a pure-NumPy test game that overrides the whole API
    state_errors: tuple = ()  # valid_one's reasons, by code (index 0 unused)
    notation: Any = None  # the game's notation module: parse, format, action_name, parse_action

    def __init_subclass__(cls, **kwargs):
        """Refuse, when a game's class is defined, a declaration without the hook it needs
        (one line naming the hook): ``HIDDEN_INFORMATION_HOOKS``."""
        super().__init_subclass__(**kwargs)
        for declaration, (value, hook, why) in HIDDEN_INFORMATION_HOOKS.items():
            if getattr(cls, declaration, not value) == value and getattr(cls, hook) is getattr(
                    Game, hook):
                raise TypeError(f"{cls.__module__}.{cls.__qualname__} declares {declaration} = "
                                f"{value} but defines no {hook}: {why}")

    # ----- set-up -------------------------------------------------------------------------
    def base_state(self) -> np.ndarray:
        """The state every game of these options starts from before its random setup (a batch
        of one): ``init`` copies it, ``valid_one`` reads the options from it."""
        raise NotImplementedError

    def compiled(self, template: ModuleType, **extra: Any) -> ModuleType:
        """``template`` (a module of numba loops) bound to this game's kernels, ``A``, ``C`` and
        the ``extra`` names (module-level functions or numbers): ``savanna.binding`` holds the
        contract, the kernel signatures and where the generated code lives. One module per
        template and bound values; loops read the player count from their arrays' shapes."""
        return binding.compiled(self, template, extra)

    @property
    def drivers(self) -> ModuleType:
        """The shared compiled loops (``savanna._drivers``) bound to this game's kernels."""
        return self.compiled(_drivers)

    @property
    def unchecked(self) -> Any:
        """The calls of this API without their input checks (``savanna.unchecked``), for
        states the kernels made or ``check_states`` passed. A game written in Python, without
        kernels, checks in its own methods and overrides this to return itself."""
        return Unchecked(self)

    def warmup(self, verbose: bool = False) -> np.ndarray:
        """Compile the batch loops of the API now (numba caches them for later processes;
        ``savanna.vector_env.warmup`` does the envs' loops). Returns a state at a decision
        node, handy for warming up agents too."""
        if verbose:
            print(f"compiling {self!r}...", flush=True)
        s = self.init(2, rng=0)
        self.random_playouts(s.copy(), rng=0)
        self.drivers.random_playouts_parallel(s.copy(), make_streams(0, 2),
                                              np.zeros((2, self.num_players), np.float32),
                                              np.zeros(2, np.int64))
        self.observe(s, 0)
        if self.kernels.scores_one is not None:
            self.scores(s)
        row = s[:1].copy()
        while self.current_player(row)[0] == CHANCE:  # also compiles chance_probs/apply_chance
            self.apply_chance(row, [int(np.argmax(self.chance_probs(row)[0]))])
        self.step(row, [np.flatnonzero(self.legal_mask(row)[0])[0]])
        return row

    # ----- the protocol: check what enters, then the unchecked call ------------------------
    def init(self, n: int, rng: Seed = None) -> States:
        """``n`` initial states; random setup (if any) drawn from ``rng`` (None, an int seed
        >= 0 or a Generator)."""
        n = check_int("n", n, 1, MAX_BATCH, "a positive int (the number of states)")
        return self.unchecked.init(n, rng)

    def current_player(self, s: States) -> np.ndarray:
        return self.unchecked.current_player(self.check_states(s))

    def is_terminal(self, s: States) -> np.ndarray:
        return self.current_player(s) == TERMINAL

    def legal_mask(self, s: States) -> np.ndarray:
        """``bool[n, num_actions]``: never empty at a decision node, empty elsewhere."""
        return self.unchecked.legal_mask(self.check_states(s))

    def legal_actions(self, row: Row) -> list[int]:
        """The legal actions of one state, as a list of ints."""
        return np.flatnonzero(self.legal_mask(self.as_batch(row))[0]).tolist()

    def step(self, s: States, actions: ArrayLike) -> tuple[States, np.ndarray]:
        """Functional step: returns ``(new_states, rewards float32[n, P])``."""
        s = self._check_batch(s).copy()
        return s, self.step_inplace(s, actions)

    def step_inplace(self, s: States, actions: ArrayLike) -> np.ndarray:
        """Apply one decision per state in place (``s``: a writeable C-contiguous batch);
        returns ``rewards float32[n, P]``."""
        s = self._check_batch(s, in_place=True)
        return self.unchecked.step_inplace(s, self.check_actions(s, actions))

    def chance_probs(self, s: States) -> np.ndarray:
        """``float64[n, max_chance_outcomes]``; all zero where the state is not a chance node."""
        return self.unchecked.chance_probs(self.check_states(s))

    def apply_chance(self, s: States, outcomes: ArrayLike) -> None:
        """Apply one chance outcome per state, in place (every state must be a chance node)."""
        s = self.check_states(s, in_place=True)
        outcomes = np.asarray(outcomes)
        if outcomes.shape != (len(s),) or not np.issubdtype(outcomes.dtype, np.integer):
            raise ValueError(f"outcomes must be {len(s)} integers, got {outcomes.dtype} "
                             f"array of shape {outcomes.shape}")
        unchecked = self.unchecked
        not_chance = np.flatnonzero(unchecked.current_player(s) != CHANCE)
        if len(not_chance):
            raise ValueError(f"state {not_chance[0]} is not a chance node")
        probs = unchecked.chance_probs(s)
        valid = (outcomes >= 0) & (outcomes < self.max_chance_outcomes)
        valid[valid] &= probs[np.flatnonzero(valid), outcomes[valid]] > 0
        if not valid.all():
            i = int(np.flatnonzero(~valid)[0])
            raise ValueError(f"chance outcome {outcomes[i]} is impossible in state {i}; "
                             f"possible: {np.flatnonzero(probs[i]).tolist()}")
        unchecked.apply_chance(s, outcomes)

    def sample_chance(self, s: States, rng: Seed) -> np.ndarray:
        """One outcome per state (every state a chance node), drawn from ``rng`` (a Generator,
        an int seed or None) with the outcome probabilities:
        ``game.apply_chance(s, game.sample_chance(s, rng))``."""
        generator = as_generator(rng)
        probs = self.chance_probs(s)
        total = probs.cumsum(axis=1)[:, -1]
        if (total <= 0).any():
            raise ValueError(f"state {int(np.flatnonzero(total <= 0)[0])} is not a chance node")
        return sample_outcomes(probs, generator)

    def observe(self, s: States, player: ArrayLike) -> np.ndarray:
        """``uint8[n, *obs_shape]`` from ``player``'s seat (an int or one per state)."""
        s = self.check_states(s)
        players = np.asarray(player)
        if (not np.issubdtype(players.dtype, np.integer) or players.shape not in ((), (len(s),))
                or ((players < 0) | (players >= self.num_players)).any()):
            raise ValueError(f"player must be an int in 0..{self.num_players - 1} or {len(s)} "
                             f"of them (one per state), got {clip(player)}")
        return self.unchecked.observe(s, players)

    def resample_hidden(self, s: States, player: int, rng: Seed = None) -> States:
        """Copies of ``s`` with everything ``player`` has not seen (the other seats' cards,
        their private chance outcomes) redrawn consistently with what it has seen: the worlds
        a determinizing search samples. With perfect information, plain copies."""
        s = self.check_states(s)
        player = self.check_player(player)
        return self.unchecked.resample_hidden(s, player, as_generator(rng))

    def chance_private_to(self, row: Row) -> int | None:
        """The seat that alone sees the outcome of chance node ``row`` (a card dealt face down
        to its hand), or None when every seat sees it. Games that declare ``private_chance``
        implement it; every other game's chance outcomes are public."""
        return None

    def outcome_to_string(self, outcome: int) -> str:
        """The name of chance outcome ``outcome`` (a die face, a card), as records, analyses and
        the board print it; by default its number. A game whose outcomes have names defines
        it (a private outcome's name is shown only to its seat)."""
        return str(check_int("outcome", outcome, 0, self.max_chance_outcomes - 1,
                             "an int (a chance outcome)"))

    def _resample_hidden(self, s, player, rng):
        """Redraw in place what ``player`` does not know in the checked copies ``s``; returns
        them (``rng`` a Generator). Games with hidden information implement it."""
        raise NotImplementedError

    def random_playouts(self, s: States, rng: Seed = None,
                        parallel: bool | str = False) -> tuple[np.ndarray, np.ndarray]:
        """Play every state to the end with uniform random decisions, in place.

        Returns ``(returns float32[n, P], plies int64[n])``; ``s`` must be a writeable
        C-contiguous batch. Each state has its own random stream, so the result is the same
        with any number of threads. ``parallel``: False (one thread), True (numba's threads)
        or "auto" (numba's threads where they are faster at this batch size under the
        machine's load now: ``savanna.threads``).
        """
        return self.unchecked.random_playouts(self.check_states(s, in_place=True), rng, parallel)

    @property
    def has_scores(self) -> bool:
        """Whether ``scores`` works before the end: the game declares a ``scores_one`` kernel
        (or, written in Python, overrides ``scores``)."""
        return type(self).scores is not Game.scores or self.kernels.scores_one is not None

    def scores(self, s: States) -> np.ndarray:
        """``int64[n, P]``: each player's score if the game ended now (final at the end)."""
        if self.kernels.scores_one is None:
            raise NotImplementedError(f"{self.name} declares no scores_one kernel")
        return self.unchecked.scores(self.check_states(s))

    # ----- text, through the game's notation module and Position ---------------------------
    def from_position(self, pos: Any) -> States:
        raise NotImplementedError

    def to_position(self, row: Row) -> Any:
        raise NotImplementedError

    def from_text(self, text: str) -> States:
        """A batch of one state from the game's text notation, written as ``to_text`` writes
        it: each position has one spelling (no leading zeros or signs, lists sorted), so that
        texts compare and round-trip; a variant is a ValueError pointing at the difference."""
        s = self.from_position(self.notation.parse(text))
        self._check_canonical(text, self.to_text(s))
        return s

    @staticmethod
    def _check_canonical(text, canonical):
        if text != canonical:
            i = next((i for i, (a, b) in enumerate(zip(text, canonical)) if a != b),
                     min(len(text), len(canonical)))
            raise ValueError(f"position not in the canonical notation at character {i}: "
                             f"{clip(text[i : i + 16])} where it is written "
                             f"{clip(canonical[i : i + 16])}")

    def to_text(self, row: Row) -> str:
        """The notation of one state (checked first: a corrupted row is a ValueError)."""
        return self.notation.format(self.to_position(self.check_row(row)))

    def action_to_string(self, row: Row, action: int) -> str:
        """The name of ``action`` (the game's notation, e.g. ``'Z c4'`` in Zèbres)."""
        return self.notation.action_name(
            check_int("action", action, 0, self.num_actions - 1, "an int (an action id)"))

    def string_to_action(self, row: Row, text: str) -> int:
        """The id of a legal action named ``text`` in this state, or a ValueError listing them."""
        legal = self.legal_actions(row)
        try:
            action = self.notation.parse_action(text)
        except ValueError as err:
            raise ValueError(f"{err}; legal here: {self._names(row, legal)}") from None
        if action not in legal:
            raise ValueError(f"illegal move {text!r} here; legal: {self._names(row, legal)}")
        return action

    def _names(self, row, actions):
        """The names of ``actions`` in this state, for an error message: only then, since
        naming them at every parse makes parsing each legal action's name quadratic."""
        return ", ".join(self.action_to_string(row, a) for a in actions) or "none here"

    def render(self, row: Row, player: int | None = None, *, public: bool = False) -> str:
        """A readable text picture of one state. With a ``player`` (a seat), only what that
        seat may see; with ``public``, what a spectator sees (every seat's secrets hidden)."""
        row = self.check_row(row)
        return self._text(row, self._viewer(player, public))

    def _viewer(self, player, public):
        """The ``player`` argument of ``_text`` and ``_drawing``: a seat, None (everything)
        or ``num_players`` (a spectator), from a public API's ``player`` and ``public``."""
        if public and player is not None:
            raise ValueError(f"a public picture is no seat's: give player or public, not both "
                             f"(got player {player!r})")
        return self.num_players if public else (
            None if player is None else self.check_player(player))

    def _text(self, row, player):
        """The game's text picture of a checked state (a batch of one) as ``player`` (as for
        ``_drawing``) sees it; the notation unless the game draws one."""
        return self.to_text(row)

    def render_svg(self, row: Row, player: int | None = None, *, public: bool = False) -> str:
        """An SVG picture (a str) of one state; with a ``player``, only what that seat may see;
        with ``public``, what a spectator sees."""
        return self.render_drawing(row, player, public=public).svg()

    def render_rgb(self, row: Row, player: int | None = None, *,
                   public: bool = False) -> np.ndarray:
        """An ``uint8[H, W, 3]`` picture of one state, the same drawing as ``render_svg``."""
        return self.render_drawing(row, player, public=public).rgb()

    def show(self, states: States | Row, player: int | None = None) -> draw.Drawing:
        """One state, or a batch as a grid, as a drawing that shows itself in a notebook
        (``_repr_svg_``, ``_repr_png_``) and as the text ``render`` elsewhere."""
        s = self._check_batch(states)
        if len(s) == 1:
            return self.render_drawing(s, player)
        drawings = [self.render_drawing(s[i: i + 1], player) for i in range(len(s))]
        return draw.grid(drawings, [f"state {i}" for i in range(len(s))], text="\n\n".join(
            f"state {i}:\n{d!r}" for i, d in enumerate(drawings)))

    def render_drawing(self, row: Row, player: int | None = None, *,
                       public: bool = False) -> draw.Drawing:
        """The ``savanna.draw.Drawing`` of one state (from ``player``'s seat, if given; with
        ``public``, as a spectator sees it: every seat's secrets face down) that
        ``render_svg``, ``render_rgb`` and ``show`` output; its text fallback is ``render``'s."""
        row = self.check_row(row)
        seat = self._viewer(player, public)
        picture = self._drawing(row, seat)
        picture.text_fallback = self._text(row, seat)
        return picture

    def _drawing(self, row, player):
        """The game's picture of a checked state (a batch of one) as ``player`` sees it: a
        seat, None (everything) or ``num_players``, a seat of no player (what is public)."""
        raise NotImplementedError

    def picture_labels(self, row: Row) -> list[str]:
        """The coordinate names that the picture of one state shows, spelt as the moves
        write them (tests/test_pictures.py looks for each); none by default."""
        return []

    def move_spots(self, row: Row) -> dict[int, tuple[float, float]]:
        """``{action: (x, y)}``: where each legal move of one state sits on ``render_drawing``'s
        picture (its user units), so that a board can take clicks (``savanna serve``); moves
        with no place of their own (a stop, a draw, a die) are left out."""
        spots = {}
        for action in self.legal_actions(row):
            xy = self._move_spot(action)
            if xy is not None:
                spots[action] = (float(xy[0]), float(xy[1]))
        return spots

    def _move_spot(self, action):
        """The ``(x, y)`` of one legal action on the game's picture, or None (the default:
        a game without a clickable board)."""
        return None

    # ----- validation at the boundary ----------------------------------------------------
    def check_player(self, player: int) -> int:
        """``player`` as an int, or a ValueError unless it is a seat ``0..P-1`` (an integer:
        not a bool, a float or a str)."""
        return check_int("player", player, 0, self.num_players - 1, "an int (a seat)")

    def check_states(self, s: States | Row, in_place: bool = False) -> States:
        """``s`` as a batch of this game's states, or a ValueError saying what is wrong: the
        array's type, dtype and shape, then every row's values (one compiled pass of the
        game's ``valid_one`` and of the protocol: a decision node has a legal action, a
        chance node a possible outcome). Every state that enters the API passes here.
        ``in_place``: see ``_check_batch``."""
        s = self._check_batch(s, in_place)
        if hasattr(self, "kernels"):
            i, code = self.drivers.first_invalid(s, self.base_state(), NO_ACTIONS)
            if i >= 0:
                raise ValueError(self._state_error(i, code))
        return s

    def check_row(self, row: Row) -> States:
        """One state as a checked batch of one (``as_batch``, then ``check_states``)."""
        return self.check_states(self.as_batch(row))

    def _check_batch(self, s: States | Row, in_place: bool = False) -> States:
        """The array checks of ``check_states``, without reading the rows. Calls that only
        read accept any array of the state dtype (a read-only or strided one is copied: the
        kernels take one layout, compiled once); calls that change ``s`` (``in_place``) need a
        writeable C-contiguous one, since a copy would hide the change from the caller."""
        if isinstance(s, np.void):
            s = self.as_batch(s)
        if not isinstance(s, np.ndarray):
            raise ValueError(f"states must be a numpy array of {self.name} states, "
                             f"got {type(s).__name__}")
        if s.dtype != self.state_dtype:
            raise ValueError(f"states have dtype {clip(s.dtype)}, expected the {self.name} "
                             f"state dtype (create them with {type(self).__name__}.init or "
                             "from_text)")
        if s.ndim != 1:
            raise ValueError(f"states must be a 1-d batch, got shape {s.shape}")
        if s.flags.c_contiguous and s.flags.writeable:
            return s
        if in_place:
            raise ValueError("states must be a C-contiguous, writeable array (use .copy())")
        return s.copy()

    def _state_error(self, i, code):
        generic = {NO_LEGAL_ACTION: "a decision node with no legal action",
                   NO_CHANCE_OUTCOME: "a chance node with no possible outcome"}
        reason = generic.get(code) or self.state_errors[code]
        return (f"state {i} is not a possible {self!r} state: {reason} "
                f"(states come from init, step or from_text)")

    def as_batch(self, row: Row) -> States:
        """One state (a row, or a batch of one as it is) as a batch of one, or a ValueError;
        its values are not read (``check_row`` reads them)."""
        if isinstance(row, np.ndarray) and row.ndim == 1 and len(row) == 1:
            return row
        if isinstance(row, np.void) and row.dtype == self.state_dtype:
            return np.array([row], self.state_dtype)
        raise ValueError(f"expected one {self.name} state (a row or a batch of one)")

    def check_actions(self, s: States, actions: ArrayLike) -> np.ndarray:
        """``actions`` as int64, after checking ``s`` (values included) and that each action
        is legal in its state: one compiled pass."""
        actions = np.asarray(actions)
        if actions.shape == () and len(s) == 1:
            actions = actions.reshape(1)
        if actions.shape != (len(s),) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {len(s)} integers, got {clip(actions.dtype)} "
                             f"array of shape {actions.shape}")
        actions = actions.astype(np.int64)
        out_of_range = (actions < 0) | (actions >= self.num_actions)
        if out_of_range.any():
            raise ValueError(f"action {actions[out_of_range][0]} out of range "
                             f"0..{self.num_actions - 1}")
        bad, code = self.drivers.first_invalid(s, self.base_state(), actions)
        if bad < 0:
            return actions
        if code == NOT_A_DECISION:
            p = self.unchecked.current_player(s[bad : bad + 1])[0]
            where = "a chance node (use apply_chance)" if p == CHANCE else "the end"
            raise ValueError(f"state {bad} is at {where}: no decision to take")
        if code != ILLEGAL_ACTION:
            raise ValueError(self._state_error(bad, code))
        legal = [self.action_to_string(s[bad], a) for a in self.legal_actions(s[bad])]
        raise ValueError(
            f"illegal action {actions[bad]} ({self._safe_name(s[bad], actions[bad])}) in "
            f"state {bad}; legal: " + ", ".join(legal))

    def _safe_name(self, row, action):
        try:
            return self.action_to_string(row, int(action))
        except ValueError:
            return "?"

    def __repr__(self):
        return f"{type(self).__name__}()"
