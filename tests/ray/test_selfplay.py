"""AlphaZero self-play on Ray actors: two actors on the two nodes fill the learner's window
with the latest weights, and the run goes on when an actor is killed."""

from savanna.agents.alphazero import AZConfig, Trainer
from tests.agents.tiny_games import Nim

TINY = AZConfig(game="nim", games=8, sims=8, max_considered=4, hidden=(16,), batch_size=16,
                replay_window=4096)


def test_two_actors_on_two_nodes_fill_the_buffer_and_outlive_a_killed_actor(two_nodes):
    import ray

    from savanna.experiments.ray_backend import RaySelfPlay

    trainer = Trainer(TINY, Nim(), RaySelfPlay.factory(2))
    selfplay = trainer.selfplay
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
    del trainer, selfplay  # their actors go with their handles: the CPUs are free again
    resumed, _ = Trainer.from_checkpoint(data, Nim(), RaySelfPlay.factory(2))
    steps = resumed.learner.steps
    while resumed.learner.steps == steps:
        resumed.step()
    assert resumed.moves > data["counters"]["moves"] and resumed.selfplay.restarts == 1
