"""The Savanna vector env as a stable-baselines3 ``VecEnv`` with action masks.

>>> from sb3_contrib import MaskablePPO
>>> from savanna.interop.sb3 import SB3VecEnv
>>> envs = SB3VecEnv("zebres", num_envs=16)
>>> model = MaskablePPO("MlpPolicy", envs, n_steps=16, n_epochs=1, seed=0).learn(256)
>>> actions, _ = model.predict(envs.reset(), action_masks=envs.action_masks())

A thin adapter over ``savanna.vector_env.SavannaVectorEnv`` (one compiled call per step for all
games); ``action_masks()`` is what ``MaskablePPO`` reads. Its settings: the interop guide.
"""
import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from savanna.vector_env import SavannaVectorEnv

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):
    """``num_envs`` games of ``game`` for stable-baselines3 (the interop guide says how)."""

    def __init__(self, game="zebres", num_envs=64, seat=None, opponent="random", parallel=False,
                 **game_options):
        self.venv = SavannaVectorEnv(game, num_envs=num_envs, seat=seat, opponent=opponent,
                                     autoreset_mode=AutoresetMode.SAME_STEP, parallel=parallel,
                                     **game_options)
        super().__init__(self.venv.num_envs, self.venv.single_observation_space["observation"],
                         self.venv.single_action_space)
        self._actions = None

    @property
    def game(self):
        return self.venv.game

    def reset(self):
        obs, _ = self.venv.reset(seed=self._seeds[0])
        self._reset_seeds()
        self._reset_options()
        return obs["observation"]

    def step_async(self, actions):
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self):
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        dones = terminated | truncated
        infos = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info["final_obs"]["observation"]
            for i in np.flatnonzero(dones):
                infos[i] = {"terminal_observation": final[i],
                            "TimeLimit.truncated": bool(truncated[i] and not terminated[i])}
        return obs["observation"], rewards.astype(np.float32), dones, infos

    def action_masks(self):
        """``bool[num_envs, num_actions]``: the legal actions of every game."""
        return self.venv.action_masks()

    def close(self):
        self.venv.close()

    # The attribute and method hooks below answer for the envs as a whole: one Savanna vector
    # env holds every game, so an attribute is the same for each index, and the only
    # per-game method is ``action_masks`` (what sb3-contrib asks for through ``env_method``).
    def get_attr(self, attr_name, indices=None):
        owner = self if hasattr(self, attr_name) else self.venv
        return [getattr(owner, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name, value, indices=None):
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        if method_name != "action_masks":
            raise AttributeError(f"SB3VecEnv has only one per-game method, action_masks; "
                                 f"got {method_name!r}")
        return list(self.action_masks()[list(self._get_indices(indices))])

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(list(self._get_indices(indices)))

    def get_images(self):
        return [self.venv.game.render_rgb(s) for s in self.venv.states]
