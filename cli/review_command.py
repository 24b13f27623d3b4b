"""``savanna review FILE``: a search's value of every decision of a recorded game, and the mover's
mistakes, as CSV.

    savanna review runs/match-zebres-<time>/records.jsonl --game 3 --out review.csv
    savanna review records.jsonl --agent mcts:sims=400 --threshold 0.3 > review.csv

Each decision's position is analysed (``savanna.agents.play.review``): one CSV line per
decision with each player's value, the search's best move and best line, the value the mover
lost by the move played (``loss``), the same as a drop of its expected result (``drop``, its
share of the win from 0 to 1) and its ``label``: inaccuracy above ``--threshold``, mistake above
twice it, blunder above three times it, shown only where ``--repeats`` searches ``--confirm``
times deeper, each with its own seed, find it beyond their own noise (``confirmed_drop``, their
mean, and ``sure``: how sure they are of it). The CSV
goes to ``--out`` (written whole or not at all; an existing file only with ``--overwrite``),
else to standard output; each player's summary and the marked moves are listed after it.
``--json FILE`` also writes the whole review as JSON, the file ``savanna serve`` keeps beside the
games it saves (its page opens it again at its address).
"""
import sys
from pathlib import Path

from savanna.agents.play.review import (
    DEFAULT_AGENT,
    DEFAULT_CONFIRM,
    DEFAULT_REPEATS,
    DEFAULT_THRESHOLD,
    FALLBACK_AGENT,
    LABELS,
    PLURALS,
    default_agent,
    default_reviewer,
    review,
)
from savanna.cli.arguments import add_record_arguments, index, number, seed
from savanna.files import atomic_write_text, check_new_file, json_text
from savanna.records import read_record

__all__ = ["add_parser", "run"]


def add_parser(commands):
    """Register ``review`` on the ``savanna`` command's subparsers."""
    parser = commands.add_parser(
        "review", description=__doc__)
    add_record_arguments(parser)
    parser.add_argument("--agent",
                        help="the searching agent: az:<checkpoint>[,sims=N], mcts[:sims=N,...] "
                             f"or ppo-mcts:<checkpoint> (default: {default_agent('banjooli')} for "
                             f"banjooli, {DEFAULT_AGENT} for a game with a shipped AlphaZero "
                             f"baseline, else {FALLBACK_AGENT})")
    parser.add_argument("--threshold", type=number, default=DEFAULT_THRESHOLD, metavar="T",
                        help="a drop of the mover's expected result (0 to 1) above T is an "
                             "inaccuracy, above 2T a mistake, above 3T a blunder (default: "
                             f"{DEFAULT_THRESHOLD:g})")
    parser.add_argument("--confirm", type=index, default=DEFAULT_CONFIRM,
                        metavar="K", help="a drop above T is marked only when a search K times "
                                          "deeper finds it too (0: every drop above T is "
                                          f"marked; default: {DEFAULT_CONFIRM})")
    parser.add_argument("--repeats", type=index, default=DEFAULT_REPEATS, metavar="N",
                        help="how many confirming searches, each with its own seed: a drop is "
                             "marked only when, from their mean and spread, another such "
                             "search would find it above T too with a chance of 90%% "
                             f"(default: {DEFAULT_REPEATS})")
    parser.add_argument("--seed", type=seed, default=0, help="random seed of every analysis "
                                                             "(default: 0)")
    parser.add_argument("--out", type=Path, metavar="FILE.csv",
                        help="write the CSV there (default: standard output)")
    parser.add_argument("--json", type=Path, metavar="FILE.json",
                        help="also write the whole review as JSON there (the file savanna serve "
                             "keeps)")
    parser.add_argument("--overwrite", action="store_true", help="let --out and --json replace "
                                                                 "a file")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(run=run)
    return parser


def run(args, extra=None):
    """Review the chosen game and write the CSV, then the mistakes."""
    for path in (args.out, args.json):
        if path is not None:
            check_new_file(path, args.overwrite)
    record = read_record(args.file, args.game)
    game = record.game()
    agent = args.agent or default_reviewer(game)
    bar = Progress(record.plies, not args.no_progress)
    try:
        result = review(record, agent, threshold=args.threshold, seed=args.seed, game=game,
                        progress=bar.update, confirm=args.confirm,
                        repeats=args.repeats)
    finally:
        bar.close()
    if args.out is None:
        sys.stdout.write(result.to_csv())
        report = sys.stderr
    else:
        result.to_csv(args.out, args.overwrite)
        report = sys.stdout
        print(f"saved {args.out}", file=report)
    if args.json is not None:
        atomic_write_text(check_new_file(args.json, args.overwrite), json_text(result.to_json()))
        print(f"saved {args.json}", file=report)
    print(summary(result), file=report)


def summary(result):
    """A line that counts the marked moves, one per player (lichess's summary), then the marked
    moves in words, numbered as the board's move list (move 1 is ply 0)."""
    searches = "a search" if result.repeats == 1 else f"{result.repeats} searches"
    confirmed = (f", each confirmed by {searches} {result.confirm} times deeper, beyond their "
                 "noise" if result.confirm else "")
    lines = [f"{len(result.decisions)} decisions reviewed by {result.agent}; "
             f"{len(result.marked)} marked (inaccuracy: the mover's expected result dropped by "
             f"more than {100 * result.threshold:g} points of 100{confirmed})"]
    for s in result.summary():
        accuracy = "-" if s["accuracy"] is None else f"{s['accuracy']:.0f}%"
        if s["accuracy_interval"] is not None:
            accuracy += " [{:.0f}, {:.0f}]".format(*s["accuracy_interval"])
        drop = "-" if s["average_drop"] is None else f"{s['average_drop']:.1f} points"
        counts = ", ".join(counted(s[PLURALS[name]], name) for name in LABELS)
        lines.append(f"  player {s['player']} ({result.agents[s['player']]}): {counts}, "
                     f"average loss {drop}, accuracy {accuracy}")
    lines += [f"  move {m['ply'] + 1}: player {m['player']} played {m['move']}, best "
              f"{m['best']}: {m['label']}, lost {100 * _shown_drop(m, result.confirm):.1f} "
              f"points{_sure(m)}"
              for m in result.marked]
    return "\n".join(lines)


def _shown_drop(mark, confirm):
    """The drop a mark is shown with: the confirming search's, if there was one."""
    return mark["confirmed_drop"] if confirm else mark["drop"]


def _sure(mark):
    return "" if mark["sure"] != mark["sure"] else f" (sure {100 * mark['sure']:.0f}%)"


def counted(n, word):
    """``n`` and ``word``, plural unless one: "1 mistake", "2 inaccuracies", "0 blunders"."""
    return f"{n} {word if n == 1 else PLURALS[word]}"


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
