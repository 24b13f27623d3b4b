"""The game loop of ``savanna serve``: when an agent is to move, the server plays it, whether or
not any page is open, as boardgame.io's game master and lichess do; pages only watch
(``board.hub``) and send the humans' moves.

One task per table runs while an agent is to move and the table is not paused: it waits the
table's ``delay``, asks a search worker for the move (``board.workers``: never in the server's
process, at most ``Limits.max_seconds``), plays it under the table's lock and tells the pages.
A search that fails or runs out of time pauses the table with its reason as the ``notice``
(the game waits at that move until someone resumes or steps). ``step`` plays one agent move
now and leaves the table paused, as a debugger's step does.

    referee = Referee(lobby, pool, hub, limits)
    referee.wake(table)            # after any change: the agents to move play on their own
    await referee.settled(table)   # until a human is to move, the end, or a pause
"""
import asyncio
import logging

from savanna.experiments.board import workers
from savanna.experiments.board.tables import BadRequest
from savanna.experiments.board.workers import SearchError

__all__ = ["Referee"]

LOG = logging.getLogger(__name__)


class Referee:
    """Plays the agents' moves of the tables of ``lobby`` in the workers of ``pool`` and tells
    ``hub`` of each one; ``unplaced`` takes the server's paths out of a failed search's reason."""

    def __init__(self, lobby, pool, hub, limits, unplaced=str):
        self.lobby, self.pool, self.hub, self.limits = lobby, pool, hub, limits
        self.unplaced = unplaced
        self.tasks = {}  # table id -> the task playing its agents

    def wake(self, table):
        """Start playing ``table``'s agents if one is to move and the table is not paused
        (nothing if its task runs already)."""
        task = self.tasks.get(table.id)
        if (task is None or task.done()) and self._due(table):
            self.tasks[table.id] = asyncio.create_task(self._run(table))

    async def settled(self, table):
        """Wait until ``table``'s agents stop: a human is to move, the game is over, or the
        table is paused."""
        while (task := self.tasks.get(table.id)) is not None and not task.done():
            await asyncio.shield(task)

    async def step(self, table):
        """Pause ``table`` and play one agent move now (after the one being searched, if
        any); a BadRequest (409) if no agent is to move, a SearchError if its search fails
        (nothing then changes)."""
        if not table.agent_to_move:
            raise BadRequest("no agent is to move", 409)
        table.set_pace(paused=True)
        self.hub.publish(table)
        async with self.lobby.lock(table):
            if not await self._play_one(table):
                raise BadRequest("no agent is to move", 409)
        self.hub.publish(table)

    def _due(self, table):
        return not table.paused and table.agent_to_move

    async def _run(self, table):
        try:
            while self._due(table):
                if table.delay:
                    await asyncio.sleep(table.delay)
                async with self.lobby.lock(table):
                    if not self._due(table):
                        return
                    try:
                        await self._play_one(table)
                    except (BadRequest, SearchError) as err:
                        table.pause(self.unplaced(str(err).replace("\n", " ")))
                self.hub.publish(table)
                self.lobby.get(table.id)  # in use; a BadRequest once the server freed it
        except BadRequest:
            return
        except Exception as err:  # a bug: the game waits, and says why, rather than dies
            LOG.exception("savanna serve: the agents of game %s stopped", table.id)
            table.pause(f"internal error ({type(err).__name__}): the server's log has the details")
            self.hub.publish(table)
        finally:
            if self.tasks.get(table.id) is asyncio.current_task():
                del self.tasks[table.id]

    async def _play_one(self, table):
        """One agent move searched in a worker; False if no agent is to move."""
        search = table.agent_search()
        if search is None:
            return False
        version, args = search
        action = await self.pool.run(workers.play, *args, seconds=self.limits.max_seconds)
        table.apply_agent(version, action)
        return True
