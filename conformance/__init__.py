"""The conformance suite: the generic tests every game passes, for anyone's game.

The same tests that Savanna runs over its own games, as a package that installs with it, so
that a game kept elsewhere is checked with no checkout of the project::

    savanna check kuhn_toy                 # one line per failing clause; exit 0 when all pass
    python -m savanna.conformance kuhn_toy
    pytest -p savanna.conformance.plugin --pyargs savanna.conformance --savanna-game kuhn_toy

They run on every configuration a game's registration lists (``configs``): the protocol
(masks, chance, rewards, length, batches, threads, seeds, notation round trips), kernels
against the game's reference move for move (the twin its registration declares), fuzzed
positions, moves and state rows, states closed under legal moves, hidden information
(observations and pictures that show no seat another's secrets, ``resample_hidden``), the
Gymnasium and vector envs, agents, records and analysis, and a speed smoke test. Hypothesis
runs a seeded sample (``--hypothesis-profile=full`` for more).

>>> [config_id(c) for c in configs(["bonobo"])]
['bonobo-num_players=2', 'bonobo-num_players=3', 'bonobo-num_players=4']
"""
import importlib
import importlib.util
from pathlib import Path

import numpy as np

from savanna.codes import CHANCE, TERMINAL
from savanna.errors import clip
from savanna.registry import GAMES, game_class


def configs(names=()):
    """``(name, options)`` for every configuration the registrations of ``names`` list (every
    registered game when empty); an unknown name is a ValueError listing the games."""
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        raise ValueError(f"unknown game {clip(unknown[0])}; registered: {', '.join(GAMES)}")
    return [(name, config) for name in names or GAMES for config in GAMES[name].configs]


def config_id(config):
    """``bonobo-num_players=3``: a configuration as the tests' ids spell it."""
    return config[0] + "".join(f"-{k}={v}" for k, v in config[1].items())


def make(name, options):
    return game_class(name)(**options)


def twin(game):
    """The twin module ``game``'s registration declares (``twin``, by default ``<package>.twin``
    beside its modules): its ``play_lockstep(game, s, plies, rng)`` plays the kernels against
    the reference move by move. Missing, one line that says where it goes (and which file to
    move, for the layout of a game written before the twin lived in the game's package:
    ``tests/<name>/twin.py``)."""
    entry = GAMES[game.name]
    try:
        return importlib.import_module(entry.twin)
    except ModuleNotFoundError as err:
        if err.name != entry.twin:
            raise
    if entry.twin != f"{entry.package}.twin":
        raise AssertionError(f"{game.name}'s registration declares twin={entry.twin!r}, and no "
                             "such module imports")
    folder = Path(importlib.util.find_spec(entry.package).submodule_search_locations[0])
    old = old_twin(folder, game.name)
    where = folder / "twin.py"
    raise AssertionError(
        (f"move {old} into the game's package, as {where}" if old else
         f"{game.name} has no {entry.twin}: write {where}")
        + " (play_lockstep(game, s, plies, rng): its kernels against reference.py, move by "
        "move; savanna check imports the twin its registration declares, by default from the "
        "game's package)")


def old_twin(folder, name):
    """A ``twin.py`` of the layout before the twin lived in the game's package
    (``tests/<name>/twin.py`` beside the package, or in the working folder), or None."""
    for root in (folder.parent, Path.cwd()):
        for candidate in (root / "tests" / name / "twin.py", root / "tests" / "twin.py",
                          root / f"{name}_twin.py", root / "twin.py"):
            if candidate.is_file():
                return candidate
    return None


def play_random(game, states, rng, on_step=None, max_steps=None):
    """Play a batch to the end in place with uniform random legal actions and sampled chance
    outcomes, calling ``on_step(states)`` before every round. Returns the summed rewards."""
    totals = np.zeros((len(states), game.num_players), np.float32)
    limit = max_steps or game.max_plies * 4 + 100
    for _ in range(limit):
        players = game.current_player(states)
        if (players == TERMINAL).all():
            return totals
        if on_step is not None:
            on_step(states)
        chance = np.flatnonzero(players == CHANCE)
        if len(chance):
            sub = states[chance]
            game.apply_chance(sub, game.sample_chance(sub, rng))
            states[chance] = sub
        decide = np.flatnonzero(players >= 0)
        if len(decide):
            sub = states[decide]
            mask = game.legal_mask(sub)
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
            totals[decide] += game.step_inplace(sub, actions)
            states[decide] = sub
    raise AssertionError(f"games did not end within {limit} rounds")
