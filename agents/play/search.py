"""The search engine shared by MCTS, Gumbel search, analysis and distillation: the arrays of a
batch of search trees and the compiled search loop (``savanna.agents.play._search_kernels``)
bound to a game and a selection rule.

>>> from savanna import make_game
>>> game = make_game("zebres")
>>> tree = Tree(game, nodes=1024, states=128)
>>> compiled_search(game, UCT).set_roots(*tree.arrays, game.init(1, rng=0))
"""
import numpy as np

from savanna.agents.play import _search_kernels
from savanna.agents.play._search_kernels import GUMBEL, NODE_DTYPE, PUCT, UCT

__all__ = ["GUMBEL", "NODE_DTYPE", "PUCT", "UCT", "Leaves", "Tree", "compiled_search", "width"]


def compiled_search(game, rule):
    """The search loops bound to ``game`` (``Game.compiled``) and to ``rule`` (``UCT``,
    ``PUCT`` or ``GUMBEL``), with the game's compiled random playout for UCT's rollouts."""
    if rule == UCT:
        return game.compiled(_search_kernels, RULE=rule, playout_one=game.drivers.playout_one)
    return game.compiled(_search_kernels, RULE=rule)


def width(game):
    """The most children a node can have."""
    return max(game.num_actions, game.max_chance_outcomes)


class Tree:
    """The arrays of a batch of search trees (see ``savanna.agents.play._search_kernels``),
    ``nodes`` and ``states`` rows to start with, grown on demand up to ``max_nodes`` rows.
    ``leaf_values``: keep the network's value and the log priors of each node (Gumbel)."""

    GROUPS = (("nodes", "values", "rewards", "raw", "log_priors"), ("states",))

    def __init__(self, game, nodes, states, max_nodes=None, leaf_values=False):
        p, kept = game.num_players, nodes if leaf_values else 0
        self.leaf_values = leaf_values
        self.max_nodes = max_nodes or np.iinfo(np.int32).max
        self.nodes = np.empty(nodes, NODE_DTYPE)
        self.values = np.empty((nodes, p), np.float64)
        self.rewards = np.empty((nodes, p), np.float32)
        self.raw = np.empty((kept, p), np.float32)
        self.log_priors = np.empty(kept, np.float64)
        self.states = np.empty(states, game.state_dtype)
        self.counts = np.zeros(2, np.int64)

    @property
    def arrays(self):
        return (self.nodes, self.values, self.rewards, self.raw, self.log_priors, self.states,
                self.counts)

    def empty(self, nodes, states):
        """Empties the trees and sizes the arrays as ``Tree(game, nodes, states)`` does,
        keeping their memory: a search then grows them exactly as it grows a new tree (the
        same rounds, the same results) without allocating again what it had."""
        self.counts[:] = 0
        for names, size in zip(self.GROUPS, (nodes, states)):
            self._resize(names, size, 0)

    def room(self):
        """Free node rows."""
        return len(self.nodes) - int(self.counts[0])

    def reserve(self, nodes, states):
        """Room for ``nodes`` more nodes and ``states`` more states, doubling what is short;
        False, growing nothing more, if that would pass ``max_nodes``."""
        used_nodes, used_states = self.counts.tolist()
        if (len(self.nodes) - used_nodes >= nodes
                and len(self.states) - used_states >= states):
            return True  # the usual case, once per search round: nothing to grow
        for names, need, used in zip(self.GROUPS, (nodes, states), (used_nodes, used_states)):
            length = len(getattr(self, names[0]))
            if length - used >= need:
                continue
            size = min(max(2 * length, used + need), self.max_nodes)
            if size < used + need:
                return False
            self._resize(names, size, used)
        return True

    def _resize(self, names, size, used):
        """The arrays ``names`` made ``size`` rows long, their first ``used`` rows kept: a
        view of their memory where it is large enough, else new memory."""
        for name in names:
            if name in self.GROUPS[0][3:] and not self.leaf_values:
                continue  # the Gumbel-only arrays stay empty for the other rules
            array = getattr(self, name)
            memory = array if array.base is None else array.base
            if len(memory) < size:
                memory = np.empty((size, *array.shape[1:]), array.dtype)
                memory[:used] = array[:used]
            setattr(self, name, memory[:size])

    def grow_after_stop(self, most_children):
        """The compiled search stopped because an expansion (up to ``most_children``
        children) or a state found no room: doubles what was short. False if the tree may
        not grow."""
        if self.room() < most_children:
            return self.reserve(most_children, 0)
        return self.reserve(0, len(self.states) - int(self.counts[1]) + 1)


class Leaves:
    """The buffers of up to ``n`` leaves a search hands to its evaluator: their nodes, players,
    observations (flat, by the player to move) and legal masks."""

    def __init__(self, game, n):
        self.leaves = np.empty(n, np.int32)
        self.players = np.empty(n, np.int64)
        self.obs = np.empty((n, int(np.prod(game.obs_shape))), np.uint8)
        self.masks = np.empty((n, game.num_actions), np.bool_)

    @property
    def arrays(self):
        return self.leaves, self.players, self.obs, self.masks
