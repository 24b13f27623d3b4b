"""The settings of an AlphaZero run (``AZConfig``): what ``savanna train az`` takes as flags,
saved in full with each checkpoint and in ``config.json``, and read back when a checkpoint is
loaded to play (so it lives with the model files, not with the trainer)."""
import dataclasses
from dataclasses import dataclass

from savanna.agents.settings import (
    MAX_GAMES,
    MAX_SEED,
    check_bounds,
    check_hidden,
    check_maxima,
    check_positive,
    check_types,
    setting,
    settings_from_dict,
)
from savanna.errors import clip

__all__ = ["AZConfig"]

# (low, high, above) of the number settings, as savanna.errors.check_range takes them
BOUNDS = {"selfplay_processes": (0, None, False),
          **dict.fromkeys(("minutes", "lr", "reuse", "eval_minutes", "checkpoint_minutes"),
                          (0, None, True)),
          **dict.fromkeys(("value_scale", "maxvisit_init", "value_range", "gumbel_scale",
                           "weight_decay", "value_weight", "lr_half_life"), (0, None, False)),
          **dict.fromkeys(("outcome_weight", "rollout_weight"), (0, 1, False))}


@dataclass
class AZConfig:
    """Every setting of a run; saved in full with each checkpoint and in ``config.json``."""

    game: str = setting("zebres", "the game's registry name")
    game_options: dict = setting({}, "the game's keyword options")
    seed: int = setting(0, "random seed", most=MAX_SEED)
    minutes: float = setting(60.0, "training time of the run (evaluations not counted)")
    games: int = setting(1024, "self-play games searched together (the leaf batch)",
                        most=65_536)
    sims: int = setting(32, "simulations per move", most=1_000_000)
    max_considered: int = setting(16, "root actions sampled by Gumbel top-k", most=65_536)
    value_scale: float = setting(0.1, "sigma(q) = (maxvisit_init + max N) * value_scale * q")
    maxvisit_init: float = setting(50.0, "visit offset of sigma(q) (see value_scale)")
    value_range: float = setting(0.0, "q divided by this fixed span before sigma (0: by the "
                                      "children's min-max, as mctx's rescale_values)")
    gumbel_scale: float = setting(1.0, "root noise scale (0: top-k of the prior alone)")
    rollout_weight: float = setting(0.0, "weight of one random playout in each leaf's value "
                                         "(AlphaGo's mix; 0: the network's value alone)")
    determinizations: int = setting(1, "hidden information: search trees per state, each from "
                                       "its own draw of the hidden cards (sims split "
                                       "between them)", most=1024)
    expect_chance: bool = setting(False, "chance nodes as Stochastic MuZero's: outcomes "
                                         "followed by probability, values their expectation "
                                         "(False: sampled and averaged)")
    hidden: tuple = setting((128, 128), "hidden layer widths")
    lr: float = setting(1e-3, "learning rate")
    weight_decay: float = setting(1e-4, "weight decay of the optimizer")
    batch_size: int = setting(512, "positions per learner step", most=1_048_576)
    replay_window: int = setting(65_536, "positions kept for the learner", most=16_777_216)
    reuse: float = setting(4.0, "learner samples per self-play position, on average")
    value_weight: float = setting(1.0, "weight of the value loss against the policy loss")
    outcome_weight: float = setting(1.0, "value target: (1 - w) * the search's root value + w "
                                         "* the game's outcome (1: AlphaZero's outcome; 0: "
                                         "expert iteration's root value)")
    lr_half_life: float = setting(0.0, "learner steps over which the learning rate halves "
                                       "(0: constant)")
    save_replay: bool = setting(False, "keep the replay window in last.pt, for a resume that "
                                       "continues exactly (without: a few MB, and a resumed "
                                       "run refills the window)")
    init: str = setting("", "the weights the run starts from: a checkpoint (savanna fit's "
                            "model.pt, a run's best.pt) or a distillation dataset folder "
                            "(fitted first, savanna.agents.training.fit; '': random)")
    log_every: int = setting(10, "self-play moves between two rows of metrics.csv")
    eval_minutes: float = setting(10.0, "training minutes between two ladder evaluations")
    eval_games: int = setting(100, "games per rung of the ladder", most=MAX_GAMES)
    eval_sims: int = setting(100, "simulations of the evaluated agent", most=1_000_000)
    ladder: tuple = setting(("mcts:sims=100", "mcts:sims=1000"),
                            "the agents evaluated against, one per rung")
    checkpoint_minutes: float = setting(5.0, "training minutes between two checkpoints")
    threads: int = setting(1, "torch threads (1: see savanna.agents.training.ppo on shared cores)",
                          most=1024)
    selfplay_processes: int = setting(0, "self-play in this many processes of their own, "
                                         "games split between them, one move ahead of the "
                                         "learner (0: in the learner's process, in turn)",
                                      most=256)

    def __post_init__(self):
        """Checks every setting's type, then its range: a one-line ValueError for anything
        else, also for settings read back from a checkpoint (never a TypeError)."""
        check_types(self, "AlphaZero")
        self.hidden = check_hidden(self.hidden)
        if not (isinstance(self.ladder, (list, tuple))
                and all(isinstance(a, str) for a in self.ladder)):
            raise ValueError(f"ladder must be agent specs, got {clip(self.ladder)}")
        self.ladder = tuple(self.ladder)
        check_positive(self, ("games", "sims", "max_considered", "determinizations",
                              "batch_size", "replay_window", "log_every", "eval_games",
                              "eval_sims", "threads"))
        check_maxima(self)
        check_bounds(self, BOUNDS)
        if self.selfplay_processes and self.games % self.selfplay_processes:
            raise ValueError(f"games ({self.games}) must be divisible by selfplay_processes "
                             f"({self.selfplay_processes})")
        if self.replay_window < self.batch_size:
            raise ValueError(f"replay_window ({self.replay_window}) must hold at least one "
                             f"batch ({self.batch_size})")

    def to_dict(self):
        data = dataclasses.asdict(self)
        data["hidden"], data["ladder"] = list(self.hidden), list(self.ladder)
        return data

    @classmethod
    def from_dict(cls, data):
        return settings_from_dict(cls, data, "AlphaZero")
