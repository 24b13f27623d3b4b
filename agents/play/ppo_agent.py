"""A trained PPO network as an agent, and as the prior and value evaluator of MCTS (PUCT).

``PPOAgent("runs/zebres-ppo-0-.../best.pt")`` plays the most probable legal action (ties
broken at random) or, with ``sample=True``, draws one from the masked policy; either way all
randomness comes from the ``rng`` given to ``act``. The registry spec is ``ppo:<path>``
(``ppo:runs/x/best.pt,sample=true``).

``agent.evaluator(game)`` is the PUCT evaluator ``(obs, mask, players) -> (priors, values)``
of ``savanna.agents.play.mcts``: priors are the masked policy; the network values the position for
the player to move, so ``values[j, players[j]] = v`` and, the games being zero-sum, every other
seat gets ``-v / (P - 1)`` (for two players, ``-v``).

Caveat for search: PPO's value is the expected return *against its training opponents*, not
a game value. With weak opponents in the pool it is optimistic for whoever is to move, which
a search can mistake for an advantage of keeping the move (a Zèbres placement followed by
one's own Impala move). Measured on Zèbres, the value of a 6M-step network correlated
negatively (-0.2) with the outcome of self-play games in their first 30 plies, positively
(+0.7) after ply 50. So ``PPOMCTSAgent`` blends it with random playouts by default.

``PPOMCTSAgent`` (registry ``ppo-mcts:<path>,sims=200``) is that search as an agent.

>>> from savanna import make_game
>>> from savanna.agents.models.ppo_config import PPOConfig
>>> from savanna.agents.training.ppo import Trainer
>>> Trainer(PPOConfig(game="zebres", hidden=(16, 16), seed=0)).save("best.pt", full=False)
>>> agent = PPOAgent("best.pt")                      # untrained here: a run's best.pt
>>> mcts = MCTSAgent(sims=200, evaluator=agent.evaluator(make_game("zebres")))
"""
import inspect

import numpy as np
import torch

from savanna.agents.models.checkpoint import check_game, quoted_path
from savanna.agents.models.networks import masked_log_probs
from savanna.agents.models.ppo_checkpoint import load_checkpoint, network_from_checkpoint
from savanna.agents.play.base import check_decisions, random_argmax
from savanna.agents.play.mcts import MCTSAgent
from savanna.errors import clip

__all__ = ["PPOAgent", "PPOMCTSAgent"]


class PPOAgent:
    """Plays a PPO checkpoint (see the module docstring)."""

    name = "ppo"

    def __init__(self, checkpoint: str, sample: bool = False):
        if not isinstance(sample, bool):
            raise ValueError(f"sample must be True or False, got {clip(sample)}")
        self.checkpoint = str(checkpoint)
        self.sample = sample
        self._data = load_checkpoint(self.checkpoint)
        self._net = None
        self._game_key = None

    @classmethod
    def from_network(cls, net, game, label="training", sample=False):
        """An agent on an in-memory network (the trainer's evaluations), for ``game`` only."""
        agent = cls.__new__(cls)
        agent.checkpoint, agent.sample, agent._data = label, bool(sample), None
        agent._net, agent._game_key = net, _game_key(game)
        return agent

    def settings(self):
        return {"checkpoint": self.checkpoint, **({"sample": True} if self.sample else {})}

    def network(self, game):
        """The network, checked against ``game`` (a ValueError if it was trained on another)."""
        if self._game_key != _game_key(game):
            if self._data is None:
                raise ValueError(f"this PPO network plays {self._game_key[0]}, not {game.name}")
            check_game(self._data, game, quoted_path(self.checkpoint))
            self._net = network_from_checkpoint(self._data, game)
            self._game_key = _game_key(game)
        return self._net

    @torch.no_grad()
    def policy(self, game, obs, mask):
        """``(log_probs float32[n, A], values float32[n])`` for player-relative observations."""
        logits, values = self.network(game)(obs)
        log_probs = masked_log_probs(logits, torch.from_numpy(np.asarray(mask, np.bool_)))
        return log_probs.numpy(), values.numpy()

    def act(self, game, states, rng):
        states = game.check_states(states)  # once: the calls below are unchecked
        api = game.unchecked
        mask = api.legal_mask(states)
        check_decisions(game, states, mask, self.name)  # no seat to observe from elsewhere
        log_probs, _ = self.policy(game, api.observe(states, api.current_player(states)), mask)
        if self.sample:
            gumbel = -np.log(-np.log(rng.random(log_probs.shape).clip(1e-20, None)))
            return np.where(mask, log_probs + gumbel, -np.inf).argmax(axis=1).astype(np.int64)
        return random_argmax(np.where(mask, log_probs, -np.inf), rng)

    def evaluator(self, game):
        """The PUCT evaluator for ``game`` (see the module docstring)."""
        self.network(game)
        others = 1.0 / max(game.num_players - 1, 1)

        def ppo_evaluator(obs, mask, players):
            log_probs, v = self.policy(game, obs, mask)
            priors = np.where(mask, np.exp(log_probs.astype(np.float64)), 0.0)
            values = np.repeat(-v[:, None].astype(np.float64) * others, game.num_players, axis=1)
            values[np.arange(len(v)), np.asarray(players, np.int64)] = v
            return priors, values

        return ppo_evaluator

    def __repr__(self):
        return f"PPOAgent({self.checkpoint!r}, sample={self.sample})"


class PPOMCTSAgent(MCTSAgent):
    """MCTS (PUCT) guided by a PPO checkpoint: its masked policy as the priors; a leaf's value
    is half the network's value, half a random playout (``rollout_weight=0.5``, AlphaGo's mix).

    The mix is what makes the network help the search (see the module docstring's caveat):
    on Zèbres at 100 simulations against ``mcts:sims=100`` (same ``c``, one playout per leaf
    too), a 10M-step network won 61.5% [56.6, 66.1] and 64.2% [59.4, 68.8] of 400 games
    (seeds 2027, 2028) with it, 53.5% with its value alone (``rollout_weight=0``, 400
    games), 54.0% with playouts alone (``rollout_weight=1``, 200 games). Small leaf batches
    keep the virtual losses of pending leaves from scattering a short search
    (``leaf_batch=16`` played far worse than ``4``)."""

    name = "ppo-mcts"

    def __init__(self, checkpoint: str, sims: int = 200, c: float = 1.4, leaf_batch: int = 4,
                 temperature: float = 0.0, rollout_weight: float = 0.5, rollouts: int = 1):
        super().__init__(sims=sims, c=c, leaf_batch=leaf_batch, temperature=temperature,
                         rollout_weight=rollout_weight, rollouts=rollouts)
        self.ppo = PPOAgent(checkpoint)

    def settings(self):
        out = {"checkpoint": self.ppo.checkpoint, "sims": self.sims, "c": self.c}
        for key in ("leaf_batch", "temperature", "rollout_weight", "rollouts"):
            if getattr(self, key) != inspect.signature(type(self)).parameters[key].default:
                out[key] = getattr(self, key)
        return out

    def trees(self, game, row, rng=None, *, check=True):
        self.evaluator = self.ppo.evaluator(game)
        return super().trees(game, row, rng, check=check)

    def __repr__(self):
        return f"PPOMCTSAgent({self.ppo.checkpoint!r}, sims={self.sims}, c={self.c})"


def _game_key(game):
    return game.name, tuple(game.obs_shape), game.num_actions, game.num_players
