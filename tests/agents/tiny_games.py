"""Four tiny games, real ``savanna.Game`` subclasses on numba kernels, for testing agents.

Each exercises one general case that Zèbres does not, and each is small enough to solve
exactly by brute force:

* ``Nim``          2 players, perfect information, no chance: minimax values are known
                   (the mover wins iff the xor of the heaps is non-zero).
* ``DiceRace``     2 players, chance nodes (two dice per turn, one die per chance node).
* ``HighCard``     3 players, a secret card each (imperfect information), and non-alternating
                   turns (a player who stays then picks a stake: two decisions in a row).
* ``LiarsDice``    2 players, dice rolled at chance nodes that only their owner sees
                   (``private_chance``): an agent that reads the others' dice wins nearly
                   every game, so it shows whether agents are handed only their seat's view.

States print as ``field=value`` pairs of the dtype (``Nim().to_text(s[0])`` gives
``heaps=2,3,4 to_move=0``), which is all the notation these test games need.
"""
import numpy as np
from numba import njit

from savanna import CHANCE, TERMINAL, Kernels
from savanna.studies.known import FieldTextGame, copy_base, nim_moves, nim_take


class TinyGame(FieldTextGame):
    """The shipped known games' plumbing (``savanna.studies.known``): ``field=value`` text,
    named actions, the base state."""


@njit(cache=True)
def _no_chance_probs(s, i, probs):
    pass


@njit(cache=True)
def _no_chance(s, i, outcome):
    pass


# ----- Nim ------------------------------------------------------------------------------------
# Three heaps of at most 4 objects; action = heap * 4 + (taken - 1). Whoever takes the last
# object wins (+1, the other -1).

NIM_DTYPE = np.dtype([("heaps", np.int8, (3,)), ("to_move", np.int8)])


@njit(cache=True)
def _nim_player(s, i):
    r = s[i]
    if r.heaps[0] + r.heaps[1] + r.heaps[2] == 0:
        return TERMINAL
    return r.to_move


@njit(cache=True)
def _nim_legal(s, i, out):
    return nim_moves(s[i].heaps, out)


@njit(cache=True)
def _nim_step(s, i, action, rewards):
    rewards[:] = 0.0
    nim_take(s[i], action, rewards)


@njit(cache=True)
def _nim_observe(s, i, player, out):
    for h in range(3):
        out[h] = s[i].heaps[h]


class Nim(TinyGame):
    name = "nim"
    num_players = 2
    num_actions = 12
    max_chance_outcomes = 0
    max_plies = 12
    obs_shape = (3,)
    state_dtype = NIM_DTYPE
    zero_sum = True
    has_chance = False
    perfect_information = True
    kernels = Kernels(copy_base, _nim_player, _nim_legal, _nim_step, _no_chance_probs,
                      _no_chance, _nim_observe)
    action_names = tuple(f"take {k + 1} from {h}" for h in range(3) for k in range(4))

    def __init__(self, heaps=(2, 3, 4)):
        if len(heaps) != 3 or not all(0 <= h <= 4 for h in heaps) or sum(heaps) == 0:
            raise ValueError(f"heaps must be three sizes in 0..4, not all zero; got {heaps!r}")
        self.heaps = tuple(heaps)  # an option, as savanna.metadata.game_options reads them
        self._base_state = np.zeros(1, NIM_DTYPE)
        self._base_state[0]["heaps"] = heaps


# ----- DiceRace --------------------------------------------------------------------------------
# Two pawns race from 0 to GOAL. A turn: roll two dice (two chance nodes), then move by the
# first die (action 0), the second (1, illegal on a double) or both (2). A move past the goal
# bounces back by the excess. Landing on the goal wins (+1 / -1). After ``max_turns`` turns in
# all the pawn nearer the goal wins; equally near is a draw.

GOAL = 12
RACE_DTYPE = np.dtype([("pos", np.int8, (2,)), ("dice", np.int8, (2,)), ("to_move", np.int8),
                       ("turns_left", np.int8), ("over", np.int8)])


@njit(cache=True)
def _race_player(s, i):
    r = s[i]
    if r.over:
        return TERMINAL
    if r.dice[1] == 0:
        return CHANCE
    return r.to_move


@njit(cache=True)
def _race_legal(s, i, out):
    r = s[i]
    out[0] = 0
    if r.dice[0] == r.dice[1]:
        out[1] = 2
        return 2
    out[1] = 1
    out[2] = 2
    return 3


@njit(cache=True)
def _race_step(s, i, action, rewards):
    r = s[i]
    p = r.to_move
    rewards[:] = 0.0
    move = r.dice[0] + r.dice[1] if action == 2 else r.dice[action]
    pos = r.pos[p] + move
    r.pos[p] = 2 * GOAL - pos if pos > GOAL else pos
    r.dice[0] = 0
    r.dice[1] = 0
    r.turns_left -= 1
    if r.pos[p] == GOAL or r.turns_left == 0:
        r.over = 1
        lead = np.sign(r.pos[p] - r.pos[1 - p])
        rewards[p] = lead
        rewards[1 - p] = -lead
    else:
        r.to_move = 1 - p


