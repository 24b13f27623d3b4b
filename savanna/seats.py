"""What a seat may know: the one place that decides what an agent is handed and what a seat is
shown of a chance outcome.

An agent never decides from the referee's true state of a game with hidden information: every
caller that asks an agent for moves (matches, tournaments, the ladder, studies, the board, the
envs' opponents, ``savanna play``, distillation) goes through ``seat_act``, which hands it a
copy whose hidden parts are redrawn from what the seat to move knows (``resample_hidden``, from
the caller's seeded ``rng``, so a match replays exactly). An agent that must see the truth (an
oracle, for research) says so with a true ``oracle`` attribute; results, records and tables
then name it with ``ORACLE_MARK``.

>>> from savanna import CHANCE, make_game
>>> game, rng = make_game("banjooli"), np.random.default_rng(0)
>>> s = game.init(1, rng=rng)
>>> while game.current_player(s)[0] == CHANCE:   # the dice, before seat 0 decides
...     game.apply_chance(s, game.sample_chance(s, rng))
>>> view = seat_view(game, s, rng)   # a world seat 0 cannot tell from the true one
>>> bool((game.observe(view, 0) == game.observe(s, 0)).all())   # its own card kept
True
"""
import numpy as np

from savanna.errors import clip, one_line

__all__ = ["ORACLE_MARK", "AgentError", "is_oracle", "outcome_owner", "outcome_seen_by",
           "seat_act", "seat_view"]

ORACLE_MARK = " (oracle)"  # appended to an oracle agent's name in results and records


def is_oracle(agent) -> bool:
    """Whether ``agent`` declares that it needs the true state (``oracle = True``)."""
    return getattr(agent, "oracle", False) is True


def seat_view(game, states, rng, players=None):
    """Copies of ``states`` (checked) in which everything the player to move (or
    ``players[i]`` for state ``i``) has not seen is redrawn consistently with what it has seen
    (a chance node or the end, which no seat decides, is copied as it is); the states
    themselves with perfect information."""
    if game.perfect_information:
        return states
    api = game.unchecked
    players = api.current_player(states) if players is None else np.asarray(players)
    view = states.copy()
    from savanna.rng import as_generator  # here: rng's kernels load numba, a seat's view not

    rng = as_generator(rng)
    for p in np.unique(players[players >= 0]):
        rows = np.flatnonzero(players == p)
        view[rows] = api.resample_hidden(states[rows], int(p), rng)
    return view


class AgentError(ValueError):
    """An agent failed while asked to move: one line naming it and its own error."""


def seat_act(agent, game, states, rng):
    """``agent.act`` on what each mover of ``states`` may know (``seat_view``), or on the
    states themselves for an oracle: the call every caller makes to ask an agent to move. An
    error inside ``act`` comes out as one ``AgentError`` line naming the agent."""
    view = states if is_oracle(agent) else seat_view(game, states, rng)
    try:
        return agent.act(game, view, rng)
    except AgentError:
        raise
    except Exception as err:
        name = getattr(agent, "name", None) or type(agent).__qualname__
        raise AgentError(f"agent {clip(name)} failed in act: {type(err).__name__}: "
                         f"{one_line(err)}") from err


def outcome_owner(game, row):
    """The seat that alone may see the outcome of chance node ``row`` (the game's declared
    ``chance_private_to``), or None for an outcome every seat sees."""
    return game.chance_private_to(row) if game.private_chance else None


def outcome_seen_by(game, row, seat):
    """Whether ``seat`` (a seat number, or None for a spectator) may see the outcome of chance
    node ``row`` once drawn: every seat sees a public outcome, only its owner a private one.
    The terminal asks this, the board ``outcome_owner``."""
    owner = outcome_owner(game, row)
    return owner is None or seat == owner
