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

Compiling is not searching: the first search of an agent in a process compiles (numba) or
loads from numba's cache what it needs, which on a fresh install takes far longer than a move
may. ``run(fn, *args, ready=(key, first))`` runs ``first(*args)`` before ``fn(*args)``, once
per process and ``key``, given ``READY_SECONDS`` (``rehearse``: the agent's search at its
smallest, which runs the same code); the search's own ``seconds`` start after it. ``ready_keys``
holds the keys some process got ready (then the compiled code is in numba's cache). While
``readying`` (the workers get every game ready as the server starts: ``board.readying``), the
wait for a free worker counts in no search's ``seconds``.
"""
import asyncio
import multiprocessing
import os
import signal
import threading
from collections import OrderedDict

import numpy as np

from savanna import compile_ahead
from savanna.agents import make_agent
from savanna.board.refusals import Refused
from savanna.seats import seat_act

__all__ = ["MAX_WAITING", "SearchError", "SearchPool", "agent", "play", "ready_key",
           "rehearse"]

MAX_WAITING = 32  # searches waiting for a worker, per worker, before a 429
MAX_AGENTS = 8    # agents a worker keeps built
READY_SECONDS = 900  # the longest an agent's first search in a process may take to compile
PRELOAD = ["savanna.board.workers", "savanna.board.readying", "savanna.agents.play.mcts",
           "savanna.agents.play.az_agent", "savanna.agents.play.analysis", "savanna.zebres",
           "savanna.bonobo", "savanna.banjooli"]


class SearchError(Refused):
    """A search the server could not run or finish, as a one-line message and its kind
    (invalid: the agent refused the position, busy: too many waiting, unavailable: out of
    time or its process gone, failed: a bug in the search)."""


class SearchPool:
    """``workers`` warm worker processes and the line of searches waiting for them (see the
    module docstring). ``start`` and ``close`` bracket the server's life; ``run`` starts the
    processes itself if ``start`` was not called."""

    def __init__(self, workers):
        self.workers = workers
        self._idle = []         # workers free to search
        self._slots = None      # an asyncio.Semaphore of the free workers, made on the loop
        self._waiting = 0
        self._busy = set()      # workers searching now
        self._closed = False
        self.ready_keys = set()  # see the module docstring
        self.readying = False    # the same

    async def start(self):
        if self._slots is None:
            self._slots = asyncio.Semaphore(0)  # searches wait here until the workers are up
            self._idle = list(await asyncio.gather(*[asyncio.to_thread(_Worker)
                                                     for _ in range(self.workers)]))
            for _ in self._idle:
                self._slots.release()

    @property
    def closed(self):
        """Whether ``close`` was called (the server is stopping)."""
        return self._closed

    async def close(self):
        """Stop every worker: the idle ones end, the busy ones are killed (their searches'
        answers are no longer wanted)."""
        self._closed = True
        for worker in self._busy:
            worker.kill()
        await asyncio.gather(*[asyncio.to_thread(w.stop) for w in self._idle])
        self._idle, self._busy = [], set()

    async def run(self, fn, *args, seconds, ready=None):
        """``fn(*args)`` in a worker, given ``seconds`` in all (waiting and searching): its
        value, or a SearchError. Past the time, or cancelled (an analysis' Cancel), the
        worker process is killed and a fresh one started. ``ready``: ``(key, first)``, run
        first where this worker has not (see the module docstring)."""
        await self.start()
        if self._waiting >= MAX_WAITING * self.workers:
            raise SearchError(f"{self._waiting} searches are waiting for this server's "
                              f"{self.workers} search workers; try again later", "busy")
        loop = asyncio.get_running_loop()
        patient = self.readying  # the workers compile: the wait is not the search's
        deadline = loop.time() + (READY_SECONDS if patient else seconds)
        self._waiting += 1
        try:
            async with asyncio.timeout_at(deadline):
                await self._slots.acquire()
        except TimeoutError:
            raise SearchError(f"no search worker was free within {seconds:g} s (all "
                              f"{self.workers} were busy: savanna serve --workers); try "
                              "again later", "unavailable") from None
        finally:
            self._waiting -= 1
        if patient:
            deadline = loop.time() + seconds
        worker = self._idle.pop()
        self._busy.add(worker)
        try:
            first = ready is not None and ready[0] not in worker.ready
            worker.send(fn, args, ready[1] if first else None)
            if first:
                async with asyncio.timeout(READY_SECONDS):
                    status, value = await worker.answer()
                if status != "ok":
                    raise SearchError(value, "invalid" if status == "refused" else "failed")
                worker.ready.add(ready[0])
                self.ready_keys.add(ready[0])
                deadline = asyncio.get_running_loop().time() + seconds
            async with asyncio.timeout_at(deadline):
                status, value = await worker.answer()
        except SearchError:
            raise
        except BaseException as err:  # time up, cancelled, or the process died
            self._busy.discard(worker)
            worker.kill()
            worker = None if self._closed else _Worker()  # a fork of the warm fork server
            if isinstance(err, TimeoutError):
                raise SearchError(f"the search took longer than {seconds:g} s (savanna serve "
                                  "--max-seconds); it was stopped", "unavailable") from None
            if isinstance(err, EOFError | OSError):
                raise SearchError("the search process ended before it answered",
                                  "unavailable") from None
            raise
        finally:
            if worker is not None:
                self._busy.discard(worker)
                self._idle.append(worker)
                self._slots.release()
        if status != "ok":
            raise SearchError(value, "invalid" if status == "refused" else "failed")
        return value


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self):
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        self.conn, child = context.Pipe()
        self.ready = set()  # the keys of run's ready this process has run
        self.process = context.Process(target=_serve, args=(child,), daemon=True,
                                       name="savanna-search")
        self.process.start()
        child.close()

    def send(self, fn, args, first=None):
        """Ask for ``fn(*args)``, after ``first(*args)`` if given (then two answers come: the
        first's, then the call's): the arguments are sent once."""
        self.conn.send((fn, args, first))

    async def answer(self):
        """The next answer, waited for without blocking the event loop."""
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
    # and one per compile: no helper process compiles beside a worker (savanna.compile_ahead),
    # whose cores the other workers hold while a fresh install gets ready
    os.environ[compile_ahead.SWITCH] = "0"
    while True:
        try:
            fn, args, first = conn.recv()
        except (EOFError, OSError):
            return
        for call in (first, fn) if first is not None else (fn,):
            reply = _answer(call, args)
            conn.send(reply)
            if reply[0] != "ok":
                break


def _answer(fn, args):
    """``(status, value or message)`` of ``fn(*args)``."""
    try:
        return "ok", fn(*args)
    except ValueError as err:  # a one-line refusal (a network for another game)
        return "refused", str(err).replace("\n", " ")
    except Exception as err:
        return "failed", f"internal error in a search: {type(err).__name__}: {err}"


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


REHEARSAL = {"sims": 2, "determinizations": 1, "rollouts": 1, "leaf_batch": 1,
             "time_budget": None}  # the smallest search that runs the same code


def rehearse(game, spec, row, rng):
    """Agent ``spec``'s move in ``row`` searched as small as its settings allow: the code a
    search runs, compiled (or loaded from numba's cache) without the search's length. An
    agent that takes none of these settings plays its move as it is. It decides from its
    seat's view, as in ``play``, and fails as there (one line naming it: a 400)."""
    built = agent(spec)
    small = {k: v for k, v in REHEARSAL.items() if hasattr(built, k)}
    try:
        built = agent(spec, **small) if small else built
    except ValueError:  # a combination the agent refuses: its own move then
        pass
    own = np.random.default_rng(0)  # the table's stream is left as it was for the move
    return int(seat_act(built, game, row.copy(), own)[0])


def ready_key(game, agent):
    """What ``run``'s ready is keyed by for agent ``agent`` (an ``AgentSpec``) on ``game``:
    once per agent and game with its options."""
    return agent.spec, repr(game)


def play(game, spec, row, rng):
    """The move of agent ``spec`` in ``row`` (a batch of one), drawing from ``rng`` (the
    table's stream for this decision, so that a worker plays as the server's process would)."""
    return int(seat_act(agent(spec), game, row, rng)[0])
