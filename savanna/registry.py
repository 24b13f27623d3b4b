"""Game names to classes, imported lazily so that the core imports no game."""
import importlib

GAMES = {
    "zebres": "zebres.game:ZebresGame",
    "bonobo": "bonobo.game:BonoboGame",
    "banjooli": "banjooli.game:BanjooliGame",
}


def game_class(name):
    """The Game class registered under ``name``, or a ValueError listing the known names."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(sorted(GAMES))}")
    module, attr = GAMES[name].split(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as err:
        raise ValueError(f"game {name!r} is not available yet ({err})") from None


def make_game(name, **options):
    """An instance of game ``name`` with its options, e.g. ``make_game("zebres", board="president")``."""
    return game_class(name)(**options)
