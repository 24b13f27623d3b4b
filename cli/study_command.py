"""``savanna study GAME``: what kind of game it is, measured with Savanna's own agents.

    savanna study zebres --out studies/zebres                      both boards? give -o twice:
    savanna study zebres -o board=standard -o board=president --out studies/zebres-boards
    savanna study banjooli --players 2 5 --budget quick --out studies/banjooli

For every player count (``--players``, default every count the game takes) and every option set
(``-o KEY=VALUE``; a key given more than once is compared value by value) it measures seat
balance (identical agents in every seat at several strengths), skill depth (a chain of agents
of doubling budget, Bradley-Terry ratings, the skill-chain length, the share of chance against
a reference game without chance), luck (upset rate, the outcome's sensitivity to chance alone)
and the game's shape (decisions, branching, chance nodes, draws, lead changes, drama,
decisiveness), and writes ``report.html``, CSV and JSON to ``--out``. A study stopped in the
middle resumes where it was when run again with the same arguments; ``--ray`` plays on a Ray
cluster with the same numbers. ``savanna.studies.study(...)`` does the same from Python (a
notebook).

    savanna study --calibrate --out studies/calibration

runs the measures on games whose answers are known (Nim mixed with coin flips, Nim without
choice, fair and biased coins, Nim with a perfect player) and prints expected against
measured.
"""
from pathlib import Path

from savanna.agents.settings import MAX_WORKERS
from savanna.cli.arguments import (
    add_game_options,
    address_help,
    count,
    number,
    parse_game_options,
    seed,
)
from savanna.registry import GAMES
from savanna.studies.budgets import BUDGETS

__all__ = ["add_parser", "run"]


def add_parser(commands):
    """Register ``study`` on the ``savanna`` command's subparsers."""
    parser = commands.add_parser("study", description=__doc__)
    parser.add_argument("game", nargs="?", help=f"one of: {', '.join(GAMES)}")
    parser.add_argument("--calibrate", action="store_true",
                        help="study the games whose answers are known instead, and print "
                             "expected against measured")
    add_game_options(parser)
    parser.add_argument("--players", type=count(64), nargs="+", metavar="N",
                        help="player counts to study (default: every count the game takes)")
    parser.add_argument("--budget", choices=list(BUDGETS), default="standard",
                        help="how much is played (default: standard)")
    parser.add_argument("--threshold", type=number, help="the score a step of the skill chain "
                                                         "needs (default: 0.6)")
    parser.add_argument("--reference", help="a game without chance for the share of chance "
                                            "(default: connect_four; 'none' for none)")
    parser.add_argument("--no-network", action="store_true",
                        help="leave the shipped network out of the balance matches")
    parser.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    parser.add_argument("--workers", type=count(MAX_WORKERS),
                        help="processes (default: every core)")
    parser.add_argument("--ray", action="store_true",
                        help="play on Ray (pip install 'savanna-games[ray]'), the same numbers")
    parser.add_argument("--address", metavar="ADDR", help=address_help("--ray"))
    parser.add_argument("--out", type=Path, required=True,
                        help="the study's folder: new, or one this study left (it resumes)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(run=run)
    return parser


def run(args, extra=None):
    if args.address is not None and not args.ray:
        raise ValueError("--address is the Ray cluster's: give it with --ray")
    if args.calibrate:
        return _calibrate(args)
    if args.game is None:
        raise ValueError(f"give a game to study (one of: {', '.join(GAMES)}) or --calibrate")
    changes = {}
    if args.threshold is not None:
        changes["threshold"] = args.threshold
    if args.reference is not None:
        changes["reference"] = "" if args.reference == "none" else args.reference
    if args.no_network:
        changes["network"] = False
    from savanna.studies.run import study  # here: the other commands' help loads no study

    result = study(args.game, _grouped(args.game, args.option), args.players, args.out,
                   args.budget, args.seed, args.workers, args.ray, args.address,
                   progress=not args.no_progress, players_source="--players", **changes)
    print(result.table())
    print(f"saved to {args.out} (report.html)")


def _calibrate(args):
    """``--calibrate``: the known answers at ``--budget`` (``savanna.studies.calibrate``)."""
    if args.game is not None or args.option or args.players or args.ray:
        raise ValueError("--calibrate studies its own games: give no game, -o, --players or "
                         "--ray with it")
    from savanna.studies.calibrate import calibrate

    checks = calibrate(args.out, args.budget, args.seed, args.workers,
                       progress=not args.no_progress)
    for check in checks:
        print(check)
    print(f"{sum(c.holds is True for c in checks)} of {len(checks)} known answers hold "
          f"({args.budget} budget, seed {args.seed}); games kept in {args.out}")


def _grouped(name, items):
    """``-o`` items as ``{key: [value, ...]}``, a key given twice compared value by value."""
    grouped = {}
    for item in items:
        for key, value in parse_game_options(name, [item]).items():
            grouped.setdefault(key, []).append(value)
    return grouped
