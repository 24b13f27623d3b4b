"""MCTS strength with 1,000 simulations (two players, seats swapped every game): the issues'
targets on Zèbres, Bonobo Beach and Banjooli Xeet (determinised search).

Slow (minutes): run by ``make check-full``; ``pytest -s`` shows the match tables. The score
counts a draw as half a win.
"""
import pytest

from savanna import make_game
from savanna.agents.arena.matches import play_match
from savanna.agents.play.greedy import GreedyAgent
from savanna.agents.play.mcts import MCTSAgent
from savanna.agents.play.random_agent import RandomAgent

zebres_game = pytest.importorskip("savanna.zebres.game")

GAMES = 200


@pytest.mark.slow
@pytest.mark.parametrize("opponent, target", [
    (RandomAgent(), 0.95),
    (GreedyAgent(), 0.65),
    (MCTSAgent(sims=100), 0.60),
], ids=["random", "greedy", "mcts100"])
def test_mcts_1000_simulations_beats(opponent, target):
    result = play_match(zebres_game.ZebresGame(), [MCTSAgent(sims=1000), opponent],
                        games=GAMES, seed=2026, workers=2, progress=False)
    print(result.table())  # the figures, shown with ``pytest -s``
    assert result.summary()[0]["score"] >= target, result.table()


@pytest.mark.slow
@pytest.mark.parametrize("name, opponent, target", [
    ("bonobo", RandomAgent(), 0.90),
    ("bonobo", GreedyAgent(), 0.60),
    ("banjooli", RandomAgent(), 0.75),
    ("banjooli", GreedyAgent(), 0.55),
], ids=["bonobo-random", "bonobo-greedy", "banjooli-random", "banjooli-greedy"])
def test_mcts_1000_simulations_beats_on_the_chance_games(name, opponent, target):
    result = play_match(make_game(name), [MCTSAgent(sims=1000), opponent],
                        games=GAMES, seed=2026, workers=2, progress=False)
    print(result.table())
    assert result.summary()[0]["score"] >= target, result.table()
