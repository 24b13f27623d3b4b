"""A whole study: every variant of a game (player counts, options) played and measured, in a
folder that a killed study resumes from.

``run_study(variants, folder, settings, seed)`` plays each variant's matches and reviews
(``savanna.studies.match_parts``), measures them (``balance``, ``skill``, ``luck``, ``shape``) and
returns a ``Study`` (``savanna.studies.result``), which it also saves in ``folder``.
``folder/plan.json``, written before any game, names the settings, seed and variants: a study
started again in a folder whose plan differs is refused, one with the same plan plays only
what is missing. The plan and the folder name a variant by all its options, defaults included;
the report by those the study varies or changes from the defaults (``variant_labels``).

>>> from savanna import make_game
>>> from savanna.studies import StudySettings, run_study
>>> settings = StudySettings(balance_sims=(4,), balance_games=8, network=False, chain_top=2,
...                          chain_games=8, upset_sims=2, upset_games=8, chance_games=8,
...                          review_games=1, review_sims=8, reference="")
>>> study = run_study([make_game("zebres")], "study-zebres", settings, seed=0, workers=1,
...                   progress=False)
>>> print(study.table())
"""
import inspect
import itertools
import json
import re
import resource
import time
from pathlib import Path

import numpy as np

from savanna.argument_types import check_player_count, set_players
from savanna.errors import clip
from savanna.files import CLAIM_FILE, atomic_write_text, claimed, parse_json
from savanna.metadata import game_options, git_commit, package_version
from savanna.registry import GAMES, make_game
from savanna.studies.balance import mark_findings, seat_rows
from savanna.studies.budgets import StudySettings
from savanna.studies.luck import chance_sensitivity, upset_rate
from savanna.studies.match_parts import play_planned, review_records
from savanna.studies.plan import mcts, plan, skill_population
from savanna.studies.result import Study
from savanna.studies.shape import clarity, drama, play_shape
from savanna.studies.skill import measure_skill

__all__ = ["run_study", "study", "variant_labels", "variants"]

PLAN = "plan.json"
FORMAT = "savanna-study-plan-3"  # 2: the skill population, keyed chance matches; 3: every
# reviewed move's value kept


def variant_labels(games):
    """What the report calls each game of a study: its name, its player count and the options
    that differ from the defaults in any of the games, so that a study of Banjooli alone says
    ``"banjooli 2p"`` and one of both Zèbres boards ``"zebres 2p board=standard"`` and
    ``"zebres 2p board=president"``.

    >>> from savanna import make_game
    >>> variant_labels([make_game("zebres"), make_game("zebres", board="president")])
    ['zebres 2p board=standard', 'zebres 2p board=president']
    """
    options = [_options(g) for g in games]
    named = set()
    for game, chosen in zip(games, options):
        defaults = _default_options(game)
        named |= {k for k, v in chosen.items() if k not in defaults or defaults[k] != v}
    return [" ".join([g.name, f"{g.num_players}p",
                      *(f"{k}={_text(v)}" for k, v in chosen.items() if k in named)])
            for g, chosen in zip(games, options)]


def _stored_name(game):
    """A game with every option, defaults included (``"zebres 2p board=standard
    first_placer=1"``): the name the study's plan and folder keep its games under, the same
    whatever else the study compares."""
    return " ".join([game.name, f"{game.num_players}p",
                     *(f"{k}={_text(v)}" for k, v in _options(game).items())])


def _options(game):
    return {k: v for k, v in game_options(game).items() if k != "num_players"}


def _default_options(game):
    """The options of ``game``'s class built with its player count alone; none where it
    cannot be built so (its options are then all named)."""
    keywords = ({"num_players": game.num_players}
                if "num_players" in inspect.signature(type(game)).parameters else {})
    try:
        return _options(type(game)(**keywords))
    except TypeError:  # an option without a default
        return {}


def _text(value):
    return ",".join(map(str, value)) if isinstance(value, (tuple, list)) else str(value)


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text)


