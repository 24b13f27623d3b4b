"""Learn from your mistakes, by clicks in headless Chromium, on a recorded tournament game of
Zèbres with at least three marked moves of one player: the page's puzzles are those
``savanna.agents.puzzles`` gives in Python; a wrong answer is refused with what it loses, the best
move passes (clicked on the board), and the score is shown at the end. With
``SAVANNA_SCREENSHOTS=folder`` the retry is photographed there (the board guide's picture)."""
import os
from pathlib import Path

import pytest

from savanna.agents import puzzles
from tests.web import test_review_teaching as teaching
from tests.web.browser import needs_chromium
from tests.web.test_review_teaching import AGENT, run_review

pytestmark = needs_chromium
SHOTS = os.environ.get("SAVANNA_SCREENSHOTS")
served, expected = teaching.served, teaching.expected  # the same recorded game and its review


@pytest.fixture
def viewport():
    return {"width": 1280, "height": 800}


@pytest.fixture
def expected_console_errors():
    return ("Failed to load resource",)


def pick(page, action):
    """A click on the board's spot of ``action`` where it has one alone, else on its button."""
    spot = page.locator(f"#board .hot[data-actions='{action}']")
    if spot.count():
        spot.click()
        return
    if not page.locator(f"#lesson .retry-moves button[data-action='{action}']").first.is_visible():
        page.locator("#lesson .retry-all summary").click()
    page.locator(f"#lesson .retry-moves button[data-action='{action}']").first.click()


def test_a_players_mistakes_retried_by_clicks(page, served, expected):
    record, result = expected
    counts = [int((result.marked["player"] == p).sum()) for p in range(2)]
    player = counts.index(max(counts))
    assert counts[player] >= 3
    python = [p.to_json() for p in puzzles(result, record, player, agent=AGENT)]
    run_review(page, served[0])
    with page.expect_response(lambda r: "/puzzles?" in r.url) as answer:
        page.locator(f"#review .review-retry button[data-player='{player}']").click()
    assert answer.value.json()["puzzles"] == python
    verdict = page.locator("#lesson .retry-verdict")
    for k, puzzle in enumerate(python):
        page.locator("#lesson .retry-question").filter(
            has_text=f"Position {k + 1} of {len(python)}: move {puzzle['ply'] + 1},").wait_for()
        if k == 0:  # a wrong answer first: refused with its loss, then tried again
            wrong = next(m for m in puzzle["moves"] if not m["passes"] and m["drop"] is not None)
            pick(page, wrong["action"])
            assert verdict.text_content() == (f"Not that one: {wrong['move']} loses "
                                              f"{100 * wrong['drop']:.1f} points against the "
                                              "best. Try again.")
            assert page.get_by_role("button", name="Next position").is_disabled()
            if SHOTS:
                page.screenshot(path=str(Path(SHOTS) / "board-retry.png"))
        pick(page, puzzle["best_action"])
        assert verdict.text_content() == f"Yes: {puzzle['best']} is the search's best move."
        last = k == len(python) - 1
        page.get_by_role("button", name="See the score" if last else "Next position").click()
    assert page.locator("#lesson .retry-score").text_content() == \
        f"Done. Score: {len(python) - 1} of {len(python)} found at the first try."
