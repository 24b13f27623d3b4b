"""The page in a player's words and its small breakages fixed, in headless Chromium: results
named by the winner, its points first; a played file named by its game, date, players and
result; a ladder titled by its game in words; the focus kept after a move chosen on a spot;
Download record only where a record is public; a replay's download named by its game and
players; a new game shown from the board's top; a long best line drawn as its first moves,
then "…", its numbers never on one another."""
import itertools
import re

import pytest

from savanna.agents import Ladder
from savanna.board.server import create_app
from savanna.board.tables import Limits
from savanna.records import read_record
from tests.web.browser import needs_chromium, save_tournament, serving, start_game

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    save_tournament(folder)
    ladder = Ladder.new("zebres")
    ladder.add("greedy", games=2, seed=0, workers=1, progress=False)
    ladder.save(folder / "ladder-zebres.json")
    limits = Limits(max_sims=500, max_seconds=600, folders=(folder,), save=folder / "played")
    with serving(create_app(limits, token="")) as address:
        yield address, folder


# ----- words ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game, returns, scores, words", [
    ("zebres", [-1, 1], [30, 59], "Green wins 59–30"),
    ("zebres", [1, -1], [58, 25], "Red wins 58–25"),
    ("banjooli", [-0.5, -0.5, 1], [-61, 17, 48],
     "Seat 2 wins: Seat 2 48, Seat 1 17, Seat 0 −61"),  # a real minus sign
    ("bonobo", [0, 0], [12, 12], "Draw 12–12"),
    ("bonobo", [1, -1], [55, -27], "Player 0 wins 55 to −27"),  # never "55–-27"
])
def test_a_result_names_the_winner_and_its_points_first(page, game, returns, scores, words):
    said = page.evaluate("""async ([game, returns, scores]) =>
        (await import('/static/words.js')).resultWords(game, returns, scores)""",
                         [game, returns, scores])
    assert said == words


def test_a_played_file_is_named_by_its_game_date_players_and_result(page, served):
    start_game(page, "zebres", "", "greedy,random")
    page.locator("#result #winner").wait_for()
    saved = page.locator("#saved").text_content().removeprefix("saved to ")
    assert saved.startswith("played/")  # named in the served folder, no path of the server
    record = read_record(served[1] / saved)
    name = saved.rsplit("/", 1)[-1]
    winner = ["greedy", "random"][record.returns.index(max(record.returns))]
    assert re.fullmatch(rf"zebres-\d{{8}}-\d{{6}}-greedy-vs-random-{winner}-wins\.jsonl", name)
    table = page.locator("#play-panel").get_attribute("data-table")
    assert table not in name  # the table's id is no part of it


def test_a_ladder_is_titled_by_its_game_in_words(page, served):
    page.goto(f"{served[0]}#tables/ladder-zebres.json")
    page.locator("#ratings h3").wait_for()
    assert page.locator("#ratings h3").text_content() == \
        "Ladder: Zèbres, standard board, Green places first"


# ----- small breakages -----------------------------------------------------------------------
def test_a_move_chosen_on_a_spot_by_the_keyboard_keeps_the_focus(page):
    start_game(page, "zebres", "", "human,random")
    before = page.locator("#board").get_attribute("data-state")
    page.locator("#board .hot").first.click()  # the Impala's start: then a lit line of cells
    page.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'")
    page.locator("#board .hot[data-actions*=' ']").first.focus()  # several tokens may go there
    page.keyboard.press("Enter")
    page.locator("#moves button.picked").first.wait_for()
    assert page.evaluate("document.activeElement.classList.contains('picked')")
    before = page.locator("#board").get_attribute("data-state")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('#board').dataset.state !== '{before}'")
    page.wait_for_timeout(300)  # the record's answer redraws the board once more
    assert page.evaluate("document.activeElement !== document.body")


