"""The settings of a PPO run (``PPOConfig``): what ``savanna train ppo`` takes as flags, saved
in full with each checkpoint and in ``config.json``, and read back when a checkpoint is loaded
to play (so it lives with the model files, not with the trainer)."""
import dataclasses
from dataclasses import dataclass

from savanna.agents.settings import (
    MAX_GAMES,
    MAX_SEED,
    check_hidden,
    check_maxima,
    check_positive,
    check_types,
    is_real,
    setting,
    settings_from_dict,
)
from savanna.errors import check_range, clip
from savanna.number_parsing import parse_float

__all__ = ["OPPONENT_KINDS", "PPOConfig", "parse_shares"]

OPPONENT_KINDS = ("self", "random", "greedy")


@dataclass
class PPOConfig:
    """Every setting of a run; saved in full with each checkpoint and in ``config.json``."""

    game: str = setting("zebres", "the game's registry name")
    game_options: dict = setting({}, "the game's keyword options")
    steps: int = setting(3_000_000, "learner decisions in all, e.g. 3M")
    seed: int = setting(0, "random seed", most=MAX_SEED)
    num_envs: int = setting(512, "games played at once", most=65_536)
    rollout_len: int = setting(32, "moves of each game per rollout (a batch is num_envs * "
                                   "rollout_len)", most=4096)
    hidden: tuple = setting((128, 128), "hidden layer widths")
    lr: float = setting(1e-3, "initial learning rate")
    anneal_lr: bool = setting(True, "decay the learning rate linearly to 0 at the last step")
    gamma: float = setting(1.0, "discount (games end with a win or a loss: none needed)")
    gae_lambda: float = setting(0.95, "lambda of the generalized advantage estimate")
    epochs: int = setting(4, "passes over each batch", most=1000)
    minibatches: int = setting(4, "minibatches per pass", most=65_536)
    clip: float = setting(0.2, "clip range of the policy ratio")
    clip_value: bool = setting(True, "clip the value update to the same range")
    vf_coef: float = setting(0.5, "weight of the value loss")
    ent_coef: float = setting(0.01, "weight of the entropy bonus")
    max_grad_norm: float = setting(0.5, "gradient norm clip")
    shaping: float = setting(0.0, "potential-based reward shaping on the score lead, e.g. "
                                  "0.05 (0: off)")
    opponents: dict | str = setting({"self": 0.4, "random": 0.1, "greedy": 0.5},
                                    "shares of the games played against each opponent kind")
    latest_share: float = setting(0.5, "chance that self-play opponents play the current "
                                       "weights rather than a past snapshot")
    snapshot_every: int = setting(100_000, "steps between two snapshots joining the pool")
    pool_size: int = setting(10, "past snapshots kept in the self-play pool", most=1000)
    eval_every: int = setting(250_000, "steps between two arena evaluations (run loop)")
    eval_games: int = setting(200, "games per evaluation match", most=MAX_GAMES)
    checkpoint_every: int = setting(250_000, "steps between two checkpoints (last.pt)")
    threads: int = setting(1, "torch threads of each worker (2 helps only on an otherwise "
                              "idle machine)", most=1024)
    workers: int = setting(1, "processes sharing the run, one core each: each plays num_envs "
                              "/ workers games and learns from them, gradients averaged",
                           most=256)

    def __post_init__(self):
        """Checks every setting's type, then its range: a one-line ValueError for anything
        else, also for settings read back from a checkpoint (never a TypeError)."""
        check_types(self, "PPO")
        self.hidden = check_hidden(self.hidden)
        self.opponents = parse_shares(self.opponents)
        check_positive(self, ("steps", "num_envs", "rollout_len", "epochs", "minibatches",
                              "snapshot_every", "pool_size", "eval_every", "eval_games",
                              "checkpoint_every", "threads", "workers"))
        check_maxima(self)
        check_range("seed", self.seed, 0)
        if self.num_envs % self.workers:
            raise ValueError(f"num_envs ({self.num_envs}) must be divisible by workers "
                             f"({self.workers})")
        if (self.envs_per_worker * self.rollout_len) % self.minibatches:
            raise ValueError(f"num_envs / workers * rollout_len "
                             f"({self.envs_per_worker * self.rollout_len}) must be divisible "
                             f"by minibatches ({self.minibatches})")
        for name in ("shaping", "vf_coef", "ent_coef"):
            check_range(name, getattr(self, name), 0)
        for name in ("gamma", "gae_lambda", "latest_share"):
            check_range(name, getattr(self, name), 0, 1)
        for name in ("lr", "clip", "max_grad_norm"):
            check_range(name, getattr(self, name), 0, above=True)

    @property
    def batch_size(self) -> int:
        """Learner decisions per update, over every worker."""
        return self.num_envs * self.rollout_len

    @property
    def envs_per_worker(self) -> int:
        return self.num_envs // self.workers

    def to_dict(self) -> dict:
        data = dataclasses.asdict(self)
        data["hidden"] = list(self.hidden)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "PPOConfig":
        return settings_from_dict(cls, data, "PPO")


def parse_shares(shares):
    """Opponent shares as a dict summing to 1, from a dict or text like ``'self=2,random=1'``.

    >>> parse_shares("self=0.5,random=0.25,greedy=0.25")
    {'self': 0.5, 'random': 0.25, 'greedy': 0.25}
    """
    if isinstance(shares, str):
        items = {}
        for item in shares.split(","):
            key, eq, value = item.partition("=")
            try:
                items[key.strip()] = parse_float(value.strip()) if eq else 1.0
            except ValueError:
                raise ValueError(f"bad opponent share {item!r}; write kind=share, e.g. "
                                 "self=0.5,random=0.25,greedy=0.25") from None
        shares = items
    if not isinstance(shares, dict) or not shares:
        raise ValueError(f"opponents must be kind=share pairs, got {clip(shares)}")
    unknown = sorted(map(str, set(shares) - set(OPPONENT_KINDS)))
    if unknown:
        raise ValueError(f"unknown opponent kinds {clip(unknown)}; allowed: "
                         f"{', '.join(OPPONENT_KINDS)}")
    if not all(is_real(v) and v >= 0 for v in shares.values()) or sum(shares.values()) <= 0:
        raise ValueError(f"opponent shares must be numbers >= 0 with a positive sum, "
                         f"got {clip(shares)}")
    total = sum(shares.values())
    return {k: float(v) / total for k, v in shares.items() if v > 0}
