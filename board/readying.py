"""Every game the board offers got ready as ``savanna serve`` starts, in its search workers.

On a fresh install numba compiles each game's kernels and each agent's search the first time
they run, a minute or more in all; ``Readying`` has the search workers (``board.workers``,
processes: the compile holds the GIL of the process it runs in, never the server's) run each
unit of work once, as soon as the server starts, so that by the time a person has set a table up
it is compiled, into numba's cache. A unit is a game's table (``(game, None)``: what the server's
process runs for a new table, a move and a view) or an agent's search on a game (``(game,
spec)``: ``workers.rehearse`` at each of the game's configurations, ``AGENTS``). The workers
take the games' tables first, then the agents' searches, in the order the page offers the games;
the game and agents a person picks in the page's form go next (``ahead``, as they are picked),
and a table set up meanwhile puts its own game and agents first (``first``): until they are ready
no worker starts another unit, and the units nobody waits for are stopped (their workers
replaced; they start again later, what numba cached of them kept), so that the person waiting
gets the cores. An agent's move whose search is being got ready waits for
that (``wait_for``) rather than compile it a second time beside it, its table telling the pages
how far the workers are (``progress``).

Once a worker has got a game's table ready, the server's process loads it from numba's cache
(on a thread: no compiling, only loading) and ``table_ready(game)`` returns: a New game of that
game waits for it rather than compile on the server's process. A search that comes while the
workers get ready waits for one without that wait counting in its seconds (``SearchPool``'s
``readying``). How it goes is said on the server's terminal and in ``/api/info``'s
``readying`` (``status``); a warm install (numba's cache filled) is ready within seconds.
"""
import asyncio
import time
from dataclasses import replace

import anyio

from savanna.board import workers
from savanna.board.tables import Table
from savanna.registry import GAMES, make_game

__all__ = ["AGENTS", "Readying", "prepare"]

AGENTS = ("az:baseline", "mcts")  # the agents whose search is compiled at start
SLOW = 1.0  # a unit that takes longer than this is said on the terminal (it compiled)
TELL_EVERY = 1.0  # seconds between two looks at the progress, for an agent that waits


