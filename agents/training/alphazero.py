"""AlphaZero's training with Gumbel search for any Savanna game: self-play, learner, trainer.

``SelfPlay`` turns weights into trajectories (many games searched at once), ``Learner`` turns
trajectories into weights (a replay window, Adam), and ``Trainer`` runs them in turn, in one
process or with self-play in processes of its own; a checkpoint resumes a run exactly. The
parts and their targets: the AlphaZero guide (docs/guides/alphazero.md).

A tiny run (the defaults search 1,024 games with 32 simulations each):

>>> from savanna.agents.models.az_checkpoint import save_checkpoint
>>> from savanna.agents.models.az_config import AZConfig
>>> trainer = Trainer(AZConfig(game="zebres", games=8, sims=4, hidden=(16, 16), batch_size=16,
...                            seed=0))
>>> for _ in range(3):
...     print(trainer.step())
{...}
>>> save_checkpoint(trainer.checkpoint(), "last.pt")
"""
import functools
import math
import time
from typing import NamedTuple

import numpy as np
import torch

from savanna.agents.models.az_checkpoint import CHECKPOINT, load_checkpoint, network_contents
from savanna.agents.models.az_config import AZConfig
from savanna.agents.models.features import active_features
from savanna.agents.models.inference import network_evaluator
from savanna.agents.models.networks import AZNet, cross_entropy, load_weights
from savanna.agents.play.gumbel import GumbelSearch
from savanna.agents.training.packing import pack, unpack
from savanna.agents.training.selfplay_processes import ProcessSelfPlay
from savanna.agents.training.trainer import Checkpoints
from savanna.game import CHANCE, TERMINAL
from savanna.registry import resolve_game

__all__ = ["Learner", "SelfPlay", "Trainer", "Trajectories", "az_loss"]


# ----- self-play --------------------------------------------------------------------------------
class Trajectories(NamedTuple):
    """Finished positions: what the learner trains on (relative seats throughout)."""

    obs: np.ndarray          # uint8[m, O]: the observation of the player to move
    mask: np.ndarray         # bool[m, A]: the legal actions
    policy: np.ndarray       # float32[m, A]: the search's improved policy
    value: np.ndarray        # float32[m, P]: the value target (``outcome_weight`` mixes the
                             # returns from the position on and the root value), seat k =
                             # mover + k

    @staticmethod
    def concatenate(parts, game):
        if not parts:
            p = game.num_players
            return Trajectories(np.empty((0, int(np.prod(game.obs_shape))), np.uint8),
                                np.empty((0, game.num_actions), np.bool_),
                                np.empty((0, game.num_actions), np.float32),
                                np.empty((0, p), np.float32))
        return Trajectories(*(np.concatenate(column) for column in zip(*parts)))


PENDING = ("obs", "mask", "policy", "player", "episode", "collected", "root")
TAKEN = -1  # the episode of a pending position once handed out