def test_download_record_is_offered_only_where_the_record_is_public(page):
    start_game(page, "banjooli", "num_players=2", "human,random")
    page.wait_for_selector("#moves [data-action]", state="attached")
    assert page.locator("#download-game").is_disabled()  # secret cards: public at the end
    start_game(page, "zebres", "", "human,random")
    page.wait_for_selector("#moves [data-action]", state="attached")
    assert page.locator("#download-game").is_enabled()


def test_a_replays_download_is_named_by_its_game_and_players(page, served):
    page.goto(f"{served[0]}#replay/tour%2Frecords.jsonl/0/3")
    page.locator("#ply-label").filter(has_text="move 3 /").wait_for()
    with page.expect_download() as download:
        page.click("#download-replay")
    name = download.value.suggested_filename
    agents = [re.sub(r"[^A-Za-z0-9=.]+", "-", a)
              for a in read_record(served[1] / "tour" / "records.jsonl", 0).agents]
    assert name == f"zebres-{agents[0]}-vs-{agents[1]}-game0-of-tour-records.jsonl"


def test_a_new_game_is_shown_from_the_boards_top(page):
    page.set_viewport_size({"width": 1280, "height": 500})  # the form below the fold
    start_game(page, "zebres", "", "human,random")
    page.locator("#start").scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 0
    start_game(page, "zebres", "", "human,random")
    assert page.evaluate("scrollY") == 0
    # measured in one call: a push from the server may redraw the board between two calls
    assert page.evaluate("document.querySelector('#board svg').getBoundingClientRect().y") >= 0


def test_a_long_best_line_is_drawn_as_its_first_moves_then_an_ellipsis(page):
    def longer(route):  # the search's line, eight times over: a long line on few spots
        data = route.fetch().json()
        if data.get("result"):
            result = data["result"]
            result["pv"], result["pv_spots"] = result["pv"] * 8, result["pv_spots"] * 8
        route.fulfill(json=data)

    page.route("**/api/analyses/*", longer)
    start_game(page, "zebres", "", "human,random")
    page.wait_for_selector("#moves [data-action]", state="attached")
    page.click("nav a[data-tab=analyse]")
    page.fill("#agent", "mcts:sims=200")
    page.click("#run-analysis")
    page.wait_for_selector("#analysis[data-done=true]")
    line = page.locator("#analysis p").last.text_content()
    assert len(re.findall(r"\d+\. ", line)) >= 8  # the whole line, listed
    badges = page.locator("#board .pv circle")
    assert 0 < badges.count() <= 5
    assert page.locator("#board .pv .pv-more").count() == 1
    boxes = [badges.nth(k).bounding_box() for k in range(badges.count())]
    for a, b in itertools.combinations(boxes, 2):  # never one number on another
        assert abs(a["x"] - b["x"]) >= a["width"] - 1 or abs(a["y"] - b["y"]) >= a["height"] - 1


def test_the_sole_human_of_a_finished_game_is_still_its_player(page, served):
    start_game(page, "zebres", "", "human,random")
    table = page.locator("#play-panel").get_attribute("data-table")
    key = page.evaluate(f"JSON.parse(localStorage.getItem('savanna-keys/{table}'))['0']")
    view = page.request.get(f"{served[0]}api/tables/{table}", headers={"X-Seat-Key": key}).json()
    while not view["over"]:  # the game played to its end behind the page's back
        move = view["moves"][0]["action"]
        view = page.request.post(f"{served[0]}api/tables/{table}/move",
                                 data={"action": move, "version": view["version"],
                                       "agents": True},
                                 headers={"X-Seat-Key": key, "Origin": served[0].rstrip("/")}
                                 ).json()
    page.goto(f"{served[0]}#play/{table}/")  # the address without its seat
    # the page saw the end already (pushed): the address, once read, names the seat again
    page.wait_for_function(f"location.hash === '#play/{table}/0'")
    page.locator("#result #winner").wait_for()
    turn = page.locator("#turn").text_content()
    assert "You play Red" in turn and "watching" not in turn and "The game is over" in turn
