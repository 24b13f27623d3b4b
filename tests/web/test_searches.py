"""``savanna serve`` under searches and files that would freeze it: sizes bounded where an
agent is named, searches in worker processes that stop (their core freed) at their time limit
and at Cancel while the server answers, big files refused from ``stat`` unread, checkpoints
only from the served folders, and seeded agents playing the same moves as in one process."""
import asyncio
import json
import shutil
import threading
import time

import numpy as np
import psutil
import pytest
from starlette.testclient import TestClient

from savanna import compile_ahead, make_game
from savanna.agents.play.az_agent import baseline_path
from savanna.board import workers
from savanna.board.cache import SharedCache
from savanna.board.refusals import Refused
from savanna.board.seating import check_agent
from savanna.board.served_files import PAGE
from savanna.board.server import create_app, reply
from savanna.board.tables import Limits, Table
from savanna.board.workers import SearchError, SearchPool

BASE = "http://127.0.0.1"  # a Host the guard answers (no token: token="")
LONG = "mcts:sims=4000000"  # about a minute of search on one core
POSITION = "z...../..G.../....../.l..../...... g 21 - move"


def cpu_seconds(window=0.5):
    """CPU seconds this process and every process under it (the search workers) used over
    ``window`` seconds of wall time."""
    def total():
        me = psutil.Process()
        used = 0.0
        for p in [me, *me.children(recursive=True)]:
            try:
                times = p.cpu_times()
                used += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        return used

    before = total()
    time.sleep(window)
    return total() - before


def timed_info(client):
    started = time.perf_counter()
    assert client.get("/api/info").status_code == 200
    return time.perf_counter() - started


def in_background(fn):
    """Run ``fn()`` on a thread; a function that joins it and returns its value."""
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("value", fn()))
    thread.start()

    def result():
        thread.join(120)
        return out["value"]
    return result


# ----- sizes bounded where an agent is named ----------------------------------------------
@pytest.mark.parametrize("spec, arithmetic", [
    ("mcts:sims=2000,rollouts=100000",
     "asks 2,000 simulations x 100,000 rollouts = 200,000,000 simulated playouts; this "
     "server allows at most 2,000 (savanna serve --max-sims)"),
    ("mcts:sims=10,determinizations=100000",
     "asks 100,000 determinizations of one simulation at least; this server allows at most"),
    ("mcts:sims=1000000", "asks 1,000,000 simulations; this server allows at most 2,000"),
    ("ppo-mcts:x.pt,leaf_batch=1000000000", None),  # a file first: none is served
])
def test_a_search_too_big_is_refused_with_its_arithmetic(spec, arithmetic, tmp_path):
    with pytest.raises(Refused) as err:
        check_agent(spec, Limits(folders=(tmp_path,)))
    assert arithmetic is None or arithmetic in str(err.value), str(err.value)
    assert "\n" not in str(err.value)


def test_a_leaf_batch_is_bounded_too():
    with pytest.raises(Refused, match="leaf_batch=1,000,000,000; this server allows"):
        check_agent("mcts:sims=100,leaf_batch=1000000000", Limits())


def test_rollouts_within_the_bound_are_accepted_and_refused_through_the_api(tmp_path):
    assert check_agent("mcts:sims=500,rollouts=4", Limits()).sims == 500
    with TestClient(create_app(Limits(save=tmp_path), workers=1, token=""),
                    base_url=BASE) as client:
        r = client.post("/api/tables", json={"game": "zebres", "seats": [
            "human", "mcts:sims=2000,rollouts=100000"]})
        assert r.status_code == 400 and "200,000,000 simulated playouts" in r.json()["error"]
        r = client.post("/api/analyses", json={"agent": "mcts:sims=2000,rollouts=100000",
                                               "game": "zebres", "position": POSITION})
        assert r.status_code == 400 and "200,000,000 simulated playouts" in r.json()["error"]


