"""The browser shared by a module's browser tests: Debian's chromium (skipped where missing)."""
import os

import pytest

from tests.web.browser import CHROMIUM, chromium


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("no chromium: the browser tests need Debian's chromium (make test installs it)")
    with chromium() as launched:
        yield launched
