"""Golden playthrough: a seeded 3-player berry game written out move by move.

``golden_3p_berries.txt`` was written by the *reference* rules (``write_golden``): its first
line is the start position, then one line per step, ``<action name or die X> | <text>``. The
test replays the moves on the kernels and diffs every text, so a change of rules or notation
shows up as a readable diff.
"""
import pathlib
import random

from savanna.banjooli import notation, spec
from savanna.banjooli import reference as ref
from savanna.banjooli.game import BanjooliGame

GOLDEN = pathlib.Path(__file__).with_name("golden_3p_berries.txt")
START = ("players=3 course=T4,K2,CROC,T3 ostriches=c2n,b1n,a0n,c0n,a2n cards=4,9,1 to_move=0 "
         "dir=+ turn=0 phase=place dice=?????? spear=- berries=F@-,S@-,K@- collected=-,-,- "
         "frenzy=-")


def write_golden(seed=3):
    """Play the reference from START with seeded random moves and write the golden file."""
    rnd = random.Random(seed)
    st = ref.from_position(notation.parse(START))
    lines = [START]
    while ref.current_player(st) != ref.TERMINAL:
        if ref.current_player(st) == ref.CHANCE:
            outcome = rnd.randrange(6)
            st, move = ref.apply_chance(st, outcome), f"die {spec.FACES[outcome]}"
        else:
            action = rnd.choice(ref.legal_actions(st))
            st, move = ref.step(st, action)[0], notation.action_name(action)
        lines.append(f"{move} | {notation.format(ref.to_position(st))}")
    GOLDEN.write_text("\n".join(lines) + "\n")


def test_kernel_replays_the_golden_game():
    lines = GOLDEN.read_text().splitlines()
    game = BanjooliGame(num_players=3, berries=True, special="crocodiles")
    s = game.from_text(lines[0])
    for number, line in enumerate(lines[1:], start=2):
        move, expected = line.split(" | ")
        if move.startswith("die "):
            game.apply_chance(s, [spec.FACES.index(move[4])])
        else:
            game.step_inplace(s, [game.string_to_action(s[0], move)])
        assert game.to_text(s[0]) == expected, f"line {number}: {move}"
    assert game.is_terminal(s)[0]
