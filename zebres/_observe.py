"""Drôles de Zèbres' observation kernel: what one seat sees of a state, laid out as ``spec.OBS``
(the observer's tokens first; perfect information, so only the seat order depends on it).
"""
import numpy as np
from numba import njit

from savanna.zebres import spec
from savanna.zebres._kernels import CROC, END, HAND, LINES, NUM_TRACK, SECTORS, ZERO, _bit, _hand
from savanna.zebres.spec import NUM_CELLS

# observation offsets (numba freezes these module globals), from the layout in savanna.zebres.spec
OBS_OWN = spec.OBS.offset("own_tokens")
OBS_OPPONENT = spec.OBS.offset("opponent_tokens")
OBS_DOWN = spec.OBS.offset("face_down")
OBS_IMPALA_LINE = spec.OBS.offset("impala_line")
OBS_SECTORS = spec.OBS.offset("sectors")
OBS_CROC = spec.OBS.offset("crocodile")
OBS_SWAPPED = spec.OBS.offset("swapped")
OBS_IMPALA = spec.OBS.offset("impala_position")
OBS_PHASE = spec.OBS.offset("phase")
OBS_OWN_HAND = spec.OBS.offset("own_hand")
OBS_OPPONENT_HAND = spec.OBS.offset("opponent_hand")
OBS_OWN_INAUGURATION = spec.OBS.offset("own_inauguration")
OBS_OPPONENT_INAUGURATION = spec.OBS.offset("opponent_inauguration")
OBS_TO_MOVE = spec.OBS.offset("to_move")

# BIT_BYTES[b, k] = bit k of byte b: unpacks a bitboard into observation bytes 8 at a time
BIT_BYTES = np.array([[(b >> k) & 1 for k in range(8)] for b in range(256)], np.uint8)


@njit(cache=True, inline="always")
def _plane(out, base, m):
    """out[base + c] = bit c of ``m`` for c < 32: 30 cells and 2 zero bytes that the next
    plane (or field) overwrites, so planes must be written in increasing order. A byte table
    makes it ~20x faster than a loop over bits."""
    for j in range(4):
        byte = (m >> np.uint64(8 * j)) & np.uint64(255)
        for k in range(8):
            out[base + 8 * j + k] = BIT_BYTES[byte, k]


@njit(cache=True, inline="always")
def _thermometer(out, base, r, p):
    for t in range(5):
        h = _hand(r, p, t)
        for k in range(HAND[t]):
            out[base + k] = k < h
        base += HAND[t]


@njit(cache=True)
def observe_one(s, i, player, out):
    """The observation from ``player``'s seat, laid out as ``spec.OBS`` (in part order:
    ``_plane`` writes 2 bytes past each plane)."""
    r = s[i]
    me = r.own[player]
    opp = r.own[1 - player]
    for t in range(5):
        _plane(out, OBS_OWN + t * NUM_CELLS, me & r.kind[t])
    for t in range(5):
        _plane(out, OBS_OPPONENT + t * NUM_CELLS, opp & r.kind[t])
    _plane(out, OBS_DOWN, r.down)
    _plane(out, OBS_IMPALA_LINE, LINES[r.impala] if r.impala >= 0 else ZERO)
    for k in range(6):
        _plane(out, OBS_SECTORS + k * NUM_CELLS, SECTORS[r.board, k])
    in_chain = r.phase == CROC
    _plane(out, OBS_CROC, _bit(r.croc) if in_chain else ZERO)
    _plane(out, OBS_SWAPPED, r.swapped)
    for p in range(NUM_TRACK):
        out[OBS_IMPALA + p] = p == r.impala
    for k in range(5):
        out[OBS_PHASE + k] = k == r.phase
    _thermometer(out, OBS_OWN_HAND, r, player)
    _thermometer(out, OBS_OPPONENT_HAND, r, 1 - player)
    out[OBS_OWN_INAUGURATION] = r.inauguration == player
    out[OBS_OPPONENT_INAUGURATION] = r.inauguration == 1 - player
    out[OBS_TO_MOVE] = r.phase != END and r.to_move == player