class SelfPlay:
    """``games`` games played by the search on the current weights (``load_weights``);
    ``play(moves)`` makes that many moves in every game and returns the positions of the games
    that ended (``Trajectories``)."""

    def __init__(self, game, config, rng):
        cfg = config
        self.game, self.rng = game, rng
        self.outcome_weight = cfg.outcome_weight
        self.net = AZNet.for_game(game, cfg.hidden).eval()
        self.search = GumbelSearch(game, cfg.sims, cfg.max_considered, cfg.value_scale,
                                   cfg.maxvisit_init, cfg.gumbel_scale, cfg.rollout_weight,
                                   cfg.value_range, cfg.determinizations, cfg.expect_chance)
        self.states = game.unchecked.init(cfg.games, rng)
        self.collected = np.zeros((cfg.games, game.num_players), np.float64)
        self.episode = np.arange(cfg.games, dtype=np.int64)
        self.next_episode = cfg.games
        self.pending = {key: [] for key in PENDING}  # positions of games not over yet
        self.finished = {}  # episode -> its returns, until its positions are handed out
        self.games_finished = 0
        self._settle()

    def load_weights(self, weights):
        self.net.load_state_dict(weights)

    def play(self, moves=1):
        """Makes ``moves`` searched moves in every game; the finished games' positions."""
        evaluate = network_evaluator(self.net)
        api = self.game.unchecked  # the kernels' own states: never checked
        for _ in range(moves):
            players = api.current_player(self.states)
            result = self.search.run(self.states, evaluate, self.rng, check=False)
            for key, value in zip(PENDING, (
                    api.observe(self.states, players).reshape(len(players), -1),
                    api.legal_mask(self.states), result.policy, players.astype(np.int64),
                    self.episode.copy(), self.collected.copy(), result.values)):
                self.pending[key].append(value)
            self.collected += api.step_inplace(self.states, result.actions)
            self._settle()
        return self._harvest()

    def _settle(self):
        """Samples chance outcomes and restarts ended games until every game is at a
        decision node; an ended game's returns are kept for its positions."""
        api = self.game.unchecked
        while True:
            players = api.current_player(self.states)
            ended = np.flatnonzero(players == TERMINAL)
            chance = np.flatnonzero(players == CHANCE)
            if len(ended):
                for g in ended:
                    self.finished[int(self.episode[g])] = self.collected[g].copy()
                self.games_finished += len(ended)
                self.states[ended] = api.init(len(ended), self.rng)
                self.collected[ended] = 0.0
                self.episode[ended] = self.next_episode + np.arange(len(ended))
                self.next_episode += len(ended)
            elif len(chance):
                sub = self.states[chance]
                api.apply_chance(sub, api.sample_chance(sub, self.rng))
                self.states[chance] = sub
            else:
                return

    def _harvest(self):
        """The pending positions of finished games, with their value targets. Each move's
        positions stay one block; a position handed out gets episode ``TAKEN`` and a block
        is dropped once all of its positions are, so a move costs what it hands out, not
        what is pending."""
        if not self.finished:
            return Trajectories.concatenate([], self.game)
        ended = np.fromiter(self.finished, np.int64)
        out, keep = {key: [] for key in PENDING}, []
        for i, episode in enumerate(self.pending["episode"]):
            done = np.isin(episode, ended)
            if done.any():
                for key in PENDING:
                    out[key].append(self.pending[key][i][done])
                episode[done] = TAKEN
            if (episode != TAKEN).any():
                keep.append(i)
        self.pending = {key: [parts[i] for i in keep] for key, parts in self.pending.items()}
        finished, self.finished = self.finished, {}
        if not out["obs"]:  # games that ended before any decision
            return Trajectories.concatenate([], self.game)
        done = {key: np.concatenate(parts) for key, parts in out.items()}
        final = np.array([finished[e] for e in done["episode"]])
        p = self.game.num_players
        seats = (done["player"][:, None] + np.arange(p)) % p
        outcome = np.take_along_axis(final - done["collected"], seats, axis=1)
        root = np.take_along_axis(done["root"], seats, axis=1)
        w = self.outcome_weight
        value = w * outcome + (1 - w) * root
        return Trajectories(done["obs"], done["mask"], done["policy"], value.astype(np.float32))

    def state_dict(self):
        return {"states": pack(self.states), "collected": torch.from_numpy(self.collected),
                "episode": torch.from_numpy(self.episode), "next_episode": self.next_episode,
                "games_finished": self.games_finished,
                "pending": {key: [torch.from_numpy(np.ascontiguousarray(v)) for v in parts]
                            for key, parts in self.pending.items()},
                "finished": {int(e): torch.from_numpy(v) for e, v in self.finished.items()}}

    def load_state_dict(self, state):
        self.states[:] = unpack(state["states"], self.states)
        self.collected[:] = state["collected"].numpy()
        self.episode[:] = state["episode"].numpy()
        self.next_episode = int(state["next_episode"])
        self.games_finished = int(state["games_finished"])
        self.pending = {key: [v.numpy() for v in parts] for key, parts in state["pending"].items()}
        self.finished = {int(e): v.numpy() for e, v in state["finished"].items()}


