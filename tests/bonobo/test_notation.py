"""The text notation and action names: round trips and one-line errors."""
import pytest

from savanna.bonobo import notation, spec
from savanna.bonobo.game import BonoboGame
from tests.bonobo.test_rules import BARRED, COMPLETION, ENDGAME, EVICTION

START = "players=2 tiles=- pawns=- score=0,0 pile=3,3,4,4,4,4,3,3 move=0 phase=choose"


@pytest.mark.parametrize("text", [START, COMPLETION, EVICTION, BARRED, ENDGAME])
def test_round_trip(text):
    game = BonoboGame(notation.parse(text).num_players)
    assert notation.format(notation.parse(text)) == text
    assert game.to_text(game.from_text(text)[0]) == text


def test_start_position_is_the_initial_state():
    game = BonoboGame(2)
    assert game.to_text(game.init(1)[0]) == START
    assert game.init(1)[0].tobytes() == game.from_text(START)[0].tobytes()


@pytest.mark.parametrize("text, message", [
    ("nonsense", "bad field"),
    (START.replace(" move=0", ""), "missing field"),
    (START.replace("players=2", "players=5"), "num_players must be an int in 2..4"),
    (START.replace("tiles=-", "tiles=t00-t05:+1"), "not a slot"),
    (START.replace("tiles=-", "tiles=t00-t01"), "needs a value"),
    (START.replace("tiles=-", "tiles=t00-t01:+5"), "unknown tile value"),
    (START.replace("tiles=-", "tiles=t00-t01:+1,t01-t02:+2"), "tiles of value"),
    (START.replace("tiles=-", "tiles=t00-t01:+1,t01-t02:+1")
     .replace("pile=3,3,4,4,4,4,3,3", "pile=3,3,4,4,2,4,3,3"), "overlap"),
    (START.replace("pawns=-", "pawns=s19:0"), "bad spot"),
    (START.replace("pawns=-", "pawns=s01:2"), "owner 0..1"),
    (START.replace("pawns=-", "pawns=s01:0,s01:1"), "two pawns"),
    (START.replace("pawns=-", "pawns=s01:0,s02:0,s03:0,s04:0,s05:0"), "more than 4"),
    (START.replace("score=0,0", "score=0"), "score needs 2"),
    (START.replace("pile=3,3,4,4,4,4,3,3", "pile=3,3,4,4,4,4,3"), "pile needs 8"),
    (START.replace("move=0", "move=2"), "move must be"),
    (START.replace("choose", "draw"), "unknown phase"),
    (START.replace("choose", "place:0"), "unknown tile value"),
    (START.replace("choose", "end"), "can still act"),
    ("players=2 tiles=t20-t21:+3,t22-t23:+2,t31-t32:+4,t33-t34:-1 pawns=s09:0 score=0,0 "
     "pile=3,3,4,3,4,3,2,2 move=0 phase=choose", "fully surrounded"),
    (BARRED.replace("pawns=-", "pawns=s15:0"), "beside an activated toilet"),
])
def test_errors_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        notation.parse(text)


def test_game_rejects_a_position_with_another_player_count():
    with pytest.raises(ValueError, match="3 players, this game 2"):
        BonoboGame(2).from_text(START.replace("players=2", "players=3")
                                .replace("score=0,0", "score=0,0,0"))


def test_action_names_round_trip_and_errors():
    assert [notation.action_name(a) for a in (0, 18, 19, 20, 91)] == [
        "pawn s00", "pawn s18", "draw", "tile t00-t01", "tile t52-t53"]
    for a in range(spec.NUM_ACTIONS):
        assert notation.parse_action(notation.action_name(a)) == a
    assert notation.parse_action("tile t13-t12") == notation.parse_action("tile t12-t13")
    for bad in ("pawn s19", "tile t00-t02", "jump", "tile t00"):
        with pytest.raises(ValueError):
            notation.parse_action(bad)
    game = BonoboGame(2)
    s = game.init(1)
    with pytest.raises(ValueError, match="illegal move 'tile t00-t01' here; legal: pawn s00"):
        game.string_to_action(s[0], "tile t00-t01")
    with pytest.raises(ValueError, match="action must be an int"):
        game.action_to_string(s[0], "draw")


def test_outcome_names():
    game = BonoboGame(2)
    assert [game.outcome_to_string(o) for o in range(8)] == ["-4", "-3", "-2", "-1",
                                                            "+1", "+2", "+3", "+4"]
    assert game.string_to_outcome("+3") == 6
    with pytest.raises(ValueError, match="-4 -3 -2 -1 \\+1 \\+2 \\+3 \\+4"):
        game.string_to_outcome("0")
    with pytest.raises(ValueError, match="0..7"):
        game.outcome_to_string(8)


def test_the_documented_example_parses():
    example = " ".join(notation.__doc__.split("::")[1].split("\n\n")[1].split())
    assert notation.format(notation.parse(example)) == example
