"""The one place where the tables of ``savanna serve`` change, as boardgame.io's ``Master`` is.

Every change, whoever asks (a page's move, undo, pace or step, the referee's agent move, a new
table), goes through ``Master``, which, one change at a time per table: checks the key's seat,
lets the table refuse a stale or unlawful change (``Refused``: then nothing changed), makes it,
journals the table (``board.journal``) before anyone hears of it, pushes each page its seat's
view (``board.hub``) and wakes the agents (``board.referee``). Nothing else changes a table.

    master = Master(lobby, hub, journal, pool, limits)
    table = await master.create(fields)           # POST /api/tables
    await master.move(table, key, action, version)
    await master.undo(table, key); await master.pace(table, key, paused, delay)
    await master.advance(table, key)               # pause, and one agent move now
"""
import anyio

from savanna.board.referee import Referee
from savanna.board.refusals import Refused
from savanna.board.tables import Table

__all__ = ["Master"]


class Master:
    """The tables of ``lobby``, changed here only; ``hub`` tells the pages, ``journal`` keeps the
    tables over a restart, ``pool`` runs the agents' searches (``workers.SearchPool``);
    ``unplaced`` takes the server's paths out of a failed search's reason."""

    def __init__(self, lobby, hub, journal, pool, limits, unplaced=str):
        self.lobby, self.hub, self.journal, self.limits = lobby, hub, journal, limits
        self.referee = Referee(self, pool, limits, unplaced)
        self.readying = None  # the games got ready at start (board.readying), if they are

    # ----- what the routes ask ---------------------------------------------------------------
    async def create(self, fields):
        """A new table from a request's ``fields`` (``Table.new``'s), seated and told; the
        agents seated before the first human have played when this returns (the page counts
        the seconds while a fresh install compiles): a game the search workers are getting
        ready is waited for (first in their line) rather than compiled here."""
        game, seats = fields.get("game"), fields.get("seats")
        if self.readying is not None and isinstance(game, str):
            self.readying.first(game, seats if isinstance(seats, list) else ())
            await self.readying.table_ready(game)
        table = await anyio.to_thread.run_sync(  # reads the agents' checkpoints
            Table.new, fields.get("game"), fields.get("options"), fields.get("seats"),
            fields.get("seed"), self.limits, fields.get("paused", False),
            fields.get("delay", 0.0))
        self.lobby.add(table)
        async with self.lobby.lock(table):
            self._commit(table)
        if any(agent is None for agent in table.seats):
            await self.referee.settled(table)
        return table

    async def move(self, table, key, action, version, agents=True):
        """The key's seat plays ``action`` at ``version``; with ``agents``, returns once the
        agents replied."""
        await self._change(table, lambda: table.move(table.seat_of(key), action, version))
        if agents:
            await self.referee.settled(table)

    async def undo(self, table, key):
        await self._change(table, lambda: table.undo(table.seat_of(key)))

    async def pace(self, table, key, paused=None, delay=None):
        """The agents' pace, set by a key of the table; refused once the game is over and
        when it changes nothing (no field)."""
        self.keyholder(table, key)
        if paused is None and delay is None:
            raise Refused("say what to change: paused (true or false), delay (seconds)")

        def change():
            if table.over:
                raise Refused("the game is over: its agents have no pace to set", "conflict")
            table.set_pace(paused, delay)

        await self._change(table, change)

    async def advance(self, table, key):
        """Pause ``table`` and play one agent move now (after the one being searched, if any);
        refused if no agent is to move, the search's failure raised (nothing then changes)."""
        self.keyholder(table, key)
        if not table.agent_to_move:
            raise Refused("no agent is to move", "conflict")
        await self._change(table, lambda: table.set_pace(paused=True))

        async def change():
            if not await self.referee.search(table):
                raise Refused("no agent is to move", "conflict")

        await self._change(table, change)

    def keyholder(self, table, key):
        """The seat of ``key``, which must be one of ``table``'s (a seat's or the control
        key): the agents' pace is theirs to set, not a spectator's."""
        if key is None:
            raise Refused("the agents' pace and steps need a key of this game (header "
                          "X-Seat-Key)", "forbidden")
        return table.seat_of(key)

    # ----- what the referee asks ------------------------------------------------------------
    async def play_agent(self, table, due):
        """One agent move of ``table`` if ``due(table)`` still holds under its lock; a search
        that fails pauses the table, its reason the notice."""
        async def change():
            if not due(table):
                return False
            try:
                await self.referee.search(table)
            except Refused as err:
                table.pause(self.referee.unplaced(str(err).replace("\n", " ")))
            return True

        return await self._change(table, change)

    def note(self, table, preparing):
        """Tell the pages what the agents are getting ready for (None: done); no change of
        the game, so nothing is journaled."""
        table.preparing = preparing
        table.revision += 1
        self.hub.publish(table)

    def halt(self, table, notice):
        """Pause ``table`` saying why (a bug in its agents' loop), and tell the pages."""
        table.pause(notice)
        self._commit(table)

    # ----- every change, one way ------------------------------------------------------------
    async def _change(self, table, change):
        """``change()`` (a function or a coroutine function) under ``table``'s lock, then
        committed; a Refused from it leaves the table untold (it changed nothing)."""
        async with self.lobby.lock(table):
            result = change()
            if hasattr(result, "__await__"):
                result = await result
            if result is not False:
                self._commit(table)
        return result

    def _commit(self, table):
        """Journal ``table``, push it to its pages, and let its agents play on."""
        self.journal.save(table)
        self.hub.publish(table)
        self.referee.wake(table)

    def restore(self, found):
        """Seat the tables journaled before a restart (``[(table, idle seconds)]``) and let
        their agents play on."""
        for table, idle in found:
            self.lobby.add(table, idle=idle)
            self.referee.wake(table)