# ----- the learner ------------------------------------------------------------------------------
class Learner:
    """The network being trained, its optimizer and the replay window (a ring of the latest
    ``replay_window`` positions). ``add(trajectories)``, ``train(steps)``, ``weights()``."""

    def __init__(self, game, config, rng):
        cfg = self.config = config
        self.game, self.rng = game, rng
        self.net = AZNet.for_game(game, cfg.hidden)
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=cfg.lr,
                                           weight_decay=cfg.weight_decay, fused=True)
        w, obs_size = cfg.replay_window, int(np.prod(game.obs_shape))
        self.replay = Trajectories(np.zeros((w, obs_size), np.uint8),
                                   np.zeros((w, game.num_actions), np.bool_),
                                   np.zeros((w, game.num_actions), np.float32),
                                   np.zeros((w, game.num_players), np.float32))
        self.size = 0
        self.cursor = 0
        self.steps = 0

    def add(self, trajectories):
        """Puts positions in the window, overwriting the oldest."""
        w = self.config.replay_window
        m = len(trajectories.obs)
        kept = min(m, w)  # more than the window: only the newest fit
        rows = (self.cursor + np.arange(m - kept, m)) % w
        for store, new in zip(self.replay, trajectories):
            store[rows] = new[m - kept:]
        self.cursor = int((self.cursor + m) % w)
        self.size = min(w, self.size + m)

    def train(self, steps):
        """``steps`` Adam steps on minibatches drawn uniformly from the window; their mean
        losses (an empty dict when the window holds less than one batch)."""
        cfg = self.config
        if self.size < cfg.batch_size or steps < 1:
            return {}
        sums = {}
        for _ in range(steps):
            if cfg.lr_half_life:
                for group in self.optimizer.param_groups:
                    group["lr"] = cfg.lr * 0.5 ** (self.steps / cfg.lr_half_life)
            rows = self.rng.integers(0, self.size, cfg.batch_size)
            loss, stats = az_loss(self.net, *(column[rows] for column in self.replay),
                                  cfg.value_weight)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            for key, value in stats.items():
                sums[key] = sums.get(key, 0.0) + value
            self.steps += 1
        return {key: value / steps for key, value in sums.items()}

    def weights(self):
        """A copy of the network's weights, for self-play."""
        return {k: v.detach().clone() for k, v in self.net.state_dict().items()}

    def state_dict(self):
        """Weights, optimizer, counters and, with ``save_replay``, the replay window."""
        replay = self.config.save_replay
        return {"model": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
                "replay": [torch.from_numpy(column[:self.size]) for column in self.replay]
                if replay else None,
                "size": self.size if replay else 0, "cursor": self.cursor if replay else 0,
                "steps": self.steps}

    def load_state_dict(self, state):
        self.net.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.size, self.cursor, self.steps = (int(state[k]) for k in ("size", "cursor", "steps"))
        for store, saved in zip(self.replay, state["replay"] or ()):
            store[:self.size] = saved.numpy()


def az_loss(net, obs, mask, policy, value, value_weight, policy_weight=1.0):
    """``policy_weight`` times the cross-entropy of the masked policy to the search's policy
    (the fused head of ``savanna.agents.models.networks``, at the legal actions only) plus
    ``value_weight`` times the squared error of the value vector (the mean over seats, so that
    it reads the same for any number of players); and their values."""
    hidden = net.encode(torch.from_numpy(active_features(obs)))
    policy_loss = cross_entropy(hidden, net.policy, torch.from_numpy(mask),
                                torch.from_numpy(policy)).mean()
    value_loss = ((net.value(hidden) - torch.from_numpy(value)) ** 2).mean()
    support = policy[policy > 0]
    entropy = -(support * np.log(support)).sum() / len(policy)
    stats = {"policy_loss": policy_loss.item(), "value_loss": value_loss.item(),
             "policy_kl": policy_loss.item() - float(entropy)}
    return policy_weight * policy_loss + value_weight * value_loss, stats


# ----- the trainer ------------------------------------------------------------------------------
PACE = 1.25  # the learner's steps in a move, at most, against their mean so far (Trainer._pace)


