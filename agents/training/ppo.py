"""Masked PPO with self-play for any Savanna game, in one file (CleanRL's way): the rollout
buffer, the opponent pool, the loss and the trainer.

The learner holds one seat in each of ``num_envs`` games stepped by
``savanna.batch_play.BatchPlay`` (one compiled call per step); random, greedy and past
snapshots of the learner play the other seats in configured shares. How an update works, and
what a checkpoint holds: the PPO guide (docs/guides/training-ppo.md).

A tiny run (``savanna train ppo`` runs whole ones, evaluated and resumable):

>>> trainer = Trainer(PPOConfig(game="zebres", steps=2048, num_envs=64, rollout_len=16,
...                             hidden=(32, 32), seed=0))
>>> while trainer.global_step < trainer.config.steps:
...     print(trainer.step())
{...}
>>> trainer.save("last.pt")
"""
import copy
import functools
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from savanna.agents import processes
from savanna.agents.models.checkpoint import check_game, quoted_path
from savanna.agents.models.features import active_features, stack_features
from savanna.agents.models.networks import PolicyValueNet, log_prob_and_entropy, sample
from savanna.agents.models.ppo_checkpoint import CHECKPOINT, load_checkpoint
from savanna.agents.models.ppo_config import PPOConfig
from savanna.agents.play.greedy import GreedyAgent
from savanna.agents.training.data_parallel import GradientMean
from savanna.agents.training.packing import pack, unpack
from savanna.agents.training.trainer import Checkpoints
from savanna.batch_play import BatchPlay
from savanna.errors import clip
from savanna.game import Game
from savanna.registry import resolve_game

__all__ = ["RolloutBuffer", "Trainer", "group_sizes", "ppo_loss"]


def group_sizes(shares, n):
    """Games per opponent kind: ``n`` split by the shares (largest remainders), none empty
    unless its share rounds to nothing."""
    kinds = list(shares)
    exact = np.array([shares[k] * n for k in kinds])
    sizes = np.floor(exact).astype(int)
    for j in np.argsort(-(exact - sizes), kind="stable")[: n - sizes.sum()]:
        sizes[j] += 1
    return {k: int(s) for k, s in zip(kinds, sizes) if s > 0}


# ----- the rollout buffer -------------------------------------------------------------------
class RolloutBuffer:
    """Preallocated ``[T, N]`` arrays of one rollout, masks included (the loss reuses them);
    ``features[t]`` are step ``t``'s observations as ``active_features``."""

    def __init__(self, steps, envs, num_actions):
        self.features = [None] * steps
        self.masks = np.zeros((steps, envs, num_actions), np.bool_)
        self.actions = np.zeros((steps, envs), np.int64)
        self.log_probs = np.zeros((steps, envs), np.float32)
        self.values = np.zeros((steps, envs), np.float32)
        self.rewards = np.zeros((steps, envs), np.float32)
        self.dones = np.zeros((steps, envs), np.bool_)

    def advantages(self, last_values, gamma, lam):
        """GAE advantages and returns ``[T, N]``; ``last_values`` values the states after the
        rollout; ``dones[t]`` cuts the bootstrap where a game ended after step ``t``."""
        advantages = np.zeros_like(self.values)
        next_value = last_values
        next_advantage = np.zeros_like(last_values)
        for t in reversed(range(len(self.values))):
            alive = 1.0 - self.dones[t]
            delta = self.rewards[t] + gamma * next_value * alive - self.values[t]
            next_advantage = delta + gamma * lam * alive * next_advantage
            advantages[t] = next_advantage
            next_value = self.values[t]
        return advantages, advantages + self.values


# ----- the opponent pool --------------------------------------------------------------------
class SnapshotOpponent:
    """``policy(obs, mask) -> actions``: a frozen copy of the learner, sampled without grad."""

    def __init__(self, net, generator):
        self.net = copy.deepcopy(net).eval()
        self.generator = generator

    def load(self, weights):
        self.net.load_state_dict(weights)

    @torch.no_grad()
    def __call__(self, obs, mask):
        hidden = self.net.encode(torch.from_numpy(active_features(obs)))
        legal = torch.from_numpy(np.asarray(mask, np.bool_))
        return sample(hidden, self.net.policy, legal, self.generator)[0].numpy()


