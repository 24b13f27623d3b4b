"""The Gymnasium environments, checked on every game configuration."""
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

from savanna import reused_arrays
from savanna.env import SavannaEnv
from savanna.vector_env import SavannaVectorEnv


def test_check_env_passes(game):
    for opponent in ("random", None):
        env = SavannaEnv(game, opponent=opponent, render_mode="ansi")
        check_env(env, skip_render_check=True)
        env.reset(seed=0)
        assert isinstance(env.render(), str)


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
    illegal (at once in most games; connect four fills column a first). Returns one, or None
    in a game where every action stays legal to the end (the toy dice race's)."""
    obs, _ = env.reset(seed=1)
    terminated = False
    while obs["action_mask"].all() and not terminated:
        obs, _, terminated, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return None if terminated else int(np.flatnonzero(obs["action_mask"] == 0)[0])


def test_illegal_action_loses_or_raises(game):
    env = SavannaEnv(game, opponent=None)
    bad = _with_an_illegal_action(env)
    if bad is not None:
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


def _random_legal(obs, rng, illegal_share=0.0):
    """A uniform random legal action per game (0 where none), and now and then (a share
    ``illegal_share`` of the games) an action that is not legal there, when there is one."""
    mask = obs["action_mask"].astype(bool)
    actions = np.argmax(mask * rng.random(mask.shape), axis=1)
    wrong = np.argmax(~mask * rng.random(mask.shape), axis=1)
    swap = (rng.random(len(mask)) < illegal_share) & ~mask.all(axis=1)
    return np.where(swap, wrong, actions)


class Alternating:
    """The serial and the parallel step kernels in turn, call by call (what ``Adaptive`` may
    do when it switches): the results must not show which ran."""

    def __init__(self, serial, parallel):
        self.kernels, self.calls = (serial, parallel), 0

    def __call__(self, *args):
        self.calls += 1
        return self.kernels[self.calls % 2](*args)


# (parallel setting, copy, numba threads): every way a step may run
STEP_SETTINGS = [(False, True, None), (True, True, 1), (True, True, 2), ("auto", True, None),
                 ("alternating", True, 2), (True, False, 2), ("auto", False, None)]


def _vector_trace(game, mode, parallel, copy, num_threads, n=16):
    """A digest per step of every output of a seeded run (random legal actions, 2% illegal
    ones), long enough for every game to end at least once (Banjooli's ``max_plies`` is a
    safety bound far above its games' length)."""
    import hashlib

    import numba

    venv = SavannaVectorEnv(game, num_envs=n, autoreset_mode=mode, copy=copy,
                            parallel=False if parallel == "alternating" else parallel)
    if parallel == "alternating":
        d = venv.game.drivers
        venv._kernel = Alternating(d.vector_step_batch, d.vector_step_batch_parallel)
    obs, _ = venv.reset(seed=2)
    rng = np.random.default_rng(1)
    trace, finished = [obs["observation"].tobytes() + obs["action_mask"].tobytes()], 0
    before = numba.get_num_threads()
    numba.set_num_threads(min(num_threads or before, numba.config.NUMBA_NUM_THREADS))
    try:
        for _ in range(min(game.max_plies, 250) + 20):
            digest = hashlib.sha256()
            obs, rewards, terminated, truncated, info = venv.step(
                _random_legal(obs, rng, illegal_share=0.02))
            if not copy:   # the env's own arrays, the same ones every step
                assert np.shares_memory(obs["action_mask"], venv._play.mask)
            else:
                assert not np.shares_memory(obs["action_mask"], venv._play.mask)
            finished += terminated.sum()
            if mode == AutoresetMode.SAME_STEP:
                assert obs["action_mask"].any(axis=1).all()
                assert ("final_obs" in info) == terminated.any()
                if terminated.any():
                    assert (info["_final_obs"] == terminated).all()
                    final = info["final_obs"]
                    assert not final["action_mask"][~terminated].any()
                    digest.update(final["observation"].tobytes())
                    digest.update(final["action_mask"].tobytes())
            for out in (obs["observation"], obs["action_mask"], rewards, terminated, truncated):
                digest.update(out.tobytes())
            trace.append(digest.hexdigest())
    finally:
        numba.set_num_threads(before)
    assert finished >= n
    return trace


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_env_results_do_not_depend_on_threads_or_copy(game, mode):
    """The same run, step for step, serial, on 1 or 2 threads, adaptive, switching kernels
    call by call, and with ``copy=False``."""
    traces = [_vector_trace(game, mode, *setting) for setting in STEP_SETTINGS]
    assert all(trace == traces[0] for trace in traces[1:])


def test_vector_env_copies_a_caller_keeps_never_change(game):
    """``copy=True``: what a caller keeps (the arrays, or only a view of one) stays as it was
    handed out, however many steps follow; what it drops is handed out again (``Handouts``)."""
    venv = SavannaVectorEnv(game, num_envs=8, autoreset_mode=AutoresetMode.SAME_STEP)
    obs, _ = venv.reset(seed=4)
    rng = np.random.default_rng(0)
    kept, addresses = [], set()
    for step in range(60):
        obs, rewards, terminated, _, info = venv.step(_random_legal(obs, rng))
        addresses.add(obs["action_mask"].ctypes.data)
        if step % 7 == 0:
            held = (obs["observation"], obs["action_mask"], rewards, terminated)
            kept.append((held, [a.copy() for a in held]))
        elif step % 7 == 3:
            held = (obs["observation"][1:, 0],)                 # a view keeps its set too
            kept.append((held, [a.copy() for a in held]))
    assert all((a == snapshot).all() for held, snapshots in kept
               for a, snapshot in zip(held, snapshots))
    if reused_arrays.EXACT_COUNTS:                   # (not on a free-threaded build)
        assert len(addresses) <= len(kept) + 2  # the rest were given out again


def test_vector_env_illegal_action_raise_changes_nothing(game):
    venv = SavannaVectorEnv(game, num_envs=8, opponent=None, illegal_action="raise")
    obs, _ = venv.reset(seed=3)
    actions = _random_legal(obs, np.random.default_rng(0))
    actions[5] = game.num_actions       # out of range
    before = venv.states.copy(), venv._play.streams.copy()
    with pytest.raises(ValueError, match="illegal action .* in env 5; legal: "):
        venv.step(actions)
    assert venv.states.tobytes() == before[0].tobytes()
    assert (venv._play.streams == before[1]).all()


def test_vector_env_autoreset_disabled_leaves_a_finished_game_until_reset(game):
    venv = SavannaVectorEnv(game, num_envs=4, autoreset_mode=AutoresetMode.DISABLED)
    obs, _ = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = np.zeros(4, bool)
    while not ended.any():
        obs, rewards, terminated, _, _ = venv.step(_random_legal(obs, rng))
        ended = terminated
    finished = venv.states[ended].copy()
    for _ in range(3):
        obs, rewards, terminated, _, _ = venv.step(_random_legal(obs, rng))
        assert venv.states[ended].tobytes() == finished.tobytes()
        assert not terminated[ended].any() and (rewards[ended] == 0).all()
    obs, _ = venv.reset(options={"reset_mask": ended})
    assert obs["action_mask"][ended].any(axis=1).all()
