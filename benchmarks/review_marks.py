"""Whether a review's marks are there and its scores order play by strength: the figures of
the records guide's "How far a review can be trusted".

    python -m savanna.benchmarks.review_marks --out review-marks.json

For each game, a round robin of ``random``, ``greedy``, ``mcts:sims=32`` and ``mcts:sims=400``
(every pair, each seat once: 12 recorded games; ``--agents`` and ``--pair-games`` choose
others) is reviewed with the default review by the game's reviewer (``default_agent`` of
``savanna.agents.play.review``; ``--agent`` another). Every decision whose first drop passes
the threshold (what a review marked before marks needed confirming) is searched again by an
independent search (its own seed) 4 times deeper than the review's first search, and every mark
shown also by one 4 times deeper than its confirming search (``--checks``): a mark survives a
check when that search also finds a drop above the threshold. Printed per game: the first
search's marks and the share that survive each check, the marks shown and the share that
survive each check, their mean ``sure``; then each agent's average drop and accuracy, each with
its 95% bootstrap interval by game (scores of the positions each agent's games reached).

Printed first, the score that compares the agents on the same positions: ``--positions N``
decisions of each recorded game (drawn with the matches' seed; all of them where a game has
fewer), every agent asked to move in each and its move valued by one analysis of the position
(``expected_drops``); each agent's mean drop with its 95% bootstrap interval by recorded game
and its gain over the agent before it, the paired difference (``drop_by_agent``).
``--no-marks`` prints that score alone, without reviewing the games.
"""
import argparse
import itertools
import json
import sys

import numpy as np

from savanna.agents import make_agent, play_match
from savanna.agents.play.base import describe
from savanna.agents.play.review import (
    DEFAULT_THRESHOLD,
    deeper,
    default_agent,
    review,
    review_decision,
)
from savanna.agents.play.review_scores import (
    by_agent,
    drop_by_agent,
    expected_drops,
    sample_positions,
)
from savanna.files import atomic_write_text, check_new_file
from savanna.registry import make_game

AGENTS = ("random", "greedy", "mcts:sims=32", "mcts:sims=400")
GAMES = {"zebres": {}, "bonobo": {"num_players": 2}, "banjooli": {"num_players": 2}}
MEASURES = ("average_drop", "accuracy")  # the summary's scores, printed per agent
CHECK_SEED = 777  # the checking searches' seed, apart from the review's own streams


def round_robin(game, seed, agents=AGENTS, games=2):
    """The records of every pair of ``agents``, ``games`` games a pair, seats rotated (match
    ``k`` at ``seed + k``)."""
    records = []
    for k, pair in enumerate(itertools.combinations(agents, 2)):
        records += play_match(game, [make_agent(a) for a in pair], games=games, seed=seed + k,
                              workers=1, progress=False, record=True).records
    return records


def check_marks(record, result, game, checker, rows):
    """``{ply: the drop that ``checker``, an independent search, finds}`` for the decisions
    ``rows`` of the review ``result``."""
    states = record.states(game)
    found = {}
    for row in rows:
        ply = int(row["ply"])
        k = record.ply_index(ply)
        again = review_decision(game, states[k: k + 1], record.moves[k], checker, CHECK_SEED,
                                ply, result.threshold, confirm=0)
        found[ply] = float(again[result.columns().index("drop")])
    return found


def measure(name, agent, seed, checks, agents=AGENTS, games=2, positions=20, marks=True):
    """The figures of one game (see the module docstring), ``games`` games a pair of
    ``agents``, ``positions`` positions of each recorded game for the same-position score
    (the review's marks left out without ``marks``)."""
    game = make_game(name, **GAMES[name])
    reviewer = make_agent(agent or default_agent(name))
    records = round_robin(game, seed, agents, games)
    sampled = sample_positions(records, positions, game, seed)
    drops = expected_drops(game, [row for _, row in sampled], agents, reviewer, seed)
    same = {"positions": len(sampled), "reviewer": describe(reviewer),
            "drop": drop_by_agent(drops, [i for i, _ in sampled], agents),
            "drops": drops.tolist(), "records_of": [i for i, _ in sampled]}
    if not marks:
        return {"game": name, "records": len(records), "same_positions": same}
    return {**_marks(name, game, reviewer, records, checks, agents), "same_positions": same}


