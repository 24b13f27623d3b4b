"""The review's words and numbers, in headless Chromium on a recorded tournament game of Zèbres:
"an inaccuracy"; the labels of the played and the best move never overlap on the board; in
Replay the lesson, the graph's cursor, the slider and the move list agree, and the arrow keys
move them together; Analyse speaks in expected results (0-100%) as Review does; Play's record is
downloaded under its game's and players' names, not the table's id."""
import re

import pytest

from tests.web import test_review_teaching as teaching
from tests.web.browser import needs_chromium, start_game
from tests.web.test_review_teaching import run_review

pytestmark = needs_chromium
served, expected = teaching.served, teaching.expected


@pytest.fixture
def viewport():
    return {"width": 1280, "height": 800}


@pytest.fixture
def expected_console_errors():
    return ("Failed to load resource",)


def overlapping(page):
    """The pairs of ring labels on the board whose boxes meet."""
    return page.evaluate("""() => {
        const boxes = [...document.querySelectorAll('#board .review-mark text')]
          .map(t => t.getBoundingClientRect());
        const out = [];
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
          if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
            out.push([a.toJSON(), b.toJSON()]); }));
        return out; }""")


def test_labels_articles_and_numbers_of_each_marked_move(page, served, expected):
    record, result = expected
    run_review(page, served[0])
    buttons = page.locator("#review .review-marked button")
    for k, m in enumerate(result.marked):
        ply = int(m["ply"])
        buttons.nth(k).click()
        page.locator(f"#board svg[aria-label$='before move {ply + 1}']").wait_for()
        text = page.locator("#lesson .review-lesson-text").text_content()
        article = "An" if m["label"] == "inaccuracy" else "A"
        assert f"{article} {m['label']}: " in text and "A inaccuracy" not in text
        assert overlapping(page) == [], ply
        # the lesson's move, the slider, the list and the cursor agree
        assert page.locator("#slider").input_value() == str(ply)
        assert page.locator("#ply-label").text_content() == \
            f"move {ply} / {record.plies}; the lesson: move {ply + 1}, played from here"
        assert page.locator("#events li.reviewed button").text_content().startswith(f"{ply + 1}. ")
        cursor = page.locator("#review line.cursor").get_attribute("x1")
        assert cursor == page.locator(f"#review .point[data-ply='{ply}']").get_attribute("cx")
    last = int(result.marked["ply"][-1])
    if last + 1 < record.plies:  # the arrow keys move lesson, slider, list and cursor together
        page.locator("#board").focus()
        page.keyboard.press("ArrowRight")
        page.locator(f"#board svg[aria-label$='before move {last + 2}']").wait_for()
        assert page.locator("#lesson .review-lesson-text").text_content().startswith(
            f"Move {last + 2} of {record.plies}:")
        page.wait_for_function(f"document.querySelector('#slider').value === '{last + 1}'")
        assert page.locator("#events li.reviewed button").text_content().startswith(
            f"{last + 2}. ")


def test_analyse_speaks_in_expected_results(page, served):
    page.goto(f"{served[0]}#replay/match%2Frecords.jsonl/1/6")
    page.locator("#ply-label").filter(has_text="move 6 /").wait_for()
    page.click("#analyse-replay")
    page.wait_for_selector("#analysis[data-done=true]")
    cells = page.locator("#analysis-table td:nth-child(n+5)").all_text_contents()
    assert cells and all(re.fullmatch(r"\d{1,3}%|-", c) for c in cells), cells
    assert "expected results Red " in page.locator("#analysis p").first.text_content()
    assert re.search(r"\d%", page.locator("#legend-high").text_content())
    bar = page.locator("#eval-bar")
    assert bar.is_visible() and "expected results: Red " in bar.get_attribute("aria-label")


def test_plays_record_is_named_by_its_game_and_players(page):
    start_game(page, "zebres", "", "greedy,random")
    page.locator("#result #winner").wait_for()
    table = page.locator("#play-panel").get_attribute("data-table")
    with page.expect_download() as download:
        page.click("#download-game")
    name = download.value.suggested_filename
    assert re.fullmatch(r"zebres-greedy\S*-vs-random-\d{4}-\d\d-\d\d-\d{4}\.jsonl", name), name
    assert table not in name
