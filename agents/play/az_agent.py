"""AlphaZero checkpoints as agents: ``az:<checkpoint>[,sims=N]`` searches with the network,
``az-policy:<checkpoint>`` plays the network's most probable legal move.

The checkpoint ``baseline`` is the model shipped with the package for the game being played
and its number of players (``agents/models/baselines/<game>-<players>p.pt``, see ``baseline_path``),
so ``make_agent("az:baseline")`` plays any game that has one.

``AZAgent`` runs ``savanna.agents.play.gumbel.GumbelSearch`` on the whole batch of states it is
given (one network call per round for all of them) and plays the search's move: the best of
``gumbel + log prior + sigma(q)`` among the most visited root actions. At play time there is
no root noise by default (``gumbel_scale=0``: the prior's top-k, deterministic; noise helps
self-play explore and costs strength in a match). Where cards are hidden (Banjooli), the
simulations are split over ``determinizations`` trees, each from its own draw of what the
player to move cannot see, and the move is the best of their mean improved policy; the rollout
weight and the determinizations default to the network's settings (``savanna fit
--rollout-weight W --determinizations D`` stores them). All randomness comes from the ``rng``
given to ``act``. With ``time_budget`` (seconds per move) the simulation count of each call is what
fits the budget times its states at the cost per simulation round measured in the calls
before (at least 2), so that ``az`` and ``mcts`` can be compared at equal time per move.

>>> from savanna import make_game
>>> from savanna.agents.models.az_checkpoint import save_checkpoint
>>> from savanna.agents.models.az_config import AZConfig
>>> from savanna.agents.training.alphazero import Trainer
>>> trainer = Trainer(AZConfig(game="zebres", games=8, sims=4, hidden=(16, 16), batch_size=16,
...                            seed=0))
>>> save_checkpoint(trainer.checkpoint(), "best.pt")   # as a run saves its best network
>>> game = make_game("zebres")
>>> states = game.init(2, rng=0)
>>> agent = AZAgent("best.pt", sims=8)
>>> actions = agent.act(game, states, np.random.default_rng(0))
"""
import dataclasses
import time
from collections import deque
from importlib import resources

import numpy as np
import torch

from savanna.agents.models.az_checkpoint import CHECKPOINT
from savanna.agents.models.az_config import AZConfig
from savanna.agents.models.checkpoint import check_game, quoted_path
from savanna.agents.models.inference import network_evaluator
from savanna.agents.play.base import check_decisions, random_argmax
from savanna.agents.play.gumbel import GumbelSearch
from savanna.errors import check_int, check_range

__all__ = ["AZAgent", "AZPolicyAgent", "BASELINE", "baseline_path", "shipped_baselines"]

MAX_SIMS = 1 << 20  # simulations per move: the trees of a batch must fit in memory
# the other sizes of a search are bounded as a training run's settings (AZConfig) are
MOST = {f.name: f.metadata.get("most") for f in dataclasses.fields(AZConfig)}
MAX_SEARCHES = 4  # searches kept, one per simulation count a time budget chose
BASELINE = "baseline"  # the checkpoint name of the shipped model of the game being played


def shipped_baselines():
    """The shipped baseline files, by name (``zebres-2p.pt``, ...)."""
    folder = resources.files("savanna.agents.models") / "baselines"
    return sorted(f.name for f in folder.iterdir() if f.name.endswith(".pt")) \
        if folder.is_dir() else []


def baseline_path(game, shipped=None):
    """The shipped baseline of ``game`` and its player count (``shipped``: the names of the
    shipped files, ``shipped_baselines()`` by default); a one-line ValueError naming the
    shipped ones when there is none."""
    shipped = shipped_baselines() if shipped is None else shipped
    name = f"{game.name}-{game.num_players}p.pt"
    if name not in shipped:
        listed = ", ".join(n.removesuffix(".pt") for n in shipped) or "none"
        raise ValueError(f"no AlphaZero baseline for {game.name} with {game.num_players} "
                         f"players; shipped: {listed}")
    return str(resources.files("savanna.agents.models") / "baselines" / name)


