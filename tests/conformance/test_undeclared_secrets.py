"""A secret is found even when the game does not declare it: a copy of the Kuhn-like toy that
deals each card face down but declares no private chance outcome fails the conformance clause
with one line that says what to declare; the declared toy passes it."""
import sys
from pathlib import Path

import gymnasium
import pytest

from savanna.conformance.test_hidden import (
    test_a_chance_outcome_some_seats_alone_see_is_declared_private as clause,
)
from savanna.game import Game
from savanna.registry import GAMES

TOY = Path(__file__).parents[1] / "toy_game"


@pytest.fixture(scope="module")
def kuhn():
    """The toy's game class, imported for this module only."""
    registered = "kuhn_toy" in GAMES
    sys.path.insert(0, str(TOY))
    from kuhn_toy.game import KuhnGame

    yield KuhnGame
    sys.path.remove(str(TOY))
    if not registered:
        entry = GAMES.pop("kuhn_toy")
        gymnasium.registry.pop(entry.env_id, None)
        for name in [m for m in sys.modules if m == "kuhn_toy" or m.startswith("kuhn_toy.")]:
            del sys.modules[name]


@pytest.mark.parametrize("players", [2, 3])
def test_an_undeclared_private_deal_fails_with_one_line_saying_private(kuhn, players):
    class Undeclared(kuhn):
        private_chance = False
        chance_private_to = Game.chance_private_to

    with pytest.raises(AssertionError) as failure:
        clause(Undeclared(num_players=players))
    message = str(failure.value)
    assert "\n" not in message and "declare it private" in message, message
    assert "private_chance = True" in message and "chance_private_to" in message, message
    clause(kuhn(num_players=players))  # declared: passes
