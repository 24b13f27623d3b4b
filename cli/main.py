"""The ``savanna`` command (also ``python -m savanna.cli``).

    savanna play zebres --agent mcts --sims 2000       a human against an agent
    savanna play bonobo --seats human,mcts,human,random  two humans and two agents
    savanna match zebres mcts:sims=1000 greedy --games 200
    savanna tournament zebres random greedy mcts:sims=200 --games-per-pair 40
    savanna replay runs/match-zebres-<time>/records.jsonl --game 3   a recorded game
    savanna train ppo zebres --steps 3M --seed 0       masked PPO with self-play
    savanna train az zebres --minutes 60 --seed 0      AlphaZero (Gumbel search)
    savanna analyse zebres "<position>" --agent mcts:sims=100000   every move's visits, values
    savanna review runs/match-zebres-<time>/records.jsonl --game 3   a game's mistakes, as CSV
    savanna ladder add mcts:sims=200 --games 200       rate an agent on a lasting ladder
    savanna study zebres --budget quick --out study    balance, skill depth, luck, shape
    savanna sweep ppo zebres --trials 16 --backend ray  settings searched with Ray Tune
    savanna serve runs --open                          play, replay and analyse in a browser
    savanna bench [--quick]                            the throughput benchmarks
    savanna check my_game                              the conformance suite on a game
    savanna demo                                       what ``make demo`` shows

Agents are written ``name[:key=value,...]`` (see ``savanna.agents.play.registry``); game options are
``-o key=value`` (``-o board=president``; a value with commas is a list:
``-o course=K3,T8,T6,T1``). A mistake in the arguments (an unknown game or agent, a malformed
spec, a bad number, an output folder that cannot take the results) ends with a one-line
message and exit status 2, before any game is played. Results go to a new folder under
``runs/`` (never one that exists), or to ``--out``.
"""
import importlib
import re
import sys

from savanna.cli.arguments import Parser, UsageError
from savanna.errors import LIMIT
from savanna.metadata import git_commit, package_version

# Each command: the module of savanna.cli that builds its parser and runs it, and its line in
# ``savanna --help``, in the order listed there. ``savanna --help`` imports none of the modules
# and ``savanna COMMAND`` only COMMAND's, so that a help loads neither numba nor torch.
COMMANDS = {
    "play": ("play_command", "play a game against agents (or other humans) in the terminal"),
    "match": ("arena_command", "a match between agents, seats rotated"),
    "tournament": ("arena_command", "a round robin between agents with an Elo table"),
    "train": (None, "train an agent: masked PPO (ppo), AlphaZero (az) or TD(lambda) (td)"),
    "analyse": ("analyse_command",
                "every legal move of a position with a search's visits and values"),
    "distill": ("distill_command", "a UCT teacher's self-play as a dataset of search targets"),
    "fit": ("distill_command",
            "fit a network to a distillation dataset, with a held-out gate report"),
    "ladder": ("ladder_command", "a lasting rating ladder: add an agent, show the ratings"),
    "study": ("study_command", "balance, skill depth, luck and shape of a game"),
    "sweep": ("sweep_command", "search PPO or AlphaZero settings with Ray Tune (ASHA)"),
    "bench": ("bench_command",
              "throughput benchmarks, as make bench ('savanna bench --help' for its options)"),
    "check": ("check_command", "run the conformance suite on a game (yours too)"),
    "warmup": ("warmup_command", "compile (and cache) every game's kernels and the MCTS search"),
    "demo": ("demo_command", "a short tour: a game explained, small matches, throughput"),
    "replay": ("replay_command", "step through a recorded game, or export it as a GIF or SVG"),
    "review": ("review_command",
               "a search's value of every decision of a recorded game, mistakes labelled"),
    "serve": ("serve_command", "a board in the browser: play, replay and analyse every game"),
}


def main(argv=None):
    """Run one command; returns the exit status (0, or 2 after a one-line error)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(next((word for word in argv if not word.startswith("-")), ""))
    prog = "savanna"
    try:
        args, extra = parser.parse_known_args(argv)
        prog = getattr(args, "prog", f"savanna {args.command or ''}".strip())  # train's set it
        if args.version and (args.command or extra):
            raise UsageError("savanna", "--version takes no command or other arguments")
        if extra and args.command not in ("bench", "check"):
            raise UsageError(prog, f"unrecognized arguments: {' '.join(extra)}")
        return args.run(args, extra) or 0
    except UsageError as err:
        print(f"{err.prog}: error: {one_line(err)}", file=sys.stderr)
        return 2
    except ValueError as err:
        print(f"{prog}: error: {one_line(err)}", file=sys.stderr)
        return 2
    except PermissionError as err:  # a file made read-only or immutable while it ran
        print(f"{prog}: error: cannot write {one_line(err.filename2 or err.filename)}: "
              f"{err.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


_LONG_QUOTE = re.compile("|".join(rf"{q}(?:[^{q}\\]|\\.){{{LIMIT - 1},}}{q}" for q in "'\""))


def one_line(message):
    """``message`` on one line, every quoted text in it cut as ``clip`` cuts: messages from
    other modules may quote a whole input (a 1 MB ``-o`` value)."""
    text = str(message).replace("\n", " ")
    return _LONG_QUOTE.sub(lambda m: m[0][: LIMIT - 3] + "...", text)


def build_parser(command=None):
    """The ``savanna`` parser with every command's parser, each built by its own module of
    ``savanna.cli``; with ``command`` (the command a command line names, "" for none) that
    one's only, the others listed by name and help without importing their modules."""
    parser = Parser(prog="savanna", description=__doc__)
    parser.add_argument("--version", action="store_true",
                        help="print the version (and the git commit) and exit")
    parser.set_defaults(run=run_version)
    # Not required=True: ``--version`` stands alone; ``run_version`` names a missing command.
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    built = set()
    for name, (module, line) in COMMANDS.items():
        if (command is None or name == command) and module not in built:
            built.add(module)
            if module is None:
                add_train_parsers(commands, line)
            else:
                maker = importlib.import_module(f"savanna.cli.{module}")
                (getattr(maker, "add_parsers", None) or maker.add_parser)(commands)
    for name, (_, line) in COMMANDS.items():
        if name not in commands.choices:  # listed, not built
            commands.add_parser(name, help=line)
    return parser


def add_train_parsers(commands, line):
    """``savanna train ppo|az|td``: one module per algorithm."""
    from savanna.cli import train_az, train_ppo, train_td

    trainer = commands.add_parser(
        "train", help=line,
        description="Train an agent in a new run folder under runs/:\n\n"
                    "    savanna train ppo GAME    masked PPO with self-play\n"
                    "    savanna train az GAME     AlphaZero with Gumbel search\n"
                    "    savanna train td GAME     TD(lambda) self-play of a value network\n\n"
                    "Every setting is a flag (see savanna train ppo --help); --config FILE "
                    "starts\nfrom a JSON file of settings, e.g. the config.json of an earlier run.")
    trainers = trainer.add_subparsers(dest="algorithm", required=True, metavar="ALGORITHM")
    train_ppo.add_parser(trainers, "ppo")
    train_az.add_parser(trainers, "az")
    train_td.add_parser(trainers, "td")


def run_version(args, extra):
    """``savanna --version`` (and nothing else): the package version and, in a git checkout,
    the commit (asked of git only then)."""
    if not args.version:
        raise UsageError("savanna", "the following arguments are required: COMMAND (see "
                                    "savanna --help)")
    commit = git_commit()
    print(f"savanna {package_version()}" + (f" (git {commit})" if commit else ""))


if __name__ == "__main__":
    sys.exit(main())
