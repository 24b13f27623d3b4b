"""``savanna train td <game>``: TD(lambda) self-play of a value network, in its own run folder,
resumable, its learning curve measured against fixed opponents as it goes.

    savanna train td bonobo -o num_players=2 --games 200k --seed 0
    savanna train td --resume runs/bonobo-td-0-20260101-120000

``run_training(config)`` is the same from Python; the run folder (``config.json``,
``metrics.csv``, ``eval.csv``, ``curve.png``, ``best.pt``, ``last.pt``) and every flag: the TD
guide (docs/guides/td.md).
"""
from pathlib import Path

from savanna.cli.arguments import add_config_flags
from savanna.cli.run_folders import EVAL_FILE, read_csv
from savanna.cli.run_loop import Run, add_run_parser, plot_run_curve, start_or_resume

__all__ = ["add_parser", "plot_curve", "run", "run_training", "text_curve"]


def plot_curve(folder):
    """Draw ``curve.png`` from the run's CSVs: the TD error by game, and the score against
    each evaluation opponent. Returns its path (None without matplotlib)."""
    evals = read_csv(Path(folder) / EVAL_FILE)
    scores = {k: f"score vs {k.removeprefix('score_')}" for k in (evals[0] if evals else {})
              if k.startswith("score_")}
    return plot_run_curve(folder, ("td_error", "mean squared TD error", "TD error"),
                          (scores, "score"), "self-play games")


def text_curve(folder):
    """The evaluations of a run, one line each: games, then the score against each opponent."""
    evals = read_csv(Path(folder) / EVAL_FILE)
    names = [k.removeprefix("score_") for k in (evals[0] if evals else {})
             if k.startswith("score_")]
    lines = [f"{'games':>9}   " + "   ".join(f"{'vs ' + n:<20}" for n in names)]
    for r in evals:
        lines.append(f"{int(r['step']):>9}   "
                     + "   ".join(f"{r[f'score_{n}']:<20.1%}" for n in names))
    return "\n".join(lines)


class TDRun(Run):
    """TD's runs (``savanna.cli.run_loop``): budget and schedules in self-play games,
    evaluated against the config's opponents, one ``metrics.csv`` row per chunk of games."""

    name, title, resumable = "td", "TD(lambda)", "games"

    def trainer_class(self):
        from savanna.agents.training.td import Trainer

        return Trainer

    def schedule(self, config):
        return config.games, config.eval_every, config.checkpoint_every

    def opponents(self, config):
        return config.opponents

    def metrics_row(self, trainer, metrics, seconds, extra):
        return {"step": metrics.pop("game"), **metrics, "seconds": extra["seconds"]}

    def evaluated(self, folder, trainer, row, extra, write):
        plot_curve(folder)

    def postfix(self, metrics, last_eval):
        return {"games/s": f"{metrics['games_per_second']:,.0f}",
                **{f"vs {k.removeprefix('score_')}": f"{v:.0%}" for k, v in last_eval.items()
                   if k.startswith("score_")}}

    def summary(self, trainer, extra, wall, start):
        seconds = max(extra["seconds"], 1e-9)
        return (f"done: {trainer.count:,} games; self-play and learning took "
                f"{extra['seconds']:.0f} s ({trainer.count / seconds:,.1f} games/s); since this "
                f"start, evaluations and checkpoints included, {wall:.0f} s")


def run_training(config=None, runs_dir="runs", resume=None, progress=True, game=None,
                 write=print, stop_after=None):
    """Train (or resume) a run; returns its folder. ``resume`` is a run folder or a checkpoint
    file; ``game`` an instance for games not in the registry; ``stop_after`` ends the run after
    that many chunks (as if interrupted: tests)."""
    return TDRun().train(config, runs_dir, resume, game, write, progress, stop_after)


def add_parser(subparsers, name="td"):
    """Register the command (``name``) on ``subparsers`` (``savanna train``'s): the flags of
    every trainer (``savanna.cli.run_loop.add_run_parser``) and one flag per ``TDConfig``
    setting."""
    return add_run_parser(subparsers, name, "TD(lambda) self-play of a value network", __doc__,
                          _add_settings, run)


def _add_settings(parser):
    from savanna.agents.models.td_config import TDConfig

    add_config_flags(parser, TDConfig)


def run(args, extra=None):
    """Run the command parsed by ``add_parser``: a new run, or ``--resume`` (then only
    ``--games`` may change)."""
    from savanna.agents.models.td_config import TDConfig

    print(text_curve(start_or_resume(args, TDConfig, "games", run_training)))
    return 0
