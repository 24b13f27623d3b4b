"""Accepted states are closed under legal moves, on every game configuration (issue #21).

A state the API accepts -- a position parsed from a real or mutated text, a real state of random
play, or one of these with one field pushed to the edge of what ``check_states`` accepts (where
bounds like Bonobo's score live) -- is played on with random legal decisions and chance
outcomes, and every state reached must be accepted by every call: ``check_states``,
``current_player``, ``legal_mask`` (non-empty exactly at decision nodes), ``chance_probs``
(summing to 1 at chance nodes), ``observe`` from every seat, ``scores``, and the text notation
(``to_text`` then ``from_text`` gives the same bytes). Bonobo's ``score=908`` on a board with
points still to score failed it: ``step`` made a state that every call refused.
"""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from savanna.conformance import fuzz
from savanna.game import CHANCE, TERMINAL

PLIES = 100  # at most, decisions and chance outcomes played from each accepted state


def _accepted(game, s):
    try:
        game.check_states(s)
    except ValueError:
        return False
    return True


def pushed_to_the_edge(game, s, field, element, up):
    """``s`` (a batch of one) with one element of one integer field moved from its value as
    far toward the dtype's maximum (``up``) or minimum as ``check_states`` still accepts: a
    bisection between the accepted value and the extreme, so the result is accepted and a
    value one step further is not (or the extreme itself is accepted)."""
    flat = s[field].reshape(-1)  # a view of the field
    base = flat.dtype
    if not np.issubdtype(base, np.integer):
        return s
    k = element % flat.size
    lo = int(flat[k])
    hi = int(np.iinfo(base).max if up else np.iinfo(base).min)

    def accepts(value):
        flat[k] = np.array(value).astype(base)
        return _accepted(game, s)

    if not accepts(hi):
        while abs(hi - lo) > 1:
            mid = (lo + hi) // 2
            if accepts(mid):
                lo = mid
            else:
                hi = mid
        accepts(lo)
    return s


def assert_every_call_accepts(game, s):
    """Every API call that reads a state takes ``s`` (a batch of one), consistently."""
    game.check_states(s)
    player = game.current_player(s)[0]
    mask = game.legal_mask(s)[0]
    assert mask.any() == (player >= 0), (player, game.to_text(s[0]))
    probs = game.chance_probs(s)[0]
    assert (abs(probs.sum() - 1) < 1e-9) if player == CHANCE else not probs.any()
    for seat in range(game.num_players):
        game.observe(s, seat)
    if game.has_scores:
        game.scores(s)
    text = game.to_text(s[0])
    assert game.from_text(text)[0].tobytes() == s[0].tobytes(), text


def play_on(game, s, rng):
    """Random legal moves from the accepted state ``s``, checking every state reached."""
    for _ in range(PLIES):
        assert_every_call_accepts(game, s)
        player = game.current_player(s)[0]
        if player == TERMINAL:
            return
        if player == CHANCE:
            s = s.copy()
            game.apply_chance(s, game.sample_chance(s, rng))
        else:
            s, _ = game.step(s, [rng.choice(np.flatnonzero(game.legal_mask(s)[0]))])


def test_every_state_reached_from_an_accepted_state_is_accepted(config):
    name, options = config
    key = tuple(options.items())
    game = fuzz.make(name, dict(key))
    rows = fuzz.sample_states(name, key)
    fields = list(game.state_dtype.names)
    start = st.one_of(st.tuples(st.just("row"), st.integers(0, len(rows) - 1)),
                      st.tuples(st.just("text"), fuzz.mutated(fuzz.sample_texts(name, key))))
    edges = st.lists(st.tuples(st.sampled_from(fields), st.integers(0, 10_000), st.booleans()),
                     max_size=4)

    @fuzz.property_settings()
    @given(start, edges, st.integers(0, 2**32 - 1))
    def property_(source, pushes, seed):
        kind, what = source
        if kind == "row":
            s = rows[what : what + 1].copy()
        else:
            try:
                s = game.from_text(what)
            except ValueError:
                return
        for push in pushes:
            s = pushed_to_the_edge(game, s, *push)
        play_on(game, s, np.random.default_rng(seed))

    property_()
