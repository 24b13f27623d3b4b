"""``savanna play`` and the env's ``render()`` keep another seat's private chance outcomes secret
until the end: transcripts of the Kuhn-like toy, from either seat and from no seat, over several
seeds, name no card of another seat before the cards are revealed."""
import re
import sys
from pathlib import Path

import gymnasium
import pytest

from savanna.cli.main import main
from savanna.env import SavannaEnv
from savanna.registry import GAMES

TOY = Path(__file__).parents[1] / "toy_game"


@pytest.fixture(scope="module", autouse=True)
def toy():
    """The Kuhn-like toy registered as a plug-in would be, for this module only."""
    if "kuhn_toy" in GAMES:
        yield
        return
    sys.path.insert(0, str(TOY))
    import kuhn_toy  # noqa: F401  (registers itself)
    yield
    entry = GAMES.pop("kuhn_toy")
    gymnasium.registry.pop(entry.env_id, None)
    sys.path.remove(str(TOY))
    for name in [m for m in sys.modules if m == "kuhn_toy" or m.startswith("kuhn_toy.")]:
        del sys.modules[name]


def transcript(capsys, monkeypatch, argv):
    monkeypatch.setattr("builtins.input", lambda prompt: "pass")
    assert main(["play", "kuhn_toy", *argv]) == 0
    return capsys.readouterr().out


def hidden_until_revealed(text, viewer):
    """The cards dealt to the seats other than ``viewer`` (None: every seat), named by the
    'Revealed' line and checked unseen in ``text`` before the end (the picture of the hand
    over shows every card): each picture shows them as ``?`` and each deal says only whom it
    went to."""
    _, found, after = text.partition("Revealed: ")
    before = text[: text.rfind("cards ", 0, text.index("the hand is over"))]
    assert found, text
    dealt = dict(re.findall(r"seat (\d) was dealt ([JQKA])", after.splitlines()[0]))
    others = {int(p): card for p, card in dealt.items() if int(p) != viewer}
    assert others and (viewer is None or str(viewer) not in dealt), text
    pictures = [line.split()[1:-2] for line in before.splitlines() if line.startswith("cards ")]
    assert pictures, text
    for shown in pictures:
        assert all(shown[p] in "?-" for p in others), (shown, text)
    for p, card in others.items():
        assert f"chance: {card}" not in before and f"dealt {card}" not in before, text
        assert "chance: dealt to seat " + str(p) in before, text
    return dealt


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_seat_sees_no_other_card_before_the_end(capsys, monkeypatch, seed, seat):
    text = transcript(capsys, monkeypatch, ["--agent", "random", "--seat", str(seat),
                                            "--seed", str(seed)])
    hidden_until_revealed(text, seat)


@pytest.mark.parametrize("seed", [1, 2])
def test_agents_alone_are_watched_as_a_spectator(capsys, monkeypatch, seed):
    text = transcript(capsys, monkeypatch, ["--seats", "random,random", "--seed", str(seed)])
    assert "(a spectator's view; every seat's secrets are hidden)" in text
    assert len(hidden_until_revealed(text, None)) == 2


def test_the_env_draws_its_own_seat_only():
    for seed in range(6):
        env = SavannaEnv("kuhn_toy", seat=seed % 2, opponent="random", render_mode="ansi")
        env.reset(seed=seed)
        cards = env.render().split()[1:3]
        assert cards[env.seat] in "JQKA" and cards[1 - env.seat] == "?", cards
