"""A dice race whose observation is one-hot (``HotRace``): ``tiny_games.DiceRace``'s rules, each
position, die and turn count seen as its own input, so that a value network with random
weights prefers no square to another. On ``DiceRace``'s integer observation a random network
already tends to value further squares more and beats a random player by itself; here only
learning can (``tests/agents/test_td.py`` pins it)."""
from numba import njit

from tests.agents.tiny_games import GOAL, DiceRace

MAX_TURNS = 20
POS, DIE = GOAL + 1, 7
OBS_SIZE = 2 * POS + 2 * DIE + MAX_TURNS + 1


@njit(cache=True)
def _hot_observe(s, i, player, out):
    r = s[i]
    out[:] = 0
    out[r.pos[player]] = 1
    out[POS + r.pos[1 - player]] = 1
    out[2 * POS + r.dice[0]] = 1
    out[2 * POS + DIE + r.dice[1]] = 1
    out[2 * POS + 2 * DIE + r.turns_left] = 1


class HotRace(DiceRace):
    name = "hot_race"
    obs_shape = (OBS_SIZE,)
    kernels = DiceRace.kernels._replace(observe_one=_hot_observe)

    def __init__(self):
        super().__init__(max_turns=MAX_TURNS)
