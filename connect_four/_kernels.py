"""Connect four on bitboards: state dtype, masks and the scalar numba kernels.

Cell (column c, row r), row 0 at the bottom, is bit ``7 * c + r`` of a uint64: each column
holds 6 cells and one always-empty guard bit, so that shifting a board by 1 (vertical), 7
(horizontal), 6 and 8 (diagonals) never wraps a line around an edge. ``to_move`` and
``outcome`` follow from the board (``valid_one`` checks that they do); they are stored so that
the hot kernels never recount them.
"""
import numpy as np
from numba import njit

from savanna.bits import ONE, popcount
from savanna.connect_four.notation import NUM_COLS, NUM_ROWS

# ----- declared facts ------------------------------------------------------------------------
NUM_PLAYERS = 2
NUM_CELLS = NUM_ROWS * NUM_COLS       # 42
MAX_PLIES = NUM_CELLS                 # every move fills a cell
OBS_SHAPE = (2, NUM_ROWS, NUM_COLS)   # the observer's stones, the other's; row 0 at the bottom
HEIGHT = NUM_ROWS + 1                 # bits per column, the guard included

PLAYING = -1
DRAW = 2

STATE_DTYPE = np.dtype([
    ("own", np.uint64, (2,)),  # the stones of each player (0 = x, who moves first; 1 = o)
    ("to_move", np.int8),      # the player to move (at the end: the one who would move next)
    ("outcome", np.int8),      # PLAYING (-1), the winner (0 or 1) or DRAW (2)
])

# ----- masks (plain numpy, built once) --------------------------------------------------------
COLUMN = np.array([((1 << NUM_ROWS) - 1) << (HEIGHT * c) for c in range(NUM_COLS)], np.uint64)
BOTTOM = np.array([1 << (HEIGHT * c) for c in range(NUM_COLS)], np.uint64)
TOP = np.array([1 << (HEIGHT * c + NUM_ROWS - 1) for c in range(NUM_COLS)], np.uint64)
BOARD = np.uint64(sum(int(m) for m in COLUMN))
SHIFTS = np.array([1, HEIGHT, HEIGHT - 1, HEIGHT + 1], np.uint64)  # |, -, \, /
ZERO = np.uint64(0)

# Reasons valid_one gives for an impossible state, by code (0: the state is possible).
STATE_ERRORS = (
    "",
    "a stone outside the 6x7 board",
    "a cell holding stones of both players",
    "a stone above an empty cell",
    "stone counts no game reaches (x moves first: x has as many stones as o, or one more)",
    "to_move disagrees with the stone counts",
    "outcome is not -1 (playing), 0 or 1 (the winner) or 2 (a draw)",
    "outcome disagrees with the board (the game ends at the first four in a row, or full)",
    ("a board no game reaches (both players have four in a row, or a four did not come from "
     "the last move, or no order of moves stacks the columns so)"),
)
OUTSIDE, OVERLAP, FLOATING, COUNTS, TO_MOVE, OUTCOME_VALUE, OUTCOME_WRONG, UNREACHABLE = range(
    1, len(STATE_ERRORS))


# ----- helpers --------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def has_four(b):
    """Whether bitboard ``b`` holds four in a row in any direction."""
    for k in range(4):
        d = SHIFTS[k]
        m = b & (b >> d)
        if m & (m >> (d + d)):
            return True
    return False


@njit(cache=True, inline="always")
def drop(occupied, c):
    """The bit where a stone dropped into column ``c`` lands (the column must have room)."""
    return (occupied + BOTTOM[c]) & COLUMN[c]


# ----- the kernels of savanna.game.Kernels ---------------------------------------------------
@njit(cache=True)
def reset_one(s, i, base, streams):
    s[i] = base[0]


@njit(cache=True)
def current_player_one(s, i):
    r = s[i]
    return -2 if r.outcome != PLAYING else np.int64(r.to_move)


@njit(cache=True)
def legal_actions_one(s, i, out):
    r = s[i]
    occupied = r.own[0] | r.own[1]
    n = 0
    for c in range(NUM_COLS):
        if occupied & TOP[c] == ZERO:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def step_one(s, i, action, rewards):
    r = s[i]
    p = r.to_move
    rewards[0] = 0.0
    rewards[1] = 0.0
    occupied = r.own[0] | r.own[1]
    mine = r.own[p] | drop(occupied, action)
    r.own[p] = mine
    r.to_move = 1 - p
    if has_four(mine):
        r.outcome = p
        rewards[p] = 1.0
        rewards[1 - p] = -1.0
    elif (occupied | mine) == BOARD:
        r.outcome = DRAW


@njit(cache=True)
def chance_probs_one(s, i, probs):
    """Connect four has no chance nodes."""


