"""The Game API without its checks, for states the kernels made: allocate, call the compiled
loops (``game.drivers``), return.

Each public ``Game`` method checks what enters (``Game.check_states``, ``check_actions``, the
player and outcome checks), then calls the method of the same name here. Agents and drivers
whose states were checked once, or were made from checked ones by legal actions and possible
chance outcomes, call ``game.unchecked`` directly, so that a state is checked once however
many calls it travels through. Nothing here reads a row before the kernels do: a state that
the kernels did not make and ``check_states`` did not pass is undefined behaviour here, never
a message.
"""
import numpy as np

from savanna import threads
from savanna.rng import make_streams


class Unchecked:
    """``game``'s batched calls without input checks (see the module docstring)."""

    def __init__(self, game):
        self.game = game

    def init(self, n, rng):
        """``n`` initial states, random setup drawn from ``rng`` (a Seed)."""
        s = np.zeros(n, self.game.state_dtype)  # zeros: padding bytes too, so tobytes() hashes
        self.game.drivers.reset_batch(s, self.game.base_state(), make_streams(rng, n))
        return s

    def current_player(self, s):
        out = np.empty(len(s), np.int8)
        self.game.drivers.current_player_batch(s, out)
        return out

    def legal_mask(self, s):
        mask = np.empty((len(s), self.game.num_actions), np.bool_)
        self.game.drivers.legal_mask_batch(s, mask)
        return mask

    def step_inplace(self, s, actions):
        """Apply one legal decision per state of ``s`` (C-contiguous) in place; the rewards."""
        rewards = np.zeros((len(s), self.game.num_players), np.float32)
        self.game.drivers.step_batch(s, np.asarray(actions, np.int64), rewards)
        return rewards

    def chance_probs(self, s):
        probs = np.zeros((len(s), max(1, self.game.max_chance_outcomes)), np.float64)
        self.game.drivers.chance_probs_batch(s, probs)
        return probs[:, : self.game.max_chance_outcomes]

    def sample_chance(self, s, rng):
        """One outcome per chance node of ``s``, drawn from ``rng`` (a Generator) with the
        outcome probabilities."""
        return sample_outcomes(self.chance_probs(s), rng)

    def apply_chance(self, s, outcomes):
        """Apply one possible outcome per chance node of ``s`` (C-contiguous), in place."""
        self.game.drivers.apply_chance_batch(s, np.asarray(outcomes, np.int64))

    def observe(self, s, players):
        """``uint8[n, *obs_shape]`` from ``players``' seats (an int or one per state)."""
        players = np.broadcast_to(np.asarray(players, np.int64), (len(s),)).copy()
        obs = np.empty((len(s), int(np.prod(self.game.obs_shape))), np.uint8)
        self.game.drivers.observe_batch(s, players, obs)
        return obs.reshape((len(s), *self.game.obs_shape))

    def scores(self, s):
        out = np.zeros((len(s), self.game.num_players), np.int64)
        self.game.drivers.scores_batch(s, out)
        return out

    def resample_hidden(self, s, player, rng):
        """Copies of ``s`` redrawn where ``player`` cannot see (``rng`` a Generator)."""
        if self.game.perfect_information:
            return s.copy()
        return self.game._resample_hidden(s.copy(), player, rng)

    def random_playouts(self, s, rng, parallel=False):
        """``Game.random_playouts`` on ``s`` (C-contiguous, writeable), in place."""
        drivers = self.game.drivers
        run = threads.kernel_for(parallel, drivers.random_playouts,
                                 drivers.random_playouts_parallel)
        totals = np.zeros((len(s), self.game.num_players), np.float32)
        plies = np.zeros(len(s), np.int64)
        run(s, make_streams(rng, len(s)), totals, plies)
        return totals, plies


def sample_outcomes(probs, rng):
    """One outcome per row of ``probs`` (each of positive sum), drawn from ``rng``: the first
    outcome whose cumulative probability passes a uniform draw scaled to the row's sum."""
    cumulative = probs.cumsum(axis=1)
    u = rng.random(len(probs)) * cumulative[:, -1]
    return (cumulative <= u[:, None]).sum(axis=1)
