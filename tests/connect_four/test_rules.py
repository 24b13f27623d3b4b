"""Connect four's rules, notation and state checks, on positions written in the notation."""
import numpy as np
import pytest

from savanna.connect_four import _kernels as K
from savanna.connect_four import notation, reference
from savanna.connect_four.game import ConnectFourGame
from savanna.connect_four.twin import play_lockstep, random_positions
from savanna.game import TERMINAL


@pytest.fixture(scope="module")
def game():
    return ConnectFourGame()


def board(*rows):
    """A position from its rows, top first (the diagram kept in the test)."""
    return "/".join(rows)


def test_first_moves_and_names(game):
    s = game.init(1)
    assert game.legal_actions(s) == list(range(7))
    assert [game.action_to_string(s[0], a) for a in range(7)] == list("abcdefg")
    s, _ = game.step(s, [game.string_to_action(s[0], "d")])
    assert game.to_text(s[0]) == board(*["......."] * 5, "...x...")
    assert game.current_player(s)[0] == 1


@pytest.mark.parametrize("winning, move, text", [
    ("vertical", "a", board(".......", ".......", "x......", "x.o....", "x.o....", "x.o....")),
    ("horizontal", "d", board(*["......."] * 4, "oo.....", "xxxx.o.")),
    ("diagonal /", "d", board(".......", ".......", "...x...", "..xo...", ".xoo...", "xoox.x.")),
    ("diagonal \\", "a", board(".......", ".......", "x......", "ox.....", "xox....", "ooox.x.")),
])
def test_four_in_a_row_wins(game, winning, move, text):
    """Undo the winning move, replay it: +1 for the mover, -1 for the other, the end."""
    won = game.from_text(text)
    assert game.current_player(won)[0] == TERMINAL and not game.legal_mask(won).any()
    cells = [list(r) for r in game.to_position(won)]
    col = notation.COLUMNS.index(move)
    top = max(r for r in range(6) if cells[r][col] is not None)
    cells[top][col] = None
    before = game.from_position(cells)
    after, rewards = game.step(before, [col])
    assert after.tobytes() == won.tobytes()
    assert rewards[0].tolist() == [1.0, -1.0]


def test_full_board_without_four_is_a_draw(game):
    text = board("oxoxoxo", "oxoxoxo", "xoxoxox", "xoxoxox", "oxoxoxo", "xoxoxox")
    cells = [list(r) for r in notation.parse(text)]
    cells[5][6] = None
    before = game.from_position(cells)          # o's last stone goes into g
    after, rewards = game.step(before, [6])
    assert game.to_text(after[0]) == text
    assert game.current_player(after)[0] == TERMINAL and rewards[0].tolist() == [0.0, 0.0]


def test_full_column_is_not_legal(game):
    s = game.from_text(board(*["o......", "x......"] * 3))
    assert game.legal_actions(s) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="illegal action 0 \\(a\\)"):
        game.step(s, [0])


@pytest.mark.parametrize("text, reason", [
    (board(*["......."] * 5, "xx....."), "stone counts"),
    (board(*["......."] * 5, "o......"), "stone counts"),
    (board(*["......."] * 4, "x......", ".o....."), "above an empty cell"),
    (board(*["......."] * 4, "x......", "o......"), "no game reaches"),  # o cannot move first
    (board(*["......."] * 2, *["xo....."] * 4), "no game reaches"),     # two fours
    (board(*["......."] * 2, "x......", "x......", "x.....o", "x.o.o.o"),  # play went on
     "no game reaches"),
])
def test_impossible_positions_are_rejected(game, text, reason):
    with pytest.raises(ValueError, match=reason):
        game.from_text(text)


@pytest.mark.parametrize("field, value, reason", [
    ("to_move", 1, "to_move"),
    ("outcome", 3, "outcome is not"),
    ("outcome", 0, "outcome disagrees"),
    ("own", [1 << 6, 0], "outside"),
    ("own", [1, 1], "both players"),
])
def test_corrupted_rows_are_rejected(game, field, value, reason):
    s = game.init(1)
    s[0][field] = value
    with pytest.raises(ValueError, match=f"not a possible .*{reason}"):
        game.legal_mask(s)


@pytest.mark.parametrize("text", ["", "......./.......", board(*["......."] * 5, "...X..."),
                                  board(*["......."] * 5, "......"), 42])
def test_malformed_text_is_a_value_error(game, text):
    with pytest.raises(ValueError):
        game.from_text(text)


@pytest.mark.parametrize("text", ["h", "", "dd", "3", None])
def test_malformed_moves_are_value_errors(game, text):
    with pytest.raises(ValueError, match="column letter|illegal|a..g"):
        game.string_to_action(game.init(1)[0], text)


def _boards(stones):
    """Every board with at most ``stones`` stones that respects gravity (columns as stacks)."""
    out = []

    def fill(col, columns, left):
        if col == 7:
            out.append(tuple(tuple(columns[c][r] if r < len(columns[c]) else None
                                   for c in range(7)) for r in range(6)))
            return
        for height in range(min(left, 6) + 1):
            for code in range(1 << height):
                fill(col + 1, columns + [[code >> k & 1 for k in range(height)]], left - height)

    fill(0, [], stones)
    return out


def _reachable(plies):
    """The boards of every game prefix of at most ``plies`` moves (reference rules)."""
    seen, level = set(), {reference.initial_state()}
    for _ in range(plies + 1):
        seen |= {reference.to_position(s) for s in level}
        level = {reference.step(s, a)[0] for s in level for a in reference.legal_actions(s)}
    return seen


@pytest.mark.parametrize("stones", [5, pytest.param(7, marks=pytest.mark.slow)])
def test_valid_one_accepts_exactly_the_reachable_boards(game, stones):
    """Every gravity-respecting board of few stones: valid_one says possible exactly when some
    game of at most that many moves reaches it (wins at the 7th stone when ``stones`` is 7)."""
    rows = np.concatenate([game._row(cells) for cells in _boards(stones)])
    accepted = {game.to_position(rows[i : i + 1]) for i in range(len(rows))
                if K.valid_one(rows, i, game.base_state()) == 0}
    assert accepted == _reachable(stones)


def test_random_games_agree_with_the_reference(game):
    rng = np.random.default_rng(1)
    for row in random_positions(game, 60, seed=1):
        play_lockstep(game, row.reshape(1).copy(), 42, rng)
