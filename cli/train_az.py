"""``savanna train az <game>``: an AlphaZero run in its own folder, resumable, evaluated against
a ladder as it goes (``savanna.agents.training.alphazero`` trains).

    savanna train az zebres --minutes 60 --seed 0
    savanna train az --resume runs/zebres-az-0-20260101-120000
    savanna train az zebres --init runs/zebres-fit/model.pt --outcome-weight 0   expert iteration

The run folder, ``--init``, ``--backend ray`` and every flag: the AlphaZero guide.
"""
import time

from savanna.cli.arguments import (
    add_config_flags,
    add_game_options,
    address_help,
    positive_int,
    run_settings,
)
from savanna.cli.run_loop import Run
from savanna.registry import make_game

__all__ = ["add_parser", "run", "run_training"]

# the learner's metrics: every metrics.csv row has them (NaN before the first learner step), so
# the header, written from the first row, names them
LOSSES = ("policy_loss", "value_loss", "policy_kl")


class AZRun(Run):
    """AlphaZero's runs (``savanna.cli.run_loop``): budget and schedules in training
    minutes, evaluated against the ladder's rungs with an Elo difference each, a
    ``metrics.csv`` row every ``log_every`` moves with the throughput since the last one."""

    name, title, timed, resumable, elo = "az", "AlphaZero", True, "minutes", True

    def trainer_class(self):
        from savanna.agents.training.alphazero import Trainer

        return Trainer

    def new_trainer(self, config, game, write, selfplay=None):
        game = game if game is not None else make_game(config.game, **config.game_options)
        weights = initial_weights(config, game, write) if config.init else None
        return self.trainer_class()(config, game, selfplay, weights)

    def schedule(self, config):
        return 60 * config.minutes, 60 * config.eval_minutes, 60 * config.checkpoint_minutes

    def opponents(self, config):
        return config.ladder

    def begin(self, trainer):
        self.window = _Window(trainer)

    def metrics_row(self, trainer, metrics, seconds, extra):
        if trainer.moves % trainer.config.log_every:
            return None
        return {"step": trainer.moves, "minutes": extra["seconds"] / 60, **trainer.counters(),
                **self.window.rates(), **dict.fromkeys(LOSSES, float("nan")), **metrics}

    def evaluated(self, folder, trainer, row, extra, write):
        if row is not None:
            write(f"move {trainer.moves:,} ({extra['seconds'] / 60:.1f} min): " + ", ".join(
                f"{r} {row[f'score_{r}']:.0%} (Elo {row[f'elo_{r}']:+.0f})"
                for r in trainer.config.ladder))

    def summary(self, trainer, extra, wall, start):
        return (f"done: {trainer.moves:,} moves, {trainer.positions:,} positions, "
                f"{trainer.learner.steps:,} learner steps in {extra['seconds'] / 60:.1f} min")


def run_training(config=None, runs_dir="runs", resume=None, game=None, write=print,
                 stop_after=None, selfplay=None):
    """Train (or resume) a run; returns its folder. ``resume`` is a run folder or a checkpoint
    file; ``game`` an instance for games not in the registry; ``stop_after`` ends the run after
    that many moves (as if interrupted: tests); ``selfplay`` the ``Trainer``'s (default:
    the config's: ``SelfPlay`` here or in processes of its own)."""
    return AZRun().train(config, runs_dir, resume, game, write, stop_after=stop_after,
                         selfplay=selfplay)


def initial_weights(config, game, write=print, fit_config=None):
    """The weights ``config.init`` names: a checkpoint's network (its hidden widths must be
    the run's), or a network fitted to a distillation dataset folder
    (``savanna.agents.training.fit`` with ``fit_config``, by default its defaults and the run's
    hidden widths, batch size and
    seed)."""
    from pathlib import Path

    from savanna.agents.models.az_checkpoint import load_checkpoint

    path = Path(config.init)
    if path.is_dir():
        from savanna.agents.training.distill_dataset import load_dataset
        from savanna.agents.training.fit import FitConfig, fit

        write(f"fitting a network to the dataset {path} first")
        fit_config = fit_config or FitConfig(hidden=config.hidden,
                                             batch_size=config.batch_size, seed=config.seed)
        fitted = fit(load_dataset(path, game=game), fit_config, progress=False)
        return fitted.net.state_dict()
    data = load_checkpoint(path, game)
    hidden = tuple(data["config"]["hidden"])
    if hidden != config.hidden:
        raise ValueError(f"{path} holds a network of hidden widths {hidden}, this run's are "
                         f"{config.hidden}: give --hidden {','.join(map(str, hidden))}")
    return data["model"]


