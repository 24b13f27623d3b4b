"""The push channel of ``savanna serve``: every open page of a table hears of each change at once
(a move, an undo, a pause, the result) as Server-Sent Events, so that no page ever asks again.

``GET /api/tables/{id}/events`` (the seat's ``X-Seat-Key`` header, as every route; none: a
spectator) answers ``text/event-stream``: first the table as that seat sees it, then again
after each change (``event: view``, the JSON of ``Table.view``), and who is connected when that
changes (``event: presence``: ``{"seats": [pages open per seat], "spectators": n}``). Each
message is the whole view, so a page that reconnects, or that read too slowly to see every
change, shows exactly the game as it stands; nothing is queued per page (a reader that never
reads holds one socket and one coroutine, no memory that grows). A comment line every
``HEARTBEAT`` seconds finds the pages that went away.

The connections are bounded, and the seats come first (lichess: spectators never slow the
players): a page that shows a key of the table (a seat's or the control key) has its own room,
``MAX_PER_KEY`` pages per key and ``MAX_KEYED`` in all, which no spectator can take; spectators
have theirs, ``MAX_SPECTATORS_PER_TABLE`` per table and ``MAX_SPECTATORS`` in all. Past a cap a
``Refused`` (busy: a 429). A view is built once per change and seat, on the event loop (a
picture and a JSON dump: milliseconds), and shared by the pages of that seat.
"""
import asyncio
import json
from collections import Counter
from dataclasses import dataclass, field

from savanna.board.refusals import Refused

__all__ = ["HEARTBEAT", "MAX_KEYED", "MAX_PER_KEY", "MAX_SPECTATORS",
           "MAX_SPECTATORS_PER_TABLE", "Hub"]

HEARTBEAT = 15.0                 # seconds between two comment lines to an idle page
MAX_PER_KEY = 16                 # pages open with one key of a table (a seat's tabs)
MAX_KEYED = 4000                 # pages open with a key, all tables together
MAX_SPECTATORS_PER_TABLE = 1000  # pages watching one table without a key
MAX_SPECTATORS = 4000            # pages watching without a key, all tables together
PRESENCE_EVERY = 0.25            # seconds: a burst of pages coming and going is told once


