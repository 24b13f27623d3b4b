"""The browser board (``savanna serve``) under use, end to end over HTTP.

    python -m savanna.benchmarks --board

The server runs as its own process (the ``savanna serve`` command beside this Python, two
search workers, ``--max-seconds 600`` so that the first search may compile), as a user starts
it; this module only speaks HTTP to it and drives Debian's chromium with Playwright. Five
measurements:

* a warm page ready: the page loaded again (after a first load) until its script has fetched
  what it needs (``body[data-ready]``), the median of 15 loads;
* a human move answered by ``az:baseline`` (100 simulations): the round trip of one
  ``POST /move`` on Zèbres, which returns after the network's search has replied, the median
  over every move it replied to in three games (after a first game, untimed, that loads the
  network and compiles the search);
* 20 games played at once by 20 scripted clients (a random legal move at a time, every game
  and player count in turn, against ``random``) to the end: the games finished, the requests
  answered with an error, the wall time;
* 50 pages watching 10 games of agents (``random`` against ``random`` on Zèbres, an agent's
  move each 0.1 s, which the server plays by itself) through the push channel, 5 pages a
  game: the time from a move's arrival at the first of its pages to its arrival at the last
  (the fan-out; the first arrival follows the move by the server's own push, a few
  milliseconds), its 95th percentile over every move; the server process's memory (resident,
  its workers apart) before and after; the connections that failed;
* seats first: a Zèbres table of two humans with as many spectators as a table admits
  (``board.hub.MAX_SPECTATORS_PER_TABLE``, push connections that never read a byte), its two
  seats' pages connected after them; 30 moves played: the time from each move's request to
  its arrival at each seat's page, the slowest and the median, and the moves a seat missed.

And two of the journal that keeps the unfinished games over a restart:

* the time to resume 100 unfinished games: made on a fresh server over HTTP (every game and
  player count in turn, humans in every seat, a random legal move each, to their 40th
  decision), the server stopped and started again on the same folder; the time it says it
  took to read its journal, check the agents and replay every game from its seed and events;
* its cost per move: the time to write a table after one move, as the server does (its
  snapshot dumped as JSON, one SQLite statement committed to a write-ahead log), here in this
  process with the snapshots
  the server journaled, each at every one of its moves; the median and 90th percentile.
"""
import functools
import http.client
import json
import re
import secrets
import shutil
import socket
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from savanna.benchmarks.board_server import api_request, free_port, start_serve
from savanna.benchmarks.throughput import measured_configs
from savanna.board.hub import MAX_SPECTATORS_PER_TABLE
from savanna.registry import GAMES

__all__ = ["measure"]

# every game, with its fewest and most players, as -o options (those the board plays: /api/info)
CONFIGS = tuple((name, [f"{k}={v}" for k, v in options.items()])
                for name, options in measured_configs(most=True))
TOKEN = secrets.token_urlsafe(32)  # the server's token, shown by every request
request = functools.partial(api_request, token=TOKEN, seconds=120)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def play(base, game, options, seats, rng, timings=None):
    """Play a game to the end with random legal moves for the human (seat 0); the number of
    requests that failed and whether it ended. ``timings`` receives the round trip in seconds
    of each move the agents replied to (not of those after which the human moves again:
    Zèbres' placement, then Impala's move)."""
    status, view = request(base, "POST", "/api/tables",
                           {"game": game, "options": options, "seats": seats,
                            "seed": int(rng.integers(2**31))})
    errors = int(status != 200)
    key = view.get("keys", {}).get("0")
    while status == 200 and not view["over"]:
        move = view["moves"][rng.integers(len(view["moves"]))]
        seen = len(view["log"])
        started = time.perf_counter()
        status, view = request(base, "POST", f"/api/tables/{view['id']}/move",
                               {"action": move["action"], "version": view["version"]}, key=key)
        elapsed = time.perf_counter() - started
        errors += status != 200
        replied = status == 200 and any(e["who"] > 0 for e in view["log"][seen:])
        if timings is not None and replied:  # not a move the human's turn goes on after
            timings.append(elapsed)
    return errors, status == 200 and view["over"]