# ----- searches that stop -------------------------------------------------------------------
def test_the_server_answers_while_a_search_runs_past_its_limit_then_its_core_is_free(tmp_path):
    limits = Limits(max_sims=10**7, max_seconds=2.0, save=tmp_path)
    with TestClient(create_app(limits, workers=1, token=""),
                    base_url=BASE) as client:
        # the worker's first search compiles (or loads numba's cache), on its own time: done
        # here, so that the clock below times the search (its rehearsal then takes no time)
        rehearsed = client.post("/api/tables", json={"game": "zebres",
                                                      "seats": ["mcts:sims=2", "human"]})
        assert rehearsed.status_code == 200 and rehearsed.json()["notice"] is None
        timed_info(client)  # its first answer reads every game's options: once, untimed
        started = time.perf_counter()
        move = in_background(lambda: client.post("/api/tables", json={
            "game": "zebres", "seats": [LONG, "human"]}))
        time.sleep(0.5)
        busy = cpu_seconds()
        waits = [timed_info(client) for _ in range(10)]
        r = move()  # asserts only after: a failure leaves no request running
        answered = time.perf_counter() - started
        time.sleep(max(0.0, started + limits.max_seconds + 1.0 - time.perf_counter()))
        idle = cpu_seconds()
    assert busy > 0.05  # the search was running
    assert max(waits) < 0.2, waits  # generous: the point is that nothing waits for it
    # the game was made and waits at the agent's move, said in the answer's notice
    assert r.status_code == 200 and "longer than 2 s" in r.json()["notice"]
    assert answered < limits.max_seconds + 1.0
    assert idle < 0.05  # within 1 s of the limit, no core searches any more


def test_cancel_stops_an_analysis_and_frees_its_core_at_once(tmp_path):
    limits = Limits(max_sims=10**7, max_seconds=600, save=tmp_path)
    with TestClient(create_app(limits, workers=1, token=""),
                    base_url=BASE) as client:
        r = client.post("/api/analyses", json={"agent": LONG, "game": "zebres",
                                               "position": POSITION})
        assert r.status_code == 200, r.text
        job = r.json()["id"]
        time.sleep(0.5)
        busy = cpu_seconds()  # its first round is searching
        cancelled = time.perf_counter()
        assert client.delete(f"/api/analyses/{job}").json()["cancelled"]
        time.sleep(max(0.0, cancelled + 0.5 - time.perf_counter()))
        idle = cpu_seconds()  # from 0.5 s to 1 s after Cancel
        status = client.get(f"/api/analyses/{job}").json()
        assert status["done"] and status["cancelled"] and status["rounds"] == 0
        # a fresh worker searches the next request
        r = client.post("/api/analyses", json={"agent": "mcts:sims=80", "game": "zebres",
                                               "position": POSITION})
        for _ in range(600):
            after = client.get(f"/api/analyses/{r.json()['id']}").json()
            if after["done"]:
                break
            time.sleep(0.05)
    assert busy > 0.05 and idle < 0.05, (busy, idle)
    assert after["rounds"] == 4 and after["result"]["simulations"] == 80


def _span(seconds):
    """In a worker: when it started and ended sleeping ``seconds``."""
    start = time.time()
    time.sleep(seconds)
    return start, time.time()


def test_at_most_workers_searches_run_at_once_the_others_wait_or_are_refused(monkeypatch):
    monkeypatch.setattr(workers, "MAX_WAITING", 2)

    async def main():
        pool = SearchPool(1)
        await pool.start()
        try:
            runs = [pool.run(_span, 0.3, seconds=30) for _ in range(3)]
            spans = await asyncio.gather(*runs)
            refused = await asyncio.gather(*[pool.run(_span, 0.05, seconds=30)
                                              for _ in range(4)], return_exceptions=True)
            late = await asyncio.gather(pool.run(_span, 1.0, seconds=30),
                                        pool.run(_span, 0.0, seconds=0.3),
                                        return_exceptions=True)
        finally:
            await pool.close()
        return spans, refused, late

    spans, refused, late = asyncio.run(main())
    spans.sort()
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # one after another
    errors = [e for e in refused if isinstance(e, SearchError)]
    assert len(errors) == 1 and errors[0].kind == "busy"  # the one past 1 running + 2 waiting
    assert isinstance(late[1], SearchError) and late[1].kind == "unavailable"  # its time ran out
    assert "no search worker was free within 0.3 s" in str(late[1])


