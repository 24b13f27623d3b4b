"""One small interface over the two Zèbres implementations, so every rule test runs on both.

The ``impl`` fixture (conftest.py) is parametrised over them: ``reference``
(savanna.zebres.reference, pure Python) and ``kernel`` (savanna.zebres.game.ZebresGame on the numba
kernels). A handle is whatever the implementation uses for one state: a reference ``State`` or a
batch of one kernel row.
"""
import numpy as np

from savanna.zebres import notation, reference


class ReferenceImpl:
    name = "reference"

    def __init__(self, board="standard", first_placer=1):
        self.board, self.first_placer = board, first_placer

    def start(self):
        return reference.new_game(self.board, self.first_placer)

    def load(self, text):
        return reference.from_position(notation.parse(text, self.board), self.board,
                                       self.first_placer)

    def text(self, h):
        return notation.format(reference.to_position(h))

    def legal(self, h):
        return reference.legal_actions(h)

    def step(self, h, action):
        return reference.step(h, action)

    def player(self, h):
        return reference.current_player(h)

    def scores(self, h):
        return list(reference.scores(h))

    def observe(self, h, player):
        return reference.observe(h, player)


class KernelImpl:
    name = "kernel"

    def __init__(self, board="standard", first_placer=1):
        from savanna.zebres.game import ZebresGame
        self.game = ZebresGame(board=board, first_placer=first_placer)

    def start(self):
        return self.game.init(1, rng=0)

    def load(self, text):
        return self.game.from_text(text)

    def text(self, h):
        return self.game.to_text(h[0])

    def legal(self, h):
        return np.flatnonzero(self.game.legal_mask(h)[0]).tolist()

    def step(self, h, action):
        h, rewards = self.game.step(h, np.array([action]))
        return h, rewards[0].tolist()

    def player(self, h):
        return int(self.game.current_player(h)[0])

    def scores(self, h):
        return self.game.scores(h)[0].tolist()

    def observe(self, h, player):
        return self.game.observe(h, player)[0].tolist()


IMPLEMENTATIONS = {"reference": ReferenceImpl, "kernel": KernelImpl}
