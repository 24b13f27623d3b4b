"""The lesson of a review beside its board, in headless Chromium, at a desk's size (1280 x 800)
and a phone's (390 x 844), on a recorded tournament game of Zèbres: after a click on any marked
point of the graph, the board, the lesson's text and its step buttons are all inside the
viewport; stepping the best line never moves the page; Replay's "Review this game" opens the
review in view at 360 px; axe finds nothing serious on the review, its lesson and its retry at
360 and 1280 px."""
import pytest

from tests.web import test_review_teaching as teaching
from tests.web.browser import needs_chromium
from tests.web.test_review_teaching import GAME, click_point, run_review

served = teaching.served  # the same recorded game, served the same way

pytestmark = needs_chromium
SIZES = [(1280, 800), (390, 844)]


@pytest.fixture
def sized(browser, request):
    width, height = request.param
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(120_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    assert errors == []
    page.close()


def outside(page, selector):
    """The elements of ``selector`` (at least one) not wholly inside the viewport: [] if all are."""
    return page.evaluate("""selector => {
        const found = [...document.querySelectorAll(selector)];
        if (!found.length) return ['none: ' + selector];
        return found.filter(e => { const b = e.getBoundingClientRect();
            return b.top < 0 || b.left < 0 || b.bottom > innerHeight + 0.5
                || b.right > innerWidth + 0.5 || b.width === 0; })
          .map(e => e.outerHTML.slice(0, 80)); }""", selector)


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=[f"{w}x{h}" for w, h in SIZES])
def test_after_a_click_on_any_marked_point_the_board_and_its_lesson_are_in_view(sized, served):
    page = sized
    run_review(page, served[0])
    points = page.locator("#review .point.marked")
    assert points.count() >= 3
    for k in range(points.count()):
        ply = int(points.nth(k).get_attribute("data-ply"))
        click_point(page, ply)
        page.locator(f"#board svg[aria-label$='before move {ply + 1}']").wait_for()
        page.locator("#lesson .review-lesson-text").filter(has_text=f"Move {ply + 1} of").wait_for()
        for part in ("#board svg", "#lesson .review-lesson-text", "#lesson .steps button"):
            assert outside(page, part) == [], (ply, part)
    # the decision with the longest line, stepped 5 times: forward while it can, then back
    lines = page.evaluate("""() => [...document.querySelectorAll('#review .point.marked')]
        .map(p => +p.dataset.ply)""")
    click_point(page, lines[0])
    page.locator(f"#board svg[aria-label$='before move {lines[0] + 1}']").wait_for()
    before = page.evaluate("scrollY")
    forward = page.get_by_role("button", name="Best line: next move")
    back = page.get_by_role("button", name="Best line: back")
    for step in range(5):
        label = page.locator("#board svg").get_attribute("aria-label")
        (forward if forward.is_enabled() else back).click()
        page.wait_for_function("label => document.querySelector('#board svg')"
                               ".getAttribute('aria-label') !== label", arg=label)
        assert page.evaluate("scrollY") == before, step
        for part in ("#board svg", "#lesson .steps button"):
            assert outside(page, part) == [], (step, part)


def test_replays_review_opens_in_view_on_a_narrow_phone(browser, served):
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.set_default_timeout(120_000)
    page.goto(f"{served[0]}#replay/match%2Frecords.jsonl/{GAME}/0")
    page.locator("#ply-label").filter(has_text="move 0 /").wait_for()
    page.locator("#review-replay").scroll_into_view_if_needed()
    page.click("#review-replay")
    page.locator("#review .review-settings").wait_for()
    top = page.evaluate("document.querySelector('#review').getBoundingClientRect().top")
    assert -1 <= top < 740 / 2  # its top in view (to a fraction of a pixel)
    page.close()


@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["1280", "360"])
def test_the_review_its_lesson_and_its_retry_pass_the_accessibility_check(browser, served,
                                                                          size):
    """axe-core on the whole page: the review, a lesson open, a retry: no serious or critical
    finding."""
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.set_default_timeout(120_000)
    axe, findings = Axe(), {}

    def check(view):
        findings[view] = [(v["id"], v["impact"], len(v["nodes"]))
                          for v in axe.run(page).response["violations"]
                          if v["impact"] in ("serious", "critical")]

    run_review(page, served[0])
    check("review")
    ply = int(page.locator("#review .point.marked").first.get_attribute("data-ply"))
    click_point(page, ply)
    page.locator(f"#board svg[aria-label$='before move {ply + 1}']").wait_for()
    check("lesson")
    page.locator("#review .review-retry button").first.click()
    page.locator("#lesson .retry-question").wait_for()
    check("retry")
    page.close()
    assert findings == {view: [] for view in findings}


def test_a_finger_scrubs_along_the_graph_on_a_phone(browser, served):
    """Pressed on one move and dragged to another, the cursor follows and the move where the
    finger lifts is taught (right on a move, that one; off every move, a marked one within 12
    units): aimable however close the moves lie (60 moves in 390 px)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.set_default_timeout(120_000)
    run_review(page, served[0])
    points = page.evaluate("""() => [...document.querySelectorAll('#review .point')]
        .map(p => [+p.dataset.ply, +p.getAttribute('cx'), p.classList.contains('marked')])""")
    cx = {p: x for p, x, _ in points}
    marked = {p for p, _, m in points if m}

    def aimed(x):  # right on a move: that one; else a marked move within reach, else the nearest
        hit = min(cx, key=lambda p: abs(cx[p] - x))
        close = [p for p in marked if abs(cx[p] - x) <= 12]
        return hit if abs(cx[hit] - x) <= 1.5 or not close else min(
            close, key=lambda p: abs(cx[p] - x))

    graph = page.locator("#review svg.review-graph")
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    scale = box["width"] / graph.evaluate("g => g.viewBox.baseVal.width")
    y = box["y"] + box["height"] / 2
    cursor = page.locator("#review line.cursor")
    page.mouse.move(box["x"] + cx[10] * scale, y)
    page.mouse.down()
    assert cursor.get_attribute("visibility") == "visible"
    assert float(cursor.get_attribute("x1")) == pytest.approx(cx[aimed(cx[10])])
    between = (cx[11] + cx[12]) / 2 + 2  # off every move: a marked one near wins, if any
    page.mouse.move(box["x"] + between * scale, y, steps=3)
    page.mouse.up()
    taught = aimed(between)
    page.locator(f"#board svg[aria-label$='before move {taught + 1}']").wait_for()
    assert float(cursor.get_attribute("x1")) == pytest.approx(cx[taught])
    page.close()
