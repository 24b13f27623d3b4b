"""Drôles de Zèbres, the slow obvious way: the oracle the numba kernels are checked against.

Every rule of ../shared/rules/zebres.md written out in plain Python, on a state that is little
more than the written position; it imports ``savanna.zebres.notation`` and nothing compiled.
The readings it takes where the rules are silent (each tested in tests/zebres/test_rules.py) are
on the game's page (docs/games/zebres.md).

>>> from savanna.zebres import notation
>>> s = new_game()
>>> s, rewards = step(s, notation.parse_action("start 3"))
>>> legal_actions(s)[:2]    # a zebra on d1, a zebra on d2
[3, 9]
"""
from dataclasses import dataclass, replace

from savanna.zebres.notation import Position, Token, check_board_name, check_first_placer, validate
from savanna.zebres.spec import (
    IMPALA,
    INAUGURATION_BONUS,
    KINDS,
    OBS,
    PLACE,
    SECTOR_MAPS,
    START,
    STOP,
    SWAP,
    TOKEN_COUNTS,
)

TERMINAL = -2
ROWS, COLS, TRACK = 5, 6, 22
PHASES = ("setup", "place", "croc", "move", "end")


def line_of(position):
    """The cells of the row or column facing track ``position`` (rules §2)."""
    if position <= 5:                      # top, left to right: column i
        return [row * COLS + position for row in range(ROWS)]
    if position <= 10:                     # right, top to bottom: row i - 6
        return [(position - 6) * COLS + col for col in range(COLS)]
    if position <= 16:                     # bottom, right to left: column 16 - i
        return [row * COLS + (16 - position) for row in range(ROWS)]
    return [(21 - position) * COLS + col for col in range(COLS)]   # left, bottom to top


LINES = [line_of(p) for p in range(TRACK)]
SECTORS = {  # board -> the cells of sectors A..F
    board: [[c for c in range(30) if letters[c] == sector] for sector in "ABCDEF"]
    for board, letters in SECTOR_MAPS.items()}


def adjacent(cell):
    """Orthogonal neighbours of ``cell``."""
    row, col = divmod(cell, COLS)
    around = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
    return [r * COLS + c for r, c in around if 0 <= r < ROWS and 0 <= c < COLS]


@dataclass(frozen=True)
class State:
    """A whole game state: the written position plus the board map in use."""

    board_name: str
    cells: tuple           # 30 entries: None or notation.Token
    to_move: int
    impala: int | None
    inauguration: int | None
    phase: str
    croc_cell: int | None = None
    swapped: frozenset = frozenset()

    @property
    def sectors(self):
        return SECTOR_MAPS[self.board_name]


# ----- creation and conversion -------------------------------------------------------------
def new_game(board="standard", first_placer=1):
    """The start: the player who does not place first chooses Impala's starting position."""
    check_board_name(board)
    check_first_placer(first_placer)
    return State(board, (None,) * 30, 1 - first_placer, None, None, "setup")


def from_position(pos, board="standard", first_placer=None):
    """The state of a notation ``Position`` on ``board`` (checked for consistency, and with
    ``first_placer`` a setup position must be that option's start)."""
    validate(pos, board, first_placer)
    return State(board, pos.board, pos.to_move, pos.impala, pos.inauguration, pos.phase,
                 pos.croc_cell, pos.swapped)


def to_position(state):
    return Position(state.cells, state.to_move, state.impala, state.inauguration, state.phase,
                    state.croc_cell, state.swapped)


# ----- small facts -------------------------------------------------------------------------
def hand(state, player):
    """``{kind: count}`` still in ``player``'s hand: tokens never leave the game."""
    counts = dict(TOKEN_COUNTS)
    for token in state.cells:
        if token is not None and token.player == player:
            counts[token.kind] -= 1
    return counts


def has_tokens(state, player):
    return sum(hand(state, player).values()) > 0


def line_has_room(cells, position):
    return any(cells[c] is None for c in LINES[position % TRACK])