class Trainer(Checkpoints):
    """One AlphaZero run: self-play and learner in turn (see the module docstring), in the
    shape of every trainer (``savanna.agents.training.trainer.Trainer``).
    ``game`` overrides the config's game name with an instance (e.g. a test game; with
    ``selfplay_processes`` it must pickle). ``selfplay(game, config, rng)`` makes the
    self-play: by default ``SelfPlay`` here or, with ``config.selfplay_processes``,
    ``savanna.agents.training.selfplay_processes.ProcessSelfPlay`` beside the learner (``close()``
    stops its processes); or anything with their ``play``, ``load_weights``,
    ``games_finished``, ``search.stats`` and state dicts
    (``savanna.agents.training.selfplay_ray.RaySelfPlay``: actors on a Ray cluster)."""

    UNIT = "move"  # one move of every self-play game, and the learner's share of steps
    FILES = CHECKPOINT

    def __init__(self, config, game=None, selfplay=None, init_weights=None):
        self.config = cfg = config
        if selfplay is None:
            selfplay = (functools.partial(ProcessSelfPlay, SelfPlay, Trajectories)
                        if cfg.selfplay_processes else SelfPlay)
        elif cfg.selfplay_processes:
            raise ValueError("selfplay_processes plays self-play in local processes: it does "
                             "not go with another self-play (such as --backend ray)")
        self.game = game if game is not None else resolve_game(cfg.game, cfg.game_options)
        torch.set_num_threads(cfg.threads)
        torch.manual_seed(cfg.seed)
        self.play_rng = np.random.default_rng([cfg.seed, 0])
        self.learn_rng = np.random.default_rng([cfg.seed, 1])
        self.learner = Learner(self.game, cfg, self.learn_rng)
        if init_weights is not None:
            load_weights(self.learner.net, init_weights)
        self.selfplay = selfplay(self.game, cfg, self.play_rng)
        self.selfplay.load_weights(self.learner.weights())
        self.moves = 0          # self-play rounds (one move of every game each)
        self.positions = 0      # positions handed to the learner
        self.credit = 0.0       # learner steps owed to the positions received
        self.timing = {"learn_seconds": 0.0}

    @property
    def count(self):
        """Self-play moves so far."""
        return self.moves

    def step(self):
        """One move of every self-play game, then the learner's share of steps; returns the
        learner's metrics (empty until the window holds a batch)."""
        cfg = self.config
        trajectories = self.selfplay.play(1)
        self.moves += 1
        self.positions += len(trajectories.obs)
        started = time.perf_counter()
        self.learner.add(trajectories)
        self.credit += cfg.reuse * len(trajectories.obs) / cfg.batch_size
        steps = min(int(self.credit), self._pace()) if self.learner.size >= cfg.batch_size else 0
        self.credit -= steps
        metrics = self.learner.train(steps)
        if steps:
            self.selfplay.load_weights(self.learner.weights())
        self.timing["learn_seconds"] += time.perf_counter() - started
        return metrics

    def _pace(self):
        """The most learner steps of one move: a quarter more than the positions received
        so far owe per move. Positions arrive when their game ends, and games that started
        together end together; their steps are spread over the next moves rather than taken
        at once, while self-play in processes of its own would wait for the weights."""
        cfg = self.config
        return math.ceil(PACE * cfg.reuse * self.positions / (self.moves * cfg.batch_size))

    def close(self):
        """Stop the self-play processes, if any."""
        if hasattr(self.selfplay, "close"):
            self.selfplay.close()

    def counters(self):
        return {"moves": self.moves, "positions": self.positions,
                "learner_steps": self.learner.steps,
                "games_finished": self.selfplay.games_finished}

    def checkpoint(self, extra=None, full=True):
        """A checkpoint's contents: the network alone, or (``full``) everything to resume."""
        data = network_contents(self.game, self.config, self.learner.net.state_dict(),
                                self.counters(), extra)
        if full:
            data["trainer"] = {
                "learner": self.learner.state_dict(), "selfplay": self.selfplay.state_dict(),
                "credit": self.credit, "moves": self.moves, "positions": self.positions,
                "rng": {"play": self.play_rng.bit_generator.state,
                        "learn": self.learn_rng.bit_generator.state,
                        "torch": torch.get_rng_state()}}
        return data

    def agent(self, label):
        """The search on the current network, as evaluations play it (``eval_sims``, no root
        noise)."""
        from savanna.agents.play.az_agent import AZAgent

        cfg = self.config
        return AZAgent.from_network(self.learner.net, self.game, label, trained=cfg.to_dict(),
                                    sims=cfg.eval_sims, max_considered=cfg.max_considered)

    @classmethod
    def load(cls, path, game=None, selfplay=None, **overrides):
        """A trainer continuing exactly from the full checkpoint at ``path``; returns
        ``(trainer, extra)``. A run whose self-play was on Ray resumes only on Ray (its games
        in progress are not in the checkpoint)."""
        data = load_checkpoint(path, game)
        if selfplay is None and "restarts" in data.get("trainer", {}).get("selfplay", {}):
            raise ValueError("this run played its self-play on Ray (its games in progress are "
                             "not in the checkpoint): resume it with --backend ray")
        return cls.from_checkpoint(data, game, selfplay, **overrides)

    @classmethod
    def from_checkpoint(cls, data, game=None, selfplay=None, **overrides):
        """A trainer continuing exactly from a full checkpoint's contents (``overrides``
        change settings such as ``minutes``); returns ``(trainer, extra)``."""
        if "trainer" not in data:
            raise ValueError("this checkpoint holds a network only; resuming needs last.pt")
        trainer = cls(AZConfig.from_dict({**data["config"], **overrides}), game, selfplay)
        saved = data["trainer"]
        trainer.learner.load_state_dict(saved["learner"])
        try:
            trainer.selfplay.load_state_dict(saved["selfplay"])
        except BaseException:
            trainer.close()
            raise
        trainer.selfplay.load_weights(trainer.learner.weights())
        trainer.credit = float(saved["credit"])
        trainer.moves, trainer.positions = int(saved["moves"]), int(saved["positions"])
        trainer.play_rng.bit_generator.state = saved["rng"]["play"]
        trainer.learn_rng.bit_generator.state = saved["rng"]["learn"]
        torch.set_rng_state(saved["rng"]["torch"])
        return trainer, data["extra"]