def init_hidden(settings):
    """The hidden widths of the network ``settings["init"]`` names when ``hidden`` is not set:
    a run started from a checkpoint takes its network's shape unless told otherwise."""
    from pathlib import Path

    from savanna.agents.models.az_checkpoint import load_checkpoint

    init = settings.get("init")
    if not init or "hidden" in settings or not Path(init).is_file():
        return settings
    return {**settings, "hidden": load_checkpoint(init)["config"]["hidden"]}


class _Window:
    """Throughput since the previous metrics row: leaf evaluations per second of training
    time and the shares of search, inference and learning."""

    def __init__(self, trainer):
        self.trainer = trainer
        self.last = self._totals()

    def _totals(self):
        stats = self.trainer.selfplay.search.stats
        return (time.perf_counter(), stats["leaves"], stats["search_seconds"],
                stats["inference_seconds"], self.trainer.timing["learn_seconds"])

    def rates(self):
        now = self._totals()
        wall, leaves, search, inference, learn = (b - a for a, b in zip(self.last, now))
        self.last = now
        wall = max(wall, 1e-9)
        return {"leaf_evals_per_s": leaves / wall, "search_share": search / wall,
                "inference_share": inference / wall, "learn_share": learn / wall}


# ----- the command line -------------------------------------------------------------------
def add_parser(subparsers, name="az"):
    """Register the command (``name``) on ``subparsers`` (``savanna train``'s): the game,
    ``--resume``, ``-o`` game options, and one flag per ``AZConfig`` setting (unset flags keep
    ``--config``'s value or the default). ``subparsers`` makes parsers of
    class ``savanna.cli.arguments.Parser``."""
    parser = subparsers.add_parser(name, help="AlphaZero with Gumbel search",
                                   description=__doc__, setup=_add_settings)
    parser.add_argument("game", nargs="?", help="the game (not needed with --resume or "
                                                "--config)")
    parser.add_argument("--resume", metavar="RUN", help="continue a run folder or checkpoint")
    parser.add_argument("--runs-dir", default="runs", help="where run folders go (default: runs)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="self-play here (local) or on Ray actors (ray: pip install "
                             "'savanna-games[ray]') (default: local)")
    parser.add_argument("--actors", type=positive_int,
                        help="self-play actors with --backend ray, one CPU each (default: 2)")
    parser.add_argument("--address", metavar="ADDR",
                        help=address_help("--backend ray"))
    add_game_options(parser)
    parser.set_defaults(run=run, prog=parser.prog)
    return parser


def _add_settings(parser):
    """The flags of ``AZConfig`` (``savanna.cli.arguments.Parser`` adds them when the
    command runs: ``savanna.agents.training.alphazero`` imports torch)."""
    from savanna.agents.models.az_config import AZConfig

    add_config_flags(parser, AZConfig)


def run(args, extra=None):
    """Run the command parsed by ``add_parser``: a new run, or ``--resume`` (then only
    ``--minutes`` may change)."""
    from savanna.agents.models.az_config import AZConfig

    if args.init == "":  # '' is the setting's "from random weights", never asked for so
        raise ValueError("--init needs a checkpoint file or a distillation dataset folder, "
                         "got ''")
    settings = run_settings(AZConfig, args, resumable=("minutes",))
    selfplay = _selfplay(args)
    if args.resume:
        run_training(AZConfig(**settings) if settings else None, resume=args.resume,
                     selfplay=selfplay)
    else:
        config = AZConfig.from_dict(init_hidden(settings))
        run_training(config, runs_dir=args.runs_dir,
                     game=make_game(config.game, **config.game_options), selfplay=selfplay)
    return 0


def _selfplay(args):
    """The ``Trainer``'s self-play for ``--backend``, ``--actors`` and ``--address`` (None:
    here)."""
    if args.backend == "local":
        if args.address is not None or args.actors is not None:
            raise ValueError("--actors and --address are for --backend ray")
        return None
    from savanna.agents.distributed import require_ray

    require_ray()
    from savanna.agents.training.selfplay_ray import RaySelfPlay

    return RaySelfPlay.factory(args.actors or 2, args.address)
