"""The one-ply greedy baseline: the move that leaves the mover furthest ahead on points.

Heuristic: for a state whose player to move is ``p`` and each legal action ``a``, step a copy of
the state with ``a`` and value the result as

    lead = scores[p] - max(scores[q] for q != p)

where ``game.scores`` gives every player's score "if the game ended now" (for one player,
just ``scores[p]``). If the action leads to a chance node (a die, a tile draw), the lead is
averaged over the outcomes with ``game.chance_probs``, for up to ``chance_depth`` chance events
in a row; a state still at a chance node after that is valued as it stands. The agent plays an
action of highest lead, breaking ties uniformly at random. It looks one decision ahead only:
in a compound turn (Zèbres: place, then move Impala) each decision is judged on its own.

All (state, legal action) pairs of a batch are evaluated together: one ``step``, one
``scores`` and a few chance calls per batch, no per-state Python loop. The states given are
checked once (``game.check_states``); those made from them by legal steps and possible chance
outcomes go straight to the game's compiled loops (``game.unchecked``): checking them again at
every call took a quarter of a Banjooli PPO run that trains against this agent.
"""
import numpy as np

from savanna.agents.play.base import check_decisions, random_argmax
from savanna.game import CHANCE


class GreedyAgent:
    """One-ply greedy on the game's score lead (see the module docstring)."""

    name = "greedy"

    def __init__(self, chance_depth: int = 1):
        if not isinstance(chance_depth, (int, np.integer)) or chance_depth < 0:
            raise ValueError(f"chance_depth must be an int >= 0, got {chance_depth!r}")
        self.chance_depth = int(chance_depth)

    def settings(self):
        return {"chance_depth": self.chance_depth}

    def act(self, game, states, rng):
        return random_argmax(self.action_values(game, states), rng)

    def action_values(self, game, states):
        """``float64[n, A]``: the expected lead after each legal action, ``-inf`` if illegal."""
        if not game.has_scores:
            raise ValueError(f"greedy plays on the game's score, and {game.name} has none "
                             "before the end (it declares no scores_one kernel): pick another "
                             "agent")
        states = game.check_states(states)
        api = game.unchecked
        mask = api.legal_mask(states)
        check_decisions(game, states, mask, self.name)
        movers = api.current_player(states)
        pair_state, pair_action = np.nonzero(mask)
        after = states[pair_state]
        api.step_inplace(after, pair_action)
        values = np.full(mask.shape, -np.inf)
        values[pair_state, pair_action] = self._expected_lead(api, after, movers[pair_state])
        return values

    def _expected_lead(self, game, states, movers):
        """The lead of ``movers[i]`` in ``states[i]``, averaged over the next chance events
        (``game``: the game's unchecked calls, ``Game.unchecked``)."""
        owner = np.arange(len(states))
        weight = np.ones(len(states))
        for _ in range(self.chance_depth):
            chance = game.current_player(states) == CHANCE
            if not chance.any():
                break
            at_chance = states[chance]
            probs = game.chance_probs(at_chance)
            rows, outcomes = np.nonzero(probs)
            drawn = at_chance[rows]
            game.apply_chance(drawn, outcomes)
            states = np.concatenate([states[~chance], drawn])
            weight = np.concatenate([weight[~chance], weight[chance][rows] * probs[rows, outcomes]])
            owner = np.concatenate([owner[~chance], owner[chance][rows]])
        scores = np.asarray(game.scores(states), np.float64)
        rows = np.arange(len(states))
        own = scores[rows, movers[owner]]
        if scores.shape[1] > 1:
            scores[rows, movers[owner]] = -np.inf
            own = own - scores.max(axis=1)
        return np.bincount(owner, weights=weight * own, minlength=len(movers))

    def __repr__(self):
        return f"GreedyAgent(chance_depth={self.chance_depth})"

