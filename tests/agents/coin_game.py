"""A fake game with known outcome probabilities, in plain NumPy, for testing the arena.

A percentile ``u`` in 0..99 is drawn first (one chance node, 100 equally likely outcomes); then
each of the ``P`` players in seat order chooses 0 or 1. The last choice ends the game: with
``table(choices) = [w_0, ..., w_{P-1}, d]`` (percentages summing to 100), seat ``k`` wins when
``u`` falls in its bucket ``[w_0 + ... + w_{k-1}, ... + w_k)`` and the rest is a draw. The
winner gets +1 and the others -1; a draw gives 0 to all. ``scores`` is each player's choice,
so a greedy agent chooses 1; with ``flat_scores=True`` every score is 0 (all actions tie).

Example: ``CoinGame(lambda c: [50, 20, 30])``: seat 0 wins half the games whatever is chosen.
"""
import numpy as np

from savanna.game import CHANCE, TERMINAL, Game


class CoinGame(Game):
    name = "coin"
    version = 0
    num_actions = 2
    max_chance_outcomes = 100
    obs_shape = (1,)
    zero_sum = False
    has_chance = True
    perfect_information = True

    def __init__(self, table, num_players=2, flat_scores=False):
        self.table = table
        self.num_players = num_players
        self.max_plies = num_players
        self.flat_scores = flat_scores
        self.state_dtype = np.dtype([("stage", np.int8), ("u", np.int8),
                                     ("choice", np.int8, (num_players,))])

    @property
    def unchecked(self):
        """Written in Python without kernels, it checks in its own methods (``Game.unchecked``)."""
        return self

    def init(self, n, rng=None):
        s = np.zeros(n, self.state_dtype)
        s["stage"] = -1
        return s

    def current_player(self, s):
        stage = self.check_states(s)["stage"].astype(np.int8)
        return np.where(stage < 0, CHANCE, np.where(stage >= self.num_players, TERMINAL, stage)
                        ).astype(np.int8)

    def legal_mask(self, s):
        return np.repeat((self.current_player(s) >= 0)[:, None], 2, axis=1)

    def chance_probs(self, s):
        return np.where((self.current_player(s) == CHANCE)[:, None], 0.01, 0.0) * np.ones(100)

    def apply_chance(self, s, outcomes):
        assert (self.current_player(s) == CHANCE).all()
        s["u"] = outcomes
        s["stage"] = 0

    def step_inplace(self, s, actions):
        actions = np.asarray(actions)
        mask = self.legal_mask(s)
        if not mask[np.arange(len(s)), actions].all():
            raise ValueError("illegal action in the coin game")
        rewards = np.zeros((len(s), self.num_players), np.float32)
        for i, row in enumerate(s):
            row["choice"][row["stage"]] = actions[i]
            row["stage"] += 1
            if row["stage"] == self.num_players:
                rewards[i] = self.rewards_for(tuple(row["choice"].tolist()), int(row["u"]))
        return rewards

    def rewards_for(self, choices, u):
        """The final rewards for ``choices`` when the percentile is ``u``."""
        buckets = np.cumsum(self.table(choices))
        assert buckets[-1] == 100, "a table row must sum to 100"
        winner = int(np.searchsorted(buckets, u, side="right"))
        if winner == self.num_players:
            return np.zeros(self.num_players)
        rewards = -np.ones(self.num_players)
        rewards[winner] = 1
        return rewards

    def scores(self, s):
        s = self.check_states(s)
        return np.zeros((len(s), self.num_players)) if self.flat_scores else s["choice"] * 1.0

    def to_text(self, row):
        row = self.as_batch(row)[0]
        return f"stage={row['stage']} u={row['u']} choice={row['choice'].tolist()}"

    def action_to_string(self, row, action):
        return str(int(action))

    def string_to_action(self, row, text):
        if text not in ("0", "1"):
            raise ValueError(f"unknown move {text!r}; legal: 0, 1")
        return int(text)


class ConstantAgent:
    """Always chooses ``action``."""

    name = "constant"

    def __init__(self, action=0):
        self.action = action

    def settings(self):
        return {"action": self.action}

    def act(self, game, states, rng):
        return np.full(len(states), self.action, np.int64)


class GambleGame(CoinGame):
    """One decision, then chance: action 0 scores 1 point surely; action 1 scores 3 or 0 with
    even odds (outcomes 0 and 1). ``scores`` is the points won (0 before the draw)."""

    max_chance_outcomes = 2

    def __init__(self):
        super().__init__(lambda c: [100, 0], num_players=1)
        self.state_dtype = np.dtype([("stage", np.int8), ("choice", np.int8), ("points", np.int8)])
        self.max_plies = 1

    def init(self, n, rng=None):
        return np.zeros(n, self.state_dtype)

    def current_player(self, s):
        stage = self.check_states(s)["stage"]
        return np.select([stage == 0, stage == 1], [0, CHANCE], TERMINAL).astype(np.int8)

    def chance_probs(self, s):
        at_chance = self.current_player(s) == CHANCE
        gamble = at_chance & (s["choice"] == 1)
        return np.stack([np.where(gamble, 0.5, at_chance * 1.0), np.where(gamble, 0.5, 0.0)], 1)

    def apply_chance(self, s, outcomes):
        s["points"] = np.where(s["choice"] == 1, np.where(outcomes == 0, 3, 0), 1)
        s["stage"] = 2

    def step_inplace(self, s, actions):
        s["choice"] = actions
        s["stage"] = 1
        return np.zeros((len(s), 1), np.float32)

    def scores(self, s):
        return self.check_states(s)["points"][:, None] * 1.0
