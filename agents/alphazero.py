"""AlphaZero with Gumbel search for any Savanna game, in one file: search, self-play, learner.

* **Search** (``GumbelSearch``): the trees of a whole batch of games live in one flat pool
  searched by compiled loops (``savanna.agents._az_kernels``). Each round every game descends to one
  leaf; the leaves of all games are evaluated in one forward pass of the network and backed
  up. The root uses Gumbel top-k sampling with sequential halving, the inside the paper's
  deterministic selection (Danihelka et al., ICLR 2022; mctx's ``gumbel_muzero_policy``), so
  that 16-64 simulations already improve the policy. Imperfect information: every tree
  starts from ``game.resample_hidden(state, player, rng)``, a draw of the hidden cards
  consistent with what the player to move knows (the network itself sees only observations);
  ``determinizations`` trees per state average their policies.
  With ``rollout_weight`` w > 0 a leaf's value mixes in one random playout from it (AlphaGo's
  ``(1 - w) * network + w * playout``): early in a run the value head knows nothing, a
  playout already something.
* **Network** (``savanna.agents.networks.AZNet``): PPO's trunk (a sparse first layer over the
  observation's active features, ``savanna.agents.features``), a policy head of one logit per
  action (masked softmax over the legal ones) and a value head of one output per player, in
  seats relative to the observer (output ``k`` is seat ``(observer + k) % P``).
* **Self-play** (``SelfPlay``): ``games`` games played at once, each move searched; chance nodes
  are sampled, ended games restarted. It turns weights into trajectories: every decision gives
  the observation, the legal mask, the policy target (the improved policy
  ``softmax(log prior + sigma(completed Q))``) and, once the game is over, the value target
  (the returns each player collected from that position to the end, relative seats).
* **Learner** (``Learner``): a replay window of the latest positions, Adam on cross-entropy to
  the policy targets plus the squared error of the value vector. Trajectories in, weights out:
  ``Learner.add(trajectories)``, ``Learner.train(steps)``, ``Learner.weights()``; ``SelfPlay``
  only needs ``load_weights``, so it could run in another process or machine.

``Trainer`` runs them in turn: one move of every self-play game, then as many learner steps as
keep each position sampled ``reuse`` times on average (spread over the moves: see
``Trainer._pace``), then the new weights to self-play; with
``selfplay_processes``, self-play runs in processes of its own, a move ahead of the learner
(``savanna.agents.selfplay_processes``).
Everything that decides the future of a run (weights, optimizer, replay window, the games in
progress and their pending positions, every random generator, counters) is in the checkpoint,
so a resumed run continues exactly.

A tiny run (the defaults search 1,024 games with 32 simulations each):

>>> trainer = Trainer(AZConfig(game="zebres", games=8, sims=4, hidden=(16, 16), batch_size=16,
...                            seed=0))
>>> for _ in range(3):
...     print(trainer.step())
{...}
>>> save_checkpoint(trainer.checkpoint(), "last.pt")
"""
import dataclasses
import functools
import math
import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch

from savanna.agents import _az_kernels
from savanna.agents._mcts_kernels import NODE_DTYPE
from savanna.agents.checkpoint import CheckpointFormat
from savanna.agents.features import active_features
from savanna.agents.inference import network_evaluator
from savanna.agents.mcts import compiled_search
from savanna.agents.networks import AZNet, cross_entropy, load_weights
from savanna.agents.packing import pack, unpack
from savanna.agents.selfplay_processes import ProcessSelfPlay
from savanna.agents.settings import (
    MAX_GAMES,
    MAX_SEED,
    check_hidden,
    check_maxima,
    check_positive,
    check_types,
    setting,
    settings_from_dict,
)
from savanna.errors import check_range, clip
from savanna.game import CHANCE, TERMINAL
from savanna.metadata import game_options
from savanna.registry import resolve_game
from savanna.rng import make_streams

__all__ = ["AZConfig", "CHECKPOINT", "GumbelSearch", "Learner", "SearchResult", "SelfPlay",
           "Trainer", "Trajectories", "compiled_az", "load_checkpoint", "network_contents",
           "network_evaluator", "save_checkpoint"]

