"""``savanna warmup``: compile (and cache) every game's kernels, batch loops and MCTS search, so
that later processes start at once."""
import numpy as np

from savanna.registry import GAMES, game_class

__all__ = ["add_parser", "run"]


def add_parser(commands):
    """Register ``warmup`` on the ``savanna`` command's subparsers."""
    warm = commands.add_parser(
        "warmup", help="compile (and cache) every game's kernels and the MCTS search",
        description="Compile every game's kernels, batch loops and MCTS search into numba's "
                    "cache, so that later processes start at once.")
    warm.set_defaults(run=run)
    return warm


def run(args, extra=None):
    """Compile every game's kernels and its MCTS search into numba's cache."""
    from savanna.agents.mcts import MCTSAgent
    from savanna.vector_env import warmup

    for name in sorted(GAMES):  # one compiled copy serves every option and player count
        game = game_class(name)()
        MCTSAgent(sims=8).search(game, game.warmup(verbose=True), np.random.default_rng(0))
        warmup(game)
