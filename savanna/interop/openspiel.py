"""Every Savanna game as an OpenSpiel Python game (``pip install '.[interop]'``).

Importing this module registers every registered game with ``pyspiel.register_game`` as
``savanna_<name>``, so OpenSpiel's loaders, tests and algorithms take them like any other game.
Use OpenSpiel's Python ``mcts.MCTSBot``: its C++ MCTS bot crashes on any Python game in
open_spiel 2.0.2. How the Game protocol maps onto OpenSpiel (chance, a random setup, rewards,
observations, parameters): the interop guide.

>>> import numpy as np, pyspiel, savanna.interop.openspiel
>>> from open_spiel.python.algorithms import mcts
>>> game = pyspiel.load_game("savanna_bonobo", {"players": 3})
>>> bot = mcts.MCTSBot(game, 1.4, 100, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
>>> state = game.new_initial_state()
>>> state.apply_action(bot.step(state))
"""
from fractions import Fraction

import numpy as np
import pyspiel

from savanna.game import CHANCE, TERMINAL
from savanna.registry import GAMES, game_class, make_game

__all__ = ["SPECS", "Engine", "SavannaSpielGame", "SavannaSpielState", "load", "short_name"]

SETUP_SEEDS = 4096  # the default ``setup_seeds`` of a game with a random setup


def _spec(entry):
    """``(OpenSpiel parameters with their defaults, (min, max) players, random setup)`` of a
    game's registration: ``players`` where the count varies, its options, ``setup_seeds``."""
    low, high = entry.players
    params = {**({"players": low} if low < high else {}), **entry.options,
              **({"setup_seeds": SETUP_SEEDS} if entry.random_setup else {})}
    return params, entry.players, entry.random_setup


SPECS = {name: _spec(entry) for name, entry in GAMES.items()}  # name -> its OpenSpiel spec
SETUP = "setup"  # the pseudo-player of the random-setup chance node, in action strings


def short_name(name):
    """The OpenSpiel name of Savanna game ``name``: ``"savanna_" + name``."""
    return f"savanna_{name}"


def load(name, **params):
    """``pyspiel.load_game`` of Savanna game ``name`` with OpenSpiel ``params``."""
    if name not in SPECS:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(SPECS)}")
    return pyspiel.load_game(short_name(name), params)


def _exact(value, max_denominator=120):
    """``value`` (a float32 reward widened to float64) as the nearest fraction with a small
    denominator when one lies within 1e-6; the rewards of 2..5 players are such fractions."""
    fraction = float(Fraction(value).limit_denominator(max_denominator))
    return fraction if abs(fraction - value) < 1e-6 else value


def _game_options(params):
    """The Savanna game options of OpenSpiel parameters (without ``setup_seeds``; ``"none"``
    stands for None)."""
    return {("num_players" if k == "players" else k): None if v == "none" else v
            for k, v in params.items() if k != "setup_seeds"}


def _game_type(name):
    cls = game_class(name)
    defaults, (low, high), random_setup = SPECS[name]
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Savanna {name.capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
                     if cls.has_chance or random_setup
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION
                     if cls.perfect_information
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.ZERO_SUM if cls.zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults)


class Engine:
    """The Savanna side of one OpenSpiel game: the game, its kernels and scratch buffers.

    OpenSpiel may hand Python a fresh wrapper of a game it built (after ``deserialize_game``,
    say) without the attributes set in ``__init__``, so nothing lives on the ``pyspiel.Game``
    object: states and observers find the engine by the game's name and parameters."""

    _cache = {}

    @classmethod
    def of(cls, game):
        """The engine of ``game`` (a ``pyspiel.Game`` of a Savanna game), built once."""
        return cls.get(game.get_type().short_name.removeprefix("savanna_"),
                       tuple(sorted(game.get_parameters().items())))

    @classmethod
    def get(cls, name, params):
        key = (name, params)
        if key not in cls._cache:
            cls._cache[key] = cls(name, dict(params))
        return cls._cache[key]

    def __deepcopy__(self, memo):
        return self  # shared by every state of the game: OpenSpiel deep-copies state dicts

    def __reduce__(self):
        return Engine.get, self.key  # OpenSpiel pickles state dicts to serialise states

    def __init__(self, name, params):
        defaults, _, random_setup = SPECS[name]
        params = {**defaults, **params}
        self.key = (name, tuple(sorted(params.items())))
        unknown = set(params) - set(defaults)
        if unknown:
            raise ValueError(f"unknown parameters {sorted(unknown)} for {short_name(name)}; "
                             f"allowed: {', '.join(defaults)}")
        self.savanna = g = make_game(name, **_game_options(params))
        self.setup_seeds = int(params["setup_seeds"]) if random_setup else 0
        if random_setup and self.setup_seeds < 1:
            raise ValueError(f"setup_seeds must be a positive int, got {self.setup_seeds}")
        self.start = None if random_setup else g.init(1, rng=0)
        self.drivers = g.drivers
        self._player = np.zeros(1, np.int8)
        self._action = np.zeros(1, np.int64)
        self._rewards = np.zeros((1, g.num_players), np.float32)
        self._mask = np.zeros((1, g.num_actions), np.bool_)
        self._probs = np.zeros((1, max(1, g.max_chance_outcomes)), np.float64)
        self._obs = np.zeros((1, int(np.prod(g.obs_shape))), np.uint8)
        self._observer = np.zeros(1, np.int64)

    def info(self):
        g = self.savanna
        return pyspiel.GameInfo(
            num_distinct_actions=g.num_actions,
            max_chance_outcomes=max(g.max_chance_outcomes, self.setup_seeds),
            num_players=g.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if g.zero_sum else None,
            max_game_length=g.max_plies)

    # ----- kernel calls on a batch of one (used by the states) -----------------------------
    def player_of(self, s):
        self.drivers.current_player_batch(s, self._player)
        return int(self._player[0])

    def legal_of(self, s):
        self.drivers.legal_mask_batch(s, self._mask)
        return np.flatnonzero(self._mask[0]).tolist()

    def step(self, s, action):
        """Apply a decision in place; the rewards as a list."""
        self._action[0] = action
        self.drivers.step_batch(s, self._action, self._rewards)
        return self._rewards[0].tolist()

    def chance_of(self, s):
        self.drivers.chance_probs_batch(s, self._probs)
        probs = self._probs[0, : self.savanna.max_chance_outcomes]
        return [(int(o), float(probs[o])) for o in np.flatnonzero(probs > 0)]

    def observation_of(self, s, player):
        self._observer[0] = player
        self.drivers.observe_batch(s, self._observer, self._obs)
        return self._obs[0]


