"""The move list that carries a review, its "next mistake" per player and the evaluation bar, in
headless Chromium on a recorded tournament game of Zèbres: every move with its mark (?! ? ??) and
the mover's expected result after it, the reviewed move lit; "Next mistake" walks one player's
marked moves in order and comes round again; the bar beside the board shows each player's
expected result at the move shown, on the graph's own scale. With ``SAVANNA_SCREENSHOTS=folder``
the move list is photographed there (the board guide's picture)."""
import math
import os
from pathlib import Path

import pytest

from savanna.agents.play.review import expected_result
from tests.web import test_review_teaching as teaching
from tests.web.browser import needs_chromium
from tests.web.test_review_teaching import run_review

pytestmark = needs_chromium
SHOTS = os.environ.get("SAVANNA_SCREENSHOTS")
served, expected = teaching.served, teaching.expected
MARKS = {"": "", "inaccuracy": " ?!", "mistake": " ?", "blunder": " ??"}
SEATS = ["Red", "Green"]


@pytest.fixture
def viewport():
    return {"width": 1280, "height": 800}


@pytest.fixture
def expected_console_errors():
    return ("Failed to load resource",)


def shown_move(page):
    label = page.locator("#board svg").get_attribute("aria-label")
    return int(label.rsplit("before move ", 1)[1].split(",")[0]) - 1


def test_the_move_list_marks_values_next_mistake_and_the_bar(page, served, expected):
    record, result = expected
    run_review(page, served[0])
    items = page.locator("#review .review-moves li")
    assert items.count() == record.plies
    for k, d in enumerate(result.decisions):
        value = d["played_value"]
        assert items.nth(k).locator("button").text_content() == \
            f"{k + 1}. {SEATS[d['player']]}: {d['move']}{MARKS[d['label']]}"
        shown = items.nth(k).locator(".value").text_content()
        if math.isnan(value):  # never tried by the search
            assert shown == "-"
        else:  # to the whole percent (JavaScript and Python round a half differently)
            assert shown.endswith("%") and abs(float(shown[:-1])
                                               - 100 * expected_result(value, 2)) <= 0.5 + 1e-9
    items.nth(4).locator("button").click()
    page.locator("#board svg[aria-label$='before move 5']").wait_for()
    assert page.locator("#review .review-moves li.current").get_attribute("data-ply") == "4"
    assert page.locator("#review .review-moves li[aria-current=true]").count() == 1
    # the bar: each player's expected result at the move shown, the graph's height of it
    bar = [float(page.locator(f"#eval-bar span[data-player='{p}']").evaluate(
        "s => parseFloat(s.style.flexBasis)")) for p in range(2)]
    d = result.decisions[4]
    assert bar == pytest.approx([100 * expected_result(d[f"value_{p}"], 2) for p in range(2)])
    for p in range(2):
        points = page.locator(f"#review polyline[data-player='{p}']").get_attribute("points")
        y = float(points.split()[4].split(",")[1])
        top, height = 10, 200 - 10 - 24  # the graph's padding (review.js)
        assert (top + height - y) / height == pytest.approx(bar[p] / 100)
    if SHOTS:
        page.locator("#review .review-moves-box").evaluate("e => e.scrollIntoView({block: 'end'})")
        page.screenshot(path=str(Path(SHOTS) / "board-move-list.png"))
    for p in range(2):  # next mistake: the player's marked moves in order, then the first again
        mine = result.marked[result.marked["player"] == p]["ply"].tolist()
        if not mine:
            continue
        after = [m for m in mine if m > shown_move(page)] + mine
        for ply in after[: len(mine) + 1]:
            page.get_by_role("button", name=f"Next mistake: {SEATS[p]}").click()
            page.locator(f"#board svg[aria-label$='before move {ply + 1}']").wait_for()
