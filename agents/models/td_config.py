"""The settings of a TD(lambda) run (``TDConfig``): what ``savanna train td`` takes as flags,
saved in full with each checkpoint and in ``config.json``, and read back with a model file (so
it lives with the model files, not with the trainer)."""
import dataclasses
from dataclasses import dataclass

from savanna.agents.settings import (
    MAX_GAMES,
    MAX_SEED,
    check_bounds,
    check_maxima,
    check_positive,
    check_types,
    setting,
    settings_from_dict,
)
from savanna.errors import clip

__all__ = ["TDConfig"]

BOUNDS = {"lr": (0, None, True), "lam": (0, 1, False), "epsilon": (0, 1, False)}


@dataclass
class TDConfig:
    """Every setting of a run; saved in full with each checkpoint and in ``config.json``."""

    game: str = setting("banjooli", "the game's registry name")
    game_options: dict = setting({}, "the game's keyword options")
    seed: int = setting(0, "random seed", most=MAX_SEED)
    games: int = setting(100_000, "self-play games in all, e.g. 100k", most=10**12)
    hidden: int = setting(64, "units of the value network's hidden layer", most=4096)
    lr: float = setting(0.01, "step size of each TD update")
    lam: float = setting(0.7, "lambda of the lambda-returns (0: TD(0), 1: Monte Carlo)")
    epsilon: float = setting(0.02, "chance of a uniform legal move at each real choice")
    chunk: int = setting(64, "games per trainer step (between two looks at the clock)",
                         most=1_000_000)
    max_records: int = setting(4096, "longest game recorded, in real choices (a longer game "
                                     "is played but not learned from)", most=1 << 20)
    eval_every: int = setting(5000, "games between two evaluations")
    eval_games: int = setting(100, "games per evaluation match", most=MAX_GAMES)
    eval_ply: int = setting(0, "ply of the TD player in evaluations (0, 1 or 2)", most=2)
    opponents: tuple = setting(("random", "mcts:sims=100"),
                               "the agents evaluations play against")
    checkpoint_every: int = setting(1000, "games between two checkpoints (last.pt)")

    def __post_init__(self):
        """Checks every setting's type, then its range: a one-line ValueError."""
        check_types(self, "TD")
        if not (isinstance(self.opponents, (list, tuple))
                and all(isinstance(a, str) for a in self.opponents) and self.opponents):
            raise ValueError(f"opponents must be agent specs, got {clip(self.opponents)}")
        self.opponents = tuple(self.opponents)
        check_positive(self, ("games", "hidden", "chunk", "max_records", "eval_every",
                              "eval_games", "checkpoint_every"))
        check_maxima(self)
        check_bounds(self, BOUNDS)

    def to_dict(self):
        data = dataclasses.asdict(self)
        data["opponents"] = list(self.opponents)
        return data

    @classmethod
    def from_dict(cls, data):
        return settings_from_dict(cls, data, "TD")
