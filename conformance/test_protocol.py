"""The Game protocol, checked the same way on every game configuration (``conftest.py``).

Random games here are driven through the public batched API (seeded), so these tests also
exercise the boundary checks that agents and environments rely on.
"""
import numba
import numpy as np
import pytest

from savanna.conformance import play_random
from savanna.game import CHANCE, TERMINAL

N_GAMES = 24


def test_declared_facts(game):
    s = game.init(3, rng=0)
    assert s.dtype == game.state_dtype
    assert game.observe(s, 0).shape == (3, *game.obs_shape)
    assert game.legal_mask(s).shape == (3, game.num_actions)
    assert game.has_chance == (game.max_chance_outcomes > 0)


def test_masks_probabilities_rewards_and_length(game):
    """Masks are non-empty exactly at decision nodes; chance probabilities sum to one at chance
    nodes and are zero elsewhere; rewards only come from decisions; games end within
    max_plies decisions; zero-sum games' returns sum to zero; no seat observes a value above
    the declared obs_high."""
    rng = np.random.default_rng(11)
    states = game.init(N_GAMES, rng=1)
    plies = np.zeros(N_GAMES, np.int64)

    def check(s):
        players = game.current_player(s)
        mask = game.legal_mask(s)
        probs = game.chance_probs(s)
        np.testing.assert_array_equal(mask.any(axis=1), players >= 0)
        if game.has_chance:
            np.testing.assert_allclose(probs[players == CHANCE].sum(axis=1), 1.0, atol=1e-9)
            assert (probs[players != CHANCE] == 0).all()
            assert (probs >= 0).all()
        plies[:] += players >= 0
        assert (plies <= game.max_plies).all()
        assert max(game.observe(s, p).max() for p in range(game.num_players)) <= game.obs_high

    totals = play_random(game, states, rng, on_step=check)
    assert (game.current_player(states) == TERMINAL).all()
    assert not game.legal_mask(states).any()
    if game.zero_sum:
        np.testing.assert_allclose(totals.sum(axis=1), 0.0, atol=1e-6)


def test_batch_equals_single(game):
    """Stepping n states together gives the same states and rewards as one at a time."""
    rng = np.random.default_rng(5)
    batch = game.init(8, rng=3)

    def compare(s):
        players = game.current_player(s)
        decide = np.flatnonzero(players >= 0)
        if not len(decide):
            return
        sub = s[decide]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in game.legal_mask(sub)])
        together, rewards = game.step(sub, actions)
        for k in range(len(sub)):
            alone, r = game.step(sub[k : k + 1], actions[k : k + 1])
            assert alone[0].tobytes() == together[k].tobytes()
            np.testing.assert_array_equal(r[0], rewards[k])
            np.testing.assert_array_equal(game.observe(alone, 0)[0], game.observe(together, 0)[k])

    play_random(game, batch, np.random.default_rng(6), on_step=compare)


def test_random_playouts_same_with_one_and_two_threads(game):
    """Each state owns its random stream: serial, 1-thread and 2-thread playouts agree."""
    start = game.init(200, rng=4)
    results = []
    for threads in (1, 2):
        numba.set_num_threads(threads)
        s = start.copy()
        returns, plies = game.random_playouts(s, rng=9, parallel=True)
        results.append((s.tobytes(), returns, plies))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    s = start.copy()
    returns, plies = game.random_playouts(s, rng=9)
    results.append((s.tobytes(), returns, plies))
    for other in results[1:]:
        assert other[0] == results[0][0]
        np.testing.assert_array_equal(other[1], results[0][1])
        np.testing.assert_array_equal(other[2], results[0][2])
    assert (plies <= game.max_plies).all()
    assert (game.current_player(s) == TERMINAL).all()


def test_seeded_init_and_playouts_reproducible(game):
    a, b = game.init(50, rng=7), game.init(50, rng=7)
    assert a.tobytes() == b.tobytes()
    ra = game.random_playouts(a, rng=8)
    rb = game.random_playouts(b, rng=8)
    assert a.tobytes() == b.tobytes()
    np.testing.assert_array_equal(ra[0], rb[0])


def test_text_round_trip_and_action_names(game):
    """Every reached state survives to_text/from_text; every legal action's name parses back."""
    rng = np.random.default_rng(2)

    def check(s):
        for row in s[:4]:
            back = game.from_text(game.to_text(row))
            assert back[0].tobytes() == row.tobytes(), game.to_text(row)
            if game.current_player(back)[0] >= 0:
                for a in game.legal_actions(row):
                    assert game.string_to_action(row, game.action_to_string(row, a)) == a

    play_random(game, game.init(4, rng=2), rng, on_step=check)


@pytest.mark.parametrize("bad", [
    lambda g: np.zeros(2, [("x", np.int8)]),
    lambda g: np.zeros(2, np.int64),
    lambda g: g.init(4).reshape(2, 2),
    lambda g: [1, 2],
])
def test_wrong_states_are_rejected(game, bad):
    with pytest.raises(ValueError, match="states"):
        game.legal_mask(bad(game))


def test_illegal_and_malformed_actions_are_rejected(game):
    s = game.init(1, rng=0)
    while game.current_player(s)[0] == CHANCE:
        probs = game.chance_probs(s)[0]
        game.apply_chance(s, [int(np.flatnonzero(probs)[0])])
    illegal = np.flatnonzero(~game.legal_mask(s)[0])
    if len(illegal):
        with pytest.raises(ValueError, match="illegal action"):
            game.step(s, [illegal[0]])
    with pytest.raises(ValueError, match="out of range"):
        game.step(s, [game.num_actions])
    with pytest.raises(ValueError, match="actions must be"):
        game.step(s, [0.5])
    with pytest.raises(ValueError):
        game.from_text("this is not a position")
