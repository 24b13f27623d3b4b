"""The game loop of ``savanna serve``: when an agent is to move, the server plays it, whether or
not any page is open, as boardgame.io's game master and lichess do; pages only watch
(``board.hub``) and send the humans' moves.

One task per table runs while an agent is to move and the table is not paused: it waits the
table's ``delay``, and asks the master (``board.master``) to play one agent move, which a
search worker finds (``board.workers``: never in the server's process, at most
``Limits.max_seconds``). A search that fails or runs out of time pauses the table with its
reason as the ``notice`` (the game waits at that move until someone resumes or steps).
An agent's first search in a worker first compiles what it needs, on its own time
(``workers.SearchPool.run``'s ready); the first ever is said on the pages meanwhile (the
view's ``preparing``), so that a fresh install shows progress, not an error.

    referee.wake(table)            # after any change: the agents to move play on their own
    await referee.settled(table)   # until a human is to move, the end, or a pause
"""
import asyncio
import logging

from savanna.board import workers
from savanna.board.refusals import Refused

__all__ = ["Referee"]

LOG = logging.getLogger(__name__)


class Referee:
    """Plays the agents' moves of ``master``'s tables in the workers of ``pool``; ``unplaced``
    takes the server's paths out of a failed search's reason."""

    def __init__(self, master, pool, limits, unplaced=str):
        self.master, self.pool, self.limits, self.unplaced = master, pool, limits, unplaced
        self.tasks = {}  # table id -> the task playing its agents

    def wake(self, table):
        """Start playing ``table``'s agents if one is to move and the table is not paused
        (nothing if its task runs already)."""
        task = self.tasks.get(table.id)
        if (task is None or task.done()) and _due(table):
            self.tasks[table.id] = asyncio.create_task(self._run(table))

    async def settled(self, table):
        """Wait until ``table``'s agents stop: a human is to move, the game is over, or the
        table is paused."""
        while (task := self.tasks.get(table.id)) is not None and not task.done():
            await asyncio.shield(task)

    async def search(self, table):
        """One agent move of ``table`` searched in a worker and played (the master holds the
        table's lock); False if no agent is to move, a Refused if the search failed."""
        search = table.agent_search()
        if search is None:
            return False
        version, args = search
        key = workers.ready_key(table.game, table.seats[table.to_move])
        spec = table.typed[table.to_move]
        if key not in self.pool.ready_keys:
            self.master.note(table, f"{spec} is getting ready: its search compiles once per "
                                    "install (up to a few minutes)")
        try:
            if self.master.readying is not None:  # its search being compiled: not twice
                await self.master.readying.wait_for(
                    table.game.name, spec,
                    lambda progress: self.master.note(table, f"getting {spec} ready: {progress}"))
            action = await self.pool.run(workers.play, *args, seconds=self.limits.max_seconds,
                                         ready=(key, workers.rehearse))
        finally:
            if table.preparing:
                self.master.note(table, None)
        table.apply_agent(version, action)
        return True


    async def close(self):
        """Stop every table's loop (the server is stopping)."""
        tasks = [t for t in self.tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, table):
        try:
            while _due(table):
                if table.delay:
                    await asyncio.sleep(table.delay)
                if not await self.master.play_agent(table, _due):
                    return
                self.master.lobby.get(table.id)  # in use; a Refused once the server freed it
        except Refused:
            return
        except Exception as err:  # a bug: the game waits, and says why, rather than dies
            LOG.exception("savanna serve: the agents of game %s stopped", table.id)
            self.master.halt(table, f"internal error ({type(err).__name__}): the server's log "
                                    "has the details")
        finally:
            if self.tasks.get(table.id) is asyncio.current_task():
                del self.tasks[table.id]


def _due(table):
    return not table.paused and table.agent_to_move
