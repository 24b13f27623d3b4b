"""The tables a ``savanna serve`` holds: found by id, freed when idle, capped in number and in
memory (an estimate of what each table holds: its states, undo points and log). A table holds
its agents as specs (``tables.AgentSpec``); their networks live in the search workers
(``board.workers``), each keeping at most ``workers.MAX_AGENTS`` built, so that the workers'
memory is bounded by ``--workers``, not by the tables.

A table nobody asked about for ``Limits.idle_minutes`` is freed when it is next asked for or
when a game is made (an unfinished game is lost, a finished one was written when it ended).
When a new table would pass ``max_tables`` or ``max_memory``, finished games make room, oldest
first, and otherwise the new one is refused. A finished game that could not be written and a
table in use (a search running) are never freed.
"""
import asyncio
import time

from savanna.board.refusals import Refused
from savanna.errors import clip

__all__ = ["Lobby", "estimate_bytes"]

TABLE_BYTES = 2**16   # a table's own bookkeeping: events, log, keys (a generous bound)


class Lobby:
    """The tables by id, with the time each was last asked about (``clock``: seconds);
    ``freed(table_id)`` is told of each table freed (the journal forgets it)."""

    def __init__(self, limits, clock=time.monotonic, freed=lambda table_id: None):
        self.limits, self.clock, self.freed = limits, clock, freed
        self.tables, self.seen, self.locks, self.sizes = {}, {}, {}, {}

    def get(self, table_id):
        """The table ``table_id``, marked as in use now; a 404 if there is none."""
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is not None and self._idle(table):
            self.free(table_id)
            table = None
        if table is None:
            raise Refused(f"no game {clip(table_id)} on this server (it may have ended or "
                          "been left idle)", "missing")
        self.seen[table_id] = self.clock()
        return table

    def lock(self, table):
        """The lock that keeps one change at a time on ``table``."""
        return self.locks.setdefault(table.id, asyncio.Lock())

    def add(self, table, idle=0.0):
        """Seat ``table`` (unasked for ``idle`` seconds: one resumed after a restart) after
        freeing the idle ones; finished games make room for it, else a Refused (busy) when the
        server holds as many games or as much memory as it may."""
        self.sweep()
        size = estimate_bytes(table)
        while len(self.tables) >= self.limits.max_tables or \
                self.memory() + size > self.limits.max_memory:
            ended = next((k for k, t in self.tables.items() if self._freeable(t) and t.over),
                         None)
            if ended is None:
                raise Refused(self._full(size), "busy")
            self.free(ended)
        self.tables[table.id], self.seen[table.id] = table, self.clock() - idle
        self.sizes[table.id] = (len(table.events), size)

    def sweep(self):
        """Free every table left idle longer than ``limits.idle_minutes``."""
        for key in [k for k, t in self.tables.items() if self._idle(t)]:
            self.free(key)

    def free(self, key):
        for held in (self.tables, self.seen, self.locks, self.sizes):
            held.pop(key, None)
        self.freed(key)

    def memory(self):
        """The estimated bytes the tables hold (re-estimated where the game moved on: each
        human move keeps an undo point)."""
        for key, table in self.tables.items():
            if self.sizes[key][0] != len(table.events):
                self.sizes[key] = (len(table.events), estimate_bytes(table))
        return sum(size for _, size in self.sizes.values())

    def _idle(self, table):
        idle = self.clock() - self.seen[table.id] > 60 * self.limits.idle_minutes
        return idle and self._freeable(table)

    def _freeable(self, table):
        lock = self.locks.get(table.id)
        return not table.unsaved and not (lock is not None and lock.locked())

    def _full(self, size):
        mib = 2**20
        if len(self.tables) >= self.limits.max_tables:
            return (f"{self.limits.max_tables} games are in progress on this server; finish "
                    "one first, or wait until an idle one is freed "
                    f"({self.limits.idle_minutes:g} min)")
        return (f"this game would take {size / mib:.1f} MiB and the games in progress hold "
                f"{self.memory() / mib:.0f} of the {self.limits.max_memory / mib:.0f} MiB "
                "this server allows; finish one first, or wait until an idle one is freed")


def estimate_bytes(table):
    """A table's memory, estimated: its bookkeeping and its states (the current one, the
    start and one per undo point)."""
    return TABLE_BYTES + table.state.nbytes * (len(table.undo_points) + 2)
