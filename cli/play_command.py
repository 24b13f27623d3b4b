"""``savanna play GAME``: humans and agents at one terminal, moves typed by name, the board
drawn after each.

    savanna play zebres --agent mcts --sims 2000        a human against an agent
    savanna play bonobo --seats human,mcts,human,random  two humans and two agents

At the prompt: a move by its name (``Z c4``, ``swap d4``, ...), ``moves``, ``hint`` (an MCTS
analysis), ``help`` or ``quit``. Several humans take turns at the keyboard; in a game with
hidden information each sees only their own seat's view. ``savanna play --help`` says the rest.
"""
from pathlib import Path

import numpy as np

from savanna.agents.play.base import describe
from savanna.agents.play.registry import AGENTS, make_agent
from savanna.cli.arguments import (
    add_game_options,
    index,
    parse_game_options,
    positive_int,
    seed,
    set_players,
)
from savanna.codes import CHANCE, TERMINAL
from savanna.errors import clip
from savanna.files import check_new_file
from savanna.registry import GAMES, make_game
from savanna.seats import outcome_seen_by, seat_act

QUIT = ("quit", "exit", "q")
HELP = ("Type a move by its name ({examples}), 'moves' for the legal moves, 'hint' for an "
        "analysis of the position, 'help' for this text, 'quit' to stop.")
HINT_MOVES = 5  # the most visited moves a hint lists


def play_seats(game, seats, rng, read=None, write=print, start=None, log=None, hint=None):
    """Play one game with ``seats[p]`` an agent, or None for a human at this terminal.

    ``start``: the state to play from (a batch of one; default ``game.init``). ``log``: a
    list that receives every event as ``(who, value)``, a seat and its action or CHANCE and
    the outcome (``savanna.records.make_record`` turns it into a record). ``hint``: the
    ``MCTSAgent`` whose analysis ``hint`` prints (default: none offered).
    Returns the final per-player returns, or None if a human quit.
    """
    read = read or input
    if len(seats) != game.num_players:
        raise ValueError(f"{game.name} has {game.num_players} players, got {len(seats)} seats")
    humans = [p for p, agent in enumerate(seats) if agent is None]
    labels = [describe(agent) if agent is not None else "you" if len(humans) == 1 else "human"
              for agent in seats]
    write(intro_line(game, seats, humans, labels))
    view = View(game, humans, write)
    states = game.init(1, rng) if start is None else game.check_states(start).copy()
    log = [] if log is None else log
    advise = None if hint is None else (lambda row: hint_text(game, hint, row, rng))
    returns = np.zeros(game.num_players)
    secrets = []  # the private outcomes kept from this terminal, shown at the end
    changed = True  # since the last picture
    while True:
        player = int(game.current_player(states)[0])
        if player == CHANCE:
            shown = outcome_seen_by(game, states, view.seer)
            owner = None if shown else game.chance_private_to(states)
            outcome = int(game.sample_chance(states, rng)[0])
            game.apply_chance(states, [outcome])
            log.append((CHANCE, outcome))
            if shown:
                write(f"chance: {game.outcome_to_string(outcome)}")
            else:
                write(f"chance: dealt to seat {owner}")
                secrets.append(f"seat {owner} was dealt {game.outcome_to_string(outcome)}")
            changed = True
            continue
        if changed:  # after a move, or after the dice or draws that followed it
            view.draw(states[0], player)
            changed = False
        if player == TERMINAL:
            break
        if seats[player] is None:
            view.redraw_for(states[0], player)
            who = "your move" if len(humans) == 1 else f"seat {player}, your move"
            action = ask_move(game, states[0], read, write, who, advise)
            if action is None:
                write("You left the game." if len(humans) == 1 else f"Seat {player} left the game.")
                return None
        else:
            action = int(seat_act(seats[player], game, states, rng)[0])
        name = game.action_to_string(states[0], action)
        returns += game.step_inplace(states, np.array([action]))[0]
        log.append((player, action))
        write(f"{labels[player]} (seat {player}): {name}")
        changed = True
    if secrets:
        write("Revealed: " + "; ".join(secrets) + ".")
        write(game.render(states))
    write(outcome_line(game, states, returns, humans))
    return returns


def intro_line(game, seats, humans, labels):
    if len(humans) == 1 and len(set(map(id, seats))) == 2:
        opponent = labels[1 if humans[0] == 0 else 0]
        return (f"You play seat {humans[0]} of {game.name} against {opponent}. "
                "Type 'help' for help.")
    listing = ", ".join(f"{p} {label}" for p, label in enumerate(labels))
    return f"{game.name}, seats: {listing}. Type 'help' for help."


