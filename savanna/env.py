"""A Savanna game as a single-agent Gymnasium environment with action masking.

>>> import gymnasium, savanna
>>> env = gymnasium.make("savanna/Zebres-v0")            # random opponent, random seat
>>> obs, info = env.reset(seed=0)
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

The observation is a dict: ``"observation"`` (player-relative ``uint8`` vector, the learner is
seat 0) and ``"action_mask"`` (``int8``, PettingZoo style); ``action_masks()`` returns a bool
copy (sb3-contrib). ``opponent`` is ``"random"`` (played inside the compiled step), ``None``
(self-play: the agent plays whichever seat is to move, and the reward is the mover's), a
callable ``policy(obs, mask) -> actions`` or an agent with ``act(game, states, rng)``.
An illegal action ends the episode with reward -1 (``illegal_action="lose"``, the default,
so that ``check_env`` may sample unmasked actions) or raises ``ValueError`` (``"raise"``).
"""
import operator

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from savanna.batch_play import BatchPlay
from savanna.game import TERMINAL, Game
from savanna.registry import make_game

ILLEGAL_ACTION_MODES = ("lose", "raise")


def resolve_game(game, options):
    """A Game instance from a name (with options) or an instance (without)."""
    if isinstance(game, Game):
        if options:
            raise ValueError(f"game options {sorted(options)} given with a game instance; "
                             "pass the game's name instead")
        return game
    if isinstance(game, str):
        return make_game(game, **options)
    raise ValueError(f"game must be a name or a Game, got {type(game).__name__}")


def game_spaces(game):
    """Gymnasium spaces of one learner's observation and action."""
    observation = spaces.Dict({
        "observation": spaces.Box(0, getattr(game, "obs_high", 1), game.obs_shape, np.uint8),
        "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
    })
    return observation, spaces.Discrete(game.num_actions)


def bind(env_cls, game_name):
    """``env_cls`` with its game fixed, e.g. ``ZebresEnv = bind(SavannaEnv, "zebres")``."""
    def __init__(self, **kwargs):
        env_cls.__init__(self, game_name, **kwargs)

    name = game_name.capitalize() + env_cls.__name__.removeprefix("Savanna")
    return type(name, (env_cls,), {"__init__": __init__, "__module__": env_cls.__module__,
                                   "__doc__": f"{env_cls.__name__} of {game_name}."})


def check_illegal_mode(mode):
    if mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {mode!r}")
    return mode


class SavannaEnv(gym.Env):
    """One game; the agent holds ``seat`` (drawn per episode when None)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, game="zebres", seat=None, opponent="random", illegal_action="lose",
                 render_mode=None, **game_options):
        self.game = resolve_game(game, game_options)
        self.illegal_action = check_illegal_mode(illegal_action)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, got {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space, self.action_space = game_spaces(self.game)
        self._play = BatchPlay(self.game, 1, seat, opponent)
        self._acting = np.ones(1, np.bool_)
        self._action = np.zeros(1, np.int64)
        self._over = True

    @property
    def state(self):
        """The current game state (a row of the game's state dtype)."""
        return self._play.states[0]

    @property
    def seat(self):
        return int(self._play.seats[0])

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._play.seed(self.np_random)
        self._play.reset()
        self._over = bool(self._play.terminal()[0])
        return self._observation(), {"seat": self.seat}

    def step(self, action):
        if self._over:
            raise RuntimeError("the episode is over: call reset() first")
        play = self._play
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(f"action must be an int in 0..{self.game.num_actions - 1}, "
                             f"got {action!r}") from None
        if not (0 <= a < self.game.num_actions and play.mask[0, a]):
            return self._illegal(action)
        self._action[0] = a
        play.step(self._action, self._acting)
        self._over = terminated = bool(play.players[0] == TERMINAL)
        seat = int(play.seats[0])
        reward = float(play.gained[0, seat])
        return self._observation(), reward, terminated, False, {"seat": seat}

    def _illegal(self, action):
        legal = np.flatnonzero(self._play.mask[0])
        if self.illegal_action == "raise":
            names = ", ".join(self.game.action_to_string(self.state, a) for a in legal)
            raise ValueError(f"illegal action {action!r}; legal: {names}")
        self._over = True
        return self._observation(), -1.0, True, False, {"seat": self.seat, "illegal_action": True}

    def action_masks(self):
        """The legal actions as a bool array (sb3-contrib's MaskablePPO convention)."""
        return self._play.mask[0].astype(bool)

    def _observation(self):
        return {"observation": self._play.obs[0].reshape(self.game.obs_shape).copy(),
                "action_mask": self._play.mask[0].copy()}

    def render(self):
        if self.render_mode == "ansi":
            return self.game.render(self.state)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.state)
        return None


ZebresEnv = bind(SavannaEnv, "zebres")
BonoboEnv = bind(SavannaEnv, "bonobo")
BanjooliEnv = bind(SavannaEnv, "banjooli")
