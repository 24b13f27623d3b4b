"""A lasting rating ladder: every pairwise result is kept, so a new agent is rated by playing
its own games only.

A ladder file (JSON, written atomically) holds the game, the anchor (``random``, 0 Elo), the
agents by spec and every match played. ``Ladder.add(agent, games)`` plays the new agent against
the agents already there (seats rotated), then refits every rating: Bradley-Terry maximum
likelihood over all pairwise results, with 95% intervals. The same additions with the same
seeds give the same file and ratings, with any number of workers.

>>> ladder = Ladder.new("zebres")                    # random = 0 Elo
>>> ladder.add("greedy", games=20, seed=0, workers=1, progress=False)
>>> ladder.add("mcts:sims=50", games=20, seed=0, workers=1, progress=False)  # vs both only
>>> ladder.save("ladder-zebres.json"); print(ladder.table())
"""
import itertools
import json
import math
from pathlib import Path

import numpy as np

from savanna import draw
from savanna.agents.arena.matches import play_match
from savanna.agents.arena.stats import Z95, fit_elo, pair_scores
from savanna.agents.play.base import describe
from savanna.agents.play.registry import make_agent
from savanna.agents.settings import MAX_GAMES
from savanna.errors import check_int, clip
from savanna.files import atomic_write_text, parse_json, read_text
from savanna.registry import make_game

__all__ = ["Ladder"]

FORMAT, VERSION = "savanna-ladder", 1
MAX_BYTES = 2**26  # a ladder file of 64 MiB holds about 100,000 matches


