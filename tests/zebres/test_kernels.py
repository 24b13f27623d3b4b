"""Zèbres bitboard kernels: the decision counts of rules §8 and invariants along random games."""
import numpy as np
import pytest

from savanna.bits import popcount
from savanna.zebres import _kernels as K
from savanna.zebres import spec
from savanna.zebres.game import ZebresGame

# rules §8: distinct sequences of d decisions from the start position, d = 1..7
PERFT = {
    "standard": [22, 600, 1_800, 48_600, 145_714, 3_506_966, 10_519_639],
    "president": [22, 600, 1_800, 48_600, 145_716, 3_507_109, 10_519_926],
}


@pytest.mark.parametrize("board", spec.BOARDS)
@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_matches_the_rules_table(board, depth):
    assert K.perft(ZebresGame(board).base_state(), depth) == PERFT[board][depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("board", spec.BOARDS)
def test_perft_depth_7(board):
    assert K.perft(ZebresGame(board).base_state(), 7) == PERFT[board][6]


def test_perft_is_colour_symmetric():
    """Green choosing Impala's start and red placing first gives the same tree, colours swapped."""
    assert (K.perft(ZebresGame(first_placer=0).base_state(), 5)
            == K.perft(ZebresGame(first_placer=1).base_state(), 5))


def test_perft_depth_0_counts_the_empty_sequence():
    assert K.perft(ZebresGame().base_state(), 0) == 1


def test_game_perft_checks_its_input():
    game = ZebresGame()
    assert game.perft(game.init(1)[0], 2) == PERFT["standard"][1]
    for depth in (-1, True, 2.0, 10**12):
        with pytest.raises(ValueError, match="depth must be an int in 0..128"):
            game.perft(game.init(1), depth)
    with pytest.raises(ValueError, match="one zebres state"):
        game.perft(game.init(2), 1)


def _check_invariants(row):
    """The bitboards of one state describe a legal arrangement of the 30 tokens."""
    own0, own1 = int(row["own"][0]), int(row["own"][1])
    kinds = [int(m) for m in row["kind"]]
    occupied = own0 | own1
    assert own0 & own1 == 0
    assert occupied < 1 << 30
    assert sum(popcount(np.uint64(m)) for m in kinds) == bin(occupied).count("1")
    assert np.bitwise_or.reduce(kinds) == occupied          # kinds partition the tokens
    assert int(row["down"]) & ~(kinds[K.Z] | kinds[K.G]) == 0
    for own in (own0, own1):
        hands = [int(K.HAND[t]) - bin(own & kinds[t]).count("1") for t in range(5)]
        assert min(hands) >= 0 and sum(hands) + bin(own).count("1") == 15
    if row["phase"] == K.CROC:
        assert row["croc"] >= 0 and int(row["swapped"]) & ~kinds[K.G] == 0
    else:
        assert row["croc"] == -1 and row["swapped"] == 0
    assert (row["phase"] == K.END) == (occupied == (1 << 30) - 1)


@pytest.mark.parametrize("options", [{}, {"board": "president"}, {"first_placer": 0}])
def test_random_games_keep_the_invariants(options):
    """At every step of 40 seeded random games: tokens conserved, mask non-empty exactly
    until the end, decision phases offer a real choice, text round trip is byte exact."""
    game = ZebresGame(**options)
    rng = np.random.default_rng(7)
    for _ in range(40):
        s = game.init(1)
        plies = 0
        while True:
            row = s[0]
            _check_invariants(row)
            again = game.from_text(game.to_text(row))
            assert again.tobytes() == s.tobytes()
            legal = game.legal_actions(row)
            if row["phase"] == K.END:
                assert legal == []
                break
            assert legal == sorted(legal) and legal
            if row["phase"] in (K.MOVE, K.CROC):
                assert len(legal) >= 2  # a single option is applied automatically
            s, rewards = game.step(s, [rng.choice(legal)])
            plies += 1
            if s[0]["phase"] != K.END:
                assert not rewards.any()
        assert plies <= game.max_plies
        assert rewards.sum() == 0 and abs(rewards[0, 0]) <= 1


def test_rewards_follow_the_final_scores():
    game = ZebresGame()
    s = game.init(500, rng=3)
    totals, plies = game.random_playouts(s, rng=3)
    scores = game.scores(s)
    assert game.is_terminal(s).all() and plies.max() <= game.max_plies
    assert (totals[:, 0] == np.sign(scores[:, 0] - scores[:, 1])).all()
    assert (totals.sum(axis=1) == 0).all()


def test_observation_is_player_relative():
    """Red's own planes and hand are green's opponent planes and hand, and vice versa."""
    game = ZebresGame()
    rng = np.random.default_rng(1)
    s = game.init(50)
    for _ in range(70):
        mask = game.legal_mask(s)
        alive = mask.any(axis=1)
        if not alive.any():
            break
        sub = s[alive]
        game.step_inplace(sub, [rng.choice(np.flatnonzero(m)) for m in mask[alive]])
        s[alive] = sub
        obs0, obs1 = game.observe(s, 0), game.observe(s, 1)
        assert (obs0[:, :150] == obs1[:, 150:300]).all()
        assert (obs0[:, 300:627] == obs1[:, 300:627]).all()
        assert (obs0[:, 627:642] == obs1[:, 642:657]).all()
        assert (obs0[:, 657] == obs1[:, 658]).all()
        tokens = [bin(int(r["own"][0] | r["own"][1])).count("1") for r in s]
        assert (obs0[:, :300].sum(axis=1) == tokens).all()
        assert (obs0[:, 659] + obs1[:, 659] == (game.current_player(s) >= 0)).all()
