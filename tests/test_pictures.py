"""Pictures: hidden information in Banjooli's, the lazy Pillow import, match results as an HTML
table (every game's pictures are the conformance suite's: conformance/test_pictures.py)."""
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from savanna.agents.arena.matches import play_match
from savanna.conformance.test_pictures import texts
from tests.agents.coin_game import CoinGame, ConstantAgent
from tests.banjooli.helpers import game_of, position


def test_banjooli_seat_sees_only_its_own_card_and_berries():
    """Seat 0 sees card 0 only; seat 1 took Jëmbat and knows the berries left (Oor on b7
    among them), seat 0 does not; the full picture (player None) shows every card and kind."""
    text = position("b3,a3,b1n,a2n,c2n", course="T1,K1", dice="RRRYYY", players=3,
                    cards="0,4,7", berries="T@b4+1,O@b7+1,x", collected="-,J,-")
    game = game_of(text)
    row = game.from_text(text)[0]
    seat0, seat1, everything = (texts(game.render_svg(row, player=p)) for p in (0, 1, None))
    assert "card 0:" in seat0 and "card 4:" not in seat0 and "card 7:" not in seat0
    assert "card 4:" in seat1 and "card 0:" not in seat1
    assert {"card 0:", "card 4:", "card 7:"} <= set(everything)
    assert "O" not in seat0 and "O" in seat1 and {"T", "O"} <= set(everything)
    assert seat0.count("?") >= 2 + 2                   # two berries, two hidden point totals
    public = texts(game.render_drawing(row, public=True).svg())  # a spectator's: no card at all
    assert not {"card 0:", "card 4:", "card 7:"} & set(public) and "O" not in public
    with pytest.raises(ValueError, match="give player or public, not both"):
        game.render_drawing(row, 0, public=True)


def test_import_savanna_does_not_import_pillow():
    code = ("import sys, savanna, savanna.game, savanna.draw, savanna.zebres.game, "
            "savanna.bonobo.game, "
            "savanna.banjooli.game; assert 'PIL' not in sys.modules, 'PIL imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_match_result_shows_as_an_html_table():
    result = play_match(CoinGame(lambda c: [100, 0, 0]), [ConstantAgent(0), ConstantAgent(1)],
                        games=4, workers=1, progress=False)
    table = ET.fromstring(result._repr_html_())
    header = [th.text for th in table.iter("th")]
    assert header[:6] == ["agent", "wins", "draws", "losses", "score", "Elo"]
    rows = [[td.text for td in tr.iter("td")] for tr in table.iter("tr")][1:]
    assert [r[0] for r in rows] == result.labels and rows[0][1].startswith("50.0%")
