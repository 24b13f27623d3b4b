"""Drôles de Zèbres' declared facts: board geometry, tokens, sector maps, phases, action ids,
the observation layout and the longest game (pure Python, read by every other module; the
action names are ``savanna.zebres.notation``'s).
"""
from savanna.layout import Layout

NUM_PLAYERS = 2
NUM_ROWS, NUM_COLS = 5, 6
NUM_CELLS = NUM_ROWS * NUM_COLS
TRACK_LENGTH = 22
RED, GREEN = 0, 1
COLOUR_LETTERS = "rg"
COLOUR_NAMES = ("red", "green")

KINDS = "ZGELC"  # the order of token kinds in action ids and observations
TOKEN_VALUES = {"Z": 6, "G": 2, "E": 5, "L": 1, "C": 0}
TOKEN_COUNTS = {"Z": 5, "G": 6, "E": 1, "L": 1, "C": 2}  # each player's 15 tokens
KIND_NAMES = {"Z": "zebra", "G": "gazelle", "E": "elephant", "L": "lion", "C": "crocodile"}
INAUGURATION_BONUS = 5

SECTOR_MAPS = {
    # 30 sector letters, row by row from the top (rules §1).
    "standard": "ABCCCC" "ABBCDD" "AABCCD" "EABBBF" "EEFFFF",
    "president": "ABBBCC" "ADDBBC" "ADEEBB" "DDEFFB" "EEEEFB",
}
BOARDS = tuple(SECTOR_MAPS)

PHASES = ("setup", "place", "croc", "move", "end")

PLACE = 0           # + kind*30 + cell
START = 150         # + track position
SWAP = 172          # + cell of the gazelle
STOP = 202
IMPALA = 202        # + k, k = 1..3
NUM_ACTIONS = 206

# The observation, from the observer's seat ("own" is the observer's): planes of 30 cells
# (index plane offset + cell), then features. Kernels and reference both read these offsets.
OBS = Layout(
    ("own_tokens", 5 * NUM_CELLS, "5 planes: the observer's tokens of each kind (ZGELC)"),
    ("opponent_tokens", 5 * NUM_CELLS, "5 planes: the opponent's tokens of each kind"),
    ("face_down", NUM_CELLS, "plane: face-down tokens"),
    ("impala_line", NUM_CELLS, "plane: the row or column Impala points at"),
    ("sectors", 6 * NUM_CELLS, "6 planes: the cells of sectors A..F"),
    ("crocodile", NUM_CELLS, "plane: the crocodile's cell during a chain"),
    ("swapped", NUM_CELLS, "plane: gazelles already swapped in this chain"),
    ("impala_position", TRACK_LENGTH, "Impala's track position, one-hot (zero before setup)"),
    ("phase", len(PHASES), "phase one-hot, in the order of PHASES"),
    ("own_hand", sum(TOKEN_COUNTS.values()),
     "the observer's hand: per kind (ZGELC) a thermometer of its count"),
    ("opponent_hand", sum(TOKEN_COUNTS.values()), "the opponent's hand, the same way"),
    ("own_inauguration", 1, "the observer holds the inauguration"),
    ("opponent_inauguration", 1, "the opponent holds the inauguration"),
    ("to_move", 1, "the observer is to move"),
)
__doc__ = OBS.document(__doc__)
# Decisions in one game, at most: 1 start; placements <= 30 + 8 (each of the 2 lions returns at
# most its 4 neighbours' gazelles); one Impala move after every placement but the last; each of
# the 4 crocodiles swaps each of the 12 gazelles at most once and may then stop:
# 1 + 38 + 37 + 4 * (12 + 1) = 128.
MAX_PLIES = 128


# ----- geometry -----------------------------------------------------------------------------
def track_line(position):
    """The cells of the row or column that track ``position`` faces (rules §2), in order."""
    if position < 6:
        return tuple(row * NUM_COLS + position for row in range(NUM_ROWS))
    if position < 11:
        return tuple((position - 6) * NUM_COLS + col for col in range(NUM_COLS))
    if position < 17:
        return tuple(row * NUM_COLS + 16 - position for row in range(NUM_ROWS))
    return tuple((21 - position) * NUM_COLS + col for col in range(NUM_COLS))


TRACK_LINES = tuple(track_line(p) for p in range(TRACK_LENGTH))


def neighbours(cell):
    """The orthogonally adjacent cells of ``cell`` (2 to 4 of them)."""
    row, col = divmod(cell, NUM_COLS)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= row + dr < NUM_ROWS and 0 <= col + dc < NUM_COLS:
            out.append((row + dr) * NUM_COLS + col + dc)
    return tuple(out)
