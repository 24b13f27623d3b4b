"""Agents scored by reviews: each agent's average drop or accuracy over many reviewed games
(``by_agent``, ``accuracy_by_agent``), and every agent asked to move in the same positions, each
move valued by one analysis of the position (``sample_positions``, ``expected_drops``,
``drop_by_agent``).

The first are each player's scores on the positions its own games reached, which differ from
player to player (a lost game leaves nothing to drop), so they do not order play by strength;
the second ask every agent the same positions, so that agents differ only by their moves (the
records guide measures how each orders play by strength). Every interval is bootstrapped by
game: the decisions of one game share its course.

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match
>>> game = make_game("zebres")
>>> result = play_match(game, [make_agent("mcts:sims=50"), make_agent("greedy")], games=2,
...                     seed=0, workers=1, record=True)
>>> sampled = sample_positions(result.records, 2, game, seed=1)
>>> agents = ["random", "mcts:sims=100"]
>>> drops = expected_drops(game, [row for _, row in sampled], agents, "mcts:sims=400")
>>> drop_by_agent(drops, [i for i, _ in sampled], agents)["mcts:sims=100"]["gain"]
"""
import numpy as np

from savanna.agents.play.registry import make_agent
from savanna.agents.play.review import DEFAULT_AGENT, bootstrap_interval, move_values
from savanna.agents.settings import MAX_SEED
from savanna.errors import check_int

__all__ = ["accuracy_by_agent", "by_agent", "drop_by_agent", "expected_drops",
           "sample_positions"]

MAX_POSITIONS = 10_000  # positions sampled a record


def accuracy_by_agent(reviews, level=0.95, resamples=4000, seed=0):
    """Each agent's accuracy over ``reviews`` (of different games): ``{agent: {"games": n,
    "accuracy": the mean of its accuracy in each game it played, "interval": (low, high)}}``
    (``by_agent`` of ``"accuracy"``): the interval lies within [0, 100] as the accuracies do."""
    return by_agent(reviews, "accuracy", level, resamples, seed)


def by_agent(reviews, measure, level=0.95, resamples=4000, seed=0):
    """Each agent's ``measure`` (a key of ``Review.summary``: ``average_drop`` or
    ``accuracy``) over ``reviews`` (of different games): ``{agent: {"games": n, measure: the
    mean of its measure in each game it played, "interval": (low, high)}}``, agents named as
    the records name them. The interval is a percentile bootstrap by game (each game drawn
    whole, so that the decisions of one game, which share its course, are not taken as
    independent), ``level`` of ``resamples`` means; None below two games. An agent in two
    seats of a game counts their mean."""
    per_game = {}
    for r in reviews:
        mine = {}
        for s in r.summary():
            if s[measure] is not None:
                mine.setdefault(r.agents[s["player"]], []).append(s[measure])
        for agent, values in mine.items():
            per_game.setdefault(agent, []).append(float(np.mean(values)))
    rng = np.random.default_rng(seed)
    return {agent: {"games": len(values), measure: float(np.mean(values)),
                    "interval": bootstrap_interval(values, np.mean, level, resamples, rng)}
            for agent, values in per_game.items()}


def sample_positions(records, per_record, game=None, seed=0):
    """``(record index, state row)`` pairs: ``per_record`` decision positions drawn without
    replacement, with ``seed``, from each of ``records`` (all of a record's positions where it
    has fewer), in the order they were played: the same positions for every agent to be asked
    about."""
    per_record = check_int("per_record", per_record, 1, MAX_POSITIONS)
    rng = np.random.default_rng(check_int("seed", seed, 0, MAX_SEED))
    out = []
    for i, record in enumerate(records):
        game = game or record.game()
        states = record.states(game)
        plies = rng.choice(record.plies, min(per_record, record.plies), replace=False)
        out += [(i, states[record.ply_index(int(p)): record.ply_index(int(p)) + 1])
                for p in sorted(plies)]
    return out


def expected_drops(game, positions, agents, reviewer=DEFAULT_AGENT, seed=0):
    """``float64[len(positions), len(agents)]``: the drop of each agent's move in each of
    ``positions`` (state rows, decision nodes), in points of 100 of the mover's expected
    result, as one analysis of the position by ``reviewer`` values it (the review's valuation:
    its best move's mean return minus the move's, a move it never tried valued by a search of
    the position after it). Every agent is asked the same positions through its seat's view
    (``savanna.seats.seat_act``, drawing from ``(seed, position, agent)``), and their moves are
    valued by the same analysis, so that the agents differ only by their moves."""
    from savanna.agents.play.analysis import analyse
    from savanna.seats import seat_act

    reviewer = make_agent(reviewer) if isinstance(reviewer, str) else reviewer
    agents = [make_agent(a) if isinstance(a, str) else a for a in agents]
    share = 100 * (game.num_players - 1) / game.num_players
    out = np.zeros((len(positions), len(agents)))
    for i, row in enumerate(positions):
        found = analyse(game, row, reviewer, rng=np.random.default_rng((seed, i)))
        for j, agent in enumerate(agents):
            action = int(seat_act(agent, game, row.copy(), np.random.default_rng((seed, i, j)))[0])
            best_value, played_value, _ = move_values(game, row, found, action, reviewer,
                                                       (seed, i, j, 1))
            out[i, j] = (best_value - played_value) * share
    return out


def drop_by_agent(drops, groups, agents, level=0.95, resamples=4000, seed=0):
    """Each agent's mean drop over the positions of ``drops`` (``expected_drops``), where
    ``groups[i]`` names the record position ``i`` came from: ``{agent: {"positions": n,
    "drop": the mean, "interval": (low, high), "gain": the agent before it's mean drop minus
    its own, "gain_interval": (low, high)}}`` (no gain for the first agent). The intervals are
    percentile bootstraps by record (a record's positions drawn together, as they share its
    course), with the same draws for every agent: the gain's interval is that of the paired
    difference on the same positions, which their difficulty, shared by both agents, does not
    widen."""
    drops, groups = np.asarray(drops, np.float64), np.asarray(groups)
    names = np.unique(groups)
    sums = np.array([drops[groups == g].sum(axis=0) for g in names])  # records x agents
    counts = np.array([np.sum(groups == g) for g in names])
    picks = np.random.default_rng(seed).integers(len(names), size=(resamples, len(names)))
    means = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)[:, None]
    tail = (1 - level) / 2
    low, high = np.quantile(means, [tail, 1 - tail], axis=0)
    gains = np.quantile(means[:, :-1] - means[:, 1:], [tail, 1 - tail], axis=0)
    out = {}
    for j, agent in enumerate(agents):
        out[agent] = {"positions": len(drops), "drop": float(drops[:, j].mean()),
                      "interval": (float(low[j]), float(high[j])) if len(names) > 1 else None}
        if j:
            out[agent]["gain"] = float(drops[:, j - 1].mean() - drops[:, j].mean())
            out[agent]["gain_interval"] = (tuple(float(x) for x in gains[:, j - 1])
                                           if len(names) > 1 else None)
    return out
