"""The one shape of a trainer: what the run loop of ``savanna train``
(``savanna.cli.run_loop``) drives, PPO's and AlphaZero's alike, and the one way their
checkpoints are written (``Checkpoints``)."""
from pathlib import Path
from typing import Any, ClassVar, Protocol

from savanna.agents.models.checkpoint import CheckpointFormat
from savanna.agents.play.base import Agent
from savanna.game import Game

__all__ = ["Checkpoints", "Trainer"]


class Trainer(Protocol):
    """A run's trainer. ``step()`` trains one unit (a PPO update, an AlphaZero self-play move
    and the learner's share of steps) and returns its metrics; ``count`` is how far the run is,
    in ``UNIT``s; ``save`` writes a checkpoint (``full=False``: the network alone) with the
    run loop's own counters ``extra``, and ``load`` continues from one exactly, returning
    ``(trainer, extra)``; ``agent(label)`` plays the current network (for evaluations);
    ``close()`` stops any worker processes."""

    UNIT: ClassVar[str]  # "step" (PPO: learner decisions), "move" (AlphaZero)
    game: Game
    config: Any          # the settings dataclass (``to_dict``, ``from_dict``)

    @property
    def count(self) -> int: ...

    def step(self) -> dict: ...

    def save(self, path: str | Path, extra: dict | None = None, full: bool = True) -> None: ...

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None,
             **overrides: Any) -> tuple["Trainer", dict]: ...

    def agent(self, label: str) -> Agent: ...

    def close(self) -> None: ...


class Checkpoints:
    """``save`` for a trainer whose files are ``FILES`` and whose ``checkpoint(extra, full)``
    makes their contents: sealed and written atomically (a temporary file, then
    ``os.replace``), so that a crash never leaves a half-written file."""

    FILES: ClassVar[CheckpointFormat]

    def checkpoint(self, extra: dict | None = None, full: bool = True) -> dict:
        raise NotImplementedError

    def save(self, path: str | Path, extra: dict | None = None, full: bool = True) -> None:
        self.FILES.save(self.checkpoint(extra, full), path)
