"""``savanna.lockstep``: a game's kernels against a reference of plain functions, node by node.

On the coin flip of ``tests/agents/study_games.py`` (a chance node, two decisions), with its
rules written again here as a reference: the two agree on every seeded game, and each kind of
disagreement, put into the reference on purpose, fails in one line that names it.
"""
from types import SimpleNamespace

import numpy as np
import pytest

from savanna import CHANCE, TERMINAL
from savanna.lockstep import play_in_lockstep
from tests.agents.study_games import CoinFlip

GAME = CoinFlip(70)


def current_player(ref):
    coin, stage = ref
    return CHANCE if coin < 0 else TERMINAL if stage >= 2 else stage


def step(ref, action):
    coin, stage = ref
    rewards = [0.0, 0.0]
    if stage + 1 == 2:
        rewards = [1.0, -1.0] if coin == 0 else [-1.0, 1.0]
    return (coin, stage + 1), rewards


REFERENCE = SimpleNamespace(
    current_player=current_player,
    legal_actions=lambda ref: [0, 1] if current_player(ref) >= 0 else [],
    chance_outcomes=lambda ref: {0: 0.7, 1: 1 - 0.7},
    apply_chance=lambda ref, outcome: (outcome, ref[1]),
    step=step,
    observe=lambda ref, player: [ref[0] % 256, ref[1]],  # a byte: no coin yet is 255
)
START = (-1, 0)


def test_the_kernels_and_the_reference_agree_on_every_seeded_game():
    for seed in range(20):
        play_in_lockstep(GAME, GAME.init(1), REFERENCE, START, 10, np.random.default_rng(seed))


@pytest.mark.parametrize("named, broken", [
    ("player", {"current_player": lambda ref: 1 - current_player(ref) if ref[0] >= 0
                else CHANCE}),
    ("legal actions", {"legal_actions": lambda ref: [0] if current_player(ref) >= 0 else []}),
    ("observation of seat 1", {"observe": lambda ref, player: [ref[0] % 256, ref[1] + player]}),
    ("chance outcomes", {"chance_outcomes": lambda ref: {0: 0.5, 1: 0.5}}),
    ("rewards of", {"step": lambda ref, action: (step(ref, action)[0], [0.0, 0.0])}),
])
def test_each_disagreement_is_named_in_one_line(named, broken):
    reference = SimpleNamespace(**{**vars(REFERENCE), **broken})
    rng = np.random.default_rng(0)
    with pytest.raises(AssertionError) as failed:
        for _ in range(10):  # the rewards differ only at the last decision, on either coin
            play_in_lockstep(GAME, GAME.init(1), reference, START, 10, rng)
    message = str(failed.value)
    assert f": {named}" in message and "\n" not in message, message
    assert "kernels" in message and "reference" in message


def test_a_batch_of_two_is_refused():
    with pytest.raises(ValueError, match="a batch of one state, got 2"):
        play_in_lockstep(GAME, GAME.init(2), REFERENCE, START, 10, np.random.default_rng(0))
