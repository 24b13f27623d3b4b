"""The dice race's kernels against its reference, played in lockstep: the conformance suite's
oracle (``savanna check``)."""
from race_toy import reference
from savanna.lockstep import play_in_lockstep


def play_lockstep(game, s, plies, rng):
    """Play ``plies`` random decisions and rolls from ``s`` (a batch of one) on the kernels
    and on the reference at once, asserting that they agree at every node."""
    ref = reference.from_position(game.to_position(s), game.goal)
    play_in_lockstep(game, s, reference, ref, plies, rng)