# ----- configuration --------------------------------------------------------------------------
@dataclass
class AZConfig:
    """Every setting of a run; saved in full with each checkpoint and in ``config.json``."""

    game: str = setting("zebres", "the game's registry name")
    game_options: dict = setting({}, "the game's keyword options")
    seed: int = setting(0, "random seed", most=MAX_SEED)
    minutes: float = setting(60.0, "training time of the run (evaluations not counted)")
    games: int = setting(1024, "self-play games searched together (the leaf batch)",
                        most=65_536)
    sims: int = setting(32, "simulations per move", most=1_000_000)
    max_considered: int = setting(16, "root actions sampled by Gumbel top-k", most=65_536)
    value_scale: float = setting(0.1, "sigma(q) = (maxvisit_init + max N) * value_scale * q")
    maxvisit_init: float = setting(50.0, "visit offset of sigma(q) (see value_scale)")
    value_range: float = setting(0.0, "q divided by this fixed span before sigma (0: by the "
                                      "children's min-max, as mctx's rescale_values)")
    gumbel_scale: float = setting(1.0, "root noise scale (0: top-k of the prior alone)")
    rollout_weight: float = setting(0.0, "weight of one random playout in each leaf's value "
                                         "(AlphaGo's mix; 0: the network's value alone)")
    determinizations: int = setting(1, "hidden information: search trees per state, each from "
                                       "its own draw of the hidden cards (sims split "
                                       "between them)", most=1024)
    expect_chance: bool = setting(False, "chance nodes as Stochastic MuZero's: outcomes "
                                         "followed by probability, values their expectation "
                                         "(False: sampled and averaged)")
    hidden: tuple = setting((128, 128), "hidden layer widths")
    lr: float = setting(1e-3, "learning rate")
    weight_decay: float = setting(1e-4, "weight decay of the optimizer")
    batch_size: int = setting(512, "positions per learner step", most=1_048_576)
    replay_window: int = setting(65_536, "positions kept for the learner", most=16_777_216)
    reuse: float = setting(4.0, "learner samples per self-play position, on average")
    value_weight: float = setting(1.0, "weight of the value loss against the policy loss")
    outcome_weight: float = setting(1.0, "value target: (1 - w) * the search's root value + w "
                                         "* the game's outcome (1: AlphaZero's outcome; 0: "
                                         "expert iteration's root value)")
    lr_half_life: float = setting(0.0, "learner steps over which the learning rate halves "
                                       "(0: constant)")
    save_replay: bool = setting(False, "keep the replay window in last.pt, for a resume that "
                                       "continues exactly (without: a few MB, and a resumed "
                                       "run refills the window)")
    init: str = setting("", "the weights the run starts from: a checkpoint (savanna fit's "
                            "model.pt, a run's best.pt) or a distillation dataset folder "
                            "(fitted first, savanna.agents.fit; '': random)")
    log_every: int = setting(10, "self-play moves between two rows of metrics.csv")
    eval_minutes: float = setting(10.0, "training minutes between two ladder evaluations")
    eval_games: int = setting(100, "games per rung of the ladder", most=MAX_GAMES)
    eval_sims: int = setting(100, "simulations of the evaluated agent", most=1_000_000)
    ladder: tuple = setting(("mcts:sims=100", "mcts:sims=1000"),
                            "the agents evaluated against, one per rung")
    checkpoint_minutes: float = setting(5.0, "training minutes between two checkpoints")
    threads: int = setting(1, "torch threads (1: see savanna.agents.ppo on shared cores)",
                          most=1024)
    selfplay_processes: int = setting(0, "self-play in this many processes of their own, "
                                         "games split between them, one move ahead of the "
                                         "learner (0: in the learner's process, in turn)",
                                      most=256)

    def __post_init__(self):
        """Checks every setting's type, then its range: a one-line ValueError for anything
        else, also for settings read back from a checkpoint (never a TypeError)."""
        check_types(self, "AlphaZero")
        self.hidden = check_hidden(self.hidden)
        if not (isinstance(self.ladder, (list, tuple))
                and all(isinstance(a, str) for a in self.ladder)):
            raise ValueError(f"ladder must be agent specs, got {clip(self.ladder)}")
        self.ladder = tuple(self.ladder)
        check_positive(self, ("games", "sims", "max_considered", "determinizations",
                              "batch_size", "replay_window", "log_every", "eval_games",
                              "eval_sims", "threads"))
        check_maxima(self)
        check_range("selfplay_processes", self.selfplay_processes, 0)
        if self.selfplay_processes and self.games % self.selfplay_processes:
            raise ValueError(f"games ({self.games}) must be divisible by selfplay_processes "
                             f"({self.selfplay_processes})")
        for name in ("minutes", "lr", "reuse", "eval_minutes", "checkpoint_minutes"):
            check_range(name, getattr(self, name), 0, above=True)
        for name in ("value_scale", "maxvisit_init", "value_range", "gumbel_scale",
                     "weight_decay", "value_weight", "lr_half_life"):
            check_range(name, getattr(self, name), 0)
        for name in ("outcome_weight", "rollout_weight"):
            check_range(name, getattr(self, name), 0, 1)
        if self.replay_window < self.batch_size:
            raise ValueError(f"replay_window ({self.replay_window}) must hold at least one "
                             f"batch ({self.batch_size})")

    def to_dict(self):
        data = dataclasses.asdict(self)
        data["hidden"], data["ladder"] = list(self.hidden), list(self.ladder)
        return data

    @classmethod
    def from_dict(cls, data):
        return settings_from_dict(cls, data, "AlphaZero")


