"""Both Bonobo implementations behind one small interface, so every rule test runs on the
kernel game and on the pure-Python reference alike.

``play(state, name)`` takes a decision name (``pawn s07``, ``draw``, ``tile t12-t13``) or, at
a chance node, a tile value (``+3``); it returns ``(state, rewards)`` and never mutates its
argument.
"""
import numpy as np

from savanna.bonobo import notation, spec
from savanna.bonobo import reference as R
from savanna.bonobo.game import BonoboGame


class KernelImpl:
    name = "kernel"

    def load(self, text):
        return BonoboGame(notation.parse(text).num_players).from_text(text)

    def _game(self, s):
        return BonoboGame(int(s[0]["num_players"]))

    def text(self, s):
        return self._game(s).to_text(s[0])

    def player(self, s):
        return int(self._game(s).current_player(s)[0])

    def legal(self, s):
        game = self._game(s)
        return [game.action_to_string(s[0], a) for a in game.legal_actions(s[0])]

    def probs(self, s):
        game = self._game(s)
        p = game.chance_probs(s)[0]
        return {game.outcome_to_string(o): float(p[o]) for o in np.flatnonzero(p)}

    def play(self, s, name):
        game = self._game(s)
        if self.player(s) == R.CHANCE:
            s = s.copy()
            game.apply_chance(s, [game.string_to_outcome(name)])
            return s, [0.0] * game.num_players
        s, rewards = game.step(s, [game.string_to_action(s[0], name)])
        return s, rewards[0].tolist()

    def scores(self, s):
        return self._game(s).scores(s)[0].tolist()

    def observe(self, s, player):
        return self._game(s).observe(s, player)[0].tolist()


class ReferenceImpl:
    name = "reference"

    def load(self, text):
        return R.from_position(notation.parse(text))

    def text(self, s):
        return notation.format(R.to_position(s))

    def player(self, s):
        return R.current_player(s)

    def legal(self, s):
        return [notation.action_name(a) for a in R.legal_actions(s)]

    def probs(self, s):
        return {notation.value_name(spec.VALUES[o]): p for o, p in R.chance_outcomes(s).items()}

    def play(self, s, name):
        if R.current_player(s) == R.CHANCE:
            return R.apply_chance(s, notation.parse_outcome(name)), [0.0] * s.num_players
        return R.step(s, notation.parse_action(name))

    def scores(self, s):
        return R.scores(s)

    def observe(self, s, player):
        return R.observe(s, player)



IMPLEMENTATIONS = {"kernel": KernelImpl, "reference": ReferenceImpl}

def play_all(impl, state, names):
    """Play ``names`` in turn; returns the final state and the summed rewards."""
    total = None
    for name in names:
        state, rewards = impl.play(state, name)
        total = rewards if total is None else [a + b for a, b in zip(total, rewards)]
    return state, total
