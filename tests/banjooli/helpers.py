"""Play hand-made Banjooli positions through the kernels or the reference, by action names."""
import numpy as np

from savanna.banjooli import notation, spec
from savanna.banjooli import reference as ref
from savanna.banjooli.game import BanjooliGame

IMPLEMENTATIONS = ("kernel", "reference")


def position(ostriches, course="T1", dice="RRRRRR", phase="act", players=2, cards=None,
             to_move=0, direction="+", turn=0, berries=None, spear="-", collected=None,
             frenzy="-"):
    """The text of a position; by default seat 0 is in the act phase of a 2-player game.
    Giving ``berries`` (the slots, e.g. ``"T@b4,O@b7"``) makes it a berry-variant position."""
    cards = cards or ",".join(str(k) for k in range(players))
    text = (f"players={players} course={course} ostriches={ostriches} cards={cards} "
            f"to_move={to_move} dir={direction} turn={turn} phase={phase} dice={dice}")
    if berries is not None:
        collected = collected or ",".join("-" * players)
        text += f" spear={spear} berries={berries} collected={collected} frenzy={frenzy}"
    return text


def game_of(text):
    """The game of a hand-made position: its players, variant and (explicit) course."""
    pos = notation.parse(text)
    return BanjooliGame(pos.players, berries=pos.variant,
                        course=[spec.FACE_NAMES[f] for f in pos.course])


def legal(impl, text):
    """Names of the legal actions of ``text``."""
    if impl == "kernel":
        game = game_of(text)
        s = game.from_text(text)
        return [notation.action_name(a) for a in game.legal_actions(s[0])]
    st = ref.from_position(notation.parse(text))
    return [notation.action_name(a) for a in ref.legal_actions(st)]


def play(impl, text, moves):
    """Apply ``moves`` (action names, or ``die X`` for a chance outcome X in RBGYPW).
    Returns ``(final text, rewards of the last decision)``."""
    players = notation.parse(text).players
    rewards = [0.0] * players
    if impl == "kernel":
        game = game_of(text)
        s = game.from_text(text)
        for m in moves:
            if m.startswith("die "):
                game.apply_chance(s, [spec.FACES.index(m[4])])
            else:
                rewards = game.step_inplace(s, [game.string_to_action(s[0], m)])[0].tolist()
        return game.to_text(s[0]), rewards
    st = ref.from_position(notation.parse(text))
    for m in moves:
        if m.startswith("die "):
            assert ref.current_player(st) == ref.CHANCE
            st = ref.apply_chance(st, spec.FACES.index(m[4]))
        else:
            a = notation.parse_action(m)
            assert a in ref.legal_actions(st), (m, notation.format(ref.to_position(st)))
            st, rewards = ref.step(st, a)
    return notation.format(ref.to_position(st)), list(rewards)


def field(text, key):
    return dict(f.split("=", 1) for f in text.split())[key]


def ostriches(text):
    """Ostrich tokens by colour letter, e.g. ``{'R': 'b5', 'B': 'b4s', 'G': '+1', ...}``."""
    return dict(zip(spec.COLOURS, field(text, "ostriches").split(",")))


def scores(impl, text):
    if impl == "kernel":
        game = game_of(text)
        return game.scores(game.from_text(text))[0].tolist()
    return ref.scores(ref.from_position(notation.parse(text)))


def observe(impl, text, player):
    if impl == "kernel":
        game = game_of(text)
        return game.observe(game.from_text(text), player)[0]
    return np.array(ref.observe(ref.from_position(notation.parse(text)), player), np.uint8)
