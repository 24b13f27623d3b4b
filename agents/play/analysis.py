"""What a search thinks of a position: every legal move with its visits, prior and mean values.

``analyse(game, state, agent, rng)`` searches one decision node with a search agent (``mcts``,
``ppo-mcts``: ``MCTSAgent`` and its subclasses; ``az``: ``AZAgent``'s Gumbel search) and
returns an ``Analysis``:

* one row per legal move, most visited first: its name in the game's notation, its action id,
  the simulations through it (``visits``, ``share`` of all), its ``prior`` (the network's for
  PUCT and AlphaZero, uniform for UCT) and ``value_0 .. value_{P-1}``, the mean return of each
  player over the simulations through it (NaN for a move never tried);
* ``values``: the root's mean return for each player;
* ``pv``: the principal variation, the most visited line of the tree from the root while its
  nodes have visits; a chance outcome in it is written in parentheses, ``(+3)``.

``move_value(game, state, action, agent, rng)`` values one move by a search of the position
after it, for a move the analysis never tried (a review needs the value of the move played).

``rows`` (a list of dicts) and ``columns()`` (a dict of lists) go straight into
``pandas.DataFrame``; ``table()`` is what ``savanna analyse`` prints, ``to_json()`` what
``savanna analyse --json`` prints. With hidden information MCTS and AlphaZero search several
determinizations: the simulations and the rows add up all their trees (values are the
visit-weighted mean, priors the mean), the principal variation is read in the tree that
visited the best move most.

>>> from savanna import make_game
>>> from savanna.agents import make_agent
>>> game = make_game("zebres")
>>> text = "z...../..G.../....../.l..../...... g 21 - move"
>>> a = analyse(game, game.from_text(text), make_agent("mcts:sims=500"), rng=0)
>>> a.rows[0]["move"], a.pv
"""
import html
import math
import sys
from dataclasses import dataclass

import numpy as np

from savanna.agents.html_tables import html_table
from savanna.agents.play.base import describe
from savanna.agents.play.mcts import MCTSAgent
from savanna.agents.play.search import compiled_search
from savanna.errors import check_int, clip
from savanna.game import CHANCE, TERMINAL, Game, Row, Seed
from savanna.rng import as_generator

__all__ = ["Analysis", "analyse", "move_value"]

MAX_DRAWS = 1024  # chance draws averaged by move_value


@dataclass
class Analysis:
    """The result of ``analyse`` (see the module docstring)."""

    game: str
    position: str  # the analysed state in the game's notation
    player: int    # the player to move
    agent: str     # the spec of the agent that searched
    simulations: int
    values: list   # the root's mean return per player
    rows: list     # one dict per legal move, most visited first
    pv: list       # the principal variation, move names

    def columns(self) -> dict:
        """The rows as a dict of columns (``pandas.DataFrame(analysis.columns())``)."""
        return {key: [row[key] for row in self.rows] for key in self.rows[0]}

    def table(self) -> str:
        """A text table: a header line, one line per move, the principal variation."""
        head = self._head()
        cells = [head] + [_cells(r) for r in self.rows]
        widths = [max(len(c[k]) for c in cells) for k in range(len(head))]
        lines = [self._caption()] + ["  ".join(
            c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(cs, widths)))
            for cs in cells]
        lines.append("principal variation: " + (", ".join(self.pv) or "none"))
        return "\n".join(lines)

    def _head(self):
        return ["move", "visits", "share", "prior",
                *(f"value {q}" for q in range(len(self.values)))]

    def _caption(self):
        return (f"{self.game}: player {self.player} to move; {self.agent}, "
                f"{self.simulations} simulations; root values "
                + " ".join(_value(v) for v in self.values))

    def to_json(self) -> dict:
        """A JSON-ready dict (NaN as None)."""
        return {"game": self.game, "position": self.position, "player": self.player,
                "agent": self.agent, "simulations": self.simulations,
                "values": [_finite(v) for v in self.values],
                "moves": [{k: _finite(v) if isinstance(v, float) else v for k, v in r.items()}
                          for r in self.rows],
                "pv": self.pv}

    def _repr_html_(self):
        return (html_table(self._caption(), self._head(), [_cells(r) for r in self.rows])
                + f"<p>principal variation: {html.escape(', '.join(self.pv) or 'none')}</p>")


