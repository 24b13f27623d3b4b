"""``savanna.agents.puzzles``: a reviewed game's marked moves of one player as positions to retry.
On a recorded Bonobo game (tile draws between decisions): one puzzle per marked decision of the
player, in order; the moves that pass are exactly those dropping no more than the threshold
against the best (the best among them, the move played not); the move played loses what the
review says it lost; what was dealt is the record's chance outcomes since the previous
decision."""
import pytest

from savanna.agents import puzzles, review
from savanna.records import read_records
from tests.agents.test_review import AGENT, write_tournament_game

THRESHOLD = 0.05


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    record = read_records(write_tournament_game(tmp_path_factory.mktemp("match")))[1]
    return record, review(record, AGENT, threshold=THRESHOLD, seed=2)


@pytest.mark.parametrize("player", [0, 1])
def test_one_puzzle_per_marked_move_answers_within_the_margin(reviewed, player):
    record, result = reviewed
    found = puzzles(result, record, player)
    mine = result.marked[result.marked["player"] == player]
    assert [p.ply for p in found] == mine["ply"].tolist()
    game = record.game()
    for p, row in zip(found, mine, strict=True):
        assert p.position == row["position"] and p.best_action == row["best_action"]
        assert p.played_action == row["action"] and p.label == row["label"]
        legal = game.legal_mask(game.from_text(p.position))[0]
        assert sorted(m["action"] for m in p.moves) == legal.nonzero()[0].tolist()
        assert p.answers == [m["action"] for m in p.moves
                             if m["drop"] is not None and m["drop"] <= THRESHOLD]
        assert p.best_action in p.answers and p.played_action not in p.answers
        assert p.loss_of(p.best_action) == 0
        shown = row["confirmed_drop"] if result.confirm else row["drop"]  # the mark's drop
        assert p.loss_of(p.played_action) == pytest.approx(shown) and shown > THRESHOLD


def test_what_was_dealt_is_the_chance_since_the_previous_decision(reviewed):
    record, result = reviewed
    game = record.game()
    found = [p for player in (0, 1) for p in puzzles(result, record, player)]
    assert any(p.dealt for p in found)  # some position follows a draw
    for p in found:
        k = record.ply_index(p.ply)
        before = []
        while k > 0 and "chance" in record.moves[k - 1]:
            k -= 1
            before.insert(0, game.outcome_to_string(record.moves[k]["chance"]))
        assert p.dealt == before


def test_a_player_out_of_range_is_refused(reviewed):
    record, result = reviewed
    with pytest.raises(ValueError, match="player"):
        puzzles(result, record, 2)
