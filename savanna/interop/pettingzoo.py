"""Every Savanna game as a PettingZoo AEC environment (``pip install '.[interop]'``).

>>> from savanna.interop.pettingzoo import aec_env
>>> env = aec_env("bonobo", num_players=3)
>>> env.reset(seed=0)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     env.step(None if terminated else env.action_space(agent).sample(obs["action_mask"]))

Agents are ``player_0 .. player_{P-1}``; chance nodes are sampled inside, the mask travels in
the observation, and an illegal action raises ``ValueError``. The mapping in full: the interop
guide.
"""
import copy
import operator

import numpy as np
from pettingzoo import AECEnv

from savanna.env import game_spaces
from savanna.game import CHANCE, TERMINAL
from savanna.registry import resolve_game

__all__ = ["SavannaAECEnv", "aec_env"]


def aec_env(game="zebres", render_mode=None, **game_options):
    """A PettingZoo AEC env of ``game`` (a name with its options, or a ``Game``)."""
    return SavannaAECEnv(game, render_mode=render_mode, **game_options)


class SavannaAECEnv(AECEnv):
    """One game of ``game`` with one agent per seat (the interop guide says how)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "savanna_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game="zebres", render_mode=None, **game_options):
        super().__init__()
        self.game = resolve_game(game, game_options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"savanna_{self.game.name}_v{self.game.version}"}
        g = self.game
        self.possible_agents = [f"player_{p}" for p in range(g.num_players)]
        self._seat_of = {agent: p for p, agent in enumerate(self.possible_agents)}
        observation, action = game_spaces(g)
        self.observation_spaces = {a: copy.deepcopy(observation) for a in self.possible_agents}
        self.action_spaces = {a: copy.deepcopy(action) for a in self.possible_agents}
        self._drivers = g.drivers
        self._state = None
        self._rng = None
        self._player = np.zeros(1, np.int8)
        self._mask = np.zeros((1, g.num_actions), np.bool_)
        self._no_mask = np.zeros(g.num_actions, np.int8)
        self._action = np.zeros(1, np.int64)
        self._step_rewards = np.zeros((1, g.num_players), np.float32)
        self._probs = np.zeros((1, max(1, g.max_chance_outcomes)), np.float64)
        self._outcome = np.zeros(1, np.int64)
        self._obs = np.zeros((1, int(np.prod(g.obs_shape))), np.uint8)
        self._observer = np.zeros(1, np.int64)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def state_row(self):
        """The current game state (a row of the game's state dtype)."""
        return self._state[0]

    def reset(self, seed=None, options=None):
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self._state = self.game.init(1, rng=self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._advance()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(f"action must be an int in 0..{self.game.num_actions - 1}, "
                             f"got {action!r}") from None
        if not (0 <= a < self.game.num_actions and self._mask[0, a]):
            legal = ", ".join(self.game.action_to_string(self._state[0], int(b))
                              for b in np.flatnonzero(self._mask[0]))
            raise ValueError(f"illegal action {action!r} for {agent}; legal: {legal}")
        self._cumulative_rewards[agent] = 0.0
        self._action[0] = a
        self._drivers.step_batch(self._state, self._action, self._step_rewards)
        self.rewards = dict(zip(self.agents, self._step_rewards[0].tolist()))
        self._advance()
        self._accumulate_rewards()

    def _advance(self):
        """Sample chance nodes, then hand the turn to the player to move or end the game."""
        d = self._drivers
        while True:
            d.current_player_batch(self._state, self._player)
            if self._player[0] != CHANCE:
                break
            d.chance_probs_batch(self._state, self._probs)
            cumulative = np.cumsum(self._probs[0])
            u = self._rng.random() * cumulative[-1]
            self._outcome[0] = np.searchsorted(cumulative, u, side="right")
            d.apply_chance_batch(self._state, self._outcome)
        if self._player[0] == TERMINAL:
            self._mask[:] = False
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self._player[0]]
            d.legal_mask_batch(self._state, self._mask)

    def observe(self, agent):
        """``{"observation": uint8[*obs_shape], "action_mask": int8[num_actions]}`` of ``agent``."""
        seat = self._seat_of[agent]
        self._observer[0] = seat
        self._drivers.observe_batch(self._state, self._observer, self._obs)
        to_move = self._player[0] == seat
        return {"observation": self._obs[0].reshape(self.game.obs_shape).copy(),
                "action_mask": self._mask[0].astype(np.int8) if to_move else self._no_mask.copy()}

    def render(self):
        """The picture every agent may see: with hidden information a spectator's (every
        seat's secrets face down)."""
        public = not self.game.perfect_information
        if self.render_mode == "ansi":
            return self.game.render(self._state[0], public=public)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self._state[0], public=public)
        return None

    def close(self):
        pass
