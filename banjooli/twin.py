"""Kernel and reference in lockstep: the node comparison shared by the cross-check
(``crosscheck.py``) and ``play_lockstep``, the hook of the shared fuzz tests."""
import numpy as np

from savanna.banjooli import notation
from savanna.banjooli import reference as ref
from savanna.game import CHANCE, TERMINAL


def reference_of(game, row):
    """The reference state of a kernel state row (through the text notation)."""
    return ref.from_position(notation.parse(game.to_text(row)))


def assert_node_agrees(game, row, st, player, mask, probs, obs, scores, round_trip=False):
    """Assert that reference state ``st`` agrees with kernel ``row``, whose current player,
    legal mask, chance probabilities, observations (``{seat: obs}``) and scores are given:
    same text, player, legal actions, probabilities, observations and scores; with
    ``round_trip``, also that the text parses back to the same bytes."""
    text = game.to_text(row)
    if round_trip:
        assert game.from_text(text)[0].tobytes() == row.tobytes(), text
    assert notation.format(ref.to_position(st)) == text
    assert ref.current_player(st) == player, text
    assert ref.legal_actions(st) == np.flatnonzero(mask).tolist(), text
    assert ref.chance_probs(st) == probs.tolist(), text
    for p, o in obs.items():
        assert ref.observe(st, p) == o.tolist(), (text, p)
    assert ref.scores(st) == scores.tolist(), text


def choose(rng, player, mask, probs):
    """A sampled chance outcome or a uniform random legal decision."""
    if player == CHANCE:
        return int(rng.choice(len(probs), p=probs))
    return int(rng.choice(np.flatnonzero(mask)))


def advance_reference(st, player, action, rewards):
    """The reference state after ``action`` (a chance outcome at a chance node), asserting
    that a decision gives the kernel's ``rewards``."""
    if player == CHANCE:
        return ref.apply_chance(st, action)
    st, r = ref.step(st, action)
    assert np.abs(np.array(r) - rewards).max() < 1e-6, notation.format(ref.to_position(st))
    return st


def play_lockstep(game, s, plies, rng) -> None:
    """From ``s`` (a batch of one state of ``game``), play up to ``plies`` plies (a random
    decision or a sampled chance outcome each) on the kernels and, in lockstep, on the
    reference built from ``game.to_text(s[0])``, asserting at every node that they agree
    (``assert_node_agrees``, with the text round trip and every seat's observation). ``s`` is
    left unchanged."""
    s = game.check_states(s).copy()
    if len(s) != 1:
        raise ValueError(f"play_lockstep takes a batch of one state, got {len(s)}")
    st = reference_of(game, s[0])
    for ply in range(plies + 1):
        player = int(game.current_player(s)[0])
        mask = game.legal_mask(s)[0]
        probs = game.chance_probs(s)[0]
        obs = {p: game.observe(s, p)[0] for p in range(game.num_players)}
        assert_node_agrees(game, s[0], st, player, mask, probs, obs, game.scores(s)[0],
                           round_trip=True)
        if player == TERMINAL or ply == plies:
            return
        action = choose(rng, player, mask, probs)
        rewards = None
        if player == CHANCE:
            game.apply_chance(s, [action])
        else:
            rewards = game.step_inplace(s, [action])[0]
        st = advance_reference(st, player, action, rewards)
