"""``savanna train ppo <game>``: a PPO run in its own folder, resumable, evaluated as it goes.

    savanna train ppo zebres --steps 3M --seed 0
    savanna train ppo --resume runs/zebres-ppo-0-20260101-120000

A run folder ``runs/<game>-ppo-<seed>-<time>/`` (``-2``, ``-3``, ... after the time when
another run took that name first) holds

    config.json    every setting (also inside each checkpoint)
    metrics.csv    one row per update: losses, entropy, KL, training win rates, steps/s
    eval.csv       one row per evaluation: win rate and score against random and greedy
    last.pt        the full training state, written atomically every ``checkpoint_every``
                   steps and when the run stops (Ctrl-C finishes the update, saves, exits)
    best.pt        the network with the best mean score against random and greedy
    curve.png      the learning curve (mean training return; win rates over steps)
    tb/            TensorBoard events, if ``tensorboard`` is installed

Evaluations are arena matches (``agents.arena.play_match``, seats rotated) of the current
network, playing its most probable legal move, against random and greedy, every
``eval_every`` steps and at the start. ``--resume`` restores everything the checkpoint holds,
drops log rows written after it, and continues with exactly the updates the run would have
made.
"""
import argparse
import csv
import io
import json
import math
import re
import signal
import time
from pathlib import Path

import numpy as np

from savanna.errors import clip
from savanna.files import atomic_write_bytes, atomic_write_text, new_folder


__all__ = ["add_train_parser", "demo_training", "evaluate", "parse_steps", "plot_curve",
           "run_training", "text_curve", "training_throughput"]

EVAL_OPPONENTS = ("random", "greedy")
METRICS_FILE, EVAL_FILE = "metrics.csv", "eval.csv"