@njit(cache=True)
def _race_chance_probs(s, i, probs):
    probs[:6] = 1.0 / 6.0


@njit(cache=True)
def _race_apply_chance(s, i, outcome):
    r = s[i]
    r.dice[0 if r.dice[0] == 0 else 1] = outcome + 1


@njit(cache=True)
def _race_observe(s, i, player, out):
    r = s[i]
    out[0] = r.pos[player]
    out[1] = r.pos[1 - player]
    out[2] = r.dice[0]
    out[3] = r.dice[1]
    out[4] = r.turns_left


class DiceRace(TinyGame):
    name = "dice_race"
    num_players = 2
    num_actions = 3
    max_chance_outcomes = 6
    max_plies = 127
    obs_shape = (5,)
    state_dtype = RACE_DTYPE
    zero_sum = True
    has_chance = True
    perfect_information = True
    kernels = Kernels(copy_base, _race_player, _race_legal, _race_step, _race_chance_probs,
                      _race_apply_chance, _race_observe)
    action_names = ("first die", "second die", "both dice")

    def __init__(self, max_turns=20):
        if not 1 <= max_turns <= self.max_plies:
            raise ValueError(f"max_turns must be in 1..{self.max_plies}, got {max_turns!r}")
        self._base_state = np.zeros(1, RACE_DTYPE)
        self._base_state[0]["turns_left"] = max_turns


# ----- HighCard --------------------------------------------------------------------------------
# Five cards 0..4; each of three players antes 1 and is dealt one card face down (three chance
# nodes). In seat order each player folds (action 0) or stays (1); a player who stays then
# stakes 1 or 2 more (actions 2, 3: a second decision in a row). The highest card among those
# who stayed takes the pot; if nobody stayed the antes go back. Rewards are net chips.

CARDS = 5
FOLD, STAY, STAKE_1, STAKE_2 = range(4)
HIGHCARD_DTYPE = np.dtype([("cards", np.int8, (3,)), ("dealt", np.int8), ("to_move", np.int8),
                           ("staking", np.int8), ("stayed", np.int8, (3,)),
                           ("stake", np.int8, (3,)), ("over", np.int8)])


@njit(cache=True)
def _high_player(s, i):
    r = s[i]
    if r.over:
        return TERMINAL
    if r.dealt < 3:
        return CHANCE
    return r.to_move


@njit(cache=True)
def _high_legal(s, i, out):
    first = STAKE_1 if s[i].staking else FOLD
    out[0] = first
    out[1] = first + 1
    return 2


@njit(cache=True)
def _high_step(s, i, action, rewards):
    r = s[i]
    p = r.to_move
    rewards[:] = 0.0
    if action == STAY:
        r.stayed[p] = 1
        r.staking = 1
        return
    if action != FOLD:
        r.stake[p] = action - STAKE_1 + 1
        r.staking = 0
    if p < 2:
        r.to_move = p + 1
        return
    r.over = 1
    winner = -1
    for q in range(3):
        if r.stayed[q] and (winner < 0 or r.cards[q] > r.cards[winner]):
            winner = q
    if winner < 0:
        return
    pot = 0.0
    for q in range(3):
        rewards[q] = -1.0 - r.stake[q]
        pot += 1.0 + r.stake[q]
    rewards[winner] += pot


@njit(cache=True)
def _high_chance_probs(s, i, probs):
    r = s[i]
    for c in range(CARDS):
        probs[c] = 1.0 / (CARDS - r.dealt)
        for q in range(r.dealt):
            if r.cards[q] == c:
                probs[c] = 0.0


@njit(cache=True)
def _high_apply_chance(s, i, outcome):
    r = s[i]
    r.cards[r.dealt] = outcome
    r.dealt += 1


@njit(cache=True)
def _high_observe(s, i, player, out):
    """[own card + 1 (0 = not dealt), seat to move (relative), staking, then per seat from the
    observer on: stayed, stake]. The others' cards are never written."""
    r = s[i]
    out[0] = r.cards[player] + 1 if r.dealt > player else 0
    out[1] = (r.to_move - player) % 3
    out[2] = r.staking
    for k in range(3):
        q = (player + k) % 3
        out[3 + 2 * k] = r.stayed[q]
        out[4 + 2 * k] = r.stake[q]


