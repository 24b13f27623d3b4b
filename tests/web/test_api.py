"""The JSON API of ``savanna serve`` on Starlette's test client: every endpoint with good and bad
input, the games played to the end and saved, undo, replay, analysis, tables, and no leak of a
seat's secrets in a Banjooli game. Every request shows the token; a seat's, its key (the attacks
on both are in test_security.py)."""
import json
import re
import shutil
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

from savanna import make_game
from savanna.agents import make_agent, tournament
from savanna.agents.arena.ladder import Ladder
from savanna.agents.play.az_agent import baseline_path
from savanna.board.limits import Limits, confined
from savanna.board.refusals import Refused
from savanna.board.server import STATUS, create_app
from savanna.records import read_record, write_records

TOKEN = "a-test-token"


def client_of(app):
    """A test client of ``app`` at this machine's address, showing the token."""
    return TestClient(app, base_url="http://127.0.0.1:8000",
                      headers={"Authorization": f"token {TOKEN}"})


def key(view, seat=None):
    """The header that speaks for ``seat`` (default: the view's) with the keys the creation
    answer of ``view``'s table gave."""
    seat = view["seat"] if seat is None else seat
    return {"X-Seat-Key": KEYS[view["id"]][str(seat)]}


KEYS = {}  # table id -> the keys its creation answered


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A folder with a recorded match, a tournament and a ladder, and a client of a server
    that serves it (games saved in its played/ subfolder)."""
    folder = tmp_path_factory.mktemp("served")
    game = make_game("zebres")
    result = tournament(game, [make_agent("random"), make_agent("greedy")], games_per_pair=2,
                        seed=0, workers=1, record=True, progress=False)
    result.save(folder / "tour")
    ladder = Ladder.new("zebres")
    ladder.add("greedy", games=4, seed=0, workers=1, progress=False)
    ladder.save(folder / "ladder-zebres.json")
    limits = Limits(max_sims=500, max_seconds=600, folders=(folder,), save=folder / "played")
    with client_of(create_app(limits, token=TOKEN)) as client:
        yield folder, client


def first_human_game(client, game, seats, options=(), seed=0, **fields):
    r = client.post("/api/tables", json={"game": game, "seats": seats,
                                         "options": list(options), "seed": seed, **fields})
    assert r.status_code == 200, r.text
    view = r.json()
    KEYS[view["id"]] = {**view.pop("keys"), "control": view.pop("control")}
    assert set(view.pop("invitations")) == set(KEYS[view["id"]]) - {"control"}
    assert view.pop("spectate").endswith(f"#play/{view['id']}/")
    assert view["notice"] is None
    deadline = time.monotonic() + 600  # agents whose first search compiles: pushed later
    while view["seat"] is not None and not view["paused"] and not view["moves"] \
            and view["agent_to_move"] and not view["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
        view = client.get(f"/api/tables/{view['id']}", headers=key(view)).json()
    return view


def play_out(client, view, choose=lambda v: v["moves"][0]["action"], seen=None):
    """Play the human seats' moves (``choose``) until the end; every raw response to the
    seat that asked goes to ``seen[seat]``."""
    while not view["over"]:
        seat = view["to_move"]
        if view["seat"] != seat:
            r = client.get(f"/api/tables/{view['id']}", headers=key(view, seat))
        else:
            r = client.post(f"/api/tables/{view['id']}/move", headers=key(view),
                            json={"action": choose(view), "version": view["version"]})
        assert r.status_code == 200, r.text
        if seen is not None:
            seen.setdefault(seat, []).append(r.text)
        view = r.json()
    return view


@pytest.mark.parametrize("game, seats, options", [
    ("zebres", ["human", "random"], ["board=president"]),
    ("bonobo", ["random", "human", "random"], []),
])
def test_a_game_played_to_the_end_is_saved_as_a_record_that_replays(served, game, seats,
                                                                     options):
    folder, client = served
    view = first_human_game(client, game, seats, options)
    assert view["seat"] == seats.index("human") and view["moves"]
    for move in view["moves"]:  # each clickable move sits on the picture
        assert move["spot"] is None or all(0 <= x <= 2000 for x in move["spot"])
    again = client.get(f"/api/tables/{view['id']}", headers=key(view)).json()
    assert again == view  # a reload finds the game as it was
    end = play_out(client, view)
    saved = client.app.state.tables[end["id"]].saved
    assert end["record"] == end["record_file"] == str(Path(saved).relative_to(folder))
    record = read_record(saved)
    assert record.returns == end["returns"] and len(record.agents) == len(end["seats"])
    assert record.info["command"] == "serve"
    assert len(record.states()) == len(record.moves) + 1 == end["version"] + 1
    listed = client.get("/api/records", params={"file": end["record_file"]}).json()
    assert listed["games"][0]["returns"] == end["returns"]  # the replay view opens it


def test_undo_takes_back_the_human_move_and_the_agents_after_it(served):
    _, client = served
    view = first_human_game(client, "bonobo", ["human", "random"], seed=3)
    before = view["position"]
    moved = client.post(f"/api/tables/{view['id']}/move", headers=key(view), json={
        "action": view["moves"][-1]["action"], "version": view["version"]}).json()
    assert moved["version"] > view["version"] and moved["can_undo"]
    undone = client.post(f"/api/tables/{view['id']}/undo", headers=key(view)).json()
    assert undone["position"] == before and undone["version"] == view["version"]
    assert undone["log"] == view["log"] and not undone["can_undo"]


def test_the_agents_of_a_paused_table_move_one_step_at_a_time(served):
    _, client = served
    view = first_human_game(client, "bonobo", ["human", "random", "random"], seed=4,
                            paused=True)
    moved = client.post(f"/api/tables/{view['id']}/move", headers=key(view), json={
        "action": view["moves"][0]["action"], "version": view["version"]}).json()
    assert moved["agent_to_move"] and not moved["moves"] and moved["paused"]
    time.sleep(0.3)  # the server's loop does not play a paused table's agents
    assert client.get(f"/api/tables/{view['id']}").json()["version"] == moved["version"]
    while moved["agent_to_move"]:
        step = client.post(f"/api/tables/{view['id']}/advance", headers=key(view)).json()
        assert step["version"] > moved["version"] and step["paused"]
        moved = step
    assert moved["to_move"] == 0 and moved["moves"]


def test_the_agents_reply_without_being_asked_when_the_move_answers_at_once(served):
    _, client = served
    view = first_human_game(client, "bonobo", ["human", "random", "random"], seed=4)
    moved = client.post(f"/api/tables/{view['id']}/move", headers=key(view), json={
        "action": view["moves"][0]["action"], "version": view["version"],
        "agents": False}).json()
    assert moved["version"] == view["version"] + 1
    deadline = time.monotonic() + 30
    while (now := client.get(f"/api/tables/{view['id']}", headers=key(view)).json())[
            "to_move"] != 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert now["moves"] and now["version"] > moved["version"] + 1  # both agents replied


def test_a_game_of_agents_plays_itself_and_steps_one_move_at_a_time(served):
    _, client = served
    view = first_human_game(client, "zebres", ["random", "greedy"], paused=True)
    assert view["seat"] is None and view["agent_to_move"] and not view["moves"]
    r = client.post(f"/api/tables/{view['id']}/advance", json={},
                    headers=key(view, "control"))
    assert r.status_code == 200 and r.json()["version"] == view["version"] + 1
    r = client.post(f"/api/tables/{view['id']}/pace", json={"paused": False},
                    headers=key(view, "control"))
    assert r.status_code == 200 and not r.json()["paused"]
    deadline = time.monotonic() + 60
    while not (end := client.get(f"/api/tables/{view['id']}").json())["over"] and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    assert end["over"] and end["returns"] is not None


def _bad_cases(folder, table, record_file):
    """(method, url, json body or raw bytes, expected status): each one mistake."""
    move = f"/api/tables/{table['id']}/move"
    good_move = {"action": table["moves"][0]["action"], "version": table["version"]}
    illegal = next(a for a in range(206) if a not in {m["action"] for m in table["moves"]})
    return [
        ("POST", move, {**good_move, "action": illegal}, 409),             # illegal action
        ("POST", move, {**good_move, "version": table["version"] + 5}, 409),  # stale
        ("POST", move, {**good_move, "action": 10**30}, 400),              # huge number
        ("POST", move, {**good_move, "action": "Z c4"}, 400),              # not an id
        ("POST", move, {**good_move, "seat": 1}, 400),                     # the key says
        ("POST", move, {**good_move, "agents": 1}, 400),                   # not a bool
        ("POST", move, b"{not json", 400),
        ("POST", move, b"[1, 2]", 400),
        ("POST", move, {**good_move, "cheat": 1}, 400),                    # unknown field
        ("POST", move, {**good_move, "agents": "yes"}, 400),
        ("POST", move, b"{" + b" " * 70000 + b"}", 413),                   # oversized body
        ("GET", "/api/tables/g999-0", None, 404),                          # no such game
        ("POST", "/api/tables/g999-0/move", good_move, 404),
        ("POST", "/api/tables/g999-0/undo", {}, 404),
        ("POST", f"/api/tables/{table['id']}/undo", {}, 409),              # nothing to undo
        ("POST", f"/api/tables/{table['id']}/advance", {}, 409),           # a human's turn
        ("POST", f"/api/tables/{table['id']}/undo", {"seat": 0}, 400),
        ("GET", f"/api/tables/{table['id']}?seat=1", None, 400),           # the key says
        ("POST", "/api/tables", {"game": "chess", "seats": ["human", "random"]}, 400),
        ("POST", "/api/tables", {"game": "zebres", "seats": ["human", "alphago"]}, 400),
        ("POST", "/api/tables", {"game": "zebres", "seats": ["human", "mcts:sims=10000000"]},
         400),                                                             # over max_sims
        ("POST", "/api/tables", {"game": "zebres", "seats": ["human", "mcts:time_budget=1e9"]},
         400),
        ("POST", "/api/tables", {"game": "zebres", "seats": ["human", "az:../x/best.pt"]},
         404),                                                             # a file outside
        ("POST", "/api/tables", {"game": "zebres", "seats": ["human", "random"],
                                 "options": ["colour=blue"]}, 400),        # unknown option
        ("POST", "/api/tables", {"game": "bonobo", "seats": ["human", "random"],
                                 "options": ["num_players=9"]}, 400),
        ("POST", "/api/tables", {"game": "zebres", "seats": ["human", "random"],
                                 "seed": 10**40}, 400),
        ("POST", "/api/tables", {"game": "zebres", "seats": "human"}, 400),
        ("POST", "/api/analyses", {"agent": "mcts:sims=50", "game": "zebres",
                                   "position": "z..../ nonsense"}, 400),   # malformed position
        ("POST", "/api/analyses", {"agent": "random", "table": table["id"]}, 400),
        ("POST", "/api/analyses", {"agent": "mcts:sims=10000000", "table": table["id"]}, 400),
        ("POST", "/api/analyses", {"agent": "mcts:sims=50"}, 400),         # nothing named
        ("POST", "/api/analyses", {"agent": "mcts:sims=50", "file": record_file, "game": 0,
                                   "ply": 10**9}, 400),
        ("GET", "/api/analyses/a999", None, 404),
        ("DELETE", "/api/analyses/a999", None, 404),
        ("GET", "/api/records?file=../../etc/passwd", None, 404),          # ../ paths
        ("GET", "/api/records?file=%2Fetc%2Fpasswd", None, 404),
        ("GET", f"/api/records?file={folder.name}/../../x.jsonl", None, 404),
        ("GET", "/api/records?file=missing.jsonl", None, 404),
        ("GET", "/api/records?file=ladder-zebres.json", None, 400),        # not records
        ("GET", "/api/records", None, 400),
        ("GET", f"/api/replay?file={record_file}&game=99&ply=0", None, 400),
        ("GET", f"/api/replay?file={record_file}&game=0&ply=-1", None, 400),
        ("GET", f"/api/replay?file={record_file}&game=0&ply=99999999999999999999", None, 400),
        ("GET", f"/api/replay?file={record_file}&game=0&ply=0&seat=5", None, 400),
        ("GET", "/api/ratings?file=../ladder.json", None, 404),
        ("GET", f"/api/ratings?file={record_file}", None, 400),
        ("GET", "/api/nowhere", None, 404),
        ("DELETE", "/api/info", None, 405),
    ]


def test_every_bad_request_gets_a_one_line_4xx_and_the_server_goes_on(served):
    folder, client = served
    table = first_human_game(client, "zebres", ["human", "random"], seed=1)
    record_file = "tour/records.jsonl"
    for method, url, body, status in _bad_cases(folder, table, record_file):
        kwargs = {"content": body} if isinstance(body, bytes) else {"json": body}
        headers = {**key(table), "Content-Type": "application/json"}
        r = client.request(method, url, headers=headers, **({} if body is None else kwargs))
        what = f"{method} {url} {str(body)[:80]}"
        assert r.status_code == status, f"{what}: {r.status_code} {r.text}"
        data = r.json()
        assert list(data) == ["error"], what
        assert data["error"] and "\n" not in data["error"] and len(data["error"]) < 600, what
        # the next good request works, and the game did not move
        again = client.get(f"/api/tables/{table['id']}", headers=key(table))
        assert again.status_code == 200 and again.json()["version"] == table["version"]


def test_replay_frames_are_the_record_states(served):
    folder, client = served
    listing = client.get("/api/files").json()["files"]
    for answer in (client.get("/api/files"), client.get("/api/info")):  # no path of the server
        assert str(folder) not in answer.text and str(folder.resolve()) not in answer.text
    kinds = {f["file"]: f["kind"] for f in listing}
    assert kinds["tour/records.jsonl"] == "records"
    assert kinds["tour/tournament.json"] == "tournament"
    assert kinds["ladder-zebres.json"] == "ladder"
    games = client.get("/api/records", params={"file": "tour/records.jsonl"}).json()["games"]
    assert len(games) == 2 and all(g["returns"] is not None for g in games)
    record = read_record(folder / "tour" / "records.jsonl", 1)
    game = record.game()
    for ply in (0, 5, record.plies):
        frame = client.get("/api/replay", params={"file": "tour/records.jsonl", "game": 1,
                                                  "ply": ply}).json()
        assert frame["svg"] == game.render_svg(record.position(ply))
        assert frame["plies"] == record.plies and frame["state"] == record.ply_index(ply)
    assert [e.get("move") for e in frame["events"]] == [m.get("move") for m in record.moves]


def test_tables_show_ratings_and_the_crosstable(served):
    _, client = served
    ladder = client.get("/api/ratings", params={"file": "ladder-zebres.json"}).json()
    assert ladder["kind"] == "ladder" and {r["agent"].split(":")[0] for r in ladder["ratings"]} == {
        "random", "greedy"}
    tour = client.get("/api/ratings", params={"file": "tour/tournament.json"}).json()
    assert tour["records"] == "tour/records.jsonl"
    cross = np.array(tour["crosstable"], dtype=float)
    assert np.isnan(cross[0, 0]) and cross[0, 1] + cross[1, 0] == pytest.approx(1)


def wait(client, job):
    for _ in range(600):
        status = client.get(f"/api/analyses/{job}").json()
        if status["done"]:
            return status
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def test_analysis_of_a_pasted_position_in_rounds_with_spots(served):
    _, client = served
    text = "z...../..G.../....../.l..../...... g 21 - move"
    r = client.post("/api/analyses", json={"agent": "mcts:sims=200", "game": "zebres",
                                           "position": text})
    assert r.status_code == 200, r.text
    status = wait(client, r.json()["id"])
    assert status["rounds"] == status["of"] == 4 and status["error"] is None
    result = status["result"]
    assert result["simulations"] == 200 and result["position"] == text
    assert sum(m["visits"] for m in result["moves"]) == 200
    # Impala's steps, on the track squares they reach (a1's column, b's, c's: positions 0-2)
    assert {m["move"]: m["spot"] for m in result["moves"]} == {
        "impala +1": [100.0, 47.0], "impala +2": [164.0, 47.0], "impala +3": [228.0, 47.0]}


def test_an_analysis_can_be_cancelled(served):
    _, client = served
    table = first_human_game(client, "zebres", ["human", "random"], seed=2)
    job = client.post("/api/analyses", json={"agent": "mcts:sims=500", "table": table["id"]},
                      headers=key(table)).json()["id"]
    assert client.delete(f"/api/analyses/{job}").json()["cancelled"]
    assert wait(client, job)["cancelled"]


def test_no_banjooli_response_shows_a_seat_another_seats_secrets(served):
    """Every raw response sent to seat 0 before the end, checked two ways: the only card
    named in it is its own (the others are 'card ?'), and it is the very same text when the
    other seats' cards and the berries seat 0 has not seen are redrawn."""
    _, client = served
    view = first_human_game(client, "banjooli", ["human", "random", "random"],
                            ["berries=true"], seed=5)
    table = client.app.state.tables[view["id"]]
    spectator = client.get(f"/api/tables/{view['id']}")  # no key: what is public only
    assert spectator.status_code == 200 and "cards=" not in spectator.text
    assert re.findall(r"card (\d)", spectator.text) == []
    rng = np.random.default_rng(0)
    own = int(table.state[0]["cards"][0])
    responses = 0
    while not view["over"]:
        body = client.get(f"/api/tables/{view['id']}", headers=key(view)).text
        for text in (body, json.dumps(view, ensure_ascii=False, separators=(",", ":"))):
            assert set(re.findall(r"card (\d)", text)) <= {str(own)}
            assert "cards=" not in text  # the notation holds every card: never sent
        saved = table.state
        for _ in range(20):  # a redraw may deal the same cards again
            table.state = table.game.resample_hidden(saved.copy(), 0, rng)
            if (table.state["cards"] != saved["cards"]).any():
                break
        assert (table.state["cards"] != saved["cards"]).any() or table.over
        assert table.view(0)["svg"] == json.loads(body)["svg"]
        assert json.dumps(table.view(0), ensure_ascii=False, separators=(",", ":")) == body
        table.state = saved
        responses += 1
        view = client.post(f"/api/tables/{view['id']}/move", headers=key(view), json={
            "action": view["moves"][-1]["action"], "version": view["version"]}).json()
    assert responses > 5 and view["position"] is not None  # at the end, all is shown


