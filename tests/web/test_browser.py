"""The browser board in a real headless Chromium (Debian's package, driven by Playwright for
Python): whole games played by clicks against ``random``, a replay stepped with the slider
and the arrow keys, analysis heat maps, the tables; no console error anywhere.

One server (uvicorn on a thread) and one browser for the module; each page comes in through
the token's address, as the user of ``savanna serve`` does (one test starts the command itself
and opens the address it prints). With
``SAVANNA_SCREENSHOTS=folder`` each view is also photographed there (the docs' pictures:
``SAVANNA_SCREENSHOTS=docs/images python -m pytest tests/web/test_browser.py``).
"""
import json
import os
import re
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from savanna import make_game
from savanna.agents import make_agent, tournament
from savanna.board.served_files import PAGE
from savanna.board.server import create_app
from savanna.board.tables import Limits
from savanna.records import read_record
from tests.web.browser import needs_chromium, serving, start_game

pytestmark = needs_chromium
SHOTS = os.environ.get("SAVANNA_SCREENSHOTS")
TOKEN = "a-browser-test-token"
# the console line of an answer with an error status (what a test provokes), not a page error
EXPECTED_ANSWER = "Failed to load resource: the server responded with a status of"
TIMEOUT_MS = int(os.environ.get("SAVANNA_BROWSER_TIMEOUT_MS", 120_000))


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server's address and folder (a recorded tournament of random and greedy in it)."""
    folder = tmp_path_factory.mktemp("served")
    result = tournament(make_game("zebres"), [make_agent("random"), make_agent("greedy")],
                        games_per_pair=2, seed=0, workers=1, record=True, progress=False)
    result.save(folder / "tour")
    limits = Limits(max_sims=500, max_seconds=600, folders=(folder,), save=folder / "played")
    with serving(create_app(limits, token=TOKEN)) as address:
        yield address, folder


