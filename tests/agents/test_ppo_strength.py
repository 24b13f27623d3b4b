"""PPO as the PUCT prior: the network of ``savanna train ppo zebres --steps 10M --seed 0`` makes
``ppo-mcts`` beat plain UCT at equal simulations (100 each, c = 1.4, one playout per leaf).

Slow (about 5 minutes on two idle cores: 3 of training, then a 400-game match): run by
``make check-full``; ``pytest -s`` shows the match table.
"""
import pytest

from savanna import make_game
from savanna.agents.arena.matches import play_match
from savanna.agents.models.ppo_config import PPOConfig
from savanna.agents.play.mcts import MCTSAgent
from savanna.agents.play.registry import make_agent
from savanna.cli.train_ppo import run_training


@pytest.mark.slow
def test_ppo_as_the_puct_prior_beats_plain_uct_at_equal_simulations(tmp_path):
    folder = run_training(PPOConfig(game="zebres", steps=10_000_000, seed=0), runs_dir=tmp_path,
                          progress=False, write=lambda *_: None)
    guided = make_agent(f"ppo-mcts:{folder / 'best.pt'},sims=100")
    result = play_match(make_game("zebres"), [guided, MCTSAgent(sims=100)], games=400,
                        seed=2027, workers=2, progress=False)
    print(result.table())
    low, _ = result.summary()[0]["win_ci"]
    assert low > 0.5, result.table()