@dataclass(eq=False)
class _Watcher:
    seat: int | None
    key: str | None = None  # which key of the table it showed (a seat, "control"); None: none
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """The pages watching each table. ``publish(table)`` after every change; ``stream(table,
    seat)`` is the ASGI answer of one page's connection. ``view_of(table, seat)`` is the
    view sent, as JSON text; ``alive(table)`` marks the table as in use and raises a
    Refused once the server has freed it (the connection then ends). Every map is kept for
    the tables that have pages open only."""

    def __init__(self, view_of, alive):
        self.view_of, self.alive = view_of, alive
        self.watchers = {}     # table id -> set of _Watcher
        self.presence = {}     # table id -> (presence changes so far, its message bytes)
        self._cache = {}       # (table id, seat) -> (table revision, message bytes)
        self._told = set()     # tables whose presence is about to be told
        self.keyed = self.spectators = 0  # pages open with a key, without one
        self.closing = False   # the server is stopping: every answer ends

    def close(self):
        """End every page's answer now (the server is stopping), so that the server stops at
        once rather than wait for connections that never end; a page then reconnects."""
        self.closing = True
        for here in self.watchers.values():
            for watcher in here:
                watcher.wake.set()

    def publish(self, table):
        """``table`` changed (its ``revision`` counts the changes): every page of it is sent
        the new view, the players' pages first (woken first, they send first)."""
        here = self.watchers.get(table.id, ())
        for watcher in sorted(here, key=lambda w: w.key is None):
            watcher.wake.set()

    def connected(self, table):
        """``{"seats": [pages per seat], "spectators": pages without a seat}``."""
        seats = Counter(w.seat for w in self.watchers.get(table.id, ()))
        return {"seats": [seats[p] for p in range(len(table.seats))],
                "spectators": seats[None]}

    def stream(self, table, seat, key=None):
        """The ASGI answer that pushes ``table`` as ``seat`` sees it until the page leaves;
        ``key``: which of the table's keys the page showed (its seat, or ``"control"``), None
        for a spectator. A Refused (busy) past the caps of the module docstring."""
        here = self.watchers.get(table.id, ())
        if self.closing:
            raise Refused("the server is stopping; try again in a moment", "unavailable")
        if key is not None:
            mine = sum(w.key == key for w in here)
            if mine >= MAX_PER_KEY or self.keyed >= MAX_KEYED:
                raise Refused(f"{mine} pages are open with this key of the game already (at "
                              f"most {MAX_PER_KEY}); close one", "busy")
        else:
            watching = sum(w.key is None for w in here)
            if watching >= MAX_SPECTATORS_PER_TABLE or self.spectators >= MAX_SPECTATORS:
                raise Refused(f"{watching} spectators watch this game already (at most "
                              f"{MAX_SPECTATORS_PER_TABLE} a game, {MAX_SPECTATORS} in all; "
                              "the players' pages have room of their own); try again later",
                              "busy")
        return _Stream(self, table, _Watcher(seat, key))

    def _join(self, table, watcher):
        self.watchers.setdefault(table.id, set()).add(watcher)
        self._count(watcher, 1)
        self._tell_presence(table)

    def _count(self, watcher, step):
        if watcher.key is None:
            self.spectators += step
        else:
            self.keyed += step

    def _leave(self, table, watcher):
        here = self.watchers.get(table.id, set())
        if watcher in here:
            self._count(watcher, -1)
        here.discard(watcher)
        if not here:
            self.watchers.pop(table.id, None)
            self.presence.pop(table.id, None)
            for key in [k for k in self._cache if k[0] == table.id]:
                del self._cache[key]
        else:
            self._tell_presence(table)

    def _tell_presence(self, table):
        """Tell the pages who is connected, once for a burst of arrivals and departures."""
        if table.id in self._told:
            return
        self._told.add(table.id)

        def tell():
            self._told.discard(table.id)
            if table.id not in self.watchers:
                return  # every page left meanwhile
            told = self.presence.get(table.id, (0, b""))[0] + 1  # built once, for every page
            self.presence[table.id] = (told, b"event: presence\ndata: "
                                       + json.dumps(self.connected(table)).encode() + b"\n\n")
            for watcher in self.watchers.get(table.id, ()):
                watcher.wake.set()

        asyncio.get_running_loop().call_later(PRESENCE_EVERY, tell)

    def _view_message(self, table, seat):
        """The ``view`` event of ``table`` for ``seat`` at its latest revision, built once."""
        revision = table.revision
        cached = self._cache.get((table.id, seat))
        if cached is None or cached[0] != revision:
            cached = (revision, f"event: view\ndata: {self.view_of(table, seat)}\n\n".encode())
            self._cache[(table.id, seat)] = cached
        return cached[1]


class _Stream:
    """One page's connection: the ASGI app that sends it each new view."""

    def __init__(self, hub, table, watcher):
        self.hub, self.table, self.watcher = hub, table, watcher

    async def __call__(self, scope, receive, send):
        hub, table, watcher = self.hub, self.table, self.watcher
        hub._join(table, watcher)  # before any await: the count of pages stays exact
        pump = listen = None
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no")]})
            pump = asyncio.ensure_future(self._pump(send))
            listen = asyncio.ensure_future(_disconnect(receive))
            await asyncio.wait([pump, listen], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (pump, listen):
                if task is not None:
                    task.cancel()
            hub._leave(table, watcher)
        if pump.done() and not pump.cancelled():
            if pump.exception() is None:  # the table was freed: the answer ends
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            elif not isinstance(pump.exception(), OSError):  # OSError: the page went away
                raise pump.exception()

    async def _pump(self, send):
        """Send each new view and presence until the table is freed (or the page goes:
        then the caller cancels this)."""
        hub, table, watcher = self.hub, self.table, self.watcher
        sent = (None, None)
        while not hub.closing:
            watcher.wake.clear()
            presence = hub.presence.get(table.id, (0, b""))
            now = (table.revision, presence[0])
            body = b""
            if now[0] != sent[0]:
                body += hub._view_message(table, watcher.seat)
            if now[1] != sent[1]:
                body += presence[1]
            sent = now
            if body:
                await send({"type": "http.response.body", "body": body, "more_body": True})
            try:
                await asyncio.wait_for(watcher.wake.wait(), HEARTBEAT)
            except TimeoutError:
                try:
                    hub.alive(table)
                except Refused:
                    return  # the server freed the table: the page is told by the end
                await send({"type": "http.response.body", "body": b": still here\n\n",
                            "more_body": True})


async def _disconnect(receive):
    """Returns when the page has gone."""
    while (await receive())["type"] != "http.disconnect":
        pass
