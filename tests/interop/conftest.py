"""The adapters are tested on the mission games (connect four, the benchmarks' yardstick, is
cross-checked against OpenSpiel's own C++ game in tests/connect_four)."""
import pytest

from tests.conftest import MISSION_CONFIGS, _make, config_id


@pytest.fixture(params=MISSION_CONFIGS, ids=config_id)
def game(request):
    return _make(*request.param)
