"""Savanna: fast, exact simulators of small board games for game-playing AI research."""
from savanna.game import CHANCE, TERMINAL, Game, Kernels
from savanna.registry import GAMES, make_game

__all__ = ["CHANCE", "TERMINAL", "GAMES", "Game", "Kernels", "make_game"]
