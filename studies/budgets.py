"""How much a study plays: ``StudySettings``, and the three budgets ``quick``, ``standard`` and
``deep`` (``StudySettings.budget(name)``). Every count and agent of a study is here, so that a
study's folder names all it played (``plan.json``) and a resume can check it is the same."""
import dataclasses
from dataclasses import dataclass

from savanna.agents.settings import (
    MAX_GAMES,
    check_maxima,
    check_positive,
    check_types,
    setting,
)
from savanna.errors import check_range, clip

__all__ = ["BUDGETS", "StudySettings"]


@dataclass(frozen=True)
class StudySettings:
    """The agents and game counts of a study (``savanna.studies``)."""

    balance_sims: tuple = setting((16, 64), "MCTS budgets (simulations) of the balance "
                                            "matches, besides random and the shipped network")
    extra_agents: tuple = setting((), "more strengths for the balance matches, as agent specs")
    balance_games: int = setting(100, "games of each balance match (identical agents)",
                                 MAX_GAMES)
    network: bool = setting(True, "add the shipped network (az:baseline) to the balance "
                                  "matches where the game and player count have one")
    chain_top: int = setting(64, "largest MCTS budget of the skill chain: random, then MCTS "
                                 "with 1, 2, 4, ... simulations up to it", 2**20)
    other_agents: tuple = setting((), "the skill population's second family, as agent specs "
                                      "(empty: MCTS at temperature 1 with the chain's top "
                                      "budget and an eighth of it)")
    chain_games: int = setting(60, "games of each direct match of the skill population",
                               MAX_GAMES)
    threshold: float = setting(0.6, "the score an agent needs against the one below it in "
                                    "the skill chain (and to differ from 1/2 after Holm)")
    resamples: int = setting(400, "bootstrap draws of the skill measures' intervals", 100_000)
    upset_sims: int = setting(16, "the weaker agent's MCTS budget in the upset match", 2**20)
    upset_ratio: int = setting(4, "how many times the weaker's budget the stronger has", 2**10)
    upset_games: int = setting(100, "games of the upset match", MAX_GAMES)
    chance_games: int = setting(100, "games played three times (chance redrawn; the agents' "
                                     "randomness redrawn) to measure the outcome's "
                                     "sensitivity to chance alone", MAX_GAMES)
    review_games: int = setting(4, "games with a winner of the strongest MCTS balance match "
                                   "reviewed for lead changes, drama and decisiveness", 10_000)
    review_sims: int = setting(64, "MCTS budget of the reviewing search", 2**20)
    reference: str = setting("connect_four", "a game without chance whose skill population, "
                                             "measured the same way, gives the share of chance "
                                             "(empty: none)")

    def __post_init__(self):
        check_types(self, "study")
        check_positive(self, [f.name for f in dataclasses.fields(self) if f.type is int])
        check_maxima(self)
        check_range("threshold", self.threshold, 0.5, 1.0, above=True)
        if not self.balance_sims or not all(isinstance(s, int) and s >= 1
                                            for s in self.balance_sims):
            raise ValueError(f"balance_sims must be one or more positive budgets, got "
                             f"{clip(self.balance_sims)}")
        for name in ("extra_agents", "other_agents"):
            if not all(isinstance(spec, str) for spec in getattr(self, name)):
                raise ValueError(f"{name} must be agent specs, got "
                                 f"{clip(getattr(self, name))}")
        if self.upset_ratio < 2:
            raise ValueError(f"upset_ratio must be at least 2, got {self.upset_ratio}")

    @classmethod
    def budget(cls, name, **changes):
        """The settings of budget ``name`` (one of ``BUDGETS``), with ``changes``."""
        if name not in BUDGETS:
            raise ValueError(f"budget must be one of {', '.join(BUDGETS)}, got {clip(name)}")
        return cls(**{**BUDGETS[name], **changes})

    @property
    def budget_name(self):
        """The budget whose counts these are (its other settings may differ), or None.

        >>> StudySettings.budget("deep", reference="").budget_name
        'deep'
        """
        return next((name for name, counts in BUDGETS.items()
                     if all(getattr(self, k) == v for k, v in counts.items())), None)

    def to_json(self):
        return {k: list(v) if isinstance(v, tuple) else v
                for k, v in dataclasses.asdict(self).items()}


BUDGETS = {
    "quick": dict(balance_sims=(16, 64), balance_games=60, chain_top=64, chain_games=40,
                  upset_sims=16, upset_games=60, chance_games=60, review_games=3,
                  review_sims=64),
    "standard": dict(balance_sims=(32, 128), balance_games=200, chain_top=128,
                     chain_games=100, upset_sims=32, upset_games=200, chance_games=200,
                     review_games=10, review_sims=128),
    "deep": dict(balance_sims=(200, 1600), balance_games=1000, chain_top=2048,
                 chain_games=400, upset_sims=100, upset_games=1000, chance_games=1000,
                 review_games=50, review_sims=1600),
}
