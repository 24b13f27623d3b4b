"""Nim's kernels against its reference, played in lockstep: the conformance suite's
oracle (``savanna check``)."""
from nim_toy import reference


def play_lockstep(game, s, plies, rng):
    """Play ``plies`` random decisions from ``s`` (a batch of one) in both implementations,
    asserting that players, legal actions, observations and rewards agree."""
    s = s.copy()
    pos = game.to_position(s)
    ref = reference.State(pos.heaps, pos.to_move, game.misere)
    for _ in range(plies):
        assert int(game.current_player(s)[0]) == reference.current_player(ref)
        assert game.legal_actions(s) == reference.legal_actions(ref)
        for p in (0, 1):
            assert game.observe(s, p)[0].tolist() == reference.observe(ref, p)
        legal = reference.legal_actions(ref)
        if not legal:
            return
        action = int(rng.choice(legal))
        rewards = game.step_inplace(s, [action])[0].tolist()
        ref, expected = reference.step(ref, action)
        assert rewards == expected, (game.to_text(s), action, rewards, expected)
