"""The text picture and the drawing."""
import re

from savanna.bonobo import render
from savanna.bonobo.game import BonoboGame
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


def test_drawing_shows_pawns_where_they_stand():
    game = BonoboGame(2)
    s = game.from_text(EVICTION)
    x, y = (round(v) for v in render.point_xy((1, -2)))                 # spot s01: player 1
    beside = (y, x - 7)                                                 # in the disc, off the digit
    assert tuple(game.render_rgb(s[0])[beside]) == render.PLAYER_COLOURS[1]
    after, _ = game.step(s, [game.string_to_action(s[0], "tile t12-t13")])
    assert tuple(game.render_rgb(after[0])[beside]) != render.PLAYER_COLOURS[1]  # chased


def test_drawing_marks_barred_spots_and_activated_triangles():
    game = BonoboGame(2)
    row = game.from_text(BARRED)[0]
    board = "".join(game.render(row).splitlines()[:13])
    barred, activated = board.count("x"), sum(board.count(c) for c in "DPT")
    svg = game.render_svg(row)
    assert barred == 2 and svg.count('stroke="#c81414"') == 2 * (barred + 1)  # + the legend's
    frames = re.findall(r'<polygon points="[^"]*" fill="#ffffff"/>', svg)
    assert activated >= 1 and len(frames) == activated                # framed in white
    assert "Player 1: place a pawn or draw a tile" in svg
