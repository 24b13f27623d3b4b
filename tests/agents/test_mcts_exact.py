"""The exact solver (savanna.agents.play.exact) on the tiny games, against values known by hand."""
import itertools

import numpy as np
import pytest

from savanna.agents.play.exact import solve
from tests.agents.tiny_games import GOAL, DiceRace, HighCard, Nim


@pytest.mark.parametrize("heaps", [h for h in itertools.product(range(5), repeat=3) if sum(h)])
def test_nim_is_won_exactly_when_the_heaps_xor_to_nonzero(heaps):
    values, per_action = solve(Nim(heaps), Nim(heaps).init(1))
    expected = 1.0 if heaps[0] ^ heaps[1] ^ heaps[2] else -1.0
    assert values.tolist() == [expected, -expected]
    winning = [a for a in range(12) if per_action[a, 0] == 1.0]
    for a in winning:  # a winning move leaves heaps whose xor is zero
        after = list(heaps)
        after[a // 4] -= a % 4 + 1
        assert after[0] ^ after[1] ^ after[2] == 0


def test_dice_race_last_turn_is_won_by_landing_on_the_goal_or_ending_nearer():
    game = DiceRace()
    assert GOAL == 12
    # red's last turn at 9 with 1 and 2: 10 ties green's 10, 11 is nearer, 12 lands
    s = game.from_text("pos=9,10 dice=1,2 to_move=0 turns_left=1 over=0")
    values, per_action = solve(game, s)
    assert per_action[:, 0].tolist() == [0.0, 1.0, 1.0] and values.tolist() == [1.0, -1.0]
    # at 8 with 2 and 5: 10 ties, 13 bounces back to 11, 15 bounces back to 9
    _, per_action = solve(game, game.from_text("pos=8,10 dice=2,5 to_move=0 turns_left=1 over=0"))
    assert per_action[:, 0].tolist() == [0.0, 1.0, -1.0]


def test_dice_race_value_averages_over_the_dice():
    game = DiceRace()
    # green's last turn, at 11 against red's 10: a 1 lands on the goal (11/36); otherwise the
    # smaller die d bounces green to 13 - d: nearer if d = 2 (9/36), level if d = 3 (7/36),
    # behind if d >= 4 (9/36)
    values, _ = solve(game, game.from_text("pos=10,11 dice=0,0 to_move=1 turns_left=1 over=0"))
    assert values[1] == pytest.approx((11 + 9 - 9) / 36)
    assert values[0] == pytest.approx(-values[1])


def test_high_card_with_everything_seen_the_top_card_takes_the_antes():
    game = HighCard()
    values, per_action = solve(game, game.deal([4, 1, 2]))
    assert values.tolist() == [2.0, -1.0, -1.0]           # the others fold
    assert per_action[0].tolist() == [-1.0, -1.0, 2.0]    # folding: seat 2 takes the antes
    assert np.isnan(per_action[2:]).all()


def test_solver_restarts_deeper_when_the_game_is_longer_than_max_depth():
    game = Nim((4, 4, 4))
    assert solve(game, game.init(1), max_depth=2)[0].tolist() == [1.0, -1.0]
