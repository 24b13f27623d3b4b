"""Game names to classes, imported lazily so that the core imports no game."""
import importlib

GAMES = {
    "zebres": "zebres.game:ZebresGame",
    "bonobo": "bonobo.game:BonoboGame",
    "banjooli": "banjooli.game:BanjooliGame",
    # a yardstick for side-by-side benchmarks (OpenSpiel, pgx, PettingZoo), not a mission game
    "connect_four": "benchmarks.connect_four.game:ConnectFourGame",
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
    """An instance of game ``name`` with its options, e.g. ``make_game("zebres", board="president")``."""
    return game_class(name)(**options)
