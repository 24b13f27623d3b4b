"""Connect four against OpenSpiel's C++ ``connect_four`` (through ``pyspiel``): the same board,
player to move, legal actions, rewards and returns in seeded random games, and the same perft.

A small sample runs in ``make test``; 10,000 games and perft 6 in ``make check-full``.
"""
import numpy as np
import pytest

from savanna.connect_four.game import ConnectFourGame

pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def game():
    return ConnectFourGame()


def openspiel_player(state):
    return -2 if state.is_terminal() else state.current_player()


def texts(game, states):
    """The notation of every state, computed for the whole batch at once (OpenSpiel's
    ``str(state)`` with ``/`` for newlines)."""
    bits = np.arange(6)[:, None] + 7 * np.arange(7)[None, :]            # [row, col]
    own = states["own"].astype(np.uint64)[:, :, None, None]
    stones = ((own >> bits.astype(np.uint64)) & np.uint64(1)).astype(bool)  # [n, player, 6, 7]
    chars = np.where(stones[:, 0], "x", np.where(stones[:, 1], "o", "."))[:, ::-1]
    return ["/".join("".join(row) for row in board) for board in chars]


def lockstep(game, n, seed):
    """Play ``n`` random games in both, in lockstep (ours as one batch); the number of moves."""
    theirs_game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(seed)
    ours = game.init(n)
    theirs = [theirs_game.new_initial_state() for _ in range(n)]
    totals = np.zeros((n, 2), np.float32)
    moves = 0
    while True:
        players = game.current_player(ours).tolist()
        legal = [np.flatnonzero(m).tolist() for m in game.legal_mask(ours)]
        for i, (text, state) in enumerate(zip(texts(game, ours), theirs)):
            ours_view = (text, players[i], legal[i])
            theirs_view = (str(state).strip().replace("\n", "/"), openspiel_player(state),
                           state.legal_actions())
            assert ours_view == theirs_view, f"game {i}"
            if state.is_terminal():
                assert totals[i].tolist() == state.returns(), f"game {i}, {text}"
        going = np.flatnonzero(np.array(players) >= 0)
        if not len(going):
            return moves
        actions = np.array([rng.choice(legal[i]) for i in going])
        sub = ours[going]
        rewards = game.step_inplace(sub, actions)
        totals[going] += rewards
        ours[going] = sub
        for i, a, r in zip(going, actions, rewards.tolist()):
            theirs[i].apply_action(int(a))
            assert r == theirs[i].rewards(), (i, game.to_text(ours[i]))
        moves += len(going)


def test_batch_texts_are_the_notation(game):
    s = game.init(5, rng=0)
    game.random_playouts(s, rng=0)
    assert texts(game, s) == [game.to_text(row) for row in s]


def perft_ours(game, depth):
    """Move sequences of length ``depth`` from the start, one batch per level."""
    level = game.init(1)
    for _ in range(depth):
        mask = game.legal_mask(level)
        rows, actions = np.nonzero(mask)
        level, _ = game.step(level[rows], actions)
    return len(level)


def perft_openspiel(depth):
    level = [pyspiel.load_game("connect_four").new_initial_state()]
    for _ in range(depth):
        level = [s.child(a) for s in level for a in s.legal_actions()]
    return len(level)


def test_random_games_agree_with_openspiel(game):
    assert lockstep(game, 300, seed=1) > 300 * 7


@pytest.mark.slow
def test_ten_thousand_random_games_agree_with_openspiel(game):
    assert lockstep(game, 10_000, seed=2) > 10_000 * 7


@pytest.mark.parametrize("depth", [4, pytest.param(6, marks=pytest.mark.slow)])
def test_perft_agrees_with_openspiel(game, depth):
    assert perft_ours(game, depth) == perft_openspiel(depth) == 7 ** depth