def run_study(variants, folder, settings, seed=0, workers=None, backend="local",
              address=None, progress=True, reference=None):
    """Study each game of ``variants`` (``Game`` objects: one per player count and option
    set) into ``folder``; the ``Study`` (module docstring). ``workers``, ``backend``,
    ``address``: where the games are played (``savanna.agents.arena.matches.play_match``);
    the numbers are the same on any of them. ``reference``: the game without chance of the
    share of chance (default: ``settings.reference`` by name; none if that is empty)."""
    folder = Path(folder)
    variants = list(variants)
    labels = variant_labels(variants)
    if len(set(labels)) != len(labels):
        raise ValueError(f"the variants {clip(labels)} repeat one")
    if reference is None and settings.reference:
        reference = make_game(settings.reference)
    if reference is not None and reference.has_chance:
        raise ValueError(f"the reference game {reference.name} has chance; the share of "
                         "chance needs a game without")
    if folder.is_dir() and not (folder / PLAN).exists() and any(
            p.name != CLAIM_FILE for p in folder.iterdir()):
        raise ValueError(f"{clip(str(folder))} holds files but no study; give a new or empty "
                         "folder")
    started, cpu = time.perf_counter(), _cpu_seconds()
    with claimed(folder, "study folder"):
        named = None if reference is None else _stored_name(reference)
        _check_plan(folder, {"format": FORMAT, "seed": seed,
                             "settings": settings.to_json(),
                             "variants": [_stored_name(g) for g in variants],
                             "reference": named})
        where = dict(workers=workers, backend=backend, address=address, progress=progress)
        reference_matches, reference_skill = None, None
        if reference is not None:
            chain = [m for m in plan(reference, settings, seed) if m.section == "chain"]
            results = play_planned(reference, chain, folder / _slug("reference " + named),
                                   **where)
            reference_matches = [(m.agents, results[m.name]) for m in chain]
            reference_skill = dict(measure_skill(skill_population(settings), reference_matches,
                                                 settings.threshold, None, settings.resamples,
                                                 seed),
                                   variant=variant_labels([reference])[0])
        measured, games = [], []
        for game, label in zip(variants, labels):
            variant, rows = _measure(game, label, folder / _slug(_stored_name(game)), settings,
                                     seed, reference_matches, where)
            measured.append(variant)
            games += rows
        tested = mark_findings(measured)
        study = Study(settings, seed, measured, reference_skill, tested,
                      _run_facts(started, cpu, where["workers"], backend), games)
        study.save(folder)
    return study


def variants(game, options=None, players=None, source="players"):
    """The games a study of ``game`` (a registered name) covers: one per player count in
    ``players`` (default: every count it takes) and per combination of ``options`` (``{key:
    value or [values]}``); a mistake in the counts names them as ``source`` does."""
    if game not in GAMES:
        raise ValueError(f"unknown game {clip(game)}; games: {', '.join(GAMES)}")
    fewest, most = GAMES[game].players
    players = list(players or range(fewest, most + 1))
    for n in players:
        check_player_count(game, n, source)
    options = {k: v if isinstance(v, list) else [v] for k, v in (options or {}).items()}
    if "num_players" in options:
        raise ValueError(f"give the player counts as {source}, not as the option num_players")
    games = []
    for n in players:
        for values in itertools.product(*options.values()):
            chosen = dict(zip(options, values))
            set_players(game, chosen, n, source)
            games.append(make_game(game, **chosen))
    return games


def study(game, options=None, players=None, out="study", budget="standard", seed=0,
          workers=None, ray=False, address=None, progress=True, players_source="players",
          **settings):
    """Study ``game`` (a registered name; ``options``, ``players``: see ``variants``) with the
    settings of ``budget`` (quick, standard or deep) changed by ``settings`` (fields of
    ``savanna.studies.StudySettings``), into folder ``out``, on Ray when ``ray`` (at
    ``address``); a ``Study`` with ``.table()``, ``.figures()`` and the report (``run_study``).
    ``savanna study`` calls it with ``players_source="--players"``, the word its user typed.

    >>> from savanna.studies import study
    >>> s = study("bonobo", players=[2], budget="quick", out="study-bonobo", workers=1,
    ...           balance_games=8, chain_top=2, chain_games=8, upset_games=8, chance_games=8,
    ...           review_games=1, network=False, reference="", progress=False)
    >>> print(s.table())
    >>> s.figures()["bonobo 2p: balance"]
    """
    if address is not None and not ray:
        raise ValueError("address is the Ray cluster's: give it with ray=True")
    return run_study(variants(game, options, players, players_source), Path(out),
                     StudySettings.budget(budget, **settings), seed, workers,
                     "ray" if ray else "local", address, progress)


def _cpu_seconds():
    """CPU seconds of this process and of the children it has reaped (worker processes that a
    pool terminates are not always among them: a lower bound)."""
    own, children = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                      resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _run_facts(started, cpu, workers, backend):
    """What made the numbers and what they cost: this run's version, commit, workers, and wall
    and CPU seconds (a resumed study's are those of its last part; the CPU a lower bound, as
    ``_cpu_seconds`` says; Ray's workers' CPU is not seen here)."""
    return {"package_version": package_version(), "git_commit": git_commit(),
            "workers": workers, "backend": backend,
            "wall_seconds": round(time.perf_counter() - started, 1),
            "cpu_seconds": round(_cpu_seconds() - cpu, 1)}


