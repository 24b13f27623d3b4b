"""Fixtures of the Zèbres tests; the implementation adapters are in helpers.py."""
import pytest

from tests.zebres.helpers import IMPLEMENTATIONS


@pytest.fixture(params=list(IMPLEMENTATIONS))
def impl(request):
    """The implementation under test: ``impl(board="standard", first_placer=1)`` -> an adapter."""
    if request.param == "kernel":
        pytest.importorskip("savanna.zebres.game")
    return IMPLEMENTATIONS[request.param]
