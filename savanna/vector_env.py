"""Many games stepped in one compiled call: Gymnasium's VectorEnv for every Savanna game.

>>> import gymnasium, savanna
>>> envs = gymnasium.make_vec("savanna/Zebres-v0", num_envs=4096)
>>> obs, info = envs.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((4096, 660), (4096, 206))

Random opponents and chance nodes are played inside the same compiled call as the learner's
move; an external opponent is called once per round for all waiting games. Gymnasium's
``NEXT_STEP``, ``SAME_STEP`` and ``DISABLED`` autoreset modes (the envs guide says how each
behaves).
"""
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from savanna import threads
from savanna._drivers import (
    BEGIN,
    DISABLED,
    END,
    NEXT_STEP,
    SAME_STEP,
    WHOLE,
)
from savanna.batch_play import BatchPlay
from savanna.codes import OPPONENT_EXTERNAL
from savanna.env import (
    RENDER_MODES,
    bound_class,
    check_options,
    check_settings,
    game_spaces,
)
from savanna.errors import clip
from savanna.registry import resolve_game
from savanna.reused_arrays import Handouts

__all__ = ["SavannaVectorEnv"]  # and a class per registered game (module __getattr__)

AUTORESET_CODES = {AutoresetMode.NEXT_STEP: NEXT_STEP, AutoresetMode.SAME_STEP: SAME_STEP,
                   AutoresetMode.DISABLED: DISABLED}


