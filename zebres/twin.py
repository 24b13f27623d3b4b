"""The kernels (ZebresGame) and the pure-Python reference in lockstep: the node comparison
the cross-check tests use, and ``play_lockstep``, the hook of the shared fuzz tests
(conformance/test_fuzz.py).

At every node both sides must agree on the state (``to_text``), the legal action set, the
player to move, the rewards of the step that led there, the 660 observation values from both
seats and the scores. Zèbres has no chance nodes: the reference has no ``CHANCE`` player, so
a kernel chance node would show as a player disagreement.
"""
import numpy as np

from savanna.zebres import notation, reference


def ref_text(state):
    """The notation of a reference state."""
    return notation.format(reference.to_position(state))


def disagreements(game, rows, refs, observe=True, max_reports=5):
    """Compare kernel ``rows`` with reference ``refs`` node by node; a list of what differs."""
    found = []
    mask = game.legal_mask(rows)
    players = game.current_player(rows)
    scores = game.scores(rows)
    obs = [game.observe(rows, p) for p in (0, 1)] if observe else None
    for j, ref in enumerate(refs):
        where = ref_text(ref)
        checks = [
            ("text", game.to_text(rows[j]), where),
            ("legal", np.flatnonzero(mask[j]).tolist(), reference.legal_actions(ref)),
            ("player", int(players[j]), reference.current_player(ref)),
            ("scores", scores[j].tolist(), reference.scores(ref)),
        ]
        for p in (0, 1) if observe else ():
            expected = np.array(reference.observe(ref, p), np.uint8)
            if not np.array_equal(obs[p][j], expected):
                differ = np.flatnonzero(obs[p][j] != expected).tolist()
                checks.append((f"observation of player {p} differs at", differ, []))
        for what, got, expected in checks:
            if got != expected:
                found.append(f"{where}: {what}: kernel {got!r}, reference {expected!r}")
        if len(found) >= max_reports:
            break
    return found


def step_both(game, rows, refs, actions):
    """Apply ``actions`` on both sides; returns new rows, refs and reward disagreements."""
    new_rows, rewards = game.step(rows, np.asarray(actions, np.int64))
    new_refs, found = [], []
    for j, (ref, action) in enumerate(zip(refs, actions)):
        child, expected = reference.step(ref, action)
        new_refs.append(child)
        if rewards[j].tolist() != expected:
            found.append(f"{ref_text(ref)} + {notation.action_name(action)}: rewards: "
                         f"kernel {rewards[j].tolist()}, reference {expected}")
    return new_rows, new_refs, found


def play_lockstep(game, s, plies, rng):
    """From ``s`` (a batch of one state of ``game``, e.g. from ``game.from_text``) play up to
    ``plies`` uniform random decisions drawn from ``rng`` (a ``np.random.Generator``) on the
    kernels and on the reference built from ``game.to_text(s[0])``, asserting that they agree
    at every node. ``s`` is not modified."""
    text = game.to_text(s[0])
    ref = reference.from_position(notation.parse(text, game.board), game.board,
                                  game.first_placer)
    rows, refs = s.copy(), [ref]
    for ply in range(plies + 1):
        found = disagreements(game, rows, refs)
        assert not found, f"{ply} plies after {text}:\n" + "\n".join(found)
        legal = reference.legal_actions(refs[0])
        if not legal or ply == plies:
            return
        rows, refs, found = step_both(game, rows, refs, [int(rng.choice(legal))])
        assert not found, f"{ply + 1} plies after {text}:\n" + "\n".join(found)
