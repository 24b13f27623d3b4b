"""Banjooli Xeet's declared facts (pure Python, read by every other module): the course (tile
faces and their cells), ostriches, dice, cards, berries, phases, action ids, the observation
layout and the longest game.
"""
from savanna.layout import Layout

COLOURS = "RBGYP"
JOKER = 5
FACES = "RBGYPW"  # die faces 0..5
LANES = "abc"
NESTS = (0, 2, 4, 6, 8)  # a0 c0 b1 a2 c2
MAX_TERRAIN = 6
MAX_ROWS = 3 + 3 * MAX_TERRAIN
NUM_CELLS = 3 * MAX_ROWS
MAX_TURNS = 1000  # then the game ends as a draw
MIN_PLAYERS = 2

# Cell kinds on tile faces.
GROUND, ROCK, QUICK, CROC, WATER, CHASM, LAVA, VORTEX = range(8)
KIND_CHARS = ".RQCWXLV"
IMPASSABLE = (ROCK, WATER, CHASM)

# Tile faces (rows from the start side; characters are lanes a, b, c) and whether curved.
FACE_NAMES = ("T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "K1", "K2", "K3", "K4",
              "CROC", "CANYON", "LAVA", "VORTEX")
FACE_ROWS = (
    ("...", "...", "..."), ("...", ".R.", "..."), ("R..", "...", "..R"), (".R.", "...", "Q.."),
    ("Q..", "...", "..Q"), ("..Q", "...", "R.."), ("...", "R.R", "..."), ("...", ".Q.", "..."),
    ("...", "...", "..."), ("...", ".Q.", "..."), ("Q..", "...", "..Q"), ("...", "...", ".Q."),
    ("CWC", "WCW", "..."), ("X.X", "X.X", "X.X"), ("L.L", "LLL", ".L."), ("...", ".V.", "..."),
)
FACE_CURVE = tuple(name.startswith("K") for name in FACE_NAMES)
CATALOGUE = tuple(range(12))
SPECIALS = {"crocodiles": 12, "canyon": 13, "lava": 14, "vortex": 15}

# Prediction cards: (1st, 2nd, 3rd, last).
CARDS = tuple([(i, (i + 1) % 5, (i + 2) % 5, (i + 4) % 5) for i in range(5)]
              + [(i, (i + 2) % 5, (i + 4) % 5, (i + 3) % 5) for i in range(5)])

# Berry kinds (§7.2), by letter: Tër, Neex peepa, Oor, Jëmbat, Daaaaw, U-turn (Pakaarloo),
# Spear (Naangateku), Peepa, Frenzy (Dof Nooxoor), Vooortex, Snake (Joka).
BERRY_LETTERS = "TNOJDUSPFVK"
BERRY_NAMES = ("Tër", "Neex Peepa", "Oor", "Jëmbat", "Daaaaw!", "Pakaarloo", "Naangateku",
               "Peepa", "Dof Nooxoor", "Vooortex!", "Joka")
TRAP, TASTY, JADE, FORESIGHT, GO, UTURN, SPEAR, PLAIN, FRENZY, BVORTEX, SNAKE = range(11)

# Phases.
PHASES = ("roll", "reroll", "rerolling", "act", "move", "vortex", "vortex-pick", "end",
          "place", "spear", "frenzy-roll", "frenzy-assign", "frenzy-pick", "snake")
(ROLL, REROLL, REROLLING, ACT, MOVE, VORTEX_ROLL, VORTEX_PICK, END,
 PLACE, SPEAR_GIVE, FRENZY_ROLL, FRENZY_ASSIGN, FRENZY_PICK, SNAKE_BACK) = range(14)
NUM_PHASES = len(PHASES)

# Action ids.
A_REROLL = 0       # + subset mask (64)
A_MOVE = 64        # + 7*colour + joker source (0 none, 1 white, 2+k arrived colour k)
A_SORCERY = 99     # + colour
A_PASS = 104
A_DIR = 105        # + d + 1, d in -1, 0, +1
A_SWAP = 108       # + colour
A_BERRY = 113      # + cell
A_SPEAR = 176      # + k: give the spear to the k-th seat after the mover (k = 1..4)
A_ASSIGN = 181     # + colour
A_GROUP = 186      # + colour
A_BACK = 191       # + lane: the snake's landing cell, two rows back
NUM_ACTIONS = 194
DIR_NAMES = ("left", "straight", "right")
MAX_PLAYERS = 5
NUM_DICE = 6

# The observation, 0/1 from the observer's seat; seats are relative, (seat - observer) % P.
# Planes of 63 cells (index offset + plane * 63 + cell), then features. Other players' cards
# and unseen berry kinds never appear. Kernels and reference both read these offsets.
OBS = Layout(
    ("ostriches", len(COLOURS) * NUM_CELLS, "5 planes: the ostrich of colour c"),
    ("scared", NUM_CELLS, "plane: scared ostriches"),
    ("impassable", NUM_CELLS, "plane: rock, water, chasm"),
    ("quicksand", NUM_CELLS, "plane: quicksand"),
    ("curve", NUM_CELLS, "plane: curve cells"),
    ("crocodile", NUM_CELLS, "plane: crocodiles"),
    ("lava", NUM_CELLS, "plane: lava"),
    ("vortex", NUM_CELLS, "plane: vortex"),
    ("track", NUM_CELLS, "plane: the cells of the course"),
    ("berry", NUM_CELLS, "plane: berries (face down)"),
    ("berry_kinds", len(BERRY_LETTERS) * NUM_CELLS,
     "11 planes: berry of kind k, only if the observer has seen it"),
    ("arrival", 3 * len(COLOURS), "arrival place of colour c: 3c + place - 1"),
    ("left_nest", len(COLOURS), "colour c has left its nest"),
    ("dice", NUM_DICE * len(FACES), "die d shows face f: 6d + f (zero while unrolled)"),
    ("phase", NUM_PHASES, "phase one-hot, in the order of PHASES"),
    ("mover", len(COLOURS), "colour moving, one-hot"),
    ("points", 8, "points left to move, a thermometer"),
    ("card", len(CARDS), "the observer's card, one-hot"),
    ("to_move", MAX_PLAYERS, "relative seat to move, one-hot"),
    ("reversed", 1, "turn order reversed"),
    ("spear", MAX_PLAYERS, "spear mark per relative seat"),
    ("oor", MAX_PLAYERS, "Oor held per relative seat"),
    ("seats", MAX_PLAYERS, "relative seat k exists"),
    ("past_reroll", 1, "past the reroll decision"),
    ("frenzy", 5 * len(COLOURS), "frenzy points per colour, a thermometer of 5"),
    ("jokers", 5, "frenzy jokers left, a thermometer"),
)
__doc__ = OBS.document(__doc__)
MAX_CHANCE_OUTCOMES = len(FACES)  # a die roll: one outcome per face
# 1,000 turns x at most 40 decisions per turn (a generous bound: reroll, act, 7 points with
# Daaaaw, spear, snake, vortex pick; then a frenzy: 5 assignments, 5 groups, 7 points and a
# vortex pick per group) + one berry placement per seat.
MAX_PLIES = MAX_TURNS * 40 + MAX_PLAYERS


def face_kinds(face):
    """The 9 cell kinds of a face, indexed row*3 + lane."""
    return tuple(KIND_CHARS.index(ch) for row in FACE_ROWS[face] for ch in row)
