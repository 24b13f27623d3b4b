"""What a module's board tests share: Debian's chromium (skipped where missing), a board
served with the token ``tests.web.push.TOKEN`` (``served``; a module serves its own board by
defining its own, its address first), and the page of the module's board in that browser
(``page``), or on each of two phones' screens (``phone``)."""
import os

import pytest

from savanna.board.server import create_app
from savanna.board.tables import Limits
from tests.web.browser import CHROMIUM, chromium, opened, serving
from tests.web.push import TOKEN


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("no chromium: the browser tests need Debian's chromium (make test installs it)")
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A board with one worker and small search limits, its games saved in a temporary folder:
    its address and its app."""
    limits = Limits(max_sims=200, max_seconds=60, save=tmp_path_factory.mktemp("played"))
    app = create_app(limits, workers=1, token=TOKEN)
    with serving(app) as address:
        yield address, app


@pytest.fixture
def viewport():
    """The size of ``page``; a module that needs another defines its own."""
    return {"width": 1280, "height": 800}


@pytest.fixture
def expected_console_errors():
    """How the console errors that ``page`` lets pass start (none; a module whose tests ask
    for answers the browser reports as errors defines its own)."""
    return ()


@pytest.fixture
def page(browser, served, viewport, expected_console_errors):
    """A new page on the module's ``served`` board (its address first), ready; a console error
    or an uncaught exception on it fails the test."""
    with opened(browser, served[0], viewport, expected_console_errors) as page:
        yield page


PHONES = [(360, 740), (390, 844)]  # CSS px: a small phone and a common one


@pytest.fixture(params=PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def phone(browser, served, request):
    """``page`` on each phone's screen in turn."""
    width, height = request.param
    with opened(browser, served[0], {"width": width, "height": height}) as page:
        yield page
