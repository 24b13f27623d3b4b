"""Pictures of every game configuration: one drawing, as SVG (well-formed, with the coordinate
labels that moves use) and as an RGB raster; a batch as a grid; a bad viewer; the RGB env."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from savanna.conformance import play_random
from savanna.env import SavannaEnv

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