@njit(cache=True)
def apply_chance_one(s, i, outcome):
    """Connect four has no chance nodes."""


@njit(cache=True)
def observe_one(s, i, player, out):
    """``out[0 * 42 + 7 * row + col]``: the observer's stones, ``out[42 + ...]``: the
    other player's (``OBS_SHAPE``, row 0 at the bottom)."""
    r = s[i]
    me = r.own[player]
    other = r.own[1 - player]
    for c in range(NUM_COLS):
        for row in range(NUM_ROWS):
            bit = np.uint64(HEIGHT * c + row)
            out[NUM_COLS * row + c] = (me >> bit) & ONE
            out[NUM_CELLS + NUM_COLS * row + c] = (other >> bit) & ONE


# ----- validation -----------------------------------------------------------------------------
@njit(cache=True)
def _stackable(b0, b1, heights):
    """Whether alternate moves, x first, can stack the columns into ``b0`` (x) and ``b1`` (o)
    with ``heights`` stones per column: a search that takes the last stone off a column top
    (the colour of the last mover) and backtracks, remembering the column heights from which
    it failed (at most 7**7 of them, so it always ends quickly). The memory is allocated at
    the first failure only: boards of real games rarely need it."""
    stride = np.empty(NUM_COLS, np.int64)
    size = 1
    key = 0
    total = 0
    for c in range(NUM_COLS):
        stride[c] = size
        key += heights[c] * size
        size *= heights[c] + 1
        total += heights[c]
    failed = np.zeros(0, np.bool_)
    h = heights.copy()
    tried = np.zeros(NUM_CELLS + 1, np.int64)  # the next column to try, per depth
    depth = 0
    while total > 0:
        last = b0 if total % 2 == 1 else b1    # the stone numbered ``total`` is x's if odd
        moved = False
        while tried[depth] < NUM_COLS:
            c = tried[depth]
            tried[depth] += 1
            if h[c] > 0 and last & (ONE << np.uint64(HEIGHT * c + h[c] - 1)) \
                    and not (len(failed) and failed[key - stride[c]]):
                h[c] -= 1
                total -= 1
                key -= stride[c]
                depth += 1
                tried[depth] = 0
                moved = True
                break
        if not moved:
            if not len(failed):
                failed = np.zeros(size, np.bool_)
            failed[key] = True
            if depth == 0:
                return False
            depth -= 1
            c = tried[depth] - 1
            h[c] += 1
            total += 1
            key += stride[c]
    return True


@njit(cache=True)
def valid_one(s, i, base):
    """0 if state ``i`` is a position of some game of connect four, else a ``STATE_ERRORS``
    code: the board, the counts, ``to_move``, ``outcome``, and an order of moves that
    reaches the board (the four, if any, made by the last move)."""
    r = s[i]
    b0 = r.own[0]
    b1 = r.own[1]
    if (b0 | b1) & ~BOARD:
        return OUTSIDE
    if b0 & b1:
        return OVERLAP
    occupied = b0 | b1
    heights = np.empty(NUM_COLS, np.int64)
    for c in range(NUM_COLS):
        column = occupied & COLUMN[c]
        if (column + BOTTOM[c]) & column:         # a gap: the column is not 0b0..01..1
            return FLOATING
        heights[c] = popcount(column)
    n0 = popcount(b0)
    n1 = popcount(b1)
    if n0 != n1 and n0 != n1 + 1:
        return COUNTS
    if r.to_move != n0 - n1:
        return TO_MOVE
    if r.outcome < PLAYING or r.outcome > DRAW:
        return OUTCOME_VALUE
    four0 = has_four(b0)
    four1 = has_four(b1)
    if four0 and four1:
        return UNREACHABLE
    last = 0 if n0 > n1 else 1                    # the player who moved last
    if four0 or four1:
        winner = 0 if four0 else 1
        if r.outcome != winner:
            return OUTCOME_WRONG
        if winner != last:
            return UNREACHABLE
        mine = b0 if winner == 0 else b1
        for c in range(NUM_COLS):                 # which top stone of the winner made it
            if heights[c] == 0:
                continue
            top = ONE << np.uint64(HEIGHT * c + heights[c] - 1)
            if mine & top and not has_four(mine & ~top):
                heights[c] -= 1
                ok = _stackable(b0 & ~top, b1 & ~top, heights)
                heights[c] += 1
                if ok:
                    return 0
        return UNREACHABLE
    expected = DRAW if popcount(occupied) == NUM_CELLS else PLAYING
    if r.outcome != expected:
        return OUTCOME_WRONG
    return 0 if _stackable(b0, b1, heights) else UNREACHABLE
