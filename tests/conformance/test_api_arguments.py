"""The Game API's argument checks (issue #11): a one-line ValueError naming what was wrong and
what is allowed, raised before anything runs."""
import numpy as np
import pytest

from savanna.rng import as_generator
from zebres.game import ZebresGame

GAME = ZebresGame()


@pytest.mark.parametrize("n", [True, 0, -1, 2.0, "2", None])
def test_init_takes_a_positive_int(n):
    with pytest.raises(ValueError, match="n must be a positive int") as err:
        GAME.init(n)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("rng", ["abc", 1.5, -1, True, [1, 2], np.random.SeedSequence(0)])
def test_rng_is_none_a_seed_or_a_generator(rng):
    with pytest.raises(ValueError, match="rng must be None, an int seed >= 0 or a np.random"):
        GAME.init(2, rng=rng)


def test_the_accepted_rngs_give_the_same_games():
    a = GAME.init(3, rng=7)
    assert a.tobytes() == GAME.init(3, rng=np.int64(7)).tobytes()
    assert a.tobytes() == GAME.init(3, rng=np.random.default_rng(7)).tobytes()
    generator = np.random.default_rng(1)
    assert as_generator(generator) is generator


@pytest.mark.parametrize("player", [0.5, True, [0, 1, 0], [[0, 1]], 2, -1, "0"])
def test_observe_takes_a_seat_or_one_per_state(player):
    s = GAME.init(2, rng=0)
    with pytest.raises(ValueError, match=r"player must be an int in 0\.\.1 or 2 of them") as err:
        GAME.observe(s, player)
    assert "\n" not in str(err.value)


def test_observe_takes_an_int_or_an_int_per_state():
    s = GAME.init(2, rng=0)
    both = GAME.observe(s, np.array([1, 1]))
    assert np.array_equal(both, GAME.observe(s, 1))
    assert np.array_equal(both, GAME.observe(s, np.int8(1)))