class Ladder:
    """The agents, matches and ratings of one ladder (see the module docstring)."""

    def __init__(self, game, options, anchor, agents, matches):
        self.game_name, self.options = game, dict(options)
        self.game = make_game(game, **self.options)
        self.anchor = anchor
        self.agents = list(agents)    # specs, in the order they joined; agents[0] is the anchor
        self.matches = list(matches)  # {"agents": [spec, ...], "games", "seed", "pair_score"}

    @classmethod
    def new(cls, game: str, options: dict | None = None, anchor: str = "random") -> "Ladder":
        """An empty ladder of ``game`` (a registered name) with only ``anchor`` on it."""
        label = describe(make_agent(anchor))
        return cls(game, options or {}, label, [label], [])

    @classmethod
    def load(cls, path) -> "Ladder":
        """The ladder saved in file ``path``; a one-line ValueError if it cannot be one."""
        where = clip(str(path))
        data = parse_json(read_text(path, "ladder file", MAX_BYTES), f"ladder file {where}")
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{where} is not a ladder file (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise ValueError(f"ladder file {where} has version {clip(data.get('version'))}; "
                             f"this savanna reads version {VERSION}")
        try:
            options = {k: tuple(v) if isinstance(v, list) else v
                       for k, v in data["options"].items()}
            ladder = cls(data["game"], options, data["anchor"], data["agents"],
                         data["matches"])
            if ladder.anchor not in ladder.agents:
                raise KeyError(f"the anchor {ladder.anchor!r} is not on it")
            ladder._tables()  # every match names agents of the ladder, tables of the right size
        except (KeyError, TypeError, AttributeError, IndexError) as err:
            raise ValueError(f"ladder file {where} is damaged ({type(err).__name__}: "
                             f"{clip(str(err))})") from None
        return ladder

    def save(self, path) -> Path:
        """Write the ladder to ``path`` atomically (a reader never sees half a file)."""
        path = Path(path)
        data = {"format": FORMAT, "version": VERSION, "game": self.game_name,
                "options": self.options, "anchor": self.anchor, "agents": self.agents,
                "matches": self.matches}
        if path.parent != Path():
            path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(data, indent=1))
        return path

    # ----- playing --------------------------------------------------------------------------
    def add(self, agent, games: int = 100, seed: int = 0, workers: int | None = None,
            progress: bool = True) -> list:
        """Rate ``agent`` (a spec, or an agent that ``make_agent(describe(agent))`` rebuilds) by
        playing it against every group of ``P - 1`` agents of the ladder, ``games`` games a
        match; returns the ``MatchResult`` of each match. A ValueError if it is on the ladder
        already."""
        new = make_agent(agent) if isinstance(agent, str) else agent
        label = describe(new)
        if not isinstance(agent, str):
            make_agent(label)  # the file names agents by spec: later additions rebuild it
        if label in self.agents:
            raise ValueError(f"{clip(label)} is on the ladder already")
        check_int("games", games, 1, MAX_GAMES)
        others = {spec: _rebuild(spec) for spec in self.agents}
        groups = itertools.combinations_with_replacement(self.agents,
                                                         self.game.num_players - 1)
        results = []
        for k, group in enumerate(groups):
            match_seed = int(np.random.SeedSequence([seed, len(self.agents), k])
                             .generate_state(1)[0])
            result = play_match(self.game, [new, *(others[s] for s in group)], games,
                                match_seed, workers, progress)
            results.append(result)
            self.matches.append({
                "agents": [label, *group], "games": int(games), "seed": match_seed,
                "pair_score": pair_scores(result.returns).sum(axis=0).tolist()})
        self.agents.append(label)
        return results

    # ----- ratings ----------------------------------------------------------------------------
    def _tables(self):
        """``(pair_score, pair_games)`` ``[N, N]`` summed over every match."""
        n = len(self.agents)
        index = {spec: i for i, spec in enumerate(self.agents)}
        score, games = np.zeros((n, n)), np.zeros((n, n))
        for match in self.matches:
            idx = np.array([index[spec] for spec in match["agents"]])
            table = np.asarray(match["pair_score"], np.float64)
            if table.shape != (len(idx), len(idx)):
                raise IndexError(f"a pair_score table of shape {table.shape} for "
                                 f"{len(idx)} agents")
            np.add.at(score, (idx[:, None], idx[None, :]), table)
            np.add.at(games, (idx[:, None], idx[None, :]), float(match["games"]))
        np.fill_diagonal(score, 0)  # an agent met a copy of itself: no information
        np.fill_diagonal(games, 0)
        return score, games

    def ratings(self) -> list[dict]:
        """One dict per agent, best first: rank, agent, elo, low and high (the 95% interval),
        games (pairwise comparisons) and score (mean pairwise score)."""
        score, games = self._tables()
        elo, errors = fit_elo(score, games, anchor=self.agents.index(self.anchor))
        played, won = games.sum(axis=1), score.sum(axis=1)
        order = np.argsort(-elo, kind="stable")
        return [{"rank": r + 1, "agent": self.agents[i], "elo": float(elo[i]),
                 "low": float(elo[i] - Z95 * errors[i]), "high": float(elo[i] + Z95 * errors[i]),
                 "games": int(played[i]),
                 "score": float(won[i] / played[i]) if played[i] else math.nan}
                for r, i in enumerate(order)]

    def table(self) -> str:
        """The ratings as text, best first."""
        rows = self.ratings()
        width = max(len("agent"), *(len(r["agent"]) for r in rows))
        lines = [f"{self.game!r} ladder: {len(self.agents)} agents, {len(self.matches)} "
                 f"matches, {self.anchor} = 0 Elo",
                 f"rank  {'agent':<{width}}  {'Elo':>6}  {'95% interval':>14}  {'games':>6}  "
                 f"{'score':>6}"]
        for r in rows:
            score = "-" if math.isnan(r["score"]) else f"{r['score']:.1%}"
            interval = f"[{r['low']:+.0f}, {r['high']:+.0f}]"
            lines.append(f"{r['rank']:>4}  {r['agent']:<{width}}  {r['elo']:+6.0f}  "
                         f"{interval:>14}  {r['games']:>6}  {score:>6}")
        return "\n".join(lines)

    def drawing(self) -> draw.Drawing:
        """The ratings as a chart: one row per agent, best on top, a dot at its Elo and a bar
        over its 95% interval (``.svg()``, ``.png()``, shown in a notebook)."""
        rows = self.ratings()
        label_w = 8.0 * max(len(r["agent"]) for r in rows) + 20
        plot_w, row_h, top = 420.0, 28.0, 40.0
        low = min(min(r["low"] for r in rows), 0.0)
        high = max(max(r["high"] for r in rows), 0.0)
        span = max(high - low, 100.0)
        low, high = low - 0.05 * span, high + 0.05 * span
        d = draw.Drawing(label_w + plot_w + 20, top + row_h * len(rows) + 40,
                         background=(255, 255, 255), text=self.table())

        def x(elo):
            return label_w + (elo - low) / (high - low) * plot_w

        d.text(label_w + plot_w / 2, 16, f"{self.game_name} ladder: Elo, 95% intervals "
                                         f"({self.anchor} = 0)", size=14, bold=True)
        bottom = top + row_h * len(rows)
        step = _tick_step(high - low)
        for t in np.arange(math.ceil(low / step) * step, high, step):
            d.line([(x(t), top - 6), (x(t), bottom)], stroke=(220, 220, 220))
            d.text(x(t), bottom + 12, f"{t:+.0f}" if t else "0", size=11)
        for k, r in enumerate(rows):
            y = top + row_h * (k + 0.5)
            d.text(label_w - 10, y, r["agent"], size=12, anchor="end")
            d.line([(x(r["low"]), y), (x(r["high"]), y)], stroke=(70, 110, 180), width=4)
            d.circle(x(r["elo"]), y, 5, fill=(200, 60, 40))
        return d

    def _repr_html_(self):
        return self.drawing().svg()


def _rebuild(spec):
    """The agent of ``spec``, one on the ladder; a ValueError that says what to do when it
    cannot be built any more (its file moved, its package uninstalled, its checkpoint gone)."""
    try:
        return make_agent(spec)
    except ValueError as err:
        raise ValueError(f"the ladder's agent {clip(spec)} cannot be rebuilt ({err}); put back "
                         "the file or module it loads to add agents to this ladder") from None


def _tick_step(span):
    """A round Elo step giving 4 to 10 ticks over ``span``."""
    step = 10 ** math.floor(math.log10(span / 4))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= 10:
            return step * factor
    return step * 10