@pytest.fixture
def page(browser, served):
    """A fresh page on the board, ready; its console errors must stay none."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith(EXPECTED_ANSWER) else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{served[0]}?token={TOKEN}")  # the cookie set, the token out of the address
    page.wait_for_selector("body[data-ready=true]")
    assert "token" not in page.url
    yield page
    assert errors == []
    assert page.locator("#error").text_content() == ""
    page.close()


def shoot(page, name):
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"board-{name}.png"))


def board_state(page):
    return page.locator("#board").get_attribute("data-state")


def click_and_wait(page, target):
    """Click ``target`` and wait for the board to show a new position where a human is to
    move (the agents' replies come pushed, one by one), or the end."""
    before = board_state(page)
    target.click()
    page.wait_for_function(f"(document.querySelector('#board').dataset.state !== '{before}' "
                           "&& document.querySelector('#moves button[data-action]')) "
                           "|| document.querySelector('#result').dataset.returns")


def new_game(page, game, options, seats, watch=False):
    """A new game, its first moves offered; ``watch``: the agents' moves shown one by one."""
    start_game(page, game, options, seats, watch)
    page.wait_for_selector("#moves button[data-action]", state="attached")


def play_on_board(page):
    """Click the first lit spot (and, where several moves share it, the first of them)."""
    before = board_state(page)
    page.locator(".hot").first.click()
    picked = page.locator("#moves button.picked")
    if picked.count():
        picked.first.click()
    page.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'")


def a_move(page):
    """The first move the page offers: a lit spot on the board, else a move's button."""
    spots = page.locator(".hot")
    return spots.first if spots.count() else page.locator("#moves button[data-action]").first


@pytest.mark.parametrize("game, options, seats", [
    ("zebres", "", "human,random"),
    pytest.param("bonobo", "num_players=2", "human,random", marks=pytest.mark.slow),
    ("bonobo", "num_players=4", "human,random,random,random"),
    pytest.param("banjooli", "num_players=2 berries=true", "human,random", marks=pytest.mark.slow),
    ("banjooli", "num_players=5 berries=true", "human,random,random,random,random"),
], ids=["zebres", "bonobo-2", "bonobo-4", "banjooli-2-berries", "banjooli-5-berries"])
def test_a_whole_game_played_by_clicks_shows_the_returns_of_its_record(page, served, game,
                                                                       options, seats):
    """Moves with a place on the board are clicked there (a spot shared by several moves,
    then the move's button); the others with their buttons."""
    new_game(page, game, options, seats, watch=game == "bonobo" and "random,random" in seats)
    rng = np.random.default_rng(0)
    clicks = board_clicks = 0
    shot = False
    while page.locator("#result").get_attribute("data-returns") is None:
        page.wait_for_function("document.querySelector('#moves [data-action]') || "  # agents
                               "document.querySelector('#result').dataset.returns")
        if page.locator("#result").get_attribute("data-returns") is not None:
            break
        buttons = page.locator("#moves button[data-action]")
        actions = [int(a) for a in buttons.evaluate_all("bs => bs.map(b => b.dataset.action)")]
        dice = page.locator("fieldset.reroll input")
        if dice.count() and rng.random() < 0.5:  # Banjooli's rerolls: tick a die, then reroll
            dice.nth(int(rng.integers(dice.count()))).check()
            click_and_wait(page, page.locator("#reroll"))
            clicks += 1
            continue
        action = actions[rng.integers(len(actions))]
        spots = page.locator(".hot").evaluate_all("cs => cs.map(c => c.dataset.actions)")
        spot = next((k for k, s in enumerate(spots) if str(action) in s.split()), None)
        if clicks >= 4 and seats.count(",") == 4 and game == "banjooli" and not shot:
            shoot(page, f"play-{game}-{seats.count(',') + 1}")
            shot = True
        if spot is None:
            click_and_wait(page, page.locator(f"#moves button[data-action='{action}']"))
        elif len(spots[spot].split()) == 1:
            click_and_wait(page, page.locator(".hot").nth(spot))
            board_clicks += 1
        else:
            page.locator(".hot").nth(spot).click()
            picked = page.locator(f"#moves button.picked[data-action='{action}']")
            click_and_wait(page, picked)
            board_clicks += 1
        clicks += 1
    shown = json.loads(page.locator("#result").get_attribute("data-returns"))
    saved = re.fullmatch(r"saved to (.+)", page.locator("#saved").text_content())[1]
    record = read_record(served[1] / saved)  # named in the served folder
    assert shown == record.returns and len(shown) == len(seats.split(","))
    winner = page.locator("#winner").text_content()  # in words: "Red wins 58–25", "Draw"
    assert re.fullmatch(r"Game over: (.+ wins|.+ share the win|Draw)"
                        r"( [\d–−]+( to [\d−]+)?|: .+)?\.", winner)
    assert board_clicks > 0  # Banjooli too: its ostriches, cells ahead and berries
    page.click("#replay-game")  # the saved game opens in the replay view
    page.wait_for_function("document.querySelector('#ply-label').textContent === "
                           f"'move 0 / {record.plies}'")


def signature(svg_root):
    """What a picture draws, in order: each shape's tag, place, colour and text."""
    keys = ("x", "y", "cx", "cy", "r", "points", "fill", "width", "height")
    return [(e.tag.rsplit("}", 1)[-1],) + tuple(e.get(k) for k in keys) + ((e.text or ""),)
            for e in svg_root.iter()]


def board_signature(page):
    return [tuple(x) for x in page.evaluate("""() => {
        const keys = ["x", "y", "cx", "cy", "r", "points", "fill", "width", "height"];
        const svg = document.querySelector('#board svg');
        return [svg, ...svg.querySelectorAll('*')].filter(e => !e.closest('.overlay'))
            .map(e => [e.tagName, ...keys.map(k => e.getAttribute(k)),
                       e.tagName === 'text' ? e.textContent : '']);
    }""")]


def test_a_replay_stepped_with_the_slider_and_the_keys_draws_the_record_states(page, served):
    folder = served[1]
    record = read_record(folder / "tour" / "records.jsonl", 1)
    game = record.game()

    def check(ply):
        page.wait_for_function(f"document.querySelector('#ply-label').textContent"
                               f".startsWith('move {ply} /')")
        assert board_state(page) == str(record.ply_index(ply))
        expected = signature(ET.fromstring(game.render_svg(record.position(ply))))
        assert board_signature(page) == [tuple(x) for x in expected]

    page.click("nav a[data-tab=replay]")
    page.wait_for_selector("#replay-file option[value='tour/records.jsonl']", state="attached")
    page.select_option("#replay-file", "tour/records.jsonl")
    page.click("#games tr[data-index='1']")
    check(0)
    for ply in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        check(ply)
    page.locator("#slider").fill("7")
    check(7)
    page.keyboard.press("ArrowLeft")
    check(6)
    page.click("#last")
    check(record.plies)
    page.click("#first")
    check(0)


@pytest.mark.parametrize("agent", ["mcts:sims=200", "az:baseline,sims=32"])
def test_an_analysis_draws_its_heat_map_on_the_board(page, agent):
    new_game(page, "bonobo", "num_players=2", "human,random")
    page.click("nav a[data-tab=analyse]")  # of the game's position
    page.fill("#agent", agent)
    page.click("#run-analysis")
    page.wait_for_selector("#analysis[data-done=true]")
    assert page.locator("#progress").get_attribute("value") == "4"
    shares = [float(x) for x in page.locator("circle.heat:not(.prior)").evaluate_all(
        "cs => cs.map(c => c.dataset.share)")]
    assert len(shares) >= 2 and sum(shares) == pytest.approx(1, abs=0.01)  # draw: the pile
    rows = page.locator("#analysis-table tr").count()
    assert rows > 2
    assert page.locator(".pv").count() >= 1  # the best line, numbered on the board
    assert agent.split(":")[0] in page.locator("#analysis p").first.text_content()
    shoot(page, f"analyse-{agent.split(':')[0]}")


def test_a_records_file_of_more_games_than_a_page_lists_them_all(page, served):
    """The server lists a records file a page at a time; the replay view asks for each."""
    folder = served[1]
    line = (folder / "tour" / "records.jsonl").read_text().splitlines()[0]
    (folder / "many").mkdir()
    (folder / "many" / "records.jsonl").write_text(f"{line}\n" * (PAGE + 5))
    page.click("nav a[data-tab=replay]")
    page.wait_for_selector("#replay-file option[value='many/records.jsonl']", state="attached")
    page.select_option("#replay-file", "many/records.jsonl")
    page.wait_for_selector(f"#games tr[data-index='{PAGE + 4}']")
    assert page.locator("#games tr.clickable").count() == PAGE + 5
    assert page.locator("#replay-games p").text_content() == \
        f"{PAGE + 5} games in many/records.jsonl:"


def test_the_tournament_table_opens_its_games_in_the_replay_view(page):
    page.click("nav a[data-tab=tables]")
    page.wait_for_selector("#table-file option[value='tour/tournament.json']",
                           state="attached")
    page.select_option("#table-file", "tour/tournament.json")
    page.wait_for_selector("#crosstable td.clickable")
    assert page.locator("#ratings-table tr").count() == 3
    page.locator("#crosstable td.clickable").first.click()
    page.wait_for_selector("#games tr.clickable")
    assert page.locator("#games tr.clickable").count() == 2
    assert page.evaluate("location.hash") == "#replay/tour%2Frecords.jsonl"
    assert page.locator("#replay-file").input_value() == "tour/records.jsonl"
    page.locator("#games tr.clickable").first.click()
    page.wait_for_selector("#replay-panel:not([hidden])")


def test_a_game_in_progress_survives_a_reload(page):
    new_game(page, "zebres", "", "human,random")
    click_and_wait(page, a_move(page))
    before = board_state(page)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_function(f"document.querySelector('#board').dataset.state === '{before}'")
    assert page.locator("#moves button[data-action]").count() > 0
    page.click("#undo")
    page.wait_for_function("document.querySelector('#board').dataset.state === '0'")


def test_two_humans_at_one_screen_each_see_the_board_as_their_seat(page):
    new_game(page, "bonobo", "num_players=2", "human,human")
    for seat in (0, 1, 0):
        page.wait_for_function("document.querySelector('#turn').textContent"
                               f".includes('You play Player {seat}.')")
        click_and_wait(page, a_move(page))


def test_a_pasted_position_is_drawn_and_analysed(page):
    page.click("nav a[data-tab=analyse]")
    page.select_option("#paste-game", "zebres")
    page.fill("#agent", "mcts:sims=100")
    page.fill("#position", "z...../..G.../....../.l..../...... g 21 - move")
    page.click("#show-position")
    page.wait_for_selector("#board svg")
    assert page.locator("#analysis-state").text_content().startswith("Press Analyse")
    page.click("#run-analysis")
    page.wait_for_selector("#analysis[data-done=true]")
    moves = page.locator("#analysis-table tr td:first-child").all_text_contents()
    assert sorted(moves) == ["impala +1", "impala +2", "impala +3"]
    assert "Green to move" in page.locator("#analysis p").first.text_content()
    assert page.locator("#board svg").count() == 1


def test_a_new_user_opens_the_address_savanna_serve_prints_and_plays(browser, tmp_path):
    """``savanna serve`` as a user runs it: the page at the printed address (its token) plays;
    the same address without the token is refused, and a second user given an invitation
    link plays the other seat."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "savanna.experiments", "serve", "--port", str(port),
         "--save", str(tmp_path / "played")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env)
    try:
        line = server.stdout.readline()
        url = re.match(r"savanna serve: (\S+) ", line)[1]
        assert re.fullmatch(rf"http://127\.0\.0\.1:{port}/\?token=[\w-]{{40,}}", url), line
        stranger = browser.new_page()
        stranger.set_default_timeout(TIMEOUT_MS)
        for _ in range(100):  # until the server answers
            try:
                answer = stranger.goto(url.split("?")[0])
                break
            except Exception:  # noqa: BLE001 - not listening yet
                time.sleep(0.2)
        # the page (no secret in it) loads, and says how to get in: its API needs the token
        assert answer.status == 200
        stranger.wait_for_function("document.querySelector('#error').textContent"
                                   ".includes('open the URL savanna serve printed')")
        page = browser.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        new_game(page, "bonobo", "num_players=2", "human,human")
        for _ in range(3):
            click_and_wait(page, a_move(page))
        table, seat = re.search(r"#play/([\w-]+)/(\d)", page.url).groups()
        keys = page.evaluate(f"JSON.parse(localStorage.getItem('savanna-keys/{table}'))")
        other = 1 - int(seat)
        guest = browser.new_page()  # a second user (no cookie, no keys) invited to a seat
        guest.set_default_timeout(TIMEOUT_MS)
        guest.goto(url + f"#play/{table}/{keys[str(other)]}")  # the hash outlives the 303
        guest.wait_for_function("document.querySelector('#turn').textContent"
                                f".includes('You play Player {other}.')")
        assert guest.locator("#error").text_content() == ""
        for view in (page, stranger, guest):
            view.close()
    finally:
        server.terminate()
        server.wait(10)


def wait_ply(page, start):
    """Wait until the replay's label starts with ``start`` ("move 3 /")."""
    page.wait_for_function(f"document.querySelector('#ply-label').textContent"
                           f".startsWith({start!r})")


# ----- views that never go stale (#41) --------------------------------------------------------
def analyse_here(page, agent="mcts:sims=50"):
    """The Play view's position analysed by ``agent`` (the Analyse view takes it)."""
    page.click("nav a[data-tab=analyse]")
    page.fill("#agent", agent)
    page.click("#run-analysis")
    page.wait_for_selector("#analysis[data-done=true]")


def test_play_then_analyse_then_play_is_still_clickable(page):
    new_game(page, "zebres", "", "human,random")
    click_and_wait(page, page.locator(".hot").first)  # the Impala's start: then a lit line
    analyse_here(page)
    assert page.locator("circle.heat").count() > 0
    page.click("nav a[data-tab=play]")
    page.wait_for_selector(".hot")
    assert page.locator("circle.heat").count() == 0
    assert page.locator("#heat-legend").is_hidden()
    play_on_board(page)


def test_a_replay_after_an_analysis_draws_no_heat_map(page):
    new_game(page, "bonobo", "num_players=2", "human,random")
    analyse_here(page)
    assert page.locator("circle.heat").count() > 0
    page.click("nav a[data-tab=replay]")
    page.wait_for_selector("#replay-file option[value='tour/records.jsonl']", state="attached")
    page.select_option("#replay-file", "tour/records.jsonl")
    page.click("#games tr[data-index='0']")
    wait_ply(page, "move 0 /")
    assert page.locator("circle.heat, .pv, .hot").count() == 0
    assert page.locator("#heat-legend").is_hidden() and page.locator("#offboard").is_hidden()
    assert "Bonobo" not in page.locator("#board").inner_html()


def test_a_switch_away_and_back_never_stalls_an_agents_turn(page):
    """The agents' moves are shown one by one: a switch to Replay while one waits, then back
    to Play, and the agent moves on by itself."""
    new_game(page, "zebres", "", "human,random", watch=True)
    click_and_wait(page, page.locator(".hot").first)
    page.click("nav a[data-tab=replay]")  # before the agent's move is asked for
    page.wait_for_timeout(1000)
    page.click("nav a[data-tab=play]")
    page.wait_for_function("document.querySelector('#turn').textContent.includes('Your move')",
                           timeout=15_000)


def boxes(page, selectors):
    """The boxes ({x, y, width, height}) of the shown elements matching each selector, all
    found and measured in one step: the board is redrawn when the game's record arrives, and
    an element measured after a redraw has detached it reads as nothing."""
    return page.evaluate("""sels => sels.map(s => [...document.querySelectorAll(s)]
        .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().toJSON()))""",
                         selectors)


def test_on_a_phone_the_board_comes_first_wide_with_large_targets(browser, served):
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{served[0]}?token={TOKEN}")
    phone.wait_for_selector("body[data-ready=true]")
    new_game(phone, "zebres", "", "human,random")
    [board], [side], spots, controls = boxes(phone, [
        "#board svg", "#side", ".hot",
        "nav a, #side button, #side select, #side input:not([type=checkbox])"])
    assert board["width"] >= 340 and board["y"] + 100 < side["y"]
    assert spots and min(min(s["width"], s["height"]) for s in spots) >= 32
    assert min(c["height"] for c in controls) >= 32
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing cut off
    phone.close()


def test_cancel_shows_cancelled_and_stops_the_bar(page):
    new_game(page, "zebres", "", "human,random")
    held = []  # the analysis' first progress answer waits, so that Cancel comes mid-search

    def hold(route):
        if route.request.method == "GET" and not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/analyses/*", hold)
    page.click("nav a[data-tab=analyse]")
    page.fill("#agent", "mcts:sims=500")
    page.click("#run-analysis")
    page.wait_for_selector("#cancel-analysis:enabled")
    page.click("#cancel-analysis")
    page.wait_for_function("document.querySelector('#analysis-state').textContent"
                           ".includes('cancelled')")
    held[0].continue_()  # a late answer must not bring the search back
    page.wait_for_timeout(500)
    assert "cancelled" in page.locator("#analysis-state").text_content()
    assert page.locator("#progress").is_hidden()
    assert page.locator("#cancel-analysis").is_disabled()


def test_a_link_pasted_into_an_open_tab_opens_it(page, served):
    record = read_record(served[1] / "tour" / "records.jsonl", 1)
    page.evaluate("location.hash = '#replay/tour%2Frecords.jsonl/1/3'")
    page.wait_for_function("document.querySelector('#ply-label').textContent"
                           f" === 'move 3 / {record.plies}'")
    assert board_state(page) == str(record.ply_index(3))
    assert page.locator("#replay-file").input_value() == "tour/records.jsonl"
    page.evaluate("location.hash = '#tables/tour%2Ftournament.json'")
    page.wait_for_selector("#crosstable")
    page.evaluate("location.hash = '#analyse/zebres//" + "z...../..G.../....../.l..../......"
                  "%20g%2021%20-%20move'")
    page.wait_for_selector("#tab-analyse:not([hidden]) ~ * #board svg, #board svg")
    page.wait_for_function("document.querySelector('#analyse-source').textContent"
                           ".includes('pasted')")
    assert page.locator("#position").input_value().startswith("z...../..G...")


def test_thirty_arrow_presses_move_thirty_steps(page, served):
    record = read_record(served[1] / "tour" / "records.jsonl", 1)
    assert record.plies >= 30
    page.goto(served[0] + "#replay/tour%2Frecords.jsonl/1/0")
    wait_ply(page, "move 0 /")
    page.locator("#board").focus()
    for _ in range(30):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(50)
    wait_ply(page, "move 30 /")
    page.wait_for_timeout(500)
    assert page.locator("#ply-label").text_content().startswith("move 30 /")


def test_no_server_error_leaves_an_uncaught_promise_error(page):
    """Every refusal shows its one line; none reaches the console as an uncaught error (the
    fixture listens to 'pageerror' and the console)."""
    def refused(action, words):
        page.evaluate("() => { document.querySelector('#error').textContent = ''; }")
        action()
        page.wait_for_function("document.querySelector('#error').textContent.includes("
                               f"{words!r})")

    def start_with(seats, options=""):
        page.fill("#seats", seats)
        page.fill("#options", options)
        page.click("#start")

    page.select_option("#game", "zebres")
    refused(lambda: start_with("human,nonsense"), "nonsense")
    refused(lambda: start_with("human,random", "colour=blue"), "colour")
    refused(lambda: page.evaluate("location.hash = '#play/nosuchgame/0'"), "no game")
    refused(lambda: page.evaluate("location.hash = '#replay/nosuchfile.jsonl/0/0'"), "no file")
    refused(lambda: page.evaluate("location.hash = '#tables/nosuch.json'"), "no file")
    page.click("nav a[data-tab=analyse]")
    page.fill("#position", "not a position")
    refused(lambda: page.click("#show-position"), "malformed")
    page.click("nav a[data-tab=play]")
    new_game(page, "zebres", "", "human,random")
    page.click("nav a[data-tab=analyse]")
    page.fill("#agent", "nosuchagent")
    refused(lambda: page.click("#run-analysis"), "nosuchagent")
    page.route("**/api/files", lambda route: route.fulfill(
        status=401, content_type="application/json",
        body='{"error": "no token: open the URL savanna serve printed"}'))
    refused(lambda: page.click("nav a[data-tab=replay]"), "savanna serve printed")
    page.unroute("**/api/files")
    page.click("nav a[data-tab=play]")
    new_game(page, "zebres", "", "human,random")  # a good answer clears the message
    page.wait_for_timeout(1000)
    assert page.locator("#error").text_content() == ""
    assert page.errors == []


