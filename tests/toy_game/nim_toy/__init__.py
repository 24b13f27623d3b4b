"""Nim (a toy game): three heaps, take any number of objects from one heap; whoever takes the
last object wins (loses, with ``misere=True``). ``NimGame`` is imported lazily, so that the
registration below loads no numba."""
from nim_toy import spec
from savanna.registry import register_game

register_game(
    "nim_toy", "nim_toy.game:NimGame",
    players=(spec.NUM_PLAYERS, spec.NUM_PLAYERS),
    options={"misere": False},
    configs=({}, {"misere": True}),
    env_id="savanna/NimToy-v0")
