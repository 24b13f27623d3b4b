"""Monte Carlo tree search: UCT with random rollouts, or PUCT with a batched evaluator.

The tree lives in flat arrays searched by the compiled search loop
(``savanna.agents.play.search``); Python only sets up, grows the arrays when they fill, and, for
PUCT, calls the evaluator.

* **UCT** (no evaluator): every simulation descends by ``Q + c * sqrt(ln N / n)`` (unvisited
  children first), adds one node and values it by ``rollouts`` random playouts, all compiled.
* **PUCT** (``evaluator`` given): descents by ``Q + c * prior * sqrt(N) / (1 + n)`` stop at
  unexpanded decision nodes; up to ``leaf_batch`` such leaves are collected (pending visits
  count as losses, so the descents spread), evaluated in one Python call
  ``evaluator(obs uint8[m, *obs_shape], mask bool[m, A], players int64[m])
  -> (priors float[m, A], values float[m, P])`` and backed up. ``obs`` is each leaf as seen by
  its player to move; ``values[j, q]`` is the expected return of seat ``q`` (absolute seats: an
  evaluator working on player-relative outputs rotates them back). Root priors may be mixed
  with Dirichlet noise. With ``rollout_weight = w > 0`` a leaf's value is
  ``(1 - w) * evaluator value + w * mean of rollouts random playouts`` from it (AlphaGo's mix:
  the playouts correct a value head that is biased, the value head steadies the playouts).
* Chance nodes are expanded with their outcome probabilities and sampled on the way down.
* Values are per-player vectors; each node is judged by the player who chooses there, so N
  players and turns that do not alternate need nothing special.
* **Imperfect information**: each of ``determinizations`` searches starts from
  ``game.resample_hidden(state, player, rng)``, a state drawn from what the searcher knows, and
  the root visit counts are summed (determinized UCT, "PIMC"). The search sees only states
  drawn from the searcher's information, so another player's secret cannot change the move.

The move is the most visited root action (``temperature = 0``, ties at random) or is drawn
with probability proportional to ``visits ** (1 / temperature)``. All randomness comes from
the ``rng`` passed to ``act``: a fixed seed replays the same moves (except with a
``time_budget``, whose simulation count depends on the machine).

>>> from savanna import make_game
>>> game = make_game("zebres")
>>> states = game.init(2, rng=0)
>>> agent = MCTSAgent(sims=200)
>>> actions = agent.act(game, states, np.random.default_rng(0))
>>> visits, root_values = agent.search(game, states[0], np.random.default_rng(0))
"""
import time
import warnings
from collections.abc import Iterator

import numpy as np

from savanna.agents.play.base import random_argmax
from savanna.agents.play.search import PUCT, UCT, Leaves, Tree, compiled_search, width
from savanna.errors import check_at_least, check_range, clip
from savanna.game import CHANCE, Game, Row, Seed
from savanna.rng import as_generator, make_streams

__all__ = ["MCTSAgent"]

TIME_CHUNK = 256  # simulations between two looks at the clock