class HighCard(TinyGame):
    name = "high_card"
    num_players = 3
    num_actions = 4
    max_chance_outcomes = CARDS
    max_plies = 6
    obs_shape = (9,)
    state_dtype = HIGHCARD_DTYPE
    zero_sum = True
    has_chance = True
    perfect_information = False
    kernels = Kernels(copy_base, _high_player, _high_legal, _high_step, _high_chance_probs,
                      _high_apply_chance, _high_observe)
    action_names = ("fold", "stay", "stake 1", "stake 2")

    def __init__(self):
        self._base_state = np.zeros(1, HIGHCARD_DTYPE)
        self._base_state[0]["cards"] = -1

    def deal(self, cards):
        """The state right after dealing ``cards`` (one per seat): seat 0 to decide."""
        s = self.init(1)
        for c in cards:
            self.apply_chance(s, [c])
        return s

    def _resample_hidden(self, s, player, rng):
        """The copies ``s`` with the other players' dealt cards dealt again, uniformly from the
        cards ``player`` does not hold. Reads only ``player``'s card, so the draw (and all that
        follows from ``rng``) is the same whatever the others hold."""
        for row in s:
            others = [q for q in range(3) if q != player and q < row["dealt"]]
            own = row["cards"][player] if player < row["dealt"] else -1
            pool = [c for c in range(CARDS) if c != own]
            row["cards"][others] = rng.permutation(pool)[: len(others)]
        return s


# ----- LiarsDice --------------------------------------------------------------------------------
# Each of two players rolls three three-sided dice (faces 0..2, one chance node per die, seen
# by its owner only). In turn from seat 0 each player bids "at least q dice show face f" (q 1..6,
# action (q - 1) * 3 + f), each bid higher than the last, or, after a bid, calls "liar" (action
# 18). The call ends the game: the bidder wins (+1, the caller -1) if the six dice hold at
# least q of face f, else the caller wins.

DICE, FACES = 3, 3
BIDS = 2 * DICE * FACES
LIAR = BIDS
LIARS_DTYPE = np.dtype([("dice", np.int8, (2 * DICE,)), ("rolled", np.int8), ("to_move", np.int8),
                        ("bid", np.int8), ("over", np.int8)])


@njit(cache=True)
def _liars_player(s, i):
    r = s[i]
    if r.over:
        return TERMINAL
    if r.rolled < 2 * DICE:
        return CHANCE
    return r.to_move


@njit(cache=True)
def _liars_legal(s, i, out):
    r = s[i]
    n = 0
    for b in range(r.bid + 1, BIDS):
        out[n] = b
        n += 1
    if r.bid >= 0:
        out[n] = LIAR
        n += 1
    return n


@njit(cache=True)
def _liars_step(s, i, action, rewards):
    r = s[i]
    p = r.to_move
    rewards[:] = 0.0
    if action != LIAR:
        r.bid = action
        r.to_move = 1 - p
        return
    r.over = 1
    face = r.bid % FACES
    shown = 0
    for d in range(2 * DICE):
        shown += r.dice[d] == face
    bidder_wins = shown >= r.bid // FACES + 1
    rewards[1 - p] = 1.0 if bidder_wins else -1.0
    rewards[p] = -rewards[1 - p]


@njit(cache=True)
def _liars_chance_probs(s, i, probs):
    for f in range(FACES):
        probs[f] = 1.0 / FACES


@njit(cache=True)
def _liars_apply_chance(s, i, outcome):
    r = s[i]
    r.dice[r.rolled] = outcome
    r.rolled += 1


@njit(cache=True)
def _liars_observe(s, i, player, out):
    """[own dice per face (4), the bid one-hot (16), whether the observer made it, whether it
    is to move]. The other player's dice are never written."""
    r = s[i]
    out[:] = 0
    for d in range(DICE * player, min(DICE * (player + 1), r.rolled)):
        out[r.dice[d]] += 1
    if r.bid >= 0:
        out[FACES + r.bid] = 1
        out[FACES + BIDS] = r.to_move != player
    out[FACES + BIDS + 1] = not r.over and r.rolled == 2 * DICE and r.to_move == player


class LiarsDice(TinyGame):
    name = "liars_dice"
    num_players = 2
    num_actions = BIDS + 1
    max_chance_outcomes = FACES
    max_plies = BIDS + 1
    obs_shape = (FACES + BIDS + 2,)
    obs_high = DICE
    state_dtype = LIARS_DTYPE
    zero_sum = True
    has_chance = True
    perfect_information = False
    private_chance = True
    kernels = Kernels(copy_base, _liars_player, _liars_legal, _liars_step, _liars_chance_probs,
                      _liars_apply_chance, _liars_observe)
    action_names = tuple(f"{q} x {f + 1}" for q in range(1, 2 * DICE + 1)
                         for f in range(FACES)) + ("liar",)

    def __init__(self):
        self._base_state = np.zeros(1, LIARS_DTYPE)
        self._base_state[0]["dice"] = -1
        self._base_state[0]["bid"] = -1

    def chance_private_to(self, row):
        """The owner of the die rolled at chance node ``row``."""
        r = self.as_batch(row)[0]
        return None if self.current_player(self.as_batch(row))[0] != CHANCE else \
            int(r["rolled"]) // DICE

    def _resample_hidden(self, s, player, rng):
        """The other player's rolled dice rolled again (the bids prove nothing about them)."""
        for row in s:
            other = range(DICE * (1 - player), min(DICE * (2 - player), row["rolled"]))
            row["dice"][list(other)] = rng.integers(0, FACES, len(other))
        return s
