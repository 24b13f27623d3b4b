"""Kuhn poker's kernels against its reference, played in lockstep: the conformance suite's
oracle (``savanna check``)."""
from kuhn_toy import reference
from savanna.lockstep import play_in_lockstep


def play_lockstep(game, s, plies, rng):
    """Play ``plies`` random decisions and deals from ``s`` (a batch of one) on the kernels
    and on the reference at once, asserting that they agree at every node."""
    play_in_lockstep(game, s, reference, reference.from_position(game.to_position(s)), plies,
                     rng)
