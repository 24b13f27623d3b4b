"""What a study leaves: ``Study``, its text table, figures, and files (``study.json``, one CSV
per section, ``report.html`` with every figure, each with its sample size and interval, and the
agents and budgets that made it).

Every variant of a study is a JSON-ready dict (``savanna.studies.run``): ``balance`` (per
strength, per seat), ``chain`` (skill depth), ``luck``, ``shape``.
"""
import html
import json
import math
import re
from dataclasses import dataclass, field

from savanna.files import atomic_write_text, make_folders, write_csv
from savanna.studies.charts import curves_chart, interval_chart
from savanna.studies.shape import PHASES

__all__ = ["DEFINITIONS", "Study"]

FIRST_LOOK = ("The quick budget: a first look, not findings (too few games for the intervals "
              "to settle anything).")

# What each figure shows, printed beside it in the report (the study guide says more).
DEFINITIONS = {
    "balance": "The same agent in every seat, seats rotated: each seat's share of games won, "
               "with its 95% Wilson interval; the tick on each row is that seat's even share "
               "(1/P less the draws). A deterministic agent's repeated game has no interval.",
    "first seat": "Seat 0's pairwise score (draws half) minus 1/2: above 0 the first seat "
                  "is ahead.",
    "chain ratings": "Bradley-Terry ratings of the skill population (the chain: random, then "
                     "MCTS of doubling budget; and a second family), fitted to every direct "
                     "match, 95% intervals clustered by game. Their dispersion (standard "
                     "deviation, sampling noise taken out) is the game's skill.",
    "chain steps": "Each direct match: the first agent's score against the second, 95% t "
                   "interval over games; the tick is the score the ratings predict (the "
                   "ratings are transitive where every match agrees with it after Holm's "
                   "correction).",
    "luck": "Upset rate: the weaker agent's score against one with several times its budget "
            "(1/2: skill does not matter). Changed, chance redrawn: the share of games whose "
            "winner changes when only chance is drawn again, every decision's randomness keyed "
            "to its place in the game; changed, agents redrawn: the same with chance kept and "
            "the agents' randomness drawn again (the control); chance alone: the first less "
            "the control, game by game.",
    "shape": "From the strongest MCTS balance match's recorded games: decisions and chance "
             "nodes per game, and legal moves per decision in each third of a game (the mean "
             "of each game's mean, so that long games count once), 95% t intervals over games.",
    "curves": "Each reviewed game: the eventual winner's value minus the best other player's, "
              "as the reviewing search sees each decision's position.",
}


