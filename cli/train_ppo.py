"""``savanna train ppo <game>``: a PPO run in its own folder, resumable, evaluated as it goes.

    savanna train ppo zebres --steps 3M --seed 0
    savanna train ppo --config runs/zebres-ppo-0-20260101-120000/config.json --seed 1
    savanna train ppo --resume runs/zebres-ppo-0-20260101-120000

``run_training(config)`` is the same from Python (``savanna.cli.run_ppo_training``); the
run folder and every flag: the PPO guide (docs/guides/training-ppo.md).
"""
import io
import math
from pathlib import Path

from savanna.cli.arguments import (
    add_config_flags,
    add_game_options,
    run_settings,
)
from savanna.cli.run_folders import (
    EVAL_FILE,
    METRICS_FILE,
    read_csv,
)
from savanna.cli.run_loop import Run
from savanna.files import atomic_write_bytes
from savanna.registry import make_game

__all__ = ["add_parser", "demo_training", "plot_curve", "run", "run_training",
           "text_curve"]

EVAL_OPPONENTS = ("random", "greedy")
ALIASES = {"num_envs": ("--envs",)}  # the flag's name before flags were generated


# ----- curves ----------------------------------------------------------------------------
def plot_curve(folder):
    """Draw ``curve.png`` from the run's CSVs: mean training return by update, and win rates
    against random and greedy by evaluation. Returns its path (None without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    folder = Path(folder)
    metrics, evals = read_csv(folder / METRICS_FILE), read_csv(folder / EVAL_FILE)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    top.plot([r["step"] for r in metrics], [r["mean_return"] for r in metrics],
             color="tab:gray", lw=0.8, label="mean training return")
    top.set_ylabel("return")
    top.legend(loc="lower right")
    top.grid(alpha=0.3)
    for name, colour in zip(EVAL_OPPONENTS, ("tab:blue", "tab:red")):
        bottom.plot([r["step"] for r in evals], [r[f"win_{name}"] for r in evals],
                    marker="o", color=colour, label=f"win rate vs {name}")
    bottom.axhline(0.5, color="black", lw=0.5)
    bottom.set_ylim(0, 1)
    bottom.set_xlabel("learner steps")
    bottom.set_ylabel("win rate")
    bottom.legend(loc="lower right")
    bottom.grid(alpha=0.3)
    fig.suptitle(folder.name)
    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, format="png", dpi=100)
    plt.close(fig)
    atomic_write_bytes(folder / "curve.png", image.getvalue())
    return folder / "curve.png"


def text_curve(folder, width=20):
    """The evaluations of a run as a text chart: one line per evaluation with the win rates
    against random and greedy as numbers and bars, e.g.::

        steps   vs random                      vs greedy
            0    42% ########............       18% ####................
    """
    evals = read_csv(Path(folder) / EVAL_FILE)
    lines = [f"{'steps':>9}   {'vs random':<{width + 6}}   vs greedy"]
    for r in evals:
        bars = [f"{r[f'win_{name}']:4.0%} " + _bar(r[f"win_{name}"], width)
                for name in EVAL_OPPONENTS]
        lines.append(f"{int(r['step']):>9}   " + "   ".join(bars))
    return "\n".join(lines)


def _bar(rate, width):
    filled = round(width * rate) if math.isfinite(rate) else 0
    return "#" * filled + "." * (width - filled)


# ----- a run ------------------------------------------------------------------------------
class PPORun(Run):
    """PPO's runs (``savanna.cli.run_loop``): budget and schedules in learner steps,
    evaluated against random and greedy, one ``metrics.csv`` row per update."""

    name, title, resumable = "ppo", "PPO", "steps"

    def trainer_class(self):
        from savanna.agents.training.ppo import Trainer

        return Trainer

    def schedule(self, config):
        return config.steps, config.eval_every, config.checkpoint_every

    def opponents(self, config):
        return EVAL_OPPONENTS

    def metrics_row(self, trainer, metrics, seconds, extra):
        metrics["steps_per_second"] = trainer.config.batch_size / seconds
        metrics["seconds"] = extra["seconds"]
        return {"step": metrics.pop("step"), **metrics}

    def evaluated(self, folder, trainer, row, extra, write):
        plot_curve(folder)

    def postfix(self, metrics, last_eval):
        return {"steps/s": f"{metrics['steps_per_second']:,.0f}",
                **super().postfix(metrics, last_eval)}

    def summary(self, trainer, extra, wall, start):
        seconds = max(extra["seconds"], 1e-9)
        return (f"done: {trainer.count:,} steps; updates took {extra['seconds']:.0f} s "
                f"({trainer.count / seconds:,.0f} steps/s); since this start, evaluations and "
                f"checkpoints included, {wall:.0f} s "
                f"({(trainer.count - start) / max(wall, 1e-9):,.0f} steps/s)")


def run_training(config=None, runs_dir="runs", resume=None, progress=True, game=None,
                 write=print, stop_after=None):
    """Train (or resume) a run; returns its folder. ``resume`` is a run folder or a checkpoint
    file; ``game`` an instance for games not in the registry; ``stop_after`` ends the run after
    that many updates (as if interrupted: tests)."""
    return PPORun().train(config, runs_dir, resume, game, write, progress, stop_after)


# ----- the command line -------------------------------------------------------------------
def add_parser(subparsers, name="ppo"):
    """Register the command (``name``) on ``subparsers`` (``savanna train``'s): the game,
    ``--resume``, ``-o`` game options, and one flag per ``PPOConfig`` setting (unset flags keep
    ``--config``'s value or the default). ``subparsers`` makes parsers of
    class ``savanna.cli.arguments.Parser``."""
    parser = subparsers.add_parser(name, help="masked PPO with self-play", description=__doc__,
                                   setup=_add_settings)
    parser.add_argument("game", nargs="?", help="the game (not needed with --resume or "
                                                "--config)")
    parser.add_argument("--resume", metavar="RUN", help="continue a stopped run (its folder)")
    parser.add_argument("--runs-dir", default="runs", help="where run folders go (default: runs)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_game_options(parser)
    parser.set_defaults(run=run, prog=parser.prog)
    return parser


def _add_settings(parser):
    """The flags of ``PPOConfig`` (``savanna.cli.arguments.Parser`` adds them when the
    command runs: ``savanna.agents.training.ppo`` imports torch)."""
    from savanna.agents.models.ppo_config import PPOConfig

    add_config_flags(parser, PPOConfig, ALIASES)


def run(args, extra=None):
    """Run the command parsed by ``add_parser``: a new run, or ``--resume`` (then only
    ``--steps`` may change)."""
    from savanna.agents.models.ppo_config import PPOConfig

    settings = run_settings(PPOConfig, args, resumable=("steps",))
    if args.resume:
        config = PPOConfig(**settings) if settings else None
        folder = run_training(config, resume=args.resume, progress=not args.no_progress)
    else:
        config = PPOConfig.from_dict(settings)
        folder = run_training(config, runs_dir=args.runs_dir, progress=not args.no_progress,
                              game=make_game(config.game, **config.game_options))
    print(text_curve(folder))
    return 0


# ----- the demo ---------------------------------------------------------------------------
def demo_training(steps=3_000_000, seed=0, write=print, runs_dir="runs"):
    """``make demo``'s short PPO run on Zèbres (about a minute): trains, then prints the
    learning curve as text."""
    from savanna.agents.models.ppo_config import PPOConfig

    config = PPOConfig(steps=steps, seed=seed, eval_every=max(steps // 4, 1), eval_games=100,
                       checkpoint_every=steps)
    folder = run_training(config, runs_dir=runs_dir, write=write)
    write(text_curve(folder))
    write(f"learning curve: {folder / 'curve.png'}")
    return folder
