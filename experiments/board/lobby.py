"""The tables a ``savanna serve`` holds: found by id, freed when idle, capped in number and in
memory (an estimate of what each table holds, its agents' networks and checkpoints included).

A table nobody asked about for ``Limits.idle_minutes`` is freed when it is next asked for or
when a game is made (an unfinished game is lost, a finished one was written when it ended).
When a new table would pass ``max_tables`` or ``max_memory``, finished games make room, oldest
first, and otherwise the new one is refused. A finished game that could not be written and a
table in use (a search running) are never freed.
"""
import asyncio
import time

import numpy as np

from savanna.errors import clip
from savanna.experiments.board.tables import BadRequest

__all__ = ["Lobby", "estimate_bytes"]

TABLE_BYTES = 2**16   # a table's own bookkeeping: states, log, undo points (a generous bound)
MAX_NODES = 100_000   # objects visited when an agent's memory is estimated


class Lobby:
    """The tables by id, with the time each was last asked about (``clock``: seconds)."""

    def __init__(self, limits, clock=time.monotonic):
        self.limits, self.clock = limits, clock
        self.tables, self.seen, self.locks, self.sizes = {}, {}, {}, {}

    def get(self, table_id):
        """The table ``table_id``, marked as in use now; a 404 if there is none."""
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is not None and self._idle(table):
            self.free(table_id)
            table = None
        if table is None:
            raise BadRequest(f"no game {clip(table_id)} on this server (it may have ended, "
                             "been left idle or the server restarted)", 404)
        self.seen[table_id] = self.clock()
        return table

    def lock(self, table):
        """The lock that keeps one change at a time on ``table``."""
        return self.locks.setdefault(table.id, asyncio.Lock())

    def add(self, table):
        """Seat ``table`` after freeing the idle ones; finished games make room for it, else
        a 429 when the server holds as many games or as much memory as it may."""
        self.sweep()
        size = estimate_bytes(table)
        while len(self.tables) >= self.limits.max_tables or \
                self.memory() + size > self.limits.max_memory:
            ended = next((k for k, t in self.tables.items() if self._freeable(t) and t.over),
                         None)
            if ended is None:
                raise BadRequest(self._full(size), 429)
            self.free(ended)
        self.tables[table.id], self.seen[table.id] = table, self.clock()
        self.sizes[table.id] = (len(table.events), size)

    def sweep(self):
        """Free every table left idle longer than ``limits.idle_minutes``."""
        for key in [k for k, t in self.tables.items() if self._idle(t)]:
            self.free(key)

    def free(self, key):
        for held in (self.tables, self.seen, self.locks, self.sizes):
            held.pop(key, None)

    def memory(self):
        """The estimated bytes the tables hold (re-estimated where the game moved on: an
        agent builds its network at its first move)."""
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
                "this server allows; finish one first, or seat fewer network agents")


def estimate_bytes(table):
    """A table's memory, estimated: its bookkeeping, and the arrays and tensors its agents
    hold (networks, checkpoints, search trees), each counted once."""
    total = TABLE_BYTES + table.state.nbytes * (len(table.undo_points) + 2)
    seen, todo, nodes = set(), [a for a in table.seats if a is not None], 0
    while todo and nodes < MAX_NODES:
        x = todo.pop()
        nodes += 1
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, np.ndarray):
            total += x.nbytes
        elif type(x).__module__.startswith("torch") and hasattr(x, "element_size"):
            total += x.element_size() * x.nelement()
        elif isinstance(x, dict):
            todo.extend(x.values())
        elif isinstance(x, list | tuple | set | frozenset):
            todo.extend(x)
        elif type(x).__module__.startswith(("savanna", "torch")) and hasattr(x, "__dict__"):
            todo.extend(vars(x).values())
    return total
