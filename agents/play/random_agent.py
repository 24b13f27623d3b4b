"""The uniform random baseline: every legal action equally likely."""
from savanna.agents.play.base import check_decisions, random_argmax


class RandomAgent:
    """Uniform over the legal actions of each state, vectorised over the batch."""

    name = "random"

    def settings(self):
        return {}

    def act(self, game, states, rng):
        mask = game.legal_mask(states)
        check_decisions(game, states, mask, self.name)
        return random_argmax(mask, rng)

    def __repr__(self):
        return "RandomAgent()"