@dataclass
class Study:
    """A finished study (see the module docstring)."""

    settings: object        # StudySettings
    seed: int
    variants: list          # one dict per game variant
    reference: dict | None  # the reference game's skill measures, or None
    tested: int = 0         # the seat rows Holm's correction covered
    run: dict = field(default_factory=dict)  # version, commit, wall and CPU seconds
    games: list = field(default_factory=list, repr=False)  # one row per game played

    # ----- text -----------------------------------------------------------------------------
    def summary(self):
        """A few sentences per variant: seats, skill, chance, every figure with its 95%
        interval; findings are rows that survive Holm's correction over ``tested`` rows."""
        lines = [FIRST_LOOK] if self.settings.budget_name == "quick" else []
        for v in self.variants:
            lines.append(f"{v['variant']}: " + "; ".join(_summary(v, self.tested)) + ".")
        return "\n".join(lines)

    def table(self):
        """Every variant's headline numbers as text, one block per variant."""
        lines = [FIRST_LOOK] if self.settings.budget_name == "quick" else []
        for v in self.variants:
            lines.append(f"{v['variant']}:")
            for b in v["balance"]:
                seats = ", ".join(f"{s['win_rate']:.0%} [{s['win_ci'][0]:.0%},"
                                  f"{s['win_ci'][1]:.0%}]" for s in b["seats"])
                lines.append(f"  balance {b['agent']:<14} n={_n(b):<5} seat wins {seats}; "
                             f"draws {b['draw_rate']:.0%}")
            lines += ["  " + line for line in skill_lines(v["chain"])]
            u = v["luck"]["upset"]
            lines.append(f"  upset {u['weaker']} vs {u['stronger']}: {u['rate']:.0%} "
                         f"[{u['ci'][0]:.0%}, {u['ci'][1]:.0%}] n={u['games']}")
            if "chance" in v["luck"]:
                ch = v["luck"]["chance"]
                lines.append(f"  result changed with chance redrawn {_pct(ch, 'redrawn')}, "
                             f"with the agents' randomness redrawn {_pct(ch, 'control')}: "
                             f"chance alone {_pct(ch, 'chance_alone')} n={ch['games']}")
            s = v["shape"]
            r = s["reviews"]
            lines.append(f"  {s['decisions']['mean']:.1f} decisions, "
                         f"{s['chance_nodes']['mean']:.1f} chance nodes per game; branching "
                         + ", ".join(f"{p} {s['branching'][p]['mean']:.1f}" for p in PHASES))
            lines.append(f"  decision moves {_stat(s['decision_moves'], '.0%')}, decision "
                         f"factor {_stat(s['decision_factor'], '.1f')}, game-tree complexity "
                         f"10^{_stat(s['complexity'], '.1f')}, completion "
                         f"{_stat(s['completion'], '.0%')}")
            lines.append(f"  reviewed by {r['agent']}: lead changes "
                         f"{_stat(r['lead_changes'], '.1f')}, decided at "
                         f"{_stat(r['decided_at'], '.0%')}, drama {_stat(r['drama'], '.2f')}, "
                         f"stability {_stat(r['stability'], '.2f')} (n={r['games']})")
            lines.append(f"  uncertainty {_stat(r['uncertainty'], '.2f')}, clarity: "
                         f"narrowness {_stat(r['clarity_narrowness'], '.2f')}, variance "
                         f"{_stat(r['clarity_variance'], '.3f')} "
                         f"(n={r['clarity_narrowness']['n']})")
        return "\n".join(lines)

    def __repr__(self):
        return self.table()

    # ----- figures ----------------------------------------------------------------------------
    def figures(self):
        """``{name: Drawing}``: per variant, seat balance, first-seat advantage, the skill
        population's ratings and direct matches, luck, shape and the review's curves."""
        out = {}
        for v in self.variants:
            key = v["variant"]
            rows = [(f"{b['agent']} seat {s['seat']}", s["win_rate"], *_bars(b, s["win_ci"]),
                     _n(b), s["even"]) for b in v["balance"] for s in b["seats"]]
            out[f"{key}: balance"] = interval_chart(
                f"{key}: each seat's win rate, identical agents (95%)", rows, percent=True,
                axis="share of games won (ticks: even, 1/P less the draws)")
            out[f"{key}: first seat"] = interval_chart(
                f"{key}: seat 0's score minus 1/2 (95%)",
                [(b["agent"], b["first_seat_advantage"], *_bars(b, b["first_seat_ci"]), _n(b))
                 for b in v["balance"]], even=0.0, percent=True,
                axis="seat 0's pairwise score minus 1/2 (0: even)")
            c = v["chain"]
            out[f"{key}: chain ratings"] = interval_chart(
                f"{key}: skill population, Elo (mean 0, 95% clustered by game)",
                [(r["agent"], r["elo"], *r["elo_ci"], r["games"]) for r in c["ratings"]],
                even=0.0, axis="Bradley-Terry rating, Elo")
            out[f"{key}: chain steps"] = interval_chart(
                f"{key}: each direct match's score, first vs second (95%)",
                [(f"{s['stronger']} vs {s['weaker']}", s["score"], *s["score_ci"], s["games"],
                  s["predicted"]) for s in c["matches"]], even=0.5, percent=True,
                axis="first agent's score (ticks: the ratings' prediction)")
            upset = v["luck"]["upset"]
            luck = [("upset rate", upset["rate"], *upset["ci"], upset["games"], 0.5)]
            if "chance" in v["luck"]:
                ch = v["luck"]["chance"]
                luck += [(label, ch[k], *ch[k + "_ci"], ch["games"], mark) for label, k, mark in (
                    ("changed, chance redrawn", "redrawn", math.nan),
                    ("changed, agents redrawn", "control", math.nan),
                    ("chance alone", "chance_alone", 0.0))]
            out[f"{key}: luck"] = interval_chart(
                f"{key}: luck (95%)", luck, percent=True,
                axis="share of games (ticks: no luck, 1/2 upsets; no chance, 0)")
            sh = v["shape"]
            out[f"{key}: shape"] = interval_chart(
                f"{key}: shape of {sh['agent']}'s games (95%)",
                [(name, sh[k]["mean"], *sh[k]["ci"], sh[k]["n"]) for name, k in (
                    ("decisions per game", "decisions"),
                    ("chance nodes per game", "chance_nodes"))]
                + [(f"legal moves, {p}", sh["branching"][p]["mean"], *sh["branching"][p]["ci"],
                    sh["branching"][p]["n"]) for p in PHASES], axis="count")
            out[f"{key}: curves"] = curves_chart(
                f"{key}: winner's value lead ({sh['reviews']['agent']}, "
                f"n={sh['reviews']['games']})",
                [(c["winner"], c["values"]) for c in sh["curves"]])
        return out

    def _repr_html_(self):
        return "".join(f"<div>{d.svg()}</div>" for d in self.figures().values())

    # ----- files ----------------------------------------------------------------------------
    def to_json(self):
        return _finite({"format": "savanna-study", "version": 2, "seed": self.seed,
                        "budget": self.settings.budget_name,
                        "settings": self.settings.to_json(), "run": self.run,
                        "rows_tested": self.tested, "variants": self.variants,
                        "reference": self.reference})

    def save(self, folder):
        """Write ``study.json``, ``balance.csv``, ``chain.csv`` (the ratings, with each
        variant's dispersion, chain length and share of chance), ``matches.csv`` (the direct
        matches), ``luck.csv``, ``shape.csv``, ``games.csv`` (every game: its match, seed,
        agents by seat, returns by seat, plies), ``figures/*.svg`` and ``report.html`` into
        ``folder``, each atomically; its path."""
        atomic_write_text(folder / "study.json", json.dumps(self.to_json(), indent=1))
        for name, rows in self.csv_rows().items():
            if rows:
                write_csv(folder / f"{name}.csv", rows)
        make_folders(folder / "figures")
        figures = self.figures()
        for name, drawing in figures.items():
            atomic_write_text(folder / "figures" / f"{_slug(name)}.svg", drawing.svg())
        atomic_write_text(folder / "report.html", self.html(figures))
        return folder

    def csv_rows(self):
        """``{section: rows}``: one flat dict per line of each CSV file."""
        balance, chain, matches, luck, shape = [], [], [], [], []
        for v in self.variants:
            head = {"variant": v["variant"]}
            c = v["chain"]
            summary = {k: c.get(k, ("", "") if k.endswith("_ci") else "") for k in (
                "dispersion", "dispersion_ci", "no_skill_p", "skill_measured", "length",
                "length_ci", "transitive", "chance_share", "chance_share_ci")}
            for r in c["ratings"]:
                chain.append(_flat({**head, **r, **summary}))
            for b in v["balance"]:
                for s in b["seats"]:
                    balance.append(_flat({**head, "agent": b["agent"], **s}))
            for s in c["matches"]:
                matches.append(_flat({**head, **s}))
            for name, row in v["luck"].items():
                luck.append(_flat({**head, "measure": name, **row}))
            s = v["shape"]
            stats = {k: s[k] for k in ("decisions", "chance_nodes", "decision_moves",
                                       "decision_factor", "complexity", "completion",
                                       "draw_rate")}
            stats = {**stats,
                     **{f"branching_{p}": s["branching"][p] for p in PHASES},
                     **{k: s["reviews"][k] for k in ("lead_changes", "decided_at", "drama",
                                                     "stability", "uncertainty",
                                                     "clarity_narrowness",
                                                     "clarity_variance")}}
            for name, stat in stats.items():
                shape.append(_flat({**head, "measure": name, **stat}))
        return {name: _uniform(rows) for name, rows in
                (("balance", balance), ("chain", chain), ("matches", matches), ("luck", luck),
                 ("shape", shape), ("games", self.games))}

    def html(self, figures=None):
        """The report: settings, the table, and every figure."""
        figures = self.figures() if figures is None else figures
        settings = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(str(v))}</td></tr>"
                           for k, v in self.settings.to_json().items())
        reference = ("" if self.reference is None else
                     f"<p>Share of chance measured against {html.escape(self.reference['variant'])}"
                     f": its ratings disperse {self.reference['dispersion']:.0f} Elo.</p>")
        body = "".join(f"<h2>{html.escape(name)}</h2>"
                       f"<p>{html.escape(_definition(name), quote=False)}</p>{d.svg()}"
                       for name, d in figures.items())
        stamp = (f"<p><strong>{html.escape(FIRST_LOOK)}</strong></p>"
                 if self.settings.budget_name == "quick" else "")
        summary = "".join(f"<li>{html.escape(line, quote=False)}</li>" for line in
                          self.summary().splitlines() if line != FIRST_LOOK)
        name = self.settings.budget_name
        budget = "counts of no budget" if name is None else f"the {name} budget"
        return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Savanna study</title>"
                "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
                "td{padding:0 1em}pre{white-space:pre-wrap}</style></head><body>"
                f"<h1>Savanna study</h1>{stamp}<h2>Summary</h2><ul>{summary}</ul>"
                f"<p>Seed {self.seed}, {budget}. Agents: random, MCTS with the simulations "
                "named (mcts:sims=N; temperature=1: drawing its move in proportion to its "
                "visits), the shipped network (az:baseline) where named. "
                f"{_run_text(self.run)}</p>"
                f"<table>{settings}</table>{reference}"
                f"<pre>{html.escape(self.table())}</pre>{body}</body></html>")


