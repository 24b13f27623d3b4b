"""One run loop for every trainer (``savanna train ppo``, ``savanna train az``): a run folder,
evaluations that keep the best network, checkpoints, Ctrl-C, and a resume that continues
exactly.

A trainer has one shape (``savanna.agents.training.trainer.Trainer``); what one command's runs
do their own way is a ``Run``: how the budget and schedules are counted (learner steps for PPO,
training minutes for AlphaZero), the evaluations' opponents, the rows of ``metrics.csv``. An
evaluation due with a checkpoint is played before it, so a resumed run never plays it twice.
The run folder: the PPO and AlphaZero guides.
"""
import io
import time
from pathlib import Path

from savanna.cli.arguments import add_game_options, run_settings
from savanna.cli.run_folders import (
    EVAL_FILE,
    METRICS_FILE,
    RunLog,
    Stop,
    check_run_files,
    check_settings_file,
    checkpoint_file,
    eval_records_file,
    read_csv,
    save_config,
)
from savanna.files import atomic_write_bytes, claimed, new_folder
from savanna.records import write_records
from savanna.registry import make_game

__all__ = ["Run", "add_run_parser", "evaluate", "plot_run_curve", "start_or_resume"]


def evaluate(agent, game, opponents, games, seed, records=None, elo=False):
    """Arena matches of ``agent`` against each opponent spec (every other seat), seats
    rotated: ``{win_<spec>, score_<spec>[, elo_<spec>]}``; every game is saved as a record in
    the file ``records`` when given (replaced if it exists: a resumed run evaluates the same
    count again)."""
    from savanna.agents.arena.matches import play_match
    from savanna.agents.arena.stats import elo_from_score
    from savanna.agents.play.registry import make_agent

    row, kept = {}, []
    for k, spec in enumerate(opponents):
        agents = [agent] + [make_agent(spec) for _ in range(game.num_players - 1)]
        result = play_match(game, agents, games=games, seed=seed * 1000 + k, workers=1,
                            progress=False, batch_size=games, record=records is not None)
        summary = result.summary()[0]
        row[f"win_{spec}"], row[f"score_{spec}"] = summary["win_rate"], summary["score"]
        if elo:
            row[f"elo_{spec}"] = elo_from_score(summary["score"])
        kept += result.records or []
    if records is not None:
        write_records(records, kept, overwrite=True)
    return row


