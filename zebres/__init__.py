"""Drôles de Zèbres (Bruno Cathala, 2004): place animals to win majorities in six sectors.

The registration below declares the game to Savanna (``savanna.registry``); ``ZebresGame``
is imported lazily, so that the declaration, ``savanna.zebres.notation`` and
``savanna.zebres.reference`` load without the kernels.
"""
from savanna.registry import register_game
from savanna.zebres import spec

register_game(
    "zebres", "savanna.zebres.game:ZebresGame",
    players=(spec.NUM_PLAYERS, spec.NUM_PLAYERS),
    options={"board": "standard", "first_placer": 1},
    configs=({}, {"board": "president"}, {"first_placer": 0}),
    env_id="savanna/Zebres-v0",
    reference="savanna.zebres.reference", twin="savanna.zebres.twin")

__all__ = ["ZebresGame"]


def __getattr__(name):
    if name == "ZebresGame":
        from savanna.zebres.game import ZebresGame
        return ZebresGame
    raise AttributeError(f"module 'zebres' has no attribute {name!r}")
