"""The way from an agent spec to its network: ``python -m savanna.benchmarks.agent_walk``.

Counts, with ``sys.setprofile``, the calls of the project's functions made from
``make_agent(spec)`` (then its first ``act`` on a game's first decision) until the network first
evaluates a position (a call into ``savanna.agents.models.inference``): how many calls, in how
many distinct files, and how many of them enter a file other than their caller's that the walk
had already visited (the route bouncing between modules). Comprehensions and lambdas are parts
of their function, not calls of the route. Imports and compilation are done by a first,
uncounted walk.
"""
import argparse
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

from savanna.agents.play.registry import make_agent
from savanna.binding import cache_root
from savanna.codes import CHANCE
from savanna.registry import make_game

ROOT = str(Path(__file__).resolve().parents[1])  # the project's files
# not the project's code, though they may lie in the checkout: a virtual environment, and the
# modules generated for the compiled templates (beside numba's cache)
OUTSIDE = (*{sys.prefix, sys.base_prefix}, str(cache_root()))
NETWORK = str(Path(ROOT, "agents", "models", "inference.py"))  # where evaluation starts


class Walk(NamedTuple):
    calls: int      # Python calls in the project's files
    files: int      # distinct files among them
    returns: int    # calls that entered an already visited file other than the caller's


class _Reached(Exception):
    """Raised at the first network evaluation, to stop the walk there."""


def first_decision(game):
    """The first decision node of a seeded game (a game may start with chance nodes: dice,
    a deal)."""
    s = game.init(1, rng=0)
    rng = np.random.default_rng(0)
    while game.current_player(s)[0] == CHANCE:
        game.apply_chance(s, game.sample_chance(s, rng))
    return s


def walk(spec="az:baseline", game_name="zebres"):
    """The ``Walk`` from ``make_agent(spec)`` to the first network evaluation on
    ``game_name``, after an uncounted one (imports and compilation)."""
    game = make_game(game_name)
    states = first_decision(game)
    make_agent(spec).act(game, states, np.random.default_rng(0))  # imports, compilation
    calls, visited = [], []

    def profile(frame, event, arg):
        if event != "call":
            return
        file = frame.f_code.co_filename
        if file == NETWORK:
            raise _Reached
        if (not file.startswith(ROOT) or file.startswith(OUTSIDE)
                or frame.f_code.co_name.startswith("<")):
            return
        caller = frame.f_back.f_code.co_filename if frame.f_back else None
        calls.append((file, file != caller and file in visited))
        if file not in visited:
            visited.append(file)

    sys.setprofile(profile)
    try:
        make_agent(spec).act(game, states, np.random.default_rng(0))
    except _Reached:
        pass
    finally:
        sys.setprofile(None)
    if not calls:
        raise RuntimeError(f"{spec} never evaluated a network on {game_name}")
    return Walk(len(calls), len(visited), sum(bounce for _, bounce in calls))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m savanna.benchmarks.agent_walk",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", default="az:baseline", help="agent spec (default az:baseline)")
    parser.add_argument("--game", default="zebres", help="game (default zebres)")
    args = parser.parse_args(argv)
    found = walk(args.spec, args.game)
    print(f"{args.spec} on {args.game}: {found.calls} calls in {found.files} files, "
          f"{found.returns} of them returning to a file already visited")


if __name__ == "__main__":
    main()