class Run:
    """One command's runs (see the module docstring): a subclass says what differs,
    ``train`` runs one."""

    name = ""            # "ppo": the run folder's middle part and ``savanna train <name>``
    title = ""           # "PPO", in messages
    timed = False        # budget and schedules in training seconds, else in the trainer's count
    resumable = ""       # the one setting a resume may change (the budget: "steps")
    elo = False          # evaluations give an Elo difference per opponent too

    # ----- what a command says -----------------------------------------------------------
    def trainer_class(self):
        """The ``Trainer`` class (imported when a run starts: torch)."""
        raise NotImplementedError

    def new_trainer(self, config, game, write, **options):
        """The trainer of a new run (``game``: an instance, or None for the config's)."""
        return self.trainer_class()(config, game, **options)

    def schedule(self, config):
        """``(end, evaluate every, checkpoint every)`` in the run's clock (see ``timed``)."""
        raise NotImplementedError

    def opponents(self, config):
        """The agent specs every evaluation plays."""
        raise NotImplementedError

    def begin(self, trainer):
        """Called once before the first step of this start (a resumed run starts again)."""

    def metrics_row(self, trainer, metrics, seconds, extra):
        """The ``metrics.csv`` row of one step of ``seconds`` (None: no row this step)."""
        raise NotImplementedError

    def evaluated(self, folder, trainer, row, extra, write):
        """Called after each evaluation and when the run ends (``row`` None)."""

    def summary(self, trainer, extra, wall, start):
        """The last line of a run that was not stopped (``wall`` seconds since this start or
        resume, from count ``start``)."""
        raise NotImplementedError

    def postfix(self, metrics, last_eval):
        """What the progress bar shows beside the count."""
        return {f"win {spec}": f"{rate:.0%}" for spec, rate in (
            (key.removeprefix("win_"), value) for key, value in last_eval.items()
            if key.startswith("win_"))}

    # ----- the loop ------------------------------------------------------------------------
    def clock(self, trainer, extra):
        return extra["seconds"] if self.timed else trainer.count

    def train(self, config=None, runs_dir="runs", resume=None, game=None, write=print,
              progress=False, stop_after=None, **options):
        """Trains (or resumes) a run; returns its folder. ``resume`` is a run folder or a
        checkpoint file; ``game`` an instance for games not in the registry; ``stop_after``
        ends the run after that many steps (as if interrupted: tests); ``options`` go to the
        trainer (``load``, or ``new_trainer``)."""
        if resume is not None:
            checkpoint = checkpoint_file(resume)
            folder = checkpoint.parent
            with claimed(folder, "run folder"):
                check_run_files(folder)
                overrides = {} if config is None else {
                    self.resumable: getattr(config, self.resumable)}
                trainer, extra = self.trainer_class().load(checkpoint, game, **options,
                                                           **overrides)
                try:
                    check_settings_file(folder, trainer.config.to_dict(),
                                        resumable=(self.resumable,))
                    log = RunLog(folder, resume_step=trainer.count)
                except BaseException:
                    trainer.close()
                    raise
                write(f"resuming {folder} at {trainer.UNIT} {trainer.count:,}")
                return self._run(trainer, folder, log, extra, write, progress, stop_after)
        trainer = self.new_trainer(config, game, write, **options)
        try:
            folder = new_folder(runs_dir, f"{trainer.game.name}-{self.name}-{config.seed}")
        except BaseException:
            trainer.close()
            raise
        with claimed(folder, "run folder"):
            extra = {"seconds": 0.0, "next_eval": 0, "best_score": -1.0, "last_eval": {},
                     "next_checkpoint": self.schedule(config)[2]}
            write(f"training {self.title} on {trainer.game.name}: {folder}")
            return self._run(trainer, folder, RunLog(folder), extra, write, progress,
                             stop_after)

    def _run(self, trainer, folder, log, extra, write, progress, stop_after):
        """The run in its claimed ``folder``: the loop, then what is said at the end."""
        save_config(folder, trainer.config, trainer.game)
        try:
            stopped = self._loop(trainer, folder, log, extra, write, progress, stop_after)
        finally:
            log.close()
            trainer.close()
        self.evaluated(folder, trainer, None, extra, write)
        if stopped:
            write(f"stopped at {trainer.UNIT} {trainer.count:,}; checkpoint saved. Continue "
                  f"with: savanna train {self.name} --resume {folder}")
        return folder

    def _loop(self, trainer, folder, log, extra, write, progress, stop_after):
        """Steps until the budget is spent or a stop is asked; True when stopped."""
        end, eval_every, checkpoint_every = self.schedule(trainer.config)
        last_eval = f"last_eval_{trainer.UNIT}"
        wall, start = time.perf_counter(), trainer.count

        def evaluate_and_keep_best():
            cfg, count = trainer.config, trainer.count
            opponents = self.opponents(cfg)
            row = evaluate(trainer.agent(f"{trainer.UNIT} {count}"), trainer.game, opponents,
                           cfg.eval_games, seed=cfg.seed * 100_003 + count,
                           records=eval_records_file(folder, count), elo=self.elo)
            minutes = {"minutes": extra["seconds"] / 60} if self.timed else {}
            log.write(EVAL_FILE, {"step": count, **minutes, **row})
            extra["last_eval"], extra[last_eval] = row, count
            extra["next_eval"] = self.clock(trainer, extra) + eval_every
            score = sum(row[f"score_{spec}"] for spec in opponents) / len(opponents)
            if score > extra["best_score"]:
                extra["best_score"] = score
                trainer.save(folder / "best.pt", {"eval": row}, full=False)
            self.evaluated(folder, trainer, row, extra, write)

        self.begin(trainer)
        bar = _progress_bar(progress, end, self.clock(trainer, extra),
                            "s" if self.timed else trainer.UNIT)
        steps = 0
        try:
            with Stop() as stop:
                while self.clock(trainer, extra) < end and not stop:
                    if self.clock(trainer, extra) >= extra["next_eval"]:
                        evaluate_and_keep_best()
                    before, started = self.clock(trainer, extra), time.perf_counter()
                    metrics = trainer.step()
                    seconds = time.perf_counter() - started
                    extra["seconds"] += seconds
                    row = self.metrics_row(trainer, metrics, seconds, extra)
                    if row is not None:
                        log.write(METRICS_FILE, row)
                    if self.clock(trainer, extra) >= extra["next_checkpoint"]:
                        if self.clock(trainer, extra) >= extra["next_eval"]:
                            evaluate_and_keep_best()
                        extra["next_checkpoint"] += checkpoint_every
                        trainer.save(folder / "last.pt", extra)
                    if bar is not None:
                        bar.update(self.clock(trainer, extra) - before)
                        bar.set_postfix(self.postfix(metrics, extra["last_eval"]),
                                        refresh=False)
                    steps += 1
                    if stop_after is not None and steps >= stop_after:
                        stop.request("stop_after")
                if not stop and extra.get(last_eval) != trainer.count:
                    evaluate_and_keep_best()
                trainer.save(folder / "last.pt", extra)
        finally:
            if bar is not None:
                bar.close()
        if not stop:
            write(self.summary(trainer, extra, time.perf_counter() - wall, start))
        return bool(stop)


