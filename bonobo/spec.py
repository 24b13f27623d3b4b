"""Bonobo Beach's declared facts (pure Python, read by every other module): the board, the
tiles, the action ids, the observation layout and the longest game (``savanna.bonobo.notation``
describes the geometry and names the triangles, slots, spots and actions).
"""
from savanna.layout import Layout

RADIUS = 3
POINTS = [(q, r) for r in range(-RADIUS, RADIUS + 1) for q in range(-RADIUS, RADIUS + 1)
          if max(abs(q), abs(r), abs(q + r)) <= RADIUS]
_POINT_SET = set(POINTS)


def _triangles():
    tris = []
    for r in range(-RADIUS, RADIUS):
        for q in range(-2 * RADIUS, 2 * RADIUS + 1):
            for kind, corners in (("V", ((q, r), (q + 1, r), (q, r + 1))),
                                  ("A", ((q + 1, r), (q, r + 1), (q + 1, r + 1)))):
                if all(c in _POINT_SET for c in corners):
                    tris.append((kind, corners))
    return tris


TRIANGLES = [corners for _, corners in _triangles()]          # t -> three corner points
POINTS_UP = [kind == "A" for kind, _ in _triangles()]           # True: apex at the top
NUM_TRIANGLES = len(TRIANGLES)                                  # 54
SLOTS = [(a, b) for a in range(NUM_TRIANGLES) for b in range(a + 1, NUM_TRIANGLES)
         if len(set(TRIANGLES[a]) & set(TRIANGLES[b])) == 2]    # 72 edge-sharing pairs
NUM_SLOTS = len(SLOTS)
SPOTS = [p for p in sorted(POINTS, key=lambda p: (p[1], p[0]))
         if max(abs(p[0]), abs(p[1]), abs(p[0] + p[1])) <= RADIUS - 1]
NUM_SPOTS = len(SPOTS)                                          # 19
SPOT_TRIANGLES = [tuple(t for t in range(NUM_TRIANGLES) if p in TRIANGLES[t]) for p in SPOTS]

TOILETS = (4, 8, 25, 28, 45, 49)
PARASOLS = (1, 6, 10, 13, 16, 18, 35, 37, 40, 43, 47, 52)
SYMBOLS = "".join("T" if t in TOILETS else "P" if t in PARASOLS else "D"
                  for t in range(NUM_TRIANGLES))                # T toilet, P parasol, D dune

VALUES = (-4, -3, -2, -1, 1, 2, 3, 4)                           # chance outcome order
TILE_COUNTS = (3, 3, 4, 4, 4, 4, 3, 3)
NUM_TILES = sum(TILE_COUNTS)                                    # 28
PAWNS_PER_PLAYER = 4
PLAYER_COUNTS = (2, 3, 4)
# No score can pass this bound, so a larger one is impossible: completed spots score each
# tile at most once per triangle corner (6|a| per tile: 396 in all), and at the end each of a
# player's 4 pawns scores at most 128 (k activated triangles leave 6 - k tiles' numbers, at
# most 4 each, doubled at most k times: the largest is (6 - 4) * 4 * 2**4 = 128).
FINAL_SCORE_MAX = PAWNS_PER_PLAYER * max((6 - k) * max(VALUES) * 2**k for k in range(7))  # 512
MAX_SCORE = 6 * sum(abs(v) * c for v, c in zip(VALUES, TILE_COUNTS)) + FINAL_SCORE_MAX  # 908

DRAW = NUM_SPOTS                                                # 19
TILE = DRAW + 1                                                 # tile on slot k: TILE + k
NUM_ACTIONS = TILE + NUM_SLOTS                                  # 92
PHASES = ("choose", "chance", "place", "end")
MAX_SEATS = max(PLAYER_COUNTS)

# The observation, 0/1 from the observer's seat; seats are relative, k = (seat - observer) mod P.
# Planes of 54 triangles or 19 spots (index offset + plane * size + triangle or spot), then
# features. Kernels and reference both read these offsets.
OBS = Layout(
    ("tiles", len(VALUES) * NUM_TRIANGLES,
     "8 planes: covered by a tile of value v (chance outcome order)"),
    ("activated", NUM_TRIANGLES, "plane: free and activated triangles"),
    ("symbols", 3 * NUM_TRIANGLES, "3 planes: toilet, parasol, dune"),
    ("pawns", MAX_SEATS * NUM_SPOTS, "4 planes: pawns of relative seat k"),
    ("legal_spots", NUM_SPOTS, "plane: spots legal for a pawn"),
    ("drawn", len(VALUES), "tile in hand, one-hot (outcome order)"),
    ("pile", sum(TILE_COUNTS),
     "per value v, TILE_COUNTS[v] bits: bit j set iff the pile holds more than j"),
    ("supply", MAX_SEATS * PAWNS_PER_PLAYER, "pawns in supply, a thermometer of 4 per seat k"),
    ("score", MAX_SEATS * 8,
     "clip(score + 128, 0, 255) in binary, 8 bits per seat k, lowest first"),
    ("phase", len(PHASES), "phase one-hot, in the order of PHASES"),
    ("to_move", MAX_SEATS, "relative seat to move, one-hot (zero at the end)"),
    ("seats", MAX_SEATS, "seat k is present"),
)
__doc__ = OBS.document(__doc__)
MAX_CHANCE_OUTCOMES = len(VALUES)  # 8: a draw is one outcome per tile value
# Decisions in one game, at most: a pawn leaves a spot only when the spot is fully covered or
# beside an activated toilet, and both bar it for good, so each of the 19 spots receives at most
# one pawn; 54 triangles hold at most 27 tiles, each a draw and a placement: 19 + 2 * 27 = 73.
MAX_PLIES = NUM_SPOTS + 2 * (NUM_TRIANGLES // 2)

NEIGHBOURS = [tuple(b if a == t else a for a, b in SLOTS if t in (a, b))
              for t in range(NUM_TRIANGLES)]