class MCTSAgent:
    """MCTS agent (see the module docstring).

    Its settings::

        sims              simulations per move (split over the determinizations)
        time_budget       seconds per move instead of a simulation count
        c                 exploration constant (UCT, or PUCT when an evaluator is given), in units
                          of the game's returns (within [-1, 1] in the three games)
        rollouts          random playouts per new leaf (UCT; PUCT when rollout_weight > 0)
        rollout_weight    PUCT only: the weight of those playouts in a leaf's value (0: the
                          evaluator's values alone)
        dirichlet_alpha   root noise Dirichlet(alpha) mixed into the priors (PUCT only)
        dirichlet_frac    weight of that noise
        temperature       0: most visited action; else visits ** (1 / temperature)
        determinizations  searches from resampled hidden states; None: 1 for perfect-information
                          games, 8 otherwise
        evaluator         PUCT evaluator (see the module docstring); None: UCT with rollouts
        value             the spec of an agent whose ``evaluator(game)`` gives the evaluator,
                          e.g. ``td:runs/x/best.pt`` (``mcts:value=td:PATH``); not with
                          ``evaluator``
        leaf_batch        leaves per evaluator call (PUCT)
        max_nodes         hard limit on the tree size (memory): sims (per determinization) may not
                          exceed it, and a search that fills the tree stops early with a
                          RuntimeWarning naming the simulations it ran
    """

    name = "mcts"

    def __init__(self, sims: int = 1000, time_budget: float | None = None, c: float = 1.4,
                 rollouts: int = 1, dirichlet_alpha: float | None = None,
                 dirichlet_frac: float = 0.25, temperature: float = 0.0,
                 determinizations: int | None = None, evaluator=None, leaf_batch: int = 16,
                 max_nodes: int = 1 << 22, rollout_weight: float = 0.0,
                 value: str | None = None):
        check_at_least("sims", sims, 1)
        check_at_least("rollouts", rollouts, 1)
        check_at_least("leaf_batch", leaf_batch, 1)
        check_at_least("max_nodes", max_nodes, 2)
        if determinizations is not None:
            check_at_least("determinizations", determinizations, 1)
        if time_budget is not None:
            check_range("time_budget", time_budget, 0, above=True)
        check_range("c", c, 0)
        check_range("temperature", temperature, 0)
        check_range("dirichlet_frac", dirichlet_frac, 0, 1)
        check_range("rollout_weight", rollout_weight, 0, 1)
        per_tree = -(-sims // (determinizations or 1))
        if time_budget is None and per_tree > max_nodes:
            raise ValueError(f"sims={clip(sims)} cannot fit in a tree of "
                             f"max_nodes={clip(max_nodes)} (a simulation adds at least one "
                             "node): raise max_nodes or lower sims")
        if dirichlet_alpha is not None:
            check_range("dirichlet_alpha", dirichlet_alpha, 0, above=True)
            if evaluator is None and value is None:
                raise ValueError("dirichlet_alpha needs an evaluator: root noise perturbs "
                                 "PUCT priors, and UCT has none")
        if evaluator is not None and not callable(evaluator):
            raise ValueError(f"evaluator must be a callable (obs, mask, players) -> "
                             f"(priors, values), got {type(evaluator).__name__}")
        self.sims = int(sims)
        self.time_budget = None if time_budget is None else float(time_budget)
        self.c = float(c)
        self.rollouts = int(rollouts)
        self.dirichlet_alpha = None if dirichlet_alpha is None else float(dirichlet_alpha)
        self.dirichlet_frac = float(dirichlet_frac)
        self.temperature = float(temperature)
        self.determinizations = determinizations
        self.evaluator = evaluator
        self.leaf_batch = int(leaf_batch)
        self.max_nodes = int(max_nodes)
        self.rollout_weight = float(rollout_weight)
        self.value = value
        self._value_agent = None if value is None else _value_agent(value, evaluator)
        self._evaluators: dict = {}

    def settings(self) -> dict:
        """``sims`` and ``c``, then every other setting that differs from its default."""
        defaults = MCTSAgent()
        out: dict[str, object] = {"sims": self.sims, "c": self.c}
        for key in ("time_budget", "rollouts", "dirichlet_alpha", "dirichlet_frac",
                    "temperature", "determinizations", "leaf_batch", "max_nodes",
                    "rollout_weight", "value"):
            if getattr(self, key) != getattr(defaults, key):
                out[key] = getattr(self, key)
        if self.evaluator is not None:
            name = getattr(self.evaluator, "__name__", None)
            out["evaluator"] = name or type(self.evaluator).__name__
        return out

    @property
    def rule(self) -> int:
        """The search's rule (``savanna.agents.play.search``): UCT, or PUCT with an evaluator."""
        return UCT if self.evaluator is None and self.value is None else PUCT

    def _evaluator_for(self, game):
        """The evaluator: the one given, else the ``value`` agent's for ``game``."""
        if self.evaluator is not None:
            return self.evaluator
        held = self._evaluators.get(id(game))
        if held is None or held[0] is not game:  # the game itself is kept: ids are reused
            held = self._evaluators[id(game)] = game, self._value_agent.evaluator(game)
        return held[1]

    # ----- playing -------------------------------------------------------------------------
    def act(self, game: Game, states: np.ndarray, rng: Seed) -> np.ndarray:
        """One action per state of the batch (each a decision node), searched one by one;
        the batch is checked once, here."""
        states = game.check_states(states)
        rng = as_generator(rng)
        actions = np.empty(len(states), np.int64)
        masks = game.unchecked.legal_mask(states)
        for i in range(len(states)):
            visits, _ = self.search(game, states[i : i + 1], rng, check=False)
            actions[i] = self._choose(visits, masks[i], rng)
        return actions

    def _choose(self, visits, legal, rng):
        """The most visited action, or one drawn by ``visits ** (1 / temperature)``; a uniform
        legal action if the tree was too small to try any."""
        if visits.sum() == 0:
            visits = legal.astype(np.float64)
        if self.temperature == 0:
            return random_argmax(np.where(legal, visits, -1.0)[None, :], rng)[0]
        weights = (visits / visits.max()) ** (1.0 / self.temperature)
        return rng.choice(len(visits), p=weights / weights.sum())

    def search(self, game: Game, row: Row, rng: Seed = None, *,
               check: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Searches one decision node: ``(visits int64[A], root values float64[P])``.

        ``visits[a]`` counts the simulations through root action ``a`` (summed over the
        determinizations); the root values are the mean returns of all simulations.
        ``check=False``: ``row`` is a batch of one that the caller checked already
        (``game.check_states``) or the kernels made; it is not checked again.
        """
        visits, values, _ = self.analyse(game, row, rng, check=check)
        return visits, values

    def analyse(self, game: Game, row: Row, rng: Seed = None, *,
                check: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``search`` plus ``action_values float64[A, P]``: the mean returns of the
        simulations through each root action (NaN for actions never tried)."""
        visits = np.zeros(game.num_actions, np.int64)
        returns = np.zeros((game.num_actions, game.num_players), np.float64)
        value_sum = np.zeros(game.num_players, np.float64)
        done = 0
        for tree in self.trees(game, row, rng, check=check):
            compiled_search(game, self.rule).root_children(tree.nodes, tree.values, tree.rewards,
                                                      visits, returns)
            value_sum += tree.values[0]
            done += int(tree.nodes[0]["visits"])
        with np.errstate(invalid="ignore", divide="ignore"):
            action_values = returns / visits[:, None]
        action_values[visits == 0] = np.nan
        return visits, value_sum / max(done, 1), action_values

    def trees(self, game: Game, row: Row, rng: Seed = None, *,
              check: bool = True) -> Iterator[Tree]:
        """The search trees of one decision node, one per determinization, each yielded when
        its search is done (read it before asking for the next: ``savanna.agents.play.analysis``
        reads the priors and the principal variation). A RuntimeWarning at the end if a tree
        filled up before its simulations were done. ``check``: as in ``search``; below this
        call the states are the kernels' own and go through ``game.unchecked``."""
        root = game.check_row(row) if check else row
        player = int(game.unchecked.current_player(root)[0])
        if player < 0:
            where = "a chance node" if player == CHANCE else "the end of the game"
            raise ValueError(f"MCTS searches decision nodes; this state is at {where}")
        rng = as_generator(rng)
        rounds = self.determinizations or (1 if game.perfect_information else 8)
        ran = 0
        full = False
        for d in range(rounds):
            sims = self.sims // rounds + (d < self.sims % rounds)
            budget = None if self.time_budget is None else self.time_budget / rounds
            start = (root if game.perfect_information
                     else game.unchecked.resample_hidden(root, player, rng))
            tree, tree_ran, tree_full = self._grow_tree(game, start, rng, sims, budget)
            yield tree
            ran, full = ran + tree_ran, full or tree_full
        if full:
            wanted = "" if self.time_budget is not None else f" of the {self.sims} asked"
            warnings.warn(f"MCTS stopped early: its tree reached max_nodes={self.max_nodes} "
                          f"after {ran} simulations{wanted}; raise max_nodes (memory) or "
                          "lower sims", RuntimeWarning, stacklevel=3)

    def _grow_tree(self, game, root, rng, sims, budget):
        deadline = None if budget is None else time.perf_counter() + budget
        if deadline is not None:
            sims = np.iinfo(np.int32).max
        kernels = compiled_search(game, self.rule)
        most = width(game)
        capacity = min(16 * min(sims, 1 << 16) + most + 1, self.max_nodes)
        tree = Tree(game, capacity, max(16, capacity // 8), self.max_nodes)
        kernels.set_roots(*tree.arrays, root)
        streams = make_streams(rng, 1)
        if self.rule == UCT:
            ran, full = self._run_uct(game, tree, kernels, most, streams, sims, deadline)
        else:
            ran, full = self._run_puct(game, tree, kernels, most, streams, rng, sims, deadline)
        return tree, ran, full

    def _simulate(self, game, tree, kernels, streams, done, num_sims, leaves):
        """The compiled search loop with this agent's rule: ``(leaves written, short)``."""
        return kernels.simulate(*tree.arrays, streams, done, num_sims, self.c, self.rollouts,
                                np.empty((0, game.num_actions)), np.empty((0, 0), np.int32),
                                0.0, 0.0, 0.0, False, *leaves.arrays)

    def _run_uct(self, game, tree, kernels, most, streams, sims, deadline):
        """Runs the simulations: ``(how many ran, whether the tree filled up first)``."""
        done, no_leaves = np.zeros(1, np.int64), Leaves(game, 0)
        while done[0] < sims:
            chunk = sims - done[0] if deadline is None else min(sims - done[0], TIME_CHUNK)
            _, short = self._simulate(game, tree, kernels, streams, done, done[0] + chunk,
                                      no_leaves)
            if short and not tree.grow_after_stop(most):
                return int(done[0]), True
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return int(done[0]), False

    def _run_puct(self, game, tree, kernels, most, streams, rng, sims, deadline):
        """As ``_run_uct``, with the evaluator."""
        leaves = Leaves(game, self.leaf_batch)
        descents = np.zeros(1, np.int64)
        done = 0
        first = True  # the first round evaluates the root alone, then noises its priors
        while done < sims or first:
            want = 1 if first else min(self.leaf_batch, sims - done)
            if not tree.reserve(want * most, 0):
                return done, True
            descents[0] = 0
            got, _ = self._simulate(game, tree, kernels, streams, descents, want, leaves)
            finished = int(descents[0]) - got
            done += finished
            if got + finished == 0 and not tree.grow_after_stop(most):
                return done, True
            tree.reserve(got * most, 0)  # if it cannot, a leaf left unexpanded comes again
            if got:
                priors, values = self._evaluate(game, tree, leaves, got, rng)
                kernels.expand_and_backup(*tree.arrays, leaves.leaves[:got],
                                          leaves.players[:got], priors, values, False)
                done += 0 if first else got
            if first:
                self._add_root_noise(tree, rng)
                first = False
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return done, False

    def _evaluate(self, game, tree, leaves, m, rng):
        mask = leaves.masks[:m].copy()
        players = leaves.players[:m].copy()
        obs = leaves.obs[:m].reshape(m, *game.obs_shape).copy()
        priors, values = self._evaluator_for(game)(obs, mask, players)
        priors = np.asarray(priors, np.float64)
        values = np.asarray(values, np.float64)
        if priors.shape != (m, game.num_actions) or values.shape != (m, game.num_players):
            raise ValueError(f"evaluator must return priors of shape {(m, game.num_actions)} "
                             f"and values of shape {(m, game.num_players)}; got "
                             f"{priors.shape} and {values.shape}")
        if not (np.isfinite(priors).all() and np.isfinite(values).all()
                and (priors >= 0).all()):
            raise ValueError("evaluator must return finite values and finite priors >= 0")
        if self.rollout_weight:
            states = tree.states[tree.nodes["slot"][leaves.leaves[:m]]]
            returns, _ = game.unchecked.random_playouts(np.repeat(states, self.rollouts), rng)
            played = returns.reshape(m, self.rollouts, -1).mean(axis=1)
            values = (1 - self.rollout_weight) * values + self.rollout_weight * played
        return np.ascontiguousarray(np.where(mask, priors, 0.0)), np.ascontiguousarray(values)

    def _add_root_noise(self, tree, rng):
        if self.dirichlet_alpha is None:
            return
        root = tree.nodes[0]
        children = tree.nodes[root["first_child"] : root["first_child"] + root["num_children"]]
        noise = rng.dirichlet(np.full(len(children), self.dirichlet_alpha))
        children["prior"] = (1 - self.dirichlet_frac) * children["prior"] \
            + self.dirichlet_frac * noise



def _value_agent(spec, evaluator):
    """The agent of the ``value`` spec, which must offer ``evaluator(game)``."""
    from savanna.agents.play.registry import make_agent

    if evaluator is not None:
        raise ValueError("give value or evaluator, not both")
    if not isinstance(spec, str):
        raise ValueError(f"value must be an agent spec such as td:PATH, got {clip(spec)}")
    agent = make_agent(spec)
    if not callable(getattr(agent, "evaluator", None)):
        raise ValueError(f"value={clip(spec)}: that agent offers no leaf evaluator (td does)")
    return agent
