"""Connect four's kernels against its pure-Python reference, node by node (also the twin that
the fuzz suite, savanna/conformance/fuzz.py, plays accepted inputs against)."""
import numpy as np

from savanna.benchmarks.connect_four import reference


def disagreement(game, row, ref):
    """What differs between one kernel state and one reference state, or None."""
    s = game.as_batch(row)
    checks = [
        ("board", game.to_position(s), reference.to_position(ref)),
        ("player", int(game.current_player(s)[0]), reference.current_player(ref)),
        ("legal", game.legal_actions(s), reference.legal_actions(ref)),
    ]
    checks += [(f"observation of {p}", game.observe(s, p)[0].reshape(-1).tolist(),
                reference.observe(ref, p)) for p in (0, 1)]
    for what, got, expected in checks:
        if got != expected:
            return f"{game.to_text(s)}: {what}: kernel {got!r}, reference {expected!r}"
    return None


def play_lockstep(game, s, plies, rng):
    """Play ``plies`` random decisions from ``s`` (a batch of one) in both implementations,
    asserting that states, players, legal actions, observations and rewards agree."""
    s = s.copy()
    ref = reference.from_position(game.to_position(s))
    for _ in range(plies):
        problem = disagreement(game, s, ref)
        assert problem is None, problem
        legal = reference.legal_actions(ref)
        if not legal:
            return
        action = int(rng.choice(legal))
        rewards = game.step_inplace(s, [action])[0].tolist()
        ref, expected = reference.step(ref, action)
        assert rewards == expected, (game.to_text(s), action, rewards, expected)
    problem = disagreement(game, s, ref)
    assert problem is None, problem


def random_positions(game, n, seed):
    """``n`` states from every stage of seeded random games (starts and ends included)."""
    rng = np.random.default_rng(seed)
    s = game.init(n, rng=seed)
    stop = rng.integers(0, game.max_plies + 1, n)
    for ply in range(game.max_plies):
        going = np.flatnonzero((game.current_player(s) >= 0) & (stop > ply))
        if not len(going):
            break
        sub = s[going]
        mask = game.legal_mask(sub)
        game.step_inplace(sub, [rng.choice(np.flatnonzero(m)) for m in mask])
        s[going] = sub
    return s
