"""``savanna match`` and ``savanna tournament``: agents against each other in the arena
(``savanna.agents.arena.matches``), the results saved in a new folder.

    savanna match zebres mcts:sims=1000 greedy --games 200
    savanna tournament zebres random greedy mcts:sims=200 --games-per-pair 40

A match plays one agent per seat, seats rotated; a tournament plays a match between every pair
of agents (every group of P for a P-player game) and fits Elo ratings to all results. Both make
sure the results can be saved before any game is played.
"""
from pathlib import Path

from savanna.agents.arena.matches import BACKENDS
from savanna.agents.play.registry import AGENTS, make_agent
from savanna.agents.settings import MAX_GAMES, MAX_WORKERS
from savanna.cli.arguments import (
    add_game_options,
    address_help,
    count,
    parse_game_options,
    seed,
    set_players,
)
from savanna.files import new_folder, output_folder
from savanna.registry import GAMES, make_game

__all__ = ["DEFAULT_TOURNAMENT", "add_parsers", "run_match", "run_tournament"]

DEFAULT_TOURNAMENT = ["random", "greedy", "mcts:sims=200"]


def add_parsers(commands):
    """Register ``match`` and ``tournament`` on the ``savanna`` command's subparsers."""
    games = ", ".join(GAMES)
    agents = ", ".join(AGENTS)
    match = commands.add_parser(
        "match",
        description="Play a match (one agent per seat, seats rotated), print wins/draws/losses "
                    "with 95% intervals and the Elo difference, save JSON and CSV, and every "
                    "game as a record (records.jsonl, see savanna replay). With a game "
                    "that takes num_players, the number of agents sets it.")
    match.add_argument("game", help=f"one of: {games}")
    match.add_argument("agents", nargs="+", metavar="AGENT",
                       help=f"one per seat, name[:key=value,...] with name one of {agents}, "
                            "or a class by its import path (mypkg.agents:MyAgent:key=value, "
                            "./my_agent.py:MyAgent)")
    match.add_argument("--games", type=count(MAX_GAMES), default=200,
                       help="games to play (default: 200)")
    _add_arena_options(match, "match")
    match.set_defaults(run=run_match)

    tour = commands.add_parser(
        "tournament",
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


def _add_arena_options(parser, kind):
    add_game_options(parser)
    parser.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    parser.add_argument("--workers", type=count(MAX_WORKERS),
                        help="processes (default: every core)")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="local: a pool of --workers processes; ray: every batch of games "
                             "a Ray task on a cluster (pip install 'savanna-games[ray]'), the same "
                             "results (default: local)")
    parser.add_argument("--address", metavar="ADDR",
                        help=address_help("--backend ray"))
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


def run_match(args, extra):
    from savanna.agents.arena.matches import play_match

    _run_arena("match", args, lambda game, agents: play_match(
        game, agents, args.games, args.seed, args.workers, progress=not args.no_progress,
        record=not args.no_records, backend=args.backend, address=args.address))


def run_tournament(args, extra):
    from savanna.agents.arena.matches import tournament

    _run_arena("tournament", args, lambda game, agents: tournament(
        game, agents, args.games_per_pair, args.seed, args.workers,
        progress=not args.no_progress, record=not args.no_records, backend=args.backend,
        address=args.address))


def _run_arena(kind, args, play):
    """Make the game and the agents, make sure the results can be saved, play, print the table
    and save the results. A match infers num_players from its agents."""
    options = parse_game_options(args.game, args.option)
    if kind == "match":
        set_players(args.game, options, len(args.agents), "the number of agents")
    game = make_game(args.game, **options)
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


def _check_backend(args):
    """``--backend``/``--address`` make sense together, and Ray is installed if asked for."""
    if args.address is not None and args.backend != "ray":
        raise ValueError("--address is the Ray cluster's: give it with --backend ray")
    if args.backend == "ray":
        from savanna.agents.distributed import require_ray

        require_ray()
