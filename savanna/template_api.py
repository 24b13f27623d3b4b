"""The free names a compiled template may use, as typed stubs for readers, linters and editors.

A template (``savanna._drivers``, ``savanna_agents._mcts_kernels``, ...) is a module of numba loops
over one game's kernels. ``Game.compiled(template)`` binds these names to the game's ``Kernels`` and
constants in a generated, cacheable copy of the template (``savanna.specialize``). The template
imports them from here under ``if TYPE_CHECKING:`` only, a block that never runs, so every name
can be followed to its documentation below while the compiled copy uses the game's own.
"""
import numpy as np

A: int = 0  # the game's number of distinct actions
C: int = 1  # the most chance outcomes of a node (at least 1)


def reset_one(s: np.ndarray, i: int, template: np.ndarray, streams: np.ndarray) -> None:
    """s[i] = template[0], then draw any random setup from ``streams``."""


def current_player_one(s: np.ndarray, i: int) -> int:
    """0..P-1, CHANCE (-1) or TERMINAL (-2)."""
    return 0


def legal_actions_one(s: np.ndarray, i: int, out: np.ndarray) -> int:
    """Writes the legal actions, ascending, into int16 ``out``; returns how many."""
    return 0


def step_one(s: np.ndarray, i: int, action: int, rewards: np.ndarray) -> None:
    """Applies a legal decision and the forced moves that follow; overwrites float32
    ``rewards[P]``."""


def chance_probs_one(s: np.ndarray, i: int, probs: np.ndarray) -> None:
    """float64 ``probs[C]`` of each outcome (zeros allowed)."""


def apply_chance_one(s: np.ndarray, i: int, outcome: int) -> None:
    """Applies one chance outcome."""


def observe_one(s: np.ndarray, i: int, player: int, out: np.ndarray) -> None:
    """uint8 ``out[obs_size]``, from ``player``'s seat."""


def valid_one(s: np.ndarray, i: int, template: np.ndarray) -> int:
    """0 if state ``i`` is possible in the game whose options are ``template[0]``, else a
    positive code (an index into the game's ``state_errors``)."""
    return 0


def scores_one(s: np.ndarray, i: int, out: np.ndarray) -> None:
    """int64 ``out[P]``: each player's score if the game ended now."""


def playout_one(s: np.ndarray, i: int, streams: np.ndarray, actions: np.ndarray,
                probs: np.ndarray, rewards: np.ndarray, total: np.ndarray) -> int:
    """Plays state ``i`` to the end at random, adds its rewards to ``total``; returns the
    plies (``savanna._drivers.playout_one``, bound for templates that ask for it)."""
    return 0
