"""Agents that hurt the Ray worker running them, once: the arena's retry must hide it. They
play as ``RandomAgent`` (the same name, settings and moves), so the results can be compared
byte for byte with a match of random agents."""
import os
import time
from pathlib import Path

from savanna.agents.play.random_agent import RandomAgent


class DiesOnce(RandomAgent):
    """Ends its worker process at its first move anywhere (``marker`` records that it did)."""

    def __init__(self, marker):
        self.marker = str(marker)

    def act(self, game, states, rng):
        if not os.path.exists(self.marker):
            Path(self.marker).write_text(str(os.getpid()))
            os._exit(1)
        return super().act(game, states, rng)


class HangsOnNode(RandomAgent):
    """On node ``node_id``, writes ``marker`` and waits there (the test removes that node);
    elsewhere waits for the marker first, so that the other nodes stay busy until a task
    runs on that node (a minute at most)."""

    def __init__(self, node_id, marker):
        self.node_id, self.marker = node_id, str(marker)

    def act(self, game, states, rng):
        import ray

        if ray.get_runtime_context().get_node_id() == self.node_id:
            Path(self.marker).write_text("started")
            time.sleep(600)
        deadline = time.monotonic() + 60
        while not os.path.exists(self.marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        return super().act(game, states, rng)
