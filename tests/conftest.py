"""Shared test fixtures: the game configurations the project's generic tests run on, as the
conformance suite's (``savanna.conformance``; its plugin, loaded by pyproject.toml's addopts,
holds the Hypothesis profiles)."""
import pytest

from savanna.conformance import config_id, configs, make

# (game name, options): every configuration the generic tests are parametrised over, as each
# game declares them (its registration's ``configs``).
CONFIGS = configs()
# The mission games' configurations: the adapters to OpenSpiel and PettingZoo are tested on
# these (connect four is compared with OpenSpiel's own C++ game instead).
MISSION_CONFIGS = [c for c in CONFIGS if c[0] != "connect_four"]


def _make(name, options):
    try:
        return make(name, options)
    except ValueError as err:
        pytest.skip(f"{name} not available: {err}")


@pytest.fixture(params=CONFIGS, ids=config_id)
def game(request):
    return _make(*request.param)