def _run_text(run):
    """The version, commit and cost of the run, in words."""
    if not run:
        return ""
    return (f"Savanna {run['package_version']}, commit {run['git_commit'] or 'unknown'}; "
            f"{run['wall_seconds']:.0f} s of wall time and {run['cpu_seconds']:.0f} s of CPU "
            f"with {run['workers'] or 'every core as'} workers ({run['backend']}).")


def _definition(name):
    """The definition of figure ``name`` ("zebres 2p: chain ratings")."""
    return DEFINITIONS[name.rsplit(": ", 1)[1]]


def _summary(v, tested):
    """The summary's clauses for variant ``v`` (``Study.summary``)."""
    found = [(b["agent"], s) for b in v["balance"] for s in b["seats"] if s.get("finding")]
    if found:
        seats = "; ".join(f"seat {s['seat']} wins {s['win_rate']:.0%} [{s['win_ci'][0]:.0%}, "
                          f"{s['win_ci'][1]:.0%}] with {agent} (even {s['even']:.0%})"
                          for agent, s in found)
        clauses = [f"seats differ after Holm's correction over {tested} rows: {seats}"]
    else:
        clauses = [f"seats even (no seat differs after Holm's correction over {tested} rows)"]
    clauses += skill_lines(v["chain"])
    if "chance" in v["luck"]:
        ch = v["luck"]["chance"]
        clauses.append(f"chance alone changes the winner of {_pct(ch, 'chance_alone')} of "
                       f"games (chance redrawn {_pct(ch, 'redrawn')}, control "
                       f"{_pct(ch, 'control')})")
    else:
        clauses.append("no chance")
    return clauses


