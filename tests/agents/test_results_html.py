"""A tournament shows itself in a notebook as a table of its ratings (as a match does)."""
import xml.etree.ElementTree as ET

from savanna.agents.arena.matches import tournament
from tests.agents.coin_game import CoinGame, ConstantAgent


def test_tournament_result_shows_as_an_html_table():
    result = tournament(CoinGame(lambda c: [100, 0, 0]),
                        [ConstantAgent(0), ConstantAgent(1), ConstantAgent(0)], 4, workers=1,
                        progress=False)
    table = ET.fromstring(result._repr_html_())
    assert [th.text for th in table.iter("th")] == ["rank", "agent", "Elo", "95% CI", "games",
                                                    "score"]
    rows = [[td.text for td in tr.iter("td")] for tr in table.iter("tr")][1:]
    assert [r[1] for r in rows] == [r["agent"] for r in result.ranking()]
    assert table.find("caption").text == result.table().splitlines()[0]
