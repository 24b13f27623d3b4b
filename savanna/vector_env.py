"""Many games stepped in one compiled call: Gymnasium's VectorEnv for every Savanna game.

>>> import gymnasium, savanna
>>> envs = gymnasium.make_vec("savanna/Zebres-v0", num_envs=4096)
>>> obs, info = envs.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((4096, 660), (4096, 206))

Random opponents and chance nodes are played inside the same compiled call as the learner's
move; an external opponent (callable or agent) is called once per round for all waiting games.
Autoreset follows Gymnasium's modes: ``NEXT_STEP`` (default: the step after an episode ends
resets that game and ignores its action), ``SAME_STEP`` (reset at once; the last observation is
in ``info["final_obs"]`` where ``info["_final_obs"]``) and ``DISABLED`` (reset with
``options={"reset_mask": mask}``).
"""
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from savanna.batch_play import BatchPlay
from savanna.env import (
    RENDER_MODES,
    bind,
    check_options,
    check_settings,
    game_spaces,
)
from savanna.errors import clip
from savanna.registry import resolve_game


class SavannaVectorEnv(VectorEnv):
    """``num_envs`` games of one Savanna game, the learner in one seat of each.

    ``parallel=True`` may spread each step over numba's threads: worth it for thousands of
    games on an idle machine, and chosen call by call (``savanna.threads``), so a busy
    neighbour process makes it fall back to the serial step instead of stalling.
    """

    metadata = {"render_modes": list(RENDER_MODES), "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game="zebres", num_envs=64, seat=None, opponent="random",
                 illegal_action="lose", autoreset_mode=AutoresetMode.NEXT_STEP, parallel=False,
                 render_mode=None, **game_options):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {clip(num_envs)}")
        if not isinstance(parallel, (bool, np.bool_)):
            raise ValueError(f"parallel must be True or False, got {clip(parallel)}")
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(f"autoreset_mode must be an AutoresetMode or one of "
                             f"{[m.value for m in AutoresetMode]}, got {clip(autoreset_mode)}"
                             ) from None
        self.game = resolve_game(game, game_options)
        self.illegal_action, self.render_mode = check_settings(illegal_action, render_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = int(num_envs)
        self.single_observation_space, self.single_action_space = game_spaces(self.game)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._play = BatchPlay(self.game, self.num_envs, seat, opponent, parallel=parallel)
        self._done = np.zeros(self.num_envs, np.bool_)
        self._all = np.ones(self.num_envs, np.bool_)

    @property
    def states(self) -> np.ndarray:
        """The batch of game states (the game's structured dtype), one per env."""
        return self._play.states

    @property
    def seats(self) -> np.ndarray:
        return self._play.seats.copy()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        which = check_options(options, ("reset_mask",)).get("reset_mask")
        if which is None:
            which = self._all
        else:
            which = np.asarray(which)
            if which.dtype != np.bool_ or which.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must be a bool array of shape ({self.num_envs},), "
                                 f"got a {which.dtype} array of shape {which.shape}")
        super().reset(seed=seed)
        if seed is not None or not hasattr(self, "_seeded"):
            self._play.seed(self.np_random)
            self._seeded = True
        self._play.reset(which)
        self._done[which] = False
        return self._observation(), {}

    def step(self, actions: np.ndarray) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray,
                                                dict]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers, got {actions.dtype} "
                             f"array of shape {actions.shape}")
        play = self._play
        resetting = self._done.copy() if self.autoreset_mode == AutoresetMode.NEXT_STEP else None
        acting = ~self._done
        illegal = play.refuse_illegal(actions, acting, self.illegal_action)
        acting &= ~illegal
        play.step(actions.astype(np.int64), acting)
        rewards = play.rewards()
        rewards[illegal] = -1.0
        terminated = (play.terminal() & acting) | illegal
        info = {}
        if resetting is not None and resetting.any():
            play.reset(resetting)
            rewards[resetting] = 0.0
        self._done = terminated.copy()
        if self.autoreset_mode == AutoresetMode.SAME_STEP and terminated.any():
            info = {"final_obs": self._observation(), "_final_obs": terminated.copy()}
            play.reset(terminated)
            self._done[:] = False
        truncated = np.zeros(self.num_envs, np.bool_)
        return self._observation(), rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, num_actions]`` (sb3-contrib's convention)."""
        return self._play.mask.astype(bool)

    def _observation(self):
        return {"observation": self._play.obs.reshape((self.num_envs, *self.game.obs_shape)).copy(),
                "action_mask": self._play.mask.copy()}

    def render(self) -> tuple | None:
        """The first env's picture (``render_mode`` "ansi" or "rgb_array")."""
        if self.render_mode == "ansi":
            return self.game.render(self._play.states[0])
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self._play.states[0])
        return None


ZebresVectorEnv = bind(SavannaVectorEnv, "zebres")
BonoboVectorEnv = bind(SavannaVectorEnv, "bonobo")
BanjooliVectorEnv = bind(SavannaVectorEnv, "banjooli")