def _stat(stat, spec):
    """A shape measure with its interval: ``"0.42 [0.30, 0.55]"``."""
    low, high = stat["ci"]
    return f"{stat['mean']:{spec}} [{low:{spec}}, {high:{spec}}]"


def _pct(row, key):
    low, high = row[key + "_ci"]
    return f"{row[key]:.0%} [{low:.0%}, {high:.0%}]"


def skill_lines(c):
    """The skill section in words, every figure with its 95% interval."""
    low, high = c["length_ci"]
    lines = [f"skill: ratings disperse {c['dispersion']:.0f} Elo [{c['dispersion_ci'][0]:.0f},"
             f" {c['dispersion_ci'][1]:.0f}] over {len(c['population'])} agents"
             + ("" if c["skill_measured"] else
                f"; no skill measured (no two agents told apart, p = {c['no_skill_p']:.2f})"),
             f"skill chain {c['length']} [{low:.0f}, {high:.0f}] (each beating the one below by"
             f" a score >= {c['threshold']:.0%}); ratings "
             + ("transitive" if c["transitive"] else "not transitive")
             + f" within their intervals over {len(c['matches'])} direct matches"]
    if "chance_share" in c:
        lines.append(f"share of chance {_pct(c, 'chance_share')}")
    elif "reference_dispersion" in c:
        lines.append("share of chance: none measured (no skill measured)")
    return lines


def _n(balance):
    """A balance match's games, and how many differ where some repeat: a deterministic agent
    plays the same game again and again, and its interval then overstates what is known."""
    n, distinct = balance["games"], balance["distinct"]
    if distinct == 1:
        return f"{n} (1 distinct game)"
    return f"{n}" if distinct == n else f"{n} ({distinct} distinct)"


def _bars(balance, interval):
    """A balance row's interval, or none for one distinct game repeated (no sample)."""
    return (math.nan, math.nan) if balance["distinct"] == 1 else interval


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text)


def _flat(row):
    """A CSV row: intervals split into low/high columns."""
    flat = {}
    for key, value in row.items():
        if isinstance(value, (tuple, list)):
            flat[key + "_low"], flat[key + "_high"] = value
        else:
            flat[key] = value
    return flat


def _uniform(rows):
    """``rows`` with the same columns (every key of any row, in order of appearance; blank
    where a row has none, as seats without points)."""
    keys = list(dict.fromkeys(k for row in rows for k in row))
    return [{k: row.get(k, "") for k in keys} for row in rows]


def _finite(value):
    """JSON has no infinity or NaN: they become None."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
