"""Savanna: fast, exact simulators of small board games for game-playing AI research.

Importing ``savanna`` registers the Gymnasium ids ``savanna/Zebres-v0``, ``savanna/Bonobo-v0``
and ``savanna/Banjooli-v0`` (string entry points: no game is imported until it is made). It
loads neither numba nor any game: ``Game`` is imported from ``savanna.game`` on first use,
``Kernels`` from ``savanna.binding``, ``CHANCE`` and ``TERMINAL`` from ``savanna.codes``, so
that the pure-Python modules (notations, references, ``savanna.layout``) stay free of numba.
"""
import importlib
import os

import gymnasium

from savanna.registry import GAMES, make_game

# The games, agents, experiments and benchmarks import as savanna.zebres, savanna.agents, ...
# Installed, their folders sit inside this one; in a source checkout they sit beside it, and
# the folder above is searched too, so that every checkout (and worktree) imports its own.
if not os.path.isdir(os.path.join(__path__[0], "agents")):
    __path__.append(os.path.dirname(__path__[0]))

__all__ = ["CHANCE", "TERMINAL", "GAMES", "Game", "Kernels", "make_game"]


def __getattr__(name):
    if name in ("CHANCE", "TERMINAL"):
        return getattr(importlib.import_module("savanna.codes"), name)
    if name in ("Game", "Kernels"):
        module = "savanna.binding" if name == "Kernels" else "savanna.game"
        return getattr(importlib.import_module(module), name)
    raise AttributeError(f"module 'savanna' has no attribute {name!r}")

ENV_IDS = {name: f"savanna/{name.capitalize()}-v0" for name in GAMES}

for _name, _env_id in ENV_IDS.items():
    if _env_id not in gymnasium.registry:
        gymnasium.register(
            _env_id,
            entry_point="savanna.env:SavannaEnv",
            vector_entry_point="savanna.vector_env:SavannaVectorEnv",
            kwargs={"game": _name},
        )