def parse_steps(text):
    """``'3M'`` -> 3_000_000, ``'250k'`` -> 250_000, ``'1e6'`` -> 1_000_000."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:e[0-9]+)?)\s*([kKmMgG]?)\s*", str(text))
    if not match:
        raise ValueError(f"steps must be a number like 3M, 250k or 1e6, got {clip(text)}")
    value = float(match.group(1)) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[match.group(2).lower()]
    if not 1 <= value < 1e15:
        raise ValueError(f"steps must be in 1 .. 1e15, got {clip(text)}")
    return int(value)


def steps_argument(text):
    """``parse_steps`` as an argparse ``type``: its message, not 'invalid value'."""
    try:
        return parse_steps(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


# ----- evaluation -------------------------------------------------------------------------
def evaluate(trainer, games, seed):
    """Arena matches of the current network against each baseline: ``{win_random: ...,
    score_random: ..., win_greedy: ..., score_greedy: ...}``."""
    from agents.arena import play_match
    from agents.ppo_agent import PPOAgent
    from agents.registry import make_agent

    agent = PPOAgent.from_network(trainer.net, trainer.game, f"step {trainer.global_step}")
    row = {}
    for k, name in enumerate(EVAL_OPPONENTS):
        result = play_match(trainer.game, [agent, make_agent(name)], games=games,
                            seed=seed * 1000 + k, workers=1, progress=False, batch_size=games)
        summary = result.summary()[0]
        row[f"win_{name}"] = summary["win_rate"]
        row[f"score_{name}"] = summary["score"]
    return row


# ----- logs and curves --------------------------------------------------------------------
class RunLog:
    """Appends rows to the run's CSV files (and TensorBoard when available). On resume, rows
    past the checkpoint's step are dropped so that the logs match the resumed run."""

    def __init__(self, folder, resume_step=None):
        self.folder = Path(folder)
        if resume_step is not None:
            for name in (METRICS_FILE, EVAL_FILE):
                _truncate_csv(self.folder / name, resume_step)
        try:
            from torch.utils.tensorboard import SummaryWriter
            self.tensorboard = SummaryWriter(str(self.folder / "tb"))
        except ImportError:  # tensorboard is optional
            self.tensorboard = None

    def write(self, name, row):
        path = self.folder / name
        new = not path.exists()
        with open(path, "a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(row))
            if new:
                writer.writeheader()
            writer.writerow({k: _cell(v) for k, v in row.items()})
        if self.tensorboard is not None:
            group = name.split(".")[0]
            for key, value in row.items():
                if key != "step" and isinstance(value, (int, float)) and math.isfinite(value):
                    self.tensorboard.add_scalar(f"{group}/{key}", value, row["step"])

    def close(self):
        if self.tensorboard is not None:
            self.tensorboard.close()


def _cell(value):
    return f"{value:.6g}" if isinstance(value, float) else value


def _truncate_csv(path, step):
    if not path.exists():
        return
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(r for r in rows if int(float(r["step"])) <= step)
    atomic_write_text(path, text.getvalue())


def read_csv(path):
    """Rows of a run CSV as dicts of floats (empty when the file does not exist)."""
    if not Path(path).exists():
        return []
    with open(path, newline="") as f:
        return [{k: float(v) if v not in ("", None) else math.nan for k, v in r.items()}
                for r in csv.DictReader(f)]


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
    against random and greedy as numbers and bars.

    >>> print(text_curve("runs/zebres-ppo-0-..."))    # doctest: +SKIP
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
def run_training(config=None, runs_dir="runs", resume=None, progress=True, game=None,
                 write=print, stop_after=None):
    """Train (or resume) a run; returns its folder. ``resume`` is a run folder or a checkpoint
    file; ``game`` an instance for games not in the registry; ``stop_after`` ends the run after
    that many updates (as if interrupted: tests)."""
    from agents.ppo import Trainer

    if resume is not None:
        checkpoint = Path(resume)
        checkpoint = checkpoint / "last.pt" if checkpoint.is_dir() else checkpoint
        overrides = {} if config is None else {"steps": config.steps}
        trainer, extra = Trainer.load(checkpoint, game, **overrides)
        folder = checkpoint.parent
        log = RunLog(folder, resume_step=trainer.global_step)
        write(f"resuming {folder} at step {trainer.global_step:,}")
    else:
        trainer = Trainer(config, game)
        folder = new_folder(runs_dir, f"{trainer.game.name}-ppo-{config.seed}")
        extra = {"next_eval": 0, "next_checkpoint": config.checkpoint_every,
                 "best_score": -1.0, "seconds": 0.0, "last_eval": {}}
        log = RunLog(folder)
        write(f"training PPO on {trainer.game.name}: {folder}")
    cfg = trainer.config
    atomic_write_text(folder / "config.json", json.dumps(cfg.to_dict(), indent=1))

    stopping = []

    def on_interrupt(signum, frame):
        if stopping:
            raise KeyboardInterrupt
        stopping.append(signum)

    wall_start = time.perf_counter()
    start_step = trainer.global_step
    previous = _install_handler(on_interrupt)
    bar = _progress_bar(progress, cfg.steps, trainer.global_step)
    updates = 0
    try:
        while trainer.global_step < cfg.steps and not stopping:
            if trainer.global_step >= extra["next_eval"]:
                _evaluate_and_keep_best(trainer, extra, log, folder)
            started = time.perf_counter()
            metrics = trainer.train_update()
            seconds = time.perf_counter() - started
            extra["seconds"] += seconds
            metrics["steps_per_second"] = cfg.batch_size / seconds
            metrics["seconds"] = extra["seconds"]
            log.write(METRICS_FILE, {"step": metrics.pop("step"), **metrics})
            if trainer.global_step >= extra["next_checkpoint"]:
                extra["next_checkpoint"] += cfg.checkpoint_every
                trainer.save(folder / "last.pt", extra)
            if bar is not None:
                bar.update(cfg.batch_size)
                bar.set_postfix(_postfix(metrics, extra["last_eval"]), refresh=False)
            updates += 1
            if stop_after is not None and updates >= stop_after:
                stopping.append("stop_after")
        if not stopping:
            _evaluate_and_keep_best(trainer, extra, log, folder)
        trainer.save(folder / "last.pt", extra)
    finally:
        if bar is not None:
            bar.close()
        _restore_handler(previous)
        log.close()
    plot_curve(folder)
    if stopping:
        write(f"stopped at step {trainer.global_step:,}; checkpoint saved. Continue with: "
              f"savanna train ppo --resume {folder}")
    else:
        wall = time.perf_counter() - wall_start
        write(f"done: {trainer.global_step:,} steps; updates took {extra['seconds']:.0f} s "
              f"({trainer.global_step / max(extra['seconds'], 1e-9):,.0f} steps/s); this "
              f"session, evaluations and checkpoints included, {wall:.0f} s "
              f"({(trainer.global_step - start_step) / max(wall, 1e-9):,.0f} steps/s)")
    return folder


def _evaluate_and_keep_best(trainer, extra, log, folder):
    cfg = trainer.config
    row = evaluate(trainer, cfg.eval_games, seed=cfg.seed * 100_003 + trainer.global_step)
    log.write(EVAL_FILE, {"step": trainer.global_step, **row})
    extra["last_eval"] = row
    extra["next_eval"] = trainer.global_step + cfg.eval_every
    score = float(np.mean([row[f"score_{name}"] for name in EVAL_OPPONENTS]))
    if score > extra["best_score"]:
        extra["best_score"] = score
        trainer.save(folder / "best.pt", {"eval": row}, full=False)
    plot_curve(folder)


def _postfix(metrics, last_eval):
    out = {"steps/s": f"{metrics['steps_per_second']:,.0f}"}
    for name in EVAL_OPPONENTS:
        if f"win_{name}" in last_eval:
            out[f"win {name}"] = f"{last_eval[f'win_{name}']:.0%}"
    return out


def _progress_bar(progress, total, initial):
    if not progress:
        return None
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit="step", unit_scale=True, smoothing=0.1)


