"""Game reviews for ``savanna serve``: ``savanna.agents.review`` of a recorded or finished game, run
off the event loop as a job whose progress and partial result can be read while it runs, and
which stops between two decisions when cancelled.

A review is asked for a game of a records file (``file``, ``game``: its index) or a finished
game of this server (``table``), with a search agent (``agent``, default
``savanna.agents.play.review.DEFAULT_AGENT``), ``threshold`` and ``seed``; its result is
``Review.to_json()``, the same figures as ``savanna review``'s CSV.

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match
>>> from savanna.experiments.board.files import Replays
>>> from savanna.experiments.board.tables import Limits
>>> from savanna.records import write_records
>>> match = play_match(make_game("zebres"), [make_agent("random"), make_agent("greedy")],
...                    games=1, workers=1, progress=False, record=True)
>>> write_records("records.jsonl", match.records)
>>> limits = Limits(folders=(".",))
>>> reviews = Reviews(Replays(limits.folders), {}, limits, start=lambda job: job.run())
>>> key = reviews.new({"file": "records.jsonl", "game": 0, "agent": "mcts:sims=50"})["id"]
>>> status = reviews.status(key)    # on the server: polled while it runs
>>> status["reviewed"] == status["of"] == match.records[0].plies
True
"""
import secrets
import threading
import time

from savanna.agents.play.review import DEFAULT_AGENT, DEFAULT_THRESHOLD, review
from savanna.errors import check_int, check_range, clip
from savanna.experiments.board.tables import BadRequest, check_agent

__all__ = ["FIELDS", "ReviewJob", "Reviews"]

FIELDS = {"file", "game", "table", "agent", "threshold", "seed"}  # of POST /api/reviews
MAX_RUNNING = 8    # reviews running at once (each may hold a search thread for minutes)
MAX_KEPT = 64      # reviews kept, the oldest finished ones dropped first


class ReviewJob:
    """One review: ``load()`` gives ``(record, game)`` on the worker (a record is replayed
    there, not on the request path); ``run``, ``cancel`` and ``status`` as an analysis'."""

    def __init__(self, load, spec, limits, threshold, seed):
        self.load = load
        self.agent = check_agent(spec, limits)
        if not isinstance(getattr(self.agent, "sims", None), int):
            raise BadRequest(f"a review needs a search agent (mcts, ppo-mcts or az), got "
                             f"{clip(spec)}")
        try:
            self.threshold = check_range("threshold", threshold, 0)
            self.seed = check_int("seed", seed, 0, 2**63 - 1)
        except ValueError as err:
            raise BadRequest(str(err)) from None
        self.cancelled = threading.Event()
        self.done, self.error, self.result, self.plies = False, None, None, None
        self.started = time.monotonic()

    def run(self):
        """Review every decision, publishing the partial result after each, until the end or
        a cancel."""
        try:
            record, game = self.load()
            self.plies = record.plies
            review(record, self.agent, threshold=self.threshold, seed=self.seed, game=game,
                   progress=self._publish, stop=self.cancelled)
        except ValueError as err:
            self.error = str(err)
        finally:
            self.done = True

    def _publish(self, partial):
        self.result = partial.to_json()

    def cancel(self):
        self.cancelled.set()

    def status(self):
        """Progress (``reviewed`` decisions ``of`` the game's) and the latest result."""
        reviewed = len(self.result["decisions"]) if self.result else 0
        return {"done": self.done, "cancelled": self.cancelled.is_set(), "error": self.error,
                "reviewed": reviewed, "of": self.plies,
                "seconds": round(time.monotonic() - self.started, 3), "result": self.result}


class Reviews:
    """The server's reviews by id; ``start(job)`` runs ``job.run`` off the event loop, as the
    analyses are run."""

    def __init__(self, replays, tables, limits, start):
        self.replays, self.tables, self.limits, self.start = replays, tables, limits, start
        self.jobs = {}

    def new(self, body):
        """Start the review a request's ``body`` asks for (see the module doc); its id and
        status."""
        job = ReviewJob(self._loader(body), body.get("agent", DEFAULT_AGENT), self.limits,
                        body.get("threshold", DEFAULT_THRESHOLD), body.get("seed", 0))
        if sum(not j.done for j in self.jobs.values()) >= MAX_RUNNING:
            raise BadRequest(f"{MAX_RUNNING} reviews are running; cancel one or wait", 429)
        for key in [k for k, j in self.jobs.items() if j.done][: max(0, len(self.jobs)
                                                                       - MAX_KEPT + 1)]:
            del self.jobs[key]
        key = secrets.token_urlsafe(16)
        self.jobs[key] = job
        self.start(job)
        return {"id": key, **job.status()}

    def _loader(self, body):
        """What loads the game to review, its request checked here: a file's game index in
        range, or a table of this server whose game has ended."""
        if "table" in body:
            table = self.tables.get(body["table"]) if isinstance(body["table"], str) else None
            if table is None:
                raise BadRequest(f"no game {clip(body['table'])} on this server", 404)
            if not table.over:
                raise BadRequest("a game is reviewed once it has ended", 409)
            return lambda: (table.record(), table.game)
        if "file" in body:
            file, index = body["file"], body.get("game", 0)
            count = len(self.replays.records(file))
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
                raise BadRequest(f"game must be in 0..{count - 1} ({clip(file)} holds {count} "
                                 f"records), got {clip(index)}")

            def load():
                record, game, _, _ = self.replays.game(file, index)
                return record, game

            return load
        raise BadRequest("say what to review: file (and game, its index), or table (a game of "
                         "this server that has ended)")

    def status(self, key, cancel=False):
        """The status of review ``key`` (cancelled first when ``cancel``); 404 if unknown."""
        job = self.jobs.get(key)
        if job is None:
            raise BadRequest(f"no review {clip(key)}", 404)
        if cancel:
            job.cancel()
        return job.status()
