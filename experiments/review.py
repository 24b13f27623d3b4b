"""``savanna review FILE``: a search's value of every decision of a recorded game, and the mover's
mistakes, as CSV.

    savanna review runs/match-zebres-<time>/records.jsonl --game 3 --out review.csv
    savanna review records.jsonl --agent mcts:sims=400 --threshold 0.3 > review.csv

Each decision's position is analysed (``savanna.agents.play.review``): one CSV line per
decision with each player's value, the search's best move, the value the mover lost by the move
played (``loss``) and whether it passes ``--threshold`` (``mistake``). The CSV goes to
``--out`` (written whole or not at all; an existing file only with ``--overwrite``), else to
standard output; the mistakes are listed after it.
"""
import sys
from pathlib import Path

from savanna.agents.play.review import DEFAULT_AGENT, DEFAULT_THRESHOLD, review
from savanna.experiments.arguments import add_record_arguments, number, seed
from savanna.files import check_new_file
from savanna.records import read_record

__all__ = ["add_parser", "run"]


def add_parser(commands):
    """Register ``review`` on the ``savanna`` command's subparsers."""
    parser = commands.add_parser(
        "review", help="a search's value of every decision of a recorded game, mistakes marked",
        description=__doc__)
    add_record_arguments(parser)
    parser.add_argument("--agent", default=DEFAULT_AGENT,
                        help="the searching agent: az:<checkpoint>[,sims=N], mcts[:sims=N,...] "
                             f"or ppo-mcts:<checkpoint> (default: {DEFAULT_AGENT})")
    parser.add_argument("--threshold", type=number, default=DEFAULT_THRESHOLD, metavar="T",
                        help="a decision whose loss is above T is a mistake (default: "
                             f"{DEFAULT_THRESHOLD:g})")
    parser.add_argument("--seed", type=seed, default=0, help="random seed of every analysis "
                                                             "(default: 0)")
    parser.add_argument("--out", type=Path, metavar="FILE.csv",
                        help="write the CSV there (default: standard output)")
    parser.add_argument("--overwrite", action="store_true", help="let --out replace a file")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(run=run)
    return parser


def run(args, extra=None):
    """Review the chosen game and write the CSV, then the mistakes."""
    if args.out is not None:
        check_new_file(args.out, args.overwrite)
    record = read_record(args.file, args.game)
    bar = Progress(record.plies, not args.no_progress)
    try:
        result = review(record, args.agent, threshold=args.threshold, seed=args.seed,
                        progress=bar.update)
    finally:
        bar.close()
    if args.out is None:
        sys.stdout.write(result.to_csv())
        report = sys.stderr
    else:
        result.to_csv(args.out, args.overwrite)
        report = sys.stdout
        print(f"saved {args.out}", file=report)
    print(summary(result), file=report)


def summary(result):
    """The mistakes in words, one line each, under a line that counts them."""
    lines = [f"{len(result.decisions)} decisions reviewed by {result.agent}; "
             f"{len(result.mistakes)} mistakes (the mover lost more than {result.threshold:g})"]
    lines += [f"  ply {m['ply']}: seat {m['player']} played {m['move']}, best {m['best']}, "
              f"lost {m['loss']:.3f}" for m in result.mistakes]
    return "\n".join(lines)


class Progress:
    """A progress bar over the decisions, shown from the first one reviewed (so that a bad
    agent's error is the only thing printed)."""

    def __init__(self, total, shown):
        self.total, self.shown, self.bar = total, shown, None

    def update(self, partial):
        if not self.shown:
            return
        if self.bar is None:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=self.total, unit="decision", desc="review")
        self.bar.update(len(partial.decisions) - self.bar.n)

    def close(self):
        if self.bar is not None:
            self.bar.close()