def seats(game, options):
    """A human in seat 0 and ``random`` in the others."""
    players = next((int(o.split("=")[1]) for o in options if o.startswith("num_players=")),
                   GAMES[game].players[0])
    return ["human"] + ["random"] * (players - 1)


def serve(folder, port):
    """The server process on ``folder``, once it answers."""
    return start_serve(port, TOKEN, str(folder), "--save", str(folder / "played"),
                       "--workers", "2", "--max-seconds", "600")


def page_ready(url, loads):
    """Seconds from navigation to a ready page, for each of ``loads`` warm loads."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page()
        page.goto(f"{url}?token={TOKEN}")  # the cookie, as the printed address sets it
        page.wait_for_selector("body[data-ready=true]")
        for _ in range(loads):
            started = time.perf_counter()
            page.goto(url + f"?{len(times)}")
            page.wait_for_selector("body[data-ready=true]")
            times.append(time.perf_counter() - started)
        browser.close()
    return times


def watch(port, table, arrivals, errors, key=None):
    """One page of ``table`` (a spectator's, or ``key``'s seat's): its push connection read to
    the game's end, the arrival time of each position (``arrivals[version]``); a failure
    counted in ``errors``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("GET", f"/api/tables/{table}/events",
                     headers={"Authorization": f"token {TOKEN}",
                              **({"X-Seat-Key": key} if key else {})})
        response = conn.getresponse()
        if response.status != 200:
            errors.append(response.status)
            return
        kind = None
        while line := response.readline():
            if line.startswith(b"event: "):
                kind = line[7:].strip()
            elif kind == b"view" and line.startswith(b"data: "):
                now = time.perf_counter()
                version = int(re.search(rb'"version":(\d+)', line)[1])
                arrivals.setdefault(version, now)
                if b'"over":true' in line:
                    return
        errors.append("closed")
    except (OSError, http.client.HTTPException) as err:
        errors.append(type(err).__name__)
    finally:
        conn.close()


def pushed(port, pid, tables=10, pages=5):
    """The fan-out of each move to the ``pages`` pages of each of ``tables`` games of agents
    (seconds), the resident memory of the server (process ``pid``) before and after (bytes),
    and the failures."""
    import psutil

    server = psutil.Process(pid)
    base = f"http://127.0.0.1:{port}"
    before = server.memory_info().rss
    games = [request(base, "POST", "/api/tables", {"game": "zebres", "seats": ["random"] * 2,
                                                   "paused": True, "delay": 0.1})[1]
             for _ in range(tables)]
    arrivals = [[{} for _ in range(pages)] for _ in games]
    errors = []
    threads = [threading.Thread(target=watch, args=(port, g["id"], seen, errors))
               for g, pages_of in zip(games, arrivals) for seen in pages_of]
    for t in threads:
        t.start()
    time.sleep(1.0)  # every page connected, then the games go
    for g in games:
        request(base, "POST", f"/api/tables/{g['id']}/pace", {"paused": False}, key=g["control"])
    for t in threads:
        t.join()
    after = server.memory_info().rss
    spreads = [max(seen[v] for seen in pages_of) - min(seen[v] for seen in pages_of)
               for pages_of in arrivals for v in set.intersection(*map(set, pages_of))]
    return spreads, before, after, errors


def crowded(port, spectators=MAX_SPECTATORS_PER_TABLE, moves=30):
    """Seats first: a Zèbres table of two humans with ``spectators`` push connections that
    never read a byte, then both seats' pages; ``moves`` moves played. The seconds from each
    move's request to its arrival at each seat's page, and the failures."""
    base = f"http://127.0.0.1:{port}"
    view = request(base, "POST", "/api/tables", {"game": "zebres", "seats": ["human"] * 2,
                                                 "seed": 3})[1]
    table, keys = view["id"], view["keys"]
    crowd = []
    for _ in range(spectators):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(f"GET /api/tables/{table}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     f"Authorization: token {TOKEN}\r\n\r\n".encode())
        crowd.append(sock)
    arrivals, errors = [{}, {}], []
    threads = [threading.Thread(target=watch, args=(port, table, seen, errors, keys[str(p)]),
                                daemon=True)  # read until the server stops
               for p, seen in enumerate(arrivals)]
    try:
        time.sleep(2.0)  # the crowd and both seats connected
        for t in threads:
            t.start()
        time.sleep(1.0)
        sent = {}
        for _ in range(moves):
            if view["over"]:
                break
            key = keys[str(view["to_move"])]
            view = request(base, "GET", f"/api/tables/{table}", key=key)[1]  # its legal moves
            started = time.perf_counter()
            status, view = request(base, "POST", f"/api/tables/{table}/move",
                                   {"action": view["moves"][0]["action"],
                                    "version": view["version"]}, key=key)
            if status != 200:
                errors.append(status)
                break
            sent[view["version"]] = started
            deadline = time.perf_counter() + 30
            while (any(view["version"] not in seen for seen in arrivals)
                   and time.perf_counter() < deadline):
                time.sleep(0.001)
        delays = [seen[v] - at for v, at in sent.items() for seen in arrivals if v in seen]
        failures = errors + ["missed"] * (2 * len(sent) - len(delays))
    finally:
        for sock in crowd:
            sock.close()
    return delays, failures


JOURNAL = ".savanna-tables.sqlite3"  # where the server journals its games, in --save


def restored(port, tables=100, plies=40):
    """``(seconds to resume, games resumed, snapshots)``: ``tables`` unfinished games made on a
    fresh server (every game and player count in turn, a random legal move for every seat,
    to their ``plies``-th decision or end: one that ended makes room for another), the server
    stopped and started again on the same folder, as its own line says how long it took to
    resume them; the journal's snapshots as the server wrote them."""
    base = f"http://127.0.0.1:{port}"
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        process = serve(folder, port)
        try:
            unfinished, k = 0, 0
            while unfinished < tables:
                game, options = CONFIGS[k % len(CONFIGS)]
                players = len(seats(game, options))
                _, view = request(base, "POST", "/api/tables", {
                    "game": game, "options": options, "seats": ["human"] * players})
                keys = view["keys"]
                while view["version"] < plies and not view["over"]:
                    mover = str(view["to_move"])
                    _, view = request(base, "GET", f"/api/tables/{view['id']}", key=keys[mover])
                    action = view["moves"][rng.integers(len(view["moves"]))]["action"]
                    _, view = request(base, "POST", f"/api/tables/{view['id']}/move",
                                      {"action": action, "version": view["version"]},
                                      key=keys[mover])
                unfinished += not view["over"]
                k += 1
        finally:
            process.terminate()
            process.wait(10)
        with sqlite3.connect(folder / "played" / JOURNAL) as db:
            snapshots = [json.loads(text) for (text,) in
                         db.execute("SELECT snapshot FROM tables")]
        process = serve(folder, port)
        try:
            said = None
            for line in iter(process.stderr.readline, ""):  # after the compiler's lines, if any
                said = re.search(r"resumed (\d+) unfinished games \(([\d.]+) s\)", line)
                if said is not None:
                    break
        finally:
            process.terminate()
            process.wait(10)
    if said is None or int(said[1]) != len(snapshots):
        raise RuntimeError("the server did not say it resumed its games")
    return float(said[2]), int(said[1]), snapshots


def journal_writes(snapshots):
    """The seconds to write a table after each move, as the server's journal does (one
    ``INSERT OR REPLACE`` of its snapshot, committed to a write-ahead log with
    ``synchronous=NORMAL``): the snapshots of ``snapshots`` at each of their moves."""
    times = []
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(Path(folder) / JOURNAL, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, snapshot TEXT NOT NULL, "
                   "changed REAL NOT NULL)")
        for snapshot in snapshots:
            for k in range(1, len(snapshot["events"]) + 1):
                moved = {**snapshot, "events": snapshot["events"][:k]}
                started = time.perf_counter()
                text = json.dumps(moved)  # the server's dump too
                db.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?)",
                           (snapshot["id"], text, time.time()))
                times.append(time.perf_counter() - started)
        db.close()
    return times