def test_a_record_written_elsewhere_replays_here(served, tmp_path):
    folder, client = served
    game = make_game("bonobo")
    start = game.init(1, 0)
    write_records(folder / "empty.jsonl", [{
        "format": "savanna-record/1", "game": "bonobo", "options": {"num_players": 2},
        "rules_version": None, "package_version": None, "git_commit": None, "seed": 0,
        "agents": ["a", "b"], "start": game.to_text(start), "moves": [], "returns": None,
        "info": {}}])
    frame = client.get("/api/replay", params={"file": "empty.jsonl", "game": 0, "ply": 0})
    assert frame.status_code == 200 and frame.json()["plies"] == 0
    assert ET.fromstring(frame.json()["svg"]).tag.endswith("svg")


@pytest.mark.parametrize("name, options", [("zebres", {}), ("bonobo", {"num_players": 3}),
                                           ("banjooli", {"berries": True})])
def test_move_spots_lie_on_the_picture_at_the_places_the_moves_name(name, options):
    """Along a random game, every legal move with a place of its own has a spot inside the
    drawing, and the moves that name a cell or spot (Zèbres' placements, swaps and Impala's
    steps, Bonobo's pawns, tiles and draw, Banjooli's berries, the ostriches its moves, sorcery,
    swaps, jokers and groups name, the directions of a point, the snake's landing) all have
    one."""
    game = make_game(name, **options)
    rng = np.random.default_rng(0)
    states = game.init(1, rng)
    placed = {"zebres": re.compile(r"[A-Z] [a-f][1-5]|swap|start|impala"),
              "bonobo": re.compile(r"pawn|tile|draw"),
              "banjooli": re.compile(r"berry|move|sorcery|swap|assign|group|left|straight|right"
                                     r"|back")}[name]
    while not game.is_terminal(states)[0]:
        if game.current_player(states)[0] < 0:
            game.apply_chance(states, game.sample_chance(states, rng))
            continue
        picture = game.render_drawing(states)
        spots = game.move_spots(states)
        for a in game.legal_actions(states[0]):
            named = bool(placed.match(game.action_to_string(states[0], a)))
            assert (a in spots) == named
            if named:
                x, y = spots[a]
                assert 0 < x < picture.width and 0 < y < picture.height
        game.step_inplace(states, rng.choice(game.legal_actions(states[0]), size=1))


