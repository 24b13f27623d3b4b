"""Gumbel search over a batch of games at once (AlphaZero's search, used to play and to train).

The trees of a whole batch of games live in one flat pool searched by compiled loops
(``savanna.agents.play.search``). Each round every game descends to one leaf; the
leaves of all games are evaluated in one forward pass of the network and backed up. The root
uses Gumbel top-k sampling with sequential halving, the inside the paper's deterministic
selection (Danihelka et al., ICLR 2022; mctx's ``gumbel_muzero_policy``), so that 16-64
simulations already improve the policy. Imperfect information: every tree starts from
``game.resample_hidden(state, player, rng)``, a draw of the hidden cards consistent with what
the player to move knows (the network itself sees only observations); ``determinizations``
trees per state average their policies. With ``rollout_weight`` w > 0 a leaf's value mixes in
one random playout from it (AlphaGo's ``(1 - w) * network + w * playout``): early in a run the
value head knows nothing, a playout already something.
"""
import math
import time
from typing import NamedTuple

import numpy as np

from savanna.agents.play.search import GUMBEL, Leaves, Tree, compiled_search, width
from savanna.rng import make_streams
from savanna.seats import seat_view

__all__ = ["GumbelSearch", "SearchResult", "considered_visits"]


def considered_visits(max_considered, num_sims):
    """``int32[max_considered + 1, num_sims]``: row ``m`` is the visit count each simulation
    looks for at the root when ``m`` actions are considered (mctx's
    ``get_table_of_considered_visits``: sequential halving, at least one visit per phase)."""
    table = np.zeros((max_considered + 1, num_sims), np.int32)
    for m in range(max_considered + 1):
        if m <= 1:
            table[m] = np.arange(num_sims)
            continue
        log2max = math.ceil(math.log2(m))
        sequence, visits, considered = [], [0] * m, m
        while len(sequence) < num_sims:
            for _ in range(max(1, int(num_sims / (log2max * considered)))):
                sequence.extend(visits[:considered])
                for i in range(considered):
                    visits[i] += 1
            considered = max(2, considered // 2)
        table[m] = sequence[:num_sims]
    return table


class SearchResult(NamedTuple):
    actions: np.ndarray      # int64[G]: the moves
    policy: np.ndarray       # float32[G, A]: the improved policies (zero where illegal)
    values: np.ndarray       # float64[G, P]: the roots' mean returns (absolute seats)


class GumbelSearch:
    """Searches a batch of decision nodes at once (see the module docstring and
    ``savanna.agents.play._search_kernels``): ``run(states, evaluate, rng) -> SearchResult``.
    Its settings::

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
        # no more actions are considered than the game has: the table's size follows the game
        self.table = considered_visits(
            min(int(max_considered), game.num_actions), self.sims)
        self.value_scale = float(value_scale)
        self.maxvisit_init = float(maxvisit_init)
        self.value_range = float(value_range)
        self.gumbel_scale = float(gumbel_scale)
        self.rollout_weight = float(rollout_weight)
        self.kernels = compiled_search(game, GUMBEL)
        self.width = width(game)
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
        roots = (states.copy() if game.perfect_information
                 else seat_view(game, states, rng, players))
        started = time.perf_counter()
        pool = self._empty_pool(n)
        k.set_roots(*pool.arrays, roots)
        leaves = Leaves(game, n)
        k.collect_roots(pool.nodes, pool.states, n, leaves.leaves, leaves.obs, leaves.masks,
                        leaves.players)
        playouts = make_streams(rng, n) if self.rollout_weight else None  # one per tree
        self.stats["search_seconds"] += time.perf_counter() - started
        self._evaluate(evaluate, n, leaves, playouts)  # the roots' priors and values
        started = time.perf_counter()
        sims_done = np.zeros(n, np.int64)
        gumbel = self.gumbel_scale * rng.gumbel(size=(n, game.num_actions))
        streams = make_streams(rng, n)
        rule = (streams, sims_done, self.sims, 0.0, 1, gumbel, self.table, self.value_scale,
                self.maxvisit_init, self.value_range, self.expect_chance, *leaves.arrays)
        while True:
            pool.reserve(n * self.width, 2 * n)
            got, short = k.simulate(*pool.arrays, *rule)
            if got:
                self.stats["search_seconds"] += time.perf_counter() - started
                self._evaluate(evaluate, got, leaves, playouts)
                started = time.perf_counter()
            elif short:
                pool.reserve(len(pool.nodes), len(pool.states))
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

    def _empty_pool(self, n):
        """The pool, emptied for ``n`` trees and sized by ``pool_rows(n)`` alone (the memory
        of the calls before kept): a call's rounds, the leaves evaluated together, are the
        same whatever the calls before grew (the network's value of a leaf may depend, in its
        last bits, on the other leaves of its batch)."""
        nodes, states = self.pool_rows(n)
        if self.pool is None:
            self.pool = Tree(self.game, nodes, states, leaf_values=True)
        else:
            self.pool.empty(nodes, states)
        return self.pool

    def pool_rows(self, n):
        """The node and state rows of an empty pool for ``n`` trees; it grows on demand."""
        rows = n * (self.sims + 1)
        return rows * 16, rows * 2

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

    def _evaluate(self, evaluate, got, leaves, playouts):
        """Evaluates the first ``got`` leaves, mixing in a random playout from each (drawn
        from its tree's stream in ``playouts``), and expands and backs them up."""
        started = time.perf_counter()
        priors, values = evaluate(leaves.obs[:got], leaves.masks[:got])
        self.stats["inference_seconds"] += time.perf_counter() - started
        self.stats["leaves"] += got
        started = time.perf_counter()
        if self.rollout_weight:
            w = self.rollout_weight
            values = (1 - w) * values + w * self._playouts(leaves.leaves[:got],
                                                           leaves.players[:got], playouts)
        self.pool.reserve(got * self.game.num_actions, 0)
        self.kernels.expand_and_backup(  # values at the network's precision, as raw keeps them
            *self.pool.arrays, leaves.leaves[:got], leaves.players[:got],
            np.ascontiguousarray(priors, np.float64), np.ascontiguousarray(values, np.float32),
            self.expect_chance)
        self.stats["search_seconds"] += time.perf_counter() - started

    def _playouts(self, leaves, players, playouts):
        """The returns of one random playout from each leaf, in its player's relative seats.
        A leaf's playout draws from its own tree's stream, which it advances: a tree's
        playouts do not depend on which round, nor with which other leaves, its leaves
        came (the pool's size decides that)."""
        game, p = self.game, self.game.num_players
        states = self.pool.states[self.pool.nodes["slot"][leaves]]  # a copy, played in place
        trees = self._roots(leaves)  # one leaf per tree and round: a tree comes once here
        streams = playouts[trees]
        returns = np.zeros((len(states), p), np.float32)
        game.drivers.random_playouts(states, streams, returns, np.zeros(len(states), np.int64))
        playouts[trees] = streams
        return np.take_along_axis(returns, (players[:, None] + np.arange(p)) % p, axis=1)

    def _roots(self, leaves):
        """The tree of each node of ``leaves``: its root, node ``g`` of tree ``g``."""
        parents = self.pool.nodes["parent"]
        nodes = leaves.astype(np.int64)
        while (up := parents[nodes] >= 0).any():
            nodes = np.where(up, parents[nodes], nodes)
        return nodes