def measure(quick=False, progress=print):
    """``[(what, value, unit)]`` of the three measurements (see the module doc)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as folder:
        process = serve(Path(folder), port)
        try:
            progress("page loads")
            ready = page_ready(base + "/", 5 if quick else 15)
            progress("az:baseline replies")
            warm = []  # the network loaded and the search compiled, untimed
            play(base, "zebres", [], ["human", "az:baseline"], rng, warm)
            replies = []
            for _ in range(1 if quick else 3):
                failed, _ = play(base, "zebres", [], ["human", "az:baseline"], rng, replies)
                if failed:
                    raise RuntimeError("a move against az:baseline was answered with an error")
            progress("20 games at once")
            played = set(request(base, "GET", "/api/info")[1]["played"])
            configs = [(game, options) for game, options in CONFIGS if game in played]
            for game, options in configs:  # compiled once before the clock starts
                play(base, game, options, seats(game, options), rng)
            outcomes = [None] * 20
            seeds = rng.integers(2**31, size=20)

            def client(k):
                game, options = configs[k % len(configs)]
                outcomes[k] = play(base, game, options, seats(game, options),
                                   np.random.default_rng(seeds[k]))

            started = time.perf_counter()
            threads = [threading.Thread(target=client, args=(k,)) for k in range(20)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - started
            progress("50 pages watching 10 games of agents")
            spreads, before, after, failed = pushed(port, process.pid)
            progress(f"{MAX_SPECTATORS_PER_TABLE} spectators on one table, its seats playing")
            crowd_delays, crowd_failed = crowded(port)
        finally:
            process.terminate()
            process.wait(10)
    progress("the journal: 100 unfinished games resumed, a write per move")
    resume, resumed, snapshots = restored(port, tables=20 if quick else 100)
    writes = journal_writes(snapshots)
    return [
        (f"warm page ready (median of {len(ready)} loads)", 1000 * statistics.median(ready),
         "ms"),
        (f"a human move answered by az:baseline, 100 simulations (median of {len(replies)} "
         "moves, Zèbres)", 1000 * statistics.median(replies), "ms"),
        ("the same, 90th percentile", 1000 * float(np.percentile(replies, 90)), "ms"),
        ("20 concurrent scripted games: finished", sum(o[1] for o in outcomes), "games"),
        ("20 concurrent scripted games: requests answered with an error",
         sum(o[0] for o in outcomes), "requests"),
        ("20 concurrent scripted games: wall time to the last end", wall, "s"),
        (f"50 pages on 10 games of agents: a move's fan-out to its 5 pages, 95th percentile "
         f"({len(spreads)} moves)", 1000 * float(np.percentile(spreads, 95)), "ms"),
        ("the same: the server's memory before the pages", before / 2**20, "MiB"),
        ("the same: the server's memory after the games", after / 2**20, "MiB"),
        ("the same: push connections that failed", len(failed), "connections"),
        (f"{MAX_SPECTATORS_PER_TABLE} spectators on one table: a seat's move to its arrival "
         f"at both seats' pages, the slowest of {len(crowd_delays)}",
         1000 * max(crowd_delays), "ms"),
        ("the same, median", 1000 * statistics.median(crowd_delays), "ms"),
        ("the same: moves a seat's page missed or requests refused", len(crowd_failed),
         "failures"),
        (f"the journal: a table written after a move, median of {len(writes)} moves",
         1e6 * statistics.median(writes), "µs"),  # whole units: a few hundredths of a ms
        ("the same, 90th percentile", 1e6 * float(np.percentile(writes, 90)), "µs"),
        (f"{resumed} unfinished games resumed at a start (journal read, games replayed)",
         1000 * resume, "ms"),
    ]
