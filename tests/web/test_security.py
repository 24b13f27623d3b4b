"""``savanna serve`` attacked: a request without the token, a page of another site (DNS
rebinding, a cross-site form or ``text/plain`` POST, a frame), a seat played or looked at
without its key, the seed fished out of the answers or the dice out of undo, tables left to
fill the memory, and malformed input; each answer refused without a change and without a 500.
"""
import logging
import re
import shutil
import time
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

from savanna.board.lobby import estimate_bytes
from savanna.board.server import create_app
from savanna.board.tables import Limits, Table
from savanna.game import CHANCE
from savanna.records import read_record, write_records

TOKEN = "the-token"
AUTH = {"Authorization": f"token {TOKEN}"}
BASE = "http://127.0.0.1:8000"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def server(tmp_path):
    """A server (its folder served, games saved in played/), a client that shows the token,
    and the clock that times its idle tables."""
    clock = Clock()
    limits = Limits(max_sims=200, max_seconds=600, folders=(tmp_path,),
                    save=tmp_path / "played")
    app = create_app(limits, token=TOKEN, clock=clock)
    with TestClient(app, base_url=BASE, headers=AUTH) as client:
        yield client, clock, tmp_path


def create(client, game, seats, options=(), seed=None, **fields):
    body = {"game": game, "seats": seats, "options": list(options), **fields}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def seat(key):
    return {"X-Seat-Key": key}