# ----- the trainer --------------------------------------------------------------------------
class Trainer(Checkpoints):
    """State and steps of one PPO run (see the module docstring), in the shape of every
    trainer (``savanna.agents.training.trainer.Trainer``: ``step``, ``count``, ``save``,
    ``load``, ``agent``). ``game`` overrides the config's game name with an instance (e.g. a
    test game that is not registered; with ``workers > 1`` it must pickle). With
    ``config.workers > 1`` this trainer is worker 0 and starts the others
    (``savanna.agents.training.data_parallel``; ``close()`` stops them); ``rank`` and ``mean``
    are what those are built with."""

    UNIT = "step"  # a learner decision
    FILES = CHECKPOINT

    def __init__(self, config, game=None, rank=0, mean=None):
        self.config = cfg = config
        self.game = game if game is not None else resolve_game(cfg.game, cfg.game_options)
        torch.set_num_threads(cfg.threads)
        self.rank, self.mean, self.workers = rank, mean, None
        # worker 0 draws as a run of one worker does; the others from streams of their own
        self.rng = np.random.default_rng(cfg.seed if rank == 0 else (cfg.seed, rank))
        torch.manual_seed(cfg.seed)  # the same first weights in every worker
        self.generator = torch.Generator().manual_seed(
            cfg.seed if rank == 0 else int(self.rng.integers(2**63)))
        self.net = PolicyValueNet.for_game(self.game, cfg.hidden)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, eps=1e-5,
                                          fused=True)
        self.opponent = SnapshotOpponent(self.net, self.generator)
        self.pool = [_frozen(self.net)]
        self.global_step = 0
        self.updates = 0
        self.next_snapshot = cfg.snapshot_every
        n = cfg.envs_per_worker
        self.buffer = RolloutBuffer(cfg.rollout_len, n, self.game.num_actions)
        if (cfg.shaping or "greedy" in cfg.opponents) and not self.game.has_scores:
            raise ValueError(f"shaping and greedy opponents need game scores, and "
                             f"{self.game.name} has none: use shaping=0 and no greedy share")
        self.groups = self._make_groups()
        self.episode_return = np.zeros(n, np.float64)
        for _, play in self.groups:
            play.seed(self.rng)
            play.reset()
            self._reset_ended(play)
        if cfg.workers > 1 and rank == 0:
            context = processes.context()
            count = sum(p.numel() for p in self.net.parameters())
            self.mean = GradientMean(count, cfg.workers, context)
            self.workers = processes.Servers(
                type(self), [(cfg, self.game, k, self.mean) for k in range(1, cfg.workers)],
                context, on_failure=self.mean.abort, name="savanna-ppo-worker")

    def close(self):
        """Stop the other workers' processes (nothing to do for a run of one worker)."""
        if self.workers is not None:
            self.workers.close()
            self.workers = None

    def _make_groups(self):
        opponents = {"self": self.opponent, "random": "random", "greedy": GreedyAgent()}
        sizes = group_sizes(self.config.opponents, self.config.envs_per_worker)
        return [(kind, BatchPlay(self.game, size, None, opponents[kind]))
                for kind, size in sizes.items()]

    def _slices(self):
        start = 0
        for kind, play in self.groups:
            yield kind, play, slice(start, start + play.n)
            start += play.n

    # ----- one update ---------------------------------------------------------------------
    @property
    def count(self) -> int:
        """Learner decisions so far (``global_step``)."""
        return self.global_step

    def step(self) -> dict:
        """Collect one rollout, learn from it; returns the update's metrics (a flat dict: the
        losses are means over the workers, the episode figures over all their games)."""
        lr = self.learning_rate()
        if self.workers is not None:
            self.workers.call("local_update")
        finished, metrics = self.local_update()
        every = [metrics]
        if self.workers is not None:
            for their_finished, their_metrics in self.workers.results():
                for kind, returns in their_finished.items():
                    finished[kind].extend(returns)
                every.append(their_metrics)
        metrics = {key: float(np.mean([m[key] for m in every])) for key in metrics}
        metrics.update(step=self.global_step, update=self.updates, lr=lr,
                       **_episode_stats(finished))
        return metrics

    def learning_rate(self):
        cfg = self.config
        return cfg.lr * max(0.0, 1.0 - self.global_step / cfg.steps) if cfg.anneal_lr else cfg.lr

    def local_update(self):
        """This worker's part of an update: ``(returns of the games that ended, by opponent
        kind; the loss metrics)``."""
        cfg = self.config
        for group in self.optimizer.param_groups:
            group["lr"] = self.learning_rate()
        self._choose_snapshot()
        finished = self.collect()
        metrics = self.learn()
        self.updates += 1
        self.global_step += cfg.batch_size
        if self.global_step >= self.next_snapshot:
            self.pool = (self.pool + [_frozen(self.net)])[-cfg.pool_size:]
            self.next_snapshot += cfg.snapshot_every
        return finished, metrics

    def _choose_snapshot(self):
        """The weights the "self" opponents play with during the next rollout."""
        if self.rng.random() < self.config.latest_share:
            self.opponent.load(self.net.state_dict())
        else:
            self.opponent.load(self.pool[self.rng.integers(len(self.pool))])

    def observations(self):
        """The learner's observations and masks across all groups: ``(uint8, bool)`` arrays."""
        obs = np.concatenate([play.obs for _, play in self.groups])
        mask = np.concatenate([play.mask for _, play in self.groups]).astype(np.bool_)
        return obs, mask

    @torch.no_grad()
    def collect(self):
        """Play ``rollout_len`` steps of every game into the buffer; returns the returns of
        the games that ended, by opponent kind."""
        finished = {kind: [] for kind, _ in self.groups}
        acting = {kind: np.ones(play.n, np.bool_) for kind, play in self.groups}
        potential = self._potential()
        with self.net.fixed_weights(), self.opponent.net.fixed_weights():
            for t in range(self.config.rollout_len):
                self._collect_step(t, acting, finished, potential)
                if self.config.shaping:
                    potential = self._potential()
        return finished

    def _collect_step(self, t, acting, finished, potential):
        """Step ``t`` of a rollout: the learner moves in every game, the opponents reply, the
        games that ended restart (their returns added to ``finished``)."""
        buf = self.buffer
        obs, mask = self.observations()
        buf.features[t], buf.masks[t] = active_features(obs), mask
        hidden = self.net.encode(torch.from_numpy(buf.features[t]))
        actions, log_probs = sample(hidden, self.net.policy, torch.from_numpy(mask),
                                    self.generator)
        buf.actions[t], buf.log_probs[t] = actions, log_probs
        buf.values[t] = self.net.value(hidden).squeeze(-1)
        for kind, play, sl in self._slices():
            play.step(buf.actions[t, sl], acting[kind])
            buf.rewards[t, sl] = play.rewards()
            buf.dones[t, sl] = play.terminal()
        self.episode_return += buf.rewards[t]
        if self.config.shaping:
            buf.rewards[t] += self._potential() - potential
        for kind, play, sl in self._slices():
            ended = buf.dones[t, sl]
            if ended.any():
                finished[kind].extend(self.episode_return[sl][ended].tolist())
                self.episode_return[sl][ended] = 0.0
                play.reset(ended)
                self._reset_ended(play)

    def _potential(self):
        """``Phi`` of every game's state for its learner: ``shaping *`` the learner's score
        lead over the best other seat, 0 at the end of a game (and without shaping)."""
        if not self.config.shaping:
            return np.zeros(self.config.envs_per_worker, np.float32)
        leads = []
        for _, play in self.groups:
            scores = np.asarray(self.game.unchecked.scores(play.states), np.float64)
            rows = np.arange(play.n)
            own = scores[rows, play.seats]
            scores[rows, play.seats] = -np.inf
            lead = own - scores.max(axis=1) if scores.shape[1] > 1 else own
            leads.append(np.where(play.terminal(), 0.0, lead))
        return (self.config.shaping * np.concatenate(leads)).astype(np.float32)

    def _reset_ended(self, play):
        """Restart games that ended before the learner's first decision (no transition)."""
        for _ in range(100):
            ended = play.terminal()
            if not ended.any():
                return
            play.reset(ended)
        raise RuntimeError(f"{self.game.name}: games keep ending before the learner moves")

    def learn(self):
        """``epochs`` passes of clipped PPO over the buffer, in shuffled minibatches (each
        worker its own games' buffer; the gradients averaged over the workers, so each step
        is that of a minibatch of every worker's rows, but for the advantages normalized per
        worker)."""
        cfg, buf = self.config, self.buffer
        rows_in_all = buf.actions.size
        with torch.no_grad():
            obs, _ = self.observations()
            _, last_values = self.net(obs)
        advantages, returns = buf.advantages(last_values.numpy(), cfg.gamma, cfg.gae_lambda)
        batch = {
            "features": torch.from_numpy(stack_features(buf.features, obs.shape[1])),
            "legal": torch.from_numpy(buf.masks.reshape(rows_in_all, -1)),
            "actions": torch.from_numpy(buf.actions.reshape(-1)),
            "log_probs": torch.from_numpy(buf.log_probs.reshape(-1)),
            "values": torch.from_numpy(buf.values.reshape(-1)),
            "advantages": torch.from_numpy(advantages.reshape(-1)),
            "returns": torch.from_numpy(returns.reshape(-1)),
        }
        size = rows_in_all // cfg.minibatches
        orders = [torch.from_numpy(self.rng.permutation(rows_in_all)) for _ in range(cfg.epochs)]
        steps = [order[k * size:(k + 1) * size] for order in orders
                 for k in range(cfg.minibatches)]

        def minibatch(i):
            """Step ``i``'s rows of the batch (None after the last step)."""
            if i == len(steps):
                return None
            return {key: v.index_select(0, steps[i]) for key, v in batch.items()}

        parameters = list(self.net.parameters())
        sums = {}
        mb = minibatch(0)
        for i in range(len(steps)):
            loss, stats = ppo_loss(self.net, mb, cfg)
            self.optimizer.zero_grad()
            loss.backward()
            following = functools.partial(minibatch, i + 1)
            if self.mean is None:
                mb = following()
            else:  # the next rows are gathered while the other workers finish this step
                mb = self.mean.average(self.rank, parameters, following)
            nn.utils.clip_grad_norm_(parameters, cfg.max_grad_norm)
            self.optimizer.step()
            for key, value in stats.items():
                sums[key] = sums.get(key, 0.0) + value
        metrics = {key: value / len(steps) for key, value in sums.items()}
        variance = returns.var()
        metrics["explained_variance"] = float(
            1 - (returns - buf.values).var() / variance) if variance > 0 else float("nan")
        return metrics

    # ----- checkpoints --------------------------------------------------------------------
    def state_dict(self):
        """Everything a resumed run needs to continue exactly (see ``save``): the network,
        optimizer and counters that every worker shares, this worker's games and generators
        and, with ``workers > 1``, the other workers' (``workers``: one ``shard_state`` each)."""
        state = {
            "model": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "pool": self.pool,
            "counters": {"global_step": self.global_step, "updates": self.updates,
                         "next_snapshot": self.next_snapshot},
            **self.shard_state(),
        }
        state["rng"]["torch"] = torch.get_rng_state()
        if self.workers is not None:
            self.workers.call("shard_state")
            state["workers"] = self.workers.results()
        return state

    def shard_state(self):
        """This worker's own part of the state: its games and generators."""
        return {
            "rng": {"numpy": self.rng.bit_generator.state, "sampler": self.generator.get_state()},
            "envs": [{k: pack(v) for k, v in play.get_state().items()}
                     for _, play in self.groups],
            "episode_return": torch.from_numpy(self.episode_return.copy()),
        }

    def load_state_dict(self, state):
        shards = state.get("workers", [])
        if self.rank == 0 and len(shards) != self.config.workers - 1:
            raise ValueError(f"it was written by a run of {len(shards) + 1} workers, and this "
                             f"run has {self.config.workers}")
        if self.workers is not None:
            shared = {k: v for k, v in state.items() if k not in ("workers", "envs", "rng",
                                                                  "episode_return")}
            self.workers.call("load_state_dict", [
                {**shared, **shard, "rng": {**state["rng"], **shard["rng"]}} for shard in shards])
            self.workers.results()
        self.net.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.pool = list(state["pool"])
        counters = state["counters"]
        self.global_step = int(counters["global_step"])
        self.updates = int(counters["updates"])
        self.next_snapshot = int(counters["next_snapshot"])
        self.rng.bit_generator.state = state["rng"]["numpy"]
        torch.set_rng_state(state["rng"]["torch"])
        self.generator.set_state(state["rng"]["sampler"])
        for (_, play), saved in zip(self.groups, state["envs"]):
            current = play.get_state()
            play.set_state({k: unpack(saved[k], current[k]) for k in current})
        self.episode_return[:] = state["episode_return"].numpy()

    def checkpoint(self, extra: dict | None = None, full: bool = True) -> dict:
        """A checkpoint's contents (``save`` writes them): the network alone (``full=False``:
        enough to play, not to resume) or everything a resumed run needs; ``extra`` holds the
        run loop's own counters."""
        data = CHECKPOINT.header(self.game, self.config, extra, global_step=self.global_step)
        if full:
            data["trainer"] = self.state_dict()
        else:
            data["model"] = self.net.state_dict()
        return data

    def agent(self, label: str):
        """The current network playing its most probable legal move (evaluations)."""
        from savanna.agents.play.ppo_agent import PPOAgent

        return PPOAgent.from_network(self.net, self.game, label)

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None,
             **overrides: Any) -> tuple["Trainer", dict]:
        """A trainer continuing from a checkpoint; returns ``(trainer, extra)``. ``overrides``
        change settings (e.g. ``steps`` to train longer)."""
        data = load_checkpoint(path, need_trainer=True)
        config = PPOConfig.from_dict({**data["config"], **overrides})
        trainer = cls(config, game)
        check_game(data, trainer.game, quoted_path(path))
        try:
            trainer.load_state_dict(data["trainer"])
        except (KeyError, IndexError, TypeError, ValueError, RuntimeError) as err:
            trainer.close()
            raise ValueError(f"{quoted_path(path)} does not fit this run "
                             f"({type(err).__name__}: {clip(str(err))})") from None
        return trainer, data["extra"]


