"""Bonobo Beach (Roland and Tobias Goslar, 2003): lay tiles on a beach of triangles and score
the spots where your pawns stand.

The registration below declares the game to Savanna (``savanna.registry``); ``BonoboGame``
is imported lazily, so that the declaration, ``savanna.bonobo.notation`` and
``savanna.bonobo.reference`` load without the kernels.
"""
from savanna.bonobo import spec
from savanna.registry import register_game

register_game(
    "bonobo", "savanna.bonobo.game:BonoboGame",
    players=(min(spec.PLAYER_COUNTS), max(spec.PLAYER_COUNTS)),
    configs=({"num_players": 2}, {"num_players": 3}, {"num_players": 4}),
    env_id="savanna/Bonobo-v0",
    reference="savanna.bonobo.reference", twin="savanna.bonobo.twin")

__all__ = ["BonoboGame"]


def __getattr__(name):
    if name == "BonoboGame":
        from savanna.bonobo.game import BonoboGame
        return BonoboGame
    raise AttributeError(f"module 'bonobo' has no attribute {name!r}")
