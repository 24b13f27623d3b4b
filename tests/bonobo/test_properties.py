"""Properties of the kernel game over many seeded random games: the 28 tiles are conserved,
chance probabilities are the remaining counts, games end within max_plies with zero-sum
rewards, observations are player-relative and show nothing but public facts."""
import numpy as np
import pytest

from savanna.bonobo import _kernels as K
from savanna.bonobo import spec
from savanna.bonobo.game import BonoboGame
from savanna.game import CHANCE, TERMINAL
from tests.bonobo.helpers import KernelImpl, play_all
from tests.bonobo.test_rules import EVICTION

COUNTS = np.array(spec.TILE_COUNTS)
VALUES = np.array(spec.VALUES)


def _tiles_everywhere(s):
    """Per state and value: tiles in the pile + on the board + in hand."""
    on_board = np.stack([(s["tval"] == v).sum(axis=1) // 2 for v in VALUES], axis=1)
    in_hand = (s["drawn"][:, None] == np.arange(8)) & (s["phase"][:, None] == K.PLACE)
    return s["pile"].astype(np.int64) + on_board + in_hand


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_tiles_conserved_and_chance_is_the_remaining_counts(num_players):
    game = BonoboGame(num_players)
    rng = np.random.default_rng(num_players)
    s = game.init(64)
    for _ in range(4 * game.max_plies):
        assert (_tiles_everywhere(s) == COUNTS).all()
        players = game.current_player(s)
        probs = game.chance_probs(s)
        chance = players == CHANCE
        np.testing.assert_allclose(probs[chance].sum(axis=1), 1.0)
        np.testing.assert_array_equal(
            probs[chance], s["pile"][chance] / s["pile"][chance].sum(axis=1, keepdims=True))
        assert (probs[~chance] == 0).all()
        if (players == TERMINAL).all():
            break
        sub = s[chance]
        game.apply_chance(sub, np.array([rng.choice(8, p=p) for p in probs[chance]], np.int64))
        s[chance] = sub
        decide = players >= 0
        sub = s[decide]
        mask = game.legal_mask(sub)
        game.step_inplace(sub, np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int64))
        s[decide] = sub
    assert (game.current_player(s) == TERMINAL).all()


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_end_within_max_plies_and_are_zero_sum(num_players):
    game = BonoboGame(num_players)
    s = game.init(2000)
    returns, plies = game.random_playouts(s, rng=num_players)
    assert (game.current_player(s) == TERMINAL).all()
    assert plies.max() <= game.max_plies
    np.testing.assert_allclose(returns.sum(axis=1), 0.0, atol=1e-5)
    scores = game.scores(s)
    won = scores == scores.max(axis=1, keepdims=True)
    share = won / won.sum(axis=1, keepdims=True)
    P = num_players
    np.testing.assert_allclose(returns, P / (P - 1) * (share - 1 / P), atol=1e-6)


def test_the_pile_order_is_nowhere_in_the_state():
    """Two histories that draw the same tiles in another order, placed on the same slots,
    reach byte-identical states: there is no order to see, for any seat."""
    impl = KernelImpl()
    start = impl.load("players=2 tiles=- pawns=- score=0,0 pile=3,3,4,4,4,4,3,3 move=0 "
                      "phase=choose")
    a, _ = play_all(impl, start, ["draw", "+1", "tile t00-t01", "draw", "-4", "tile t02-t03"])
    b, _ = play_all(impl, start, ["draw", "-4", "tile t02-t03", "draw", "+1", "tile t00-t01"])
    assert a.tobytes() == b.tobytes()
    assert set(K.STATE_DTYPE.names) == {"covered", "slots", "pawns", "score", "tval", "pile",
                                        "drawn", "phase", "to_move", "num_players"}


def test_observation_layout_is_player_relative():
    game = BonoboGame(2)
    s = game.from_text(EVICTION)   # player 0: s02 s05, player 1: s01 s04; +2 in hand
    own, other = game.observe(s, 0)[0], game.observe(s, 1)[0]
    pawns = 12 * 54
    assert np.flatnonzero(own[pawns:pawns + 19]).tolist() == [2, 5]
    assert np.flatnonzero(own[pawns + 19:pawns + 38]).tolist() == [1, 4]
    assert np.flatnonzero(other[pawns:pawns + 19]).tolist() == [1, 4]
    plus_one = spec.VALUES.index(1) * 54
    assert np.flatnonzero(own[plus_one:plus_one + 54]).tolist() == [2, 3]
    flat = 12 * 54 + 5 * 19
    assert np.flatnonzero(own[flat:flat + 8]).tolist() == [spec.VALUES.index(2)]
    # pile=3,3,4,3,3,2,2,2 out of 3,3,4,4,4,4,3,3
    assert own[flat + 8:flat + 8 + 28].tolist() == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
                                                    1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0]
    supplies = flat + 8 + sum(spec.TILE_COUNTS)
    assert own[supplies:supplies + 16].tolist() == [1, 1, 0, 0] * 2 + [0] * 8
    assert own[795:827].tolist() == [0, 0, 0, 0, 0, 0, 0, 1] * 2 + [0] * 16   # 0 + 128
    assert own[827:831].tolist() == [0, 0, 1, 0]                               # place
    assert own[831:835].tolist() == [1, 0, 0, 0] and other[831:835].tolist() == [0, 1, 0, 0]
    assert own[835:839].tolist() == [1, 1, 0, 0]
    np.testing.assert_array_equal(own[:pawns], other[:pawns])


def test_observe_rejects_an_absent_seat():
    game = BonoboGame(3)
    with pytest.raises(ValueError, match="player must be an int in 0..2"):
        game.observe(game.init(1), 3)
