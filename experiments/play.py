"""A human against an agent in the terminal: moves typed by name, the board drawn after each.

At the prompt, type a move by its name (Zèbres: ``start 14``, ``Z c4``, ``swap d4``, ``stop``,
``impala +2``), or ``moves`` (the legal moves), ``help``, ``quit``. A wrong entry is explained
and asked again; end of input quits. Chance nodes are drawn with the game's probabilities.
"""
import numpy as np

from agents.base import describe
from savanna.game import CHANCE, TERMINAL

QUIT = ("quit", "exit", "q")
HELP = ("Type a move by its name ({examples}), 'moves' for the legal moves, "
        "'help' for this text, 'quit' to stop.")


def play_human(game, agent, seat, rng, read=None, write=print):
    """Play one game with a human at ``seat`` and ``agent`` in every other seat.

    ``read(prompt) -> str`` and ``write(text)`` talk to the human (``input``/``print`` by
    default). Returns the final per-player returns, or None if the human quit.
    """
    read = read or input
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be in 0..{game.num_players - 1} for {game.name}, got {seat}")
    states = game.init(1, rng)
    returns = np.zeros(game.num_players)
    label = describe(agent)
    write(f"You play seat {seat} of {game.name} against {label}. Type 'help' for help.")
    if not game.perfect_information:
        write("note: the pictures show the whole state, the other players' secrets included")
    write(game.render(states[0]))
    while True:
        player = int(game.current_player(states)[0])
        if player == TERMINAL:
            break
        if player == CHANCE:
            probs = game.chance_probs(states)[0]
            outcome = int(rng.choice(len(probs), p=probs / probs.sum()))
            game.apply_chance(states, [outcome])
            write(f"chance: outcome {outcome}")
            continue
        if player == seat:
            action = ask_move(game, states[0], read, write)
            if action is None:
                write("You left the game.")
                return None
        else:
            action = int(agent.act(game, states, rng)[0])
        name = game.action_to_string(states[0], action)
        returns += game.step_inplace(states, np.array([action]))[0]
        write(f"{'you' if player == seat else label} (seat {player}): {name}")
        write(game.render(states[0]))
    write(outcome_line(game, states, returns, seat))
    return returns


def ask_move(game, row, read, write):
    """The legal action the human types, asking again after a wrong entry; None to quit."""
    legal = game.legal_actions(row)
    names = [game.action_to_string(row, a) for a in legal]
    while True:
        try:
            text = read(f"your move ({len(legal)} legal; 'moves', 'help', 'quit')> ").strip()
        except EOFError:
            return None
        if not text:
            continue
        if text.lower() in QUIT:
            return None
        if text.lower() == "moves":
            write("legal moves: " + ", ".join(names))
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
            write(f"error: {text!r} is not legal here; legal: {', '.join(names)}")
            continue
        return action


def outcome_line(game, states, returns, seat):
    """'You win' / 'You lose' / 'Draw', with the game's points when it has them."""
    best = returns.max()
    if returns[seat] < best:
        verdict = "You lose"
    elif (returns == best).sum() > 1:
        verdict = "Draw"
    else:
        verdict = "You win"
    try:
        points = game.scores(states)[0]
        verdict += " (points: " + ", ".join(f"seat {p} {x:g}" for p, x in enumerate(points)) + ")"
    except NotImplementedError:
        pass
    return verdict + "."