def analyse(game: Game, state: Row, agent, rng: Seed = None) -> Analysis:
    """Search the decision node ``state`` (a row or a batch of one) with ``agent`` (an
    ``MCTSAgent``, e.g. ``mcts`` or ``ppo-mcts``, or an ``AZAgent``); an ``Analysis``.
    A ValueError if the state is not a decision node or the agent does not search."""
    row = game.check_row(state)  # checked here; the search below does not check it again
    player = int(game.unchecked.current_player(row)[0])
    if player == TERMINAL:
        raise ValueError("the position is at the end of the game: there is no move to analyse")
    if player == CHANCE:
        raise ValueError("the position is at a chance node (dice or a draw come next): "
                         "analysis needs a player to move")
    rng = as_generator(rng)
    if isinstance(agent, MCTSAgent):
        found = _search_mcts(game, row, agent, rng)
    elif _is_az(agent):
        found = _search_az(game, row, agent, rng)
    else:
        raise ValueError(f"analysis needs a search agent (mcts, ppo-mcts or az), got "
                         f"{clip(describe(agent))}")
    visits, action_values, priors, values, pv = found
    legal = np.flatnonzero(game.unchecked.legal_mask(row)[0]).tolist()
    total = max(int(visits.sum()), 1)
    rows = []
    for a in sorted(legal, key=lambda a: (-visits[a], a)):  # pv[0] is rows[0]
        rows.append({"move": game.action_to_string(row, a), "action": a,
                     "visits": int(visits[a]), "share": float(visits[a] / total),
                     "prior": float(priors[a]),
                     **{f"value_{q}": float(action_values[a, q])
                        for q in range(game.num_players)}})
    return Analysis(game.name, game.to_text(row), player, describe(agent), int(visits.sum()),
                    [float(v) for v in values], rows, pv)


def move_value(game: Game, state: Row, action: int, agent, rng: Seed = None,
               draws: int = 1) -> np.ndarray:
    """``float64[P]``: each player's value of ``action`` in the decision node ``state``, the
    move's rewards plus the root values ``analyse`` finds in the position after it (the final
    returns where the game ends there). Where chance comes next, its outcomes are drawn with
    their probabilities from ``rng`` and the values of ``draws`` draws averaged: an unbiased
    estimate of the move's value, as a search's mean over the simulations through a move is."""
    row = game.check_row(state)
    check_int("draws", draws, 1, MAX_DRAWS)
    rng = as_generator(rng)
    after, rewards = game.step(row, [action])
    total = np.zeros(game.num_players)
    chance = int(game.unchecked.current_player(after)[0]) == CHANCE
    for _ in range(draws if chance else 1):
        child = after.copy()
        while int(game.unchecked.current_player(child)[0]) == CHANCE:
            game.unchecked.apply_chance(child, game.sample_chance(child, rng))
        if int(game.unchecked.current_player(child)[0]) != TERMINAL:
            total += analyse(game, child, agent, rng).values
    return rewards[0] + total / (draws if chance else 1)


def _is_az(agent):
    """Whether ``agent`` is an ``AZAgent`` (without importing torch for other agents)."""
    module = sys.modules.get("savanna.agents.play.az_agent")
    return module is not None and isinstance(agent, module.AZAgent)


