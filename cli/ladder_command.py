"""``savanna ladder``: a rating ladder kept in a file, to which agents are added one at a time.

    savanna ladder add greedy --games 200                  runs/ladder-zebres.json, random = 0
    savanna ladder add mcts:sims=200 --games 200           plays random and greedy only
    savanna ladder show --plot ladder.png                  the ratings, 95% intervals, a chart

``add`` plays the new agent against the agents on the ladder and refits every rating; the others
never play again. It holds a lock beside the file from its read to its rewrite, so two at once
take turns and the later one plays the earlier's agent too (``savanna.agents.arena.ladder``).
"""
from pathlib import Path

from savanna.agents.arena.ladder import Ladder
from savanna.agents.settings import MAX_GAMES, MAX_WORKERS
from savanna.cli.arguments import add_game_options, count, parse_game_options, seed
from savanna.errors import clip
from savanna.files import (
    atomic_write_bytes,
    atomic_write_text,
    check_new_file,
    locked,
    make_folders,
)

__all__ = ["add_parser"]


def add_parser(commands):
    """Register ``ladder add`` and ``ladder show`` on the ``savanna`` command's subparsers."""
    parser = commands.add_parser("ladder", description=__doc__)
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="rate a new agent against the ladder",
                             description="Play AGENT against the agents on the ladder, store "
                                         "the results, refit and print the ratings.")
    add.add_argument("agent", metavar="AGENT", help="the new agent, name[:key=value,...]")
    add.add_argument("--games", type=count(MAX_GAMES), default=100,
                     help="games of each match (default: 100)")
    add.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    add.add_argument("--workers", type=count(MAX_WORKERS), help="processes (default: every core)")
    add.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    _common(add)
    add.set_defaults(run=run_add, prog=add.prog)

    show = actions.add_parser("show", help="print the ratings (and plot them)",
                              description="Print the ladder's ratings with 95% intervals; "
                                          "--plot draws them (PNG, or SVG by the suffix).")
    show.add_argument("--plot", type=Path, metavar="FILE",
                      help="also draw the ratings into FILE (.png or .svg), a new file")
    show.add_argument("--overwrite", action="store_true", help="let --plot replace a file")
    _common(show)
    show.set_defaults(run=run_show, prog=show.prog)
    return parser


def _common(parser):
    parser.add_argument("--game", help="the game, for a new ladder (default: zebres), or to "
                                       "check the file's")
    parser.add_argument("--file", type=Path,
                        help="the ladder file (default: runs/ladder-<game>.json)")
    add_game_options(parser)


def _ladder_file(args):
    return args.file or Path("runs") / f"ladder-{args.game or 'zebres'}.json"


def _open(args, create):
    """The ladder of ``--file`` (or the default file), checked against ``--game`` and ``-o``;
    a new one if the file does not exist and ``create``."""
    path = _ladder_file(args)
    if not path.exists():
        if not create:
            raise ValueError(f"no ladder file {clip(str(path))}: create it with savanna "
                             "ladder add AGENT")
        name = args.game or "zebres"
        return path, Ladder.new(name, parse_game_options(name, args.option))
    ladder = Ladder.load(path)
    if args.game and args.game != ladder.game_name:
        raise ValueError(f"{clip(str(path))} is a {ladder.game_name} ladder, not "
                         f"{clip(args.game)}")
    if args.option and parse_game_options(ladder.game_name, args.option) != ladder.options:
        raise ValueError(f"{clip(str(path))} has the game options {clip(ladder.options)}; "
                         "leave -o out or give the same")
    return path, ladder


def run_add(args, extra=None):
    path = _ladder_file(args)
    make_folders(path.parent)
    check_new_file(path, overwrite=True)  # a file, in a folder that takes one
    with locked(path, waiting=lambda: print(f"waiting for another savanna ladder add on "
                                            f"{path}", flush=True)):
        path, ladder = _open(args, create=True)
        ladder.add(args.agent, args.games, args.seed, args.workers,
                   progress=not args.no_progress)
        ladder.save(path)
    print(ladder.table())
    print(f"saved to {path}")


def run_show(args, extra=None):
    path, ladder = _open(args, create=False)
    plot = args.plot
    if plot is not None:
        if plot.suffix.lower() not in (".png", ".svg"):
            raise ValueError(f"--plot must name a .png or .svg file, got {clip(str(plot))}")
        check_new_file(plot, args.overwrite)
    print(ladder.table())
    if plot is not None:
        picture = ladder.drawing()
        if plot.suffix.lower() == ".svg":
            atomic_write_text(plot, picture.svg())
        else:
            atomic_write_bytes(plot, picture.png(scale=2))
        print(f"plot saved to {plot}")