# ----- the batched search ---------------------------------------------------------------------
def compiled_az(game):
    """``savanna.agents._az_kernels`` bound to ``game`` (``Game.compiled``) and to the MCTS node
    helpers of ``savanna.agents._mcts_kernels``, compiled for the same game."""
    mcts = compiled_search(game)
    return game.compiled(_az_kernels, **{name: getattr(mcts, name) for name in (
        "expand", "materialise", "backup", "select_chance", "init_node")})


class SearchResult(NamedTuple):
    actions: np.ndarray      # int64[G]: the moves
    policy: np.ndarray       # float32[G, A]: the improved policies (zero where illegal)
    values: np.ndarray       # float64[G, P]: the roots' mean returns (absolute seats)


class _Pool:
    """The node and state arrays of a batch of trees (``savanna.agents._az_kernels``), grown on
    demand and kept from one search to the next."""

    def __init__(self, game, nodes, states):
        p = game.num_players
        self.nodes = np.empty(nodes, NODE_DTYPE)
        self.values = np.empty((nodes, p), np.float64)
        self.rewards = np.empty((nodes, p), np.float32)
        self.raw = np.empty((nodes, p), np.float32)
        self.log_priors = np.empty(nodes, np.float64)
        self.states = np.empty(states, game.state_dtype)
        self.counts = np.zeros(2, np.int64)

    @property
    def arrays(self):
        return (self.nodes, self.values, self.rewards, self.raw, self.log_priors, self.states,
                self.counts)

    def reserve(self, nodes, states):
        """Room for ``nodes`` more nodes and ``states`` more states (doubling what is short)."""
        used_nodes, used_states = int(self.counts[0]), int(self.counts[1])
        if len(self.nodes) - used_nodes < nodes:
            size = max(2 * len(self.nodes), used_nodes + nodes)
            for name in ("nodes", "values", "rewards", "raw", "log_priors"):
                setattr(self, name, _resized(getattr(self, name), size, used_nodes))
        if len(self.states) - used_states < states:
            size = max(2 * len(self.states), used_states + states)
            self.states = _resized(self.states, size, used_states)


def _resized(array, size, used):
    new = np.empty((size, *array.shape[1:]), array.dtype)
    new[:used] = array[:used]
    return new


