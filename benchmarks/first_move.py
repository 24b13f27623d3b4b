"""A fresh install's first agent move on the board: ``savanna serve`` started with an empty
numba cache, then a Bonobo Beach table ``human,human,az:baseline`` played to its agent's move.

    python -m savanna.benchmarks.first_move [--setup-seconds S | --until-ready] [--think-seconds T]
    NUMBA_CACHE_DIR=$(mktemp -d) python -m savanna.benchmarks.first_move --profile

The server runs as its own process (the ``savanna serve`` command beside this Python, two
search workers, the default ``--max-seconds``) with ``NUMBA_CACHE_DIR`` a fresh temporary
folder; this module speaks HTTP to it. After the server answers, it names the game and seats
as the page's form does when a person picks them (``POST /api/readying``), waits
``--setup-seconds`` (the person setting the table up), or with ``--until-ready`` until
``/api/info`` says the games are ready (``board.readying``), creates the table, plays the two
humans' first legal moves (each ``--think-seconds`` after the view that asks for it: a
person's pace) and waits for the agent's. It prints, in seconds from the server's start: when
it answered, when the table was created, when the agent moved; the New game's round trip; the
time from the last human move to the agent's; and every notice a view carried (a search
stopped: an error line).

``--profile`` says where the time goes instead, in this process (give it an empty numba cache):
what numba compiles for the table (``Table.new`` and a view) and for the agent's first search
(``board.workers.rehearse``), with ``savanna.compile_log.CompileLog``'s table of each, and the
CPU seconds each took.
"""
import argparse
import functools
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

from savanna.benchmarks.board_server import api_request, free_port, start_serve

__all__ = ["measure"]

TOKEN = secrets.token_urlsafe(32)
request = functools.partial(api_request, token=TOKEN, seconds=900)  # compiles may be slow
SEATS = ["human", "human", "az:baseline"]


def measure(setup_seconds=0.0, until_ready=False, progress=print, think_seconds=0.0):
    """``{what: value}`` of one fresh start (see the module doc)."""
    ready = None
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(folder) / "numba")}
        log = open(Path(folder) / "serve.log", "w+")
        started = time.perf_counter()
        process = start_serve(port, TOKEN, "--save", str(Path(folder) / "played"), env=env,
                              log=log, seconds=600)
        try:
            answered = time.perf_counter() - started
            progress(f"answering after {answered:.1f} s")
            request(base, "POST", "/api/readying", {"game": "bonobo", "seats": SEATS})
            time.sleep(setup_seconds)
            while until_ready and not request(base, "GET", "/api/info")[1]["readying"][
                    "finished"]:
                time.sleep(0.5)
            ready = time.perf_counter() - started if until_ready else None
            t = time.perf_counter()
            status, view = request(base, "POST", "/api/tables",
                                   {"game": "bonobo", "options": ["num_players=3"],
                                    "seats": SEATS, "seed": 1})
            created = time.perf_counter()
            if status != 200:
                raise RuntimeError(f"New game: {status} {view}")
            progress(f"New game took {created - t:.1f} s")
            notices, keys = [], view["keys"]
            while view["to_move"] in (0, 1):
                key = keys[str(view["to_move"])]
                time.sleep(think_seconds)
                last = time.perf_counter()
                status, view = request(base, "POST", f"/api/tables/{view['id']}/move",
                                       {"action": view["moves"][0]["action"],
                                        "version": view["version"]}, key=key)
                if status != 200:
                    raise RuntimeError(f"move: {status} {view}")
                if view["notice"]:
                    notices.append(view["notice"])
                if any(line["who"] == 2 for line in view["log"]):
                    break
                if view["to_move"] in (0, 1):  # the next human's moves, as their page sees
                    status, view = request(base, "GET", f"/api/tables/{view['id']}",
                                           key=keys[str(view["to_move"])])
            moved = time.perf_counter()
        finally:
            process.terminate()
            process.wait(30)
            log.seek(0)
            terminal = log.read()
            log.close()
    return {"answered (s after start)": answered, "ready (s after start)": ready,
            "New game (s)": created - t,
            "agent moved (s after start)": moved - started,
            "last human move to the agent's move (s)": moved - last,
            "notices": notices, "terminal": terminal}


def profile(progress=print):
    """Compile the table, then ``az:baseline``'s first search, here; print what compiled."""
    from savanna.board import workers
    from savanna.board.tables import Limits, Table
    from savanna.compile_log import CompileLog

    started, cpu = time.perf_counter(), time.process_time()
    with CompileLog() as log:
        table = Table.new("bonobo", ["num_players=3"], SEATS, 1, Limits(save=None))
        table.view(0)
    progress(f"New game (Table.new, a view): {_took(started, cpu)}\n" + log.table(10))
    while table.to_move in (0, 1):  # the humans' first moves
        view = table.view(table.to_move)
        table.move(table.to_move, view["moves"][0]["action"], view["version"])
    started, cpu = time.perf_counter(), time.process_time()
    with CompileLog() as log:
        workers.rehearse(*table.agent_search()[1])
    progress(f"the agent's first search (rehearsed): {_took(started, cpu)}\n" + log.table(10))


def _took(started, cpu):
    """The wall and CPU seconds since ``started`` and ``cpu`` (on a busy machine the wall
    time is mostly waiting for a core; the CPU time is what an idle core would take)."""
    return (f"{time.perf_counter() - started:.1f} s ({time.process_time() - cpu:.1f} s CPU; "
            "the functions' seconds below are wall time)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup-seconds", type=float, default=0.0)
    parser.add_argument("--until-ready", action="store_true")
    parser.add_argument("--think-seconds", type=float, default=0.0)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    if args.profile:
        return profile()
    figures = measure(args.setup_seconds, args.until_ready,
                      lambda text: print(text, file=sys.stderr, flush=True), args.think_seconds)
    for what, value in figures.items():
        print(f"{what}: {value:.1f}" if isinstance(value, float) else f"{what}: {value}")


if __name__ == "__main__":
    main()
