"""The browser board (``savanna serve``) under use, end to end over HTTP.

    python -m savanna.benchmarks --board

The server runs as its own process (the ``savanna serve`` command beside this Python, two
search workers, ``--max-seconds 600`` so that the first search may compile), as a user starts
it; this module only speaks HTTP to it and drives Debian's chromium with Playwright. Four
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
  its workers apart) before and after; the connections that failed.

And two of the journal that keeps the unfinished games over a restart (``board.journal``),
measured in this process on a file in a temporary folder, as the server writes it:

* its cost per move: the time to write a table after one move (``Journal.save``, one
  committed SQLite statement, write-ahead log), the median and 90th percentile over every
  move of the games played for the next measure (every game and player count in turn, a
  random legal move for every seat, to their 40th decision or their end);
* the time to restore 100 of those games, unfinished, as ``savanna serve`` does at its start:
  read the journal, check the agents, replay every game from its seed and events.
"""
import http.client
import json
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np

from savanna.benchmarks.throughput import measured_configs
from savanna.registry import GAMES

__all__ = ["measure"]

# every game, with its fewest and most players, as -o options (those the board plays: /api/info)
CONFIGS = tuple((name, [f"{k}={v}" for k, v in options.items()])
                for name, options in measured_configs(most=True))
TOKEN = secrets.token_urlsafe(32)  # the server's token, shown by every request
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def request(base, method, path, body=None, key=None):
    """``(status, JSON)`` of one request (``key``: the seat's, X-Seat-Key)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"token {TOKEN}",
               **({"X-Seat-Key": key} if key else {})}
    req = urllib.request.Request(base + path, data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


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
                               {"action": move["action"], "version": view["version"]}, key)
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
    """The server process, once it answers."""
    command = Path(sys.executable).with_name("savanna")  # the installed command, as users run it
    process = subprocess.Popen(
        [str(command), "serve", str(folder), "--port", str(port),
         "--save", str(folder / "played"), "--workers", "2", "--max-seconds", "600",
         "--token", TOKEN],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for _ in range(600):
        try:
            request(f"http://127.0.0.1:{port}", "GET", "/api/info")
            return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"savanna serve ended: {process.stderr.read()}") from None
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("savanna serve did not answer in 60 s")


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


def watch(port, table, arrivals, errors):
    """One page of ``table``: its push connection read to the game's end, the arrival time of
    each position (``arrivals[version]``); a failure counted in ``errors``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("GET", f"/api/tables/{table}/events",
                     headers={"Authorization": f"token {TOKEN}"})
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
        request(base, "POST", f"/api/tables/{g['id']}/pace", {"paused": False}, g["control"])
    for t in threads:
        t.join()
    after = server.memory_info().rss
    spreads = [max(seen[v] for seen in pages_of) - min(seen[v] for seen in pages_of)
               for pages_of in arrivals for v in set.intersection(*map(set, pages_of))]
    return spreads, before, after, errors


def journal_costs(tables=100, plies=40):
    """``(seconds per journal write, seconds to restore, tables restored)``: ``tables``
    unfinished games of at most ``plies`` decisions (see the module docstring)."""
    from savanna.experiments.board.journal import JOURNAL, Journal
    from savanna.experiments.board.tables import Limits, Table

    with tempfile.TemporaryDirectory() as folder:
        limits = Limits(save=Path(folder))
        journal = Journal(str(Path(folder) / JOURNAL))
        writes, k = [], 0
        while len(journal.tables()) < tables:  # a game that ended leaves the journal
            game, options = CONFIGS[k % len(CONFIGS)]
            players = len(seats(game, options))
            table = Table.new(game, options, ["human"] * players, k, limits)
            rng = np.random.default_rng(k)
            while len(table.events) < plies and not table.over:
                mover = table.to_move
                moves = table.view(mover)["moves"]
                table.move(mover, moves[rng.integers(len(moves))]["action"], len(table.events))
                started = time.perf_counter()
                journal.save(table)
                writes.append(time.perf_counter() - started)
            k += 1
        journal.close()
        journal = Journal(str(Path(folder) / JOURNAL))
        started = time.perf_counter()
        found = journal.restore(limits, lambda snapshot: Table.restore(snapshot, limits))
        restore = time.perf_counter() - started
        journal.close()
    if len(found) != tables:
        raise RuntimeError(f"{tables - len(found)} journaled games were not restored")
    return writes, restore, len(found)


def measure(quick=False, progress=print):
    """``[(what, value, unit)]`` of the three measurements (see the module doc)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    rng = np.random.default_rng(0)
    progress("the journal: a write per move, 100 games restored")
    journal_play = journal_costs(tables=20 if quick else 100)
    journal_play = journal_costs(tables=20 if quick else 100)  # the first compiled the games
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
        finally:
            process.terminate()
            process.wait(10)
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
        (f"the journal: a table written after a move, median of {len(journal_play[0])} moves",
         1000 * statistics.median(journal_play[0]), "ms"),
        ("the same, 90th percentile", 1000 * float(np.percentile(journal_play[0], 90)), "ms"),
        (f"{journal_play[2]} unfinished games restored at a start (journal read, games "
         "replayed)", journal_play[1], "s"),
    ]
