"""AlphaZero self-play on Ray actors (``savanna train az ... --backend ray --actors N``).

``RaySelfPlay`` stands in for ``SelfPlay`` in the AlphaZero trainer (trajectories in, weights
out): the learner's weights go into Ray's object store once per round, ``play`` returns the
trajectories of the actors that have finished and sends them off again, and an actor that dies
is replaced on a new seed. Unlike a local run, a Ray run is not replayed exactly by its seed,
and a resumed run starts new games. More: the Ray guide.
"""
import types

import numpy as np

from savanna.agents.distributed import connect
from savanna.agents.training.alphazero import SelfPlay, Trajectories
from savanna.agents.training.selfplay_processes import COUNTED, SelfPlayServer

__all__ = ["RaySelfPlay", "SelfPlayActor"]


class SelfPlayActor(SelfPlayServer):
    """One Ray actor: a ``SelfPlay`` on its own seed, playing with the weights it is given."""

    def __init__(self, game, config, seed):
        super().__init__(SelfPlay, game, config, np.random.default_rng(seed))

    def node(self):
        """The id of the Ray node this actor runs on."""
        import ray

        return ray.get_runtime_context().get_node_id()


class RaySelfPlay:
    """``SelfPlay``'s interface over ``actors`` Ray actors (see the module docstring);
    ``RaySelfPlay.factory(actors, address)`` is the ``selfplay`` argument of ``Trainer``."""

    def __init__(self, game, config, rng, actors=2, address=None):
        self.ray = connect(address)
        self.game, self.config, self.rng = game, config, rng
        self.remote = self.ray.remote(num_cpus=1, max_restarts=0)(SelfPlayActor).options(
            scheduling_strategy="SPREAD")
        self.actors = [self._start() for _ in range(actors)]
        self.calls = {}          # ObjectRef of a running call -> the actor's index
        self.weights = None
        self.games_finished = 0
        self.restarts = 0        # actors replaced after they died
        self.search = types.SimpleNamespace(stats=dict.fromkeys(COUNTED, 0))

    @classmethod
    def factory(cls, actors, address=None):
        if not isinstance(actors, int) or actors < 1:
            raise ValueError(f"actors must be a positive int, got {actors!r}")
        return lambda game, config, rng: cls(game, config, rng, actors, address)

    def _start(self):
        return self.remote.remote(self.game, self.config, int(self.rng.integers(2**63)))

    def load_weights(self, weights):
        self.weights = self.ray.put(weights)

    def play(self, moves=1):
        """The trajectories of every call finished by now (waiting for one at least)."""
        ray = self.ray
        for i in set(range(len(self.actors))) - set(self.calls.values()):
            self._send(i, moves)
        ready, rest = ray.wait(list(self.calls), num_returns=1)
        ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
        parts = []
        for ref in ready:
            i = self.calls.pop(ref)
            try:
                trajectories, counts = ray.get(ref)
            except ray.exceptions.RayActorError:  # its process or node died: a new actor
                self.actors[i] = self._start()
                self.restarts += 1
            else:
                parts.append(trajectories)
                self.games_finished += counts.pop("games_finished")
                for key, value in counts.items():
                    self.search.stats[key] += value
            self._send(i, moves)
        return Trajectories.concatenate(parts, self.game)

    def _send(self, i, moves):
        self.calls[self.actors[i].play.remote(self.weights, moves)] = i

    def nodes(self, timeout=None):
        """The node of each actor (waits until they run, ``timeout`` seconds at most)."""
        return self.ray.get([actor.node.remote() for actor in self.actors], timeout=timeout)

    def state_dict(self):
        return {"games_finished": self.games_finished, "restarts": self.restarts}

    def load_state_dict(self, state):
        """The counters of a Ray or local run's self-play (the games in progress of a local
        run are not taken over: the actors start their own)."""
        self.games_finished = int(state["games_finished"])
        self.restarts = int(state.get("restarts", 0))
