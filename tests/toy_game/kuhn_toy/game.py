"""Kuhn poker as a ``savanna.game.Game``, on the kernels of ``kuhn_toy._kernels``; it draws its
own pictures (``_text``, ``_drawing``) and declares its hidden information: each deal is a
private chance outcome (``chance_private_to``), and ``_resample_hidden`` redraws the cards a
seat has not seen.

>>> game = KuhnGame(num_players=2)
>>> s = game.from_text("cards=K,J play=b")
>>> s, rewards = game.step(s, [game.string_to_action(s[0], "bet")])
>>> rewards.tolist()
[[1.0, -1.0]]
>>> game.chance_private_to(game.from_text("cards=K,- play=-")), game.outcome_to_string(2)
(1, 'K')
"""
import numpy as np

from kuhn_toy import _kernels as K
from kuhn_toy import notation
from savanna.binding import Kernels
from savanna.codes import CHANCE
from savanna.draw import Drawing
from savanna.errors import check_int
from savanna.game import Game


class KuhnGame(Game):
    """Kuhn poker for ``num_players`` (2 or 3), dealt from ``num_players + 1`` cards."""

    name = "kuhn_toy"
    version = 0
    rules_version = "v0 Kuhn poker for 2-3 players, as kuhn_toy/_kernels.py says"
    num_actions = K.NUM_ACTIONS
    max_chance_outcomes = K.DECK
    max_plies = K.MAX_PLIES
    obs_shape = (K.OBS_SIZE,)
    state_dtype = K.STATE_DTYPE
    zero_sum = True
    has_chance = True
    perfect_information = False
    private_chance = True
    kernels = Kernels.from_module(K)
    state_errors = K.STATE_ERRORS
    notation = notation

    def __init__(self, num_players=2):
        self.num_players = check_int("num_players", num_players, 2, K.MAX_PLAYERS)
        self._base_state = self._row(notation.Position((None,) * self.num_players, ()))

    def __repr__(self):
        return f"KuhnGame(num_players={self.num_players})"

    def base_state(self):
        return self._base_state

    def from_position(self, pos):
        if len(pos.cards) != self.num_players:
            raise ValueError(f"the position deals {len(pos.cards)} seats, this game "
                             f"{self.num_players}")
        if len(pos.play) > K.MAX_PLIES:
            raise ValueError(f"a hand lasts at most {K.MAX_PLIES} moves, got {len(pos.play)}")
        return self.check_states(self._row(pos))

    def _row(self, pos):
        s = np.zeros(1, self.state_dtype)
        s[0]["players"] = self.num_players
        s[0]["cards"] = -1
        s[0]["cards"][: len(pos.cards)] = [-1 if c is None else c for c in pos.cards]
        s[0]["moves"] = len(pos.play)
        s[0]["history"][: len(pos.play)] = pos.play
        return s

    def to_position(self, row):
        r = self.check_row(row)[0]
        return notation.Position(
            tuple(None if c < 0 else int(c) for c in r["cards"][: self.num_players]),
            tuple(int(m) for m in r["history"][: r["moves"]]))

    # ----- hidden information ---------------------------------------------------------------
    def chance_private_to(self, row):
        """The seat the card of chance node ``row`` is dealt to (None elsewhere)."""
        if self.current_player(self.as_batch(row))[0] != CHANCE:
            return None
        return self.to_position(row).cards.index(None)

    def outcome_to_string(self, outcome):
        """The card of chance outcome ``outcome``: ``J Q K A``."""
        return notation.card_name(check_int("outcome", outcome, 0, K.DECK - 1))

    def _resample_hidden(self, s, player, rng):
        """The other seats' dealt cards redrawn from those ``player`` does not hold (the
        betting says nothing certain about them)."""
        for r in s:
            others = [p for p in range(self.num_players) if p != player and r["cards"][p] >= 0]
            unseen = [c for c in range(self.num_players + 1) if c != r["cards"][player]]
            r["cards"][others] = rng.choice(unseen, size=len(others), replace=False)
        return s

    # ----- pictures: a seat sees its own card; every card is shown at the end ----------------
    def _shown(self, row, player):
        pos = self.to_position(row)
        over = self.is_terminal(row)[0]
        return [("-" if c is None else "?" if not over and player not in (None, p)
                 else notation.card_name(c)) for p, c in enumerate(pos.cards)]

    def _status(self, row):
        player = int(self.current_player(row)[0])
        return {CHANCE: "dealing", -2: "the hand is over"}.get(player, f"seat {player} to act")

    def _text(self, row, player):
        pos = self.to_position(row)
        play = "".join(notation.ACTIONS[m][0] for m in pos.play) or "-"
        return f"cards {' '.join(self._shown(row, player))}  play {play}\n{self._status(row)}"

    def _drawing(self, row, player):
        cell = 60
        d = Drawing(cell * self.num_players + 40, 150, background=(30, 110, 60))
        for p, card in enumerate(self._shown(row, player)):
            x = 20 + cell * p
            d.rect(x + 5, 20, cell - 10, 70, fill=(250, 250, 245), radius=6)
            d.text(x + cell / 2, 62, card, size=24)
            d.text(x + cell / 2, 110, f"seat {p}", size=12, fill=(255, 255, 255))
        d.text(d.width / 2, 138, self._status(row), size=12, fill=(255, 255, 255))
        return d
