"""Kernel vs reference, exhaustively: from act-phase states met in seeded random games, every
sequence of decisions and chance outcomes up to the next turn is played by both and compared
(text, player, legal actions and rewards at every node). A frenzy's reroll is a leaf (its 6^5
outcomes are left to the random cross-check)."""
import numpy as np
import pytest

from savanna.banjooli import notation, spec
from savanna.banjooli import reference as ref
from savanna.banjooli.game import BanjooliGame
from savanna.game import CHANCE


def _act_states(game, n, seed):
    """Up to ``n`` distinct act-phase states met along seeded random games."""
    rng = np.random.default_rng(seed)
    s = game.init(8, rng=seed)
    found = {}
    for _ in range(4000):
        players = game.current_player(s)
        for i in np.flatnonzero(players >= 0):
            if s[i]["phase"] == spec.ACT:
                found.setdefault(s[i].tobytes(), s[i : i + 1].copy())
        if len(found) >= n or (players == -2).all():
            break
        for i in range(len(s)):
            row = s[i : i + 1]
            if players[i] == CHANCE:
                game.apply_chance(row, [rng.integers(6)])
            elif players[i] >= 0:
                game.step_inplace(row, [rng.choice(game.legal_actions(row[0]))])
            s[i : i + 1] = row
    return list(found.values())[:n]


def _walk(game, s, st, first_turn):
    """Compare the subtree below ``s`` (kernel) and ``st`` (reference); returns its size."""
    text = game.to_text(s[0])
    assert notation.format(ref.to_position(st)) == text
    player = game.current_player(s)[0]
    assert ref.current_player(st) == player, text
    if s[0]["turn"] != first_turn or player == -2 or s[0]["phase"] == spec.FRENZY_ROLL:
        return 1
    if player == CHANCE:
        branches = [(o, None) for o in range(6)]
    else:
        legal = game.legal_actions(s[0])
        assert ref.legal_actions(st) == legal, text
        branches = [(None, a) for a in legal]
    nodes = 1
    for outcome, action in branches:
        child = s.copy()
        if action is None:
            game.apply_chance(child, [outcome])
            child_st = ref.apply_chance(st, outcome)
        else:
            rewards = game.step_inplace(child, [action])[0]
            child_st, ref_rewards = ref.step(st, action)
            np.testing.assert_allclose(ref_rewards, rewards, atol=1e-6, err_msg=text)
        nodes += _walk(game, child, child_st, first_turn)
    return nodes


@pytest.mark.parametrize("options", [dict(num_players=2), dict(num_players=3, berries=True),
                                     dict(num_players=2, special="vortex", berries=True),
                                     dict(num_players=2, special="lava")], ids=str)
def test_every_turn_continuation_agrees(options):
    game = BanjooliGame(**options)
    total = 0
    for s in _act_states(game, 40, seed=21):
        st = ref.from_position(notation.parse(game.to_text(s[0])))
        total += _walk(game, s, st, int(s[0]["turn"]))
    assert total > 400
