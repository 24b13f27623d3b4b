"""``savanna analyse GAME "<position>"``: every legal move of a position as a search sees it.

    savanna analyse zebres "z...../..G.../....../.l..../...... g 21 - move" --agent mcts:sims=100000
    savanna analyse bonobo "<position>" --agent az:runs/bonobo-az-0-<time>/best.pt,sims=400 --json

Prints one line per legal move (most visited first): visits, their share, the prior, the mean
return of each player through the move, then the principal variation
(``savanna.agents.play.analysis``). The position is written in the game's notation, as ``savanna
play`` prints it and ``game.to_text`` writes it; it must be a decision node (not a chance node, not
the end).
"""
import json

import numpy as np

from savanna.agents.play.registry import make_agent
from savanna.cli.arguments import add_game_options, parse_game_options, seed
from savanna.registry import make_game

__all__ = ["add_parser", "run"]


def add_parser(commands):
    """Register ``analyse`` on the ``savanna`` command's subparsers."""
    parser = commands.add_parser(
        "analyse", description=__doc__)
    parser.add_argument("game", help="the game's name, e.g. zebres")
    parser.add_argument("position", help="the position in the game's notation (quoted)")
    parser.add_argument("--agent", default="mcts:sims=10000",
                        help="the searching agent: mcts[:key=value,...], ppo-mcts:<checkpoint> "
                             "or az:<checkpoint> (default: mcts:sims=10000)")
    parser.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    add_game_options(parser)
    parser.set_defaults(run=run)
    return parser


def run(args, extra=None):
    """Analyse the position of the parsed arguments and print the result."""
    game = make_game(args.game, **parse_game_options(args.game, args.option))
    agent = make_agent(args.agent)
    state = game.from_text(args.position)
    from savanna.agents.play.analysis import analyse  # here: the help loads no numba

    result = analyse(game, state, agent, np.random.default_rng(args.seed))
    print(json.dumps(result.to_json(), indent=1) if args.json else result.table())
