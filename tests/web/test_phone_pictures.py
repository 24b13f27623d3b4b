"""Every game's picture readable on a phone (360 x 740 and 390 x 844), in headless Chromium: in
Play, in Replay and in a review's lesson, every text of the picture drawn at 11 CSS px or more
(its font size times the screen scale of its SVG); the panels (hands, scores, legend) under the
board, in view without scrolling sideways, Banjooli's included, and Bonobo's when the tile phase
draws its board wider than the screen. With ``SAVANNA_SCREENSHOTS=folder`` each view is
photographed there (``board-phone-GAME-VIEW-WIDTH.png``)."""
import os
from pathlib import Path

import pytest

from savanna.board.server import create_app
from savanna.board.tables import Limits
from tests.agents.test_review import write_tournament_game
from tests.web.browser import needs_chromium, opened, serving, start_game
from tests.web.test_review_teaching import click_point

pytestmark = needs_chromium
SHOTS = os.environ.get("SAVANNA_SCREENSHOTS")
GAMES = {"zebres": "", "bonobo": "num_players=2", "banjooli": "num_players=2"}
SMALLEST = 11  # CSS px
PICTURE_TEXTS = """() => [...document.querySelectorAll('#board svg text, #board-panel svg text')]
    .filter(t => t.textContent.trim() && t.checkVisibility())
    .map(t => { const b = t.getBoundingClientRect();
        return {text: t.textContent, left: b.left, right: b.right, top: b.top,
                panel: t.closest('#board-panel') !== null,
                px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a}; })"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Two recorded games of each game, served."""
    folder = tmp_path_factory.mktemp("served")
    for game in GAMES:
        (folder / game).mkdir()
        write_tournament_game(folder / game, game)
    limits = Limits(max_sims=200, max_seconds=600, folders=(folder,), save=folder / "played")
    app = create_app(limits, token="")
    with serving(app) as address:
        yield address, app


def texts(page):
    return page.evaluate(PICTURE_TEXTS)


def smallest(page):
    """The smallest text of the picture shown, in CSS px, and what it says."""
    found = texts(page)
    assert found
    least = min(found, key=lambda t: t["px"])
    return round(least["px"], 1), least["text"]


def shoot(page, game, view):
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"board-phone-{game}-{view}-"
                                 f"{page.viewport_size['width']}.png"))


def assert_panel_in_view(page, what):
    """Every text of the panels under the board wholly inside the screen's width, and under
    the board."""
    found, width = texts(page), page.evaluate("innerWidth")
    board = page.evaluate("document.querySelector('#board').getBoundingClientRect().bottom")
    panel = [t for t in found if t["panel"]]
    assert panel, what
    cut = [t["text"] for t in panel if t["left"] < -0.5 or t["right"] > width + 0.5]
    assert cut == [], what
    assert min(t["top"] for t in panel) >= board - 0.5, what


def replay_a_game(page, address, game):
    """A recorded game of ``game`` in Replay, at its tenth move."""
    page.goto(f"{address}#replay/{game}%2Frecords.jsonl/1/10")
    page.locator("#ply-label").filter(has_text="move 10 /").wait_for()


def review_the_game(page):
    """The game replayed reviewed with a small search, and a lesson on its board."""
    page.click("#review-replay")
    page.locator("#review .review-settings").wait_for()
    page.fill("#review .review-settings input", "mcts")
    page.evaluate("""() => { const s = document.querySelector('#review .review-settings select');
        s.append(new Option('4 simulations', '4')); s.value = '4'; }""")
    page.click("#review .review-settings button[type=submit]")
    page.locator("#review .review-status").filter(has_text="marked").wait_for()
    ply = int(page.locator("#review .point").nth(3).get_attribute("data-ply"))
    click_point(page, ply)
    page.locator(f"#board svg[aria-label$='before move {ply + 1}']").wait_for()