def _search_mcts(game, row, agent, rng):
    """``(visits, action_values, priors, root values, pv)`` from MCTS: the trees of every
    determinization added up, priors averaged; the principal variation is the most visited
    move, then the line after it in the tree that visited it most."""
    a, p = game.num_actions, game.num_players
    visits = np.zeros(a, np.int64)
    returns = np.zeros((a, p))
    priors = np.zeros(a)
    value_sum = np.zeros(p)
    done = 0
    lines = []  # (visits of each root action in a tree, {root action: the line after it})
    for tree in agent.trees(game, row, rng, check=False):
        mine = np.zeros(a, np.int64)
        compiled_search(game, agent.rule).root_children(tree.nodes, tree.values, tree.rewards,
                                                        mine, returns)
        visits += mine
        kids = _children(tree.nodes, 0)
        priors[tree.nodes["action"][kids]] += tree.nodes["prior"][kids]
        value_sum += tree.values[0]
        done += int(tree.nodes[0]["visits"])
        lines.append((mine, {int(tree.nodes["action"][k]): principal_variation(
            game, tree.nodes, tree.states, k) for k in kids if tree.nodes["visits"][k]}))
    action_values, pv = _summary(game, row, visits, returns, lines, lambda line: line)
    return visits, action_values, priors / len(lines), value_sum / max(done, 1), pv


def _search_az(game, row, agent, rng):
    """The same from the AlphaZero agent's Gumbel search: with several determinizations, the
    visits of every tree added up, the action values their visit-weighted mean, the priors
    and root values their mean, the principal variation read as in ``_search_mcts``."""
    import torch

    from savanna.agents.models.inference import network_evaluator

    search = agent.new_search(game)
    with torch.no_grad():
        result = search.run(row, network_evaluator(agent.network(game)), rng, check=False)
    nodes, a = search.pool.nodes, game.num_actions
    visits = np.zeros(a, np.int64)
    returns = np.zeros((a, game.num_players))
    priors = np.zeros(a)
    lines = []
    for tree in range(search.trees):  # the root of tree g is node g
        kids = _children(nodes, tree)
        mine = np.zeros(a, np.int64)
        mine[nodes["action"][kids]] = nodes["visits"][kids]
        visits += mine
        priors[nodes["action"][kids]] += nodes["prior"][kids]
        returns += np.nan_to_num(search.action_values(tree)) * mine[:, None]
        lines.append((mine, dict(zip(nodes["action"][kids].tolist(), kids.tolist()))))
    action_values, pv = _summary(
        game, row, visits, returns, lines,
        lambda kid: principal_variation(game, nodes, search.pool.states, kid))
    return visits, action_values, priors / search.trees, result.values[0], pv


def _summary(game, row, visits, returns, lines, follow):
    """The action values (summed returns over visits, NaN where unvisited) and the principal
    variation: the most visited move, then ``follow`` of what the tree that visited it most
    holds for it (``lines``: per tree, its root visits and ``{action: what follow takes}``)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        action_values = returns / visits[:, None]
    action_values[visits == 0] = np.nan
    best = int(np.argmax(visits))
    if not visits[best]:
        return action_values, []
    after = max(lines, key=lambda line: line[0][best])[1][best]
    return action_values, [game.action_to_string(row, best), *follow(after)]


def _children(nodes, node):
    first = int(nodes[node]["first_child"])
    return np.arange(first, first + max(int(nodes[node]["num_children"]), 0))


def principal_variation(game: Game, nodes: np.ndarray, states: np.ndarray,
                        root: int) -> list[str]:
    """The most visited line of a search tree (``savanna.agents.play.search.Tree``'s node
    array) from ``root`` while its nodes have visits: move names, chance outcomes in
    parentheses."""
    line: list[str] = []
    node = root
    while True:
        kids = _children(nodes, node)
        if not len(kids) or nodes["visits"][kids].max() == 0:
            return line
        best = int(kids[np.argmax(nodes["visits"][kids])])
        action = int(nodes["action"][best])
        if nodes[node]["player"] == CHANCE:
            line.append(f"({game.outcome_to_string(action)})")
        else:
            line.append(game.action_to_string(states[nodes[node]["slot"]], action))
        node = best


def _value(x):
    return "-" if math.isnan(x) else f"{x:+.3f}"


def _cells(row):
    """The text of one move's row, in the order of ``Analysis._head``."""
    values = [row[k] for k in row if k.startswith("value_")]
    return [row["move"], str(row["visits"]), f"{row['share']:.1%}", f"{row['prior']:.3f}",
            *(_value(v) for v in values)]


def _finite(x):
    return x if math.isfinite(x) else None
