"""Playing a study's matches and reviews so that a killed study resumes with no game lost or
played twice: every batch of games is written to a file of its own as soon as it is played
(``parts/<match>/<batch>.pkl``, atomically), every reviewed game likewise
(``reviews/<game>.json``: its positions' values and every move's), and a study started again in
the same folder plays only what no file holds yet. Batches are seeded by their match and
number (``savanna.agents.arena.matches``), so the games of a resumed study are those of one
that ran through, on processes or on Ray.

The parts are pickles, read back only from the study's own folder.
"""
import itertools
import json
import pickle
import re

import numpy as np
from tqdm.auto import tqdm

from savanna.agents.arena.matches import match_jobs, match_result, play_batches
from savanna.agents.play.registry import make_agent
from savanna.files import atomic_write_bytes, atomic_write_text, make_folders
from savanna.studies.coupled import keyed_map

__all__ = ["BATCH_SIZE", "play_planned", "review_records"]

BATCH_SIZE = 16  # games of one batch: what a kill can cost, and what one task plays


def play_planned(game, planned, folder, workers=None, backend="local", address=None,
                 progress=True):
    """The ``MatchResult`` of every ``Planned`` match in ``planned``, by name: the batches kept
    under ``folder/parts`` are read back, the others played (``play_batches``; those with a
    ``chance_seed`` by ``savanna.studies.coupled``, randomness keyed to each decision)
    and kept."""
    specs = sorted({spec for m in planned for spec in m.agents})
    index = {spec: i for i, spec in enumerate(specs)}
    agents = [make_agent(spec) for spec in specs]
    matches = [(tuple(index[s] for s in m.agents), m.games, m.seed, BATCH_SIZE, m.chance_seed)
               for m in planned]
    parts = [{} for _ in planned]
    missing = []
    for job in match_jobs(matches):
        m, k, _, count = job
        path = _part_path(folder, planned[m].name, k)
        if path.exists():
            parts[m][k] = _read_part(path, count)
        else:
            missing.append(job)
    if missing:
        keyed = [job for job in missing if matches[job[0]][4] is not None]
        done = itertools.chain(
            play_batches(game, agents, matches, [j for j in missing if j not in keyed],
                         workers, backend=backend, address=address) if len(keyed) < len(
                missing) else (),
            keyed_map(game, agents, matches, keyed, workers) if keyed else ())
        with tqdm(total=sum(job[3] for job in missing), unit="game", disable=not progress,
                  desc=f"{game.name} {game.num_players}p study", leave=False) as bar:
            for (m, k, _, count), part in done:
                path = _part_path(folder, planned[m].name, k)
                make_folders(path.parent)
                atomic_write_bytes(path, pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL))
                parts[m][k] = part
                bar.update(count)
    return {m.name: match_result(game, [agents[index[s]] for s in m.agents], m.seed, parts[i],
                                 record=m.record)
            for i, m in enumerate(planned)}


def _part_path(folder, name, k):
    return folder / "parts" / re.sub(r"[^A-Za-z0-9_.=-]+", "_", name) / f"{k}.pkl"


def _read_part(path, count):
    """A kept batch, checked to hold its ``count`` games."""
    part = pickle.loads(path.read_bytes())
    if len(part[0]) != count:
        raise ValueError(f"{path} holds {len(part[0])} games, not the {count} of its batch: "
                         "the study folder was changed; delete the file to play it again")
    return part


def review_records(game, records, agent, folder, seed, progress=True):
    """Each record's review by ``agent`` (a search spec): ``(values, moves)``, ``values`` a
    ``float64[plies, P]`` per record, each player's value of every decision's position, and
    ``moves`` a list per record of one list per decision, the mover's value of each move the
    search tried. Both come from the one search of each decision that ``savanna review``
    makes (``analyse`` with ``seed``: its values are the review's ``value_p`` columns), without
    the review's confirming searches, which the study does not use. Each game's review is kept
    in ``folder/reviews``, named by the game's number in its match, as it is found."""
    from savanna.agents.play.analysis import analyse

    values, moves = [], []
    searcher = make_agent(agent)
    for record in tqdm(records, desc="reviews", unit="game", disable=not progress,
                       leave=False):
        path = folder / "reviews" / f"{record.info['match_game']}.json"
        if not path.exists():
            states = record.states(game)
            found = [analyse(game, states[k: k + 1], searcher, rng=seed)
                     for k in map(record.ply_index, range(record.plies))]
            kept = {"agent": agent, "seed": seed, "values": [f.values for f in found],
                    "moves": [[r[f"value_{f.player}"] for r in f.rows
                               if not np.isnan(r[f"value_{f.player}"])] for f in found]}
            make_folders(path.parent)
            atomic_write_text(path, json.dumps(kept))
        kept = json.loads(path.read_text())
        values.append(np.asarray(kept["values"], np.float64).reshape(-1, game.num_players))
        moves.append(kept["moves"])
    return values, moves
