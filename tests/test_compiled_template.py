"""A new compiled algorithm needs no hand-listed bindings: ``Game.compiled`` binds a template
(tests/first_move_template.py) to any game, and it agrees with the same loop written against
the Python API."""
import numpy as np

from savanna.game import CHANCE, TERMINAL
from tests import first_move_template


def test_a_template_bound_through_the_contract_agrees_with_the_python_api(game):
    s = game.init(4, rng=3)
    compiled_totals = np.zeros((4, game.num_players), np.float32)
    s_compiled = s.copy()
    game.compiled(first_move_template).first_move_playouts(s_compiled, compiled_totals)
    totals = np.zeros_like(compiled_totals)
    while (game.current_player(s) != TERMINAL).any():
        for i, p in enumerate(game.current_player(s)):
            one = s[i : i + 1]
            if p == CHANCE:
                game.apply_chance(one, [int(np.argmax(game.chance_probs(one)[0]))])
            elif p >= 0:
                totals[i] += game.step_inplace(one, [game.legal_actions(one)[0]])[0]
    assert s_compiled.tobytes() == s.tobytes()
    np.testing.assert_array_equal(compiled_totals, totals)
    assert game.compiled(first_move_template) is game.compiled(first_move_template)