# ----- keyboard and screen readers (#41) --------------------------------------------------------
def test_board_spots_take_the_focus_by_tab_and_keep_it_after_a_move(page):
    new_game(page, "zebres", "", "human,random")
    names = page.locator(".hot").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert all(names) and any(n.startswith("start") for n in names)
    page.locator("#game").focus()
    for _ in range(60):  # Tab reaches the board's spots
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('hot')"):
            break
    else:
        pytest.fail("no board spot reachable by Tab")
    before = board_state(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'")
    page.wait_for_function("document.activeElement.dataset.focus !== undefined")
    focused = page.evaluate("document.activeElement.dataset.focus")
    assert focused.startswith(("spot:", "move:"))


@pytest.mark.parametrize("size", [(1280, 800), (360, 740), (390, 844)],
                         ids=["desktop", "phone-360", "phone"])
def test_each_view_passes_the_accessibility_check(browser, served, size):
    """axe-core (bundled by axe-playwright-python) on every view, at desktop and phone size:
    no serious or critical finding. With SAVANNA_SCREENSHOTS each view is photographed."""
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{served[0]}?token={TOKEN}")
    page.wait_for_selector("body[data-ready=true]")
    kind = "desktop" if size[0] > 800 else "phone"
    axe, findings = Axe(), {}

    def check(view):
        result = axe.run(page)
        findings[view] = [(v["id"], v["impact"], len(v["nodes"]))
                          for v in result.response["violations"]
                          if v["impact"] in ("serious", "critical")]
        shoot(page, f"{view}-{kind}")

    check("start")
    new_game(page, "zebres", "", "human,random")
    click_and_wait(page, page.locator(".hot").first)
    check("play")
    analyse_here(page, "mcts:sims=200")
    check("analyse")
    page.goto(served[0] + "#replay/tour%2Frecords.jsonl/1/12")
    wait_ply(page, "move 12")
    check("replay")
    page.goto(served[0] + "#tables/tour%2Ftournament.json")
    page.wait_for_selector("#crosstable")
    check("tables")
    page.close()
    assert findings == {view: [] for view in findings}


# ----- watching and keeping (#41) -------------------------------------------------------------
def test_an_agents_game_pauses_steps_and_downloads_its_record(page, tmp_path):
    page.select_option("#game", "zebres")
    page.set_checked("#watch", True)
    page.fill("#options", "")
    page.fill("#seats", "random,random")
    page.click("#start")
    page.wait_for_selector("#pause")
    page.click("#pause")  # the agents stop where they are
    page.wait_for_function("document.querySelector('#turn').textContent.includes('paused')")
    before = int(board_state(page))
    page.wait_for_timeout(1000)
    assert int(board_state(page)) == before
    page.click("#advance")  # one step
    page.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'")
    page.wait_for_timeout(1000)
    stepped = int(board_state(page))
    assert stepped > before
    with page.expect_download() as download:
        page.click("#download-game")
    path = tmp_path / "game.jsonl"
    download.value.save_as(path)
    record = read_record(path)
    assert len(record.moves) == stepped and record.agents == ["random", "random"]
    record.states()  # replays through the rules
    page.click("#pause")  # and on again
    page.wait_for_function(f"Number(document.querySelector('#board').dataset.state) > {stepped}")


def test_the_last_move_is_ringed_on_the_board(page, served):
    page.goto(served[0] + "#replay/tour%2Frecords.jsonl/1/0")
    wait_ply(page, "move 0 /")
    assert page.locator(".last-move").count() == 0
    page.keyboard.press("ArrowRight")
    wait_ply(page, "move 1 /")
    page.wait_for_selector(".last-move")
    assert page.locator("#last-move").text_content().startswith("Last move:")


def test_the_seats_take_human_in_any_case_and_outlive_a_reload(page):
    page.select_option("#game", "bonobo")
    page.fill("#options", "num_players=2")
    page.fill("#seats", "")
    page.select_option("#seat-pick", "human")
    page.click("#seat-add")
    page.fill("#seats", page.locator("#seats").input_value().replace("human", "Human") +
              ",random")
    assert page.locator("#seats-words").text_content() == "Player 0: human, Player 1: random"
    page.click("#start")
    page.wait_for_selector("#moves [data-action]", state="attached")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#seats").input_value() == "Human,random"
    assert page.locator("#game").input_value() == "bonobo"


def test_review_this_game_hands_the_replay_to_the_review_and_leaves_with_it(page, served):
    page.evaluate("() => { window.savannaReview = (asked) => {"
                  " window.reviewed = `${asked.file}:${asked.game}`;"
                  " asked.container.hidden = false; asked.container.textContent = 'graph'; }; }")
    page.goto(served[0] + "#replay/tour%2Frecords.jsonl/1/5")
    wait_ply(page, "move 5 /")
    page.click("#review-replay")
    assert page.evaluate("window.reviewed") == "tour/records.jsonl:1"
    assert page.locator("#review").is_visible()
    page.click("nav a[data-tab=play]")  # another view: the review goes
    assert page.locator("#review").is_hidden()
