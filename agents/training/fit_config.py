"""The settings of an offline fit (``FitConfig``, saved with its report and in its checkpoint).
Apart from ``savanna.agents.training.fit`` so that ``savanna fit --help`` (its flags come from
these fields) loads neither numba nor torch."""
import dataclasses
from dataclasses import dataclass

from savanna.agents.settings import (
    check_hidden,
    check_maxima,
    check_positive,
    check_types,
    setting,
    settings_from_dict,
)
from savanna.errors import check_range

__all__ = ["FitConfig"]


@dataclass
class FitConfig:
    """Every setting of an offline fit; saved with the report and in the checkpoint."""

    hidden: tuple = setting((256, 256), "hidden layer widths")
    outcome_weight: float = setting(0.0, "value target: (1 - w) * root value + w * outcome")
    policy_weight: float = setting(1.0, "weight of the policy loss (cross-entropy to the "
                                        "teacher's visits) against the value loss")
    lr: float = setting(2e-3, "peak learning rate (cosine decay to 5% over the steps)")
    weight_decay: float = setting(1e-4, "weight decay of AdamW")
    batch_size: int = setting(1024, "positions per step", most=65_536)
    steps: int = setting(20_000, "the most training steps", most=10**9)
    minutes: float = setting(30.0, "the most training minutes")
    held_out: float = setting(0.05, "share of the games held out for the gate")
    eval_every: int = setting(500, "steps between two held-out evaluations", most=10**9)
    patience: int = setting(6, "evaluations without a better held-out value error before "
                               "stopping", most=10**9)
    seed: int = setting(0, "random seed")
    init: str = setting("", "a checkpoint (az's, or a fit's model.pt) whose network the fit "
                            "starts from, its hidden widths those of --hidden; '': a new one")
    threads: int = setting(1, "torch threads", most=1024)
    rollout_weight: float = setting(0.0, "az's search with this network by default: the weight "
                                         "of a random playout in a leaf's value")
    determinizations: int = setting(1, "az's search with this network by default: trees per "
                                       "state from draws of the hidden cards", most=1024)
    expect_chance: bool = setting(False, "az's search with this network by default: chance "
                                         "nodes' values their expectation (Stochastic "
                                         "MuZero's) rather than sampled")
    prune_policy: bool = setting(False, "policy target: the teacher's visits pruned of those "
                                        "exploration forced (KataGo's policy target pruning, "
                                        "with the first dataset's teacher's c and "
                                        "determinizations), not the raw visits")
    score_weight: float = setting(0.0, "weight of an auxiliary head's loss: every seat's final "
                                       "score margin (standardised), a training aid not "
                                       "saved with the model; 0: no such head")

    def __post_init__(self):
        self.hidden = check_hidden(self.hidden)
        check_types(self, "fit")
        check_positive(self, ("batch_size", "steps", "eval_every", "patience", "threads",
                              "determinizations"))
        check_maxima(self)
        for name, low, high in (("outcome_weight", 0, 1), ("held_out", 0.001, 0.5),
                                ("policy_weight", 0, 1e3), ("lr", 1e-7, 1.0),
                                ("weight_decay", 0, 1.0), ("minutes", 1e-3, 1e5),
                                ("rollout_weight", 0, 1), ("score_weight", 0, 1e3)):
            check_range(name, getattr(self, name), low, high)

    def to_dict(self):
        data = dataclasses.asdict(self)
        data["hidden"] = list(self.hidden)
        return data

    @classmethod
    def from_dict(cls, data):
        return settings_from_dict(cls, data, "fit")
