"""The generic suites (tests/conformance) run on connect four: the protocol, the envs and the
fuzzed inputs, with this module's ``game`` and ``config`` fixtures in place of the mission
games' configurations (a yardstick, not one of ``tests.conftest.CONFIGS``)."""
import pytest

from benchmarks.connect_four.game import ConnectFourGame
from savanna.env import SavannaEnv
from tests.conformance.test_envs import *
from tests.conformance.test_fuzz import *
from tests.conformance.test_protocol import *

# Not about one game (they run in tests/conformance already), or needing an illegal action at
# the start, which connect four has not: replaced below.
del test_registered_ids_make_envs, test_bound_classes  # noqa: F821
del test_illegal_action_loses_or_raises  # noqa: F821


@pytest.fixture
def game():
    return ConnectFourGame()


@pytest.fixture
def config():
    return "connect_four", ()


def test_full_column_loses_or_raises(game):
    """Dropping into a full column (``a`` after six stones) loses, or raises when asked."""
    for mode in ("lose", "raise"):
        env = SavannaEnv(game, opponent=None, illegal_action=mode)
        env.reset(seed=1)
        for _ in range(6):
            env.step(0)
        assert not env.action_masks()[0]
        if mode == "raise":
            with pytest.raises(ValueError, match="illegal action 0"):
                env.step(0)
        else:
            _, reward, terminated, _, info = env.step(0)
            assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
