"""Agents that play any Savanna game through one interface, the arena that pits them, and the
calls that analyse positions and train networks: what a notebook imports
(``docs/guides/public-api.md`` lists it all).

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match
>>> result = play_match(make_game("zebres"), [make_agent("mcts:sims=50"), make_agent("greedy")],
...                     games=4, workers=1)
>>> print(result.table())

Every agent has ``name``, ``settings()`` and ``act(game, states, rng) -> int64[n]``;
``make_agent`` turns specs like ``mcts:sims=1000,c=1.4`` into agents. Every name is imported
on first use, so that playing loads no trainer and no torch it does not need, and a module of
a room (``savanna.agents.settings``) loads no numba. ``review(record)`` finds the mistakes of
a recorded game, ``puzzles(review, record, player)`` makes them positions to retry.
"""
from savanna.lazy import lazy_names, moved_modules

# public name -> "module:attribute", imported on first use
_LAZY = {
    "play_match": "savanna.agents.arena.matches:play_match",
    "tournament": "savanna.agents.arena.matches:tournament",
    "MatchResult": "savanna.agents.arena.results:MatchResult",
    "TournamentResult": "savanna.agents.arena.results:TournamentResult",
    "Agent": "savanna.agents.play.base:Agent",
    "describe": "savanna.agents.play.base:describe",
    "GreedyAgent": "savanna.agents.play.greedy:GreedyAgent",
    "RandomAgent": "savanna.agents.play.random_agent:RandomAgent",
    "AGENTS": "savanna.agents.play.registry:AGENTS",
    "make_agent": "savanna.agents.play.registry:make_agent",
    "MCTSAgent": "savanna.agents.play.mcts:MCTSAgent",
    "PPOAgent": "savanna.agents.play.ppo_agent:PPOAgent",
    "PPOMCTSAgent": "savanna.agents.play.ppo_agent:PPOMCTSAgent",
    "AZAgent": "savanna.agents.play.az_agent:AZAgent",
    "AZPolicyAgent": "savanna.agents.play.az_agent:AZPolicyAgent",
    "Analysis": "savanna.agents.play.analysis:Analysis",
    "analyse": "savanna.agents.play.analysis:analyse",
    "Review": "savanna.agents.play.review:Review",
    "review": "savanna.agents.play.review:review",
    "accuracy_by_agent": "savanna.agents.play.review_scores:accuracy_by_agent",
    "by_agent": "savanna.agents.play.review_scores:by_agent",
    "Puzzle": "savanna.agents.play.puzzles:Puzzle",
    "puzzles": "savanna.agents.play.puzzles:puzzles",
    "Ladder": "savanna.agents.arena.ladder:Ladder",
    "PPOConfig": "savanna.agents.models.ppo_config:PPOConfig",
    "AZConfig": "savanna.agents.models.az_config:AZConfig",
    "DistillConfig": "savanna.agents.training.distill_config:DistillConfig",
    "FitConfig": "savanna.agents.training.fit_config:FitConfig",
    "PPOTrainer": "savanna.agents.training.ppo:Trainer",
    "AZTrainer": "savanna.agents.training.alphazero:Trainer",
    "distill": "savanna.agents.training.distill:distill",
    "load_dataset": "savanna.agents.training.distill:load_dataset",
    "fit": "savanna.agents.training.fit:fit",
    "save_model": "savanna.agents.training.fit:save_model",
}

__all__ = ["AGENTS", "AZAgent", "AZConfig", "AZPolicyAgent", "AZTrainer", "Agent", "Analysis",
           "DistillConfig", "FitConfig", "GreedyAgent", "Ladder", "MCTSAgent", "MatchResult",
           "PPOAgent", "PPOConfig", "PPOMCTSAgent", "PPOTrainer", "Puzzle", "RandomAgent",
           "Review", "TournamentResult", "accuracy_by_agent", "analyse", "by_agent", "describe",
           "distill",
           "fit", "load_dataset",
           "make_agent", "play_match", "puzzles", "review", "save_model",
           "tournament"]


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
moved_modules(__name__, {"tables": "savanna.agents.html_tables"})  # its old name, one release
