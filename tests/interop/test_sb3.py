"""The stable-baselines3 VecEnv adapter: sb3's VecEnv contract and MaskablePPO on every game."""
import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="stable-baselines3 is an optional extra: "
                    "pip install '.[interop]'")
pytest.importorskip("sb3_contrib", reason="sb3-contrib is an optional extra: "
                    "pip install '.[interop]'")
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv, VecMonitor  # noqa: E402

from savanna.interop.sb3 import SB3VecEnv  # noqa: E402

GAMES = [("zebres", {}), ("bonobo", {"num_players": 3}), ("banjooli", {"num_players": 2})]


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Tiny networks on a shared machine: more threads only wait for each other."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def random_masked_actions(masks, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("name,options", GAMES, ids=[g[0] for g in GAMES])
def test_vecenv_contract_with_autoreset(name, options):
    """Shapes and dtypes of sb3's API; a finished game reports its terminal observation and
    the env has already started the next one (a fresh game with legal moves)."""
    envs = SB3VecEnv(name, num_envs=8, parallel=False, **options)
    assert isinstance(envs, VecEnv) and is_masking_supported(envs)
    envs.seed(3)
    obs = envs.reset()
    assert obs.shape == (8, *envs.game.obs_shape) and obs.dtype == np.uint8
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        masks = get_action_masks(envs)
        assert masks.dtype == bool and masks.any(axis=1).all()
        assert np.array_equal(masks, envs.action_masks())
        obs, rewards, dones, infos = envs.step(random_masked_actions(masks, rng))
        assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 8
        assert not rewards[~dones].any()  # Savanna games reward at the end only
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == envs.game.obs_shape
            assert infos[i]["TimeLimit.truncated"] is False
            assert -1.0 <= rewards[i] <= 1.0
        finished += int(dones.sum())
    assert finished > 0


def test_same_seed_same_games():
    def trace(seed):
        envs = SB3VecEnv("bonobo", num_envs=4, parallel=False, num_players=2)
        envs.seed(seed)
        obs, rng, out = envs.reset(), np.random.default_rng(0), []
        for _ in range(50):
            obs, rewards, dones, _ = envs.step(random_masked_actions(envs.action_masks(), rng))
            out.append((obs.tobytes(), rewards.tobytes(), dones.tobytes()))
        return out

    assert trace(1) == trace(1)


@pytest.mark.parametrize("name,options", GAMES, ids=[g[0] for g in GAMES])
def test_maskable_ppo_trains_and_predicts_legal_moves(name, options):
    envs = SB3VecEnv(name, num_envs=8, parallel=False, **options)
    model = MaskablePPO("MlpPolicy", VecMonitor(envs), n_steps=16, batch_size=64, n_epochs=1,
                        policy_kwargs={"net_arch": [32]}, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    obs = envs.reset()
    actions, _ = model.predict(obs, action_masks=envs.action_masks())
    assert envs.action_masks()[np.arange(8), actions].all()


def test_only_action_masks_is_a_per_game_method():
    envs = SB3VecEnv("zebres", num_envs=3, parallel=False)
    envs.reset()
    assert len(envs.env_method("action_masks", indices=[0, 2])) == 2
    assert envs.get_attr("render_mode") == [None] * 3
    with pytest.raises(AttributeError, match="action_masks"):
        envs.env_method("render")
