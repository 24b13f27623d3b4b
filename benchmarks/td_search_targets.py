"""A value fitted to search targets over the observation and the scoring features, and the
players that use it: ``python -m savanna.benchmarks.td_search_targets GAME --load
RECORDS.npz [MORE.npz ...] --out VALUE.npz [--games N] [--epochs E] [--to-returns]``.

TreeStrap's idea at its simplest: the records of ``td_predictability --search SIMS --save``
(MCTS self-play, every decision with the search's root value for its mover) train the value
network's shape, over the observation and ``savanna.benchmarks.td_scoring``'s features,
toward those root values; ``--games N`` fits on the first N games only (a learning curve in
games of data). The file it writes is played by the agent ``ScoredValue`` through its import
path, as any agent (``PLAYER=savanna.benchmarks.td_search_targets:ScoredValue``)::

    savanna match bonobo $PLAYER:VALUE.npz,ply=1 mcts:sims=1000 --games 100 --workers 1
    savanna match bonobo mcts:sims=100,value=$PLAYER:VALUE.npz mcts:sims=1000 --games 100 \\
        --workers 1

It runs in Python and numpy, batched per decision, not in compiled code: a measurement of what
the value is worth, before the compiled TD recipe is given its inputs.
"""
import argparse

import numpy as np
from scipy.sparse import csr_matrix

from savanna.agents.play.base import random_argmax
from savanna.benchmarks.td_predictability import fit_network
from savanna.benchmarks.td_scoring import scoring_features
from savanna.codes import CHANCE
from savanna.rng import as_generator


def fit(name, records, games=None, hidden=64, epochs=5, seed=0, to_returns=False):
    """``{"w1", "b1", "w2", "b2", "game"}``: the network fitted to the teacher's values of
    the first ``games`` games of ``records`` (all by default), or to the games' returns
    (``to_returns``: the control that tells the targets' share from the features')."""
    obs, returns, _, index, teacher = records
    keep = index < (games if games is not None else index.max() + 1)
    inputs = np.concatenate([obs[keep], scoring_features(name, obs[keep])], 1)
    targets = returns if to_returns else teacher
    net = fit_network(inputs, targets[keep], hidden, epochs, seed)
    (w1, b1), (w2, b2) = ((layer.weight.detach().numpy(), layer.bias.detach().numpy())
                          for layer in (net[0], net[2]))
    return {"w1": w1.T.copy(), "b1": b1, "w2": w2[0], "b2": b2, "game": np.array(name)}


