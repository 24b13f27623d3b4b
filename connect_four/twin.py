"""Connect four's kernels against its pure-Python reference, node by node (also the twin that
the fuzz suite, conformance/fuzz.py, plays accepted inputs against)."""
import numpy as np

from savanna.connect_four import reference
from savanna.lockstep import play_in_lockstep


def play_lockstep(game, s, plies, rng):
    """Play ``plies`` random moves from ``s`` (a batch of one) on the kernels and on the
    reference at once, asserting that positions, players, legal actions, observations and
    rewards agree at every node."""
    play_in_lockstep(game, s, reference, reference.from_position(game.to_position(s)), plies,
                     rng)


def random_positions(game, n, seed):
    """``n`` states from every stage of seeded random games (starts and ends included)."""
    rng = np.random.default_rng(seed)
    s = game.init(n, rng=seed)
    stop = rng.integers(0, game.max_plies + 1, n)
    for ply in range(game.max_plies):
        going = np.flatnonzero((game.current_player(s) >= 0) & (stop > ply))
        if not len(going):
            break
        sub = s[going]
        mask = game.legal_mask(sub)
        game.step_inplace(sub, [rng.choice(np.flatnonzero(m)) for m in mask])
        s[going] = sub
    return s
