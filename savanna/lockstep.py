"""A game's kernels and its pure-Python reference played in lockstep: the body of a
``twin.py``'s ``play_lockstep`` when ``reference.py`` is a module of plain functions.

The reference module gives ``current_player(ref)`` (``-1`` chance, ``-2`` the end),
``legal_actions(ref)``, ``observe(ref, player)`` (nested lists or flat) and
``step(ref, action) -> (ref, rewards)``; with chance, ``chance_outcomes(ref) -> {outcome:
probability}`` and ``apply_chance(ref, outcome)``; with ``to_position(ref)``, positions are
compared too. A game's whole ``twin.py`` is then::

    from my_game import reference
    from savanna.lockstep import play_in_lockstep

    def play_lockstep(game, s, plies, rng):
        ref = reference.from_position(game.to_position(s))
        play_in_lockstep(game, s, reference, ref, plies, rng)

"""
import numpy as np

from savanna.codes import CHANCE
from savanna.errors import clip

__all__ = ["play_in_lockstep"]


def play_in_lockstep(game, s, reference, ref, plies, rng):
    """Play ``plies`` random decisions and chance outcomes from ``s`` (a batch of one, left
    as it is) on the kernels and from ``ref`` on ``reference`` at once; an AssertionError
    names the first node where they differ and what differed."""
    if len(s) != 1:
        raise ValueError(f"play_in_lockstep takes a batch of one state, got {len(s)}")
    s = s.copy()
    for _ in range(plies):
        if _assert_agree(game, s, reference, ref) == CHANCE:
            outcome = int(rng.choice(list(_possible(reference.chance_outcomes(ref)))))
            game.apply_chance(s, [outcome])
            ref = reference.apply_chance(ref, outcome)
            continue
        legal = reference.legal_actions(ref)
        if not legal:
            return
        action = int(rng.choice(legal))
        before = s.copy()
        rewards = game.step_inplace(s, [action])[0].tolist()
        ref, expected = reference.step(ref, action)
        if rewards != list(expected):
            raise AssertionError(f"{game.to_text(before)}: rewards of "
                                 f"{game.action_to_string(before[0], action)}: kernels "
                                 f"{rewards}, reference {list(expected)}")
    _assert_agree(game, s, reference, ref)


def _assert_agree(game, s, reference, ref):
    """Raise the first difference between ``s`` and ``ref``; return the player to move."""
    player = reference.current_player(ref)
    checks = [("player", int(game.current_player(s)[0]), player),
              ("legal actions", game.legal_actions(s), reference.legal_actions(ref))]
    if hasattr(reference, "to_position"):
        checks.insert(0, ("position", game.to_position(s), reference.to_position(ref)))
    checks += [(f"observation of seat {p}", game.observe(s, p)[0].tolist(),
                np.reshape(reference.observe(ref, p), game.obs_shape).tolist())
               for p in range(game.num_players)]
    if player == CHANCE:
        probs = game.chance_probs(s)[0]
        checks.append(("chance outcomes", {int(c): float(probs[c]) for c in probs.nonzero()[0]},
                       _possible(reference.chance_outcomes(ref))))
    for what, kernel, expected in checks:
        if kernel != expected:
            raise AssertionError(f"{game.to_text(s)}: {what}: kernels {clip(kernel)}, "
                                 f"reference {clip(expected)}")
    return player


def _possible(outcomes):
    """``{outcome: probability}`` of the outcomes that can happen, as plain numbers."""
    return {int(o): float(p) for o, p in outcomes.items() if p > 0}