class ScoredValue:
    """Plays the fitted value by ``ply``-deep expectimax: every legal move, the chance after
    it averaged (each outcome of one chance node, or ``samples`` draws of a chain of them),
    then at ``ply=1`` the next mover's best answer by the value, then the value. As MCTS's
    leaf evaluator (``evaluator``): uniform priors, the mover's value, its negation for the
    other seat (two players)."""

    def __init__(self, path: str, ply: int = 1, samples: int = 8):
        if ply not in (0, 1):
            raise ValueError(f"ply must be 0 or 1, got {ply}")
        with np.load(path) as held:
            self.w1, self.b1, self.w2, self.b2 = (held[k] for k in ("w1", "b1", "w2", "b2"))
            self.game = str(held["game"])
        self.path, self.ply, self.samples = path, ply, samples

    def settings(self) -> dict:
        return {"path": self.path, "ply": self.ply, "samples": self.samples}

    def value(self, obs):
        """float64[n]: the value of each observation for its observer."""
        flat = obs.reshape(len(obs), -1)
        size = flat.shape[1]  # the observation is mostly zeros: a sparse product
        hidden = (csr_matrix(flat, dtype=np.float32) @ self.w1[:size]
                  + scoring_features(self.game, flat) @ self.w1[size:] + self.b1)
        return np.tanh(np.maximum(hidden, 0) @ self.w2 + self.b2[0])

    def evaluator(self, game):
        return self._leaf_values

    def _leaf_values(self, obs, mask, movers):
        v = self.value(obs)
        values = np.repeat(-v[:, None], 2, axis=1)
        values[np.arange(len(v)), movers] = v
        return mask / np.maximum(mask.sum(axis=1, keepdims=True), 1), values

    def act(self, game, states, rng):
        rng = as_generator(rng)
        children, rewards, owner, actions = moves(game, states)
        movers = game.current_player(states)[owner]
        q = rewards[np.arange(len(owner)), movers] + self.values_after(game, children, movers,
                                                                       self.ply, rng)
        best = np.empty(len(states), np.int64)
        for i in range(len(states)):
            mine = np.flatnonzero(owner == i)
            best[i] = actions[mine[random_argmax(q[mine][None], rng)[0]]]
        return best

    def values_after(self, game, states, seats, ply, rng):
        """float64[n]: each state's return still to come to its seat of ``seats``, chance
        averaged; at ``ply=1`` after its next mover's best answer by the value."""
        flat, weight, parent = self.resolve_chance(game, states, rng)
        players = game.current_player(flat)
        out = np.zeros(len(flat))
        live = np.flatnonzero(players >= 0)
        if len(live):
            mover = players[live]
            if ply == 0:
                v = self.value(game.observe(flat[live], mover))
            else:
                children, rewards, owner, _ = moves(game, flat[live])
                answer = mover[owner]
                q = rewards[np.arange(len(owner)), answer] + self.values_after(
                    game, children, answer, ply - 1, rng)
                v = np.full(len(live), -np.inf)
                np.maximum.at(v, owner, q)
            out[live] = np.where(mover == seats[parent[live]], v, -v)
        return np.bincount(parent, weight * out, minlength=len(states))

    def resolve_chance(self, game, states, rng):
        """``(states, weights, parent)``: every chance node of ``states`` replaced by its
        outcomes (weighted by their probabilities) where one draw settles it, else by
        ``samples`` drawn chains (weights 1 / samples); other states kept (weight 1)."""
        kinds = game.current_player(states)
        keep, chance = np.flatnonzero(kinds != CHANCE), np.flatnonzero(kinds == CHANCE)
        parts = [(states[keep], np.ones(len(keep)), keep)]
        if len(chance):
            probs = game.chance_probs(states[chance])
            which, outcome = np.nonzero(probs)
            drawn = states[chance[which]]
            game.apply_chance(drawn, outcome)
            unsettled = np.unique(which[game.current_player(drawn) == CHANCE])
            settled = ~np.isin(which, unsettled)
            parts.append((drawn[settled], probs[which, outcome][settled],
                          chance[which][settled]))
            if len(unsettled):
                rows = np.repeat(chance[unsettled], self.samples)
                drawn = states[rows]
                while (still := game.current_player(drawn) == CHANCE).any():
                    part = drawn[still]
                    game.apply_chance(part, game.sample_chance(part, rng))
                    drawn[still] = part
                parts.append((drawn, np.full(len(rows), 1 / self.samples), rows))
        return tuple(np.concatenate(column) for column in zip(*parts))


def moves(game, states):
    """Every legal move of every state: ``(children, rewards, owner, actions)``, ``owner``
    the index of the state each move is made in."""
    owner, actions = np.nonzero(game.legal_mask(states))
    children, rewards = game.step(states[owner], actions)
    return children, rewards, owner, actions


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--load", required=True, nargs="+",
                        help="records of td_predictability --search (several: concatenated)")
    parser.add_argument("--out", required=True, help="the value file to write (.npz)")
    parser.add_argument("--games", type=int, help="fit on the first N games only")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--to-returns", action="store_true",
                        help="fit to the games' returns instead of the search's values")
    args = parser.parse_args(argv)
    parts = []
    for path in args.load:
        with np.load(path) as held:
            if "teacher" not in held:
                parser.error(f"{path} holds no search values: record it with --search")
            part = [held[k] for k in ("obs", "returns", "phase", "index", "teacher")]
        part[3] = part[3] + (int(parts[-1][3].max()) + 1 if parts else 0)  # numbered on
        parts.append(part)
    records = tuple(np.concatenate(column) for column in zip(*parts))
    np.savez(args.out, **fit(args.game, records, args.games, args.hidden, args.epochs,
                              seed=0, to_returns=args.to_returns))


if __name__ == "__main__":
    main()
