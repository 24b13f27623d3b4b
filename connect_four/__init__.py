"""Connect four (6 rows, 7 columns) in the Game protocol: a yardstick, not a mission game.

It sits beside the mission games so that Savanna can be measured against OpenSpiel, pgx and
PettingZoo on a game they all implement, and the studies have a reference game without chance;
it is registered as ``connect_four`` so that envs,
agents and the arena accept it (the registration below). ``ConnectFourGame`` is imported
lazily, so that the declaration, the notation and the reference rules load without numba.
"""
from savanna.registry import register_game

register_game("connect_four", "savanna.connect_four.game:ConnectFourGame",
              env_id="savanna/Connect_four-v0", reference="savanna.connect_four.reference",
              twin="savanna.connect_four.twin")

__all__ = ["ConnectFourGame"]


def __getattr__(name):
    if name == "ConnectFourGame":
        from savanna.connect_four.game import ConnectFourGame
        return ConnectFourGame
    raise AttributeError(f"module 'savanna.connect_four' has no attribute {name!r}")
