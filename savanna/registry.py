"""Game names to classes, imported lazily so that the core imports no game."""
import importlib
import inspect

from savanna.errors import clip

GAMES = {
    "zebres": "savanna.zebres.game:ZebresGame",
    "bonobo": "savanna.bonobo.game:BonoboGame",
    "banjooli": "savanna.banjooli.game:BanjooliGame",
    # a yardstick for side-by-side benchmarks (OpenSpiel, pgx, PettingZoo), not a mission game
    "connect_four": "savanna.benchmarks.connect_four.game:ConnectFourGame",
}


def load_entry(table, name, kind):
    """Import what ``table[name]`` names as ``"module:attr"``; a ValueError listing the known
    names when ``name`` is unknown. ``kind`` ("game", "agent") words the messages."""
    if name not in table:
        raise ValueError(f"unknown {kind} {name!r}; available: {', '.join(sorted(table))}")
    module, attr = table[name].split(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as err:
        raise ValueError(f"{kind} {name!r} is not available yet ({err})") from None


def game_class(name):
    """The Game class registered under ``name``, or a ValueError listing the known names."""
    return load_entry(GAMES, name, "game")


def make_game(name, **options):
    """An instance of game ``name`` with its options, e.g.
    ``make_game("zebres", board="president")``; an option the game does not take is a
    ValueError listing those it does."""
    return _construct(name, options, "")


def _construct(name, options, also):
    """``game_class(name)(**options)`` after checking that the game takes every option; the
    error names them (``also``: where else an unknown keyword might have been meant)."""
    cls = game_class(name)
    params = inspect.signature(cls).parameters
    unknown = sorted(set(options) - set(params))
    if unknown and not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        raise ValueError(f"unknown setting {clip(unknown)}: not a {name} option "
                         f"({', '.join(params) or 'none'}){also}")
    return cls(**options)


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
