"""The text and RGB pictures."""
import numpy as np

from bonobo import render
from bonobo.game import BonoboGame
from tests.bonobo.test_rules import BARRED, EVICTION


def test_text_picture_shows_pawns_tiles_barred_spots_and_scores():
    game = BonoboGame(2)
    text = game.render(game.from_text(BARRED)[0])
    lines = text.splitlines()
    assert lines[1].split() == ["D", "+1", "+1", "d", "t", "d", "p"]   # t00 activated dune
    assert lines[10].split() == ["+", ".", ".", "x", "+"]              # s18 barred
    assert "P0:+0 (4 in supply)" in text and text.endswith("choose, player 1")
    pawns = game.render(game.from_text(EVICTION)[0]).splitlines()
    assert pawns[2].split() == ["+", ".", "1", "0", "+"]                 # s01 s02


def test_rgb_picture_draws_tiles_and_pawns():
    game = BonoboGame(2)
    s = game.from_text(EVICTION)
    img = game.render_rgb(s[0])
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    y, x = (int(v) for v in render._pixel((1, -2)))                    # spot s01: player 1
    assert tuple(img[y, x]) == render.PLAYER_COLOURS[1]
    after, _ = game.step(s, [game.string_to_action(s[0], "tile t12-t13")])
    chased = game.render_rgb(after[0])                                  # the toilet chased it
    assert tuple(chased[y, x]) != render.PLAYER_COLOURS[1]
