"""Drôles de Zèbres text notation (pure Python): ``parse`` and ``format`` a position, and the
names of actions; the board maps and action ids are ``savanna.zebres.spec``'s. A position::

    ZG..../....../....../....../...... g 3 - place

Every field, the action ids and the checks ``parse`` makes: the game's page
(docs/games/zebres.md). Every error is a one-line ``ValueError``.
"""
from dataclasses import dataclass, field

from savanna.errors import check_choice, check_int, clip, is_int
from savanna.zebres.spec import (
    BOARDS,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    GREEN,
    IMPALA,
    KIND_NAMES,
    KINDS,
    NUM_ACTIONS,
    NUM_CELLS,
    NUM_COLS,
    NUM_ROWS,
    PHASES,
    PLACE,
    RED,
    SECTOR_MAPS,
    START,
    STOP,
    SWAP,
    TOKEN_COUNTS,
    TOKEN_VALUES,
    TRACK_LENGTH,
    TRACK_LINES,
    neighbours,
)

TRACK_NAMES = {str(p): p for p in range(TRACK_LENGTH)}  # the only spellings of a position
MAX_TEXT = 500  # no position is longer (about 120 characters, whitespace aside)


@dataclass(frozen=True)
class Token:
    """One token on the board: its owner (0 red, 1 green), kind in ``ZGELC``, face down?"""

    player: int
    kind: str
    down: bool = False

    @property
    def letter(self):
        """The notation of the token, e.g. ``Z``, ``g*``."""
        letter = self.kind if self.player == RED else self.kind.lower()
        return letter + ("*" if self.down else "")

    @property
    def value(self):
        """Its worth when scored: 0 face down, else the kind's value."""
        return 0 if self.down else TOKEN_VALUES[self.kind]


@dataclass(frozen=True)
class Position:
    """A position as written in the notation, shared by the kernels and the reference."""

    board: tuple
    to_move: int
    impala: int | None
    inauguration: int | None
    phase: str
    croc_cell: int | None = None
    swapped: frozenset = field(default_factory=frozenset)

    def hand(self, player):
        """``{kind: count}`` of the tokens ``player`` still holds."""
        counts = dict(TOKEN_COUNTS)
        for token in self.board:
            if token is not None and token.player == player:
                counts[token.kind] -= 1
        return counts


def check_first_placer(first_placer):
    """Raise a clear ValueError unless ``first_placer`` is the int 0 (red) or 1 (green)."""
    check_int("first_placer", first_placer, RED, GREEN, "a seat")


def start_position(first_placer=1):
    """The initial position: the player who does not place first chooses Impala's start."""
    check_first_placer(first_placer)
    first_placer = int(first_placer)
    return Position((None,) * NUM_CELLS, 1 - first_placer, None, None, "setup")


