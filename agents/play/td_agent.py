"""The TD player: a value network trained by TD(lambda) self-play (``savanna train td``)
choosing by 0-, 1- or 2-ply expectimax over chance, and the same value as MCTS's leaf
evaluator (``mcts:value=td:PATH``).

``td:PATH`` plays a model file (a run's ``best.pt`` or ``last.pt``), ``td:baseline`` the one
shipped for the game and player count (``agents/models/td_baselines/<game>-<players>p.pt``).
``ply=0`` takes the action whose afterstate the network values most for the mover; ``ply=1``
averages over the chance that follows (every outcome of a single chance node, else
``samples`` draws of a chain such as a roll of several dice) and lets the next mover answer
at 0-ply (GNU Backgammon's 1-ply); ``ply=2`` one level more (``savanna.agents.play._td_kernels``).
The agent reads the state it is handed through ``observe`` from the seat of each player it
values, so in a hidden-information game it decides from what its seat may see when it is
handed a state redrawn from that seat's view (the arena's way).

>>> from savanna import make_game
>>> from savanna.agents.play.registry import make_agent
>>> agent = make_agent("td:baseline,ply=1")  # doctest: +SKIP
"""
from importlib import resources

import numpy as np

from savanna.agents.models.td_checkpoint import load_model, net_from_contents
from savanna.agents.models.td_value import new_work, observed_value
from savanna.agents.play import _td_kernels
from savanna.agents.play.base import random_argmax
from savanna.errors import check_at_least, check_range
from savanna.game import Game
from savanna.metadata import game_options
from savanna.rng import as_generator, make_streams

__all__ = ["BASELINE", "LeafValues", "TDAgent", "baseline_path", "buffers"]

BASELINE = "baseline"
DEPTHS = 5  # rows of the search buffers: a 2-ply search reaches row 4


def baseline_path(game):
    """The shipped TD model of ``game`` and its player count; a one-line ValueError naming
    the shipped ones if there is none."""
    folder = resources.files("savanna.agents.models") / "td_baselines"
    name = f"{game.name}-{game.num_players}p.pt"
    shipped = sorted(p.name for p in folder.iterdir() if p.name.endswith(".pt"))
    if name not in shipped:
        raise ValueError(f"no TD baseline for {game.name} with {game.num_players} players; "
                         f"shipped: {', '.join(shipped) or 'none'}")
    return str(folder / name)


def buffers(game, samples, rng=None):
    """The search buffers of ``savanna.agents.play._td_kernels`` for ``game``."""
    width = max(game.max_chance_outcomes, samples, 1)
    slots = 1 + DEPTHS * (width + 4)
    return (np.zeros(slots, game.state_dtype), np.zeros((DEPTHS, game.num_actions), np.int16),
            np.zeros((DEPTHS, game.num_players), np.float32),
            np.zeros((DEPTHS, width), np.float64),
            np.zeros(max(game.max_chance_outcomes, 1), np.float64), make_streams(rng, 1))


class TDAgent:
    """A TD value network's player (see the module docstring).

    Its settings::

        checkpoint  a TD model file, or ``baseline``
        ply         0, 1 or 2: depth of the expectimax over chance and replies
        samples     draws per chain of chance nodes at ply >= 1 (a single chance node is
                    expanded in full)
    """

    name = "td"

    def __init__(self, checkpoint: str, ply: int = 1, samples: int = 8):
        check_range("ply", ply, 0, 2)
        check_at_least("samples", samples, 1)
        self.checkpoint, self.ply, self.samples = str(checkpoint), int(ply), int(samples)
        self._data = None if self.checkpoint == BASELINE else load_model(self.checkpoint)
        self._nets: dict = {}

    @classmethod
    def from_net(cls, net, game, label="training", ply=0, samples=8):
        """An agent on an in-memory network (a trainer's evaluations), for ``game`` only."""
        agent = cls.__new__(cls)
        agent.checkpoint, agent.ply, agent.samples = label, int(ply), int(samples)
        agent._data, agent._nets = None, {_key(game): net}
        return agent

    def settings(self) -> dict:
        return {"checkpoint": self.checkpoint, "ply": self.ply, "samples": self.samples}

    def net(self, game: Game) -> tuple:
        """The network for ``game``, checked against it (a ValueError if trained on another)."""
        key = _key(game)
        if key not in self._nets:
            if self._data is None and self.checkpoint != BASELINE:
                raise ValueError(f"this network plays {next(iter(self._nets))[0]}, not "
                                 f"{game.name}")
            data = (load_model(baseline_path(game), game) if self.checkpoint == BASELINE
                    else load_model(self.checkpoint, game))
            self._nets[key] = net_from_contents(data)
        return self._nets[key]

    def act(self, game: Game, states: np.ndarray, rng) -> np.ndarray:
        """The best action of each state at this agent's ply (ties at random)."""
        states = game.check_states(states)
        rng = as_generator(rng)
        net = self.net(game)
        kernels = game.compiled(_td_kernels)
        buf, work = buffers(game, self.samples, rng), new_work(net)
        obs = np.zeros(net[0].shape[0], np.uint8)
        values = np.empty((len(states), game.num_actions), np.float64)
        for i in range(len(states)):
            kernels.action_values(states, i, self.ply, self.samples, net, obs, work, buf,
                                  values[i])
        return random_argmax(values, rng)

    def values(self, game: Game, states: np.ndarray, seats) -> np.ndarray:
        """The network's value of each state for a seat (0 at the end): float64[n]."""
        states = game.check_states(states)
        net = self.net(game)
        out = np.empty(len(states), np.float64)
        seats = np.broadcast_to(np.asarray(seats, np.int64), (len(states),)).copy()
        game.compiled(_td_kernels).values_batch(states, seats, net,
                                                np.zeros(net[0].shape[0], np.uint8),
                                                new_work(net), out)
        return out

    def evaluator(self, game: Game) -> "LeafValues":
        """MCTS's leaf evaluator (``savanna.agents.play.mcts``) on this network for ``game``."""
        return LeafValues(self.net(game), game.num_players, f"td:{self.checkpoint}")


class LeafValues:
    """A TD network as MCTS's leaf evaluator: uniform priors over the legal actions; the
    mover's value from its observation, and for the other seats the rest of a zero-sum
    game's total shared equally (exact with two players). A plain object, so that an agent
    holding one can be sent to worker processes."""

    def __init__(self, net, players, name):
        self.net, self.players, self.__name__ = net, players, name
        self.work = new_work(net)

    def __call__(self, obs, mask, movers):
        flat = obs.reshape(len(obs), -1)
        values = np.empty((len(obs), self.players), np.float64)
        for j in range(len(obs)):
            v = observed_value(self.net, flat[j], self.work)
            values[j, :] = -v / max(self.players - 1, 1)
            values[j, movers[j]] = v
        return mask / np.maximum(mask.sum(axis=1, keepdims=True), 1), values


def _key(game):
    return game.name, repr(sorted(game_options(game).items())), game.num_players
