"""The review graph of the page (static/review.js) in headless Chromium: one point per decision of
a recorded tournament game, each player's line the values the Python call gives (as expected
results), the marked points exactly its labelled moves, a click on a point or a listed move picks
that ply, the graph is one tab stop whose arrow keys move through the moves, Cancel says so, and
no serious accessibility finding (axe-core)."""

import numpy as np
import pytest

from savanna.agents import review
from savanna.board.server import create_app
from savanna.board.tables import Limits
from savanna.records import read_records
from tests.agents.test_review import AGENT, write_tournament_game
from tests.web.browser import needs_chromium, serving
from tests.web.test_review_teaching import click_point

pytestmark = needs_chromium
RUN = """async (source) => {
  window.picked = [];
  return await window.savannaReview({...source.where, ...source.settings,
                                     onPick: (ply) => window.picked.push(ply)});
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    (folder / "match").mkdir()
    records = write_tournament_game(folder / "match")
    limits = Limits(max_sims=500, max_seconds=600, folders=(folder,))
    with serving(create_app(limits, token="")) as address:
        yield address, records


@pytest.fixture
def viewport():
    return {"width": 1200, "height": 900}


@pytest.fixture
def expected_console_errors():
    return ("Failed to load resource",)  # the 4xx answers the tests ask for


def test_the_graph_draws_the_python_calls_values_and_labels(page, served):
    names = ["Player 0", "Player 1"]  # as the board names Bonobo's seats
    settings = {"agent": AGENT, "threshold": 0.05, "seed": 3}
    status = page.evaluate(RUN, {"where": {"file": "match/records.jsonl", "game": 1},
                                 "settings": settings})
    record = read_records(served[1])[1]
    expected = review(record, AGENT, threshold=0.05, seed=3)
    assert status["done"] and status["result"]["decisions"] == expected.to_json()["decisions"]
    points = page.locator("#review .point")
    assert points.count() == record.plies
    plies = [int(points.nth(k).get_attribute("data-ply")) for k in range(points.count())]
    assert plies == list(range(record.plies))
    marked = page.locator("#review .point.marked")
    assert [int(marked.nth(k).get_attribute("data-ply")) for k in range(marked.count())] == \
        expected.marked["ply"].tolist() != []
    for k, d in enumerate(expected.decisions):
        agent = record.agents[d["player"]]
        drop = 100 * d["drop"]
        lost = ("the search never tried it" if np.isnan(drop) else f"lost {drop:.1f} points"
                if drop >= 0 else f"gained {-drop:.1f} points on the search's best")
        label = f", {d['label']}" if d["label"] else ""
        assert points.nth(k).locator("title").text_content() == \
            f"move {k + 1}: {names[d['player']]} ({agent}) played {d['move']}, " \
            f"best {d['best']}{label}, {lost}"
    for p in range(2):  # each line's heights are the values, on one linear scale
        line = page.locator(f"#review polyline[data-player='{p}']").get_attribute("points")
        ys = np.array([float(xy.split(",")[1]) for xy in line.split()])
        values = expected.decisions[f"value_{p}"]
        slope, intercept = np.polyfit(values, ys, 1)
        assert slope < 0 and np.allclose(ys, slope * values + intercept, atol=1e-6)
    click_point(page, 5)
    cursor = page.locator("#review line.cursor")
    assert cursor.get_attribute("visibility") == "visible"
    assert cursor.get_attribute("x1") == points.nth(5).get_attribute("cx")
    page.wait_for_function("window.picked.length === 1")
    page.locator("#review .review-marked button").last.click()
    page.wait_for_function("window.picked.length === 2")
    assert page.evaluate("window.picked") == [5, expected.marked["ply"][-1]]
    graph = page.locator("#review svg.review-graph")  # one tab stop, the arrow keys move on it
    assert page.locator("#review svg.review-graph [tabindex]").count() == 0
    graph.focus()
    page.keyboard.press("End")
    page.wait_for_function("window.picked.length === 3")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("window.picked.length === 4")
    assert page.evaluate("window.picked")[-2:] == [record.plies - 1, record.plies - 2]
    assert graph.get_attribute("aria-valuenow") == str(record.plies - 1)
    assert "marked" in page.locator("#review .review-status").text_content()
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, context="#review")
    assert [v["id"] for v in found.response["violations"]
            if v["impact"] in ("serious", "critical")] == []


def test_cancel_says_cancelled_and_an_error_is_shown_not_thrown(page):
    page.evaluate("""() => { window.started = window.savannaReview(
        {file: "match/records.jsonl", game: 0, agent: "mcts:sims=500"}); }""")
    page.locator("#review .review-status").filter(has_text="decisions reviewed").wait_for()
    page.get_by_role("button", name="Cancel review").click()
    status = page.evaluate("window.started")
    assert status["cancelled"] and status["reviewed"] < status["of"]
    assert page.locator("#review .review-status").text_content().startswith("cancelled")
    assert page.evaluate(RUN, {"where": {"file": "match/records.jsonl", "game": 9},
                               "settings": {}}) is None
    assert "game must be in 0..1" in page.locator("#review .review-status").text_content()