def ppo_loss(net, mb, cfg):
    """The PPO loss of one minibatch (log-probabilities under the minibatch's stored masks,
    ``legal``) and its statistics."""
    hidden = net.encode(mb["features"])
    values = net.value(hidden).squeeze(-1)
    new_log_prob, entropy = log_prob_and_entropy(hidden, net.policy, mb["legal"], mb["actions"])
    entropy = entropy.mean()
    log_ratio = new_log_prob - mb["log_probs"]
    ratio = log_ratio.exp()
    adv = mb["advantages"]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
    value_error = (values - mb["returns"]) ** 2
    if cfg.clip_value:
        clipped = mb["values"] + (values - mb["values"]).clamp(-cfg.clip, cfg.clip)
        value_error = torch.max(value_error, (clipped - mb["returns"]) ** 2)
    value_loss = 0.5 * value_error.mean()
    loss = policy_loss + cfg.vf_coef * value_loss - cfg.ent_coef * entropy
    with torch.no_grad():
        stats = {"policy_loss": float(policy_loss), "value_loss": float(value_loss),
                 "entropy": float(entropy),
                 "approx_kl": float(((ratio - 1) - log_ratio).mean()),
                 "clip_fraction": float(((ratio - 1).abs() > cfg.clip).float().mean())}
    return loss, stats


def _episode_stats(finished):
    """Mean return, win and loss rates of the games that ended, per opponent kind."""
    stats = {}
    every = [r for returns in finished.values() for r in returns]
    stats["episodes"] = len(every)
    stats["mean_return"] = float(np.mean(every)) if every else float("nan")
    for kind, returns in finished.items():
        r = np.asarray(returns)
        stats[f"train_win_{kind}"] = float((r > 0).mean()) if len(r) else float("nan")
    return stats


def _frozen(net):
    return {k: v.detach().clone() for k, v in net.state_dict().items()}
