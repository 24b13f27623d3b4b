"""The Gymnasium environments, checked on every game configuration."""
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import savanna
from savanna.env import SavannaEnv
from savanna.vector_env import SavannaVectorEnv


def test_check_env_passes(game):
    for opponent in ("random", None):
        env = SavannaEnv(game, opponent=opponent, render_mode="ansi")
        check_env(env, skip_render_check=True)
        env.reset(seed=0)
        assert isinstance(env.render(), str)


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


def _play_episodes(env, seed, episodes):
    """Seeded episodes with the first legal action; the trajectory of rewards and masks."""
    trace = []
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        done = False
        while not done:
            assert env.action_masks().any()
            action = int(np.flatnonzero(env.action_masks())[-1])
            obs, reward, done, truncated, info = env.step(action)
            assert isinstance(reward, float) and isinstance(done, bool)
            trace.append((reward, obs["action_mask"].tobytes(), obs["observation"].tobytes()))
        obs, info = env.reset()
    return trace


def test_single_env_is_seeded_and_ends_with_a_result(game):
    a = _play_episodes(SavannaEnv(game), 3, 3)
    b = _play_episodes(SavannaEnv(game), 3, 3)
    assert a == b


def _with_an_illegal_action(env):
    """Reset ``env`` (self-play) and play the lowest legal action until some action is
    illegal (at once in most games; connect four fills column a first). Returns one."""
    obs, _ = env.reset(seed=1)
    while obs["action_mask"].all():
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return int(np.flatnonzero(obs["action_mask"] == 0)[0])


def test_illegal_action_loses_or_raises(game):
    env = SavannaEnv(game, opponent=None)
    bad = _with_an_illegal_action(env)
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(bad)
    env = SavannaEnv(game, opponent=None, illegal_action="raise")
    bad = _with_an_illegal_action(env)
    with pytest.raises(ValueError, match="illegal action"):
        env.step(bad)
    with pytest.raises(ValueError, match="illegal_action must be"):
        SavannaEnv(game, illegal_action="ignore")
    with pytest.raises(ValueError, match="seat must be"):
        SavannaEnv(game, seat=game.num_players)
    with pytest.raises(ValueError, match="unknown opponent"):
        SavannaEnv(game, opponent="minimax")


def test_vector_env_equals_single_envs(game):
    """A vector env of n games steps exactly like n single envs built on the same streams."""
    n = 5
    venv = SavannaVectorEnv(game, num_envs=n, seat=0, parallel=False)
    obs, _ = venv.reset(seed=4)
    singles = []
    for i in range(n):
        env = SavannaEnv(game, seat=0)
        env.reset(seed=0)
        env._play.states[:] = venv.states[i : i + 1]
        env._play.streams[:] = venv._play.streams[i : i + 1]
        env._play.obs[:] = venv._play.obs[i : i + 1]
        env._play.mask[:] = venv._play.mask[i : i + 1]
        singles.append(env)
    rng = np.random.default_rng(0)
    for _ in range(40):
        mask = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        obs, rewards, terminated, _, _ = venv.step(actions)
        for i, env in enumerate(singles):
            if env._over:
                continue
            o, r, t, _, _ = env.step(int(actions[i]))
            assert (r, t) == (rewards[i], terminated[i])
            np.testing.assert_array_equal(o["observation"], obs["observation"][i])
            np.testing.assert_array_equal(o["action_mask"], obs["action_mask"][i])


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_env_autoreset_and_parallel_equals_serial(game, mode):
    runs = []
    for parallel in (False, True):
        venv = SavannaVectorEnv(game, num_envs=16, autoreset_mode=mode, parallel=parallel)
        obs, _ = venv.reset(seed=2)
        rng = np.random.default_rng(1)
        finished, trace = 0, []
        for _ in range(game.max_plies + 20):
            mask = obs["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
            obs, rewards, terminated, truncated, info = venv.step(actions)
            finished += terminated.sum()
            if mode == AutoresetMode.SAME_STEP:
                assert obs["action_mask"].any(axis=1).all()
                if terminated.any():
                    assert (info["_final_obs"] == terminated).all()
            trace.append((obs["observation"].tobytes(), rewards.tobytes(), terminated.tobytes()))
        assert finished >= 16
        runs.append(trace)
    assert runs[0] == runs[1]


def test_vector_env_external_opponent_called_once_per_round(game):
    calls = []

    def first_legal(obs, mask):
        calls.append(len(mask))
        return mask.argmax(axis=1)

    venv = SavannaVectorEnv(game, num_envs=32, opponent=first_legal, seat=0)
    obs, _ = venv.reset(seed=0)
    for _ in range(10):
        obs, *_ = venv.step(obs["action_mask"].argmax(axis=1))
    assert calls and max(calls) <= 32
    assert len(calls) < 10 * 32 / 2  # batched: far fewer calls than games × steps


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
    (lambda: SavannaVectorEnv("zebres", 2, parallel="yes"), "parallel must be True or False"),
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