def test_a_search_worker_compiles_with_no_helper_process_beside_it():
    """One core per worker, compiles included: ``savanna.compile_ahead`` starts no helper in
    a worker (while a fresh install gets ready, the other workers hold the other cores)."""
    pool = SearchPool(1)

    async def asked():
        try:
            return await pool.run(compile_ahead.switched_off, seconds=60)
        finally:
            await pool.close()

    assert asyncio.run(asked()) is True


@pytest.mark.parametrize("game, seats, options", [
    ("zebres", ["mcts:sims=30", "greedy"], {}),
    ("bonobo", ["random", "mcts:sims=20", "random"], {"num_players": 3}),
    ("banjooli", ["mcts:sims=16", "random"], {"berries": True}),
])
def test_seeded_agents_play_the_same_moves_in_workers_as_in_one_process(tmp_path, game, seats,
                                                                        options):
    limits = Limits(save=tmp_path)
    here = Table.new(game, options, seats, 11, limits)
    here.play_agents()
    with TestClient(create_app(limits, workers=2, token=""),
                    base_url=BASE) as client:
        view = client.post("/api/tables", json={"game": game, "options": options,
                                                "seats": seats, "seed": 11,
                                                "paused": True}).json()
        control = {"X-Seat-Key": view["control"]}
        while not view["over"]:
            view = client.post(f"/api/tables/{view['id']}/advance", json={},
                               headers=control).json()
        table = client.app.state.tables[view["id"]]
    assert table.events == here.events and here.over


# ----- files --------------------------------------------------------------------------------
def _read_bytes():
    return psutil.Process().io_counters().read_chars


def test_big_files_are_refused_from_their_size_unread_while_the_server_answers(tmp_path):
    folder = tmp_path / "served"
    folder.mkdir()
    game = make_game("zebres")
    line = ('{"format":"savanna-record/1","game":"zebres","options":{},"rules_version":null,'
            '"package_version":null,"git_commit":null,"seed":0,"agents":["a","b"],'
            f'"start":"{game.to_text(game.init(1, 0))}","moves":[],"returns":null,'
            '"info":{}}\n')
    with open(folder / "big.jsonl", "w") as f:  # 10^6 games
        for _ in range(100):
            f.write(line * 10_000)
    with open(folder / "big.pt", "wb") as f:  # 1 GiB, not a checkpoint
        f.truncate(2**30)
    limits = Limits(folders=(folder,), save=folder / "played")
    with TestClient(create_app(limits, workers=1, token=""),
                    base_url=BASE) as client:
        read = _read_bytes()
        answers = [
            in_background(lambda: client.get("/api/records", params={"file": "big.jsonl"})),
            in_background(lambda: client.post("/api/analyses", json={
                "agent": "mcts:sims=10", "file": "big.jsonl", "game": 0, "ply": 0})),
            in_background(lambda: client.get("/api/replay", params={
                "file": "big.jsonl", "game": 0, "ply": 0})),
            in_background(lambda: client.post("/api/tables", json={
                "game": "zebres", "seats": ["human", "az:big.pt"]})),
        ]
        waits = [timed_info(client) for _ in range(10)]
        answers = [answer() for answer in answers]
        assert max(waits) < 0.2, waits
        for r in answers[:3]:
            assert r.status_code == 400 and "big.jsonl' is 2" in r.json()["error"], r.text
        assert answers[3].status_code == 400
        assert "big.pt is 1,073,741,824 bytes; the board reads" in answers[3].json()["error"]
        assert _read_bytes() - read < 2**24  # neither file was read