@pytest.mark.parametrize("game", GAMES)
def test_every_text_of_the_picture_is_readable_in_play_replay_and_a_lesson(phone, served, game):
    start_game(phone, game, GAMES[game], "human,random")
    phone.wait_for_selector("#moves [data-action]", state="attached")
    size, text = smallest(phone)
    print(f"{game} play {phone.viewport_size['width']} px: smallest text {size} px ({text!r})")
    assert size >= SMALLEST, (game, "play", text)
    assert_panel_in_view(phone, f"{game}, play")
    shoot(phone, game, "play")
    replay_a_game(phone, served[0], game)
    size, text = smallest(phone)
    print(f"{game} replay {phone.viewport_size['width']} px: smallest text {size} px ({text!r})")
    assert size >= SMALLEST, (game, "replay", text)
    review_the_game(phone)
    size, text = smallest(phone)
    print(f"{game} lesson {phone.viewport_size['width']} px: smallest text {size} px ({text!r})")
    assert size >= SMALLEST, (game, "lesson", text)
    shoot(phone, game, "review")


def test_banjoolis_legend_lies_under_its_board(phone):
    start_game(phone, "banjooli", GAMES["banjooli"], "human,random")
    phone.wait_for_selector("#moves [data-action]", state="attached")
    legend = [t for t in texts(phone) if t["text"] == "Legend"]
    assert len(legend) == 1 and legend[0]["panel"]
    assert_panel_in_view(phone, "banjooli")


def test_bonobos_tile_phase_keeps_its_panel_in_view(phone):
    """The pile drawn from (a target in the panel): the tile's slots lie close, the board is
    drawn wider than the screen, and the panel under it stays whole."""
    start_game(phone, "bonobo", GAMES["bonobo"], "human,random")
    pile = phone.locator("#board-panel .hot[aria-label='draw']")
    before = phone.locator("#board").get_attribute("data-state")
    pile.click()
    phone.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'")
    phone.locator("#board.roomy").wait_for()
    assert any("places the tile" in t["text"] for t in texts(phone) if t["panel"])
    assert_panel_in_view(phone, "bonobo, tile phase")
    size, text = smallest(phone)
    assert size >= SMALLEST, text
    shoot(phone, "bonobo", "tile")


@pytest.mark.parametrize("width, height", [
    (360, 740), pytest.param(1280, 800, marks=pytest.mark.slow)], ids=["360", "1280"])
def test_the_pictures_views_pass_the_accessibility_check(browser, served, width, height):
    """axe-core on each game in Play, in Replay and in a review's lesson: no serious or critical
    finding."""
    from axe_playwright_python.sync_playwright import Axe

    axe, findings = Axe(), {}
    with opened(browser, served[0], {"width": width, "height": height}) as page:

        def check(view):
            findings[view] = [(v["id"], v["impact"], len(v["nodes"]))
                              for v in axe.run(page).response["violations"]
                              if v["impact"] in ("serious", "critical")]

        for game, options in GAMES.items():
            start_game(page, game, options, "human,random")
            page.wait_for_selector("#moves [data-action]", state="attached")
            check(f"{game} play")
            replay_a_game(page, served[0], game)
            check(f"{game} replay")
            review_the_game(page)
            check(f"{game} lesson")
            page.goto(served[0])
            page.wait_for_selector("body[data-ready=true]")
    assert findings == {view: [] for view in findings}


def test_a_desk_keeps_the_picture_as_drawn(browser, served):
    """At 1280 px nothing moves: the panel beside the board in the one picture, every name
    shown, every text at its own size."""
    with opened(browser, served[0], {"width": 1280, "height": 800}) as page:
        start_game(page, "zebres", "", "human,random")
        page.wait_for_selector("#moves [data-action]", state="attached")
        assert page.locator("#board-panel").is_hidden()
        shown = {t["text"]: t for t in texts(page)}
        assert {"c4", "Legend"} <= set(shown) and not shown["Legend"]["panel"]
        assert page.evaluate("""() => [...document.querySelectorAll('#board svg text')]
            .every(t => !t.style.fontSize && t.checkVisibility())""")
