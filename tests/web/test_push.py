"""The push channel (``GET /api/tables/ID/events``) and the server's game loop, without a browser:
each change reaches every page of the table, a game of agents plays itself with nobody asking,
and hostile clients (no token, another site, another table's key, a thousand idle connections,
a reader that never reads) neither get in nor slow the others down."""
import socket
import statistics
import time
from urllib.parse import urlsplit

from savanna.board.hub import MAX_PER_KEY, MAX_SPECTATORS_PER_TABLE
from tests.web.push import TOKEN, Watch, call


def new_table(address, game, seats, **fields):
    return call(address, "POST", "/api/tables", {"game": game, "seats": seats, **fields})


def answer_times(address, n=10):
    """The seconds ``GET /api/info`` took, ``n`` times."""
    times = []
    for _ in range(n):
        started = time.perf_counter()
        call(address, "GET", "/api/info")
        times.append(time.perf_counter() - started)
    return times


def at_version(version):
    return lambda _, kind, data: kind == "view" and data["version"] >= version


def test_each_change_reaches_every_page_of_the_table_and_its_seat_only(served):
    address, _ = served
    view = new_table(address, "bonobo", ["human", "human", "random"], seed=5)
    keys = view["keys"]
    pages = {0: Watch(address, view["id"], keys["0"], TOKEN),
             1: Watch(address, view["id"], keys["1"], TOKEN),
             None: Watch(address, view["id"], token=TOKEN)}
    try:
        for seat, page in pages.items():  # first the game as it stands, as that seat sees it
            assert page.wait_for(at_version(0))[2]["seat"] == seat
        moved = call(address, "POST", f"/api/tables/{view['id']}/move",
                     {"action": view["moves"][0]["action"], "version": view["version"],
                      "agents": False}, keys["0"])
        for seat, page in pages.items():  # the move, then seat 1 to move
            data = page.wait_for(at_version(moved["version"]))[2]
            assert data["log"][: len(moved["log"])] == moved["log"]
            assert bool(data["moves"]) == (seat == 1)
        presence = pages[None].wait_for(lambda _, kind, data: kind == "presence"
                                        and data["spectators"] == 1)[2]
        assert presence["seats"] == [1, 1, 0]
        undone = call(address, "POST", f"/api/tables/{view['id']}/undo", {}, keys["0"])
        for page in pages.values():  # an undo is a change too, pushed as the others
            page.wait_for(lambda _, kind, data: kind == "view" and data["log"] == undone["log"]
                          and data["can_undo"] is False)
        pages[1].close()
        pages[None].wait_for(lambda _, kind, data: kind == "presence"
                             and data["seats"] == [1, 0, 0])
    finally:
        for page in pages.values():
            page.close()


def test_a_game_of_agents_plays_itself_at_its_pace_with_nobody_asking(served):
    address, app = served
    view = new_table(address, "zebres", ["random", "random"], delay=0.2)
    table = app.state.tables[view["id"]]
    deadline = time.monotonic() + 60
    moments = []  # when each agent's move was played, seen from here, with no page open
    while len(moments) < 6 and time.monotonic() < deadline:
        if len(table.events) > len(moments):
            moments.append(time.monotonic())
        time.sleep(0.01)
    assert len(moments) == 6 and min(b - a for a, b in zip(moments, moments[1:])) > 0.15
    call(address, "POST", f"/api/tables/{view['id']}/pace", {"paused": True},
         view["control"])
    time.sleep(0.5)
    paused_at = len(table.events)
    time.sleep(0.6)
    assert len(table.events) == paused_at  # paused: the server waits
    watch = Watch(address, view["id"], token=TOKEN)
    try:
        stepped = call(address, "POST", f"/api/tables/{view['id']}/advance", {},
                       view["control"])
        assert stepped["version"] == paused_at + 1 and stepped["paused"]
        call(address, "POST", f"/api/tables/{view['id']}/pace", {"paused": False, "delay": 0},
             view["control"])
        end = watch.wait_for(lambda _, kind, data: kind == "view" and data["over"])[2]
        assert end["returns"] is not None and end["version"] == len(table.events)
    finally:
        watch.close()


def test_a_push_connection_is_checked_as_every_request(served):
    address, _ = served
    view = new_table(address, "bonobo", ["human", "random"])
    other = new_table(address, "bonobo", ["human", "random"])
    host = urlsplit(address).netloc
    cases = [({"Authorization": "token wrong"}, None, 401),             # a wrong token
             ({"Origin": "http://evil.example"}, TOKEN, 403),           # another site's page
             ({"Sec-Fetch-Site": "cross-site"}, TOKEN, 403),
             ({"Host": "evil.example"}, TOKEN, 403),                    # DNS rebinding
             ({"X-Seat-Key": other["keys"]["0"]}, TOKEN, 403),          # another table's key
             ({"X-Seat-Key": "x" * 22}, TOKEN, 403)]
    for headers, token, status in cases:
        watch = Watch(address, view["id"], token=token, headers=headers)
        assert watch.status == status, headers
        assert b"error" in watch.raw and view["keys"]["0"].encode() not in watch.raw
        watch.close()
    bare = Watch(address, view["id"])
    assert bare.status == 401
    bare.close()
    own = Watch(address, view["id"], token=TOKEN, headers={"Origin": f"http://{host}"})
    assert own.status == 200 and own.wait_for(at_version(0))[2]["seat"] is None
    own.close()