def _marks(name, game, reviewer, records, checks, agents):
    """The review's figures of ``records``: its marks' survival and each player's scores."""
    checkers = {k: deeper(reviewer, k) for k in checks}
    reviews, sure = [], []
    first, shown = {k: [] for k in checks}, {k: [] for k in checks}
    for record in records:
        result = review(record, reviewer, game=game)
        d = result.decisions
        candidates = d[d["drop"] > result.threshold]
        for k, checker in checkers.items():
            rows = (d[(d["drop"] > result.threshold) | (d["label"] != "")] if k == checks[0]
                    else result.marked)  # the deeper checks: the marks shown only
            survives = {ply: drop > result.threshold for ply, drop in
                        check_marks(record, result, game, checker, rows).items()}
            if k == checks[0]:
                first[k] += [survives[int(ply)] for ply in candidates["ply"]]
            shown[k] += [survives[int(ply)] for ply in result.marked["ply"]]
        sure += result.marked["sure"].tolist()
        reviews.append(result)
        print(f"  {name} game {len(reviews)}: {' vs '.join(record.agents)}; "
              f"{len(candidates)} first marks, {len(result.marked)} shown", file=sys.stderr,
              flush=True)
    scores = {measure: by_agent(reviews, measure) for measure in MEASURES}
    return {"game": name, "reviewer": reviews[0].agent, "confirm": reviews[0].confirm,
            "records": len(reviews), "decisions": int(sum(len(r.decisions) for r in reviews)),
            "first_marks": len(first[checks[0]]), "shown": len(shown[checks[0]]),
            "first_survive": {k: _share(v) for k, v in first.items() if v},
            "shown_survive": {k: _share(v) for k, v in shown.items()},
            "mean_sure": float(np.mean(sure)) if sure else None,
            **{measure: {a: found[a] for a in sorted(found, key=lambda a: _order(a, agents))}
               for measure, found in scores.items()},
            "reviews": [r.to_json() for r in reviews]}


def _share(flags):
    return float(np.mean(flags)) if flags else None


def _order(agent, agents):
    return next(k for k, a in enumerate(agents) if agent.startswith(a.split(":")[0])
                and all(part in agent for part in a.split(":")[1:]))


def lines(figures):
    """The figures in words, one game after another."""
    out = []
    for f in figures:
        same = f["same_positions"]
        out.append(f"{f['game']}: {f['records']} games; on the same {same['positions']} "
                   f"positions, valued by {same['reviewer']}, the mean drop of")
        for agent, a in same["drop"].items():
            low, high = a["interval"] or (float("nan"),) * 2
            gain = ""
            if "gain" in a:
                lower, upper = a["gain_interval"] or (float("nan"),) * 2
                gain = f"; {a['gain']:+.2f} [{lower:+.2f}, {upper:+.2f}] below the agent before"
            out.append(f"  {agent}: {a['drop']:.2f} [{low:.2f}, {high:.2f}]{gain}")
        if "decisions" not in f:
            continue
        out.append(f"{f['game']}: {f['records']} games, {f['decisions']} decisions reviewed by "
                   f"{f['reviewer']}")
        out.append(f"  first search's marks: {f['first_marks']}, surviving a search "
                   + _survival(f["first_survive"]))
        out.append(f"  marks shown (confirmed {f['confirm']}x deeper): {f['shown']}, surviving "
                   f"a search {_survival(f['shown_survive'])}; mean sure "
                   f"{_percent(f['mean_sure'])}")
        for measure in MEASURES:
            for agent, a in f[measure].items():
                low, high = a["interval"] or (float("nan"),) * 2
                out.append(f"  {agent}: {measure.replace('_', ' ')} {a[measure]:.1f} "
                           f"[{low:.1f}, {high:.1f}] over {a['games']} games")
    return "\n".join(out)


def _survival(shares):
    return ", ".join(f"{k}x deeper: {_percent(x)}" for k, x in shares.items())


def _percent(x):
    return "-" if x is None else f"{100 * x:.0f}%"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m savanna.benchmarks.review_marks",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--agent", help="the reviewing agent (default: the game's, "
                                        "savanna.agents.play.review.default_agent)")
    parser.add_argument("--agents", nargs="+", default=list(AGENTS),
                        help="the agents of the round robin (default: %(default)s)")
    parser.add_argument("--pair-games", type=int, default=2,
                        help="games a pair, seats rotated (default: 2)")
    parser.add_argument("--checks", type=int, nargs="+", default=[4, 16],
                        help="the checking searches, times the review's simulations "
                             "(default: 4 16)")
    parser.add_argument("--seed", type=int, default=1000, help="the matches' first seed")
    parser.add_argument("--positions", type=int, default=20,
                        help="positions drawn from each recorded game for the same-position "
                             "score (default: 20)")
    parser.add_argument("--no-marks", dest="marks", action="store_false",
                        help="the same-position score alone, without reviewing the games")
    parser.add_argument("--out", help="also write the figures there as JSON, with every "
                                      "review (Review.to_json)")
    args = parser.parse_args(argv)
    if args.out:
        check_new_file(args.out, False)
    figures = []
    for name in args.games:
        figures.append(measure(name, args.agent, args.seed, args.checks, args.agents,
                               args.pair_games, args.positions, args.marks))
        print(lines(figures[-1:]), flush=True)
    if args.out:
        atomic_write_text(args.out, json.dumps({"threshold": DEFAULT_THRESHOLD,
                                                "figures": figures}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
