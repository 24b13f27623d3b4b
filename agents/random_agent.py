"""The uniform random baseline: every legal action equally likely."""
from savanna_agents.base import random_argmax


class RandomAgent:
    """Uniform over the legal actions of each state, vectorised over the batch."""

    name = "random"

    def settings(self):
        return {}

    def act(self, game, states, rng):
        return random_argmax(game.legal_mask(states), rng)

    def __repr__(self):
        return "RandomAgent()"
