"""Agents that play any Savanna game through one interface, and the arena that pits them.

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match
>>> result = play_match(make_game("zebres"), [make_agent("mcts:sims=50"), make_agent("greedy")],
...                     games=4, workers=1)
>>> print(result.table())

Every agent has ``name``, ``settings()`` and ``act(game, states, rng) -> int64[n]``
(``savanna.agents.play.base``); ``savanna.agents.play.registry`` turns specs like
``mcts:sims=1000,c=1.4`` into agents. ``review(record)`` finds the mistakes of a recorded game
(``savanna.agents.play.review``).
"""
from savanna.agents.arena.matches import play_match, tournament
from savanna.agents.arena.results import MatchResult, TournamentResult
from savanna.agents.play.base import Agent, describe
from savanna.agents.play.greedy import GreedyAgent
from savanna.agents.play.random_agent import RandomAgent
from savanna.agents.play.registry import AGENTS, make_agent
from savanna.agents.play.review import Review, review

__all__ = ["AGENTS", "Agent", "GreedyAgent", "MatchResult", "RandomAgent", "Review",
           "TournamentResult", "describe", "make_agent", "play_match", "review", "tournament"]