def test_a_checkpoint_in_a_served_folder_plays(served):
    folder, client = served
    shutil.copy(baseline_path(make_game("zebres")), folder / "net.pt")
    view = first_human_game(client, "zebres", ["az:net.pt,sims=8", "human"])
    assert view["seat"] == 1 and view["seats"][0] == "az:net.pt,sims=8"  # as typed: no path
    record_agent = client.app.state.tables[view["id"]].labels[0]
    assert record_agent == f"az:checkpoint={folder / 'net.pt'},sims=8"  # the record's, whole
    assert view["version"] == 1 and view["moves"]  # the network has played its first move


def test_a_replay_hides_the_cards_from_a_seat_and_reveals_them_to_all(served):
    folder, client = served
    view = first_human_game(client, "banjooli", ["human", "random"], seed=7)
    end = play_out(client, view)
    file = end["record"]
    cards = [int(c) for c in read_record(folder / file).position(3)[0]["cards"][:2]]
    seat = client.get("/api/replay", params={"file": file, "game": 0, "ply": 3, "seat": 1})
    everything = client.get("/api/replay", params={"file": file, "game": 0, "ply": 3})
    assert set(re.findall(r"card (\d)", seat.text)) == {str(cards[1])}
    assert seat.json()["position"] is None
    assert set(re.findall(r"card (\d)", everything.text)) == set(map(str, cards))
    analysis = client.post("/api/analyses", json={"agent": "mcts:sims=40", "file": file,
                                                  "game": 0, "ply": 3})
    assert wait(client, analysis.json()["id"])["result"]["simulations"] == 40


