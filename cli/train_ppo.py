"""``savanna train ppo <game>``: a PPO run in its own folder, resumable, evaluated as it goes.

    savanna train ppo zebres --steps 3M --seed 0
    savanna train ppo --config runs/zebres-ppo-0-20260101-120000/config.json --seed 1
    savanna train ppo --resume runs/zebres-ppo-0-20260101-120000

``run_training(config)`` is the same from Python (``savanna.cli.run_ppo_training``); the
run folder and every flag: the PPO guide (docs/guides/training-ppo.md).
"""
import math
from pathlib import Path

from savanna.cli.arguments import (
    add_config_flags,
)
from savanna.cli.run_folders import (
    EVAL_FILE,
    read_csv,
)
from savanna.cli.run_loop import Run, add_run_parser, plot_run_curve, start_or_resume

__all__ = ["add_parser", "demo_training", "plot_curve", "run", "run_training",
           "text_curve"]

EVAL_OPPONENTS = ("random", "greedy")
ALIASES = {"num_envs": ("--envs",)}  # the flag's name before flags were generated


# ----- curves ----------------------------------------------------------------------------
def plot_curve(folder):
    """Draw ``curve.png`` from the run's CSVs: mean training return by update, and win rates
    against random and greedy by evaluation. Returns its path (None without matplotlib)."""
    return plot_run_curve(folder, ("mean_return", "mean training return", "return"),
                          ({f"win_{name}": f"win rate vs {name}" for name in EVAL_OPPONENTS},
                           "win rate"), "learner steps")


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
    """Register the command (``name``) on ``subparsers`` (``savanna train``'s): the flags of
    every trainer (``savanna.cli.run_loop.add_run_parser``) and one flag per ``PPOConfig``
    setting (unset flags keep ``--config``'s value or the default)."""
    return add_run_parser(subparsers, name, "masked PPO with self-play", __doc__,
                          _add_settings, run)


def _add_settings(parser):
    """The flags of ``PPOConfig`` (``savanna.cli.arguments.Parser`` adds them when the
    command runs: ``savanna.agents.training.ppo`` imports torch)."""
    from savanna.agents.models.ppo_config import PPOConfig

    add_config_flags(parser, PPOConfig, ALIASES)


def run(args, extra=None):
    """Run the command parsed by ``add_parser``: a new run, or ``--resume`` (then only
    ``--steps`` may change)."""
    from savanna.agents.models.ppo_config import PPOConfig

    print(text_curve(start_or_resume(args, PPOConfig, "steps", run_training)))
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
