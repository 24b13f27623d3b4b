"""Humans and agents at one terminal: moves typed by name, the board drawn after each.

At the prompt, type a move by its name (Zèbres: ``start 14``, ``Z c4``, ``swap d4``, ``stop``,
``impala +2``), or ``moves`` (the legal moves), ``hint`` (an MCTS analysis of the position:
the most visited moves and their mean value for the player to move), ``help``, ``quit``. A
wrong entry is explained and asked again; end of input quits. Chance nodes are drawn with
the game's probabilities. The board is drawn after every move, and after the dice rolled or
tiles drawn that follow it (once chance has played out), so that a decision is always taken
in sight of the state. A game may start from any position (``start``) and be recorded
(``log``, for ``savanna.records``).

Several humans take turns at the keyboard (hot seat); the prompt names the seat to move. In a
game with hidden information the pictures show one seat's view only (``Game.render(row,
player)``): the human's, or with several humans the view of the human about to move (a header
says whose view it is).
"""
import numpy as np

from savanna.errors import clip
from savanna.game import CHANCE, TERMINAL
from savanna_agents.base import describe

QUIT = ("quit", "exit", "q")
HELP = ("Type a move by its name ({examples}), 'moves' for the legal moves, 'hint' for an "
        "analysis of the position, 'help' for this text, 'quit' to stop.")
HINT_MOVES = 5  # the most visited moves a hint lists


def play_human(game, agent, seat, rng, read=None, write=print):
    """Play one game with a human at ``seat`` and ``agent`` in every other seat.

    ``read(prompt) -> str`` and ``write(text)`` talk to the human (``input``/``print`` by
    default). Returns the final per-player returns, or None if the human quit.
    """
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be in 0..{game.num_players - 1} for {game.name}, got {seat}")
    seats = [None if p == seat else agent for p in range(game.num_players)]
    return play_seats(game, seats, rng, read, write)


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
    changed = True  # since the last picture
    while True:
        player = int(game.current_player(states)[0])
        if player == CHANCE:
            outcome = int(game.sample_chance(states, rng)[0])
            game.apply_chance(states, [outcome])
            log.append((CHANCE, outcome))
            write(f"chance: outcome {outcome}")
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
            action = int(seats[player].act(game, states, rng)[0])
        name = game.action_to_string(states[0], action)
        returns += game.step_inplace(states, np.array([action]))[0]
        log.append((player, action))
        write(f"{labels[player]} (seat {player}): {name}")
        changed = True
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
    (the only human's, or that of the human about to move; kept while agents play)."""

    def __init__(self, game, humans, write):
        self.game, self.write = game, write
        self.hidden = not game.perfect_information and bool(humans)
        self.viewer = humans[0] if humans else None
        self.humans, self.shown = humans, None

    def draw(self, row, to_move):
        if to_move in self.humans:
            self.viewer = to_move
        if not self.hidden:
            self.write(self.game.render(row))
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
