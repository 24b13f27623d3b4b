"""Shared test fixtures: the game configurations the conformance suite runs on."""
import numpy as np
import pytest
from hypothesis import settings

from savanna.game import CHANCE, TERMINAL
from savanna.registry import GAMES, game_class

# Property-based tests: a seeded sample in `make test`, a larger one in `make check-full`.
settings.register_profile("ci", max_examples=40, derandomize=True, database=None, deadline=None)
settings.register_profile("full", max_examples=1000, derandomize=True, database=None,
                          deadline=None)
settings.load_profile("ci")

# (game name, options): every configuration the generic suite is parametrised over, as each
# game declares them (its registration's ``configs``); connect four is the benchmarks'
# yardstick game (benchmarks/connect_four).
CONFIGS = [(name, config) for name, entry in GAMES.items() for config in entry.configs]
# The mission games' configurations: the adapters to OpenSpiel and PettingZoo are tested on
# these (connect four is compared with OpenSpiel's own C++ game instead).
MISSION_CONFIGS = [c for c in CONFIGS if c[0] != "connect_four"]


def config_id(config):
    return config[0] + "".join(f"-{k}={v}" for k, v in config[1].items())


def _make(name, options):
    try:
        cls = game_class(name)
    except ValueError as err:
        pytest.skip(f"{name} not available: {err}")
    return cls(**options)


@pytest.fixture(params=CONFIGS, ids=config_id)
def game(request):
    return _make(*request.param)


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
