"""Banjooli Xeet: an ostrich race for 2 to 5 players, each betting on the finishing order.

The registration below declares the game to Savanna (``savanna.registry``); ``BanjooliGame``
is imported lazily, so that the declaration, ``savanna.banjooli.notation`` and
``savanna.banjooli.reference`` load without the kernels.
"""
from savanna.banjooli import spec
from savanna.registry import register_game

register_game(
    "banjooli", "savanna.banjooli.game:BanjooliGame",
    players=(spec.MIN_PLAYERS, spec.MAX_PLAYERS),
    options={"terrain": 4, "special": "none", "berries": False},
    configs=({"num_players": 2}, {"num_players": 5, "berries": True},
             {"num_players": 3, "special": "random", "berries": True}),
    env_id="savanna/Banjooli-v0",
    reference="savanna.banjooli.reference", twin="savanna.banjooli.twin",
    random_setup=True)  # init deals the cards, shuffles the nests and draws the course

__all__ = ["BanjooliGame"]


def __getattr__(name):
    if name == "BanjooliGame":
        from savanna.banjooli.game import BanjooliGame
        return BanjooliGame
    raise AttributeError(f"module 'banjooli' has no attribute {name!r}")
