"""No compile shows as an error: an agent's first search in a search worker (numba compiling,
or loading its cache, on a fresh install) is not counted against a move's time; the pages are
told it is getting ready meanwhile, and the first move comes with no pause and no notice.
A stand-in agent whose first move in a process takes longer than the server allows a move
plays the part of the compile."""
import sys
import time

import pytest

from savanna.board.server import create_app
from savanna.board.tables import Limits
from tests.web.browser import serving
from tests.web.push import TOKEN, Watch, call

SLOW_FIRST = '''
import time

class SlowFirst:
    """Its first move in a process takes 2.5 s (a compile); the others at once."""
    name = "slowfirst"
    first = True
    def settings(self):
        return {}
    def act(self, game, states, rng):
        if SlowFirst.first:
            SlowFirst.first = False
            time.sleep(2.5)
        return game.legal_mask(states).argmax(axis=1)
'''


@pytest.fixture
def slow_agent(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [*sys.path])
    (tmp_path / "slow.py").write_text(SLOW_FIRST)
    yield "./slow.py:SlowFirst"
    sys.modules.pop("slow", None)


def test_an_agents_first_search_compiles_on_its_own_time_and_says_so(slow_agent, tmp_path):
    limits = Limits(max_seconds=1, agents=(slow_agent,), save=tmp_path / "played")
    app = create_app(limits, workers=1, token=TOKEN)
    with serving(app) as address:
        view = call(address, "POST", "/api/tables", {"game": "zebres",
                                                     "seats": ["human", slow_agent]})
        page = Watch(address, view["id"], view["keys"]["0"], TOKEN)
        try:
            moved = call(address, "POST", f"/api/tables/{view['id']}/move",
                         {"action": view["moves"][0]["action"], "version": view["version"],
                          "agents": False}, view["keys"]["0"])
            played = page.wait_for(lambda _, kind, data: kind == "view" and any(
                line["who"] == 1 for line in data["log"]), timeout=120)[2]
            views = page.views()
            assert any(v["preparing"] and slow_agent in v["preparing"] for v in views)
            assert all(v["notice"] is None and not v["paused"] for v in views)
            assert played["preparing"] is None and played["version"] > moved["version"]
            # the next moves are searched in the time a move may take, as before
            started = time.monotonic()
            while not played["over"] and time.monotonic() < started + 60:
                if played["to_move"] == 0:
                    played = call(address, "POST", f"/api/tables/{view['id']}/move",
                                  {"action": played["moves"][0]["action"],
                                   "version": played["version"]}, view["keys"]["0"])
                else:
                    time.sleep(0.05)
                    played = call(address, "GET", f"/api/tables/{view['id']}",
                                  key=view["keys"]["0"])
                assert played["notice"] is None
        finally:
            page.close()
