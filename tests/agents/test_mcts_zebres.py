"""MCTS on Zèbres: decisive moves on hand-picked positions, and root values against an exact
solve of endgames with 6 to 8 empty cells (savanna.agents.play.exact)."""
import numpy as np
import pytest

from savanna.agents.play.exact import solve
from savanna.agents.play.mcts import MCTSAgent

zebres_game = pytest.importorskip("savanna.zebres.game")


@pytest.fixture(scope="module")
def game():
    return zebres_game.ZebresGame()


def best_move(game, text, sims=1000, seed=0):
    s = game.from_text(text)
    action = MCTSAgent(sims=sims).act(game, s, np.random.default_rng(seed))[0]
    return s, game.action_to_string(s[0], action)


def outcome(game, s, move):
    """The exact value for the player to move after ``move``."""
    _, per_action = solve(game, s)
    return per_action[game.string_to_action(s[0], move), game.current_player(s)[0]]


def test_finds_the_win_in_one(game):
    """The board is full; red's crocodile on e2 may still swap. ``swap e3`` brings the croc
    into sector C, where red then holds 4 tokens to green's 3 and takes its 21 face-up points
    (red 53, green 26); ``swap e1`` (red's own gazelle) and ``stop`` leave C green's (32-47).

            0   1   2   3   4   5
          +---+---+---+---+---+---+
     21   | G | g | g   z   G   E |   6    A B C C C C
          +   +   +---+   +---+---+
     20   | Z | e   g | z | C   g | < 7    A B B C D D
          +   +---+   +   +---+   +
     19   | g*  G | z | G*  g | z |   8    A A B C C D
          +---+   +   +---+---+---+
     18   | l | c | Z*  L   C | c |   9    E A B B B F
          +   +---+---+---+---+   +
     17   | Z*  Z | G   z*  Z   G |   10   E E F F F F
          +---+---+---+---+---+---+
    """
    s, move = best_move(game, "GggzGE/ZegzCg/g*GzG*gz/lcZ*LCc/Z*ZGz*ZG r 7 r croc:e2:-")
    assert move == "swap e3"
    assert outcome(game, s, "swap e3") == 1.0
    assert outcome(game, s, "swap e1") == outcome(game, s, "stop") == -1.0


def test_avoids_the_loss_in_one(game):
    """The board is full; red's crocodile on a4 may swap. Stopping loses 37-44. Swapping with
    green's gazelle on a3 gives red sector A (3 tokens to 2, 14 points): 51-30.

            0   1   2   3   4   5
            v
          +---+---+---+---+---+---+
     21   | z*| L | g*  E   Z*  l |   6    A B C C C C
          +   +   +---+   +---+---+
     20   | Z | c   G | z | c   Z*|   7    A B B C D D
          +   +---+   +   +---+   +
     19   | g   z | z | C   G | e |   8    A A B C C D
          +---+   +   +---+---+---+
     18   | C | G | g   Z   g | Z |   9    E A B B B F
          +   +---+---+---+---+   +
     17   | g   g | G   z   G   G |   10   E E F F F F
          +---+---+---+---+---+---+
    """
    s, move = best_move(game, "z*Lg*EZ*l/ZcGzcZ*/gzzCGe/CGgZgZ/ggGzGG r 0 r croc:a4:-")
    assert move != "stop"
    assert outcome(game, s, "stop") == -1.0
    assert outcome(game, s, move) == 1.0


def test_finds_the_deciding_placement(game):
    """Red holds two zebras, green one gazelle; Impala faces column f, empty at f3 and f5.
    Sector F (f4 c5 d5 e5 f5) stands 2-2: ``Z f5`` takes it, green's gazelle must go to f3
    (in D, green's anyway) and red's last zebra takes b4 (57-36). After ``Z f3`` Impala turns
    to row 4, green's gazelle takes b4 and sector A, and red loses 37-56.

            0   1   2   3   4   5
                                v
          +---+---+---+---+---+---+
     21   | C | L | G*  g   z   G |   6    A B C C C C
          +   +   +---+   +---+---+
     20   | z | g*  G | Z | e   z |   7    A B B C D D
          +   +---+   +   +---+   +
     19   | G   z | Z | g*  g | . |   8    A A B C C D
          +---+   +   +---+---+---+
     18   | z | . | C   l   c | G |   9    E A B B B F
          +   +---+---+---+---+   +
     17   | G   E | Z   g*  c   . |   10   E E F F F F
          +---+---+---+---+---+---+
    """
    s, move = best_move(game, "CLG*gzG/zg*GZez/GzZg*g./z.ClcG/GEZg*c. r 5 g place")
    assert move == "Z f5"
    assert outcome(game, s, "Z f5") == 1.0 and outcome(game, s, "Z f3") == -1.0


@pytest.mark.parametrize("text", [
    "LZ*cZ../ezggzZ*/C..g.l/Eg.ZGC/zGgGGc g 19 g place",    # 6 empty cells
    "gzG*LG*g/.zcE.e/GClz*../.gG*Gzg/Z.c.ZZ r 7 g place",   # 7
    "L.ggCZ/..ZcGz/zZg.EC/.Gz*..e/Gz*l.zG g 12 r place",    # 8
])
def test_root_values_match_the_exact_solve_of_endgames(game, text):
    """Positions where some moves win and others lose, so the search has to find the line."""
    s = game.from_text(text)
    exact, per_action = solve(game, s)
    mover = game.current_player(s)[0]
    legal = game.legal_actions(s[0])
    assert len(set(per_action[legal, mover].tolist())) > 1
    visits, values = MCTSAgent(sims=100_000).search(game, s, np.random.default_rng(11))
    assert per_action[visits.argmax(), mover] == exact[mover]
    assert values == pytest.approx(exact, abs=0.2)
