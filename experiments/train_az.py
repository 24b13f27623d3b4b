"""``savanna train az <game>``: an AlphaZero run (``agents.alphazero``) in its own folder.

    savanna train az zebres --minutes 60 --seed 0 [--games 256] [--sims 32] ...
    savanna train az --resume runs/zebres-az-0-20260101-120000

A run folder ``runs/<game>-az-<seed>-<time>/`` holds

    config.json   every setting (also inside each checkpoint)
    metrics.csv   every ``log_every`` self-play moves: losses, positions, leaf evaluations per
                  second, and the shares of time in search, inference and learning
    eval.csv      every ``eval_minutes`` of training: win rate, score and Elo of the search
                  (``eval_sims`` simulations) against each rung of the ladder (arena matches,
                  seats rotated)
    last.pt       everything to resume, written atomically every ``checkpoint_minutes`` and
                  when the run stops (Ctrl-C finishes the move, saves, exits)
    best.pt       the network with the best mean score over the ladder

``--minutes`` counts training time (self-play and learning), not evaluations. ``--resume``
restores everything the checkpoint holds, drops log rows written after it and continues with
exactly the moves and updates the run would have made.

Every setting of ``agents.alphazero.AZConfig`` is a flag (``--max-considered 8``,
``--ladder mcts:sims=100,mcts:sims=1000``), generated from the dataclass.
"""
import argparse
import dataclasses
import datetime
import json
import signal
import sys
import time
from pathlib import Path

__all__ = ["add_parser", "evaluate", "main", "run", "run_training"]

METRICS_FILE, EVAL_FILE = "metrics.csv", "eval.csv"
NOT_FLAGS = ("game", "game_options", "seed")  # positional or given their own flag


def evaluate(trainer, seed):
    """The search on the current network against each rung of the ladder: ``{win_<rung>,
    score_<rung>, elo_<rung>}``."""
    from agents.arena import elo_from_score, play_match
    from agents.az_agent import AZAgent
    from agents.registry import make_agent

    cfg, game = trainer.config, trainer.game
    agent = AZAgent.from_network(trainer.learner.net, game, f"move {trainer.moves}",
                                 sims=cfg.eval_sims, max_considered=cfg.max_considered)
    row = {}
    for k, rung in enumerate(cfg.ladder):
        agents = [agent] + [make_agent(rung) for _ in range(game.num_players - 1)]
        result = play_match(game, agents, games=cfg.eval_games, seed=seed * 1000 + k,
                            workers=1, progress=False, batch_size=cfg.eval_games)
        summary = result.summary()[0]
        row[f"win_{rung}"], row[f"score_{rung}"] = summary["win_rate"], summary["score"]
        row[f"elo_{rung}"] = elo_from_score(summary["score"])
    return row


