"""The Gymnasium environments' own settings and the project's ids and classes; the envs on
every game are the conformance suite's (conformance/test_envs.py)."""
import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import savanna
from savanna.conformance.test_envs import STEP_SETTINGS, _random_legal, _vector_trace
from savanna.env import SavannaEnv
from savanna.vector_env import SavannaVectorEnv


def test_registered_ids_make_envs():
    for name, env_id in savanna.ENV_IDS.items():
        try:
            savanna.registry.game_class(name)
        except ValueError:
            continue
        env = gymnasium.make(env_id)
        obs, info = env.reset(seed=0)
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
        envs = gymnasium.make_vec(env_id, num_envs=3)
        assert isinstance(envs.unwrapped, SavannaVectorEnv)
        obs, info = envs.reset(seed=0)
        assert obs["observation"].shape[0] == 3


def test_bound_classes():
    from savanna.env import ZebresEnv
    from savanna.vector_env import ZebresVectorEnv

    env = ZebresEnv(board="president", seat=1)
    assert env.game.name == "zebres" and env.game.board == "president"
    obs, info = env.reset(seed=0)
    assert info["seat"] == 1
    envs = ZebresVectorEnv(num_envs=2)
    assert envs.reset(seed=0)[0]["observation"].shape == (2, *env.game.obs_shape)


def test_vector_env_results_do_not_depend_on_threads_banjooli_4_players():
    """The one player count of Banjooli that the conformance configurations leave out."""
    game = savanna.registry.make_game("banjooli", num_players=4)
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        traces = [_vector_trace(game, mode, *setting) for setting in STEP_SETTINGS[::3]]
        assert all(trace == traces[0] for trace in traces[1:])


def _python_calls(venv, obs, rng):
    """How many Python-level and C-level function calls one ``venv.step`` makes."""
    import sys

    actions = _random_legal(obs, rng)
    calls = [0]

    def count(frame, event, arg):
        if event in ("call", "c_call"):
            calls[0] += 1

    sys.setprofile(count)
    try:
        obs = venv.step(actions)[0]
    finally:
        sys.setprofile(None)
    return calls[0], obs


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("opponent", ["random", None])
def test_vector_env_step_does_the_same_python_work_at_any_size(opponent, parallel):
    """No per-game Python in a step: 1024 games make the same function calls as 8 (whose
    steps are of two kinds, with and without a game ending: SAME_STEP's final observations)."""
    counts = {}
    for n in (8, 1024):
        venv = SavannaVectorEnv("zebres", num_envs=n, opponent=opponent, parallel=parallel,
                                autoreset_mode=AutoresetMode.SAME_STEP)
        obs, _ = venv.reset(seed=0)
        rng = np.random.default_rng(0)
        for _ in range(2):   # the kernel's first call loads it; the second set of handouts
            obs = venv.step(_random_legal(obs, rng))[0]
        counts[n] = set()
        for _ in range(150):
            calls, obs = _python_calls(venv, obs, rng)
            counts[n].add(calls)
    assert len(counts[8]) == 2 and counts[1024] <= counts[8]


# ----- bad arguments: one-line ValueErrors, and nothing runs before the check ----------------
def _one_line_value_error(make, message):
    with pytest.raises(ValueError, match=message) as err:
        make()
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("make, message", [
    (lambda: SavannaEnv("zebres", bogus=1),
     r"unknown setting \['bogus'\]: not a zebres option \(board, first_placer\)"),
    (lambda: gymnasium.make("savanna/Zebres-v0", bogus=1), r"unknown setting \['bogus'\]"),
    (lambda: SavannaVectorEnv("zebres", 2, bogus=1), r"unknown setting \['bogus'\]"),
    (lambda: SavannaEnv("zebres", render_mode="bogus"), "render_mode must be one of"),
    (lambda: SavannaVectorEnv("zebres", 2, render_mode="bogus"), "render_mode must be one of"),
    (lambda: SavannaEnv("zebres", illegal_action=["lose"]), "illegal_action must be one of"),
    (lambda: SavannaEnv("zebres", seat=True), "seat must be None or an int"),
    (lambda: SavannaEnv("zebres", seat=0.0), "seat must be None or an int"),
    (lambda: SavannaEnv("zebres", opponent=3), "opponent must be 'random'"),
    (lambda: SavannaVectorEnv("zebres", True), "num_envs must be a positive int"),
    (lambda: SavannaVectorEnv("zebres", 2.0), "num_envs must be a positive int"),
    (lambda: SavannaVectorEnv("zebres", 2, parallel="yes"),
     "parallel must be 'auto', True or False"),
    (lambda: SavannaVectorEnv("zebres", 2, copy="no"), "copy must be True or False"),
    (lambda: SavannaVectorEnv("zebres", 2, autoreset_mode="bogus"), "autoreset_mode must be"),
    (lambda: SavannaEnv("zebres").reset(options={"bogus": 1}), r"unknown reset options"),
    (lambda: SavannaVectorEnv("zebres", 2).reset(options=[1]), "reset options must be a dict"),
])
def test_bad_env_settings_are_one_line_value_errors(make, message):
    _one_line_value_error(make, message)


def test_a_bool_is_not_an_action():
    env = SavannaEnv("zebres", seat=0)
    env.reset(seed=0)
    _one_line_value_error(lambda: env.step(True), "action must be an int")


@pytest.mark.parametrize("mask", [np.zeros(1, bool), np.bool_(True), np.ones(64, np.int64),
                                  np.ones((64, 1), bool)])
def test_a_bad_reset_mask_is_refused_before_any_game_resets(mask):
    envs = SavannaVectorEnv("zebres", 64, autoreset_mode=AutoresetMode.DISABLED)
    envs.reset(seed=0)
    envs.step(envs.action_masks().argmax(axis=1))
    before = envs.states.copy()
    _one_line_value_error(lambda: envs.reset(options={"reset_mask": mask}),
                          r"reset_mask must be a bool array of shape \(64,\)")
    assert envs.states.tobytes() == before.tobytes()
    which = np.zeros(64, bool)
    which[:3] = True
    envs.reset(options={"reset_mask": which})
    assert envs.states[3:].tobytes() == before[3:].tobytes()


def test_an_opponent_returning_float_actions_is_refused_not_truncated():
    def fractional(obs, mask):
        return mask.argmax(axis=1) + 0.7

    env = SavannaEnv("zebres", seat=1, opponent=fractional)
    _one_line_value_error(lambda: env.reset(seed=0),
                          "the opponent must return 1 integer actions .* float64 array")