# ----- cells and the track ----------------------------------------------------------------
def cell_name(cell):
    """``cell_name(21) == 'd4'``: column letter a-f, row number 1-5 from the top."""
    cell = check_int("cell index", cell, 0, NUM_CELLS - 1)
    return "abcdef"[cell % NUM_COLS] + str(cell // NUM_COLS + 1)


def cell_index(name):
    """``cell_index('d4') == 21``; the inverse of ``cell_name``."""
    text = name.strip().lower() if isinstance(name, str) else ""
    if len(text) != 2 or text[0] not in "abcdef" or text[1] not in "12345":
        raise ValueError(f"cell name must be a column a-f then a row 1-5 (e.g. 'c4'), "
                         f"got {clip(name)}")
    return (int(text[1]) - 1) * NUM_COLS + "abcdef".index(text[0])


def check_board_name(board):
    """Raise a clear ValueError unless ``board`` is one of ``BOARDS``."""
    check_choice("board", board, BOARDS)


# ----- action names -------------------------------------------------------------------------
def action_name(action):
    """``action_name(3*30 + 21) == 'L d4'``; names only, legality is the game's business."""
    action = check_int("action", action, 0, NUM_ACTIONS - 1)
    if action < START:
        return f"{KINDS[action // NUM_CELLS]} {cell_name(action % NUM_CELLS)}"
    if action < SWAP:
        return f"start {action - START}"
    if action < STOP:
        return f"swap {cell_name(action - SWAP)}"
    if action == STOP:
        return "stop"
    return f"impala +{action - IMPALA}"


def parse_action(text):
    """The action id of a name: ``Z c4``, ``start 14``, ``swap d4``, ``stop``, ``impala +2``."""
    words = text.split() if isinstance(text, str) else []
    try:
        if words == ["stop"]:
            return STOP
        if len(words) == 2 and words[0] == "start" and words[1] in TRACK_NAMES:
            return START + TRACK_NAMES[words[1]]
        elif len(words) == 2 and words[0] == "swap":
            return SWAP + cell_index(words[1])
        elif len(words) == 2 and words[0] == "impala" and words[1] in ("+1", "+2", "+3"):
            return IMPALA + int(words[1][1])
        elif len(words) == 2 and len(words[0]) == 1 and words[0].upper() in KINDS:
            return PLACE + KINDS.index(words[0].upper()) * NUM_CELLS + cell_index(words[1])
    except ValueError:
        pass
    raise ValueError(
        f"unknown action {clip(text)}; expected 'Z c4' (kind Z G E L C, cell a1..f5), "
        "'start 0'..'start 21', 'swap d4', 'stop' or 'impala +1'..'impala +3'")


# ----- parse --------------------------------------------------------------------------------
def _parse_row(row_number, text):
    cells = []
    for char in text:
        if char == "*":
            if not cells or cells[-1] is None or cells[-1].down:
                raise ValueError(f"row {row_number}: '*' must directly follow a token "
                                 f"letter, got {clip(text)}")
            if cells[-1].kind not in "ZG":
                raise ValueError(f"row {row_number}: only zebras and gazelles can be face down "
                                 f"('*'), got {cells[-1].letter}* in {clip(text)}")
            cells[-1] = Token(cells[-1].player, cells[-1].kind, True)
        elif char == ".":
            cells.append(None)
        elif char in KINDS or char in KINDS.lower():
            cells.append(Token(RED if char.isupper() else GREEN, char.upper()))
        else:
            raise ValueError(f"row {row_number}: unknown letter {char!r} in {clip(text)}; "
                             "allowed: . Z G E L C (upper case red, lower case green), * after "
                             "Z or G")
    if len(cells) != NUM_COLS:
        raise ValueError(f"row {row_number} must have 6 cells, got {len(cells)}: {clip(text)}")
    return cells


def _parse_player(name, text, allow_none):
    if allow_none and text == "-":
        return None
    if text in ("r", "g"):
        return COLOUR_LETTERS.index(text)
    allowed = "'-', 'r' or 'g'" if allow_none else "'r' or 'g'"
    raise ValueError(f"{name} must be {allowed}, got {clip(text)}")


def _parse_croc(text):
    parts = text.split(":")
    if len(parts) != 3:
        raise ValueError(
            f"croc phase must be 'croc:<crocodile cell>:<swapped cells or ->', got {clip(text)}")
    try:
        croc_cell = cell_index(parts[1])
        swapped = [] if parts[2] == "-" else [cell_index(name) for name in parts[2].split(",")]
    except ValueError:
        raise ValueError(f"croc phase has a bad cell name in {clip(text)}; cells are a1..f5, "
                         "swapped cells comma separated or '-'") from None
    if len(set(swapped)) != len(swapped):
        raise ValueError(f"croc phase lists a swapped cell twice: {clip(text)}")
    return croc_cell, frozenset(swapped)


def parse(text, board=None):
    """The ``Position`` written in ``text``; raises a one-line ``ValueError`` if malformed.

    With ``board`` (``'standard'`` or ``'president'``) also checks the rule-level consistency
    that needs the sector map (the game's page lists these checks).
    """
    if not isinstance(text, str):
        raise ValueError(f"position must be a str, got {type(text).__name__} {clip(text)}")
    if len(text) > MAX_TEXT:
        raise ValueError(f"position text too long ({len(text)} characters, at most "
                         f"{MAX_TEXT}): {clip(text, 40)}")
    fields = text.split()
    if len(fields) != 5:
        raise ValueError(f"position must have 5 space-separated fields (board to_move impala "
                         f"inauguration phase), got {len(fields)}: {clip(text)}")
    board_text, to_move_text, impala_text, inauguration_text, phase_text = fields
    rows = board_text.split("/")
    if len(rows) != NUM_ROWS:
        raise ValueError(f"board must have 5 rows separated by '/', got {len(rows)}: "
                         f"{clip(board_text)}")
    cells = tuple(cell for number, row in enumerate(rows, 1) for cell in _parse_row(number, row))
    to_move = _parse_player("to_move", to_move_text, allow_none=False)
    if impala_text == "-":
        impala = None
    elif impala_text in TRACK_NAMES:
        impala = TRACK_NAMES[impala_text]
    else:
        raise ValueError(f"impala must be '-' or a track position 0..21, "
                         f"got {clip(impala_text)}")
    inauguration = _parse_player("inauguration", inauguration_text, allow_none=True)
    croc_cell, swapped = None, frozenset()
    if phase_text.startswith("croc:"):
        phase = "croc"
        croc_cell, swapped = _parse_croc(phase_text)
    elif phase_text in PHASES and phase_text != "croc":
        phase = phase_text
    else:
        raise ValueError(f"phase must be setup, place, croc:<cell>:<cells>, move or end; "
                         f"got {clip(phase_text)}")
    position = Position(cells, to_move, impala, inauguration, phase, croc_cell, swapped)
    validate(position, board)
    return position


# ----- validation ---------------------------------------------------------------------------
def validate(pos, board=None, first_placer=None):
    """Raise a one-line ValueError if ``pos`` cannot be a Zèbres position (see ``parse``);
    with ``first_placer`` (a game option), a setup position must be that option's start."""
    if not isinstance(pos, Position):
        raise ValueError(f"expected a savanna.zebres.notation.Position, got {clip(pos)}")
    if not (isinstance(pos.board, tuple) and len(pos.board) == NUM_CELLS):
        raise ValueError(f"board must be a tuple of 30 cells, got {clip(pos.board)}")
    for token in pos.board:
        if token is not None and not (
                isinstance(token, Token) and is_int(token.player) and 0 <= token.player < 2
                and isinstance(token.kind, str) and len(token.kind) == 1 and token.kind in KINDS
                and token.down in (False, True) and (token.kind in "ZG" or not token.down)):
            raise ValueError(f"a cell must be None or a Token(player 0|1, kind in ZGELC, "
                             f"down only for Z and G), got {clip(token)}")
    if not (is_int(pos.to_move) and 0 <= pos.to_move < 2):
        raise ValueError(f"to_move must be 0 or 1, got {clip(pos.to_move)}")
    if not (isinstance(pos.phase, str) and pos.phase in PHASES):
        raise ValueError(f"phase must be one of {', '.join(PHASES)}, got {clip(pos.phase)}")
    if pos.impala is not None and not (is_int(pos.impala) and 0 <= pos.impala < TRACK_LENGTH):
        raise ValueError(f"impala must be None or a track position 0..21, "
                         f"got {clip(pos.impala)}")
    if pos.inauguration is not None and not (
            is_int(pos.inauguration) and 0 <= pos.inauguration < 2):
        raise ValueError(f"inauguration must be None, 0 or 1, got {clip(pos.inauguration)}")
    if not (isinstance(pos.swapped, frozenset)
            and all(is_int(c) and 0 <= c < NUM_CELLS for c in pos.swapped)):
        raise ValueError(f"swapped must be a frozenset of cells 0..29, got {clip(pos.swapped)}")
    for player in (RED, GREEN):
        for kind, left in pos.hand(player).items():
            if left < 0:
                raise ValueError(
                    f"too many {COLOUR_NAMES[player]} {KIND_NAMES[kind]}s on the board: "
                    f"{TOKEN_COUNTS[kind] - left} (each player has {TOKEN_COUNTS[kind]})")
    filled = sum(token is not None for token in pos.board)
    mover = COLOUR_NAMES[pos.to_move]
    if pos.phase == "setup":
        if filled or pos.impala is not None or pos.inauguration is not None:
            raise ValueError("setup phase needs an empty board, impala '-' and inauguration '-'")
        if first_placer is not None and pos.to_move == first_placer:
            raise ValueError(f"setup phase: {COLOUR_LETTERS[1 - first_placer]} (who chooses "
                             f"Impala's start when first_placer={first_placer}) must be to move")
    elif pos.impala is None:
        raise ValueError(f"impala must be placed (0..21) in phase {pos.phase}")
    if pos.phase == "end" and filled < NUM_CELLS:
        raise ValueError(f"end phase needs a full board, {NUM_CELLS - filled} cells are empty")
    if pos.phase in ("place", "move") and filled == NUM_CELLS:
        raise ValueError(f"the board is full: the phase must be end (or croc), not {pos.phase}")
    if pos.phase == "place" and not any(pos.hand(pos.to_move).values()):
        raise ValueError(f"place phase but {mover} (to move) has no token left to place")
    if pos.phase != "croc" and (pos.croc_cell is not None or pos.swapped):
        raise ValueError("a crocodile cell and swapped cells are only allowed in phase croc")
    if pos.phase == "croc":
        _validate_croc(pos)
    if board is not None:
        _validate_rules(pos, board)


def _validate_croc(pos):
    mover = COLOUR_NAMES[pos.to_move]
    if not (is_int(pos.croc_cell) and 0 <= pos.croc_cell < NUM_CELLS):
        raise ValueError(f"croc phase needs a crocodile cell, got {clip(pos.croc_cell)}")
    if pos.board[pos.croc_cell] != Token(pos.to_move, "C"):
        raise ValueError(f"croc phase: {cell_name(pos.croc_cell)} must hold a crocodile of "
                         f"{mover} (to move)")
    for cell in sorted(pos.swapped):
        if cell == pos.croc_cell:
            raise ValueError(f"croc phase: the crocodile cell {cell_name(cell)} is listed as "
                             "a swapped gazelle")
        token = pos.board[cell]
        if token is None or token.kind != "G":
            raise ValueError(f"croc phase: swapped cell {cell_name(cell)} must hold a gazelle")


def _validate_rules(pos, board):
    """The consistency checks that need the sector map of ``board``."""
    check_board_name(board)
    sectors = SECTOR_MAPS[board]
    if pos.phase == "place" and all(pos.board[c] is not None for c in TRACK_LINES[pos.impala]):
        raise ValueError(f"place phase but the line Impala faces ({pos.impala}) is full")
    if pos.phase == "move":
        options = [k for k in (1, 2, 3) if any(
            pos.board[c] is None for c in TRACK_LINES[(pos.impala + k) % TRACK_LENGTH])]
        if len(options) < 2:
            raise ValueError("move phase needs at least two possible Impala moves (a single "
                             "one is applied automatically)")
    if pos.phase not in ("croc", "setup") and pos.inauguration is None:
        for sector in "ABCDEF":
            if all(pos.board[c] is not None for c in range(NUM_CELLS) if sectors[c] == sector):
                raise ValueError(f"sector {sector} is full but the inauguration is unclaimed "
                                 "('-'): it goes to whoever fills a sector first")
    if pos.phase == "croc":
        swaps = [n for n in neighbours(pos.croc_cell)
                 if sectors[n] != sectors[pos.croc_cell] and n not in pos.swapped
                 and pos.board[n] is not None and pos.board[n].kind == "G"
                 and not pos.board[n].down]
        if not swaps:
            raise ValueError("croc phase needs a swap left (a chain with none ends by itself)")


# ----- format -------------------------------------------------------------------------------
def format(pos):  # noqa: A001 - the contract's name, the inverse of parse
    """The notation of ``pos`` (validated first), e.g. ``....../... r - - setup``."""
    validate(pos)
    rows = ["".join("." if t is None else t.letter for t in pos.board[r * 6:(r + 1) * 6])
            for r in range(NUM_ROWS)]
    phase = pos.phase
    if phase == "croc":
        swapped = ",".join(cell_name(c) for c in sorted(pos.swapped)) or "-"
        phase = f"croc:{cell_name(pos.croc_cell)}:{swapped}"
    return " ".join([
        "/".join(rows),
        COLOUR_LETTERS[pos.to_move],
        "-" if pos.impala is None else str(pos.impala),
        "-" if pos.inauguration is None else COLOUR_LETTERS[pos.inauguration],
        phase,
    ])
