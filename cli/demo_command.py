"""``savanna demo`` (``make demo``): a Zèbres game explained, two short matches, throughput.

1. One game between two random agents: every move by name, the final board, the scoring.
2. MCTS against random and against greedy: small seeded matches with a progress bar and
   their result tables (skipped with a note if MCTS is not available).
3. The throughput table of ``benchmarks`` (skipped with a note if it is not available).
4. A short PPO run on Zèbres (about a minute,
   ``savanna.cli.train_ppo.demo_training``) and its learning curve in text.
5. The shipped Zèbres AlphaZero baseline (``az:baseline``, 100 simulations) against
   ``mcts:sims=300`` for a few games, with each side's time per move (skipped with a note if
   no baseline is shipped).
"""
import textwrap

import numpy as np

from savanna.agents.arena.matches import play_match
from savanna.agents.play.random_agent import RandomAgent
from savanna.agents.play.registry import make_agent
from savanna.agents.settings import MAX_GAMES
from savanna.cli.arguments import count, positive_int, seed
from savanna.codes import CHANCE, TERMINAL
from savanna.registry import make_game
from savanna.seats import seat_act

SEAT_NAMES = ("red", "green")
BASELINE_GAMES = 10  # the baseline's games against mcts:sims=300: a look, not a measurement


def demo(games=20, sims=500, seed=0, write=print):
    game = make_game("zebres")
    write("== 1. One Zèbres game between two random agents ==\n")
    explain_random_game(game, np.random.default_rng(seed), write)

    write(f"\n== 2. MCTS ({sims} simulations per move) against the baselines, "
          f"{games} games each ==\n")
    try:
        mcts = make_agent("mcts", sims=sims)
    except ValueError as err:
        write(f"skipped: {err}")
    else:
        for opponent in (RandomAgent(), make_agent("greedy")):
            result = play_match(game, [mcts, opponent], games=games, seed=seed)
            write(result.table() + "\n")

    write("== 3. Throughput (random play, quick measurement) ==\n")
    try:
        from savanna.benchmarks.report import quick_table
    except ImportError as err:
        write(f"skipped: the benchmarks are not available ({err})")
    else:
        write(quick_table())

    write("\n== 4. A short PPO training run (about a minute) ==\n")
    from savanna.cli.train_ppo import demo_training
    demo_training(seed=seed, write=write)

    few = min(games, BASELINE_GAMES)
    write(f"\n== 5. The shipped AlphaZero baseline (100 simulations) against MCTS (300 "
          f"simulations), {few} games ==\n")
    try:
        from savanna.agents.play.az_agent import baseline_path
        baseline_path(game)
        baseline = make_agent("az:baseline", sims=100)
    except (ImportError, ValueError) as err:
        write(f"skipped: {err}")
    else:
        mcts = make_agent("mcts", sims=300)
        write(play_match(game, [baseline, mcts], games=few, seed=seed).table())


def explain_random_game(game, rng, write):
    """Play one random game, list its moves, draw the final board and explain the result."""
    agent = RandomAgent()
    states = game.init(1, rng)
    returns = np.zeros(game.num_players)
    moves = []
    while (player := int(game.current_player(states)[0])) != TERMINAL:
        if player == CHANCE:
            game.apply_chance(states, game.sample_chance(states, rng))
            continue
        action = int(seat_act(agent, game, states, rng)[0])
        moves.append(f"{SEAT_NAMES[player][0]}:{game.action_to_string(states[0], action)}")
        returns += game.step_inplace(states, np.array([action]))[0]
    write(f"{len(moves)} decisions (r = red, g = green; a placement is followed by an Impala "
          "move unless it is forced):")
    write(textwrap.fill("  ".join(moves), width=96) + "\n")
    write(game.render(states[0]) + "\n")
    write(explain_scores(game, states, returns))


def explain_scores(game, states, returns):
    """The final points, the sector breakdown when the game offers one, and the winner."""
    points = game.scores(states)[0]
    lines = []
    breakdown = getattr(game, "score_breakdown", None)
    if breakdown is not None:
        lines.append(breakdown(states[0]))
    lines.append(textwrap.fill(
        "Scoring: each sector goes to the player with more tokens in it (face up or down), who "
        "scores the values of all its face-up tokens of both colours (zebra 6, elephant 5, "
        "gazelle 2, lion 1, crocodile 0); the player who first filled a sector adds 5.",
        width=96))
    lines.append(", ".join(f"{SEAT_NAMES[p]} {points[p]} points" for p in range(len(points)))
                 + ": " + ("draw" if returns[0] == returns[1] else
                           f"{SEAT_NAMES[int(np.argmax(returns))]} wins") + ".")
    return "\n".join(lines)


# ----- the command ------------------------------------------------------------------------------
def add_parser(commands):
    """Register ``demo`` on the ``savanna`` command's subparsers."""
    demo = commands.add_parser(
        "demo",
        description="Play and explain one Zèbres game between random agents, play short "
                    "MCTS-vs-random and MCTS-vs-greedy matches, print the throughput table.")
    demo.add_argument("--games", type=count(MAX_GAMES), default=20,
                      help="games per match (default: 20)")
    demo.add_argument("--sims", type=positive_int, default=500,
                      help="MCTS simulations (default: 500)")
    demo.add_argument("--seed", type=seed, default=0, help="random seed (default: 0)")
    demo.set_defaults(run=run)
    return demo


def run(args, extra=None):
    """The demo with the parsed arguments' games, simulations and seed."""
    demo(games=args.games, sims=args.sims, seed=args.seed)
