"""Connect four in plain Python: the slow, obvious rules that the kernels are tested against.

A state is ``(columns, to_move, outcome)``: ``columns`` is a tuple of 7 tuples listing each
column's stones from the bottom (0 = x, 1 = o), ``outcome`` is None while playing, else the
winner (0 or 1) or ``"draw"``. Imports neither numba nor the kernels.
"""
ROWS, COLS = 6, 7
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (d_col, d_row)


def initial_state():
    return ((),) * COLS, 0, None


def from_position(cells):
    """The state of ``cells[row][col]`` (row 0 at the bottom), assumed reachable."""
    columns = tuple(tuple(cells[r][c] for r in range(ROWS) if cells[r][c] is not None)
                    for c in range(COLS))
    stones = sum(len(col) for col in columns)
    winners = [p for p in (0, 1) if any(_four_through(columns, c, r)
                                        for c in range(COLS) for r in range(len(columns[c]))
                                        if columns[c][r] == p)]
    outcome = winners[0] if winners else "draw" if stones == ROWS * COLS else None
    return columns, stones % 2, outcome


def to_position(state):
    columns = state[0]
    return tuple(tuple(columns[c][r] if r < len(columns[c]) else None for c in range(COLS))
                 for r in range(ROWS))


def current_player(state):
    return -2 if state[2] is not None else state[1]


def legal_actions(state):
    return [] if state[2] is not None else [c for c in range(COLS) if len(state[0][c]) < ROWS]


def _stone(columns, c, r):
    return columns[c][r] if 0 <= c < COLS and 0 <= r < len(columns[c]) else None


def _four_through(columns, c, r):
    """Whether the stone at column ``c``, row ``r`` is part of four in a row."""
    player = columns[c][r]
    for dc, dr in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            k = 1
            while _stone(columns, c + sign * k * dc, r + sign * k * dr) == player:
                run += 1
                k += 1
        if run >= 4:
            return True
    return False


def step(state, action):
    """``(new state, rewards [x, o])`` after the player to move drops a stone in ``action``."""
    columns, player, _ = state
    assert action in legal_actions(state), (action, state)
    columns = columns[:action] + (columns[action] + (player,),) + columns[action + 1:]
    rewards = [0.0, 0.0]
    outcome = None
    if _four_through(columns, action, len(columns[action]) - 1):
        outcome = player
        rewards[player], rewards[1 - player] = 1.0, -1.0
    elif all(len(col) == ROWS for col in columns):
        outcome = "draw"
    return (columns, 1 - player, outcome), rewards


def observe(state, player):
    """The observation as a flat list: the observer's stones, then the other's, each row by
    row from the bottom, 7 cells a row."""
    cells = to_position(state)
    return [int(cells[r][c] == p) for p in (player, 1 - player)
            for r in range(ROWS) for c in range(COLS)]
