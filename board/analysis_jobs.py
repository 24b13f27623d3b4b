"""Analyses for ``savanna serve``: a search agent's view of one position, searched in a worker
process (``board.workers``) in rounds of growing simulations (an eighth, a quarter, a half,
all), so that a long one shows its progress (each finished round is a result).

Each round is ``savanna.agents.play.analysis.analyse`` with the agent's ``sims`` set for the
round. The job has ``Limits.max_seconds`` in all, waiting for a worker included: a round still
searching then is stopped (its worker process killed) and the job ends with the rounds it
finished; Cancel stops it the same way at once. The result is the analysis' JSON with, for
every move, where it sits on the board (``Game.move_spots``) for the heat map.

>>> import asyncio
>>> from savanna import make_game
>>> from savanna.board.tables import Limits
>>> from savanna.board.workers import SearchPool
>>> game = make_game("zebres")
>>> job = AnalysisJob(game, game.from_text("z...../..G.../....../.l..../...... g 21 - move"),
...                   "mcts:sims=400", Limits(), seed=0)
>>> asyncio.run(job.run(SearchPool(1)))     # the server starts it as a task
>>> job.status()["result"]["moves"][0]["move"]
'impala +...'
"""
import asyncio
import time

import numpy as np

from savanna.agents.play.analysis import analyse
from savanna.board import workers
from savanna.board.refusals import Refused
from savanna.board.seating import check_agent
from savanna.board.tables import outcome_name
from savanna.board.workers import SearchError
from savanna.errors import clip
from savanna.game import CHANCE

__all__ = ["AnalysisJob", "analyse_round", "line_spots"]

ROUNDS = (8, 4, 2, 1)  # each round searches sims / k


def analyse_round(game, spec, sims, row, seed):
    """In a worker: the analysis of ``row`` by agent ``spec`` searching ``sims`` simulations,
    as JSON."""
    agent = workers.agent(spec)
    kept, agent.sims = agent.sims, sims  # the worker keeps the agent for other searches
    try:
        return analyse(game, row, agent, np.random.default_rng(seed)).to_json()
    finally:
        agent.sims = kept


class AnalysisJob:
    """One analysis: its rounds, progress, result and cancellation (see the module doc).
    ``hide_position``: leave the position's text out of the result (it holds every seat's
    secrets, and the position is a game in progress)."""

    def __init__(self, game, row, spec, limits, seed=0, hide_position=False):
        self.game, self.row, self.limits = game, game.check_row(row).copy(), limits
        self.agent = check_agent(spec, limits)  # reads a checkpoint: built off the event loop
        self.sims = self.agent.sims
        if not isinstance(self.sims, int) or self.agent.time_budget:
            raise Refused(f"analysis needs a search agent (mcts, ppo-mcts or az) with a "
                             f"number of simulations, got {clip(spec)}")
        self.spec, self.seed, self.hide_position = spec, seed, hide_position
        try:
            player = int(game.current_player(self.row)[0])
        except ValueError as err:
            raise Refused(str(err)) from None
        if player < 0:
            raise Refused("the position is at the end of the game or at a chance node: "
                             "analysis needs a player to move")
        self.spots = game.move_spots(self.row)
        self.cancelled, self.task = False, None
        self.done, self.error, self.result, self.rounds = False, None, None, 0
        self.started = time.monotonic()

    def start(self, pool):
        """Run the job as a task of the running event loop, its rounds in ``pool``."""
        self.task = asyncio.get_running_loop().create_task(self.run(pool))

    async def run(self, pool):
        """Search the rounds in turn until the last, a cancel, or the time runs out."""
        try:
            for k in ROUNDS:
                left = self.limits.max_seconds - (time.monotonic() - self.started)
                if self.cancelled or (self.rounds and left <= 0):
                    break
                found = await pool.run(analyse_round, self.game, self.agent.spec,
                                       max(1, self.sims // k), self.row, self.seed,
                                       seconds=max(left, 0.0))
                self.result = self._json(found)
                self.rounds += 1
        except SearchError as err:
            if not (err.kind == "unavailable" and self.rounds):  # out of time after a round: done
                self.error = str(err)
        except asyncio.CancelledError:
            pass  # cancel(): the worker was stopped, the rounds found so far stay
        finally:
            self.done = True

    def _json(self, data):
        if self.hide_position:
            data["position"] = None
        for move in data["moves"]:
            move["spot"] = self.spots.get(move["action"])
        data["pv_spots"] = line_spots(self.game, self.row, data["pv"])
        return data

    def cancel(self):
        """Stop the job now: its round's worker process is killed, which frees its core."""
        self.cancelled = True
        if self.task is not None:
            self.task.cancel()

    def status(self):
        """Progress and the latest result: ``rounds`` finished of ``len(ROUNDS)``."""
        return {"done": self.done, "cancelled": self.cancelled, "error": self.error,
                "rounds": self.rounds, "of": len(ROUNDS), "sims": self.sims,
                "seconds": round(time.monotonic() - self.started, 3), "result": self.result}


def line_spots(game, row, line):
    """Where each move of ``line`` (move names from ``row``, a chance outcome as ``(name)``,
    as an analysis' principal variation writes them) sits on the board, None for a move with
    no place or a chance outcome; the line is followed while its names match a legal move."""
    row, spots = row.copy(), []
    for name in line:
        player = int(game.current_player(row)[0])
        if player == CHANCE:
            probs = game.chance_probs(row)[0]
            outcome = next((o for o in np.flatnonzero(probs)
                            if f"({outcome_name(game, int(o))})" == name), None)
            if outcome is None:
                break
            game.apply_chance(row, [int(outcome)])
            spots.append(None)
            continue
        if player < 0:
            break
        action = next((a for a in game.legal_actions(row[0])
                       if game.action_to_string(row[0], a) == name), None)
        if action is None:
            break
        spots.append(game.move_spots(row).get(action))
        game.step_inplace(row, np.array([action]))
    return spots
