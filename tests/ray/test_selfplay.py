"""AlphaZero self-play on Ray actors: two actors on the two nodes fill the learner's window
with the latest weights, and the run goes on when an actor is killed."""
import pytest

from savanna.agents.models.az_config import AZConfig
from savanna.agents.training.alphazero import Trainer
from tests.agents.tiny_games import Nim

TINY = AZConfig(game="nim", games=8, sims=8, max_considered=4, hidden=(16,), batch_size=16,
                replay_window=4096)


@pytest.fixture
def release():
    """``release(selfplay)``: its actors are killed after the test, passed or failed (a failed
    test's traceback keeps its trainers, whose actors would hold the cluster's two CPUs and
    keep the next Ray test waiting)."""
    import ray

    selfplays = []
    yield selfplays.append
    for selfplay in selfplays:
        for actor in selfplay.actors:
            ray.kill(actor)


def test_two_actors_on_two_nodes_fill_the_buffer_and_outlive_a_killed_actor(two_nodes, release):
    import ray

    from savanna.agents.training.selfplay_ray import RaySelfPlay

    trainer = Trainer(TINY, Nim(), RaySelfPlay.factory(2))
    selfplay = trainer.selfplay
    release(selfplay)
    assert len(set(selfplay.nodes(timeout=300))) == 2  # one actor on each node
    while trainer.learner.steps == 0:
        trainer.step()
    filled = trainer.learner.size
    assert filled >= TINY.batch_size and selfplay.games_finished > 0
    ray.kill(selfplay.actors[0], no_restart=True)
    while selfplay.restarts == 0:
        trainer.step()
    before, steps = trainer.learner.size, trainer.learner.steps
    for _ in range(1000):  # new positions, and steps (a step may also spend older credit)
        trainer.step()
        if trainer.learner.size > before and trainer.learner.steps > steps:
            break
    assert trainer.learner.size > before and trainer.learner.steps > steps
    assert selfplay.restarts == 1
    assert len(ray.get([actor.node.remote() for actor in selfplay.actors])) == 2
    data = trainer.checkpoint()
    assert data["trainer"]["selfplay"] == {"games_finished": selfplay.games_finished,
                                           "restarts": 1}
    for actor in selfplay.actors:  # the CPUs are free again
        ray.kill(actor)
    resumed, _ = Trainer.from_checkpoint(data, Nim(), RaySelfPlay.factory(2))
    release(resumed.selfplay)
    steps = resumed.learner.steps
    while resumed.learner.steps == steps:
        resumed.step()
    assert resumed.moves > data["counters"]["moves"] and resumed.selfplay.restarts == 1