def _install_handler(handler):
    try:
        return signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: Ctrl-C stays the default
        return None


def _restore_handler(previous):
    if previous is not None:
        signal.signal(signal.SIGINT, previous)


# ----- the command line -------------------------------------------------------------------
def add_train_parser(subparsers):
    """Register ``train`` on the ``savanna`` command's subparsers. Unset options keep the
    ``agents.ppo.PPOConfig`` defaults (torch is imported only when a run starts)."""
    from experiments.cli import add_game_options, positive_int, seed

    train = subparsers.add_parser(
        "train", help="train an agent (masked PPO with self-play)",
        description=__doc__)
    train.add_argument("algorithm", choices=["ppo"], help="the learning algorithm")
    train.add_argument("game", nargs="?", help="the game (not needed with --resume)")
    train.add_argument("--steps", type=steps_argument,
                       help="learner decisions in all, e.g. 3M (default: 3M; with --resume: "
                            "train on to this total)")
    train.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    train.add_argument("--envs", type=positive_int, dest="num_envs", help="games played at once "
                       "(default: 512)")
    train.add_argument("--opponents", help="shares of the games played against each "
                       "opponent kind (default: self=0.4,random=0.1,greedy=0.5)")
    train.add_argument("--latest-share", type=float, help="chance that self-play opponents "
                       "play the current weights rather than a past snapshot (default: 0.5)")
    train.add_argument("--hidden", help="hidden layer widths (default: 128,128)")
    train.add_argument("--lr", type=float, help="initial learning rate (default: 1e-3)")
    train.add_argument("--eval-every", type=steps_argument,
                       help="steps between evaluations (default: 250k)")
    train.add_argument("--eval-games", type=positive_int, help="games per evaluation match "
                       "(default: 200)")
    train.add_argument("--shaping", type=float, help="potential-based reward shaping on the "
                       "score lead, e.g. 0.05 (default: 0, off)")
    train.add_argument("--threads", type=positive_int, help="torch threads (default: 1; 2 "
                       "helps only on an otherwise idle machine)")
    train.add_argument("--runs-dir", default="runs", help="where run folders go (default: runs)")
    train.add_argument("--resume", metavar="RUN", help="continue a stopped run (its folder)")
    add_game_options(train)
    train.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    train.set_defaults(run=run_train)
    return train


def run_train(args, extra=None):
    from agents.ppo import PPOConfig

    if args.resume:
        config = None if args.steps is None else PPOConfig(steps=args.steps)
        folder = run_training(config, resume=args.resume, progress=not args.no_progress)
        print(text_curve(folder))
        return 0
    if not args.game:
        raise ValueError("name the game to train on (e.g. savanna train ppo zebres), "
                         "or give --resume RUN")
    from experiments.cli import game_options, make_game

    options = game_options(args.game, args.option)
    game = make_game(args.game, options)
    settings = {key: getattr(args, key) for key in
                ("steps", "num_envs", "opponents", "latest_share", "lr", "eval_every", "eval_games",
                 "shaping", "threads")
                if getattr(args, key) is not None}
    if args.hidden is not None:
        try:
            settings["hidden"] = tuple(int(h) for h in args.hidden.split(","))
        except ValueError:
            raise ValueError(f"hidden must be widths like 128,128, got "
                             f"{clip(args.hidden)}") from None
    config = PPOConfig(game=args.game, game_options=options, seed=args.seed, **settings)
    folder = run_training(config, runs_dir=args.runs_dir, progress=not args.no_progress,
                          game=game)
    print(text_curve(folder))
    return 0


def training_throughput(game="zebres", updates=10, **settings):
    """End-to-end PPO training speed in learner steps per second of wall time: rollouts from
    the batched envs against the default opponent pool, and the updates, after one warm-up
    update (compilation). For ``benchmarks``."""
    from agents.ppo import PPOConfig, Trainer

    trainer = Trainer(PPOConfig(game=game, steps=10**12, **settings))
    trainer.train_update()
    start = time.perf_counter()
    for _ in range(updates):
        trainer.train_update()
    return updates * trainer.config.batch_size / (time.perf_counter() - start)


# ----- the demo ---------------------------------------------------------------------------
def demo_training(steps=3_000_000, seed=0, write=print, runs_dir="runs"):
    """``make demo``'s short PPO run on Zèbres (about a minute): trains, then prints the
    learning curve as text."""
    from agents.ppo import PPOConfig

    config = PPOConfig(steps=steps, seed=seed, eval_every=max(steps // 4, 1), eval_games=100,
                       checkpoint_every=steps)
    folder = run_training(config, runs_dir=runs_dir, write=write)
    write(text_curve(folder))
    write(f"learning curve: {folder / 'curve.png'}")
    return folder
