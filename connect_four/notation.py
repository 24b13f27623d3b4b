"""Connect four text notation (pure Python): positions and action names.

A position is the board only, six rows from the top, separated by ``/``: ``x`` (the first
player, seat 0), ``o`` (seat 1) or ``.``, seven cells a row, columns ``a`` to ``g``::

    ......./......./......./......./...o.../..xx...

Everything else is derived from the board: ``x`` moves when both have as many stones, ``o``
when ``x`` has one more; the game is over at the first four in a row or on a full board.
(``from_text`` rejects boards that no game reaches.)

Action ``c`` (0..6) drops a stone into column ``c``, named ``a`` .. ``g`` as OpenSpiel's
columns 0..6.
"""

from savanna.errors import clip

NUM_ROWS = 6
NUM_COLS = 7
NUM_ACTIONS = NUM_COLS
COLUMNS = "abcdefg"
STONES = "xo"          # seat 0, seat 1
EMPTY = "."


def action_name(action):
    """``'a'`` .. ``'g'``: the column of ``action`` (0..6)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action must be in 0..{NUM_ACTIONS - 1}, got {action!r}")
    return COLUMNS[action]


def parse_action(text):
    """The action of a column name ``'a'`` .. ``'g'``."""
    name = text.strip().lower() if isinstance(text, str) else None
    if name is None or len(name) != 1 or name not in COLUMNS:
        raise ValueError(f"a move is a column letter a..g, got {clip(text)}")
    return COLUMNS.index(name)


def parse(text):
    """The board of a position as ``cells[row][col]`` (row 0 at the bottom), each ``None``,
    0 (``x``) or 1 (``o``); a ValueError naming the first thing that is wrong."""
    if not isinstance(text, str):  # a ValueError, as for every bad input at the API
        raise ValueError(f"a position must be a string, got {type(text).__name__}")
    rows = text.strip().split("/")
    if len(rows) != NUM_ROWS:
        raise ValueError(f"a position has {NUM_ROWS} rows separated by '/', got {len(rows)} "
                         f"in {clip(text)}")
    cells = []
    for number, row in zip(range(NUM_ROWS, 0, -1), rows):
        if len(row) != NUM_COLS or set(row) - set(STONES + EMPTY):
            raise ValueError(f"row {number} must be {NUM_COLS} of 'x', 'o' or '.', "
                             f"got {clip(row)}")
        cells.append(tuple(None if ch == EMPTY else STONES.index(ch) for ch in row))
    return tuple(reversed(cells))


def format(cells):
    """The text of ``cells[row][col]`` (row 0 at the bottom)."""
    return "/".join("".join(EMPTY if v is None else STONES[v] for v in row)
                    for row in reversed(cells))

