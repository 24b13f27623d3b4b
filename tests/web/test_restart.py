"""Tables that survive the server: ``savanna serve`` killed with SIGKILL in the middle of a
three-player Bonobo game with an AlphaZero agent, started again on the same save folder. The
open pages (a host and a guest in browsers of their own, and a spectator) say they are not
live, reconnect by themselves, and the game ends with every earlier move, the same secrets,
and no seed shown before the end. Without a browser: a table restored from its journal is the
table it was, and the journal forgets what it should."""
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from savanna.board.journal import JOURNAL, Journal
from savanna.board.tables import Limits, Table
from savanna.records import read_record
from tests.web.browser import needs_chromium
from tests.web.test_live import move, open_page, to_move

TOKEN = "a-restart-test-token"
DOWN = ("Failed to load resource: net::ERR_CONNECTION_REFUSED",
        "Failed to load resource: net::ERR_INCOMPLETE_CHUNKED_ENCODING",
        "Failed to load resource: net::ERR_CONNECTION_RESET",
        "Failed to load resource: net::ERR_EMPTY_RESPONSE")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port, save):
    """``savanna serve`` on 127.0.0.1:``port`` saving to ``save``, in a process group of its
    own (its search workers with it); returns once it printed its address."""
    env = {**os.environ, "SAVANNA_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "savanna.experiments", "serve", "--port", str(port), "--workers",
         "1", "--max-sims", "100", "--save", str(save)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
        start_new_session=True)
    line = server.stdout.readline()
    assert re.match(rf"savanna serve: http://127\.0\.0\.1:{port}/\?token=", line), line
    return server


def kill(server):
    """SIGKILL to the server and its workers: no shutdown of any kind."""
    os.killpg(server.pid, signal.SIGKILL)
    server.wait(30)


def journaled(save, table_id):
    """The journal's snapshot of ``table_id``, read as another process would."""
    with sqlite3.connect(save / JOURNAL) as db:
        row = db.execute("SELECT snapshot FROM tables WHERE id = ?", (table_id,)).fetchone()
    return json.loads(row[0]) if row else None


def seat_view(page, table_id, seat):
    """The game as ``seat`` sees it, asked by ``page`` with the key its screen holds."""
    return page.evaluate("""async ([id, seat]) => {
        const keys = JSON.parse(localStorage.getItem(`savanna-keys/${id}`));
        const r = await fetch(`/api/tables/${id}`, { headers: { "X-Seat-Key": keys[seat] } });
        return await r.json(); }""", [table_id, str(seat)])


