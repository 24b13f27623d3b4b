"""A server with a terminal (``say``) gets every game the page offers and the agents' searches
ready in its search workers as it starts (``board.readying``), says so in ``/api/info``, and
a table's first agent move then comes with no "getting ready" and no notice; a search that
comes while the workers get ready waits for one without that wait counting in its time, its
table telling the pages how far they are ("getting SPEC ready: n of m compiles done"). A
stand-in agent whose first move in a process takes longer than a move may plays the compile.
The fresh install itself (an empty numba cache, minutes) is ``benchmarks/first_move.py``'s,
run by the slow test at the end."""
import json
import re
import sys
import time

import pytest

from savanna.board import readying
from savanna.board.server import PLAYED, create_app
from savanna.board.tables import Limits
from tests.web.browser import serving
from tests.web.push import TOKEN, Watch, answer, call
from tests.web.test_first_search import SLOW_FIRST


def ready_status(address, timeout=600):
    """``/api/info``'s ``readying`` once finished."""
    deadline = time.monotonic() + timeout
    while not (status := call(address, "GET", "/api/info")["readying"])["finished"]:
        assert time.monotonic() < deadline, status
        time.sleep(0.2)
    return status


def test_the_workers_get_every_game_and_search_ready_and_the_first_agent_move_comes_at_once(
        tmp_path):
    said = []
    limits = Limits(max_seconds=20, save=tmp_path / "played")
    app = create_app(limits, workers=2, token=TOKEN, say=said.append)
    with serving(app) as address:
        status = ready_status(address)
        assert status["done"] == status["total"] == len(PLAYED) * (1 + len(readying.AGENTS))
        assert status["failed"] == 0 and not any("failed" in line for line in said)
        view = call(address, "POST", "/api/tables", {
            "game": "bonobo", "seats": ["human", "human", "az:baseline"], "seed": 3})
        keys = view["keys"]
        page = Watch(address, view["id"], keys["0"], TOKEN)
        try:
            while view["to_move"] in (0, 1):
                seat = str(view["to_move"])
                view = call(address, "GET", f"/api/tables/{view['id']}", key=keys[seat])
                view = call(address, "POST", f"/api/tables/{view['id']}/move",
                            {"action": view["moves"][0]["action"],
                             "version": view["version"]}, keys[seat])
            page.wait_for(lambda _, kind, data: kind == "view" and any(
                line["who"] == 2 for line in data["log"]))
            assert all(v["preparing"] is None and v["notice"] is None for v in page.views())
        finally:
            page.close()


@pytest.fixture
def slow_agent(tmp_path, monkeypatch):
    """The stand-in's spec, by its absolute path: the workers may run in another folder."""
    monkeypatch.setattr(sys, "path", [*sys.path])
    (tmp_path / "slow.py").write_text(SLOW_FIRST)
    yield f"{tmp_path / 'slow.py'}:SlowFirst"
    sys.modules.pop("slow", None)


def test_a_search_that_comes_while_the_workers_get_ready_waits_on_their_time(
        slow_agent, tmp_path, monkeypatch):
    monkeypatch.setattr(readying, "AGENTS", (slow_agent,))
    limits = Limits(max_seconds=1, agents=(slow_agent,), save=tmp_path / "played")
    app = create_app(limits, workers=1, token=TOKEN, say=lambda text: None)
    with serving(app) as address:
        view = call(address, "POST", "/api/tables", {"game": "zebres",
                                                     "seats": ["human", slow_agent]})
        unit = ("zebres", slow_agent)  # put first by the New game; its first move takes 2.5 s
        ready = app.state.master.readying
        while unit in ready.todo:
            time.sleep(0.01)
        assert unit not in ready.done  # the worker is on it: the search waits for it
        page = Watch(address, view["id"], view["keys"]["0"], TOKEN)
        try:
            started = time.monotonic()
            moved = call(address, "POST", f"/api/tables/{view['id']}/move",
                         {"action": view["moves"][0]["action"], "version": view["version"]},
                         view["keys"]["0"])
            assert time.monotonic() - started > limits.max_seconds  # it waited that long
            assert moved["notice"] is None and not moved["paused"]
            assert any(line["who"] == 1 for line in moved["log"])
            page.wait_for(lambda _, kind, data: kind == "view" and data["preparing"] is None
                          and any(line["who"] == 1 for line in data["log"]))
        finally:
            page.close()
    told = [v["preparing"] for v in page.views() if v["preparing"]]  # the page's turn line
    progress = rf"getting {re.escape(slow_agent)} ready: (\d+) of {ready.total} compiles done"
    counts = [int(m[1]) for t in told if (m := re.fullmatch(progress, t))]
    assert counts and counts == sorted(counts) and counts[-1] < ready.total, told
    assert all(v["notice"] is None for v in page.views())


