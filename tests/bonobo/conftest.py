"""Fixtures of the Bonobo tests; the implementation adapters are in helpers.py."""
import pytest

from tests.bonobo.helpers import IMPLEMENTATIONS


@pytest.fixture(params=list(IMPLEMENTATIONS))
def impl(request):
    """The implementation under test: an adapter over the kernels or the reference."""
    return IMPLEMENTATIONS[request.param]()
