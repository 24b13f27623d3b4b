"""The games: each declares itself once, with ``register_game`` in its package's
``__init__.py``, and everything that lists games reads ``GAMES``: ``make_game``, the Gymnasium
ids, the OpenSpiel adapter, the command line, the conformance tests.

>>> from savanna.registry import GAMES
>>> GAMES["bonobo"].players, GAMES["bonobo"].env_id
((2, 4), 'savanna/Bonobo-v0')

A registration names its Game class by a string (``"savanna.zebres.game:ZebresGame"``), and
its pure-Python reference and its twin (the kernels played against the reference) by module
names, as OpenSpiel's ``_GAME_INFO`` declares a game's facts, so that importing ``savanna``
reads the declarations and imports no game, no numba, and nothing finds a game's parts by
guessing their names.
"""
import importlib
import inspect
from dataclasses import dataclass
from types import MappingProxyType

import gymnasium

from savanna.errors import clip, is_int

__all__ = ["register_game"]


@dataclass(frozen=True)
class GameEntry:
    """One game's registration: what the rest of Savanna needs to know before loading it."""

    name: str
    entry_point: str  # "package.module:GameClass"
    players: tuple[int, int]  # the fewest and the most players (``num_players`` spans them)
    options: MappingProxyType  # the options besides num_players, with their defaults
    configs: tuple  # option sets the conformance suite plays, one per rule variant worth it
    env_id: str  # the Gymnasium id
    random_setup: bool  # ``init`` draws a random setup (the OpenSpiel adapter: a chance node)
    reference: str  # the module of the slow, obvious pure-Python rules (the oracle)
    twin: str  # the module whose ``play_lockstep`` plays the kernels against the reference

    @property
    def package(self):
        """The game's package (``"savanna.zebres"``): its folder holds the game."""
        return self.entry_point.partition(":")[0].rpartition(".")[0]


GAMES: dict[str, GameEntry] = {}  # name -> registration, in the order the games registered


def register_game(name, entry_point, *, players=(2, 2), options=None, configs=({},),
                  env_id=None, random_setup=False, reference=None, twin=None):
    """Declare a game once, from its package's ``__init__.py`` (``zebres/__init__.py`` is
    an example; no game is imported here). ``entry_point``: its Game class as
    ``"package.module:Class"``; ``players``: the fewest and most players (the Game class takes
    ``num_players`` when they differ); ``options``: its other keyword arguments with their
    defaults, as OpenSpiel parameters (plain values; ``"none"`` stands for None);
    ``configs``: the option sets the conformance suite plays; ``env_id``: the Gymnasium id,
    registered here with the generic single and vector envs (default ``savanna/<Name>-v0``);
    ``random_setup``: whether ``init`` draws a random setup; ``reference``: the module of its
    pure-Python rules, ``twin``: the module whose ``play_lockstep(game, s, plies, rng)`` plays
    the kernels against them (``savanna check`` imports it), each a module name (default: the
    modules ``reference`` and ``twin`` of the Game class's package). Returns the ``GameEntry``;
    a name or id registered twice, or a malformed declaration, is a ValueError."""
    if not (isinstance(name, str) and name.isidentifier() and name.islower()):
        raise ValueError(f"a game name is a lower-case identifier, got {clip(name)}")
    if name in GAMES:
        raise ValueError(f"game {name!r} is already registered ({GAMES[name].entry_point})")
    module, _, attr = entry_point.partition(":") if isinstance(entry_point, str) else ("", "", "")
    if not (module and attr.isidentifier()):
        raise ValueError("entry_point must be 'package.module:GameClass', "
                         f"got {clip(entry_point)}")
    if not (isinstance(players, tuple) and len(players) == 2 and all(map(is_int, players))
            and 1 <= players[0] <= players[1]):
        raise ValueError(f"players must be (fewest, most) with 1 <= fewest <= most, "
                         f"got {clip(players)}")
    if not all(isinstance(config, dict) for config in configs):
        raise ValueError(f"configs must be dicts of options, got {clip(configs)}")
    beside = module.rpartition(".")[0] + "." if "." in module else ""  # the class's package
    reference = _module_name("reference", reference, f"{beside}reference")
    twin = _module_name("twin", twin, f"{beside}twin")
    env_id = env_id or f"savanna/{name.capitalize()}-v0"
    if env_id in gymnasium.registry:
        raise ValueError(f"Gymnasium id {env_id!r} is already registered")
    GAMES[name] = GameEntry(name, entry_point, (int(players[0]), int(players[1])),
                            MappingProxyType(dict(options or {})),
                            tuple(dict(config) for config in configs), env_id, bool(random_setup),
                            reference, twin)
    gymnasium.register(env_id, entry_point="savanna.env:SavannaEnv",
                       vector_entry_point="savanna.vector_env:SavannaVectorEnv",
                       kwargs={"game": name})
    return GAMES[name]


def _module_name(what, value, default):
    """``value``, a module's dotted name as a registration declares it, or ``default`` when it
    is None; anything else is a ValueError saying what ``what`` must be."""
    if value is None:
        return default
    if not (isinstance(value, str) and all(part.isidentifier() for part in value.split("."))):
        raise ValueError(f"{what} must be a module name such as {default!r}, got {clip(value)}")
    return value


def load_entry(table, name, kind):
    """Import what ``table[name]`` names as ``"module:attr"``; a ValueError listing the known
    names when ``name`` is unknown. ``kind`` ("game", "agent") words the messages."""
    if not isinstance(name, str) or name not in table:  # a list from a JSON file is no name
        raise ValueError(f"unknown {kind} {clip(name)}; available: {', '.join(sorted(table))}")
    module, attr = table[name].split(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except Exception as err:  # a plug-in's bug, or a hook its declarations need: one line
        raise ValueError(f"{kind} {name!r} is not available ({type(err).__name__}: "
                         f"{err})") from None


def game_class(name):
    """The Game class registered under ``name``, or a ValueError listing the known names."""
    return load_entry({n: entry.entry_point for n, entry in GAMES.items()}, name, "game")


def make_game(name, **options):
    """An instance of game ``name`` with its options, e.g.
    ``make_game("zebres", board="president")``; an option the game does not take is a
    ValueError listing those it does."""
    return _construct(name, options, "")


def _construct(name, options, also):
    """``game_class(name)(**options)`` after checking that the game takes every option; the
    error names the game and its options (``also``: where else an unknown keyword might have
    been meant)."""
    cls = game_class(name)
    params = inspect.signature(cls).parameters
    unknown = sorted(set(options) - set(params))
    if unknown and not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        raise ValueError(f"game {name!r}: unknown setting {clip(unknown)}: not a {name} option "
                         f"({', '.join(params) or 'none'}){also}")
    try:
        return cls(**options)
    except TypeError as err:  # a value of the wrong kind: one line, as for any bad input
        raise ValueError(f"game {name!r}: {err}") from None


def resolve_game(game, options):
    """A Game instance from a name (with options) or an instance (without). An option the
    game does not take is a ValueError listing those it does (the environments pass every
    keyword they do not know to the game, so a misspelt env setting lands here too)."""
    from savanna.game import Game  # here: the registry itself loads no numba

    if isinstance(game, Game):
        if options:
            raise ValueError(f"game options {sorted(options)} given with a game instance; "
                             "pass the game's name instead")
        return game
    if isinstance(game, str):
        return _construct(game, options, ", nor a setting of the environment (environments "
                                         "pass other keywords to the game)")
    raise ValueError(f"game must be a name or a Game, got {clip(type(game).__name__)}")
