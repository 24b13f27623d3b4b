"""``savanna play`` with several seats: humans and agents mixed, hidden information hidden."""
import numpy as np
import pytest

from savanna.banjooli.game import BanjooliGame
from savanna.cli.main import main


def first_legal_move_player(capsys, prompts):
    """A stand-in for ``input`` that asks for the legal moves, then types the first one;
    every prompt it is given is kept in ``prompts``."""
    outputs = []

    def human(prompt):
        prompts.append(prompt)
        outputs.append(capsys.readouterr().out)
        last = outputs[-1].splitlines()[-1:] if outputs[-1] else []
        if not last or not last[0].startswith("legal moves: "):
            return "moves"
        return last[0].removeprefix("legal moves: ").split(", ")[0]

    return human, outputs


def test_two_humans_and_two_agents_play_bonobo_to_the_end(capsys, monkeypatch):
    prompts = []
    human, outputs = first_legal_move_player(capsys, prompts)
    monkeypatch.setattr("builtins.input", human)
    assert main(["play", "bonobo", "--seats", "human,random,human,greedy", "--seed", "3"]) == 0
    outputs.append(capsys.readouterr().out)
    text = "".join(outputs)
    assert "bonobo, seats: 0 human, 1 random, 2 human, 3 greedy:chance_depth=1." in text
    asked = {p.split(",")[0] for p in prompts}
    assert asked == {"seat 0", "seat 2"}
    for seat, label in [(0, "human"), (1, "random"), (2, "human"), (3, "greedy:chance_depth=1")]:
        assert f"{label} (seat {seat}): " in text
    last = text.rstrip().splitlines()[-1]
    assert last.startswith(("Seat ", "Seats ", "Draw")) and "(points: seat 0 " in last


def test_a_human_among_three_banjooli_players_sees_only_their_own_card(capsys, monkeypatch):
    """The picture before the first move is drawn from seat 1: its card, ``?`` for the others."""
    cards = BanjooliGame(num_players=3).init(1, np.random.default_rng(5))[0]["cards"][:3]
    monkeypatch.setattr("builtins.input", lambda prompt: "quit")
    assert main(["play", "banjooli", "--players", "3", "--seat", "1", "--agent", "random",
                 "--seed", "5"]) == 0
    text = capsys.readouterr().out
    assert f" cards=?,{cards[1]},? " in text
    assert "cards=" + ",".join(map(str, cards)) not in text
    assert "(your view; the other seats' secrets are hidden)" in text
    assert "secrets included" not in text


def test_unseen_berry_kinds_are_hidden_from_a_seat_that_has_not_seen_them():
    """Seat 1 took Jëmbat (slot 2), so it knows the berries left on the track (Oor on b4,
    Pakaarloo on c7); seat 0 knows neither."""
    game = BanjooliGame(num_players=3, berries=True)
    row = game.from_text(
        "players=3 course=K3,T8,T6,T1 ostriches=a0n,c2n,b1n,c0n,a2n cards=0,2,6 to_move=0 dir=+ "
        "turn=0 phase=roll dice=?????? spear=- berries=O@b4+1,U@c7+1,x collected=-,J,- frenzy=-")
    seen_by_1 = game.render(row[0], player=1)
    assert "cards=?,2,? " in seen_by_1 and "berries=O@b4+1,U@c7+1,x " in seen_by_1
    assert "4 |. o .|" in seen_by_1 and "7 |. Q u|" in seen_by_1
    seen_by_0 = game.render(row[0], player=0)
    assert "cards=0,?,? " in seen_by_0 and "berries=?@b4+1,?@c7+1,x " in seen_by_0
    assert "4 |. * .|" in seen_by_0 and "7 |. Q *|" in seen_by_0
    assert "cards=0,2,6 " in game.render(row[0])


@pytest.mark.parametrize("argv, message", [
    (["play", "bonobo", "--players", "3", "--seats", "human,random"],
     "--seats gives 2 seats but bonobo has 3 players"),
    (["play", "zebres", "--seats", "human,random,random"],
     "zebres takes 2 players, not 3 (the number of --seats)"),
    (["play", "bonobo", "--seats", "human,mtcs"],
     "--seats entry 1 ('mtcs'): unknown agent 'mtcs'; available: "),
    (["play", "bonobo", "--seats", "human,,random"], "--seats entry 1 (''): agent spec must be"),
    (["play", "bonobo", "--seats", "human,random", "--sims", "5"],
     "--seats names every seat"),
    (["play", "zebres", "--players", "3"], "zebres takes 2 players, not 3 (--players)"),
    (["play", "zebres", "--players", "2"], "game 'zebres' has no option 'num_players'"),
    (["play", "banjooli", "--players", "3", "--seat", "3"], "seat must be in 0..2 for banjooli"),
])
def test_seat_mistakes_end_with_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("savanna play: error")


def test_with_two_humans_the_picture_is_drawn_from_the_seat_about_to_move(capsys, monkeypatch):
    """Seat 0 plays its first move; before seat 1 types anything it sees its own view."""
    cards = BanjooliGame(num_players=3).init(1, np.random.default_rng(2))[0]["cards"][:3]
    prompts = []
    human, outputs = first_legal_move_player(capsys, prompts)
    monkeypatch.setattr("builtins.input",
                        lambda prompt: "quit" if prompt.startswith("seat 1") else human(prompt))
    assert main(["play", "banjooli", "--seats", "human,human,random", "--seed", "2"]) == 0
    text = "".join(outputs) + capsys.readouterr().out
    before_seat_1 = text[: text.rindex("view of seat 1")]
    assert "(view of seat 0; the other seats' secrets are hidden)\nplayers=3 " in before_seat_1
    assert f" cards={cards[0]},?,? " in before_seat_1
    assert f" cards=?,{cards[1]},? " in text[text.rindex("view of seat 1"):]
    assert text.rstrip().endswith("Seat 1 left the game.")