def _check_plan(folder, data):
    """Write the plan, or check that the one there is the same (module docstring)."""
    path = folder / PLAN
    if path.exists():
        kept = parse_json(path.read_text(), f"study plan {path}")
        if kept.get("format") != FORMAT:
            raise ValueError(f"{clip(str(folder))} holds a study of an earlier version of "
                             "savanna study, whose measures differ; give a new folder")
        if kept != json.loads(json.dumps(data)):
            raise ValueError(f"{clip(str(folder))} holds a study with other settings, seed or "
                             "variants; give a new folder, or the same settings to resume it")
        return
    atomic_write_text(path, json.dumps(data, indent=1))


def _measure(game, label, folder, settings, seed, reference_matches, where):
    """Play and measure one variant: a JSON-ready dict of its sections."""
    planned = plan(game, settings, seed)
    results = play_planned(game, planned, folder, **where)
    games = [game_row for m in planned for game_row in _game_rows(label, m, results[m.name])]
    by_section = {}
    for m in planned:
        by_section.setdefault(m.section, []).append(m)
    balance = []
    for m in by_section["balance"]:
        result = results[m.name]
        seats = seat_rows(result)
        distinct = len({json.dumps(r.moves) for r in result.records})
        balance.append({"agent": m.agents[0], "games": result.games, "distinct": distinct,
                        "seats": seats,
                        "draw_rate": seats[0]["draw_rate"], "draw_ci": seats[0]["draw_ci"],
                        "first_seat_advantage": seats[0]["score"] - 0.5,
                        "first_seat_ci": tuple(x - 0.5 for x in seats[0]["score_ci"])})
    chain = measure_skill(skill_population(settings),
                          [(m.agents, results[m.name]) for m in by_section["chain"]],
                          settings.threshold, reference_matches, settings.resamples, seed)
    upset_match = by_section["upset"][0]
    luck = {"upset": dict(upset_rate(results[upset_match.name]),
                          stronger=upset_match.agents[0], weaker=upset_match.agents[1])}
    if "chance" in by_section:
        a, b, c = (results[m.name] for m in by_section["chance"])
        luck["chance"] = dict(chance_sensitivity(a, b, c),
                              agent=by_section["chance"][0].agents[0])
    strongest = _strongest_mcts(by_section["balance"], settings)
    shown = results[strongest.name]
    shape = dict(play_shape(game, shown), agent=strongest.agents[0])
    # a drawn game has no eventual winner to follow: the first games that have one
    records = [r for r in shown.records if _winner(r.returns) >= 0][: settings.review_games]
    reviewer = mcts(settings.review_sims)
    values, moves = review_records(game, records, reviewer, folder, seed, where["progress"])
    winners = [_winner(r.returns) for r in records]
    shape["reviews"] = dict(drama(values, winners), **clarity(moves, game.num_players),
                            agent=reviewer)
    shape["curves"] = [{"winner": w, "values": v.tolist()} for v, w in zip(values, winners)]
    return {"variant": label, "game": game.name, "players": game.num_players,
            "options": {k: _text(v) for k, v in game_options(game).items()},
            "has_chance": bool(game.has_chance), "balance": balance, "chain": chain,
            "luck": luck, "shape": shape}, games


def _game_rows(label, planned, result):
    """One row per game of a match: its variant, match, number, seed, agents and returns by
    seat (separated by ``|``) and plies."""
    by_seat = np.argsort(result.seats, axis=1)
    return [{"variant": label, "match": planned.name, "game": g, "match_seed": planned.seed,
             "agents": "|".join(planned.agents[j] for j in by_seat[g]),
             "returns": "|".join(f"{result.returns[g, j]:g}" for j in by_seat[g]),
             "plies": int(result.plies[g])} for g in range(result.games)]


def _strongest_mcts(balance, settings):
    """The balance match of the largest MCTS budget: its games are reviewed."""
    name = mcts(max(settings.balance_sims))
    return next(m for m in balance if m.agents[0] == name)


def _winner(returns):
    """The seat with the highest return, or -1 when it is shared."""
    returns = np.asarray(returns)
    top = np.flatnonzero(returns == returns.max())
    return int(top[0]) if len(top) == 1 else -1