@pytest.fixture
def served(slow_agent, tmp_path, monkeypatch):
    """The board of ``page``: one worker getting ready the tables and the stand-in agent."""
    monkeypatch.setattr(readying, "AGENTS", (slow_agent,))
    limits = Limits(max_seconds=1, agents=(slow_agent,), save=tmp_path / "played")
    app = create_app(limits, workers=1, token="", say=lambda text: None)
    with serving(app) as address:
        yield address, app


def test_a_new_game_set_up_while_the_workers_get_ready_says_how_far_they_are(
        served, slow_agent, page):
    """The stand-in agent moves first: the New game waits for its search (2.5 s) and says how
    far the workers are meanwhile, with no error line."""
    page.select_option("#game", "zebres")
    page.fill("#seats", f"{slow_agent},human")
    page.click("#start")
    state = page.locator("#new-game-state").filter(has_text="compiles done")
    state.wait_for()
    text = state.text_content()
    page.wait_for_function("document.querySelector('#play-panel').dataset.table")
    total = served[1].state.master.readying.total
    assert re.fullmatch(r"Setting up the table\.\.\. \d+ s: getting Zèbres ready: \d+ of "
                        rf"{total} compiles done \(a fresh install compiles once\)", text), text
    assert page.locator("#error").text_content() == ""


def test_the_page_names_the_game_and_agents_its_form_picks(served, slow_agent, page,
                                                          monkeypatch):
    """As a person picks a game and its agents, the page names them to the server, which
    moves them ahead in its workers' line (``Readying.ahead``)."""
    ready = served[1].state.master.readying
    named = []
    monkeypatch.setattr(ready, "ahead", lambda game, specs=(), ahead=ready.ahead: (
        named.append((game, list(specs))), ahead(game, specs))[1])
    page.select_option("#game", "banjooli")
    page.fill("#seats", f"human,{slow_agent}")
    deadline = time.monotonic() + 60
    while ("banjooli", ["human", slow_agent]) not in named:
        assert time.monotonic() < deadline, named
        time.sleep(0.05)


def test_ahead_puts_the_named_units_first_and_stops_nothing():
    ready = readying.Readying(None, Limits(), ("zebres", "bonobo", "banjooli"), print)
    ready.ahead("banjooli", ["human", "mcts"])
    assert ready.todo == [("banjooli", None), ("banjooli", "mcts"), ("zebres", None),
                          ("bonobo", None), ("zebres", "az:baseline"), ("bonobo", "az:baseline"),
                          ("banjooli", "az:baseline"), ("zebres", "mcts"), ("bonobo", "mcts")]
    assert not ready.urgent and not ready.stopped and ready.calm.is_set()


def test_a_hint_names_a_game_the_board_plays_and_its_seats(served):
    address = served[0]
    hinted = call(address, "POST", "/api/readying", {"game": "bonobo", "seats": ["human"]})
    assert set(hinted["readying"]) >= {"done", "total", "finished"}
    for body, words in [({"game": "chess"}, "unknown game 'chess'; the board plays: zebres"),
                        ({"game": "zebres", "seats": "human"}, "seats must be a list"),
                        ({"game": "zebres", "seats": ["human"] * 9}, "at most 8 seats"),
                        ({"game": "zebres", "seed": 1}, "unknown field 'seed'")]:
        status, raw = answer(address, "POST", "/api/readying", body)
        assert status == 400 and words in json.loads(raw)["error"], raw


@pytest.mark.slow
def test_a_fresh_install_plays_its_first_agent_move_with_no_pause_and_no_error_line():
    """A fresh numba cache: the server's workers get everything ready; a table set up then
    (``az:baseline`` in Bonobo Beach's third seat) plays its agent's move as a warm server
    does, and no view carries a notice."""
    from savanna.benchmarks import first_move

    figures = first_move.measure(until_ready=True, progress=lambda text: None)
    assert figures["notices"] == [], figures["terminal"]
    assert "failed" not in figures["terminal"]
    assert figures["last human move to the agent's move (s)"] < 10, figures
