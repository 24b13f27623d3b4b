"""Banjooli on the board's page, in headless Chromium: the dice named by the colours they show
(the reroll boxes, the log, the replay, the review and the analysis all say colours), and the
ostriches and the directions of a move as targets on the board, not buttons only."""
import re

import pytest

from savanna.board.server import create_app
from savanna.board.tables import Limits
from tests.web.browser import needs_chromium, opened, serving, start_game

pytestmark = needs_chromium
COLOURS = ("red", "blue", "green", "yellow", "purple", "white")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    limits = Limits(max_sims=50, max_seconds=60, save=tmp_path_factory.mktemp("played"))
    with serving(create_app(limits, token="")) as address:
        yield address


@pytest.fixture
def page(browser, served):
    with opened(browser, served, {"width": 1280, "height": 800}) as page:
        yield page


def moved(page, before):
    page.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'")


def test_the_dice_are_named_by_the_colours_they_show(page):
    start_game(page, "banjooli", "num_players=2", "human,random")
    boxes = page.locator("fieldset.reroll label")
    boxes.first.wait_for()
    labels = [t.strip() for t in boxes.all_inner_texts()]
    assert len(labels) == 6 and labels[5].startswith("sorcery die: "), labels
    assert all(label.split(": ")[-1].split()[0] in COLOURS for label in labels), labels
    before = page.locator("#board").get_attribute("data-state")
    page.locator("fieldset.reroll input").first.check()
    page.click("#reroll")
    moved(page, before)
    log = page.locator("#log").inner_text()  # in the words of the box ticked, not letters
    assert f"reroll {labels[0]}" in log and not re.search(r"reroll [RBGYPW\d]", log), log
    named = page.evaluate("""async () => (await import('/static/words.js'))
        .moveWords('banjooli', 'reroll R2,P,W,sorcery Y')""")
    assert named == "reroll red 2, purple, white, sorcery die: yellow"  # the review's, the log's
    assert page.evaluate("""async () => (await import('/static/words.js'))
        .moveWords('zebres', 'reroll R2')""") == "reroll R2"  # other games' names untouched


def test_the_ostriches_and_the_directions_are_targets_on_the_board(page):
    """After the roll, each ostrich that may move is a target; a move's points are spent by
    clicking the cell ahead, where left, straight or right takes it."""
    start_game(page, "banjooli", "num_players=2 course=T1,T2,T3,T4", "human,random")
    clicked = set()
    for _ in range(40):
        if page.locator("#result #winner").count() or {"ostrich", "direction"} <= clicked:
            break
        page.wait_for_selector("#moves [data-action]", state="attached")
        before = page.locator("#board").get_attribute("data-state")
        hot = page.locator("#board .hot")
        if not hot.count():  # the reroll (keep it) or a move with no place
            page.locator("#moves button[data-action]").first.click()
            moved(page, before)
            continue
        label = hot.first.get_attribute("aria-label")
        clicked.add("direction" if re.fullmatch(r"left|straight|right", label) else
                    "ostrich" if label.startswith(("move ", "sorcery ")) else label)
        hot.first.click()
        picked = page.locator("#moves button.picked")
        if picked.count():
            picked.first.click()
        moved(page, before)
    assert {"ostrich", "direction"} <= clicked, clicked
