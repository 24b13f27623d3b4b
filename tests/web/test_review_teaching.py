"""A review that teaches, in headless Chromium, on a recorded tournament game of Zèbres: each
marked move, clicked, draws the move played and the search's best move on the board the review
sits under, at their spots in the position before the move; the labels, the graph's unit and
each player's summary are ``savanna review``'s; the best line steps move by move; the agent and
its budget are chosen on the page; Play's review moves Play's board, never Replay's; and the
positions come from ``GET /api/position``'s ``then``, which plays a line and says where.
With ``SAVANNA_SCREENSHOTS=folder`` the review is photographed there at both sizes (the guide's
pictures)."""
import os
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from savanna import make_game
from savanna.agents import review
from savanna.board.server import create_app
from savanna.board.tables import Limits
from savanna.records import read_records
from tests.agents.test_review import AGENT, write_tournament_game
from tests.web.browser import needs_chromium, serving

SHOTS = os.environ.get("SAVANNA_SCREENSHOTS")
THRESHOLD = 0.05  # low, so that the short game has marks of each kind
GAME = 1


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    (folder / "match").mkdir()
    records = write_tournament_game(folder / "match", "zebres")
    limits = Limits(max_sims=500, max_seconds=600, folders=(folder,), save=folder / "played")
    app = create_app(limits, token="")
    with serving(app) as address:
        yield address, records, app


@pytest.fixture(scope="module")
def expected(served):
    record = read_records(served[1])[GAME]
    return record, review(record, AGENT, threshold=THRESHOLD, seed=0)


@pytest.fixture
def page(browser, served):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(120_000)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    assert errors == []
    page.close()


def shoot(page, name):
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"board-{name}.png"))  # what the screen shows


def run_review(page, address):
    """Open game GAME in Replay and review it with AGENT (as chosen on the page)."""
    page.goto(f"{address}#replay/match%2Frecords.jsonl/{GAME}/0")
    page.locator("#ply-label").filter(has_text="move 0 /").wait_for()
    page.click("#review-replay")
    page.locator("#review .review-settings").wait_for()
    agent, sims = AGENT.split(":sims=")
    page.fill("#review .review-settings input", agent)
    page.evaluate("""sims => { const s = document.querySelector('#review .review-settings select');
        s.append(new Option(sims + ' simulations', sims)); s.value = sims; }""", sims)
    page.evaluate("""threshold => { const real = window.savannaReview;  // the test's threshold
        window.savannaReview = (asked) => real({...asked, threshold}); }""", THRESHOLD)
    page.click("#review .review-settings button[type=submit]")
    page.locator("#review .review-status").filter(has_text="marked").wait_for()


def click_point(page, ply):
    """A click (a tap) on the graph's point of decision ``ply``, scrolled to the middle of the
    screen first; it lands on the graph, nothing drawn over it."""
    box = page.evaluate("""ply => {
        const point = document.querySelector(`#review .point[data-ply='${ply}']`);
        point.scrollIntoView({block: 'center'});
        return point.getBoundingClientRect().toJSON(); }""", ply)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y)"
                         ".closest('svg.review-graph') !== null", [x, y])
    page.mouse.click(x, y)


@needs_chromium
def test_each_marked_move_draws_the_played_and_the_best_move_on_the_board(page, served,
                                                                          expected):
    record, result = expected
    game = make_game("zebres")
    run_review(page, served[0])
    marked = result.marked
    assert {"inaccuracy", "mistake", "blunder"} & set(marked["label"])
    points = page.locator("#review .point.marked")
    assert [(int(points.nth(k).get_attribute("data-ply")), points.nth(k).get_attribute("class"))
            for k in range(points.count())] == \
        [(int(m["ply"]), f"point marked {m['label']}") for m in marked]
    axis = page.locator("#review svg.review-graph text").all_text_contents()
    assert {"0%", "50%", "100%"} <= set(axis)  # the unit: the expected result, 0-100%
    rows = page.locator("#review .review-summary tr[data-player]")
    for k, s in enumerate(result.summary()):
        cells = rows.nth(k).locator("td").all_text_contents()
        assert cells == [str(s["inaccuracies"]), str(s["mistakes"]), str(s["blunders"]),
                         f"{s['average_drop']:.1f}", f"{s['accuracy']:.0f}%"]
    buttons = page.locator("#review .review-marked button")
    assert buttons.count() == len(marked)
    for k, m in enumerate(marked):
        ply = int(m["ply"])
        buttons.nth(k).click()
        page.locator("#ply-label").filter(has_text=f"move {ply} /").wait_for()
        page.locator(f"#board svg[aria-label$='before move {ply + 1}']").wait_for()
        text = page.locator("#lesson .review-lesson-text").text_content()
        assert text.startswith(f"Move {ply + 1} of {record.plies}:") and m["move"] in text
        assert m["label"] in text  # the label, and the drop, never "lost" for a gain
        spots = game.move_spots(record.position(ply, game))
        for kind, action in (("played", m["action"]), ("best", m["best_action"])):
            ring = page.locator(f"#board .review-mark.{kind} circle")
            if spots.get(int(action)) is None:
                continue
            assert ring.count() == 1, (kind, ply)
            assert (float(ring.get_attribute("cx")), float(ring.get_attribute("cy"))) == \
                pytest.approx(spots[int(action)]), (kind, ply)
    shoot(page, "review-desktop")
    line = marked[-1]["line"].split("; ")
    page.get_by_role("button", name="Best line: next move").click()
    page.locator("#board svg[aria-label$='after 1 moves of the best line']").wait_for()
    assert page.locator("#board .review-mark.line.now").count() == \
        (1 if game.move_spots(record.position(int(marked[-1]["ply"]), game)).get(
            int(marked[-1]["best_action"])) else 0)
    assert page.locator("#lesson .review-line button").first.text_content() == f"1. {line[0]}"
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, context="#review")
    assert [v["id"] for v in found.response["violations"]
            if v["impact"] in ("serious", "critical")] == []


