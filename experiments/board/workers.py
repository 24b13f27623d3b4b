"""The processes that run ``savanna serve``'s searches: agents' moves and analyses.

Processes, not threads: numba's compiled search holds the GIL, so a search on a thread of the
server holds up every other request until it ends, and a thread cannot be stopped. A search
in a worker process runs beside the server, and one past its time or cancelled is stopped by
killing its process, which frees its core at once; a fresh process takes its place (forked
from a server process that imported everything, with numba's compiled code in its cache).

``SearchPool(workers)`` keeps ``workers`` processes warm; ``await pool.run(fn, *args,
seconds=S)`` runs the module-level ``fn(*args)`` in one of them and returns its value. At
most ``workers`` searches run at once; the others wait their turn, first come first served,
and the wait counts in their ``seconds`` (a move that waits longer than its search may take
gets the same 503). Waiting rather than an immediate 429: the page plays agents' moves one
request at a time, most take milliseconds, and a short wait beats an error the page would not
retry. More than ``MAX_WAITING`` waiting searches per worker are refused with a 429.

In a worker, ``agent(spec)`` builds an agent once per spec and keeps it (a checkpoint is
read once per process); ``play`` is an agent's move.
"""
import asyncio
import multiprocessing
import signal
import threading
from collections import OrderedDict

from savanna.agents import make_agent
from savanna.seats import seat_act

__all__ = ["MAX_WAITING", "SearchError", "SearchPool", "agent", "play"]

MAX_WAITING = 32  # searches waiting for a worker, per worker, before a 429
MAX_AGENTS = 8    # agents a worker keeps built
PRELOAD = ["savanna.experiments.board.workers", "savanna.agents.play.mcts",
           "savanna.agents.play.az_agent", "savanna.agents.play.analysis", "savanna.zebres",
           "savanna.bonobo", "savanna.banjooli"]


class SearchError(Exception):
    """A search the server could not run or finish, as a one-line message and an HTTP status
    (400: the agent refused the position, 429: too many waiting, 503: out of time)."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


class SearchPool:
    """``workers`` warm worker processes and the line of searches waiting for them (see the
    module docstring). ``start`` and ``close`` bracket the server's life; ``run`` starts the
    processes itself if ``start`` was not called."""

    def __init__(self, workers):
        self.workers = workers
        self._idle = []         # workers free to search
        self._slots = None      # an asyncio.Semaphore of the free workers, made on the loop
        self._waiting = 0

    async def start(self):
        if self._slots is None:
            self._slots = asyncio.Semaphore(0)  # searches wait here until the workers are up
            self._idle = list(await asyncio.gather(*[asyncio.to_thread(_Worker)
                                                     for _ in range(self.workers)]))
            for _ in self._idle:
                self._slots.release()

    async def close(self):
        for worker in self._idle:
            worker.stop()  # a busy one is killed when its search ends or the server exits
        self._idle = []

    async def run(self, fn, *args, seconds):
        """``fn(*args)`` in a worker, given ``seconds`` in all (waiting and searching): its
        value, or a SearchError. Past the time, or cancelled (an analysis' Cancel), the
        worker process is killed and a fresh one started."""
        await self.start()
        if self._waiting >= MAX_WAITING * self.workers:
            raise SearchError(f"{self._waiting} searches are waiting for this server's "
                              f"{self.workers} search workers; try again later", 429)
        deadline = asyncio.get_running_loop().time() + seconds
        self._waiting += 1
        try:
            async with asyncio.timeout_at(deadline):
                await self._slots.acquire()
        except TimeoutError:
            raise SearchError(f"no search worker was free within {seconds:g} s (all "
                              f"{self.workers} were busy: savanna serve --workers); try "
                              "again later", 503) from None
        finally:
            self._waiting -= 1
        worker = self._idle.pop()
        try:
            async with asyncio.timeout_at(deadline):
                status, value = await worker.call(fn, args)
        except BaseException as err:  # time up, cancelled, or the process died
            worker.kill()
            worker = _Worker()  # a fork of the warm fork server: milliseconds
            if isinstance(err, TimeoutError):
                raise SearchError(f"the search took longer than {seconds:g} s (savanna serve "
                                  "--max-seconds); it was stopped", 503) from None
            if isinstance(err, EOFError | OSError):
                raise SearchError("the search process ended before it answered", 503) from None
            raise
        finally:
            self._idle.append(worker)
            self._slots.release()
        if status != "ok":
            raise SearchError(value, 400 if status == "refused" else 500)
        return value


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self):
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True,
                                       name="savanna-search")
        self.process.start()
        child.close()

    async def call(self, fn, args):
        """Send ``fn(*args)``, wait (without blocking the event loop) for the answer."""
        self.conn.send((fn, args))
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        loop.add_reader(self.conn.fileno(), lambda: ready.done() or ready.set_result(None))
        try:
            await ready
        finally:
            loop.remove_reader(self.conn.fileno())
        return self.conn.recv()

    def kill(self):
        self.process.kill()
        self.conn.close()
        threading.Thread(target=self.process.join, daemon=True).start()  # reaped aside

    def stop(self):
        self.conn.close()  # the worker reads the end of its pipe and returns
        self.process.join(1)
        if self.process.is_alive():
            self.process.kill()


def _serve(conn):
    """A worker's loop: ``(fn, args)`` in, ``(status, value or message)`` out, until the
    server closes the pipe (or dies)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    try:
        import torch
        torch.set_num_threads(1)  # one core per search, as the pool counts them
    except ImportError:
        pass
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", fn(*args))
        except ValueError as err:  # a one-line refusal (a network for another game)
            reply = ("refused", str(err).replace("\n", " "))
        except Exception as err:
            reply = ("failed", f"internal error in a search: {type(err).__name__}: {err}")
        conn.send(reply)


_AGENTS = OrderedDict()


def agent(spec, **overrides):
    """The agent of ``spec`` (already checked by the server) with ``overrides``, built once
    per process and kept (at most ``MAX_AGENTS``)."""
    key = (spec, tuple(sorted(overrides.items())))
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(spec, **overrides)
        while len(_AGENTS) > MAX_AGENTS:
            _AGENTS.popitem(last=False)
    _AGENTS.move_to_end(key)
    return _AGENTS[key]


def play(game, spec, row, rng):
    """The move of agent ``spec`` in ``row`` (a batch of one), drawing from ``rng`` (the
    table's stream for this decision, so that a worker plays as the server's process would)."""
    return int(seat_act(agent(spec), game, row, rng)[0])
