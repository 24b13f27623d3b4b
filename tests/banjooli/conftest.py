"""Fixtures of the Banjooli tests; the implementation adapters are in helpers.py."""
import pytest

from tests.banjooli.helpers import IMPLEMENTATIONS


@pytest.fixture(params=IMPLEMENTATIONS)
def impl(request):
    """``"kernel"`` or ``"reference"``: the helpers play positions through that one."""
    return request.param