# ----- the token -----------------------------------------------------------------------------
def test_a_request_without_the_token_is_a_401_that_says_how_to_get_in(server):
    client, _, _ = server
    stranger = TestClient(client.app, base_url=BASE)
    for method, url in [("GET", "/api/info"), ("GET", "/api/files"), ("POST", "/"),
                        ("POST", "/api/tables"), ("GET", "/api/tables/x/events")]:
        r = stranger.request(method, url, json={"game": "zebres", "seats": ["random"] * 2})
        assert r.status_code == 401, (method, url)
        assert "savanna serve printed" in r.text and "Authorization: token" in r.text
    # the page and its scripts hold no secret (a notebook's frame loads them with no cookie)
    for url in ("/", "/static/board.js"):
        r = stranger.get(url)
        assert r.status_code == 200 and TOKEN.encode() not in r.content
    assert stranger.get("/api/info", headers={"Authorization": "token wrong"}).status_code == 401
    assert stranger.get("/?token=wrong", follow_redirects=False).status_code == 401
    assert client.app.state.tables == {}
    # the printed address: a cookie, and the token out of the address bar
    r = stranger.get(f"/?token={TOKEN}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= {p.strip() for p in cookie.split(";")}
    assert stranger.get("/api/info").status_code == 200  # the cookie is enough now


def test_only_this_machines_names_may_be_in_the_host_header(server):
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1."""
    client, _, _ = server
    for host in ("evil.example", "127.0.0.1.evil.example", "localhost.evil", "",
                 "evil.example@127.0.0.1", "evil.example/127.0.0.1"):
        for method, url in [("GET", "/api/info"), ("GET", "/api/records?file=x.jsonl"),
                            ("POST", "/api/tables"), ("GET", "/")]:
            r = client.request(method, url, headers={"Host": host},
                               json={"game": "zebres", "seats": ["random"] * 2})
            assert r.status_code == 403, (host, method, url)
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "127.0.0.2"):
        assert client.get("/api/info", headers={"Host": host}).status_code == 200, host
    assert client.app.state.tables == {}
    named = create_app(Limits(), token=TOKEN, allow_hosts=["board.lab"])
    assert TestClient(named, base_url="http://board.lab", headers=AUTH).get(
        "/api/info").status_code == 200


def test_an_allowed_name_with_a_port_is_allowed_at_that_port_only():
    app = create_app(Limits(), token=TOKEN, allow_hosts=["board.test:8123", "Lab.test", "::5"])
    client = TestClient(app, base_url=BASE, headers=AUTH)
    for host, status in [("board.test:8123", 200), ("BOARD.test:8123", 200),
                         ("board.test:8124", 403), ("board.test", 403),
                         ("lab.test", 200), ("lab.test:1", 200), ("[::5]:8000", 200),
                         ("other.test:8123", 403)]:
        assert client.get("/api/info", headers={"Host": host}).status_code == status, host
    for bad in (["http://board.test"], ["board.test:99999"], ["board.test:"], ["a b"]):
        with pytest.raises(ValueError, match="--allow-host .*give NAME or NAME:PORT"):
            create_app(Limits(), token=TOKEN, allow_hosts=bad)


@pytest.mark.parametrize("headers, body", [
    ({"Origin": "http://evil.example", "Content-Type": "text/plain"},   # fetch, no preflight
     b'{"game": "zebres", "seats": ["random", "random"]}'),
    ({"Origin": "http://evil.example",                                  # an HTML form
      "Content-Type": "application/x-www-form-urlencoded"}, b"game=zebres&seats=random"),
    ({"Origin": "null", "Content-Type": "application/json"},             # a sandboxed frame
     b'{"game": "zebres", "seats": ["random", "random"]}'),
    ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"},  # no Origin
     b'{"game": "zebres", "seats": ["random", "random"]}'),
], ids=["text-plain", "form", "null-origin", "cross-site"])
def test_a_change_from_another_site_is_a_403_and_changes_nothing(server, headers, body):
    client, _, _ = server
    stranger = TestClient(client.app, base_url=BASE)
    stranger.get(f"/?token={TOKEN}")  # even with the user's cookie
    for who in (client, stranger):
        r = who.post("/api/tables", content=body, headers=headers)
        assert r.status_code == 403 and "refused" in r.json()["error"]
        for path in ("/api/analyses", "/api/readying"):
            assert who.post(path, content=body, headers=headers).status_code == 403
    assert client.app.state.tables == {}
    same = client.post("/api/tables", json={"game": "zebres", "seats": ["random", "random"]},
                       headers={"Origin": BASE, "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200  # the page itself may


def test_a_form_body_is_refused_even_without_origin_headers(server):
    client, _, _ = server
    r = client.post("/api/tables", content=b"game=zebres",
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and client.app.state.tables == {}


def test_every_answer_forbids_framing_and_sniffing_and_allows_no_other_origin(server):
    client, _, _ = server
    stranger = TestClient(client.app, base_url=BASE)
    answers = [client.get("/api/info"), client.get("/"), client.get("/static/board.js"),
               client.get("/api/nowhere"), stranger.get("/api/info"),
               client.get("/api/info", headers={"Host": "evil.example"}),
               client.options("/api/tables", headers={"Origin": "http://evil.example",
                                                      "Access-Control-Request-Method": "POST"})]
    for r in answers:
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["content-security-policy"] == "frame-ancestors 'self'"
        assert not any(h.startswith("access-control-") for h in r.headers), r.headers


def test_every_module_of_the_page_is_served_as_javascript(server):
    """The page's ES modules, followed from board.html through every import, load only as
    JavaScript (the answers say nosniff) and the page's policy lets them run."""
    client, _, _ = server
    page = client.get("/").text
    todo = re.findall(r'<script type="module" src="(/static/[\w.-]+)">', page)
    assert "/static/board.js" in todo
    seen = set()
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        r = client.get(url)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript"), url
        assert r.headers["content-security-policy"] == "frame-ancestors 'self'"
        todo += ["/static/" + name for name in re.findall(r'^import .* from "\./([\w.-]+)";$',
                                                           r.text, re.M)]
    assert len(seen) >= 8  # the page, its views, the drawing and what they share


# ----- seats are capabilities ----------------------------------------------------------------
def test_ids_and_keys_are_128_bit_secrets_given_only_when_the_game_is_made(server):
    client, _, _ = server
    views = [create(client, "banjooli", ["human", "human"], seed=0) for _ in range(2)]
    secrets = [v["id"] for v in views] + [k for v in views for k in v["keys"].values()] + [
        v["control"] for v in views]
    assert len(set(secrets)) == len(secrets) == 8
    assert all(re.fullmatch(r"[\w-]{22}", s) for s in secrets)
    assert sorted(views[0]["keys"]) == ["0", "1"]
    key = views[0]["keys"]["0"]
    again = client.get(f"/api/tables/{views[0]['id']}", headers=seat(key))
    assert key not in again.text and views[0]["control"] not in again.text
    position = "z...../..G.../....../.l..../...... g 21 - move"
    job = client.post("/api/analyses", json={"agent": "mcts:sims=8", "game": "zebres",
                                             "position": position})
    assert re.fullmatch(r"[\w-]{22}", job.json()["id"])


def test_a_seat_is_played_and_seen_only_with_its_key(server):
    """Two humans at Banjooli: without seat 0's key, nobody moves, undoes, analyses or looks
    as seat 0; a spectator sees no card."""
    client, _, _ = server
    view = create(client, "banjooli", ["human", "human"], ["berries=true"])
    table, (k0, k1), control = view["id"], (view["keys"]["0"], view["keys"]["1"]), view["control"]
    tables = client.app.state.tables
    cards = [int(c) for c in tables[table].state[0]["cards"][:2]]
    url = f"/api/tables/{table}"
    move = {"action": view["moves"][0]["action"], "version": view["version"]}

    def cards_shown(r):
        return {int(c) for c in re.findall(r"card (\d)", r.text)}

    assert view["seat"] == 0 and view["to_move"] == 0
    for headers, status in [({}, 403), (seat(k1), 409), (seat(control), 403),
                            (seat("x" * 22), 403)]:
        r = client.post(f"{url}/move", json=move, headers=headers)
        assert r.status_code == status, (headers, r.text)
    assert client.post(f"{url}/move", json={**move, "seat": 0}, headers=seat(k1)).status_code \
        == 400  # the body's seat is no way around the key
    assert tables[table].events == [] or tables[table].events[-1][0] == CHANCE
    spectator = client.get(url)
    assert spectator.status_code == 200 and spectator.json()["seat"] is None
    assert cards_shown(spectator) == set() and spectator.json()["moves"] == []
    assert cards_shown(client.get(url, headers=seat(k1))) == {cards[1]}
    assert cards_shown(client.get(url, headers=seat(k0))) == {cards[0]}
    assert client.get(url, headers=seat("nope")).status_code == 403
    analysis = client.post("/api/analyses", json={"agent": "mcts:sims=8", "table": table},
                           headers=seat(k1))
    assert analysis.status_code == 409  # not seat 1's turn: its search would show seat 0's card
    # seat 0 moves; seat 1 cannot take it back, nor can anyone without a key
    version = len(tables[table].events)
    moved = client.post(f"{url}/move", json=move, headers=seat(k0)).json()
    for headers, status in [({}, 403), (seat(k1), 409), (seat(control), 403)]:
        assert client.post(f"{url}/undo", headers=headers).status_code == status
        assert client.get(url, headers=seat(k0)).json()["version"] == moved["version"]
    undone = client.post(f"{url}/undo", headers=seat(k0))
    assert undone.status_code == 200 and undone.json()["version"] == version


def test_agents_are_asked_to_move_only_with_a_key_of_the_game(server):
    client, _, _ = server
    view = create(client, "zebres", ["random", "random"], paused=True)
    url = f"/api/tables/{view['id']}/advance"
    assert view["keys"] == {} and view["seat"] is None
    assert client.post(url).status_code == 403
    assert client.post(url, headers=seat("x")).status_code == 403
    assert client.post(url, headers=seat(view["control"])).json()["version"] == 1


# ----- secrets stay on the server ------------------------------------------------------------
def test_no_answer_holds_the_seed_before_a_banjooli_game_ends(server):
    """Every raw answer of a game, to its seats, a spectator and the agents' steps: neither the
    seed nor the digits of a seed given by the creator; at the end the record has it."""
    client, _, folder = server
    for given in (None, 987654321987):
        view = create(client, "banjooli", ["human", "random", "human"], ["berries=true"],
                      seed=given, paused=True)
        table = client.app.state.tables[view["id"]]
        secret = str(table.seed)
        keys, control = view["keys"], view["control"]
        raw = [client.post("/api/tables", json={
            "game": "banjooli", "seats": ["random", "human"], "seed": given}).content]
        rng = np.random.default_rng(1)
        while not view["over"]:
            raw.append(client.get(f"/api/tables/{view['id']}").content)
            for k in (*keys.values(), control):
                raw.append(client.get(f"/api/tables/{view['id']}", headers=seat(k)).content)
            if view["agent_to_move"]:
                r = client.post(f"/api/tables/{view['id']}/advance", headers=seat(control))
            else:
                mover = keys[str(view["to_move"])]
                view = client.get(f"/api/tables/{view['id']}", headers=seat(mover)).json()
                action = view["moves"][rng.integers(len(view["moves"]))]["action"]
                r = client.post(f"/api/tables/{view['id']}/move", headers=seat(mover),
                                json={"action": action, "version": view["version"],
                                      "agents": False})
            assert r.status_code == 200, r.text
            view = r.json()
            if not view["over"]:
                raw.append(r.content)
        assert len(raw) > 20
        for body in raw:
            assert secret.encode() not in body
            assert b'"seed":null' in body or b'"seed"' not in body
        assert view["seed"] == table.seed == read_record(table.saved).seed


def moves_named(view, prefix):
    return [m for m in view["moves"] if m["name"].startswith(prefix)]


def chance_after(client, view, key, action):
    """The chance outcomes the log shows right after ``action``."""
    r = client.post(f"/api/tables/{view['id']}/move", headers=seat(key),
                    json={"action": action, "version": view["version"], "agents": False})
    assert r.status_code == 200, r.text
    return [e["text"] for e in r.json()["log"][len(view["log"]) + 1:] if e["who"] == CHANCE]


@pytest.mark.parametrize("game, options, prefix", [
    ("banjooli", ["num_players=2"], "reroll"), ("bonobo", ["num_players=2"], "draw")])
def test_undo_and_the_same_move_draw_the_same_dice_and_tiles(server, game, options, prefix):
    """Banjooli's reroll of every die, Bonobo's tile draw: taken back and played again, three
    times; the record of the game then says where the moves were taken back."""
    client, _, _ = server
    view = create(client, game, ["human", "human"], options)
    keys = view["keys"]
    while not moves_named(view, prefix):  # play on until the move is offered
        k = keys[str(view["to_move"])]
        view = client.post(f"/api/tables/{view['id']}/move", headers=seat(k), json={
            "action": view["moves"][-1]["action"], "version": view["version"]}).json()
    mover = keys[str(view["to_move"])]
    action = max(moves_named(view, prefix), key=lambda m: len(m["name"]))["action"]
    draws = []
    for _ in range(3):
        draws.append(chance_after(client, view, mover, action))
        assert client.post(f"/api/tables/{view['id']}/undo", headers=seat(mover)).json()[
            "version"] == view["version"]
    assert draws[0] and draws == [draws[0]] * 3
    table = client.app.state.tables[view["id"]]
    assert [t["at"] for t in table.takebacks] == [view["version"]] * 3
    assert table.record().takebacks == table.takebacks


def test_a_record_keeps_its_takebacks_and_old_records_still_read(tmp_path):
    table = Table.new("zebres", {}, ["human", "human"], 3, Limits(save=tmp_path))
    mover, at = table.to_move, len(table.events)
    first = table.view(mover)["moves"][0]["action"]
    table.move(mover, first, at)
    undone = len(table.events) - at
    table.undo(mover)
    table.move(mover, first, at)
    path = write_records(tmp_path / "r.jsonl", [table.record()])
    again = read_record(path)
    assert again.takebacks == [{"seat": mover, "at": at, "undone": undone}]
    assert len(again.states()) == len(again.moves) + 1 == len(table.events) + 1
    old = table.record().to_json()
    del old["takebacks"]  # a record written before takebacks existed
    write_records(tmp_path / "old.jsonl", [old])
    assert read_record(tmp_path / "old.jsonl").takebacks == []


# ----- tables that expire ------------------------------------------------------------------
def test_an_idle_table_is_freed_and_a_used_one_kept(server):
    client, clock, _ = server
    idle = create(client, "zebres", ["human", "random"])
    used = create(client, "zebres", ["human", "random"])
    clock.now += 50 * 60
    assert client.get(f"/api/tables/{used['id']}").status_code == 200
    clock.now += 11 * 60  # idle for 61 minutes, the other for 11
    create(client, "zebres", ["human", "random"])  # a new game sweeps
    assert idle["id"] not in client.app.state.tables
    assert client.get(f"/api/tables/{idle['id']}").status_code == 404
    assert client.get(f"/api/tables/{used['id']}").status_code == 200
    clock.now += 61 * 60  # asked for after an hour: freed then
    assert client.get(f"/api/tables/{used['id']}").status_code == 404


def test_the_games_held_are_capped_in_memory_as_well_as_in_number(tmp_path):
    """The cap counts what the server holds: a table's states and bookkeeping. A network
    agent is a spec there (its network lives in the search workers, bounded by the pool)."""
    small = estimate_bytes(Table.new("zebres", {}, ["human", "random"], 0, Limits()))
    assert estimate_bytes(Table.new("zebres", {}, ["az:baseline,sims=2", "human"], 0,
                                    Limits())) == small
    limits = Limits(max_memory=small * 5 // 2, save=tmp_path)
    with TestClient(create_app(limits, token=TOKEN), base_url=BASE, headers=AUTH) as client:
        networked = create(client, "zebres", ["az:baseline,sims=2", "human"])
        url = f"/api/tables/{networked['id']}"
        deadline = time.monotonic() + 600  # the first search of a fresh install compiles
        while client.get(url).json()["version"] < 1:  # its agent moved, in a worker
            assert time.monotonic() < deadline
            time.sleep(0.1)
        create(client, "zebres", ["human", "random"])
        r = client.post("/api/tables", json={"game": "zebres", "seats": ["human", "random"]})
        assert r.status_code == 429 and "MiB" in r.json()["error"]
        assert len(client.app.state.tables) == 2


def test_a_finished_game_is_written_even_when_save_became_a_file(tmp_path, caplog):
    """--save replaced by a file after the start: the game is written elsewhere, said in one
    log line, and the answer is no error."""
    save = tmp_path / "played"
    save.mkdir()
    limits = Limits(save=save)
    with TestClient(create_app(limits, token=TOKEN), base_url=BASE, headers=AUTH) as client:
        view = create(client, "zebres", ["human", "random"], seed=4)
        shutil.rmtree(save)  # the journal of the games in progress with it
        save.write_text("")
        key = view["keys"]["0"]
        with caplog.at_level(logging.WARNING):
            while not view["over"]:
                r = client.post(f"/api/tables/{view['id']}/move", headers=seat(key), json={
                    "action": view["moves"][0]["action"], "version": view["version"]})
                assert r.status_code == 200, r.text
                view = r.json()
    table = client.app.state.tables[view["id"]]
    assert Path(table.saved).is_file() and read_record(table.saved).returns
    assert view["record"] == Path(table.saved).name  # the page sees no folder of the server
    lines = [r.getMessage() for r in caplog.records if r.name.endswith("saving")]
    assert len(lines) == 1 and str(save) in lines[0] and table.saved in lines[0]


def test_two_servers_saving_in_one_folder_write_two_files(tmp_path):
    limits = Limits(save=tmp_path)
    tables = [Table.new("zebres", {}, ["random", "random"], 0, limits) for _ in range(2)]
    for table in tables:  # the same seed, the same game, the same second
        table.play_agents()
    assert tables[0].saved != tables[1].saved and len(list(tmp_path.iterdir())) == 2


# ----- malformed input -----------------------------------------------------------------------
def test_no_malformed_request_gets_a_500_or_changes_a_game(server):
    client, _, folder = server
    (folder / ".hidden").mkdir()
    write_records(folder / ".hidden" / "secret.jsonl", [read_record_like()])
    (folder / "notes.jsonl").write_text('{"format": "TOP-SECRET-VALUE"}\n')
    (folder / b"caf\xe9.jsonl".decode("utf-8", "surrogateescape")).write_bytes(b"")
    view = create(client, "banjooli", ["human", "random", "random"], seed=2)
    key = view["keys"]["0"]
    url = f"/api/tables/{view['id']}"
    while not view["agent_to_move"]:  # seat 0 plays its turn; the agents wait
        view = client.post(f"{url}/move", headers=seat(key), json={
            "action": view["moves"][0]["action"], "version": view["version"],
            "agents": False}).json()
    deadline = time.monotonic() + 600  # the agents play on their own (their first search
    while client.get(url, headers=seat(key)).json()["agent_to_move"]:  # compiles)
        assert time.monotonic() < deadline
        time.sleep(0.1)
    deep = b"[" * 1000 + b"]" * 1000
    cases = [
        ("POST", "/api/tables", deep, {}),
        ("POST", f"{url}/move", b'{"action": ' + deep + b"}", seat(key)),
        ("POST", "/api/analyses", b'{"agent": ' + b'{"a": ' * 1000 + b"1" + b"}" * 1000
         + b"}", {}),
        ("POST", f"{url}/move", b'{"action": 0, "version": 0, "agents": 1}', seat(key)),
        ("POST", f"{url}/move", b"\xff\xfe{}", seat(key)),
        ("POST", f"{url}/advance", b"{}", {}),                     # no key: after it moved
        ("POST", f"{url}/advance", b"{}", seat("wrong")),
        ("POST", f"{url}/advance", b'{"seat": 99}', seat(key)),
        ("POST", f"{url}/undo", b'{"seat": 99}', seat(key)),       # before anything changes
        ("POST", f"{url}/undo", b"{}", seat("wrong")),
        ("GET", f"{url}?seat=1", None, seat(key)),
        ("GET", "/api/records?file=.hidden/secret.jsonl", None, {}),
        ("GET", "/api/records?file=notes.jsonl", None, {}),
        ("GET", "/api/tables/%ff%fe", None, {}),
    ]
    before = client.get(url, headers=seat(key)).json()
    for method, path, body, headers in cases:
        r = client.request(method, path, content=body,
                           headers={"Content-Type": "application/json", **headers})
        what = f"{method} {path} {str(body)[:60]}"
        assert 400 <= r.status_code < 500, f"{what}: {r.status_code} {r.text}"
        assert list(r.json()) == ["error"] and "TOP-SECRET" not in r.text, what
        assert client.get(url, headers=seat(key)).json() == before, what
    listed = client.get("/api/files")
    assert listed.status_code == 200
    assert [f["file"] for f in listed.json()["files"]] == ["notes.jsonl"]


def read_record_like():
    table = Table.new("zebres", {}, ["random", "random"], 0, Limits())
    return table.record()


# ----- hostile names and headers: a 4xx in one line, no path of the server ----------------------
def paths_of_the_server(folder):
    return [str(folder), str(Path(folder).resolve()), str(Path(__file__).resolve().parents[2])]


def test_a_name_too_long_a_nul_byte_or_a_malformed_origin_is_a_4xx_without_a_path(server):
    client, _, folder = server
    long = "a" * 300 + ".jsonl"  # longer than the OS allows a file name
    cases = [("GET", f"/api/records?file={long}", None, {}),
             ("GET", f"/api/record?file={long}&game=0", None, {}),
             ("GET", f"/api/replay?file={long}&game=0&ply=0", None, {}),
             ("GET", f"/api/ratings?file={'a' * 300}.json", None, {}),
             ("GET", "/api/records?file=" + "a/" * 2000 + "b.jsonl", None, {}),
             ("POST", "/api/analyses", {"agent": "random", "file": long, "game": 0, "ply": 0},
              {}),
             ("POST", "/api/reviews", {"file": long, "game": 0}, {})]
    for spec in ["az:x\0.pt", "az:checkpoint=a\0b", f"az:{'a' * 300}.pt",
                 "mcts:sims=8,checkpoint=\0", "az:" + "a/" * 1500 + "b.pt"]:
        cases.append(("POST", "/api/tables", {"game": "zebres", "seats": ["human", spec]}, {}))
    for origin in ["http://[::1", "http://[", "http://[::1]:80:80", "http://a:b@[x]",
                   "\x7f://[::]"]:
        cases.append(("POST", "/api/tables", {"game": "zebres", "seats": ["human", "random"]},
                      {"Origin": origin}))
    for method, url, body, headers in cases:
        r = client.request(method, url, json=body, headers=headers)
        what = f"{method} {url[:60]} {str(body)[:80]} {headers}"
        assert 400 <= r.status_code < 500, f"{what}: {r.status_code} {r.text[:300]}"
        assert "\n" not in r.json()["error"], what
        assert not any(p in r.text for p in paths_of_the_server(folder)), (what, r.text)
    assert client.app.state.tables == {}


def test_errors_name_files_as_requests_do_and_a_bug_says_no_more_than_that(server, monkeypatch):
    client, _, folder = server
    (folder / "sub").mkdir()
    (folder / "sub" / "bad.jsonl").write_bytes(b"\xff\xfe\n")
    (folder / "ladder.json").write_text("{")
    (folder / "x.pt").write_bytes(b"PK\x03\x04 not a checkpoint")
    answers = [client.get("/api/records?file=sub/bad.jsonl"),
               client.get("/api/ratings?file=ladder.json"),
               client.post("/api/tables", json={"game": "zebres", "seats": ["human", "az:x.pt"]})]
    for r in answers:
        assert r.status_code == 400 and not any(p in r.text for p in paths_of_the_server(folder))
    assert "'sub/bad.jsonl'" in answers[0].json()["error"]
    assert "'x.pt'" in answers[2].json()["error"]

    def broken(self, file):  # a bug that would tell where the server's files are
        raise OSError(f"[Errno 5] Input/output error: '{folder / file}'")

    monkeypatch.setattr("savanna.board.served_files.Replays.listing", broken)
    quiet = TestClient(client.app, base_url=BASE, headers=AUTH, raise_server_exceptions=False)
    r = quiet.get("/api/records?file=sub/bad.jsonl")
    assert r.status_code == 500 and list(r.json()) == ["error"]
    assert str(folder) not in r.text and "Errno" not in r.text


def test_a_checkpoint_larger_than_the_board_reads_is_refused_unread(server, monkeypatch):
    """A 1 GiB file (sparse) that starts like a checkpoint, named by a seat or an analysis."""
    client, _, folder = server
    with open(folder / "big.pt", "wb") as f:
        f.write(b"savanna-checkpoint\nsavanna-az 1 0\n")
        f.truncate(1 << 30)
    opened = []
    monkeypatch.setattr("savanna.agents.models.checkpoint.open",
                        lambda *a: opened.append(a) or open(*a), raising=False)
    for r in [client.post("/api/tables", json={"game": "zebres", "seats": ["human", "az:big.pt"]}),
              client.post("/api/analyses", json={"agent": "az:checkpoint=big.pt", "game": "zebres",
                                                 "position": "z...../..G.../....../.l..../......"
                                                             " g 21 - move"})]:
        assert r.status_code == 400, r.text
        assert "big.pt is 1,073,741,824 bytes; the board reads agent files of at most" in r.text
    assert opened == [] and client.app.state.tables == {}