def test_a_big_listing_comes_in_pages_serialised_off_the_event_loop(tmp_path, monkeypatch):
    """2,500 games: three pages that hold every game once, each answer serialised on a worker
    thread (the event loop's thread serialises /api/info); a page past the largest refused."""
    game = make_game("zebres")
    table = Table.new("zebres", {}, ["random", "random"], 0, Limits())
    line = json.dumps(table.record().to_json()) + "\n"
    (tmp_path / "many.jsonl").write_text(line * 2500)
    threads = []

    def recorded(data, status=200):
        threads.append((threading.get_ident(), "total" in data))
        return reply(data, status)

    monkeypatch.setattr("savanna.board.server.reply", recorded)
    with TestClient(create_app(Limits(folders=(tmp_path,), save=tmp_path), workers=1,
                               token=""), base_url=BASE) as client:
        pages, offset = [], 0
        while offset is not None:
            page = client.get("/api/records", params={"file": "many.jsonl", "offset": offset})
            assert page.status_code == 200, page.text
            pages.append(page.json())
            offset = pages[-1]["next"]
        assert client.get("/api/info").status_code == 200
        small = client.get("/api/records", params={"file": "many.jsonl", "offset": 2498,
                                                   "limit": 5}).json()
        for bad in ({"limit": PAGE + 1}, {"limit": 0}, {"offset": -1}, {"offset": "x"}):
            r = client.get("/api/records", params={"file": "many.jsonl", **bad})
            assert r.status_code == 400 and "must be an int" in r.json()["error"], bad
    assert [len(p["games"]) for p in pages] == [PAGE, PAGE, 500]
    assert {p["total"] for p in pages} == {2500}
    assert [g["index"] for p in pages for g in p["games"]] == list(range(2500))
    assert [g["index"] for g in small["games"]] == [2498, 2499] and small["next"] is None
    loop = {ident for ident, listing in threads if not listing}
    assert len(loop) == 1 and not loop & {ident for ident, listing in threads if listing}
    assert game.name == pages[0]["games"][0]["game"]


def test_a_checkpoint_outside_the_served_folders_is_refused_as_a_missing_one(tmp_path,
                                                                           monkeypatch):
    served = tmp_path / "served"
    served.mkdir()
    shutil.copy(baseline_path(make_game("zebres")), tmp_path / "private_model")
    monkeypatch.chdir(tmp_path)  # the file lies in the working directory, not a served one
    with TestClient(create_app(Limits(folders=(served,), save=served), workers=1, token=""),
                    base_url=BASE) as client:
        answers = {}
        for name in ("private_model", "absent_model", "../private_model"):
            r = client.post("/api/tables", json={"game": "zebres",
                                                 "seats": ["human", f"az:{name}"]})
            answers[name] = (r.status_code, r.json()["error"].replace(name, "NAME"))
    assert answers["private_model"] == answers["absent_model"] == answers["../private_model"]
    assert answers["private_model"][0] == 404


def test_a_hidden_folder_is_not_served_by_name(tmp_path):
    (tmp_path / ".secret").mkdir()
    (tmp_path / ".secret" / "x.jsonl").write_text("")
    with TestClient(create_app(Limits(folders=(tmp_path,), save=tmp_path), workers=1,
                               token=""), base_url=BASE) as client:
        r = client.get("/api/records", params={"file": ".secret/x.jsonl"})
        assert r.status_code == 404


def test_concurrent_requests_share_one_parse():
    cache, calls = SharedCache(budget=10), []

    def build():
        calls.append(1)
        time.sleep(0.2)
        return np.arange(3)

    threads = [threading.Thread(target=cache.get, args=("key", build)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert cache.get("key", build) is cache.get("key", build)

    def refuse():
        calls.append(1)
        raise Refused("no")

    for _ in range(2):  # a refusal is kept like a value
        with pytest.raises(Refused):
            cache.get("bad", refuse)
    assert len(calls) == 2
