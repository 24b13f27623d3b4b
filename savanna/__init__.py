"""Savanna: fast, exact simulators of small board games for game-playing AI research.

Importing ``savanna`` imports the packages named in the entry-point group ``savanna.games``
(``savanna.plugins``: the shipped games' and any installed plug-in's), each of which declares
its game in its ``__init__.py`` (``savanna.registry.register_game``); that registers their
Gymnasium ids (``ENV_IDS``), with string entry points: no game module is imported until a game
is made. It loads no numba (a declaration reads at most the game's pure-Python ``spec``):
``Game`` is imported from ``savanna.game`` on first use, ``Kernels`` from ``savanna.binding``,
``CHANCE`` and ``TERMINAL`` from ``savanna.codes``, so that the pure-Python modules (notations,
references, ``savanna.layout``) stay free of numba.
"""
import os

from savanna.lazy import lazy_names, moved_modules
from savanna.plugins import load_games
from savanna.registry import GAMES, make_game

__all__ = ["CHANCE", "TERMINAL", "ENV_IDS", "GAMES", "Game", "Kernels", "make_game"]

# The games, agents, applications and benchmarks import as savanna.zebres, savanna.agents, ...
# Installed, their folders sit inside this one; in a source checkout they sit beside it, and
# the folder above is searched too, so that every checkout (and worktree) imports its own.
if not os.path.isdir(os.path.join(__path__[0], "agents")):
    __path__.append(os.path.dirname(__path__[0]))

load_games()  # the shipped games and the plug-ins', each registering itself when imported
ENV_IDS = {name: entry.env_id for name, entry in GAMES.items()}  # the registered games' ids
# modules renamed for their job: the old names work for one release, warning
moved_modules(__name__, {"numbers": "savanna.number_parsing", "handouts": "savanna.reused_arrays"})


__getattr__, __dir__ = lazy_names(globals(), {
    "CHANCE": "savanna.codes:CHANCE", "TERMINAL": "savanna.codes:TERMINAL",
    "Game": "savanna.game:Game", "Kernels": "savanna.binding:Kernels"})
