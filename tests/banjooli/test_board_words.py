"""Banjooli on a board: rerolls named by the faces their dice show, and every move that names
a cell or an ostrich at its place on the picture (``move_spots``)."""
import re

import numpy as np

from savanna.agents.play.analysis import analyse
from savanna.agents.play.registry import make_agent
from savanna.banjooli import reference as ref
from savanna.banjooli import spec
from savanna.banjooli.game import BanjooliGame
from savanna.banjooli.render import CELL, LEFT, TOP
from savanna.game import CHANCE
from savanna.records import make_record, read_record, write_records
from tests.banjooli.helpers import game_of, position

NESTED = "a2n,c2n"


def test_rerolls_are_named_by_their_faces_and_read_both_ways():
    text = position(f"b3,b4,b1n,{NESTED}", dice="RBRYPW", phase="reroll")
    game = game_of(text)
    row = game.from_text(text)
    names = {a: game.action_to_string(row[0], a) for a in range(1, 64)}
    assert names[1] == "reroll R1" and names[4] == "reroll R2" and names[2] == "reroll B"
    assert names[0b100101] == "reroll R1,R2,sorcery W"
    assert len(set(names.values())) == 63  # each reroll its own name
    for a, name in names.items():
        assert game.string_to_action(row[0], name) == a
        places = ",".join(str(k) for k in range(6) if a >> k & 1)
        assert game.string_to_action(row[0], f"reroll {places}") == a  # the notation's name


def test_a_record_with_the_notations_reroll_names_still_reads(tmp_path):
    """Records written before the faces named the dice (``reroll 0,5``) still replay."""
    game = BanjooliGame(num_players=2)
    s = game.init(1, rng=3)
    rng = np.random.default_rng(3)
    events = []
    while game.current_player(s)[0] == CHANCE:
        outcome = int(game.sample_chance(s, rng)[0])
        events.append((CHANCE, outcome))
        game.apply_chance(s, [outcome])
    events.append((0, 0b100001))
    record = make_record(game, game.init(1, rng=3), events, ["a", "b"])
    assert record.moves[-1]["move"] != "reroll 0,5"  # named by the faces now
    record.moves[-1]["move"] = "reroll 0,5"
    write_records(tmp_path / "old.jsonl", [record])
    back = read_record(tmp_path / "old.jsonl")
    assert back.moves[-1]["move"] == "reroll 0,5"
    after = game.step(s, [0b100001])[0]
    assert back.states(game)[-1].tobytes() == after[0].tobytes()  # no "is named ... now"


def _centre(cell):
    return LEFT + (cell // 3) * CELL + CELL / 2, TOP + (cell % 3) * CELL + CELL / 2


def test_every_move_with_a_spot_lands_there_on_random_games():
    """A direction's spot is the cell the ostrich steps or jumps to (past the finish: the
    finish line's lane); a move, sorcery, swap, joker or group sits on its ostrich; a berry
    or the snake's landing on its cell. Two directions never share a spot."""
    rng = np.random.default_rng(5)
    seen = set()
    for seed in range(12):
        game = BanjooliGame(num_players=3, berries=seed % 2 == 1, special="random")
        s = game.init(1, rng=seed)
        while game.current_player(s)[0] != -2:
            if game.current_player(s)[0] == -1:
                game.apply_chance(s, game.sample_chance(s, rng))
                continue
            pos = game.to_position(s[0])
            spots = game.move_spots(s)
            directions = [spots[a] for a in spots if spec.A_DIR <= a < spec.A_SWAP]
            assert len(set(directions)) == len(directions)
            for a, xy in spots.items():
                after = game.to_position(game.step(s, [a])[0][0])
                if spec.A_DIR <= a < spec.A_SWAP:
                    seen.add("direction")
                    cell = after.cells[pos.mover]
                    if cell is None:  # arrived: past the finish line
                        assert xy[0] == LEFT + (pos.last_row + 1) * CELL + CELL / 2
                        continue
                    row, lane = int((xy[0] - LEFT) // CELL), int((xy[1] - TOP) // CELL)
                    lava = ref.kind(ref.from_position(pos), lane, row) == spec.LAVA
                    assert xy == _centre(cell) or lava, (game.to_text(s[0]), a)  # lava: back
                elif spec.A_BERRY <= a < spec.A_SPEAR:
                    assert xy == _centre(a - spec.A_BERRY)
                    seen.add("berry")
                elif spec.A_BACK <= a:
                    assert xy == _centre(after.cells[pos.mover])
                    seen.add("back")
                else:  # move R+W, sorcery G, swap B, assign R, group R: on that ostrich
                    colour = spec.COLOURS.index(game.action_to_string(s[0], a).split()[1][0])
                    assert xy == _centre(pos.cells[colour])
                    seen.add("ostrich")
            legal = game.legal_actions(s[0])
            game.step_inplace(s, [legal[rng.integers(len(legal))]])
    assert {"direction", "berry", "ostrich"} <= seen


def test_an_analysis_names_the_rerolls_and_its_best_line_by_the_faces():
    text = position(f"b3,b4,b1n,{NESTED}", dice="RBRYPW", phase="reroll")
    game = game_of(text)
    found = analyse(game, game.from_text(text), make_agent("mcts:sims=64"), rng=0)
    moves = [r["move"] for r in found.rows] + found.pv
    assert "reroll R1,R2,sorcery W" in moves
    assert not [m for m in moves if re.fullmatch(r"reroll [\d,]+", m)], moves
