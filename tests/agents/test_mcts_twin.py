"""The compiled UCT against a naive twin: a tree of Python objects built by the same rules from
the same random draws must give exactly the same visit counts and values (the compiled tree
also grows its arrays on the way, which must change nothing)."""
import numpy as np
import pytest

from savanna.agents.play.mcts import MCTSAgent
from savanna.game import CHANCE, TERMINAL
from savanna.rng import below, make_streams, uniform
from tests.agents.tiny_games import DiceRace, HighCard, Nim


class Node:
    def __init__(self, game, state, reward, action=-1, prior=1.0):
        self.state, self.reward, self.action, self.prior = state, reward, action, prior
        self.player = game.current_player(state)[0] if state is not None else TERMINAL
        self.children = None
        self.visits = 0
        self.value = np.zeros(game.num_players)


def naive_uct(game, root, sims, c, rng):
    """UCT as ``MCTSAgent`` does it, one readable step at a time; returns the root node."""
    player = game.current_player(root)[0]
    if not game.perfect_information:
        root = game.resample_hidden(root, player, rng)
    streams = make_streams(rng, 1)
    top = Node(game, root.copy(), np.zeros(game.num_players, np.float32))
    buffers = (np.empty(game.num_actions, np.int16), np.empty(game.max_chance_outcomes),
               np.zeros(game.num_players, np.float32))
    for _ in range(sims):
        path, node = [top], top
        while True:
            if node.player == TERMINAL:
                value = np.zeros(game.num_players)
                break
            if node.children is None:
                if node.player >= 0 and node.visits == 0 and node is not top:
                    value = rollout(game, node.state, streams, buffers)
                    break
                expand(game, node)
            child = (pick_outcome(node, streams) if node.player == CHANCE
                     else pick_uct(node, c, streams))
            if child.state is None:
                materialise(game, node, child)
            path.append(child)
            node = child
        for n in reversed(path):
            n.visits += 1
            n.value += value
            value = value + n.reward
    return top


def expand(game, node):
    if node.player == CHANCE:
        probs = game.chance_probs(node.state)[0]
        node.children = [Node(game, None, None, o, np.float32(p))
                         for o, p in enumerate(probs) if p > 0]
    else:
        node.children = [Node(game, None, None, a) for a in game.legal_actions(node.state)]


def materialise(game, parent, child):
    child.state = parent.state.copy()
    if parent.player == CHANCE:
        game.apply_chance(child.state, [child.action])
        child.reward = np.zeros(game.num_players, np.float32)
    else:
        child.reward = game.step_inplace(child.state, [child.action])[0]
    child.player = game.current_player(child.state)[0]


def pick_outcome(node, streams):
    u = uniform(streams, 0)
    for child in node.children[:-1]:
        u -= float(child.prior)  # float32 prior, float64 sum, as compiled
        if u < 0.0:
            return child
    return node.children[-1]


def pick_uct(node, c, streams):
    n = len(node.children)
    start = below(streams, 0, n)
    for j in range(n):
        if node.children[(start + j) % n].visits == 0:
            return node.children[(start + j) % n]
    p = node.player
    scores = [ch.reward[p] + ch.value[p] / ch.visits + c * np.sqrt(np.log(node.visits) / ch.visits)
              for ch in node.children]
    return node.children[int(np.argmax(scores))]


def rollout(game, state, streams, buffers):
    total = np.zeros(game.num_players, np.float32)
    game.drivers.playout_one(state.copy(), 0, streams, *buffers, total)
    return total.astype(np.float64)


@pytest.mark.parametrize("game, state", [
    (Nim((2, 3, 4)), None),
    (DiceRace(), "pos=3,5 dice=2,6 to_move=1 turns_left=6 over=0"),
    (HighCard(), "cards=1,4,2 dealt=3 to_move=1 staking=0 stayed=1,0,0 stake=2,0,0 over=0"),
], ids=["nim", "dice_race", "high_card"])
def test_compiled_uct_equals_its_naive_twin(game, state):
    s = game.init(1) if state is None else game.from_text(state)
    sims, c = 400, 1.4
    twin = naive_uct(game, s, sims, c, np.random.default_rng(12))
    visits, values, action_values = MCTSAgent(sims=sims, c=c, determinizations=1).analyse(
        game, s, np.random.default_rng(12))
    expected = np.zeros(game.num_actions, np.int64)
    for child in twin.children:
        expected[child.action] = child.visits
        assert action_values[child.action] == pytest.approx(
            child.reward + child.value / child.visits, abs=1e-12)
    assert visits.tolist() == expected.tolist()
    assert values == pytest.approx(twin.value / twin.visits, abs=1e-12)
