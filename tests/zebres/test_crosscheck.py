"""The kernels (ZebresGame) against the pure-Python reference, move for move.

At every node both sides must agree on the state, the legal actions, the player, the rewards,
the observations and the scores (the comparison is ``twin.py``'s, shared with the fuzz tests).
Sources of nodes:

* seeded random games, all played in lockstep (the kernel side is one batch);
* every decision sequence to a small depth, from the start and from seeded mid-game positions
  chosen to hold crocodile chains, lions and the end of the game;
* ``play_lockstep`` (the fuzz hook) from seeded mid-game positions given as text;
* the reference's decision counts against the table of rules §8 (the kernels' own counts are
  checked in test_kernels.py).
"""
import numpy as np
import pytest

from savanna.zebres import reference, spec
from savanna.zebres.game import ZebresGame
from savanna.zebres.twin import disagreements, play_lockstep, ref_text, step_both

SEED = 2026_11_29          # the seed of every random choice below
BOARDS = spec.BOARDS

PERFT = {  # rules §8
    "standard": [22, 600, 1_800, 48_600, 145_714, 3_506_966, 10_519_639],
    "president": [22, 600, 1_800, 48_600, 145_716, 3_507_109, 10_519_926],
}


def random_games_agree(board, n_games, seed, first_placer=1):
    """Play ``n_games`` seeded uniform random games in lockstep; assert no disagreement."""
    game = ZebresGame(board, first_placer)
    rng = np.random.default_rng(seed)
    rows = game.init(n_games, rng=0)
    refs = [reference.new_game(board, first_placer)] * n_games
    plies = 0
    while refs:
        found = disagreements(game, rows, refs)
        assert not found, "\n".join(found)
        live = [j for j, ref in enumerate(refs) if reference.legal_actions(ref)]
        if not live:
            return
        actions = [int(rng.choice(reference.legal_actions(refs[j]))) for j in live]
        rows, refs, found = step_both(game, rows[live], [refs[j] for j in live], actions)
        assert not found, "\n".join(found)
        plies += 1
        assert plies <= game.max_plies, "a game outlived MAX_PLIES"


@pytest.mark.parametrize("board", BOARDS)
def test_random_games_sample(board):
    random_games_agree(board, 100, SEED)


def test_random_games_green_chooses_the_start():
    random_games_agree("standard", 60, SEED + 1, first_placer=0)


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
def test_random_games_full(board):
    random_games_agree(board, 2_000, SEED + 2)


# ----- every decision sequence to a small depth -----------------------------------------------
def all_sequences_agree(game, rows, refs, depth, observe_leaves=True):
    """Compare every node of the tree of ``depth`` decisions below ``refs``; count the leaves."""
    for level in range(depth + 1):
        if not refs:
            return 0
        observe = observe_leaves or level < depth
        found = disagreements(game, rows, refs, observe)
        assert not found, f"at depth {level}:\n" + "\n".join(found)
        if level == depth:
            return len(refs)
        parents, actions = [], []
        for j, ref in enumerate(refs):
            for action in reference.legal_actions(ref):
                parents.append(j)
                actions.append(action)
        if not parents:
            return 0
        rows, refs, found = step_both(game, rows[parents], [refs[j] for j in parents], actions)
        assert not found, f"at depth {level + 1}:\n" + "\n".join(found)
    return len(refs)


@pytest.mark.parametrize("board, depth", [
    ("standard", 4),
    ("president", 3),   # the two boards' trees differ from depth 5 on
    pytest.param("president", 4, marks=pytest.mark.slow),
])
def test_every_sequence_from_the_start(board, depth):
    """Depth 4 is 48,600 sequences; the leaves' observations are left to the other tests."""
    game = ZebresGame(board)
    leaves = all_sequences_agree(
        game, game.init(1, rng=0), [reference.new_game(board)], depth, observe_leaves=False)
    assert leaves == PERFT[board][depth - 1]


def crocodile_chain_ahead(state):
    """A crocodile placed on Impala's line could start a chain of two swaps or more."""
    if state.phase != "place" or not reference.hand(state, state.to_move)["C"]:
        return False
    for cell in reference.line_of(state.impala):
        if state.cells[cell] is None:
            after, _ = reference.step(state, spec.PLACE + 4 * 30 + cell)
            if after.phase == "croc" and any(
                    reference.step(after, a)[0].phase == "croc"
                    for a in reference.legal_actions(after) if a != spec.STOP):
                return True
    return False


def lion_ahead(state):
    """A lion placed on Impala's line would land next to a gazelle and a zebra."""
    if state.phase != "place" or not reference.hand(state, state.to_move)["L"]:
        return False
    for cell in reference.line_of(state.impala):
        if state.cells[cell] is None:
            around = {state.cells[n].kind for n in reference.adjacent(cell)
                      if state.cells[n] is not None}
            if {"G", "Z"} <= around:
                return True
    return False


def end_ahead(state):
    """At most six empty cells: the whole rest of the game is a small tree."""
    return state.phase == "place" and sum(c is None for c in state.cells) <= 6


def seeded_positions(board, wanted, count, seed=SEED):
    """The first state meeting ``wanted`` in each of ``count`` seeded random reference games
    (games without one are skipped)."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(50 * count):
        state = reference.new_game(board)
        while reference.legal_actions(state):
            if wanted(state):
                found.append(state)
                break
            state, _ = reference.step(state, int(rng.choice(reference.legal_actions(state))))
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} positions found for {wanted.__name__}")


MIDGAME = [  # (what the positions hold, how deep the trees below them go)
    (crocodile_chain_ahead, 4),
    (lion_ahead, 3),
    (end_ahead, 30),  # to the end of the game
]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("wanted, depth", MIDGAME, ids=[w.__name__ for w, _ in MIDGAME])
def test_every_sequence_from_midgame_positions(board, wanted, depth):
    game = ZebresGame(board)
    for state in seeded_positions(board, wanted, 3):
        all_sequences_agree(game, game.from_text(ref_text(state)), [state], depth)


@pytest.mark.parametrize("board", BOARDS)
def test_play_lockstep_from_midgame_positions(board):
    """The fuzz hook plays every seeded mid-game position above to the end in lockstep."""
    game = ZebresGame(board)
    rng = np.random.default_rng(SEED)
    for wanted, _ in MIDGAME:
        for state in seeded_positions(board, wanted, 3):
            play_lockstep(game, game.from_text(ref_text(state)), game.max_plies, rng)


def test_play_lockstep_reports_a_disagreement(monkeypatch):
    """A reference that scores one point more for red is caught at the first node."""
    game = ZebresGame()
    real_scores = reference.scores
    monkeypatch.setattr(reference, "scores", lambda state: [real_scores(state)[0] + 1,
                                                            real_scores(state)[1]])
    expected = r"(?s)0 plies after .* scores: kernel \[0, 0\], reference \[1, 0\]"
    with pytest.raises(AssertionError, match=expected):
        play_lockstep(game, game.init(1), 5, np.random.default_rng(0))


# ----- the reference's decision counts (rules §8) ---------------------------------------------
@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_reference_perft(board, depth):
    assert reference.perft(reference.new_game(board), depth) == PERFT[board][depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
def test_reference_perft_depth_6(board):
    """(Depth 7 also matches; it takes minutes in pure Python, so it is left out.)"""
    assert reference.perft(reference.new_game(board), 6) == PERFT[board][5]
