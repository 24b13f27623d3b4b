"""Dice race (a toy game): three players take turns; a die (1-3) is rolled for the player to
move, who steps one square or jumps the roll; the first to reach the goal wins. In the five
required modules only: its facts sit in ``_kernels.py`` and ``notation.py``, its pictures in
``game.py``. ``RaceGame`` is imported lazily, so that the registration loads no numba."""
from savanna.registry import register_game

register_game("race_toy", "race_toy.game:RaceGame", players=(3, 3), options={"goal": 6},
              configs=({}, {"goal": 4}))
