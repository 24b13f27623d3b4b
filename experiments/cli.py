"""The ``savanna`` command (also ``python -m savanna_experiments``).

    savanna play zebres --agent mcts --sims 2000       a human against an agent
    savanna play bonobo --seats human,mcts,human,random  two humans and two agents
    savanna match zebres mcts:sims=1000 greedy --games 200
    savanna tournament zebres random greedy mcts:sims=200 --games-per-pair 40
    savanna replay runs/match-zebres-<time>/records.jsonl --game 3   a recorded game
    savanna train ppo zebres --steps 3M --seed 0       masked PPO with self-play
    savanna train az zebres --minutes 60 --seed 0      AlphaZero (Gumbel search)
    savanna analyse zebres "<position>" --agent mcts:sims=100000   every move's visits, values
    savanna ladder add mcts:sims=200 --games 200       rate an agent on a lasting ladder
    savanna sweep ppo zebres --trials 16 --backend ray  settings searched with Ray Tune
    savanna bench [--quick]                            the throughput benchmarks
    savanna demo                                       what ``make demo`` shows

Agents are written ``name[:key=value,...]`` (see ``savanna_agents.registry``); game options are
``-o key=value`` (``-o board=president``; a value with commas is a list:
``-o course=K3,T8,T6,T1``). A mistake in the arguments (an unknown game or agent, a malformed
spec, a bad number, an output folder that cannot take the results) ends with a one-line
message and exit status 2, before any game is played. Results go to a new folder under
``runs/`` (never one that exists), or to ``--out``.
"""
import argparse
import re
import sys
from pathlib import Path

import numpy as np

from savanna.errors import LIMIT, clip
from savanna.files import check_new_file, new_folder, output_folder
from savanna.metadata import git_commit, package_version
from savanna.registry import GAMES, game_class
from savanna_agents.arena import BACKENDS
from savanna_agents.base import describe
from savanna_agents.registry import AGENTS, make_agent
from savanna_agents.settings import MAX_GAMES, MAX_WORKERS
from savanna_experiments import analyse, distill, ladder, replay, sweep, train, train_az
from savanna_experiments.arguments import (
    ADDRESS_HELP,
    add_game_options,
    count,
    game_options,
    index,
    make_game,
    option_names,
    positive_int,
    seed,
)

DEFAULT_TOURNAMENT = ["random", "greedy", "mcts:sims=200"]


