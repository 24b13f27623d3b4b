"""Kuhn poker's kernels against its reference, played in lockstep (the fuzz suite's twin of
kuhn_toy: copied to tests/kuhn_toy/twin.py beside the game)."""
from kuhn_toy import reference

from savanna.codes import CHANCE


def play_lockstep(game, s, plies, rng):
    """Play ``plies`` random decisions and deals from ``s`` (a batch of one) in both
    implementations, asserting that players, legal actions, observations, chance outcomes and
    rewards agree."""
    s = s.copy()
    ref = reference.from_position(game.to_position(s))
    for _ in range(plies):
        player = reference.current_player(ref)
        assert int(game.current_player(s)[0]) == player
        assert game.legal_actions(s) == reference.legal_actions(ref)
        for p in range(game.num_players):
            assert game.observe(s, p)[0].tolist() == reference.observe(ref, p)
        if player == CHANCE:
            outcomes = reference.chance_outcomes(ref)
            probs = game.chance_probs(s)[0]
            assert {int(c): float(probs[c]) for c in probs.nonzero()[0]} == outcomes
            outcome = int(rng.choice(list(outcomes)))
            game.apply_chance(s, [outcome])
            ref = reference.apply_chance(ref, outcome)
            continue
        legal = reference.legal_actions(ref)
        if not legal:
            return
        action = int(rng.choice(legal))
        rewards = game.step_inplace(s, [action])[0].tolist()
        ref, expected = reference.step(ref, action)
        assert rewards == expected, (game.to_text(s), action, rewards, expected)
