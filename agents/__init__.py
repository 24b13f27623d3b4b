"""Agents that play any Savanna game through one interface, and the arena that pits them.

    from agents import make_agent, play_match
    result = play_match(game, [make_agent("mcts:sims=500"), make_agent("greedy")], games=100)
    print(result.table())

Every agent has ``name``, ``settings()`` and ``act(game, states, rng) -> int64[n]``
(``agents.base``); ``agents.registry`` turns specs like ``mcts:sims=1000,c=1.4`` into agents.
"""
from agents.arena import play_match, tournament
from agents.base import Agent, describe
from agents.greedy import GreedyAgent
from agents.random_agent import RandomAgent
from agents.registry import AGENTS, make_agent
from agents.results import MatchResult, TournamentResult

__all__ = ["AGENTS", "Agent", "GreedyAgent", "MatchResult", "RandomAgent", "TournamentResult",
           "describe", "make_agent", "play_match", "tournament"]