def run_training(config=None, runs_dir="runs", resume=None, game=None, write=print,
                 stop_after=None):
    """Train (or resume) a run; returns its folder. ``resume`` is a run folder or a checkpoint
    file; ``game`` an instance for games not in the registry; ``stop_after`` ends the run after
    that many moves (as if interrupted: tests)."""
    from agents.alphazero import Trainer, load_checkpoint, save_checkpoint
    from experiments.train import RunLog

    if resume is not None:
        checkpoint = Path(resume)
        checkpoint = checkpoint / "last.pt" if checkpoint.is_dir() else checkpoint
        overrides = {} if config is None else {"minutes": config.minutes}
        trainer, extra = Trainer.from_checkpoint(load_checkpoint(checkpoint, game), game,
                                                 **overrides)
        folder = checkpoint.parent
        log = RunLog(folder, resume_step=trainer.moves)
        write(f"resuming {folder} at move {trainer.moves:,}")
    else:
        trainer = Trainer(config, game)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        folder = Path(runs_dir) / f"{trainer.game.name}-az-{config.seed}-{stamp}"
        folder.mkdir(parents=True, exist_ok=False)
        extra = {"seconds": 0.0, "next_eval": 0.0, "next_checkpoint": 60 * config.checkpoint_minutes,
                 "best_score": -1.0, "last_eval": {}}
        log = RunLog(folder)
        write(f"training AlphaZero on {trainer.game.name}: {folder}")
    cfg = trainer.config
    (folder / "config.json").write_text(json.dumps(cfg.to_dict(), indent=1))

    def save(name, full=True, more=None):
        save_checkpoint(trainer.checkpoint({**extra, **(more or {})}, full), folder / name)

    def evaluate_and_keep_best():
        row = evaluate(trainer, seed=cfg.seed * 100_003 + trainer.moves)
        log.write(EVAL_FILE, {"step": trainer.moves, "minutes": extra["seconds"] / 60, **row})
        extra["last_eval"] = row
        extra["next_eval"] = extra["seconds"] + 60 * cfg.eval_minutes
        score = sum(row[f"score_{r}"] for r in cfg.ladder) / len(cfg.ladder)
        write(f"move {trainer.moves:,} ({extra['seconds'] / 60:.1f} min): " + ", ".join(
            f"{r} {row[f'score_{r}']:.0%} (Elo {row[f'elo_{r}']:+.0f})" for r in cfg.ladder))
        if score > extra["best_score"]:
            extra["best_score"] = score
            save("best.pt", full=False, more={"eval": row})

    stopping = []
    try:
        previous = signal.signal(signal.SIGINT, lambda *_: stopping.append("interrupt"))
    except ValueError:  # not the main thread: Ctrl-C stays the default
        previous = None
    moves, window = 0, _Window(trainer)
    try:
        while extra["seconds"] < 60 * cfg.minutes and not stopping:
            if extra["seconds"] >= extra["next_eval"]:
                evaluate_and_keep_best()
            started = time.perf_counter()
            metrics = trainer.step()
            extra["seconds"] += time.perf_counter() - started
            moves += 1
            if trainer.moves % cfg.log_every == 0:
                log.write(METRICS_FILE, {"step": trainer.moves, "minutes": extra["seconds"] / 60,
                                         **trainer.counters(), **window.rates(), **metrics})
            if extra["seconds"] >= extra["next_checkpoint"]:
                extra["next_checkpoint"] += 60 * cfg.checkpoint_minutes
                save("last.pt")
            if stop_after is not None and moves >= stop_after:
                stopping.append("stop_after")
        if not stopping:
            evaluate_and_keep_best()
        save("last.pt")
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        log.close()
    if stopping:
        write(f"stopped at move {trainer.moves:,}; checkpoint saved. Continue with: "
              f"savanna train az --resume {folder}")
    else:
        write(f"done: {trainer.moves:,} moves, {trainer.positions:,} positions, "
              f"{trainer.learner.steps:,} learner steps in {extra['seconds'] / 60:.1f} min")
    return folder


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
    """Register the command (``name``) on ``subparsers``: the game, ``--seed``, ``--resume``,
    ``-o`` game options, and one flag per ``AZConfig`` setting (unset flags keep its
    defaults)."""
    from agents.alphazero import AZConfig

    parser = subparsers.add_parser(name, help="train an AlphaZero agent (Gumbel search)",
                                   description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", help="the game (not needed with --resume)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--resume", metavar="RUN", help="continue a run folder or checkpoint")
    parser.add_argument("--runs-dir", default="runs", help="where run folders go")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. -o num_players=3 (repeatable)")
    for f in dataclasses.fields(AZConfig):
        if f.name in NOT_FLAGS:
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        kind = type(default)
        parser.add_argument(f"--{f.name.replace('_', '-')}", dest=f.name, default=None,
                            type=_comma_list(kind, type(default[0])) if kind is tuple else kind,
                            help=f"default: {','.join(map(str, default)) if kind is tuple else default}")
    parser.set_defaults(run=run)
    return parser


def _comma_list(kind, item):
    def parse(text):
        try:
            return kind(item(x) for x in text.split(","))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected comma-separated {item.__name__}s, "
                                             f"got {text!r}") from None
    return parse


def run(args, extra=None):
    """Run the command parsed by ``add_parser``."""
    from agents.alphazero import AZConfig
    from experiments.cli import make_game_from_args

    settings = {f.name: getattr(args, f.name) for f in dataclasses.fields(AZConfig)
                if f.name not in NOT_FLAGS and getattr(args, f.name) is not None}
    if args.resume:
        unknown = sorted(set(settings) - {"minutes"})
        if unknown:
            raise ValueError(f"--resume continues a run with its own settings; only --minutes "
                             f"may change, got {', '.join(unknown)}")
        config = AZConfig(**settings) if settings else None
        run_training(config, resume=args.resume)
        return 0
    if not args.game:
        raise ValueError("name the game to train on (e.g. savanna train az zebres), or give "
                         "--resume RUN")
    game = make_game_from_args(args.game, args.option)
    options = dict(o.partition("=")[::2] for o in args.option)
    options = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in options.items()}
    config = AZConfig(game=args.game, game_options=options, seed=args.seed, **settings)
    run_training(config, runs_dir=args.runs_dir, game=game)
    return 0


def main(argv=None):
    """``savanna train az ...`` on its own (``python -m experiments.train_az zebres ...``)."""
    parser = argparse.ArgumentParser(prog="savanna train")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["az", *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.run(args)
    except ValueError as err:
        print(f"savanna train az: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
