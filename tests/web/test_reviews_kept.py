"""Reviews kept with their game: a whole review of ``savanna serve`` is written to its save folder
(``reviews/KEY.json``), the very file ``savanna review --json`` writes; a request naming the key
answers with it, searching nothing; a key of another game or settings, or none kept, is a 404;
the page's address of a review holds its key, and a reload of that address shows the same
review."""
import time

import pytest
from starlette.testclient import TestClient

from savanna.board.review_jobs import kept_key
from savanna.board.server import create_app
from savanna.board.tables import Limits
from savanna.cli.main import main
from tests.agents.test_review import AGENT, write_tournament_game
from tests.web import test_review_teaching as teaching
from tests.web.browser import needs_chromium
from tests.web.test_review_teaching import THRESHOLD, run_review

served_page = teaching.served


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    (folder / "match").mkdir()
    records = write_tournament_game(folder / "match")
    limits = Limits(max_sims=500, max_seconds=600, folders=(folder,), save=folder / "played")
    with TestClient(create_app(limits, token=""), base_url="http://127.0.0.1") as client:
        yield records, folder / "played", client


def finished(client, key):
    for _ in range(1200):
        status = client.get(f"/api/reviews/{key}").json()
        if status["done"]:
            return status
        time.sleep(0.05)
    raise AssertionError(f"review {key} did not end: {status}")


def test_a_whole_review_is_kept_as_savanna_review_writes_it(served, tmp_path):
    records, save, client = served
    asked = {"file": "match/records.jsonl", "game": 1, "agent": AGENT, "threshold": 0.2,
             "seed": 4}
    status = finished(client, client.post("/api/reviews", json=asked).json()["id"])
    assert status["error"] is None and status["reviewed"] == status["of"]
    key = status["kept"]
    assert key == kept_key({"file": "match/records.jsonl", "game": 1},
                           status["result"]["agent"], 0.2, 4)
    kept = save / "reviews" / f"{key}.json"
    main(["review", str(records), "--game", "1", "--agent", AGENT, "--threshold", "0.2",
          "--seed", "4", "--json", str(tmp_path / "cli.json"), "--out", str(tmp_path / "x.csv"),
          "--no-progress"])
    assert kept.read_bytes() == (tmp_path / "cli.json").read_bytes()
    again = client.post("/api/reviews", json={"file": "match/records.jsonl", "game": 1,
                                              "kept": key})
    assert again.status_code == 200, again.text
    assert finished(client, again.json()["id"])["result"] == status["result"]
    junk = "ab" * 12  # a file at a key's place that is no review
    (save / "reviews" / f"{junk}.json").write_text("[1, 2]")
    for wrong in ({"file": "match/records.jsonl", "game": 0, "kept": key},  # another game
                  {"file": "match/records.jsonl", "game": 1, "kept": junk},
                  {"file": "match/records.jsonl", "game": 1, "kept": "0" * 24},
                  {"file": "match/records.jsonl", "game": 1, "kept": "../../etc/passwd"}):
        answer = client.post("/api/reviews", json=wrong)
        assert answer.status_code == 404 and "no kept review" in answer.json()["error"]


def test_a_stopped_review_is_not_kept(served):
    records, save, client = served
    before = set((save / "reviews").glob("*.json")) if (save / "reviews").exists() else set()
    started = client.post("/api/reviews", json={"file": "match/records.jsonl", "game": 0,
                                                "agent": "mcts:sims=500"}).json()
    client.delete(f"/api/reviews/{started['id']}")
    status = finished(client, started["id"])
    assert status["cancelled"] and status["kept"] is None
    after = set((save / "reviews").glob("*.json")) if (save / "reviews").exists() else set()
    assert after == before


@needs_chromium
def test_a_reload_of_a_reviews_address_shows_the_same_review(browser, served_page):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(120_000)
    run_review(page, served_page[0])
    page.locator("#review .review-link").wait_for()
    address = page.evaluate("location.hash")
    assert "/review/" in address and page.locator("#review .review-link").get_attribute(
        "href") == address
    marks = page.locator("#review .point.marked")
    before = [marks.nth(k).get_attribute("data-ply") for k in range(marks.count())]
    page.reload()
    page.locator("#review .review-status").filter(has_text="marked").wait_for()
    assert page.evaluate("location.hash") == address
    assert [marks.nth(k).get_attribute("data-ply") for k in range(marks.count())] == before
    assert f"{THRESHOLD * 100:.0f} points" in page.locator("#review .review-legend").text_content()
    page.close()
