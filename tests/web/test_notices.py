"""A notice pushed with a game (an agent's search failed: the game waits) is shown on every page
while the game says it, and cleared by the next push that no longer does: a spectator's error
line never stays past the resumed game, nor past "Game over". A stand-in agent refuses its
first real move in a process (its first call is the worker's rehearsal) and plays the others."""
import sys
import time

import pytest

from savanna.board.server import create_app
from savanna.board.tables import Limits
from tests.web.browser import needs_chromium, serving
from tests.web.push import TOKEN, call

pytestmark = needs_chromium

REFUSES_ONCE = '''
class RefusesOnce:
    """Refuses its second move in a process (the first is the rehearsal); the first legal
    move otherwise."""
    name = "refusesonce"
    calls = 0
    def settings(self):
        return {}
    def act(self, game, states, rng):
        RefusesOnce.calls += 1
        if RefusesOnce.calls == 2:
            raise ValueError("a stand-in that refuses this position once")
        return game.legal_mask(states).argmax(axis=1)
'''


@pytest.fixture
def refuses_once(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", [*sys.path])
    (tmp_path / "refuses.py").write_text(REFUSES_ONCE)
    yield f"{tmp_path / 'refuses.py'}:RefusesOnce"
    sys.modules.pop("refuses", None)


def test_a_pushed_notice_is_cleared_by_the_next_push_on_a_spectators_page(
        browser, refuses_once, tmp_path):
    limits = Limits(max_seconds=60, agents=(refuses_once,), save=tmp_path / "played")
    app = create_app(limits, workers=1, token=TOKEN)
    with serving(app) as address:
        view = call(address, "POST", "/api/tables", {"game": "zebres",
                                                     "seats": ["human", refuses_once]})
        table, key, control = view["id"], view["keys"]["0"], view["control"]
        page = browser.new_context().new_page()
        page.goto(address.rstrip("/") + view["spectate"])
        page.wait_for_selector("#board")
        error = page.locator("#error")
        view = call(address, "POST", f"/api/tables/{table}/move",
                    {"action": view["moves"][0]["action"], "version": view["version"]}, key)
        assert view["paused"] and "refuses this position once" in view["notice"]
        page.wait_for_function("document.querySelector('#error').textContent"
                               ".includes('refuses this position once')")
        call(address, "POST", f"/api/tables/{table}/pace", {"paused": False}, control)
        page.wait_for_function("document.querySelector('#error').textContent === ''")
        deadline = time.monotonic() + 120
        while not (view := call(address, "GET", f"/api/tables/{table}", key=key))["over"]:
            assert time.monotonic() < deadline
            if view["to_move"] == 0:
                call(address, "POST", f"/api/tables/{table}/move",
                     {"action": view["moves"][0]["action"], "version": view["version"]}, key)
            else:
                time.sleep(0.05)
        page.wait_for_selector("text=Game over")
        assert error.text_content() == ""
        page.context.close()