def _progress_bar(progress, total, initial, unit):
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, unit=unit, unit_scale=True, smoothing=0.1)


# ----- what every trainer's command shares --------------------------------------------------
def add_run_parser(subparsers, name, help, description, setup, run):
    """The parser of ``savanna train NAME`` (``subparsers`` makes parsers of class
    ``savanna.cli.arguments.Parser``): the game, ``--resume``, ``--runs-dir``,
    ``--no-progress`` and ``-o`` game options; ``setup`` adds the config's flags when the
    command runs, and ``run(args)`` runs it."""
    parser = subparsers.add_parser(name, help=help, description=description, setup=setup)
    parser.add_argument("game", nargs="?", help="the game (not needed with --resume or "
                                                "--config)")
    parser.add_argument("--resume", metavar="RUN", help="continue a stopped run (its folder)")
    parser.add_argument("--runs-dir", default="runs", help="where run folders go (default: runs)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_game_options(parser)
    parser.set_defaults(run=run, prog=parser.prog)
    return parser


def start_or_resume(args, config_class, resumable, run_training):
    """A new run of the settings in ``args`` (``config_class``'s flags and ``--config``), or
    ``--resume`` of one, where only the setting ``resumable`` (its budget) may change; returns
    the run's folder."""
    settings = run_settings(config_class, args, resumable=(resumable,))
    if args.resume:
        config = config_class(**settings) if settings else None
        return run_training(config, resume=args.resume, progress=not args.no_progress)
    config = config_class.from_dict(settings)
    return run_training(config, runs_dir=args.runs_dir, progress=not args.no_progress,
                        game=make_game(config.game, **config.game_options))


def plot_run_curve(folder, metric, scores, xlabel):
    """Draw ``curve.png`` in a run's folder from its CSVs: above, ``metric`` = (column of
    ``metrics.csv``, its label, the axis's label) by step; below, ``scores`` = (columns of
    ``eval.csv`` -> their labels, the axis's label), from 0 to 1. Returns its path (None
    without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    folder = Path(folder)
    metrics, evals = read_csv(folder / METRICS_FILE), read_csv(folder / EVAL_FILE)
    (column, label, axis), (columns, score_axis) = metric, scores
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    top.plot([r["step"] for r in metrics], [r[column] for r in metrics], color="tab:gray",
             lw=0.8, label=label)
    top.set_ylabel(axis)
    for name, score_label in columns.items():
        bottom.plot([r["step"] for r in evals], [r[name] for r in evals], marker="o",
                    label=score_label)
    bottom.axhline(0.5, color="black", lw=0.5)
    bottom.set_ylim(0, 1)
    bottom.set_xlabel(xlabel)
    bottom.set_ylabel(score_axis)
    for panel in (top, bottom):
        panel.legend(loc="best")
        panel.grid(alpha=0.3)
    fig.suptitle(folder.name)
    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, format="png", dpi=100)
    plt.close(fig)
    atomic_write_bytes(folder / "curve.png", image.getvalue())
    return folder / "curve.png"

