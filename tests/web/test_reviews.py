"""``POST /api/reviews`` of ``savanna serve``: a review of a recorded tournament game runs as a job
whose answer is the Python call's and the CSV's; it can be cancelled; a finished game of the
server can be reviewed, one in progress cannot; bad requests are one-line 4xx answers."""
import csv
import io
import math
import time

import pytest
from starlette.testclient import TestClient

from savanna import make_game
from savanna.agents import make_agent, play_match, review
from savanna.agents.play.review import default_reviewer
from savanna.board.review_jobs import Reviews
from savanna.board.seating import check_agent
from savanna.board.served_files import Replays
from savanna.board.server import create_app
from savanna.board.tables import Limits
from savanna.records import read_records, write_records
from tests.agents.test_review import AGENT, write_tournament_game


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    (folder / "match").mkdir()
    records = write_tournament_game(folder / "match")
    limits = Limits(max_sims=500, max_seconds=600, folders=(folder,))
    with TestClient(create_app(limits, token=""), base_url="http://127.0.0.1") as client:
        yield records, client


def finished(client, key):
    for _ in range(600):
        status = client.get(f"/api/reviews/{key}").json()
        if status["done"]:
            return status
        time.sleep(0.05)
    raise AssertionError(f"review {key} did not end: {status}")


def test_the_answer_is_the_python_calls_and_the_csvs(served):
    records, client = served
    r = client.post("/api/reviews", json={"file": "match/records.jsonl", "game": 1,
                                          "agent": AGENT, "threshold": 0.1, "seed": 3})
    assert r.status_code == 200, r.text
    status = finished(client, r.json()["id"])
    assert status["error"] is None and status["reviewed"] == status["of"]
    expected = review(read_records(records)[1], AGENT, threshold=0.1, seed=3)
    decisions = status["result"]["decisions"]
    assert decisions == expected.to_json()["decisions"]
    assert len(decisions) == expected.plies == status["of"]
    lines = list(csv.DictReader(io.StringIO(expected.to_csv())))
    for line, decision in zip(lines, decisions, strict=True):
        assert list(line) == list(decision)
        for name, cell in line.items():
            value = decision[name]
            if isinstance(value, float) or value is None:  # None: NaN in JSON
                assert (value is None and math.isnan(float(cell))) or float(cell) == value
            else:
                assert cell == str(value), name
    assert [d["ply"] for d in decisions if d["label"]] == expected.marked["ply"].tolist()
    assert status["result"]["summary"] == expected.summary()


def test_a_cancelled_review_stops_between_decisions(served):
    _, client = served
    key = client.post("/api/reviews", json={"file": "match/records.jsonl",
                                            "agent": "mcts:sims=500"}).json()["id"]
    assert client.delete(f"/api/reviews/{key}").json()["cancelled"]
    status = finished(client, key)
    assert status["cancelled"] and status["reviewed"] < status["of"]


def test_a_finished_game_of_the_server_is_reviewed_and_one_in_progress_is_not(served):
    _, client = served
    table = client.post("/api/tables", json={"game": "zebres", "seats": ["greedy", "random"],
                                             "seed": 1, "paused": True}).json()
    r = client.post("/api/reviews", json={"table": table["id"], "agent": AGENT})
    assert r.status_code == 409 and "once it has ended" in r.json()["error"]
    control = {"X-Seat-Key": table.get("control", "")}  # where agents move only for a key
    while not table["over"]:
        table = client.post(f"/api/tables/{table['id']}/advance", json={},
                            headers=control).json()
    key = client.post("/api/reviews", json={"table": table["id"], "agent": AGENT}).json()["id"]
    status = finished(client, key)
    assert status["error"] is None and status["reviewed"] == status["of"] > 0


@pytest.mark.parametrize("method, path, body, code, message", [
    ("POST", "/api/reviews", {"agent": AGENT}, 400, "say what to review"),
    ("POST", "/api/reviews", {"file": "match/records.jsonl", "game": 2}, 400,
     "game must be in 0..1"),
    ("POST", "/api/reviews", {"file": "match/records.jsonl", "game": True}, 400,
     "game must be in 0..1"),
    ("POST", "/api/reviews", {"file": "none.jsonl"}, 404, "no file"),
    ("POST", "/api/reviews", {"file": "../x.jsonl"}, 404, "no file"),  # as a missing one
    ("POST", "/api/reviews", {"file": "match/records.jsonl", "agent": "nosuch"}, 400, "nosuch"),
    ("POST", "/api/reviews", {"file": "match/records.jsonl", "agent": "random"}, 400,
     "needs a search agent"),
    ("POST", "/api/reviews", {"file": "match/records.jsonl", "agent": "mcts:sims=100000"}, 400,
     "at most 500"),
    ("POST", "/api/reviews", {"file": "match/records.jsonl", "threshold": -1}, 400,
     "threshold"),
    ("POST", "/api/reviews", {"file": "match/records.jsonl", "seed": "x"}, 400, "seed"),
    ("POST", "/api/reviews", {"file": "match/records.jsonl", "ply": 3}, 400, "unknown field"),
    ("POST", "/api/reviews", {"table": "nosuch"}, 404, "no game"),
    ("GET", "/api/reviews/nosuch", None, 404, "no review"),
    ("DELETE", "/api/reviews/nosuch", None, 404, "no review"),
])
def test_bad_requests_are_one_line_errors(served, method, path, body, code, message):
    _, client = served
    r = client.request(method, path, json=body)
    assert r.status_code == code, r.text
    assert message in r.json()["error"] and "\n" not in r.json()["error"]


@pytest.mark.parametrize("name", ["banjooli", "zebres"])
def test_a_review_asked_for_without_an_agent_is_made_by_the_games_reviewer(tmp_path, name):
    game = make_game(name)
    match = play_match(game, [make_agent("random")] * game.num_players, games=1, workers=1,
                       progress=False, record=True)
    write_records(tmp_path / "records.jsonl", match.records)
    limits = Limits(folders=(tmp_path,))
    job = Reviews(Replays(limits.folders), {}, limits, None).job({"file": "records.jsonl"})
    assert job.agent is None  # chosen once the record names its game
    record, loaded, _ = job._loaded()
    assert job.agent.spec == check_agent(default_reviewer(loaded), limits).spec
    assert default_reviewer(loaded) == ("mcts:sims=400" if name == "banjooli"
                                        else "az:baseline,sims=128")
