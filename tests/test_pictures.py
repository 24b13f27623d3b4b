"""Pictures of every game configuration: one drawing, as SVG (well-formed, with the coordinate
labels that moves use) and as an RGB raster; a batch as a grid; hidden information; the lazy
Pillow import; match results as an HTML table."""
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from savanna.agents.arena.matches import play_match
from savanna.env import SavannaEnv
from tests.agents.coin_game import CoinGame, ConstantAgent
from tests.banjooli.helpers import game_of, position
from tests.conftest import play_random

SVG = "{http://www.w3.org/2000/svg}"


def start_middle_end(game):
    """A start, a mid-game and a final state of one seeded random game."""
    s = game.init(1, rng=5)
    states = [s.copy()]
    seen = []
    play_random(game, s, np.random.default_rng(5), on_step=lambda st: seen.append(st.copy()))
    return states + [seen[len(seen) // 2], s]


def texts(svg):
    return [t.text or "" for t in ET.fromstring(svg).iter(SVG + "text")]


def test_every_state_draws_as_svg_and_rgb(game):
    for s in start_middle_end(game):
        svg = game.render_svg(s[0])
        words = texts(svg)                                   # well-formed XML
        for label in game.picture_labels(s):
            assert label in words, label
        image = game.render_rgb(s[0])
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
        assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50    # anti-aliased, not blank
        root = ET.fromstring(svg)
        size = round(float(root.get("width"))), round(float(root.get("height")))
        assert size == image.shape[1::-1]


def test_a_batch_shows_as_a_grid_and_one_state_as_itself(game):
    s = np.concatenate(start_middle_end(game))
    one = game.show(s[0])
    assert ET.fromstring(one._repr_svg_()).tag == SVG + "svg"
    assert one._repr_png_().startswith(b"\x89PNG") and repr(one) == game.render(s[0])
    grid = game.show(s)
    words = texts(grid._repr_svg_())
    assert ["state 0", "state 1", "state 2"] == [w for w in words if w.startswith("state ")]
    assert grid.width > one.width and grid.height > one.height
    assert repr(grid).startswith("state 0:\n" + game.render(s[0]))


def test_a_bad_viewer_is_a_one_line_error(game):
    s = game.init(1, rng=0)
    for player in (-1, game.num_players, "0", 1.0, 0.5, True, np.True_):  # issue #21: bools
        for draw in (game.render_svg, game.render):                         # and floats too
            with pytest.raises(ValueError, match=r"player must be an int \(a seat\) in 0\.\.") \
                    as err:
                draw(s[0], player=player)
            assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="expected one"):
        game.render_rgb(np.concatenate([s, s]))


def test_rgb_array_env_renders_the_picture(game):
    env = SavannaEnv(game, render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.shape == game.render_rgb(env.state).shape


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
