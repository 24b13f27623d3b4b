"""AlphaZero's self-play in processes of its own, beside the learner: every core busy.

``ProcessSelfPlay`` has ``SelfPlay``'s interface over ``processes`` servers
(``SelfPlayServer``, a ``SelfPlay`` of ``games / processes`` games each, also what the Ray
actors are). The servers stay one move ahead of the learner, so its weights are one round older
than in a run in one process: another run, but the same one for a seed and a process count, and
a checkpoint holds the move in flight, so a resumed run continues exactly.
"""
import types

import numpy as np
import torch

from savanna.agents import processes

__all__ = ["ProcessSelfPlay", "SelfPlayServer"]

COUNTED = ("search_seconds", "inference_seconds", "leaves")  # SelfPlay's search statistics


class SelfPlayServer:
    """A ``selfplay_class(game, config, rng)`` that plays with the weights it is given."""

    def __init__(self, selfplay_class, game, config, rng):
        torch.set_num_threads(config.threads)
        self.rng = rng
        self.selfplay = selfplay_class(game, config, rng)

    def play(self, weights, moves):
        """``moves`` moves of every game with ``weights``: ``(trajectories, counts)``, the
        counts being the games finished and the search's statistics during the call."""
        selfplay = self.selfplay
        selfplay.load_weights(weights)
        before = dict(selfplay.search.stats, games_finished=selfplay.games_finished)
        trajectories = selfplay.play(moves)
        after = dict(selfplay.search.stats, games_finished=selfplay.games_finished)
        return trajectories, {key: after[key] - before[key] for key in after}

    def state_dict(self):
        return {"selfplay": self.selfplay.state_dict(), "rng": self.rng.bit_generator.state}

    def load_state_dict(self, state):
        self.selfplay.load_state_dict(state["selfplay"])
        self.rng.bit_generator.state = state["rng"]


class ProcessSelfPlay:
    """``SelfPlay``'s interface over ``config.selfplay_processes`` processes (module
    docstring), each a ``selfplay_class``; ``rng`` seeds theirs; ``trajectories_class``
    holds a move's positions (``Trajectories``: its ``concatenate``)."""

    def __init__(self, selfplay_class, trajectories_class, game, config, rng):
        count = config.selfplay_processes
        share = config.__class__.from_dict({**config.to_dict(), "games": config.games // count,
                                            "selfplay_processes": 0})
        self.game, self.trajectories_class = game, trajectories_class
        self.servers = processes.Servers(
            SelfPlayServer, [(selfplay_class, game, share, r) for r in rng.spawn(count)],
            processes.context(), name="savanna-selfplay")
        self.weights = None
        self.in_flight, self.ready = False, None
        self.games_finished = 0
        self.search = types.SimpleNamespace(stats=dict.fromkeys(COUNTED, 0))

    def load_weights(self, weights):
        """The weights of the next move sent off (the one in flight keeps its own)."""
        self.weights = weights

    def play(self, moves=1):
        """The positions of the move finished last (waiting for it), the next one sent off."""
        if self.ready is None:
            if not self.in_flight:
                self._send(moves)
            self.ready = self._receive()
        done, self.ready = self.ready, None
        self._send(moves)
        return done

    def _send(self, moves):
        count = len(self.servers.processes)
        self.servers.call("play", [self.weights] * count, [moves] * count)
        self.in_flight = True

    def _receive(self):
        parts = []
        for trajectories, counts in self.servers.results():
            parts.append(trajectories)
            self.games_finished += counts.pop("games_finished")
            for key, value in counts.items():
                self.search.stats[key] += value
        self.in_flight = False
        return self.trajectories_class.concatenate(parts, self.game)

    def wait(self):
        """Wait for the move in flight (handed out by the next ``play``)."""
        if self.in_flight:
            self.ready = self._receive()

    def state_dict(self):
        """The servers' games and generators, and the finished move not yet handed out (the
        one in flight is waited for)."""
        self.wait()
        self.servers.call("state_dict")
        return {"processes": self.servers.results(), "games_finished": self.games_finished,
                "stats": dict(self.search.stats),
                "ready": None if self.ready is None else
                [torch.from_numpy(np.ascontiguousarray(column)) for column in self.ready]}

    def load_state_dict(self, state):
        if len(state["processes"]) != len(self.servers.processes):
            raise ValueError(f"it was written by a run of {len(state['processes'])} self-play "
                             f"processes, and this run has {len(self.servers.processes)}")
        self.servers.call("load_state_dict", state["processes"])
        self.servers.results()
        self.games_finished = int(state["games_finished"])
        self.search.stats.update(state["stats"])
        ready = state["ready"]
        self.ready = (None if ready is None else
                      self.trajectories_class._make(column.numpy() for column in ready))

    def close(self):
        self.servers.close()