def next_to_lion(cells, cell):
    return any(cells[n] is not None and cells[n].kind == "L" for n in adjacent(cell))


def swap_targets(state):
    """Cells of the face-up gazelles across a river from the crocodile, not yet swapped."""
    here = state.croc_cell
    return sorted(
        n for n in adjacent(here)
        if state.sectors[n] != state.sectors[here]
        and state.cells[n] is not None and state.cells[n].kind == "G" and not state.cells[n].down
        and n not in state.swapped)


def impala_options(state):
    """The steps 1..3 Impala may take: those reaching a line with an empty cell."""
    return [k for k in (1, 2, 3) if line_has_room(state.cells, state.impala + k)]


def current_player(state):
    return TERMINAL if state.phase == "end" else state.to_move


# ----- legal actions -----------------------------------------------------------------------
def legal_actions(state):
    """The legal decisions, in ascending id order (empty at the end)."""
    if state.phase == "setup":
        return [START + p for p in range(TRACK)]
    if state.phase == "place":
        in_hand = hand(state, state.to_move)
        empty = sorted(c for c in LINES[state.impala] if state.cells[c] is None)
        return [PLACE + k * 30 + c for k, kind in enumerate(KINDS) if in_hand[kind]
                for c in empty]
    if state.phase == "croc":
        return [SWAP + c for c in swap_targets(state)] + [STOP]
    if state.phase == "move":
        return [IMPALA + k for k in impala_options(state)]
    return []


