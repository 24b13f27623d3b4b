"""ZebresGame at the Python boundary: options, text, action names, bad input, pictures."""
import io

import numpy as np
import pytest
from PIL import Image

from savanna.zebres.game import ZebresGame

START = "....../....../....../....../...... r - - setup"


@pytest.fixture(scope="module")
def game():
    return ZebresGame()


def test_declared_facts(game):
    assert (game.name, game.num_players, game.num_actions) == ("zebres", 2, 206)
    assert game.obs_shape == (660,) and game.max_chance_outcomes == 0
    assert game.zero_sum and not game.has_chance and game.perfect_information


def test_options_set_the_start(game):
    assert game.to_text(game.init(1)[0]) == START
    assert ZebresGame(first_placer=0).to_text(ZebresGame(first_placer=0).init(1)[0]) == (
        START.replace(" r ", " g "))
    president = ZebresGame(board="president")
    assert president.init(1)[0]["board"] == 1


@pytest.mark.parametrize("options, words", [
    ({"board": "serengeti"}, "standard, president"),
    ({"first_placer": 2}, "first_placer"),
])
def test_bad_options_are_rejected(options, words):
    with pytest.raises(ValueError, match=words):
        ZebresGame(**options)


def test_action_names_round_trip_on_every_legal_action(game):
    rng = np.random.default_rng(5)
    s = game.init(1)
    while not game.is_terminal(s)[0]:
        legal = game.legal_actions(s[0])
        for a in legal:
            assert game.string_to_action(s[0], game.action_to_string(s[0], a)) == a
        s, _ = game.step(s, [rng.choice(legal)])


def test_string_to_action_lists_the_legal_moves(game):
    s = game.from_text("....../....../....../....../...... g 6 - place")
    assert game.string_to_action(s[0], "Z c1") == 2
    with pytest.raises(ValueError, match=r"illegal move 'Z c2'.*legal: Z a1, Z b1"):
        game.string_to_action(s[0], "Z c2")
    with pytest.raises(ValueError, match=r"unknown action 'jump'.*legal here: Z a1"):
        game.string_to_action(s[0], "jump")


def test_illegal_step_names_the_legal_moves(game):
    s = game.init(1)
    with pytest.raises(ValueError, match=r"illegal action 0 \(Z a1\).*legal: start 0, start 1"):
        game.step(s, [0])
    with pytest.raises(ValueError, match="out of range"):
        game.step(s, [206])
    end = game.from_text("ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCCcc r 7 g end")
    with pytest.raises(ValueError, match="no decision"):
        game.step(end, [203])


@pytest.mark.parametrize("text, words", [
    ("....../....../....../...... r - - setup", "5 rows"),
    ("....../....../....../....../...... x - - setup", "to_move"),
    ("Q...../....../....../....../...... r 3 - place", "unknown letter"),
    ("....../....../....../....../...... r 3 - pounce", "phase"),
    ("ZZZZZZ/....../....../....../...... g 3 - place", "too many"),
])
def test_malformed_text_is_rejected(game, text, words):
    with pytest.raises(ValueError, match=words):
        game.from_text(text)


def test_wrong_arrays_are_rejected(game):
    with pytest.raises(ValueError, match="dtype"):
        game.legal_mask(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="1-d"):
        game.legal_mask(game.init(4).reshape(2, 2))
    with pytest.raises(ValueError, match="numpy array"):
        game.observe([1, 2], 0)
    with pytest.raises(ValueError, match="player"):
        game.observe(game.init(1), 2)


def test_scores_of_a_finished_game(game):
    s = game.from_text("ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCCcc r 7 g end")
    # standard sectors, majority -> sum of the face-up values of both colours:
    # A a1 Z, a2 z, a3 G, b3 G, b4 g               red 3-2    6+6+2+2+2 = 18
    # B b1 Z, b2 z, c2 z, c3 G, c4 g, d4 g, e4 E   green 4-3  6+6+6+2+2+2+5 = 29
    # C c1 Z, d1 Z, e1 Z, f1 z, d2 z, d3 G, e3 g   red 4-3    6*5+2+2 = 34
    # D e2 G, f2 G, f3 g                           red 2-1    2+2+2 = 6
    # E a4 g, a5 L, b5 l                           green 2-1  2+1+1 = 4
    # F f4 e, c5 C, d5 C, e5 c, f5 c               green 3-2  5
    # green holds the inauguration: +5
    assert game.scores(s).tolist() == [[18 + 34 + 6, 29 + 4 + 5 + 5]]


def test_render_shows_tokens_rivers_impala_and_hands(game):
    s = game.from_text("L...../....../..g*.../....../...... g 18 r place")
    text = game.render(s[0])
    assert " L |" in text and "g*" in text      # a1 is bordered by the A|B river
    assert "18 >" in text                        # Impala faces row 4 from the left
    assert "red   hand: Z5 G6 E1 L0 C2" in text and "green hand: Z5 G5" in text
    assert "inauguration: red" in text and "green to place" in text


def test_render_rgb_and_notebook_picture(game):
    a = game.from_text("L...../....../....../....../...... g 18 - place")
    b = game.from_text("l...../....../....../....../...... r 18 - place")
    image = game.render_rgb(a[0])
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert (image != game.render_rgb(b[0])).any()     # the token's colour shows
    png = game.show(a[0])._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert (np.asarray(Image.open(io.BytesIO(png)).convert("RGB")) == image).all()