@needs_chromium
def test_a_game_killed_mid_way_resumes_on_the_open_pages_after_a_restart(browser, tmp_path):
    port, save = free_port(), tmp_path / "played"
    server = start_server(port, save)
    pages = []
    try:
        address = f"http://127.0.0.1:{port}/"
        host = open_page(browser, f"{address}?token={TOKEN}")
        host.select_option("#game", "bonobo")
        host.set_checked("#watch", False)
        host.fill("#options", "num_players=3")
        host.fill("#seats", "human,human,az:baseline")
        host.click("#start")
        host.wait_for_selector("#invite-spectate")
        table_id = host.locator("#play-panel").get_attribute("data-table")
        guest = open_page(browser, host.locator("#invite-1").input_value())
        spectator = open_page(browser, host.locator("#invite-spectate").input_value())
        pages = [host, guest, spectator]
        seats = {0: host, 1: guest}

        def state(page):
            return int(page.locator("#board").get_attribute("data-state"))

        def play_one():
            """One human move by whichever page is to move; its version before."""
            deadline = time.monotonic() + 120
            while True:
                mover = seats.get(seat_view(host, table_id, 0)["to_move"])
                if mover is not None and to_move(mover):
                    before = state(mover)
                    move(mover)
                    mover.wait_for_function("Number(document.querySelector('#board')"
                                            f".dataset.state) > {before}")
                    return before
                assert time.monotonic() < deadline, "no page came to move"
                time.sleep(0.05)

        while True:  # into the game, until the agent has moved and a human move was made
            play_one()
            snapshot = journaled(save, table_id)
            agent_moves = [e for e in snapshot["events"] if e[0] == 2]
            if len(agent_moves) >= 2 and seat_view(host, table_id, 0)["agent_to_move"]:
                break
        before = {p: seat_view(host if p == 0 else guest, table_id, p) for p in (0, 1)}
        host_key = json.loads(host.evaluate(f"localStorage.getItem('savanna-keys/{table_id}')"))
        kill(server)  # the agent's move in flight (it was to move a moment ago)
        kept = journaled(save, table_id)  # every change committed before the kill
        assert len(kept["events"]) >= before[0]["version"]
        seed = kept["seed"]
        assert all(len(h) == 64 for h in kept["keys"].values())
        assert host_key["0"] not in json.dumps(kept)  # the keys are kept hashed only
        for page in pages:
            page.wait_for_selector("#live-state:not([hidden])")
            assert "Not live" in page.locator("#live-state").text_content()
        server = start_server(port, save)
        for page in pages:  # back by themselves, the game as it was (or the agent moved on)
            page.wait_for_selector("#live-state", state="hidden")
            page.wait_for_function("Number(document.querySelector('#board').dataset.state) >= "
                                   f"{len(kept['events'])}")
        after = {p: seat_view(host if p == 0 else guest, table_id, p) for p in (0, 1)}
        for p in (0, 1):  # every earlier move, as each seat saw it
            assert after[p]["log"][: len(before[p]["log"])] == before[p]["log"]
            assert after[p]["seed"] is None
        resumed = journaled(save, table_id)
        assert resumed["events"][: len(kept["events"])] == kept["events"]
        assert resumed["seed"] == seed  # the same secrets: the same dice and deals to come

        deadline = time.monotonic() + 900
        while not seat_view(host, table_id, 0)["over"]:
            for page in pages:
                assert str(seed) not in page.content()
            if seat_view(host, table_id, 0)["to_move"] in seats:
                play_one()
            else:
                time.sleep(0.05)  # the agent's turn
            assert time.monotonic() < deadline
        for page in pages:  # the browser logs the connections the kill broke, nothing else
            page.wait_for_selector("#winner")
            assert page.errors and all(e.startswith(DOWN) for e in page.errors), page.errors
        records = list(save.glob("bonobo-*.jsonl"))
        assert len(records) == 1
        record = read_record(records[0])
        assert record.seed == seed
        events = [[-1, m["chance"]] if "chance" in m else [m["player"], m["action"]]
                  for m in record.moves]
        assert events[: len(kept["events"])] == kept["events"]
        assert journaled(save, table_id) is None  # a finished game leaves the journal
    finally:
        for page in pages:
            page.context.close()
        if server.poll() is None:
            kill(server)


def test_a_table_restored_from_its_journal_is_the_table_it_was(tmp_path):
    """Every seat's view, the undo points and the chance to come, after moves, an undo and a
    pace change; a key opens the same seat, and the journal holds no key in clear."""
    limits = Limits(save=tmp_path)
    table = Table.new("bonobo", {}, ["human", "human", "random"], 11, limits, delay=0.5)
    keys = dict(table.keys)
    for _ in range(6):
        if table.over:
            break
        mover = table.to_move
        table.move(mover, table.view(mover)["moves"][0]["action"], len(table.events))
        table.play_agents()
    table.undo(table.undo_points[-1][0])
    table.set_pace(paused=True)
    journal = Journal.in_folder(tmp_path)
    journal.save(table)
    assert all((tmp_path / f"{JOURNAL}{end}").stat().st_mode & 0o077 == 0 for end in ("", "-wal"))
    [(snapshot, idle)] = journal.tables()
    assert idle < 60 and not any(k in json.dumps(snapshot) for k in keys.values())
    again = Table.restore(snapshot, limits)
    for seat in (None, 0, 1, 2):
        assert again.view(seat) == table.view(seat)
    assert [p[:2] for p in again.undo_points] == [p[:2] for p in table.undo_points]
    assert again.seat_of(keys[0]) == 0 and again.seat_of(keys[1]) == 1
    for each in (table, again):  # the same next moves draw the same chance
        mover = each.to_move
        each.move(mover, each.view(mover)["moves"][-1]["action"], len(each.events))
        each.play_agents()
    assert again.events == table.events and again.view(0) == table.view(0)


