"""The agent interface: one action for every state of a batch.

An agent is any object with

* ``act(game, states, rng) -> int64[n]``: a legal action for each state of the batch;
* ``name`` (optional): its registry name (``"random"``, ``"greedy"``, ``"mcts"``, ...); an agent
  made from an import path is named by that path, one without a name by its class's;
* ``settings() -> dict`` (optional): the constructor arguments that rebuild it, shown in result
  tables; by default the constructor's parameters read back from the attributes of the same
  names.

Every state handed to ``act`` is a decision node (the caller resolves chance nodes), possibly
of different players. In a game with hidden information it is what the seat to move may know,
not the referee's state: the others' secrets are redrawn consistently with what that seat has
seen (``savanna.seats.seat_act``, through which every caller asks an agent to move), so an
agent that reads the whole state reads only a possible world. An agent that must see the truth
sets ``oracle = True``; it is then named an oracle wherever it is listed (``describe``).
``rng`` is a ``numpy.random.Generator`` and the only source of randomness, so a seeded caller
replays exactly. Agents keep no state between calls: the arena may batch states of many games
and copy agents into worker processes.

>>> import numpy as np
>>> from savanna import make_game
>>> from savanna.agents import RandomAgent
>>> game = make_game("zebres")
>>> states = game.init(4, rng=0)
>>> agent = RandomAgent()
>>> actions = agent.act(game, states, np.random.default_rng(0))
>>> describe(agent)
'random'
"""
import inspect
from typing import Protocol, runtime_checkable

import numpy as np

from savanna.codes import CHANCE
from savanna.seats import ORACLE_MARK, is_oracle, seat_act

__all__ = ["Agent", "agent_name", "agent_settings", "check_decisions", "describe",
           "random_argmax", "seat_act"]

# Agent classes loaded from an import path, by the path that loads them again
# (``savanna.agents.play.registry`` fills it): a record names such an agent by its path.
IMPORT_PATHS: dict[type, str] = {}


@runtime_checkable
class Agent(Protocol):
    """What an agent must have: ``act`` (``name`` and ``settings()`` are optional)."""

    def act(self, game, states, rng) -> np.ndarray: ...


def describe(agent):
    """The agent's spec, e.g. ``'mcts:sims=1000,c=1.4'`` or, for an agent loaded by its import
    path, ``'mypkg.agents:MyAgent:depth=3'``; ``savanna.agents.play.registry.make_agent``
    turns it back into an equal agent (records and reviews name agents so, and the ladder
    rebuilds its agents from it). An oracle agent, which is handed the true state of a game
    with hidden information, is named so: ``'cheat (oracle)'`` (``savanna.seats``)."""
    settings = agent_settings(agent)
    spec = agent_name(agent) + ("" if not settings else ":" + ",".join(
        f"{k}={v}" for k, v in settings.items()))
    return spec + ORACLE_MARK if is_oracle(agent) else spec


def agent_name(agent):
    """The import path ``agent``'s class was loaded by, else its ``name``, else its class's
    import path (``module:Class``)."""
    cls = type(agent)
    return (IMPORT_PATHS.get(cls) or getattr(agent, "name", None)
            or f"{cls.__module__}:{cls.__qualname__}")


def agent_settings(agent):
    """``agent.settings()``, or by default the constructor's named parameters that the agent
    keeps as attributes of the same names."""
    if hasattr(agent, "settings"):
        return agent.settings()
    params = inspect.signature(type(agent)).parameters.values()
    return {p.name: getattr(agent, p.name) for p in params
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and hasattr(agent, p.name)}


def random_argmax(values, rng):
    """``int64[n]``: for each row of ``values [n, A]``, the column of a maximum, chosen
    uniformly at random among ties (values within 1e-9 of the maximum).

    With a bool legal mask as ``values`` this is a uniform random legal action.
    """
    values = np.asarray(values, np.float64)
    best = values.max(axis=1, keepdims=True)
    keys = rng.random(values.shape)
    keys[values < best - 1e-9 * np.maximum(1.0, np.abs(best))] = -1.0
    return keys.argmax(axis=1).astype(np.int64)


def check_decisions(game, states, mask, agent):
    """A ValueError naming the first of ``states`` that is no decision node (its row of the
    legal ``mask`` is empty: a chance node or the end), where ``agent`` (a name) cannot act:
    an action there would be an arbitrary, silently wrong answer."""
    empty = np.flatnonzero(~np.asarray(mask).any(axis=1))
    if len(empty):
        i = int(empty[0])
        chance = game.current_player(states[i : i + 1])[0] == CHANCE
        where = "a chance node (resolve it with apply_chance)" if chance else "the end"
        raise ValueError(f"{agent} acts at decision nodes; state {i} is at {where}")
