"""The board data of rules §1-2 and the counting check of §9."""
import numpy as np
import pytest

from savanna.bonobo import reference as R
from savanna.bonobo import spec
from savanna.bonobo.game import BonoboGame
from savanna.game import CHANCE


def test_triangles_rows_and_order():
    rows = [min(p[1] for p in corners) for corners in spec.TRIANGLES]
    assert [rows.count(r) for r in range(-3, 3)] == [7, 9, 11, 11, 9, 7]
    assert rows == sorted(rows)
    # V(0, 0) and A(0, 0) are consecutive, V first
    v = spec.TRIANGLES.index(((0, 0), (1, 0), (0, 1)))
    assert spec.TRIANGLES[v + 1] == ((1, 0), (0, 1), (1, 1))


def test_slots_spots_and_symbols():
    assert spec.NUM_TRIANGLES == 54 and spec.NUM_SLOTS == 72 and spec.NUM_SPOTS == 19
    assert all(len(tris) == 6 for tris in spec.SPOT_TRIANGLES)
    assert (spec.SPOTS[0], spec.SPOTS[9], spec.SPOTS[18]) == ((0, -2), (0, 0), (0, 2))
    assert [spec.SYMBOLS.count(symbol) for symbol in "TPD"] == [6, 12, 36]
    rotate = {frozenset(c): t for t, c in enumerate(spec.TRIANGLES)}
    turned = [rotate[frozenset((-r, q + r) for q, r in spec.TRIANGLES[t])] for t in range(54)]
    # 6-fold symmetry
    assert all(spec.SYMBOLS[turned[t]] == spec.SYMBOLS[t] for t in range(54))


def test_tiles():
    assert dict(zip(spec.VALUES, spec.TILE_COUNTS)) == {1: 4, 2: 4, 3: 3, 4: 3,
                                                  -1: 4, -2: 4, -3: 3, -4: 3}


def test_unknown_player_count_names_the_allowed_ones():
    for bad in (1, 5, "2"):
        with pytest.raises(ValueError, match="num_players must be an int in 2..4"):
            BonoboGame(bad)
        with pytest.raises(ValueError, match="num_players must be an int in 2..4"):
            R.new_game(bad)


def _perft_reference(state, depth):
    if depth == 0:
        return 1
    player = R.current_player(state)
    if player == R.CHANCE:
        return sum(_perft_reference(R.apply_chance(state, o), depth - 1)
                   for o in R.chance_outcomes(state))
    return sum(_perft_reference(R.step(state, a)[0], depth - 1) for a in R.legal_actions(state))


def _perft_kernel(game, depth):
    """Count step sequences level by level on whole batches."""
    s = game.init(1)
    for _ in range(depth):
        chance = game.current_player(s) == CHANCE
        probs = game.chance_probs(s[chance])
        rows, outcomes = np.nonzero(probs)
        drawn = s[chance][rows]
        game.apply_chance(drawn, outcomes)
        mask = game.legal_mask(s[~chance])
        rows, actions = np.nonzero(mask)
        decided, _ = game.step(s[~chance][rows], actions)
        s = np.concatenate([drawn, decided])
    return len(s)


COUNTS = [20, 369, 6884, 124038]   # rules §9


@pytest.mark.parametrize("players", [2, 3, 4])
def test_counting_sequences_kernel(players):
    assert [_perft_kernel(BonoboGame(players), d) for d in range(1, 5)] == COUNTS


def test_counting_sequences_reference():
    assert [_perft_reference(R.new_game(2), d) for d in range(1, 4)] == COUNTS[:3]


@pytest.mark.slow
def test_counting_sequences_depth_5():
    assert _perft_kernel(BonoboGame(2), 5) == 2_152_368
