"""Game reviews for ``savanna serve``: ``savanna.agents.review`` of a recorded or finished game, run
as a job whose progress and partial result can be read while it runs: its decisions are
analysed one at a time in the server's search workers (``board.workers``), each given
``Limits.max_seconds``; Cancel stops the decision being searched (its worker process killed).

A review is asked for a game of a records file (``file``, ``game``: its index) or a finished
game of this server (``table``), with a search agent (``agent``, default
``savanna.agents.play.review.DEFAULT_AGENT``), ``threshold`` and ``seed``; its result is
``Review.to_json()``, the same figures as ``savanna review``'s CSV.

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match
>>> from savanna.experiments.board.files import Replays
>>> from savanna.experiments.board.tables import Limits
>>> from savanna.experiments.board.workers import SearchPool
>>> from savanna.records import write_records
>>> match = play_match(make_game("zebres"), [make_agent("random"), make_agent("greedy")],
...                    games=1, workers=1, progress=False, record=True)
>>> write_records("records.jsonl", match.records)
>>> limits = Limits(folders=(".",))
>>> reviews = Reviews(Replays(limits.folders), {}, limits, SearchPool(1))
>>> job = reviews.job({"file": "records.jsonl", "game": 0, "agent": "mcts:sims=50"})
>>> asyncio.run(job.run(reviews.pool))  # the server starts it as a task: reviews.add(job)
>>> status = job.status()               # on the server: polled while it runs
>>> status["reviewed"] == status["of"] == match.records[0].plies
True
"""
import asyncio
import secrets
import time

import anyio

from savanna.agents.play.review import DEFAULT_AGENT, DEFAULT_THRESHOLD, Review, review_decision
from savanna.errors import check_int, check_range, clip
from savanna.experiments.board import workers
from savanna.experiments.board.refusals import Refused
from savanna.experiments.board.seating import check_agent
from savanna.experiments.board.workers import SearchError

__all__ = ["FIELDS", "ReviewJob", "Reviews", "review_step"]

FIELDS = {"file", "game", "table", "agent", "threshold", "seed"}  # of POST /api/reviews
MAX_RUNNING = 8    # reviews running at once (each searches one decision at a time)
MAX_KEPT = 64      # reviews kept, the oldest finished ones dropped first


def review_step(game, row, played, spec, seed, ply, threshold):
    """In a worker: decision ``ply``'s row of the review by agent ``spec``
    (``savanna.agents.play.review.review_decision``)."""
    return review_decision(game, row, played, workers.agent(spec), seed, ply, threshold)


class ReviewJob:
    """One review: ``load()`` gives ``(record, game)`` (a record is replayed on a thread, not
    on the event loop); ``start``, ``run``, ``cancel`` and ``status`` as an analysis'."""

    def __init__(self, load, spec, limits, threshold, seed):
        self.load, self.limits = load, limits
        self.agent = check_agent(spec, limits)  # reads a checkpoint: built off the event loop
        if not isinstance(self.agent.sims, int):
            raise Refused(f"a review needs a search agent (mcts, ppo-mcts or az), got "
                             f"{clip(spec)}")
        try:
            self.threshold = check_range("threshold", threshold, 0)
            self.seed = check_int("seed", seed, 0, 2**63 - 1)
        except ValueError as err:
            raise Refused(str(err)) from None
        self.cancelled, self.task, self.searching = False, None, False
        self.done, self.error, self.result, self.plies = False, None, None, None
        self.started = time.monotonic()

    def start(self, pool):
        """Run the job as a task of the running event loop, its decisions in ``pool``."""
        self.task = asyncio.get_running_loop().create_task(self.run(pool))

    async def run(self, pool):
        """Review every decision, publishing the partial result after each, until the end or
        a cancel."""
        try:
            record, game, states = await anyio.to_thread.run_sync(self._loaded)
            self.plies, rows = record.plies, []
            for ply in range(record.plies):
                if self.cancelled:
                    break
                k = record.ply_index(ply)
                self.searching = True
                try:
                    rows.append(await pool.run(review_step, game, states[k: k + 1],
                                               record.moves[k], self.agent.spec, self.seed,
                                               ply, self.threshold,
                                               seconds=self.limits.max_seconds))
                finally:
                    self.searching = False
                self.result = Review.of(record, game, self.agent.label, self.seed,
                                        self.threshold, rows).to_json()
        except (ValueError, SearchError) as err:
            self.error = str(err).replace("\n", " ")
        except asyncio.CancelledError:
            pass  # cancel(): the worker was stopped, the decisions reviewed so far stay
        finally:
            self.done = True

    def _loaded(self):
        record, game = self.load()
        return record, game, record.states(game)

    def cancel(self):
        """Stop the review now: the decision being searched is stopped (its worker killed);
        a review still loading its game stops before its first decision."""
        self.cancelled = True
        if self.searching:
            self.task.cancel()

    def status(self):
        """Progress (``reviewed`` decisions ``of`` the game's) and the latest result."""
        reviewed = len(self.result["decisions"]) if self.result else 0
        return {"done": self.done, "cancelled": self.cancelled, "error": self.error,
                "reviewed": reviewed, "of": self.plies,
                "seconds": round(time.monotonic() - self.started, 3), "result": self.result}


class Reviews:
    """The server's reviews by id, their searches run in ``pool`` (a ``SearchPool``)."""

    def __init__(self, replays, tables, limits, pool):
        self.replays, self.tables, self.limits, self.pool = replays, tables, limits, pool
        self.jobs = {}

    def job(self, body):
        """The review a request's ``body`` asks for (see the module doc), checked; reads a
        records file and a checkpoint: call it off the event loop."""
        return ReviewJob(self._loader(body), body.get("agent", DEFAULT_AGENT), self.limits,
                         body.get("threshold", DEFAULT_THRESHOLD), body.get("seed", 0))

    def add(self, job):
        """Start ``job`` on the running event loop; its id and status."""
        if sum(not j.done for j in self.jobs.values()) >= MAX_RUNNING:
            raise Refused(f"{MAX_RUNNING} reviews are running; cancel one or wait", "busy")
        for key in [k for k, j in self.jobs.items() if j.done][: max(0, len(self.jobs)
                                                                       - MAX_KEPT + 1)]:
            del self.jobs[key]
        key = secrets.token_urlsafe(16)
        self.jobs[key] = job
        job.start(self.pool)
        return {"id": key, **job.status()}

    def _loader(self, body):
        """What loads the game to review, its request checked here: a file's game index in
        range, or a table of this server whose game has ended."""
        if "table" in body:
            table = self.tables.get(body["table"]) if isinstance(body["table"], str) else None
            if table is None:
                raise Refused(f"no game {clip(body['table'])} on this server", "missing")
            if not table.over:
                raise Refused("a game is reviewed once it has ended", "conflict")
            return lambda: (table.record(), table.game)
        if "file" in body:
            file, index = body["file"], body.get("game", 0)
            count = len(self.replays.records(file))
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
                raise Refused(f"game must be in 0..{count - 1} ({clip(file)} holds {count} "
                                 f"records), got {clip(index)}")

            def load():
                record, game, _, _ = self.replays.game(file, index)
                return record, game

            return load
        raise Refused("say what to review: file (and game, its index), or table (a game of "
                         "this server that has ended)")

    def status(self, key, cancel=False):
        """The status of review ``key`` (cancelled first when ``cancel``); 404 if unknown."""
        job = self.jobs.get(key)
        if job is None:
            raise Refused(f"no review {clip(key)}", "missing")
        if cancel:
            job.cancel()
        return job.status()