class SavannaSpielGame(pyspiel.Game):
    """An OpenSpiel game over one Savanna game; one subclass per game sets ``NAME``."""

    NAME = None

    def __init__(self, params=None):
        defaults = SPECS[self.NAME][0]
        params = {**defaults, **(params or {})}
        engine = Engine.get(self.NAME, tuple(sorted(params.items())))  # checks the parameters
        super().__init__(_game_type(self.NAME), engine.info(), params)

    def new_initial_state(self):
        return SavannaSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of ``iig_obs_type``: the player's own view (with or without perfect
        recall). Public-only or all-players views are refused in imperfect-information games,
        where they would need a split of the observation that the games do not declare."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        engine = Engine.of(self)
        if iig_obs_type is None:
            return SavannaObserver(engine, perfect_recall=False)
        if not engine.savanna.perfect_information and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{engine.savanna.name} observes one player's view only (public "
                             "and private together); the requested observation type differs")
        return SavannaObserver(engine, perfect_recall=iig_obs_type.perfect_recall)


class SavannaSpielState(pyspiel.State):
    """One Savanna state (a batch of one) with its returns. OpenSpiel clones
    a Python state by deep-copying its attributes (the engine copies as itself)."""

    def __init__(self, game):
        super().__init__(game)
        self._g = Engine.of(game)
        P = self._g.savanna.num_players
        self._returns = [0.0] * P
        self._since_setup = 0  # history entries that came before the game (the setup seed)
        if self._g.start is None:
            self._s = None
            self._player = CHANCE
        else:
            self._s = self._g.start.copy()
            self._player = self._g.player_of(self._s)

    @property
    def savanna_state(self):
        """The Savanna state (a batch of one; ``None`` before a random setup)."""
        return self._s

    def current_player(self):
        if self._player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if self._player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return self._player

    def _legal_actions(self, player):
        return self._g.legal_of(self._s)

    def chance_outcomes(self):
        if self._s is None:
            k = self._g.setup_seeds
            return [(o, 1.0 / k) for o in range(k)]
        return self._g.chance_of(self._s)

    def _apply_action(self, action):
        g = self._g
        if self._s is None:
            self._s = g.savanna.init(1, rng=int(action))
            self._since_setup = 1
        elif self._player == CHANCE:
            g.drivers.apply_chance_batch(self._s, np.array([action], np.int64))
        else:
            rewards = g.step(self._s, action)
            self._returns = [a + b for a, b in zip(self._returns, rewards)]
        self._player = g.player_of(self._s)
        if self._player != TERMINAL:
            if any(self._returns):
                raise RuntimeError(f"{g.savanna.name} gave a reward before the end; the "
                                   "OpenSpiel adapter declares terminal rewards")
        else:
            self._returns = [_exact(r) for r in self._returns]

    def _action_to_string(self, player, action):
        if self._s is None:
            return f"{SETUP} {action}"
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {self._g.savanna.outcome_to_string(int(action))}"
        return self._g.savanna.action_to_string(self._s[0], int(action))

    def is_terminal(self):
        return self._player == TERMINAL

    def returns(self):
        return list(self._returns)

    def public_actions(self):
        """The actions and chance outcomes since the setup (the setup seed is secret)."""
        return self.history()[self._since_setup:]

    def __str__(self):
        if self._s is None:
            return f"{SETUP} pending"
        return self._g.savanna.to_text(self._s[0])


class SavannaObserver:
    """OpenSpiel's PyObserver: ``game.observe`` from one seat (float32), and its strings."""

    def __init__(self, engine, perfect_recall):
        self._g = engine
        self._perfect_recall = perfect_recall
        shape = engine.savanna.obs_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        if state.savanna_state is None:
            self.tensor[:] = 0.0
        else:
            self.tensor[:] = self._g.observation_of(state.savanna_state, player)

    def string_from(self, state, player):
        s = state.savanna_state
        if s is None:
            view = f"{SETUP} pending"
        elif self._g.savanna.perfect_information:
            view = self._g.savanna.to_text(s[0])
        else:
            view = f"p{player} " + self._g.observation_of(s, player).tobytes().hex()
        if self._perfect_recall:
            return " ".join(map(str, state.public_actions())) + " | " + view
        return view


def _register():
    """One ``SavannaSpielGame`` subclass per game, registered under its short name."""
    for name in SPECS:
        if short_name(name) not in pyspiel.registered_names():
            cls = type(f"{name.capitalize()}SpielGame", (SavannaSpielGame,), {"NAME": name})
            pyspiel.register_game(_game_type(name), cls)


_register()