class AZPolicyAgent:
    """The network alone: its most probable legal move (ties at random)."""

    name = "az-policy"

    def __init__(self, checkpoint: str):
        self.checkpoint = str(checkpoint)
        # resolved now: the shipped baselines (one per game and player count), or the file's
        # contents, checked; the network of a game is built when that game is first played
        self._baselines = shipped_baselines() if self.checkpoint == BASELINE else None
        if self._baselines == []:
            raise ValueError("no AlphaZero baseline is shipped with this installation")
        self._data = None if self.checkpoint == BASELINE else CHECKPOINT.load(self.checkpoint)
        self._nets = {}     # game key -> the network
        self._trained = {}  # game key -> the settings it was trained with (AZConfig dict)

    @classmethod
    def from_network(cls, net, game, label="training", trained=None, **settings):
        """An agent on an in-memory network (the trainer's evaluations), for ``game`` only;
        ``trained``: the run's settings (``AZConfig.to_dict()``), whose search it repeats."""
        agent = cls.__new__(cls)
        agent.checkpoint, agent._data, agent._baselines = label, None, None
        agent._nets, agent._trained = {_key(game): net}, {_key(game): trained or {}}
        agent._configure(**settings)
        return agent

    def _configure(self):
        pass

    def settings(self):
        return {"checkpoint": self.checkpoint}

    def network(self, game, key=None):
        """The network, checked against ``game`` (a ValueError if it was trained on another);
        ``key``: the game's ``_key``, if the caller has it."""
        key = key or _key(game)
        if key not in self._nets:
            if self._baselines is not None:
                data = CHECKPOINT.load(baseline_path(game, self._baselines), game)
            elif self._data is None:
                raise ValueError(f"this network plays {next(iter(self._nets))[1]}, not "
                                 f"{game.name}")
            else:
                data = self._data
                check_game(data, game, quoted_path(self.checkpoint))
            self._nets[key] = CHECKPOINT.network(data, game)
            self._trained[key] = data["config"]
        return self._nets[key]

    def act(self, game, states, rng):
        states = game.check_states(states)  # once: the calls below are unchecked
        api = game.unchecked
        mask = api.legal_mask(states)
        check_decisions(game, states, mask, self.name)  # no seat to observe from elsewhere
        obs = api.observe(states, api.current_player(states)).reshape(len(states), -1)
        priors, _ = network_evaluator(self.network(game))(obs, mask)
        return random_argmax(np.where(mask, priors, -1.0), rng)

    def __repr__(self):
        return f"{type(self).__name__}({self.checkpoint!r})"


