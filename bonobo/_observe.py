"""Bonobo Beach's observation kernel: what one seat sees of a state, laid out as ``spec.OBS``
(seats relative to the observer).
"""
import numpy as np
from numba import njit

from savanna.bits import popcount, set_cells
from savanna.bonobo import spec
from savanna.bonobo._kernels import (
    END,
    PAWNS,
    PLACE,
    SPOT_COUNT,
    SYMBOL_MASK,
    TILE_COUNTS,
    _activated,
    _legal_spots,
)

# observation offsets (numba freezes these module globals), from the layout in savanna.bonobo.spec
OBS_TILES = spec.OBS.offset("tiles")
OBS_ACTIVATED = spec.OBS.offset("activated")
OBS_SYMBOLS = spec.OBS.offset("symbols")
OBS_PAWNS = spec.OBS.offset("pawns")
OBS_LEGAL_SPOTS = spec.OBS.offset("legal_spots")
OBS_DRAWN = spec.OBS.offset("drawn")
OBS_PILE = spec.OBS.offset("pile")
OBS_SUPPLY = spec.OBS.offset("supply")
OBS_SCORE = spec.OBS.offset("score")
OBS_PHASE = spec.OBS.offset("phase")
OBS_TO_MOVE = spec.OBS.offset("to_move")
OBS_SEATS = spec.OBS.offset("seats")


@njit(cache=True)
def observe_one(s, i, player, out):
    """The observation from ``player``'s seat, laid out as ``spec.OBS``."""
    r = s[i]
    P = r.num_players
    out[:] = 0
    for t in range(spec.NUM_TRIANGLES):
        v = r.tval[t]
        if v != 0:
            o = v + 4 if v < 0 else v + 3
            out[OBS_TILES + o * spec.NUM_TRIANGLES + t] = 1
    set_cells(out, OBS_ACTIVATED, _activated(r.covered))
    for k in range(3):
        set_cells(out, OBS_SYMBOLS + k * spec.NUM_TRIANGLES, SYMBOL_MASK[k])
    for p in range(P):
        k = (p - player) % P
        set_cells(out, OBS_PAWNS + k * SPOT_COUNT, r.pawns[p])
    set_cells(out, OBS_LEGAL_SPOTS, _legal_spots(r))
    if r.phase == PLACE:
        out[OBS_DRAWN + r.drawn] = 1
    base = OBS_PILE
    for o in range(8):
        for j in range(TILE_COUNTS[o]):
            out[base + j] = r.pile[o] > j
        base += TILE_COUNTS[o]
    for p in range(P):
        k = (p - player) % P
        supply = PAWNS - popcount(r.pawns[p])
        for j in range(supply):
            out[OBS_SUPPLY + PAWNS * k + j] = 1
        shifted = min(255, max(0, np.int64(r.score[p]) + 128))
        for j in range(8):
            out[OBS_SCORE + 8 * k + j] = (shifted >> j) & 1
        out[OBS_SEATS + k] = 1
    out[OBS_PHASE + r.phase] = 1
    if r.phase != END:
        out[OBS_TO_MOVE + (r.to_move - player) % P] = 1
