"""The dice race's facts, state dtype, scalar kernels and state checks (numba)."""
import numpy as np
from numba import njit

from savanna.codes import CHANCE, TERMINAL

NUM_PLAYERS = 3
NUM_ACTIONS = 2  # 0 step one square, 1 jump the roll
DIE = 3  # the die's faces: 1..3
MIN_GOAL = DIE + 1  # no game ends before every player has moved (the envs need a move)
MAX_GOAL = 8
MAX_PLIES = NUM_PLAYERS * (MAX_GOAL - 1) + 1  # every move advances one square at least
OBS_SHAPE = (2, NUM_PLAYERS)  # the squares from the observer's seat; roll, to move, goal
OBS_HIGH = MAX_GOAL + DIE - 1

STATE_DTYPE = np.dtype([("pos", np.int8, (NUM_PLAYERS,)), ("to_move", np.int8),
                        ("roll", np.int8), ("goal", np.int8)])

STATE_ERRORS = (
    "",
    "a square outside 0..goal + 2, or two players at the goal",
    "to_move is not 0, 1 or 2",
    "a roll outside 0..3",
    "goal is not this game's",
)
SQUARE, TO_MOVE, ROLL, GOAL = range(1, len(STATE_ERRORS))


@njit(cache=True)
def reset_one(s, i, base, streams):
    s[i] = base[0]


@njit(cache=True)
def _over(r):
    for p in range(NUM_PLAYERS):
        if r.pos[p] >= r.goal:
            return True
    return False


@njit(cache=True)
def current_player_one(s, i):
    r = s[i]
    if _over(r):
        return TERMINAL
    return CHANCE if r.roll == 0 else r.to_move


@njit(cache=True)
def legal_actions_one(s, i, out):
    out[0] = 0
    out[1] = 1
    return 2


@njit(cache=True)
def step_one(s, i, action, rewards):
    r = s[i]
    rewards[:] = 0.0
    mover = r.to_move
    r.pos[mover] += 1 if action == 0 else r.roll
    r.roll = 0
    if r.pos[mover] >= r.goal:
        for p in range(NUM_PLAYERS):
            rewards[p] = 1.0 if p == mover else -0.5
    else:
        r.to_move = (mover + 1) % NUM_PLAYERS


@njit(cache=True)
def chance_probs_one(s, i, probs):
    for k in range(DIE):
        probs[k] = 1.0 / DIE


@njit(cache=True)
def apply_chance_one(s, i, outcome):
    s[i].roll = outcome + 1


@njit(cache=True)
def observe_one(s, i, player, out):
    r = s[i]
    for k in range(NUM_PLAYERS):
        out[k] = r.pos[(player + k) % NUM_PLAYERS]
    out[NUM_PLAYERS] = r.roll
    out[NUM_PLAYERS + 1] = r.to_move == player
    out[NUM_PLAYERS + 2] = r.goal


@njit(cache=True)
def valid_one(s, i, base):
    """0 if some game reaches state ``i``, else a ``STATE_ERRORS`` code."""
    r = s[i]
    if r.goal != base[0].goal:
        return GOAL
    if r.to_move < 0 or r.to_move >= NUM_PLAYERS:
        return TO_MOVE
    if r.roll < 0 or r.roll > DIE:
        return ROLL
    over = 0
    for p in range(NUM_PLAYERS):
        if r.pos[p] < 0 or r.pos[p] > r.goal + DIE - 1:
            return SQUARE
        over += r.pos[p] >= r.goal
    if over > 1 or (over == 1 and r.pos[r.to_move] < r.goal):
        return SQUARE
    return 0
