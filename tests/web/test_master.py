"""One place changes a table (``board.master``): every change is checked, journaled and told,
and a refused one changes nothing, tells nobody and writes nothing; a change that changes
nothing (a pace without a field, a pace after the end) is refused; what the server keeps per
table goes with the table."""
import time

from starlette.testclient import TestClient

from savanna.board.server import create_app
from savanna.board.tables import Limits

TOKEN = "a-master-test-token"


def client_of(app):
    return TestClient(app, base_url="http://127.0.0.1",
                      headers={"Authorization": f"token {TOKEN}"})


def counted(app):
    """The pushes and journal writes the app makes, counted per table."""
    counts = {"published": 0, "journaled": 0}
    hub, journal = app.state.hub, app.state.journal

    def published(table, publish=hub.publish):
        counts["published"] += 1
        publish(table)

    def journaled(table, save=journal.save):
        counts["journaled"] += 1
        save(table)

    hub.publish, journal.save = published, journaled
    return counts


def test_a_change_is_journaled_and_told_once_and_a_refused_one_neither(tmp_path):
    app = create_app(Limits(save=tmp_path), workers=1, token=TOKEN)
    with client_of(app) as client:
        view = client.post("/api/tables", json={"game": "zebres",
                                                "seats": ["human", "human"]}).json()
        url, key = f"/api/tables/{view['id']}", {"X-Seat-Key": view["keys"]["0"]}
        counts = counted(app)
        refusals = [
            ("move", {"action": view["moves"][0]["action"], "version": 5}, key, 409),  # stale
            ("move", {"action": view["moves"][0]["action"], "version": 0}, {}, 403),
            ("move", {"action": 10**6, "version": 0}, key, 400),
            ("undo", {}, key, 409),                              # nothing to undo
            ("pace", {}, key, 400),                              # says nothing to change
            ("pace", {"delay": 1}, {}, 403),                     # a spectator
            ("advance", {}, key, 409),                           # no agent here
        ]
        for route, body, headers, status in refusals:
            r = client.post(f"{url}/{route}", json=body, headers=headers)
            assert r.status_code == status, (route, body, r.text)
        assert counts == {"published": 0, "journaled": 0}
        moved = client.post(f"{url}/move", json={"action": view["moves"][0]["action"],
                                                 "version": 0}, headers=key)
        assert moved.status_code == 200
        assert counts == {"published": 1, "journaled": 1}
        snapshot = app.state.journal.tables()[0][0]
        assert snapshot["events"] == [list(e) for e in app.state.tables[view["id"]].events]
        assert client.post(f"{url}/pace", json={"delay": 0.5}, headers=key).status_code == 200
        assert counts == {"published": 2, "journaled": 2}


def test_the_pace_of_a_finished_game_is_refused_and_tells_nobody(tmp_path):
    app = create_app(Limits(save=tmp_path), workers=1, token=TOKEN)
    with client_of(app) as client:
        view = client.post("/api/tables", json={"game": "zebres", "seats": ["random", "random"],
                                                "seed": 1}).json()
        url = f"/api/tables/{view['id']}"
        deadline = time.monotonic() + 600
        while not client.get(url).json()["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        counts = counted(app)
        r = client.post(f"{url}/pace", json={"paused": True},
                        headers={"X-Seat-Key": view["control"]})
        assert r.status_code == 409 and "over" in r.json()["error"]
        assert counts == {"published": 0, "journaled": 0}
        assert app.state.journal.tables() == []  # a finished game leaves the journal


def test_what_the_server_keeps_per_table_goes_with_the_table(tmp_path):
    """Pages that came and went, agents that played, tables freed when idle: no map of the
    hub, the referee, the lobby or the journal keeps an entry for them."""
    now = [0.0]
    app = create_app(Limits(save=tmp_path, idle_minutes=1), workers=1, token=TOKEN,
                     clock=lambda: now[0])
    with client_of(app) as client:
        ids = []
        for seed in range(5):
            view = client.post("/api/tables", json={"game": "zebres", "seed": seed,
                                                    "seats": ["human", "random"]}).json()
            ids.append(view["id"])
            with client.stream("GET", f"/api/tables/{view['id']}/events") as events:
                next(events.iter_lines())  # the page saw the game, then leaves
        hub, referee = app.state.hub, app.state.master.referee
        deadline = time.monotonic() + 10
        while hub.watchers or hub.presence or hub._cache or referee.tasks:
            assert time.monotonic() < deadline, (hub.watchers, hub.presence, referee.tasks)
            time.sleep(0.05)
        assert hub.keyed == hub.spectators == 0
        now[0] += 120  # every table idle past the limit: the next new table sweeps them
        client.post("/api/tables", json={"game": "zebres", "seats": ["human", "human"]})
        lobby = app.state.lobby
        for held in (lobby.tables, lobby.seen, lobby.locks, lobby.sizes):
            assert not set(ids) & set(held)
        assert {s["id"] for s, _ in app.state.journal.tables()}.isdisjoint(ids)
