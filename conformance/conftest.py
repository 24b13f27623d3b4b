"""The suite's parameters: every configuration of the games chosen (``--savanna-game``, the
plugin's option; every registered game without it)."""
import pytest

from savanna.conformance import config_id, configs, make


def pytest_generate_tests(metafunc):
    if "config" in metafunc.fixturenames:
        chosen = configs(metafunc.config.getoption("savanna_game", default=None) or ())
        metafunc.parametrize("config", chosen, ids=config_id)


@pytest.fixture
def game(config):
    """The game of one configuration."""
    return make(*config)
