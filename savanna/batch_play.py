"""A batch of games in which a learner holds one seat each and everything else is played for it.

This is the engine under both Gymnasium environments: chance nodes and random opponents are
played inside one compiled call per step; an external opponent (a Python policy or an agent)
is called once per round for all the games that wait for it, never once per game.
"""
import numpy as np

from savanna import threads
from savanna._drivers import NEW_GAME
from savanna.codes import OPPONENT_EXTERNAL, OPPONENT_NONE, OPPONENT_RANDOM, TERMINAL
from savanna.errors import clip
from savanna.rng import as_generator, make_streams
from savanna.seats import seat_act


def opponent_mode(opponent):
    """The kernel's opponent code for ``opponent``: "random", None (self-play), a callable
    ``policy(obs, mask) -> actions`` or an agent with ``act(game, states, rng)``."""
    if opponent is None:
        return OPPONENT_NONE
    if isinstance(opponent, str):
        if opponent == "random":
            return OPPONENT_RANDOM
        raise ValueError(f"unknown opponent {clip(opponent)}; allowed: 'random', None (self-play), "
                         "a callable policy(obs, mask) -> actions, or an agent object")
    if callable(opponent) or hasattr(opponent, "act"):
        return OPPONENT_EXTERNAL
    raise ValueError(f"opponent must be 'random', None, a callable or an agent, "
                     f"got {clip(type(opponent).__name__)}")


class BatchPlay:
    """``n`` games of ``game``; the learner's seat is ``seat`` or drawn per game at reset."""

    def __init__(self, game, n, seat=None, opponent="random", parallel=False):
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                                 or not 0 <= seat < game.num_players):
            raise ValueError(f"seat must be None or an int in 0..{game.num_players - 1}, "
                             f"got {clip(seat)}")
        self.game, self.n = game, n
        self.opponent = opponent
        self.mode = opponent_mode(opponent)
        self.fixed_seat = -1 if seat is None or self.mode == OPPONENT_NONE else int(seat)
        d = game.drivers
        # parallel: False, True or "auto" (savanna.threads: whichever is faster now)
        self._step_kernel = threads.kernel_for(parallel, d.env_step_batch,
                                               d.env_step_batch_parallel)
        self._reset_kernel = d.env_step_batch  # with NEW_GAME actions
        self._new_games = np.full(n, NEW_GAME, np.int64)
        self.base = game.base_state()
        self.states = np.zeros(n, game.state_dtype)
        self.seats = np.zeros(n, np.int64)
        self.streams = make_streams(0, n)
        self.gained = np.zeros((n, game.num_players), np.float32)
        self.waiting = np.zeros(n, np.bool_)
        self.obs = np.zeros((n, int(np.prod(game.obs_shape))), np.uint8)
        self.mask = np.zeros((n, game.num_actions), np.int8)
        self.players = np.empty(n, np.int8)
        self._rng = np.random.default_rng(0)

    def seed(self, rng):
        """Draw fresh per-game streams (and the external opponent's rng) from ``rng``."""
        self._rng = as_generator(rng)
        self.streams = make_streams(self._rng, self.n)

    def get_state(self):
        """Everything that decides how play goes on: the games, seats, rewards, views, per-game
        streams and the external opponent's rng state (a dict of arrays, for checkpoints)."""
        state = {name: getattr(self, name).copy() for name in self._STATE_ARRAYS}
        state["rng"] = self._rng.bit_generator.state
        return state

    def set_state(self, state):
        """Restore what ``get_state`` returned, so play continues exactly as it would have."""
        for name in self._STATE_ARRAYS:
            getattr(self, name)[...] = state[name]
        self._rng.bit_generator.state = state["rng"]

    _STATE_ARRAYS = ("states", "seats", "streams", "gained", "waiting", "obs", "mask", "players")

    def reset(self, which=None):
        """Start new games where ``which`` (all by default) and play up to the learner's turn."""
        which = np.ones(self.n, np.bool_) if which is None else which
        self._reset_kernel(self.states, self._new_games, which, True, self.base, self.seats,
                           self.fixed_seat, self.streams, self.mode, self.gained, self.waiting,
                           self.obs, self.mask, self.players)
        if self.mode == OPPONENT_EXTERNAL:
            self.serve_opponents()

    def step(self, actions, acting):
        """Apply the learner's ``actions`` where ``acting``; rewards gathered in ``gained``."""
        self._kernel_step(actions, acting, True)
        if self.mode == OPPONENT_EXTERNAL:
            self.serve_opponents()

    def rewards(self):
        """Each game's reward for its learner's seat over the last step."""
        return self.gained[np.arange(self.n), self.seats]

    def terminal(self):
        """Bool per game: over (as of the last reset or step)."""
        return self.players == TERMINAL

    def illegal(self, actions):
        """Bool per game: the action is out of range or masked out."""
        actions = np.asarray(actions)
        bad = (actions < 0) | (actions >= self.game.num_actions)
        ok = np.where(bad, 0, actions)
        return bad | (self.mask[np.arange(self.n), ok] == 0)

    def refuse_illegal(self, actions, acting, mode, shown=None):
        """The illegal-action rule of both environments: bool per game, its action is illegal.

        ``mode="raise"``: a ``ValueError`` naming the first such game's legal actions;
        ``"lose"``: the caller ends those games with reward -1. ``shown``: the actions as the
        user gave them, for the message (default ``actions``).
        """
        illegal = self.illegal(actions) & acting
        if mode == "raise" and illegal.any():
            i = int(np.flatnonzero(illegal)[0])
            state = self.states[i]
            names = ", ".join(self.game.action_to_string(state, a)
                              for a in np.flatnonzero(self.mask[i]))
            where = f" in env {i}" if self.n > 1 else ""
            given = (actions if shown is None else shown)[i]
            raise ValueError(f"illegal action {clip(given)}{where}; legal: {names}")
        return illegal

    def serve_opponents(self):
        """Call the external opponent for all the games that wait for it, round after round,
        until every game is at its learner's turn or over."""
        while self.waiting.any():
            idx = np.flatnonzero(self.waiting)
            sub = self.states[idx]
            if hasattr(self.opponent, "act"):
                moves = seat_act(self.opponent, self.game, sub, self._rng)
            else:
                api = self.game.unchecked  # the kernels' own states
                players = api.current_player(sub)
                moves = self.opponent(api.observe(sub, players), api.legal_mask(sub))
            moves = np.asarray(moves)
            if moves.size != len(idx) or not np.issubdtype(moves.dtype, np.integer):
                raise ValueError(f"the opponent must return {len(idx)} integer actions (one per "
                                 f"waiting game), got a {moves.dtype} array of shape "
                                 f"{moves.shape}")
            moves = moves.reshape(-1)
            acting = self.waiting.copy()
            act = np.zeros(self.n, np.int64)
            act[idx] = self.game.check_actions(sub, moves)
            self._kernel_step(act, acting, False)

    def _kernel_step(self, actions, acting, fresh):
        self._step_kernel(self.states, actions, acting, fresh, self.base, self.seats,
                          self.fixed_seat, self.streams, self.mode, self.gained, self.waiting,
                          self.obs, self.mask, self.players)

