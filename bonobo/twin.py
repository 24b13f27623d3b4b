"""The kernel game and the pure-Python reference played in lockstep (STUMPY's naive twin):
``play_lockstep`` is the move-for-move cross-check of tests/bonobo/test_crosscheck.py, and the
hook the shared fuzz tests (conformance/test_fuzz.py) call on positions they generate."""
import numpy as np

from savanna.bonobo import notation
from savanna.bonobo import reference as R
from savanna.game import CHANCE, TERMINAL


def agree(game, s, r):
    """Assert that kernel state ``s`` (a batch of one) and reference state ``r`` agree: text,
    player, legal actions, chance probabilities, every seat's observation and the scores."""
    P = game.num_players
    assert game.to_text(s[0]) == notation.format(R.to_position(r))
    assert game.current_player(s)[0] == R.current_player(r)
    assert game.legal_actions(s[0]) == R.legal_actions(r)
    outcomes = R.chance_outcomes(r)
    assert game.chance_probs(s)[0].tolist() == [outcomes.get(o, 0.0) for o in range(8)]
    observations = game.observe(np.repeat(s, P), np.arange(P))
    for p in range(P):
        assert observations[p].tolist() == R.observe(r, p), f"player {p}"
    assert game.scores(s)[0].tolist() == R.scores(r)


def play_lockstep(game, s, plies, rng):
    """From ``s`` (a batch of one state of ``game``), play up to ``plies`` random decisions,
    and the chance outcomes between them sampled by their probabilities, on the kernels and on
    the reference built from ``game.to_text(s[0])``, asserting at every node that both agree
    (``agree``) and that they give the same rewards. ``s`` advances in place, so the caller
    can see where play stopped; ``rng`` is a ``np.random.Generator``."""
    r = R.from_position(notation.parse(game.to_text(s[0])))
    decisions = 0
    while True:
        agree(game, s, r)
        player = R.current_player(r)
        if player == TERMINAL or decisions == plies:
            return
        if player == CHANCE:
            outcomes = R.chance_outcomes(r)
            o = int(rng.choice(list(outcomes), p=list(outcomes.values())))
            game.apply_chance(s, [o])
            r = R.apply_chance(r, o)
        else:
            a = int(rng.choice(R.legal_actions(r)))
            rewards = game.step_inplace(s, [a])
            r, expected = R.step(r, a)
            assert rewards[0].tolist() == np.float32(expected).tolist()
            decisions += 1