def test_the_journal_forgets_finished_and_idle_tables(tmp_path):
    limits = Limits(save=tmp_path, idle_minutes=1)
    now = [1000.0]
    journal = Journal(str(tmp_path / JOURNAL), clock=lambda: now[0])
    done = Table.new("zebres", {}, ["random", "random"], 0, limits)
    done.play_agents()
    waiting = Table.new("zebres", {}, ["human", "random"], 0, limits)
    idle = Table.new("zebres", {}, ["human", "random"], 1, limits)
    journal.save(idle)
    now[0] += 45
    for table in (done, waiting):
        journal.save(table)
    assert done.saved is not None and {s["id"] for s, _ in journal.tables()} == {
        waiting.id, idle.id}
    now[0] += 30  # idle: 75 s since its last change, waiting: 30 s
    found = journal.restore(limits, lambda snapshot: Table.restore(snapshot, limits))
    assert [(t.id, age) for t, age in found] == [(waiting.id, 30.0)]
    assert [s["id"] for s, _ in journal.tables()] == [waiting.id]


@pytest.mark.parametrize("broken", ["checkpoint", "game"])
def test_a_journaled_table_that_no_longer_makes_sense_is_left_out_in_one_line(tmp_path, broken,
                                                                              caplog):
    limits = Limits(save=tmp_path)
    journal = Journal(str(tmp_path / JOURNAL))
    table = Table.new("zebres", {}, ["human", "random"], 0, limits)
    journal.save(table)
    snapshot = table.snapshot()
    if broken == "checkpoint":
        snapshot["seats"][1] = "az:gone.pt"
    else:
        snapshot["game"] = "no-such-game"
    journal.db.execute("UPDATE tables SET snapshot = ?", (json.dumps(snapshot),))
    assert journal.restore(limits, lambda s: Table.restore(s, limits)) == []
    assert len(caplog.records) == 1 and table.id in caplog.records[0].getMessage()


def group_alive(pgid):
    """The processes of group ``pgid`` still running (a zombie, dead and not yet reaped by
    whoever adopted it, holds nothing and is left out), from /proc."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(stat.parent.name)
    return alive


def test_a_sigterm_with_pages_open_and_searches_running_stops_cleanly_and_at_once(tmp_path):
    """No traceback, not held for the grace period, and no search worker left a second
    after the server is gone."""
    from tests.web.push import Watch, call

    port = free_port()
    env = {**os.environ, "SAVANNA_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "savanna.experiments", "serve", "--port", str(port), "--workers",
         "2", "--save", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env, start_new_session=True)
    try:
        assert server.stdout.readline().startswith("savanna serve: ")
        address = f"http://127.0.0.1:{port}/"
        import tests.web.push as push
        push.TOKEN, token = TOKEN, push.TOKEN
        try:
            busy = call(address, "POST", "/api/tables", {
                "game": "zebres", "seats": ["mcts:sims=2000", "mcts:sims=2000"]})
            waiting = call(address, "POST", "/api/tables", {
                "game": "zebres", "seats": ["human", "human"]})
        finally:
            push.TOKEN = token
        pages = [Watch(address, t["id"], token=TOKEN) for t in (busy, waiting) for _ in range(3)]
        for page in pages:
            page.wait_for(lambda _, kind, data: kind == "view")
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=30)
        gone = time.monotonic()
        while group_alive(server.pid) and time.monotonic() < gone + 1.0:
            time.sleep(0.02)
        assert not group_alive(server.pid), "a search worker outlived the server by 1 s"
        assert "Traceback" not in err and "Exception in ASGI" not in err, err
        assert "graceful shutdown exceeded" not in err, err
        for page in pages:
            page.close()
    finally:
        if server.poll() is None or group_alive(server.pid):
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(30)