# ----- step --------------------------------------------------------------------------------
def step(state, action):
    """Apply one legal decision and the forced moves after it: ``(new_state, rewards)``."""
    if action not in legal_actions(state):
        raise ValueError(f"action {action!r} is not legal here; legal: {legal_actions(state)}")
    if state.phase == "setup":
        started = replace(state, impala=action - START, phase="place")
        return replace(started, to_move=next_player(started, state.to_move)), [0.0, 0.0]
    if state.phase == "place":
        return place(state, KINDS[(action - PLACE) // 30], (action - PLACE) % 30)
    if state.phase == "croc" and action == STOP:
        return end_of_placement(state)
    if state.phase == "croc":
        return swap(state, action - SWAP)
    return move_impala(state, action - IMPALA)


def place(state, kind, cell):
    """Put a face-up token on ``cell`` and resolve its effects (rules §5.1)."""
    player = state.to_move
    cells = list(state.cells)
    cells[cell] = Token(player, kind)
    if kind in "ZG" and next_to_lion(cells, cell):
        cells[cell] = Token(player, kind, down=True)
    if kind == "L":
        for n in adjacent(cell):
            if cells[n] is not None and cells[n].kind == "Z":
                cells[n] = Token(cells[n].player, "Z", down=True)
            elif cells[n] is not None and cells[n].kind == "G":   # face up or down: it flees
                cells[n] = None
    placed = replace(state, cells=tuple(cells))
    if kind == "C":
        chain = replace(placed, phase="croc", croc_cell=cell, swapped=frozenset())
        if swap_targets(chain):
            return chain, [0.0, 0.0]
    return end_of_placement(placed)


def swap(state, gazelle_cell):
    """The crocodile and the gazelle on ``gazelle_cell`` trade places (rules §5.2)."""
    cells = list(state.cells)
    gazelle = cells[gazelle_cell]
    cells[gazelle_cell] = cells[state.croc_cell]
    cells[state.croc_cell] = gazelle
    if next_to_lion(cells, state.croc_cell):
        cells[state.croc_cell] = Token(gazelle.player, "G", down=True)
    chain = replace(state, cells=tuple(cells), croc_cell=gazelle_cell,
                    swapped=state.swapped | {state.croc_cell})
    if swap_targets(chain):
        return chain, [0.0, 0.0]
    return end_of_placement(chain)


def end_of_placement(state):
    """Inauguration check, then the end of the game or the Impala move (rules §5.3, §5.4, §6)."""
    player = state.to_move
    state = replace(state, phase="place", croc_cell=None, swapped=frozenset())
    if state.inauguration is None and any_sector_full(state):
        state = replace(state, inauguration=player)
    if all(token is not None for token in state.cells):
        final = replace(state, phase="end")
        return final, outcome(scores(final))
    options = impala_options(state)
    if len(options) >= 2:
        return replace(state, phase="move"), [0.0, 0.0]
    if options:
        return move_impala(state, options[0])
    k = 4                                   # forced: the first line further on with room
    while not line_has_room(state.cells, state.impala + k):
        k += 1
    return move_impala(state, k)


def move_impala(state, k):
    """Impala moves ``k`` steps clockwise, then the turn passes (rules §5.4, §5.5)."""
    moved = replace(state, impala=(state.impala + k) % TRACK, phase="place")
    return replace(moved, to_move=next_player(moved, state.to_move)), [0.0, 0.0]


def next_player(state, player):
    """The other player, unless their hand is empty: then ``player`` plays again."""
    return 1 - player if has_tokens(state, 1 - player) else player


def any_sector_full(state):
    return any(all(state.cells[c] is not None for c in cells)
               for cells in SECTORS[state.board_name])


# ----- scores and rewards ------------------------------------------------------------------
def scores(state):
    """``[red, green]``: each sector's face-up values go to its strict majority holder."""
    totals = [0, 0]
    for cells in SECTORS[state.board_name]:
        tokens = [state.cells[c] for c in cells if state.cells[c] is not None]
        counts = [sum(t.player == p for t in tokens) for p in (0, 1)]
        if counts[0] != counts[1]:
            totals[0 if counts[0] > counts[1] else 1] += sum(t.value for t in tokens)
    if state.inauguration is not None:
        totals[state.inauguration] += INAUGURATION_BONUS
    return totals


def outcome(final_scores):
    """Rewards +1 / -1, or 0 / 0 for a draw."""
    red, green = final_scores
    if red == green:
        return [0.0, 0.0]
    return [1.0, -1.0] if red > green else [-1.0, 1.0]


# ----- observation -------------------------------------------------------------------------
def observe(state, player):
    """``OBS.size`` ints from ``player``'s seat, laid out as ``OBS`` (planes, then features)."""
    at = OBS.offset
    obs = [0] * OBS.size
    opponent = 1 - player
    for cell, token in enumerate(state.cells):
        if token is not None:
            side = at("own_tokens") if token.player == player else at("opponent_tokens")
            obs[side + KINDS.index(token.kind) * 30 + cell] = 1
            if token.down:
                obs[at("face_down") + cell] = 1
    if state.impala is not None:
        for cell in LINES[state.impala]:
            obs[at("impala_line") + cell] = 1
        obs[at("impala_position") + state.impala] = 1
    for sector, cells in enumerate(SECTORS[state.board_name]):
        for cell in cells:
            obs[at("sectors") + sector * 30 + cell] = 1
    if state.phase == "croc":
        obs[at("crocodile") + state.croc_cell] = 1
        for cell in state.swapped:
            obs[at("swapped") + cell] = 1
    obs[at("phase") + PHASES.index(state.phase)] = 1
    for start, who in ((at("own_hand"), player), (at("opponent_hand"), opponent)):
        held = hand(state, who)
        for kind in KINDS:
            for k in range(TOKEN_COUNTS[kind]):
                obs[start + k] = int(held[kind] > k)
            start += TOKEN_COUNTS[kind]
    if state.inauguration is not None:
        mine = state.inauguration == player
        obs[at("own_inauguration") if mine else at("opponent_inauguration")] = 1
    obs[at("to_move")] = int(current_player(state) == player)
    return obs


# ----- counting (rules §8) -----------------------------------------------------------------
def perft(state, depth):
    """The number of distinct sequences of ``depth`` decisions from ``state``."""
    if depth == 0:
        return 1
    actions = legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(step(state, a)[0], depth - 1) for a in actions)