class SavannaVectorEnv(VectorEnv):
    """``num_envs`` games of one Savanna game, the learner in one seat of each.

    A step is one compiled call: the actions checked, the learner's moves, the opponents'
    replies and chance, rewards, terminal flags, autoreset and the observation and mask rows
    (``savanna._drivers.vector_step_batch``). ``parallel="auto"`` (the default) spreads it
    over numba's threads where that is faster at this batch size under the load now
    (``savanna.threads``); ``True`` or ``False`` force either. ``copy=False`` (Gymnasium's
    ``SyncVectorEnv(copy=...)``) hands out the env's own arrays, overwritten by the next step,
    instead of fresh ones.
    """

    metadata = {"render_modes": list(RENDER_MODES), "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game="zebres", num_envs=64, seat=None, opponent="random",
                 illegal_action="lose", autoreset_mode=AutoresetMode.NEXT_STEP, parallel="auto",
                 copy=True, render_mode=None, **game_options):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {clip(num_envs)}")
        if not isinstance(copy, (bool, np.bool_)):
            raise ValueError(f"copy must be True or False, got {clip(copy)}")
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(f"autoreset_mode must be an AutoresetMode or one of "
                             f"{[m.value for m in AutoresetMode]}, got {clip(autoreset_mode)}"
                             ) from None
        self.game = resolve_game(game, game_options)
        self.illegal_action, self.render_mode = check_settings(illegal_action, render_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = n = int(num_envs)
        self.copy = bool(copy)
        self.single_observation_space, self.single_action_space = game_spaces(self.game)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        d = self.game.drivers
        self._kernel = threads.kernel_for(parallel, d.vector_step_batch,
                                          d.vector_step_batch_parallel)
        self._play = play = BatchPlay(self.game, n, seat, opponent, parallel=parallel)
        self._autoreset = AUTORESET_CODES[self.autoreset_mode]
        self._external = play.mode == OPPONENT_EXTERNAL
        self._done = np.zeros(n, np.bool_)
        self._fate = np.zeros(n, np.int8)
        self._all = np.ones(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)   # never set: no game is cut short
        finals = n if self.autoreset_mode == AutoresetMode.SAME_STEP else 0
        self._buffers = (np.zeros(n, np.float32), np.zeros(n, np.bool_), play.obs, play.mask,
                         np.zeros((finals, play.obs.shape[1]), np.uint8),
                         np.zeros((finals, play.mask.shape[1]), np.int8),
                         np.zeros(n, np.bool_))   # was_final: SAME_STEP's rows last step
        self._handouts = Handouts(self._buffers[:4])   # copy=True's rewards ... mask

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
        play = self._play
        if not self.copy:
            return self._observation(play.obs, play.mask), {}
        return self._observation(play.obs.copy(), play.mask.copy()), {}

    def step(self, actions: np.ndarray) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray,
                                                dict]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers, got {actions.dtype} "
                             f"array of shape {actions.shape}")
        actions = np.ascontiguousarray(actions, np.int64)   # one compiled signature
        out = self._outputs()
        play = self._play
        external = self._external
        bad, ended = self._run(actions, BEGIN if external else WHOLE,
                               self.illegal_action == "raise", self.copy and not external, out)
        if bad >= 0:
            play.refuse_illegal(actions, ~self._done, "raise")  # raises: names it
        if external:  # the opponents' turns are served in Python, between the two parts
            play.serve_opponents()
            _, ended = self._run(actions, END, False, False, out)
            play.serve_opponents()  # SAME_STEP's new games may start with the opponent's turn
            if self.copy:
                out[2][...], out[3][...] = play.obs, play.mask
        rewards, terminated, obs, mask, final_obs, final_mask, was_final = out
        info = {}
        if ended and self.autoreset_mode == AutoresetMode.SAME_STEP:
            info = {"final_obs": self._observation(final_obs, final_mask),
                    "_final_obs": was_final.copy() if self.copy else was_final}
        truncated = np.zeros(self.num_envs, np.bool_) if self.copy else self._truncated
        return self._observation(obs, mask), rewards, terminated, truncated, info

    def _run(self, actions, part, refuse, copy, out):
        """One call of the step kernel: ``(first illegal game or -1, games ended)``."""
        play = self._play
        return self._kernel(play.states, actions, part, self._autoreset, refuse, copy,
                            play.base, play.seats, play.fixed_seat, play.streams,
                            play.mode, play.gained, play.waiting, play.obs, play.mask,
                            play.players, self._done, self._fate, out)

    def _outputs(self):
        """What the step kernel writes: ``(rewards, terminated, obs, mask, final_obs,
        final_mask, was_final)``, the env's own arrays (``copy=False``) or ones that nothing
        outside holds (``Handouts``)."""
        if not self.copy:
            return self._buffers
        final_obs, final_mask, was_final = self._buffers[4:]
        if len(final_obs):
            final_obs, final_mask = np.zeros_like(final_obs), np.zeros_like(final_mask)
        return (*self._handouts.take(), final_obs, final_mask, was_final)

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, num_actions]`` (sb3-contrib's convention)."""
        return self._play.mask.astype(bool)

    def _observation(self, obs, mask):
        return {"observation": obs.reshape((len(obs), *self.game.obs_shape)),
                "action_mask": mask}

    def render(self) -> tuple | None:
        """The first env's picture (``render_mode`` "ansi" or "rgb_array"), as its learner's
        seat sees it (in a game with hidden information the others' secrets stay hidden)."""
        player = None if self.game.perfect_information else int(self._play.seats[0])
        if self.render_mode == "ansi":
            return self.game.render(self._play.states[0], player)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self._play.states[0], player)
        return None


def warmup(game):
    """Compile ``game``'s env loops (``BatchPlay``'s and the vector env's step, serial and
    parallel) now; numba caches them."""
    for parallel in (False, True):
        play = BatchPlay(game, 2, parallel=parallel)
        play.reset()
        play.step(np.array([np.flatnonzero(m)[0] for m in play.mask]), np.ones(2, np.bool_))
        envs = SavannaVectorEnv(game, 2, parallel=parallel)
        envs.reset(seed=0)
        envs.step(envs.action_masks().argmax(axis=1))


def __getattr__(attr):
    """``ZebresVectorEnv``, ...: ``SavannaVectorEnv`` bound to each registered game."""
    return bound_class(SavannaVectorEnv, attr)