def test_a_relative_path_is_looked_up_in_every_folder_and_never_leaves_them(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (second / "x.jsonl").write_text("")
    (tmp_path / "secret.jsonl").write_text("")
    (first / "out").symlink_to(tmp_path)
    assert confined("x.jsonl", (first, second), "file") == (second / "x.jsonl").resolve()
    # out/secret.jsonl: a/out leads outside, and b/out/secret.jsonl does not exist
    for text, status in [("y.jsonl", 404), ("../secret.jsonl", 404), ("out/secret.jsonl", 404),
                         ("../b/x.jsonl", 200), (str(second / "x.jsonl"), 200),  # inside b
                         (str(tmp_path / "secret.jsonl"), 404), ("/etc/passwd", 404)]:
        try:
            confined(text, (first, second), "file")
            assert status == 200, text
        except Refused as err:
            assert STATUS[err.kind] == status, text


def test_a_search_past_the_time_allowed_is_said_and_the_game_waits(tmp_path):
    limits = Limits(max_sims=10**7, max_seconds=0.5, save=tmp_path)
    with client_of(create_app(limits, token=TOKEN)) as client:
        r = client.post("/api/tables", json={"game": "zebres",
                                             "seats": ["mcts:sims=4000000", "human"]})
        # the game was made (its keys answered), and waits at the agent's move
        assert r.status_code == 200 and "longer than 0.5 s" in r.json()["notice"]
        table = client.app.state.tables[r.json()["id"]]
        assert table.events == []  # the search was stopped: nothing is played
        view = client.get(f"/api/tables/{table.id}",
                          headers={"X-Seat-Key": r.json()["keys"]["1"]}).json()
        assert view["agent_to_move"] and view["version"] == 0
        advance = client.post(f"/api/tables/{table.id}/advance",
                              headers={"X-Seat-Key": r.json()["keys"]["1"]})
        assert advance.status_code == 503 and table.events == []  # an error: no change
