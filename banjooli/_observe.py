"""Banjooli Xeet's observation kernel: what one seat sees of a state, laid out as ``spec.OBS``
(seats relative to the observer; other players' cards and unseen berry kinds never appear).
"""
from numba import njit

from savanna.banjooli import spec
from savanna.banjooli.spec import END, JADE, PLACE, REROLL, ROLL
from savanna.bits import set_cells

# observation offsets (numba freezes these module globals), from the layout in savanna.banjooli.spec
OBS_OSTRICHES = spec.OBS.offset("ostriches")
OBS_SCARED = spec.OBS.offset("scared")
OBS_IMPASSABLE = spec.OBS.offset("impassable")
OBS_QUICKSAND = spec.OBS.offset("quicksand")
OBS_CURVE = spec.OBS.offset("curve")
OBS_CROCODILE = spec.OBS.offset("crocodile")
OBS_LAVA = spec.OBS.offset("lava")
OBS_VORTEX = spec.OBS.offset("vortex")
OBS_TRACK = spec.OBS.offset("track")
OBS_BERRY = spec.OBS.offset("berry")
OBS_BERRY_KINDS = spec.OBS.offset("berry_kinds")
OBS_ARRIVAL = spec.OBS.offset("arrival")
OBS_LEFT_NEST = spec.OBS.offset("left_nest")
OBS_DICE = spec.OBS.offset("dice")
OBS_PHASE = spec.OBS.offset("phase")
OBS_MOVER = spec.OBS.offset("mover")
OBS_POINTS = spec.OBS.offset("points")
OBS_CARD = spec.OBS.offset("card")
OBS_TO_MOVE = spec.OBS.offset("to_move")
OBS_REVERSED = spec.OBS.offset("reversed")
OBS_SPEAR = spec.OBS.offset("spear")
OBS_OOR = spec.OBS.offset("oor")
OBS_SEATS = spec.OBS.offset("seats")
OBS_PAST_REROLL = spec.OBS.offset("past_reroll")
OBS_FRENZY = spec.OBS.offset("frenzy")
OBS_JOKERS = spec.OBS.offset("jokers")


@njit(cache=True)
def observe_one(s, i, player, out):
    """The observation from ``player``'s seat, laid out as ``spec.OBS``."""
    r = s[i]
    out[:] = 0
    P = r.players
    for c in range(5):
        cell = r.cells[c]
        if cell >= 0:
            out[OBS_OSTRICHES + c * spec.NUM_CELLS + cell] = 1
            if (r.scared >> c) & 1:
                out[OBS_SCARED + cell] = 1
        else:
            out[OBS_ARRIVAL + 3 * c + r.places[c] - 1] = 1
        if not (r.nest >> c) & 1:
            out[OBS_LEFT_NEST + c] = 1
    set_cells(out, OBS_IMPASSABLE, r.block)
    set_cells(out, OBS_QUICKSAND, r.quick)
    set_cells(out, OBS_CURVE, r.curve)
    set_cells(out, OBS_CROCODILE, r.croc)
    set_cells(out, OBS_LAVA, r.lava)
    set_cells(out, OBS_VORTEX, r.vortex)
    for cell in range(3 * (3 * r.nterrain + 3)):
        out[OBS_TRACK + cell] = 1
    if r.variant:
        for k in range(P):
            cell = r.berry_cell[k]
            if cell >= 0:
                out[OBS_BERRY + cell] = 1
                if (r.seen[k] >> player) & 1:
                    out[OBS_BERRY_KINDS + r.berry_kind[k] * spec.NUM_CELLS + cell] = 1
        for seat in range(P):
            rel = (seat - player + P) % P
            out[OBS_SPEAR + rel] = (r.spear >> seat) & 1
            out[OBS_OOR + rel] = (r.collected[seat] >> JADE) & 1
    for d in range(6):
        if r.dice[d] >= 0:
            out[OBS_DICE + 6 * d + r.dice[d]] = 1
    out[OBS_PHASE + r.phase] = 1
    if r.mover >= 0:
        out[OBS_MOVER + r.mover] = 1
    for k in range(min(r.points, 8)):
        out[OBS_POINTS + k] = 1
    out[OBS_CARD + r.cards[player]] = 1
    out[OBS_TO_MOVE + (r.to_move - player + P) % P] = 1
    out[OBS_REVERSED] = r.direction < 0
    for k in range(P):
        out[OBS_SEATS + k] = 1
    ph = r.phase
    out[OBS_PAST_REROLL] = not (ph == ROLL or ph == REROLL or ph == PLACE or ph == END)
    for c in range(5):
        for k in range(min(r.frenzy[c], 5)):
            out[OBS_FRENZY + 5 * c + k] = 1
    for k in range(min(r.jokers, 5)):
        out[OBS_JOKERS + k] = 1