class View:
    """Draws the pictures: the whole state with perfect information, else one human's view
    (the only human's, or that of the human about to move; kept while agents play), or with
    no human a spectator's. ``seer``: the seat whose private chance outcomes this terminal
    prints (the only human's; None, nobody's, when several share it or none plays)."""

    def __init__(self, game, humans, write):
        self.game, self.write = game, write
        self.hidden = not game.perfect_information
        self.viewer = humans[0] if humans else None
        self.seer = humans[0] if len(humans) == 1 else None
        self.humans, self.shown = humans, None

    def draw(self, row, to_move):
        if to_move in self.humans:
            self.viewer = to_move
        if not self.hidden:
            self.write(self.game.render(row))
            return
        if self.viewer is None:
            self.write("(a spectator's view; every seat's secrets are hidden)")
            self.write(self.game.render(row, public=True))
            return
        whose = "your view" if len(self.humans) == 1 else f"view of seat {self.viewer}"
        self.write(f"({whose}; the other seats' secrets are hidden)")
        self.write(self.game.render(row, player=self.viewer))
        self.shown = self.viewer

    def redraw_for(self, row, player):
        """Before ``player`` types a move: their own view if the last picture was another's."""
        if self.hidden and self.shown != player:
            self.viewer = player
            self.draw(row, player)


def ask_move(game, row, read, write, who="your move", hint=None):
    """The legal action the human types, asking again after a wrong entry; None to quit.
    ``hint(row) -> str`` answers 'hint'."""
    legal = game.legal_actions(row)
    names = [game.action_to_string(row, a) for a in legal]
    while True:
        try:
            text = read(f"{who} ({len(legal)} legal; 'moves', 'help', 'quit')> ").strip()
        except EOFError:
            return None
        if not text:
            continue
        if text.lower() in QUIT:
            return None
        if text.lower() == "moves":
            write("legal moves: " + ", ".join(names))
            continue
        if text.lower() == "hint":
            write(hint(row) if hint else "no hint in this game")
            continue
        if text.lower() == "help":
            write(HELP.format(examples=", ".join(repr(n) for n in names[:3])))
            continue
        try:
            action = game.string_to_action(row, text)
        except Exception as err:  # any bad entry is explained, never a crash
            write(f"error: {err}")
            continue
        if action not in legal:
            write(f"error: {clip(text)} is not legal here; legal: {', '.join(names)}")
            continue
        return action


def hint_text(game, agent, row, rng):
    """``agent.analyse`` (an ``MCTSAgent``) of ``row`` in a few lines: the mean value for
    the player to move, then the most visited moves with their visits and values."""
    player = int(game.current_player(np.array([row]))[0])
    visits, _, action_values = agent.analyse(game, row, rng)
    tried = np.flatnonzero(visits)
    value = visits[tried] @ action_values[tried, player] / visits.sum()
    order = tried[np.argsort(-visits[tried], kind="stable")][:HINT_MOVES]
    names = [game.action_to_string(row, int(a)) for a in order]
    width = max(map(len, names))
    return "\n".join([f"hint ({describe(agent)}, {visits.sum()} simulations; mean value for "
                      f"seat {player}: {value:+.2f})"] + [
        f"  {name:<{width}}  {visits[a]:>7} visits  {action_values[a, player]:+.2f}"
        for name, a in zip(names, order)])


def outcome_line(game, states, returns, humans):
    """With one human 'You win' / 'You lose' / 'Draw', else who won; with the game's points
    when it has them."""
    best = returns.max()
    winners = np.flatnonzero(returns == best).tolist()
    if len(humans) == 1 and returns[humans[0]] < best:
        verdict = "You lose"
    elif len(winners) > 1 and (len(humans) == 1 or len(winners) == len(returns)):
        verdict = "Draw"
    elif len(humans) == 1:
        verdict = "You win"
    elif len(winners) == 1:
        verdict = f"Seat {winners[0]} wins"
    else:
        verdict = "Seats " + ", ".join(map(str, winners)) + " share the win"
    try:
        points = game.scores(states)[0]
        verdict += " (points: " + ", ".join(f"seat {p} {x:g}" for p, x in enumerate(points)) + ")"
    except NotImplementedError:
        pass
    return verdict + "."


# ----- the command ------------------------------------------------------------------------------
def add_parser(commands):
    """Register ``play`` on the ``savanna`` command's subparsers."""
    games = ", ".join(GAMES)
    agents = ", ".join(AGENTS)
    play = commands.add_parser(
        "play",
        description="Play against an agent, or seat humans and agents with --seats: the board "
                    "is drawn after every move; type moves by name (Zèbres: 'start 14', "
                    "'Z c4', 'swap d4', 'stop', 'impala +2'), 'moves' for the legal ones, "
                    "'hint' for an MCTS analysis of the position, 'help', 'quit'. Several "
                    "humans take turns at the keyboard. Start from any position with "
                    "--position or --load, and save the game with --records.")
    play.add_argument("game", help=f"one of: {games}")
    play.add_argument("--agent", help=f"the opponent in every other seat, name[:key=value,...] "
                                      f"with name one of {agents}, or a class by its import "
                                      "path, ./my_agent.py:MyAgent (default: mcts)")
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
    play.set_defaults(run=run)
    return play


def run(args, extra=None):
    """Play the game of the parsed arguments at the terminal, recorded if asked."""
    from savanna.agents.play.mcts import MCTSAgent
    from savanna.records import make_record, write_records

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
        options = parse_game_options(args.game, args.option)
        if args.players is not None:
            set_players(args.game, options, args.players, "--players", required=True)
        elif args.seats:
            set_players(args.game, options, len(seats), "the number of --seats")
        game = make_game(args.game, **options)
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