@needs_chromium
def test_the_agent_and_budget_chosen_on_the_page_are_what_reviews(page, served):
    page.goto(f"{served[0]}#replay/match%2Frecords.jsonl/0/0")
    page.locator("#ply-label").filter(has_text="move 0 /").wait_for()
    page.click("#review-replay")
    page.locator("#review .review-settings").wait_for()
    page.evaluate("() => { const real = window.savannaReview; window.asked = [];"
                  " window.savannaReview = (r) => { window.asked.push(r.agent);"
                  " return real(r); }; }")
    page.fill("#review .review-settings input", "mcts:c=1.4")
    page.select_option("#review .review-settings select", "100")
    page.click("#review .review-settings button[type=submit]")
    asked = page.evaluate("window.asked")
    assert asked == ["mcts:c=1.4,sims=100"]
    page.locator("#review .review-status").filter(has_text="decisions reviewed").wait_for()
    page.get_by_role("button", name="Cancel review").click()


@needs_chromium
def test_plays_review_moves_plays_board_and_leaves_the_replay_where_it_was(page, served):
    page.goto(f"{served[0]}#replay/match%2Frecords.jsonl/0/7")
    page.locator("#ply-label").filter(has_text="move 7 /").wait_for()
    page.click("nav a[data-tab=play]")
    page.select_option("#game", "zebres")
    page.set_checked("#watch", False)
    page.fill("#options", "")
    page.fill("#seats", "greedy,random")
    page.click("#start")
    page.locator("#review-game").wait_for()
    page.click("#review-game")
    page.locator("#review .review-settings").wait_for()
    page.fill("#review .review-settings input", "mcts")
    page.click("#review .review-settings button[type=submit]")
    page.locator("#review .review-status").filter(has_text="marked").wait_for()
    click_point(page, 3)
    page.locator("#board svg[aria-label$='before move 4']").wait_for()
    assert page.locator("#tab-play").is_visible()
    assert page.locator("#board .review-mark").count() >= 1
    page.get_by_role("button", name="Back to the game").click()
    assert page.locator("#board .review-mark").count() == 0
    page.click("nav a[data-tab=replay]")
    page.locator("#ply-label").filter(has_text="move 7 /").wait_for()  # untouched


@needs_chromium
def test_a_tapped_mistake_on_a_phone_brings_the_board_into_view(browser, served):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(120_000)
    run_review(page, served[0])
    button = page.locator("#review .review-marked button").last
    button.scroll_into_view_if_needed()
    assert page.locator("#board").bounding_box()["y"] + 100 < 0  # the board scrolled away
    button.click()
    page.locator("#board .review-mark").first.wait_for()
    box = page.locator("#board").bounding_box()
    assert -5 <= box["y"] < 844 / 2
    page.screenshot(path=str(Path(SHOTS) / "board-review-phone.png")) if SHOTS else None
    page.close()


def test_then_plays_a_line_from_a_pasted_position_and_says_where(served, expected):
    record, result = expected
    game = make_game("zebres")
    client = TestClient(served[2], base_url="http://127.0.0.1:8000")
    row = result.decisions[0]
    line = row["line"].split("; ")[:3]
    line = line[:next((k for k, m in enumerate(line) if m.startswith("(")), len(line))]
    answer = client.get("/api/position", params=[("game", "zebres"), ("position", row["position"]),
                                                 *(("then", m) for m in line)])
    assert answer.status_code == 200, answer.text
    state = game.from_text(row["position"])
    for m, played in zip(line, answer.json()["played"], strict=True):
        action = game.string_to_action(state[0], m)
        assert played["action"] == action and played["name"] == m
        spot = game.move_spots(state).get(action)
        assert played["spot"] == (None if spot is None else pytest.approx(list(spot)))
        state, _ = game.step(state, [action])
    assert answer.json()["position"] == game.to_text(state)
    bad = client.get("/api/position", params={"game": "zebres", "position": row["position"],
                                              "then": "nonsense"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("then: move 1: ")
    many = client.get("/api/position", params=[("game", "zebres"), ("position", row["position"]),
                                               *[("then", "x")] * (game.max_plies + 1)])
    assert many.status_code == 400 and "at most" in many.json()["error"]
