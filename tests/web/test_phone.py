"""The board on a phone (360 x 740 and 390 x 844) in headless Chromium, with played files present:
no view wider than the screen, the picture's side panel (Zèbres', Bonobo's legend and scores)
laid under the board so that the board takes the width, and its targets at least 32 px wide and
never overlapping."""
import itertools
import math

import pytest

from savanna.board.server import create_app
from savanna.board.tables import Limits
from tests.web.browser import needs_chromium, save_tournament, serving, start_game

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A tournament's records and table, and a folder for the games played here."""
    folder = tmp_path_factory.mktemp("served")
    save_tournament(folder)
    limits = Limits(max_sims=200, max_seconds=600, folders=(folder,), save=folder / "played")
    app = create_app(limits, token="")
    with serving(app) as address:
        yield address, app


def play_a_finished_game(page):
    """An agents' game played to its end here: a file under played/ with the server's name."""
    start_game(page, "zebres", "", "greedy,random")
    page.locator("#result #winner").wait_for()


def no_sideways_scroll(page, view):
    width = page.evaluate("innerWidth")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width, view


def targets(page):
    """The board's targets: centre and radius in screen pixels."""
    return page.evaluate("""() => [...document.querySelectorAll('#board .hot')].map(c => {
        const b = c.getBoundingClientRect();
        return [b.x + b.width / 2, b.y + b.height / 2, Math.min(b.width, b.height) / 2]; })""")


def assert_targets_apart(page, what):
    found = targets(page)
    assert found, what
    assert min(r for _, _, r in found) >= 16, what  # 32 px wide at least
    for (x1, y1, r1), (x2, y2, r2) in itertools.combinations(found, 2):
        assert math.hypot(x1 - x2, y1 - y2) >= r1 + r2, (what, (x1, y1), (x2, y2))


def test_no_view_is_wider_than_the_screen_with_played_files_present(phone):
    play_a_finished_game(phone)
    no_sideways_scroll(phone, "play, a game over")
    phone.click("nav a[data-tab=replay]")
    phone.wait_for_function("document.querySelector('#replay-file').options.length > 2")
    played = phone.evaluate("""() => [...document.querySelectorAll('#replay-file option')]
        .map(o => o.value).filter(v => v.startsWith('played/'))""")
    assert played  # a played file (its long name) is listed
    no_sideways_scroll(phone, "replay, files listed")
    phone.select_option("#replay-file", played[-1])
    phone.locator("#games button").first.click()
    phone.locator("#ply-label").filter(has_text="move 0 /").wait_for()
    no_sideways_scroll(phone, "replay, a game open")
    phone.click("#review-replay")
    phone.locator("#review .review-graph").wait_for()
    no_sideways_scroll(phone, "replay, its review")
    phone.evaluate("""() => [...document.querySelectorAll('#review button')]  // if still running
        .find(b => b.textContent === 'Cancel review' && !b.hidden)?.click()""")
    phone.click("nav a[data-tab=analyse]")
    no_sideways_scroll(phone, "analyse")
    phone.click("nav a[data-tab=tables]")
    phone.select_option("#table-file", "tour/tournament.json")
    phone.locator("#crosstable").wait_for()
    no_sideways_scroll(phone, "tables")


@pytest.mark.parametrize("game, options", [("zebres", ""), ("bonobo", "num_players=2"),
                                           ("banjooli", "num_players=2")])
def test_the_board_takes_the_width_and_its_targets_never_overlap(phone, game, options):
    start_game(phone, game, options, "human,random")
    phone.wait_for_selector("#moves [data-action]", state="attached")
    width = phone.evaluate("innerWidth")
    # measured in one call: a push from the server may redraw the board between two calls
    board = phone.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    assert board >= width - 30
    no_sideways_scroll(phone, game)
    if game == "banjooli":  # keep the roll: then the ostriches, then the cells ahead
        before = phone.locator("#board").get_attribute("data-state")
        phone.locator('#moves button[data-action="0"]').click()
        phone.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'")
    for move in range(4):  # the first moves: Zèbres' Impala, then its placements
        if not phone.locator("#board .hot").count():
            break
        assert_targets_apart(phone, f"{game}, move {move}")
        before = phone.locator("#board").get_attribute("data-state")
        phone.locator("#board .hot").first.click()
        picked = phone.locator("#moves button.picked")
        if picked.count():
            picked.first.click()
        phone.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'"
                                " || document.querySelector('#result').dataset.returns")


def test_the_side_panel_is_under_the_board(phone):
    start_game(phone, "zebres", "", "human,random")
    phone.wait_for_selector("#moves [data-action]", state="attached")
    box = phone.evaluate("""name => [...document.querySelectorAll('#board-panel svg text')]
        .find(t => t.textContent === name).getBoundingClientRect().toJSON()""", "Legend")
    corner = phone.evaluate("""name => [...document.querySelectorAll('#board svg text')]
        .find(t => t.textContent === name).getBoundingClientRect().toJSON()""", "12")
    assert box["y"] > corner["y"] + 20 and box["x"] < corner["x"]  # under the board, not beside
