"""The PettingZoo AEC adapter: PettingZoo's own API and seed tests, and agreement with the game."""
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo",
                    reason="PettingZoo is an optional extra: pip install '.[interop]'")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from savanna.game import TERMINAL  # noqa: E402
from savanna.interop.pettingzoo import aec_env  # noqa: E402

# PettingZoo warns about every dict observation ("not a NumPy array", "should be Box"): the
# dict with an action mask is its own recommended layout, so those two warnings are expected.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


def test_api_test_passes(game):
    """Only the expected warnings, and "all zeros" where the game's first observation is
    (a game may start from an empty board and observe nothing else)."""
    first = game.init(1, rng=0)
    expected = EXPECTED_WARNINGS + (("Observation numpy array is all zeros",)
                                    if not all(game.observe(first, p).any()
                                               for p in range(game.num_players)) else ())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env(game), num_cycles=200)
    unexpected = {str(w.message) for w in caught} - {
        str(w.message) for w in caught if str(w.message).startswith(expected)}
    assert not unexpected


def test_seed_test_passes(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: aec_env(game), num_cycles=200)


def test_views_and_rewards_agree_with_the_game(game):
    """At every turn each agent sees ``game.observe`` of the true state from its seat, only the
    agent to move has a mask (the game's), and the rewards are the game's for the same moves."""
    env = aec_env(game)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = {a: 0.0 for a in env.agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        state = env.state_row
        seat = env.possible_agents.index(agent)
        assert game.current_player(state)[0] == seat
        assert (obs["action_mask"] == game.legal_mask(state)[0]).all()
        for other in env.agents:
            view = env.observe(other)
            seat = env.possible_agents.index(other)
            assert (view["observation"] == game.observe(state, seat)[0]).all()
            assert other == agent or not view["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        expected = game.step(state, [action])[1][0]
        env.step(action)
        assert [env.rewards[a] for a in env.possible_agents] == expected.tolist()
    assert game.current_player(env.state_row)[0] == TERMINAL
    if game.zero_sum:
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-5)


def test_illegal_action_raises_and_names_the_legal_ones(game):
    """At the first turn that has an illegal action (none, in a game where every action stays
    legal: then only the type is checked)."""
    env = aec_env(game)
    env.reset(seed=0)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated or not obs["action_mask"].all():
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    if not (terminated or truncated):
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        with pytest.raises(ValueError, match="illegal action .* legal: "):
            env.step(illegal)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="must be an int"):
        env.step("a")


def test_render_ansi_shows_the_state():
    env = aec_env("zebres", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.game.render(env.state_row)
    with pytest.raises(ValueError, match="render_mode"):
        aec_env("zebres", render_mode="human")


def test_render_of_a_game_with_hidden_information_hides_every_seat_s_secrets():
    env = aec_env("banjooli", num_players=3, render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.game.render(env.state_row, public=True)
    assert env.render() != env.game.render(env.state_row)
