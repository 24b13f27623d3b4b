"""TD(lambda) self-play (the TD-Gammon recipe): a small value network over each seat's
observation, every seat choosing by the afterstate value (0-ply, a uniform move with
probability ``epsilon``), learning after each game from the lambda-returns of what every
seat saw. The games and the learning run compiled (``savanna.agents.play._td_kernels``,
``savanna.agents.training._td_learn``); Python only starts games and keeps the counts.

The trainer has the run loop's shape (``savanna.agents.training.trainer.Trainer``): one
``step()`` plays and learns from ``chunk`` games, and ``last.pt`` holds the network, the
random state and the counts, so that a resumed run continues exactly.

>>> from savanna.agents.models.td_config import TDConfig
>>> trainer = Trainer(TDConfig(game="bonobo", games=64, chunk=32))  # doctest: +SKIP
>>> metrics = trainer.step()  # doctest: +SKIP
"""
import time
from pathlib import Path

import numpy as np
import torch

from savanna.agents.models.td_checkpoint import (
    load_model,
    net_from_contents,
    save_model,
    td_contents,
)
from savanna.agents.models.td_config import TDConfig
from savanna.agents.models.td_value import new_net, new_work
from savanna.agents.play import _td_kernels
from savanna.agents.play.td_agent import TDAgent, buffers
from savanna.agents.training._td_learn import learn_game
from savanna.game import Game
from savanna.registry import make_game

__all__ = ["Trainer"]


class Trainer:
    """TD(lambda) self-play on one game (see the module docstring)."""

    UNIT = "game"

    def __init__(self, config: TDConfig, game: Game | None = None):
        self.config = config
        self.game = game if game is not None else make_game(config.game, **config.game_options)
        self.rng = np.random.default_rng(config.seed)
        size = int(np.prod(self.game.obs_shape))
        self.net = new_net(size, config.hidden, self.rng)
        self.buf = buffers(self.game, 1, self.rng)
        self.games = 0
        self.skipped = 0  # games longer than max_records: played, not learned from
        players = self.game.num_players
        self._obs = np.zeros(size, np.uint8)
        self._work = new_work(self.net)
        self._values = np.zeros(self.game.num_actions, np.float64)
        self._obs_log = np.zeros((config.max_records, players, size), np.uint8)
        self._cum_log = np.zeros((config.max_records, players), np.float32)
        self._end_log = np.zeros(config.max_records, np.bool_)
        self._total = np.zeros(players, np.float32)

    @property
    def count(self) -> int:
        return self.games

    def step(self) -> dict:
        """Plays and learns from ``chunk`` games (fewer at the end of the budget)."""
        cfg = self.config
        n = max(1, min(cfg.chunk, cfg.games - self.games))
        kernels = self.game.compiled(_td_kernels)
        states = self.game.unchecked.init(n, self.rng)
        started = time.perf_counter()
        error = records = 0.0
        wins = np.zeros(self.game.num_players)
        for i in range(n):
            t = kernels.selfplay_game(states, i, self.net, self._obs, self._work, self.buf,
                                      cfg.epsilon, self._values, self._obs_log, self._cum_log,
                                      self._end_log, self._total)
            if t <= 0:
                self.skipped += t < 0
                continue
            error += learn_game(self.net, self._work, self._obs_log, self._cum_log,
                                self._end_log, self._total, t, cfg.lam, cfg.lr)
            records += t
            wins += self._total > 0
        self.games += n
        seconds = time.perf_counter() - started
        return {"game": self.games, "td_error": error / n, "records": records / n,
                "games_per_second": n / max(seconds, 1e-9), "skipped": self.skipped,
                **{f"first_win_{q}": wins[q] / n for q in range(self.game.num_players)}}

    # ----- files ---------------------------------------------------------------------------
    def contents(self, extra=None, full=True):
        """The model file's contents; ``full``: with the trainer's state, to resume."""
        more = {}
        if full:
            more["trainer"] = {"rng": self.rng.bit_generator.state,
                               "streams": torch.from_numpy(self.buf[5].astype(np.int64)),
                               "skipped": self.skipped}
        return td_contents(self.game, self.config, self.net, self.games, extra, **more)

    def save(self, path: str | Path, extra: dict | None = None, full: bool = True) -> None:
        save_model(self.contents(extra, full), path)

    @classmethod
    def load(cls, path, game=None, **overrides):
        """The trainer saved at ``path`` (a full checkpoint), ``overrides`` (``games``)
        applied: ``(trainer, extra)``."""
        data = load_model(path, game)
        if "trainer" not in data:
            raise ValueError(f"{path} holds a network only (a run's best.pt); resume from its "
                             "last.pt")
        config = TDConfig.from_dict({**data["config"], **overrides})
        trainer = cls(config, game)
        trainer.net = net_from_contents(data)
        trainer._work = new_work(trainer.net)
        trainer.games = data["games"]
        state = data["trainer"]
        trainer.rng.bit_generator.state = state["rng"]
        trainer.buf[5][:] = state["streams"].numpy().astype(np.uint64)
        trainer.skipped = int(state["skipped"])
        return trainer, data["extra"]

    def agent(self, label: str):
        """The current network as a player (at the evaluations' ply), on a copy of it."""
        net = tuple(w.copy() for w in self.net)
        return TDAgent.from_net(net, self.game, label, ply=self.config.eval_ply)

    def close(self) -> None:
        pass