class Readying:
    """The units of ``games`` got ready in ``pool``'s workers (see the module docstring);
    ``say(text)`` tells the server's terminal."""

    def __init__(self, pool, limits, games, say):
        self.pool, self.limits, self.say = pool, replace(limits, save=None), say
        self.todo = [(g, None) for g in games] + [(g, a) for a in AGENTS for g in games]
        self.total = len(self.todo)
        self.done, self.failed = [], []
        self.tables = {g: asyncio.Event() for g in games}  # set: the server's process has it
        self.urgent = set()  # the units a table being set up waits for, until ready
        self.calm = asyncio.Event()  # set while none is urgent
        self.calm.set()
        self.ended = {u: asyncio.Event() for u in self.todo}  # set: done or failed
        self.running = {}  # unit -> the task getting it ready
        self.stopped = set()  # the running units stopped for urgent ones (to start again)
        self.started = self.finished = None

    async def run(self):
        """Get every unit ready, one per worker at a time; then say how long it took."""
        self.started = time.monotonic()
        self.pool.readying = True
        slow = asyncio.get_running_loop().call_later(SLOW, self.say, (
            f"getting the games ready in {self.pool.workers} search workers ({self.total} "
            "compiles: on a fresh install a few minutes, cached afterwards)"))
        try:
            await asyncio.gather(*[self._take() for _ in range(self.pool.workers)])
        finally:
            self.pool.readying = False
            slow.cancel()
            for event in [*self.tables.values(), *self.ended.values()]:
                event.set()  # a failed or cancelled unit: compiled where it is needed then
        self.finished = time.monotonic()
        if self.finished - self.started > SLOW:
            failed = f"; {len(self.failed)} failed (see above)" if self.failed else ""
            self.say(f"the games are ready ({self.finished - self.started:.0f} s){failed}")

    async def _take(self):
        while self.todo:
            if self.urgent and self.todo[0] not in self.urgent:
                await self.calm.wait()  # the urgent ones run elsewhere: leave them the cores
                continue
            unit = self.todo.pop(0)
            started = time.monotonic()
            self.running[unit] = asyncio.ensure_future(self.pool.run(
                prepare, *unit, self.limits, seconds=workers.READY_SECONDS))
            try:
                keys = await self.running[unit]
                self.pool.ready_keys.update(keys)
                if unit[1] is None:  # the same, in the server's process: loaded, not compiled
                    await anyio.to_thread.run_sync(prepare, unit[0], None, self.limits,
                                                   abandon_on_cancel=True)
            except asyncio.CancelledError:
                if unit not in self.stopped:
                    raise
                self.stopped.discard(unit)  # for an urgent one: again later
                self.todo.append(unit)
                continue
            except workers.SearchError as err:
                if self.pool.closed:  # the server stops: its workers went first
                    return
                self.failed.append(unit)
                self.say(f"getting {_named(unit)} ready failed: {err}")
            else:
                self.done.append(unit)
                if time.monotonic() - started > SLOW:
                    self.say(f"ready: {_named(unit)} ({time.monotonic() - started:.0f} s)")
            finally:
                del self.running[unit]
            if unit[1] is None:
                self.tables[unit[0]].set()
            self.ended[unit].set()
            self.urgent.discard(unit)
            if not self.urgent:
                self.calm.set()
            await asyncio.sleep(0)  # a search that waited for this unit takes the worker

    def ahead(self, game, specs=()):
        """Move ``game``'s table and its agents ``specs`` (those among ``AGENTS``) to the head
        of the line, stopping nothing: the page's form names them while a person sets a
        table up, before its New game (``first``) makes them urgent. Returns their units."""
        asked = [(game, None), *((game, s) for s in specs)]
        wanted = [u for u in asked if u in self.todo]
        self.todo = wanted + [u for u in self.todo if u not in wanted]
        return asked

    def first(self, game, specs=()):
        """Put ``game``'s table and its agents ``specs`` (those among ``AGENTS``) first, for a
        table of them is being set up."""
        asked = self.ahead(game, specs)
        wanted = [u for u in asked if u in self.todo or u in self.running]
        if not wanted:
            return
        self.urgent.update(wanted)
        self.calm.clear()
        for unit, task in list(self.running.items()):  # the cores to the one waited for
            if unit not in self.urgent and unit not in self.stopped and not task.done():
                self.stopped.add(unit)
                task.cancel()

    async def wait_for(self, game, spec, told=lambda progress: None):
        """Return once agent ``spec``'s search on ``game`` is ready, put first if it is still
        to do (at once if it is not being got ready); meanwhile ``told(progress())`` at first
        and as it changes."""
        unit = (game, spec)
        if self.started is not None and unit in self.ended and not self.ended[unit].is_set():
            self.first(game, [spec])
            said = None
            while not self.ended[unit].is_set():
                if (now := self.progress()) != said:
                    told(now)
                    said = now
                with anyio.move_on_after(TELL_EVERY):
                    await self.ended[unit].wait()

    def progress(self):
        """How far it is, in words: ``"5 of 12 compiles done"``."""
        return f"{len(self.done) + len(self.failed)} of {self.total} compiles done"

    async def table_ready(self, game):
        """Return once the server's process has ``game``'s table ready (at once for a game
        not being got ready, or before ``run`` started)."""
        if self.started is not None and game in self.tables:
            await self.tables[game].wait()

    def status(self):
        """``/api/info``'s ``readying``: units ``done`` of ``total``, ``failed``, the seconds
        so far (or in all, once ``finished``)."""
        end = self.finished or time.monotonic()
        return {"done": len(self.done), "failed": len(self.failed), "total": self.total,
                "finished": self.finished is not None,
                "seconds": round(end - self.started, 1) if self.started else 0.0}


def prepare(name, spec, limits):
    """Run game ``name``'s table (``spec`` None: a new table of every configuration, a view
    of each seat, a move) or agent ``spec``'s search (rehearsed at the first decision of
    every configuration the agent plays) in this process, so that numba compiles it or loads
    it from its cache. Returns the ready keys (``workers.ready_key``) it rehearsed."""
    keys = []
    for config in GAMES[name].configs:
        options = [f"{k}={v}" for k, v in config.items()]
        players = make_game(name, **config).num_players
        if spec is None:
            table = Table.new(name, options, ["human"] * players, 0, limits)
            seat = table.to_move
            view = table.view(seat)
            table.view(None)
            if view["moves"]:
                table.move(seat, view["moves"][0]["action"], view["version"])
            continue
        try:
            table = Table.new(name, options, [spec] * players, 0, limits)
            if (search := table.agent_search()) is not None:
                workers.rehearse(*search[1])
                keys.append(workers.ready_key(table.game, table.seats[table.to_move]))
        except ValueError:  # an agent that does not play this configuration (a network
            continue        # trained with other options): its tables refuse it too
    return keys


def _named(unit):
    game, spec = unit
    return f"{game}'s tables" if spec is None else f"{spec} on {game}"
