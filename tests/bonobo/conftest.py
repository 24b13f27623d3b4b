"""Fixtures of the Bonobo tests; the implementation adapters are in helpers.py."""
import pytest

from tests.bonobo.helpers import KernelImpl, ReferenceImpl


@pytest.fixture(params=[KernelImpl(), ReferenceImpl()], ids=lambda impl: impl.name)
def impl(request):
    return request.param
