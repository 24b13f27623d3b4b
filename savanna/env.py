"""A Savanna game as a single-agent Gymnasium environment with action masking.

>>> import gymnasium, savanna
>>> env = gymnasium.make("savanna/Zebres-v0")            # random opponent, random seat
>>> obs, info = env.reset(seed=0)
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

The observation is a dict of the player-relative ``"observation"`` and an ``int8``
``"action_mask"``; ``action_masks()`` returns a bool copy. ``opponent`` is ``"random"``, ``None``
(self-play), a callable ``policy(obs, mask)`` or an agent; an illegal action loses (``"lose"``,
the default) or raises (``"raise"``). The envs guide (docs/guides/envs.md) says more.
"""
import functools
import operator
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from savanna.batch_play import BatchPlay
from savanna.errors import clip
from savanna.game import TERMINAL
from savanna.registry import resolve_game

__all__ = ["SavannaEnv"]  # and a class per registered game (module __getattr__)

ILLEGAL_ACTION_MODES = ("lose", "raise")
RENDER_MODES = ("ansi", "rgb_array")


def game_spaces(game):
    """Gymnasium spaces of one learner's observation and action."""
    observation = spaces.Dict({
        "observation": spaces.Box(0, game.obs_high, game.obs_shape, np.uint8),
        "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
    })
    return observation, spaces.Discrete(game.num_actions)


def bind(env_cls, game_name):
    """``env_cls`` with its game fixed: ``bind(SavannaEnv, "zebres")`` is ``ZebresEnv``."""
    def __init__(self, **kwargs):
        env_cls.__init__(self, game_name, **kwargs)

    return type(bound_name(env_cls, game_name), (env_cls,),
                {"__init__": __init__, "__module__": env_cls.__module__,
                 "__doc__": f"{env_cls.__name__} of {game_name}."})


def bound_name(env_cls, game_name):
    """``"ZebresEnv"`` for ``(SavannaEnv, "zebres")``, ``"ConnectFourVectorEnv"`` for
    ``(SavannaVectorEnv, "connect_four")``."""
    title = "".join(word.capitalize() for word in game_name.split("_"))
    return title + env_cls.__name__.removeprefix("Savanna")


@functools.cache
def bound_class(env_cls, attr):
    """The class ``attr`` of ``env_cls``'s module: ``env_cls`` bound to the registered game
    whose ``bound_name`` it is (``savanna.env.ZebresEnv``), made once; an AttributeError if
    no game has that name."""
    from savanna.registry import GAMES

    for game_name in GAMES:
        if attr == bound_name(env_cls, game_name):
            return bind(env_cls, game_name)
    raise AttributeError(f"module {env_cls.__module__!r} has no attribute {attr!r}")


def check_settings(illegal_action, render_mode):
    """The settings both environments share, checked: ``(illegal_action, render_mode)``."""
    if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, "
                         f"got {clip(illegal_action)}")
    if render_mode is not None and (not isinstance(render_mode, str)
                                    or render_mode not in RENDER_MODES):
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, "
                         f"got {clip(render_mode)}")
    return illegal_action, render_mode


def check_options(options, known=()):
    """``reset(options=...)``: None or a dict whose keys are among ``known``."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"reset options must be a dict or None, got {clip(options)}")
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"unknown reset options {clip(unknown)}; known: "
                         f"{', '.join(known) or 'none'}")
    return options


class SavannaEnv(gym.Env):
    """One game; the agent holds ``seat`` (drawn per episode when None)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game="zebres", seat=None, opponent="random", illegal_action="lose",
                 render_mode=None, **game_options):
        self.game = resolve_game(game, game_options)
        self.illegal_action, self.render_mode = check_settings(illegal_action, render_mode)
        self.observation_space, self.action_space = game_spaces(self.game)
        self._play = BatchPlay(self.game, 1, seat, opponent)
        self._acting = np.ones(1, np.bool_)
        self._action = np.zeros(1, np.int64)
        self._over = True

    @property
    def state(self) -> np.ndarray:
        """The current game state (a row of the game's state dtype)."""
        return self._play.states[0]

    @property
    def seat(self) -> int:
        return int(self._play.seats[0])

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        check_options(options)
        self._play.seed(self.np_random)
        self._play.reset()
        self._over = bool(self._play.terminal()[0])
        return self._observation(), {"seat": self.seat}

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        if self._over:
            raise RuntimeError("the episode is over: call reset() first")
        play = self._play
        try:
            a = operator.index(action)
        except TypeError:
            a = None
        if a is None or isinstance(action, bool):
            raise ValueError(f"action must be an int in 0..{self.game.num_actions - 1}, "
                             f"got {clip(action)}")
        self._action[0] = a if 0 <= a < self.game.num_actions else -1
        if a != self._action[0] or not play.mask[0, a]:  # the shared rule only when illegal
            play.refuse_illegal(self._action, self._acting, self.illegal_action, [action])
            self._over = True
            return self._observation(), -1.0, True, False, {"seat": self.seat,
                                                           "illegal_action": True}
        play.step(self._action, self._acting)
        self._over = terminated = bool(play.players[0] == TERMINAL)
        seat = int(play.seats[0])
        reward = float(play.gained[0, seat])
        return self._observation(), reward, terminated, False, {"seat": seat}

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array (sb3-contrib's MaskablePPO convention)."""
        return self._play.mask[0].astype(bool)

    def _observation(self):
        return {"observation": self._play.obs[0].reshape(self.game.obs_shape).copy(),
                "action_mask": self._play.mask[0].copy()}

    def render(self) -> str | np.ndarray | None:
        """The picture (``render_mode`` "ansi" or "rgb_array") as the agent's seat sees it:
        in a game with hidden information the opponents' secrets stay hidden."""
        player = None if self.game.perfect_information else self.seat
        if self.render_mode == "ansi":
            return self.game.render(self.state, player)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.state, player)
        return None


def __getattr__(attr):
    """``ZebresEnv``, ``BonoboEnv``, ...: ``SavannaEnv`` bound to each registered game."""
    return bound_class(SavannaEnv, attr)