class GumbelSearch:
    """Searches a batch of decision nodes at once (see the module docstring and
    ``savanna.agents._az_kernels``): ``run(states, evaluate, rng) -> SearchResult``. Its settings::

        sims            simulations per state
        max_considered  root actions drawn by Gumbel top-k (fewer if fewer are legal)
        value_scale, maxvisit_init   the scale of sigma(q)
        value_range     0: Q-values rescaled by their min and max (mctx's default); > 0: divided
                        by this fixed span (e.g. 2 for returns in [-1, 1]), so that small, noisy
                        differences make small, not sharp, policy targets
        gumbel_scale    the root noise (0: the prior's top-k, deterministic)
        rollout_weight  w: a leaf's value is ``(1 - w) * network value + w * the returns of one
                        random playout from it`` (AlphaGo's mix: the playout corrects a value
                        head that is still wrong, early in training above all; 0: none)
        determinizations  imperfect information: trees per state, each from its own draw of
                        the hidden cards (``sims`` split between them); the move maximises the
                        trees' mean improved policy, whose mean is the policy target
                        (determinized search, as ``mcts``' ``determinizations``: one draw makes
                        the search plan against cards the opponents may not hold)
        expect_chance   chance nodes as Stochastic MuZero's: the outcome furthest behind its
                        probability is followed and a chance node's value is the expectation
                        over its visited outcomes (False: outcomes sampled, values averaged)

    ``stats`` adds up the seconds spent in the compiled search and in the evaluator, and the
    leaves evaluated, for throughput reports.
    """

    def __init__(self, game, sims=32, max_considered=16, value_scale=0.1, maxvisit_init=50.0,
                 gumbel_scale=1.0, rollout_weight=0.0, value_range=0.0, determinizations=1,
                 expect_chance=False):
        self.game = game
        self.expect_chance = bool(expect_chance)
        self.trees = 1 if game.perfect_information else int(determinizations)
        self.sims = -(-int(sims) // self.trees)  # per tree
        self.table = _az_kernels.considered_visits(int(max_considered), self.sims)
        self.value_scale = float(value_scale)
        self.maxvisit_init = float(maxvisit_init)
        self.value_range = float(value_range)
        self.gumbel_scale = float(gumbel_scale)
        self.rollout_weight = float(rollout_weight)
        self.kernels = compiled_az(game)
        self.width = max(game.num_actions, game.max_chance_outcomes)
        self.pool = None
        self.stats = {"search_seconds": 0.0, "inference_seconds": 0.0, "leaves": 0}

    def run(self, states, evaluate, rng, *, check=True):
        """Searches every state of the batch (each a decision node) with ``evaluate(obs,
        mask) -> (priors float64[n, A], values float[n, P] relative)``; ``check=False`` for
        states already checked or made by the kernels (an agent checks its batch once)."""
        game, k = self.game, self.kernels
        if check:
            states = game.check_states(states)
        players = game.unchecked.current_player(states)
        if (players < 0).any():
            raise ValueError("the search needs decision nodes; state "
                             f"{int(np.flatnonzero(players < 0)[0])} is not one")
        if self.trees > 1:
            states, players = np.repeat(states, self.trees), np.repeat(players, self.trees)
        n = len(states)
        roots = states.copy() if game.perfect_information else _resampled(game.unchecked,
                                                                          states, players, rng)
        started = time.perf_counter()
        if self.pool is None or len(self.pool.nodes) < n:
            self.pool = _Pool(game, n * (self.sims + 1) * 16, n * (self.sims + 1) * 2)
        pool = self.pool
        pool.counts[:] = 0
        k.set_roots(*pool.arrays, roots)
        leaves = np.empty(n, np.int32)
        leaf_games = np.arange(n, dtype=np.int32)
        obs = np.empty((n, int(np.prod(game.obs_shape))), np.uint8)
        masks = np.empty((n, game.num_actions), np.bool_)
        leaf_players = np.empty(n, np.int64)
        sims_done = np.zeros(n, np.int32)
        k.collect_roots(pool.nodes, pool.states, n, leaves, obs, masks, leaf_players)
        self.stats["search_seconds"] += time.perf_counter() - started
        self._evaluate(evaluate, n, leaves, leaf_games, obs, masks, leaf_players, sims_done,
                       rng)
        started = time.perf_counter()
        sims_done[:] = 0  # the roots' evaluation is not a simulation
        gumbel = self.gumbel_scale * rng.gumbel(size=(n, game.num_actions))
        streams = make_streams(rng, n)
        while True:
            pool.reserve(n * self.width, 2 * n)
            got, short = k.descend(*pool.arrays, gumbel, self.table, sims_done, self.sims,
                                   self.value_scale, self.maxvisit_init, self.value_range,
                                   self.expect_chance, streams, leaves, leaf_games, obs, masks,
                                   leaf_players)
            if got:
                self.stats["search_seconds"] += time.perf_counter() - started
                self._evaluate(evaluate, got, leaves, leaf_games, obs, masks, leaf_players,
                               sims_done, rng)
                started = time.perf_counter()
            elif short:
                pool.reserve(2 * len(pool.nodes), 2 * len(pool.states))
            else:
                break
        policy = np.zeros((n, game.num_actions), np.float32)
        actions = np.empty(n, np.int64)
        values = np.empty((n, game.num_players), np.float64)
        k.root_results(pool.nodes, pool.values, pool.rewards, pool.raw, pool.log_priors, gumbel,
                       self.value_scale, self.maxvisit_init, self.value_range, policy, actions,
                       values)
        self.stats["search_seconds"] += time.perf_counter() - started
        if self.trees > 1:  # each state's trees: their mean policy and values
            policy = policy.reshape(-1, self.trees, game.num_actions).mean(axis=1)
            values = values.reshape(-1, self.trees, game.num_players).mean(axis=1)
            actions = policy.argmax(axis=1)  # zero where illegal, positive somewhere
        return SearchResult(actions, policy, values)

    def action_values(self, g):
        """After ``run``: ``float64[A, P]``, the mean returns (absolute seats) of the
        simulations through each root action of tree ``g`` (state ``g // determinizations``;
        NaN for actions never tried)."""
        nodes = self.pool.nodes
        first = nodes[g]["first_child"]
        kids = np.arange(first, first + nodes[g]["num_children"])
        kids = kids[nodes["visits"][kids] > 0]
        out = np.full((self.game.num_actions, self.game.num_players), np.nan)
        out[nodes["action"][kids]] = (self.pool.rewards[kids] + self.pool.values[kids]
                                      / nodes["visits"][kids, None])
        return out

    def _evaluate(self, evaluate, got, leaves, leaf_games, obs, masks, players, sims_done,
                  rng):
        started = time.perf_counter()
        priors, values = evaluate(obs[:got], masks[:got])
        self.stats["inference_seconds"] += time.perf_counter() - started
        self.stats["leaves"] += got
        started = time.perf_counter()
        if self.rollout_weight:
            w = self.rollout_weight
            values = (1 - w) * values + w * self._playouts(leaves[:got], players[:got], rng)
        self.pool.reserve(got * self.game.num_actions, 0)
        self.kernels.expand_and_backup(
            *self.pool.arrays, leaves[:got],
            leaf_games[:got], players[:got], np.ascontiguousarray(priors, np.float64),
            np.ascontiguousarray(values, np.float32), sims_done, self.expect_chance)
        self.stats["search_seconds"] += time.perf_counter() - started

    def _playouts(self, leaves, players, rng):
        """The returns of one random playout from each leaf, in its player's relative seats."""
        game, p = self.game, self.game.num_players
        states = self.pool.states[self.pool.nodes["slot"][leaves]]  # a copy, played in place
        returns = np.zeros((len(states), p), np.float32)
        game.drivers.random_playouts(states, make_streams(rng, len(states)), returns,
                                     np.zeros(len(states), np.int64))
        return np.take_along_axis(returns, (players[:, None] + np.arange(p)) % p, axis=1)


def _resampled(api, states, players, rng):
    """Each state redrawn from what its player to move knows (``resample_hidden`` of the
    game's unchecked calls ``api``)."""
    roots = states.copy()
    for p in np.unique(players):
        rows = np.flatnonzero(players == p)
        roots[rows] = api.resample_hidden(states[rows], int(p), rng)
    return roots


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
        self.states = game.init(cfg.games, rng)
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
        game = self.game
        for _ in range(moves):
            players = game.current_player(self.states)
            result = self.search.run(self.states, evaluate, self.rng, check=False)
            for key, value in zip(PENDING, (
                    game.observe(self.states, players).reshape(len(players), -1),
                    game.legal_mask(self.states), result.policy, players.astype(np.int64),
                    self.episode.copy(), self.collected.copy(), result.values)):
                self.pending[key].append(value)
            self.collected += game.step_inplace(self.states, result.actions)
            self._settle()
        return self._harvest()

    def _settle(self):
        """Samples chance outcomes and restarts ended games until every game is at a
        decision node; an ended game's returns are kept for its positions."""
        game = self.game
        while True:
            players = game.current_player(self.states)
            ended = np.flatnonzero(players == TERMINAL)
            chance = np.flatnonzero(players == CHANCE)
            if len(ended):
                for g in ended:
                    self.finished[int(self.episode[g])] = self.collected[g].copy()
                self.games_finished += len(ended)
                self.states[ended] = game.init(len(ended), self.rng)
                self.collected[ended] = 0.0
                self.episode[ended] = self.next_episode + np.arange(len(ended))
                self.next_episode += len(ended)
            elif len(chance):
                sub = self.states[chance]
                game.apply_chance(sub, game.sample_chance(sub, self.rng))
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
    (the fused head of ``savanna.agents.networks``, at the legal actions only) plus
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


class Trainer:
    """One AlphaZero run: self-play and learner in turn (see the module docstring).
    ``game`` overrides the config's game name with an instance (e.g. a test game; with
    ``selfplay_processes`` it must pickle). ``selfplay(game, config, rng)`` makes the
    self-play: by default ``SelfPlay`` here or, with ``config.selfplay_processes``,
    ``savanna.agents.selfplay_processes.ProcessSelfPlay`` beside the learner (``close()``
    stops its processes); or anything with their ``play``, ``load_weights``,
    ``games_finished``, ``search.stats`` and state dicts
    (``savanna.experiments.ray_backend.RaySelfPlay``: actors on a Ray cluster)."""

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


def network_contents(game, config, model, counters=None, extra=None):
    """A checkpoint's contents holding a network only: ``model`` (a state dict) trained with
    ``config`` (an ``AZConfig``) for ``game``."""
    return {"game": game.name, "game_options": game_options(game),
            "obs_shape": list(game.obs_shape), "num_actions": game.num_actions,
            "num_players": game.num_players, "config": config.to_dict(),
            "counters": counters or {}, "model": model, "extra": extra or {}}


# ----- checkpoint files (sealed and checked: savanna.agents.checkpoint) ---------------------
CHECKPOINT = CheckpointFormat(
    "savanna-az", 2,  # 2: the whole file sealed, the game options stored
    "AlphaZero", AZConfig.from_dict, AZNet,
    contents={"counters": dict, "model": dict},
    trainer_contents={"learner": dict, "selfplay": dict, "credit": float, "moves": int,
                      "positions": int, "rng": dict},
    value_per_player=True)


def save_checkpoint(data, path):
    """Writes checkpoint contents sealed with their SHA-256, atomically."""
    CHECKPOINT.save(data, path)


def load_checkpoint(path, game=None):
    """An AlphaZero checkpoint's contents, verified and checked in full before anything is
    built from them (``savanna.agents.checkpoint.CheckpointFormat.load``)."""
    return CHECKPOINT.load(path, game)


def network_from_checkpoint(data, game):
    """The network stored in checkpoint contents from ``load_checkpoint``, in eval mode."""
    return CHECKPOINT.network(data, game)
