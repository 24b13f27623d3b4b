"""Game reviews for ``savanna serve``: ``savanna.agents.review`` of a recorded or finished game, run
as a job whose progress and partial result can be read while it runs: its decisions are
analysed one at a time in the server's search workers (``board.workers``), each given
``Limits.max_seconds``; Cancel stops the decision being searched (its worker process killed).

A review is asked for a game of a records file (``file``, ``game``: its index) or a finished
game of this server (``table``), with a search agent (``agent``, default the game's
``savanna.agents.play.review.default_reviewer``), ``threshold`` and ``seed``; its result is
``Review.to_json()``, the same figures as ``savanna review``'s CSV.

A whole review is kept in the server's save folder (``savanna serve --save``), under
``reviews/KEY.json``, the same file as ``savanna review --json`` writes; ``KEY`` names the game
and the settings (``kept_key``), and a request with ``kept: KEY`` instead of the settings answers
with that review, searching nothing: the page's address of a review holds its key.

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match
>>> from savanna.board.served_files import Replays
>>> from savanna.board.tables import Limits
>>> from savanna.board.workers import SearchPool
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
import hashlib
import json
import re
import secrets
import time

import anyio

from savanna.agents.play.puzzles import dealt_before, puzzle_of, shown_drop
from savanna.agents.play.review import (
    DEFAULT_THRESHOLD,
    Review,
    default_reviewer,
    review_decision,
)
from savanna.board import workers
from savanna.board.refusals import Refused
from savanna.board.seating import check_agent
from savanna.board.workers import SearchError
from savanna.errors import check_int, check_range, clip
from savanna.files import atomic_write_text, json_text, parse_json, read_text

__all__ = ["FIELDS", "ReviewJob", "Reviews", "kept_key", "puzzle_step", "review_step"]

FIELDS = {"file", "game", "table", "agent", "threshold", "seed", "kept"}  # of POST /api/reviews
MAX_RUNNING = 8    # reviews running at once (each searches one decision at a time)
MAX_KEPT = 64      # reviews kept, the oldest finished ones dropped first


def review_step(game, row, played, spec, seed, ply, threshold):
    """In a worker: decision ``ply``'s row of the review by agent ``spec``
    (``savanna.agents.play.review.review_decision``)."""
    return review_decision(game, row, played, workers.agent(spec), seed, ply, threshold)


def puzzle_step(game, row, decision, spec, seed, threshold, dealt):
    """In a worker: the puzzle of a marked decision, as a dict
    (``savanna.agents.play.puzzles.puzzle_of``)."""
    return puzzle_of(game, row, decision, workers.agent(spec), seed, threshold, dealt,
                     shown_drop(decision)).to_json()


def kept_key(source, agent, threshold, seed):
    """The name a review is kept under: a digest of what it is of (``{"file", "game"}`` or
    ``{"table"}``) and of its settings (the agent's label, as the result holds it)."""
    text = json.dumps([source, agent, float(threshold), int(seed)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


class ReviewJob:
    """One review: ``load()`` gives ``(record, game)`` (a record is replayed on a thread, not
    on the event loop); ``start``, ``run``, ``cancel`` and ``status`` as an analysis'.
    ``keep(key, result)`` writes a whole review (``save``: the save folder, or None);
    ``stored``: a kept review's result, answered without a search."""

    def __init__(self, load, spec, limits, threshold, seed, source=None, stored=None):
        self.load, self.limits, self.source, self.stored = load, limits, source, stored
        # reads a checkpoint: built off the event loop; None: the game's reviewer, once loaded
        self.agent = None if spec is None else self._searcher(spec)
        try:
            self.threshold = check_range("threshold", threshold, 0)
            self.seed = check_int("seed", seed, 0, 2**63 - 1)
        except ValueError as err:
            raise Refused(str(err)) from None
        self.cancelled, self.task, self.searching = False, None, False
        self.done, self.error, self.result, self.plies = False, None, None, None
        self.loaded = None  # (record, game, states) once read
        self.puzzles = {}   # player -> its puzzles, once asked for
        self.kept = None    # the key it is kept under, once written
        self.started = time.monotonic()

    def start(self, pool):
        """Run the job as a task of the running event loop, its decisions in ``pool``."""
        self.task = asyncio.get_running_loop().create_task(self.run(pool))

    async def run(self, pool):
        """Review every decision, publishing the partial result after each, until the end or
        a cancel."""
        try:
            record, game, states = self.loaded = await anyio.to_thread.run_sync(self._loaded)
            self.plies, rows = record.plies, []
            if self.stored is not None:
                self.result, self.kept = self.stored, self._key()
                return
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
            if len(rows) == record.plies and self.limits.save is not None:
                await anyio.to_thread.run_sync(self._keep)
        except (ValueError, SearchError) as err:
            self.error = str(err).replace("\n", " ")
        except asyncio.CancelledError:
            pass  # cancel(): the worker was stopped, the decisions reviewed so far stay
        finally:
            self.done = True

    def _key(self):
        return kept_key(self.source, self.agent.label, self.threshold, self.seed)

    def _keep(self):
        """Write the whole review to the save folder (a failure is said in ``error``)."""
        key = self._key()
        path = kept_path(self.limits, key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, json_text(self.result))
            self.kept = key
        except OSError as err:
            self.error = f"the review is done but could not be kept in --save: {err}"

    def _searcher(self, spec):
        """The checked search agent ``spec``; refused if it is not a search."""
        agent = check_agent(spec, self.limits)
        if not isinstance(agent.sims, int):
            raise Refused(f"a review needs a search agent (mcts, ppo-mcts or az), got "
                          f"{clip(spec)}")
        return agent

    def _loaded(self):
        record, game = self.load()
        if self.agent is None:
            self.agent = self._searcher(default_reviewer(game))
        return record, game, record.states(game)

    async def puzzles_of(self, player, pool):
        """``player``'s marked moves as puzzles (dicts of ``Puzzle.to_json``), searched in
        ``pool`` once and kept."""
        if not (self.done and self.result and len(self.result["decisions"]) == self.plies):
            raise Refused("mistakes are retried once the whole game is reviewed", "conflict")
        record, game, states = self.loaded
        try:
            player = check_int("player", player, 0, game.num_players - 1)
        except ValueError as err:
            raise Refused(str(err)) from None
        if player not in self.puzzles:
            found = []
            for d in self.result["decisions"]:
                if d["label"] and d["player"] == player:
                    k = record.ply_index(d["ply"])
                    found.append(await pool.run(
                        puzzle_step, game, states[k: k + 1], d, self.agent.spec, self.seed,
                        self.threshold, dealt_before(record, game, states, k, player),
                        seconds=self.limits.max_seconds))
            self.puzzles[player] = found
        return self.puzzles[player]

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
                "seconds": round(time.monotonic() - self.started, 3), "kept": self.kept,
                "result": self.result}


def kept_path(limits, key):
    """Where review ``key`` is kept: ``reviews/KEY.json`` in the save folder."""
    return limits.save / "reviews" / f"{key}.json"


class Reviews:
    """The server's reviews by id, their searches run in ``pool`` (a ``SearchPool``)."""

    def __init__(self, replays, tables, limits, pool):
        self.replays, self.tables, self.limits, self.pool = replays, tables, limits, pool
        self.jobs = {}

    def job(self, body):
        """The review a request's ``body`` asks for (see the module doc), checked; reads a
        records file, a kept review and a checkpoint: call it off the event loop."""
        load = self._loader(body)
        source = {k: body[k] for k in ("table",) if k in body} or \
            {"file": body.get("file"), "game": body.get("game", 0)}
        if "kept" in body:
            stored = self._stored(body["kept"], source)
            return ReviewJob(load, stored["agent"], self.limits, stored["threshold"],
                             stored["seed"], source, stored)
        return ReviewJob(load, body.get("agent"), self.limits,
                         body.get("threshold", DEFAULT_THRESHOLD), body.get("seed", 0), source)

    def _stored(self, key, source):
        """The kept review ``key`` of ``source``, read from the save folder; 404 if none."""
        missing = Refused(f"no kept review {clip(key)} of this game", "missing")
        if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{24}", key) \
                or self.limits.save is None:
            raise missing
        try:
            stored = parse_json(read_text(kept_path(self.limits, key), "kept review", 2**26),
                                "kept review")
        except (OSError, ValueError):
            raise missing from None
        try:
            same = kept_key(source, stored["agent"], stored["threshold"], stored["seed"]) == key
        except (TypeError, ValueError, KeyError):  # not a review this server kept
            same = False
        if not same:
            raise missing
        return stored

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

    def find(self, key):
        """Review ``key``; 404 if unknown."""
        job = self.jobs.get(key)
        if job is None:
            raise Refused(f"no review {clip(key)}", "missing")
        return job

    def status(self, key, cancel=False):
        """The status of review ``key`` (cancelled first when ``cancel``); 404 if unknown."""
        job = self.find(key)
        if cancel:
            job.cancel()
        return job.status()