def test_a_thousand_idle_connections_and_a_reader_that_never_reads_slow_nobody(served):
    address, app = served
    url = urlsplit(address)
    quiet = answer_times(address)
    idle = []
    for _ in range(500):  # connections that never send a request
        idle.append(socket.create_connection((url.hostname, url.port)))
    tables = [new_table(address, "bonobo", ["human", "random"]) for _ in range(3)]
    for k in range(500):  # push connections nobody reads, spread over three tables
        table = tables[k % 3]["id"]
        sock = socket.create_connection((url.hostname, url.port))
        sock.sendall(f"GET /api/tables/{table}/events HTTP/1.1\r\nHost: {url.netloc}\r\n"
                     f"Authorization: token {TOKEN}\r\n\r\n".encode())
        idle.append(sock)
    # a reader that never reads, of a game of agents that changes as fast as it can
    fast = new_table(address, "zebres", ["random", "random"], paused=True)
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect((url.hostname, url.port))
    stuck.sendall(f"GET /api/tables/{fast['id']}/events HTTP/1.1\r\nHost: {url.netloc}\r\n"
                  f"Authorization: token {TOKEN}\r\n\r\n".encode())
    watch = Watch(address, fast["id"], token=TOKEN)
    try:
        call(address, "POST", f"/api/tables/{fast['id']}/pace", {"paused": False},
             fast["control"])
        busy = answer_times(address)
        end = watch.wait_for(lambda _, kind, data: kind == "view" and data["over"])
        assert end[2]["returns"] is not None  # the other page saw the game to its end
        # each answer as quick as without them (the median: the machine is shared)
        assert statistics.median(busy) < 0.2, (quiet, busy)
    finally:
        watch.close()
        for sock in (*idle, stuck):
            sock.close()


def spectators(address, table, n):
    """``n`` push connections without a key to ``table``, which never read a byte."""
    url = urlsplit(address)
    socks = []
    for _ in range(n):
        sock = socket.create_connection((url.hostname, url.port))
        sock.sendall(f"GET /api/tables/{table}/events HTTP/1.1\r\nHost: {url.netloc}\r\n"
                     f"Authorization: token {TOKEN}\r\n\r\n".encode())
        socks.append(sock)
    return socks


def test_a_thousand_spectators_on_a_table_crowd_out_neither_seat(served):
    """Seats first: a table's spectators fill their own room (the next is refused, told
    why), and both seats still connect and see every move (how soon is a speed figure, not a
    test's: ``savanna bench --board`` measures it on a crowded table)."""
    address, app = served
    view = new_table(address, "zebres", ["human", "human"], seed=3)
    table, keys = view["id"], view["keys"]
    crowd = spectators(address, table, MAX_SPECTATORS_PER_TABLE)
    seats = {}
    try:
        deadline = time.monotonic() + 120
        while len(app.state.hub.watchers.get(table, ())) < MAX_SPECTATORS_PER_TABLE:
            assert time.monotonic() < deadline, len(app.state.hub.watchers.get(table, ()))
            time.sleep(0.05)
        late = Watch(address, table, token=TOKEN)  # one spectator beyond the room
        assert late.status == 429 and b"spectators watch this game" in late.raw
        seats = {p: Watch(address, table, keys[str(p)], TOKEN) for p in (0, 1)}
        assert all(w.status == 200 for w in seats.values())
        seen = 0
        for _ in range(30):  # a bounded game: thirty moves at most
            if view["over"]:
                break
            mover = view["to_move"]
            view = call(address, "POST", f"/api/tables/{table}/move",
                        {"action": view["moves"][0]["action"], "version": view["version"]},
                        keys[str(mover)])
            for watch in seats.values():  # fails past its timeout
                watch.wait_for(at_version(view["version"]), timeout=30)
                seen += 1
            view = seats[view["to_move"]].views()[-1] if not view["over"] else view
        assert seen >= 20
        # a seat's own room is bounded too, apart from the spectators'
        more = [Watch(address, table, keys["0"], TOKEN) for _ in range(MAX_PER_KEY - 1)]
        extra = Watch(address, table, keys["0"], TOKEN)
        assert all(w.status == 200 for w in more) and extra.status == 429
        for w in (*more, extra, late):
            w.close()
    finally:
        for watch in seats.values():
            watch.close()
        for sock in crowd:
            sock.close()