class AZAgent(AZPolicyAgent):
    """The network's Gumbel search (see the module docstring)."""

    name = "az"

    def __init__(self, checkpoint: str, sims: int = 100, max_considered: int = 16,
                 gumbel_scale: float = 0.0, rollout_weight: float | None = None,
                 time_budget: float | None = None, determinizations: int | None = None,
                 expect_chance: bool | None = None):
        super().__init__(checkpoint)
        self._configure(sims, max_considered, gumbel_scale, rollout_weight, time_budget,
                        determinizations, expect_chance)

    def _configure(self, sims=100, max_considered=16, gumbel_scale=0.0, rollout_weight=None,
                   time_budget=None, determinizations=None, expect_chance=None):
        check_int("sims", sims, 1, MAX_SIMS)
        check_int("max_considered", max_considered, 1, MOST["max_considered"])
        if determinizations is not None:
            check_int("determinizations", determinizations, 1, MOST["determinizations"])
        check_range("gumbel_scale", gumbel_scale, 0)
        if rollout_weight is not None:
            check_range("rollout_weight", rollout_weight, 0, 1)
        if time_budget is not None and not 0 < time_budget < 1e6:
            raise ValueError(f"time_budget must be a positive number of seconds or None, got "
                             f"{time_budget!r}")
        self.sims, self.max_considered = int(sims), int(max_considered)
        self.gumbel_scale = float(gumbel_scale)
        self.rollout_weight = rollout_weight  # None: as the network was trained
        self.time_budget = None if time_budget is None else float(time_budget)
        self.determinizations = determinizations  # None: as the network was trained
        self.expect_chance = None if expect_chance is None else bool(expect_chance)  # the same
        self._searches = {}  # (game key, sims) -> its GumbelSearch, MAX_SEARCHES at most
        self._round_seconds = deque(maxlen=32)  # (states, seconds per simulation round)

    def settings(self):
        out = {"checkpoint": self.checkpoint, "sims": self.sims}
        if self.max_considered != 16:
            out["max_considered"] = self.max_considered
        if self.gumbel_scale != 0.0:
            out["gumbel_scale"] = self.gumbel_scale
        if self.rollout_weight is not None:
            out["rollout_weight"] = self.rollout_weight
        if self.time_budget is not None:
            out["time_budget"] = self.time_budget
        if self.determinizations is not None:
            out["determinizations"] = self.determinizations
        if self.expect_chance is not None:
            out["expect_chance"] = self.expect_chance
        return out

    def new_search(self, game, sims=None, key=None):
        """A ``GumbelSearch`` with this agent's settings (``sims`` simulations, default the
        agent's); the scale of sigma(q), its value range and, unless given, the rollout weight
        and the determinizations are those of the network's settings (``key``: as in
        ``network``)."""
        key = key or _key(game)
        self.network(game, key)
        trained = self._trained[key]
        own = {name: getattr(self, name) for name in ("rollout_weight", "determinizations",
                                                       "expect_chance")}
        settings = {**trained, **{k: v for k, v in own.items() if v is not None}}  # None: trained
        return GumbelSearch(game, sims or self.sims, self.max_considered,
                            trained.get("value_scale", 0.1), trained.get("maxvisit_init", 50.0),
                            self.gumbel_scale, settings.get("rollout_weight", 0.0),
                            trained.get("value_range", 0.0),
                            settings.get("determinizations", 1),
                            settings.get("expect_chance", False))

    @torch.no_grad()
    def act(self, game, states, rng):
        started = time.perf_counter()
        states = game.check_states(states)
        sims = self.sims if self.time_budget is None else self._budgeted_sims(len(states))
        game_key = _key(game)
        key = (game_key, sims)
        if key not in self._searches:
            if len(self._searches) == MAX_SEARCHES:  # the oldest goes: its trees are memory
                del self._searches[next(iter(self._searches))]
            self._searches[key] = self.new_search(game, sims, game_key)
        evaluate = network_evaluator(self.network(game, game_key))
        actions = self._searches[key].run(states, evaluate, rng, check=False).actions
        if self.time_budget is not None:
            self._round_seconds.append((len(states), (time.perf_counter() - started) / sims))
        return actions

    def _budgeted_sims(self, states):
        """Simulations that fit ``time_budget`` seconds per state for a call on ``states``
        states (8 until measured). A simulation round costs ``a + b * states`` seconds (one
        network call for all of them, then ``b`` per state), fitted to the last calls' rounds;
        the count is rounded down to one of 8 steps per doubling, so that few searches (and
        their trees) are built."""
        if not self._round_seconds:
            return 8
        counts, seconds = np.array(self._round_seconds).T
        slope, intercept = np.polyfit(counts, seconds, 1) if np.ptp(counts) else (0.0, -1.0)
        if slope <= 0 or intercept < 0:  # one batch size so far, or noise: cost per state
            slope, intercept = float(np.mean(seconds / counts)), 0.0
        sims = self.time_budget * states / (intercept + slope * states)
        sims = 2 ** (np.floor(8 * np.log2(max(sims, 2))) / 8)
        return int(min(MAX_SIMS, sims))

    def __getstate__(self):  # arena workers get the agent without its search buffers
        return {**self.__dict__, "_searches": {}}

    def __repr__(self):
        return f"AZAgent({self.checkpoint!r}, sims={self.sims})"


def _key(game):
    return type(game), game.name, tuple(game.obs_shape), game.num_actions, game.num_players
