"""The codes every game, driver and agent shares (plain ints, free of numba).

``current_player`` answers a seat ``0..P-1``, ``CHANCE`` or ``TERMINAL``; a vector env plays
its non-learning seats as an ``OPPONENT_*`` code says; a state that passed its game's own
``valid_one`` (0, or a positive code into the game's ``STATE_ERRORS``) can still be refused
by the protocol checks for one of the negative codes below.
"""

__all__ = ["CHANCE", "TERMINAL"]

CHANCE = -1
TERMINAL = -2

# How a vector env's non-learning seats are played inside the compiled step.
OPPONENT_NONE = 0      # self-play: the learner plays every seat
OPPONENT_RANDOM = 1    # uniform random legal actions, chosen in the kernel
OPPONENT_EXTERNAL = 2  # stop and hand the batch to a Python policy

# Why a state that passed the game's own ``valid_one`` still cannot be played.
NO_LEGAL_ACTION = -1
NO_CHANCE_OUTCOME = -2
NOT_A_DECISION = -3
ILLEGAL_ACTION = -4