def main(argv=None):
    """Run one command; returns the exit status (0, or 2 after a one-line error)."""
    parser = build_parser()
    prog = "savanna"
    try:
        args, extra = parser.parse_known_args(argv)
        prog = getattr(args, "prog", f"savanna {args.command or ''}".strip())  # train's set it
        if args.version and (args.command or extra):
            raise UsageError("savanna", "--version takes no command or other arguments")
        if extra and args.command != "bench":
            raise UsageError(prog, f"unrecognized arguments: {' '.join(extra)}")
        return args.run(args, extra) or 0
    except UsageError as err:
        print(f"{err.prog}: error: {one_line(err)}", file=sys.stderr)
        return 2
    except ValueError as err:
        print(f"{prog}: error: {one_line(err)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


class UsageError(ValueError):
    """A command line argparse rejected (a bad number, a missing argument), with the
    (sub)command it belongs to."""

    def __init__(self, prog, message):
        super().__init__(message)
        self.prog = prog


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions laid out as written (they are docstrings), without reST's double
    backticks and literal-block colons."""

    def _format_text(self, text):
        return super()._format_text(text.replace("``", "").replace("::\n", ":\n"))

    def _expand_help(self, action):
        return super()._expand_help(action).replace("``", "")


class Parser(argparse.ArgumentParser):
    """``argparse`` with ``HelpFormatter`` and errors as one line (a ``UsageError``) instead
    of the usage text and an exit; the subcommands' parsers are of this class too. A parser
    made with ``setup`` adds those arguments when it is first used: the trainers' flags come
    from settings classes whose modules import torch, which the other commands do without."""

    def __init__(self, *args, formatter_class=HelpFormatter, setup=None, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)
        self._setup = setup

    def parse_known_args(self, args=None, namespace=None):
        if self._setup is not None:
            setup, self._setup = self._setup, None
            setup(self)
        return super().parse_known_args(args, namespace)

    def error(self, message):
        raise UsageError(self.prog, f"{message} (see {self.prog} --help)")


_LONG_QUOTE = re.compile("|".join(rf"{q}(?:[^{q}\\]|\\.){{{LIMIT - 1},}}{q}" for q in "'\""))


def one_line(message):
    """``message`` on one line, every quoted text in it cut as ``clip`` cuts: messages from
    other modules may quote a whole input (a 1 MB ``-o`` value)."""
    text = str(message).replace("\n", " ")
    return _LONG_QUOTE.sub(lambda m: m[0][: LIMIT - 3] + "...", text)


def build_parser():
    parser = Parser(prog="savanna", description=__doc__)
    parser.add_argument("--version", action="store_true",
                        help="print the version (and the git commit) and exit")
    parser.set_defaults(run=run_version)
    # Not required=True: ``--version`` stands alone; ``run_version`` names a missing command.
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    games = ", ".join(GAMES)
    agents = ", ".join(AGENTS)

    play = commands.add_parser(
        "play", help="play a game against agents (or other humans) in the terminal",
        description="Play against an agent, or seat humans and agents with --seats: the board "
                    "is drawn after every move; type moves by name (Zèbres: 'start 14', "
                    "'Z c4', 'swap d4', 'stop', 'impala +2'), 'moves' for the legal ones, "
                    "'hint' for an MCTS analysis of the position, 'help', 'quit'. Several "
                    "humans take turns at the keyboard. Start from any position with "
                    "--position or --load, and save the game with --records.")
    play.add_argument("game", help=f"one of: {games}")
    play.add_argument("--agent", help=f"the opponent in every other seat, name[:key=value,...] "
                                      f"with name one of {agents} (default: mcts)")
    play.add_argument("--sims", type=positive_int,
                      help="simulations per move (sets the agent's sims)")
    play.add_argument("--seat", type=index, help="your seat, 0-based (default: 0)")
    play.add_argument("--seats", metavar="SPEC,SPEC,...",
                      help="every seat in order, 'human' or an agent spec, e.g. "
                           "human,mcts:sims=500,human,random (instead of --agent/--seat/--sims; "
                           "sets num_players when not given)")
    play.add_argument("--players", type=positive_int, metavar="N",
                      help="number of players (the game option num_players)")
    play.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    start = play.add_mutually_exclusive_group()
    start.add_argument("--position", metavar="TEXT",
                       help="start from this position, in the game's notation (as shown above "
                            "each board and by savanna replay)")
    start.add_argument("--load", type=Path, metavar="FILE",
                       help="start from a recorded game (a records file, e.g. a match's "
                            "records.jsonl), at --ply of its --game; the game and its options "
                            "are the record's")
    play.add_argument("--game", type=index, default=0, metavar="N", dest="record_game",
                      help="with --load: which game of the file, 0 for the first (default: 0)")
    play.add_argument("--ply", type=index, default=0, metavar="K",
                      help="with --load: the position where decision K is taken (default: 0)")
    play.add_argument("--records", type=Path, metavar="FILE",
                      help="save the game as a record in FILE (JSON Lines, see savanna "
                           "replay), also when left unfinished")
    play.add_argument("--overwrite", action="store_true",
                      help="let --records replace an existing file")
    add_game_options(play)
    play.set_defaults(run=run_play)

    match = commands.add_parser(
        "match", help="a match between agents, seats rotated",
        description="Play a match (one agent per seat, seats rotated), print wins/draws/losses "
                    "with 95% intervals and the Elo difference, save JSON and CSV, and every "
                    "game as a record (records.jsonl, see savanna replay). With a game "
                    "that takes num_players, the number of agents sets it.")
    match.add_argument("game", help=f"one of: {games}")
    match.add_argument("agents", nargs="+", metavar="AGENT",
                       help=f"one per seat, name[:key=value,...] with name one of {agents}")
    match.add_argument("--games", type=count(MAX_GAMES), default=200,
                       help="games to play (default: 200)")
    _add_arena_options(match, "match")
    match.set_defaults(run=run_match)

    tour = commands.add_parser(
        "tournament", help="a round robin between agents with an Elo table",
        description="Every pair of agents (every group of P for a P-player game) plays a "
                    "match; Elo ratings are fitted to all results.")
    tour.add_argument("game", nargs="?", default="zebres",
                      help=f"one of: {games} (default: zebres)")
    tour.add_argument("agents", nargs="*", metavar="AGENT", default=DEFAULT_TOURNAMENT,
                      help=f"name[:key=value,...] (default: {' '.join(DEFAULT_TOURNAMENT)})")
    tour.add_argument("--games-per-pair", type=count(MAX_GAMES), default=40,
                      help="games of each match (default: 40)")
    _add_arena_options(tour, "tournament")
    tour.set_defaults(run=run_tournament)

    trainer = commands.add_parser(
        "train", help="train an agent: masked PPO (ppo) or AlphaZero (az)",
        description="Train an agent in a new run folder under runs/:\n\n"
                    "    savanna train ppo GAME    masked PPO with self-play\n"
                    "    savanna train az GAME     AlphaZero with Gumbel search\n\n"
                    "Every setting is a flag (see savanna train ppo --help); --config FILE "
                    "starts\nfrom a JSON file of settings, e.g. the config.json of an earlier run.")
    trainers = trainer.add_subparsers(dest="algorithm", required=True, metavar="ALGORITHM")
    train.add_parser(trainers, "ppo")
    train_az.add_parser(trainers, "az")

    analyse.add_parser(commands)
    distill.add_parsers(commands)
    ladder.add_parser(commands)
    sweep.add_parser(commands)

    bench = commands.add_parser(
        "bench", add_help=False, help="throughput benchmarks, as make bench "
                                      "('savanna bench --help' for its options)")
    bench.set_defaults(run=run_bench)

    warm = commands.add_parser(
        "warmup", help="compile (and cache) every game's kernels and the MCTS search",
        description="Compile every game's kernels, batch loops and MCTS search into numba's "
                    "cache, so that later processes start at once.")
    warm.set_defaults(run=run_warmup)

    demo = commands.add_parser(
        "demo", help="a short tour: a game explained, small matches, throughput",
        description="Play and explain one Zèbres game between random agents, play short "
                    "MCTS-vs-random and MCTS-vs-greedy matches, print the throughput table.")
    demo.add_argument("--games", type=count(MAX_GAMES), default=20,
                      help="games per match (default: 20)")
    demo.add_argument("--sims", type=positive_int, default=500,
                      help="MCTS simulations (default: 500)")
    demo.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    demo.set_defaults(run=run_demo)
    replay.add_parser(commands)
    return parser


def _add_arena_options(parser, kind):
    add_game_options(parser)
    parser.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    parser.add_argument("--workers", type=count(MAX_WORKERS),
                        help="processes (default: every core)")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="local: a pool of --workers processes; ray: every batch of games "
                             "a Ray task on a cluster (pip install 'savanna[ray]'), the same "
                             "results (default: local)")
    parser.add_argument("--address", metavar="ADDR",
                        help=ADDRESS_HELP)
    parser.add_argument("--out", type=Path,
                        help=f"folder for the JSON and CSV results, new or empty (default: a "
                             f"new runs/{kind}-<game>-<time>)")
    parser.add_argument("--overwrite", action="store_true",
                        help="let --out be a folder that already holds results (they are "
                             "replaced)")
    parser.add_argument("--no-records", action="store_true",
                        help="do not save the game records (by default every game is saved in "
                             "records.jsonl beside the results; see savanna replay)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


# ----- commands ---------------------------------------------------------------------------------
def run_play(args, extra):
    from savanna.records import make_record, write_records
    from savanna_agents.mcts import MCTSAgent
    from savanna_experiments.play import play_seats

    seats = _play_seats(args)
    if args.records is not None:
        check_new_file(args.records, args.overwrite)
    elif args.overwrite:
        raise ValueError("--overwrite needs --records")
    if args.load is None and (args.record_game or args.ply):
        raise ValueError("--game and --ply choose a position of a recorded game: give --load")
    if args.load is not None:
        game, start = _recorded_start(args)
    else:
        options = game_options(args.game, args.option)
        if args.players is not None:
            _set_players(args.game, options, args.players, "--players", required=True)
        elif args.seats:
            _set_players(args.game, options, len(seats), "the number of --seats")
        game = make_game(args.game, options)
        start = None if args.position is None else game.from_text(args.position)
    if args.seats is None:
        seat = 0 if args.seat is None else args.seat
        if not 0 <= seat < game.num_players:
            raise ValueError(f"seat must be in 0..{game.num_players - 1} for {game.name}, "
                             f"got {seat}")
        seats = [None if p == seat else seats[1] for p in range(game.num_players)]
    elif len(seats) != game.num_players:
        raise ValueError(f"--seats gives {len(seats)} seats but {game.name} has "
                         f"{game.num_players} players")
    rng = np.random.default_rng(args.seed)
    hint = next((a for a in seats if isinstance(a, MCTSAgent)), None) or MCTSAgent()
    start = game.init(1, rng) if start is None else start
    log: list = []
    try:
        play_seats(game, seats, rng, start=start, log=log, hint=hint)
    finally:  # what was played is recorded, also after Ctrl-C
        if args.records is not None:
            labels = ["human" if a is None else describe(a) for a in seats]
            info = {"command": "play"}
            if args.load is not None:
                info["from"] = f"{args.load} game {args.record_game} ply {args.ply}"
            record = make_record(game, start, log, labels, args.seed, info)
            write_records(args.records, [record], overwrite=args.overwrite)
            print(f"saved the game to {args.records}")


def _recorded_start(args):
    """The game and start of ``play --load FILE --game N --ply K``."""
    from savanna.records import read_record

    if args.option or args.players is not None:
        raise ValueError("--load plays the recorded game with its own options: give no -o "
                         "or --players")
    record = read_record(args.load, args.record_game)
    if record.game_name != args.game:
        raise ValueError(f"{record.where} is a game of {clip(record.game_name)}, not "
                         f"{clip(args.game)}")
    game = record.game()
    return game, record.position(args.ply, game)


def _play_seats(args):
    """``--seats`` as a list (None for a human, else an agent); without it ``[None, agent]``
    (the one human and the --agent everywhere else). A comma-separated piece that starts
    with ``key=`` continues the previous agent's spec: ``human,mcts:sims=500,c=1.4,random``
    is three seats."""
    if args.seats is None:
        overrides = {} if args.sims is None else {"sims": args.sims}
        return [None, make_agent(args.agent or "mcts", **overrides)]
    if args.agent is not None or args.seat is not None or args.sims is not None:
        raise ValueError("--seats names every seat: give agent settings in its specs, "
                         "not with --agent, --seat or --sims")
    specs = []
    for piece in args.seats.split(","):
        if specs and specs[-1] != "human" and "=" in piece.split(":")[0]:
            specs[-1] += "," + piece
        else:
            specs.append(piece.strip())
    seats = []
    for p, spec in enumerate(specs):
        try:
            seats.append(None if spec == "human" else make_agent(spec))
        except ValueError as err:
            raise ValueError(f"--seats entry {p} ({clip(spec)}): {err}") from None
    return seats


def run_match(args, extra):
    from savanna_agents.arena import play_match

    _run_arena("match", args, lambda game, agents: play_match(
        game, agents, args.games, args.seed, args.workers, progress=not args.no_progress,
        record=not args.no_records, backend=args.backend, address=args.address))


def run_tournament(args, extra):
    from savanna_agents.arena import tournament

    _run_arena("tournament", args, lambda game, agents: tournament(
        game, agents, args.games_per_pair, args.seed, args.workers,
        progress=not args.no_progress, record=not args.no_records, backend=args.backend,
        address=args.address))


def _run_arena(kind, args, play):
    """Make the game and the agents, make sure the results can be saved, play, print the table
    and save the results. A match infers num_players from its agents."""
    options = game_options(args.game, args.option)
    if kind == "match":
        _set_players(args.game, options, len(args.agents), "the number of agents")
    game = make_game(args.game, options)
    agents = [make_agent(spec) for spec in args.agents]
    _check_backend(args)
    if args.out is not None:
        out = output_folder(args.out, args.overwrite)
    elif args.overwrite:
        raise ValueError("--overwrite needs --out (the default folder is always new)")
    else:
        out = new_folder("runs", f"{kind}-{game.name}")
    try:
        result = play(game, agents)
    except BaseException:
        if args.out is None:
            out.rmdir()  # the new folder is still empty
        raise
    print(result.table())
    print(f"saved to {result.save(out, overwrite=args.overwrite)}")


def run_version(args, extra):
    """``savanna --version`` (and nothing else): the package version and, in a git checkout,
    the commit (asked of git only then)."""
    if not args.version:
        raise UsageError("savanna", "the following arguments are required: COMMAND (see "
                                    "savanna --help)")
    commit = git_commit()
    print(f"savanna {package_version()}" + (f" (git {commit})" if commit else ""))


def run_bench(args, extra):
    try:
        from savanna_benchmarks.report import main as bench_main
    except ImportError as err:
        raise ValueError(f"the benchmarks are not available ({err})") from None
    return bench_main(extra, prog="savanna bench", parser_class=Parser)


def run_warmup(args, extra):
    from savanna.vector_env import warmup
    from savanna_agents.mcts import MCTSAgent

    for name in sorted(GAMES):  # one compiled copy serves every option and player count
        game = game_class(name)()
        MCTSAgent(sims=8).search(game, game.warmup(verbose=True), np.random.default_rng(0))
        warmup(game)


def run_demo(args, extra):
    from savanna_experiments.demo import demo

    demo(games=args.games, sims=args.sims, seed=args.seed)


# ----- helpers ----------------------------------------------------------------------------------
def _check_backend(args):
    """``--backend``/``--address`` make sense together, and Ray is installed if asked for."""
    if args.address is not None and args.backend != "ray":
        raise ValueError("--address is the Ray cluster's: give it with --backend ray")
    if args.backend == "ray":
        from savanna_agents.distributed import require_ray

        require_ray()


def _set_players(name, options, n, source, required=False):
    """Set the option num_players to ``n`` (the number of seats ``source`` gives) if game
    ``name`` has it, or, when ``required``, let ``game_options`` name the mistake; a
    ValueError if ``-o num_players`` says otherwise."""
    if "num_players" not in option_names(name):
        if required:
            game_options(name, [f"num_players={n}"])
        return
    given = options.setdefault("num_players", n)
    if given != n:
        raise ValueError(f"{source} ({n}) and -o num_players={clip(given)} disagree; give "
                         "one of them")


if __name__ == "__main__":
    sys.exit(main())
