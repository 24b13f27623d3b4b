"""A distillation dataset's folder: ``dataset.json`` (the settings, the game and its options,
the versions, the SHA-256 of every part written) beside ``part-00000.npz`` and the next; the
parts a resumed run keeps, and the dataset read back as one ``Dataset`` (``load_dataset``), or
several merged (``load_datasets``, ``merge``), every part checked first
(``savanna.agents.training.dataset_parts``). ``savanna.agents.training.distill`` writes it.

Example: a dataset read back, with value targets in the mover's relative seats::

    data = load_dataset("runs/distill/nim")
    targets = data.value_targets(outcome_weight=0.5)
"""
import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

from savanna.agents.training.dataset_parts import PartShape, read_part
from savanna.agents.training.distill_config import DistillConfig
from savanna.errors import clip, clip_path
from savanna.files import atomic_write_text, parse_json, read_text
from savanna.game import Game
from savanna.metadata import game_options, option_differences
from savanna.registry import resolve_game

__all__ = ["Dataset", "check_game", "kept_parts", "load_dataset", "load_datasets", "merge",
           "num_parts", "part_file", "part_games", "read_meta", "write_meta"]

FORMAT = "savanna-distill"
VERSION = 2  # 2: dataset.json records each part's SHA-256
META_FILE = "dataset.json"
MAX_META_BYTES = 1 << 24  # dataset.json: its settings and one checksum per part


def part_file(folder, part):
    return Path(folder) / f"part-{part:05d}.npz"


def num_parts(config):
    return -(-config.games // config.part_games)


def part_games(config, part):
    """The games of part ``part`` (``part_games``, fewer in the last part)."""
    return min(config.part_games, config.games - part * config.part_games)


def part_shape(config, game, part):
    """What part ``part`` must hold (``savanna.agents.training.dataset_parts.PartShape``)."""
    return PartShape(games=part_games(config, part), first_game=part * config.part_games,
                     num_players=game.num_players, num_actions=game.num_actions,
                     max_decisions=game.max_plies, state_dtype=game.state_dtype)


def kept_parts(folder, meta, game):
    """``{part file name: SHA-256}`` of the parts a resumed dataset keeps: those its manifest
    records, each checked against its checksum and in full, and any written after the last
    manifest (a run stopped between the two writes), checked in full; a deleted part is
    played again. A part that fails is a one-line ValueError saying to delete it."""
    config = DistillConfig.from_dict(meta["config"])
    recorded = meta.get("parts", {})
    kept = {}
    for k in range(num_parts(config)):
        path = part_file(folder, k)
        if not path.exists():  # never written, or deleted: played again
            continue
        try:
            _, kept[path.name] = read_part(path, part_shape(config, game, k),
                                           recorded.get(path.name), game.check_states)
        except ValueError as err:
            raise ValueError(f"{err}; delete it and resume to play it again") from None
    return kept


def write_meta(folder, meta):
    atomic_write_text(Path(folder) / META_FILE, json.dumps(meta, indent=1))


def read_meta(folder):
    """The checked ``dataset.json`` of a dataset folder (its settings checked too)."""
    path = Path(folder) / META_FILE
    where = clip_path(path)
    if not path.is_file():
        raise ValueError(f"{clip_path(folder)} is not a distillation dataset: it has no "
                         f"{META_FILE}")
    text = read_text(path, "dataset manifest", MAX_META_BYTES)
    meta = parse_json(text, f"dataset manifest {where}")
    if not isinstance(meta, dict) or meta.get("format") != FORMAT \
            or not isinstance(meta.get("config"), dict):
        raise ValueError(f"{where} is not a {FORMAT} manifest")
    if meta.get("version") == 1:
        meta["parts"] = {}  # no checksums yet: distill --resume checks the parts, records them
    elif meta.get("version") != VERSION:
        raise ValueError(f"{where} is of version {clip(meta.get('version'))}; this code reads "
                         f"versions 1 and {VERSION}")
    parts = meta.get("parts")
    if not (isinstance(parts, dict) and all(
            isinstance(k, str) and isinstance(v, str) and len(v) == 64 for k, v in
            parts.items())):
        raise ValueError(f"{where}: 'parts' must map part files to their SHA-256")
    try:
        config = DistillConfig.from_dict(meta["config"])
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where}: {err}") from None
    names = {part_file(folder, k).name for k in range(num_parts(config))}
    if not set(parts) <= names:
        raise ValueError(f"{where} records parts {clip(sorted(set(parts) - names))} that its "
                         "settings do not have")
    return meta


def check_game(meta, game, folder):
    """A one-line ValueError unless the dataset of ``meta`` was played on ``game`` (name,
    options, sizes, rules)."""
    config = meta["config"]
    theirs = (config["game"], meta.get("options", game_options(game)), meta.get("num_players"),
              meta.get("num_actions"), meta.get("rules_version"))
    ours = (game.name, game_options(game), game.num_players, game.num_actions,
            game.rules_version)
    if theirs[0] == ours[0] and theirs[1] != ours[1]:
        raise ValueError(f"{clip_path(folder)} holds games of {game.name} with other options: "
                         f"{option_differences(theirs[1], ours[1])}")
    if theirs != ours:
        raise ValueError(f"{clip_path(folder)} holds games of {clip(theirs[0])} "
                         f"{clip(theirs[1], 60)} ({theirs[2]} players, {theirs[3]} actions, "
                         f"rules {theirs[4]}), not of {game.name} {clip(ours[1], 60)} "
                         f"({ours[2]} players, {ours[3]} actions, rules {ours[4]})")


class Dataset(NamedTuple):
    """A distillation dataset in memory: one entry per decision (``episode`` is its game's
    number; ``child_*`` end to end, ``child_start[i]`` .. ``child_start[i + 1]`` for decision
    ``i``), ``game_*`` per game."""

    config: DistillConfig
    game: Game
    state: np.ndarray
    player: np.ndarray
    episode: np.ndarray
    decision: np.ndarray
    action: np.ndarray
    root_value: np.ndarray
    collected: np.ndarray
    child_start: np.ndarray
    child_action: np.ndarray
    child_visits: np.ndarray
    child_q: np.ndarray
    game_returns: np.ndarray
    game_scores: np.ndarray
    game_decisions: np.ndarray

    @property
    def size(self):
        """The number of decisions (a NamedTuple's ``len`` counts its fields)."""
        return len(self.player)

    def relative(self, values):
        """``values[i]`` (absolute seats) rotated to decision ``i``'s mover: seat k = mover + k."""
        p = values.shape[1]
        seats = (self.player[:, None].astype(np.int64) + np.arange(p)) % p
        return np.take_along_axis(values, seats, axis=1)

    def outcomes(self):
        """float32[m, P]: the returns each seat collected from decision ``i`` to the end
        (relative seats)."""
        return self.relative(self.game_returns[self.episode] - self.collected)

    def value_targets(self, outcome_weight=0.0):
        """float32[m, P]: ``(1 - w) * root value + w * outcome``, relative seats."""
        root = self.relative(self.root_value)
        return ((1 - outcome_weight) * root + outcome_weight * self.outcomes()).astype(
            np.float32)


def load_dataset(folder, partial=False, game=None):
    """Every part of the dataset in ``folder``, each read by
    ``savanna.agents.training.dataset_parts.read_part`` against its recorded SHA-256 and every
    declared check (a one-line ValueError naming the file for a folder that is not a dataset, a part
    that is corrupt or missing, a dataset of another game than ``game``); ``partial``: the
    parts written so far; ``game``: an instance for a game not in the registry, or the game
    the dataset must be of."""
    meta = read_meta(folder)
    config = DistillConfig.from_dict(meta["config"])
    if meta["version"] == 1:
        raise ValueError(f"{clip_path(folder)} records no checksums of its parts (written by "
                         f"an earlier version): run `savanna distill --resume {folder}` once "
                         "to check and record them")
    game = game if game is not None else resolve_game(config.game, config.game_options)
    check_game(meta, game, folder)
    parts = []
    for k in range(num_parts(config)):
        path = part_file(folder, k)
        if path.name not in meta["parts"]:
            if partial:
                continue
            state = "is not recorded in dataset.json" if path.exists() else "is missing"
            raise ValueError(f"{clip_path(path)} {state}: resume the dataset with "
                             "`savanna distill --resume` first")
        parts.append(read_part(path, part_shape(config, game, k), meta["parts"][path.name],
                               game.check_states)[0])
    if not parts:
        raise ValueError(f"{clip_path(folder)} holds no part yet")
    columns = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    count = columns.pop("child_count").astype(np.int64)
    start = np.concatenate([[0], np.cumsum(count)])
    return Dataset(config=config, game=game, child_start=start, **columns)


def load_datasets(folders, game=None, partial=False):
    """The datasets in ``folders`` as one (``merge``), after refusing in one line a folder
    given twice and datasets that share games: the same game, teacher, seed and part size
    play the same games, and a part's bytes may appear in one dataset only. ``partial``: the
    parts each has recorded so far (a dataset still being written, or stopped early)."""
    folders = [Path(f) for f in folders]
    streams, parts = {}, {}
    for folder in folders:
        meta = read_meta(folder)
        config = {k: v for k, v in meta["config"].items() if k != "games"}
        stream = json.dumps([config, meta.get("options")], sort_keys=True)
        if stream in streams:
            other = streams[stream]
            same = other.resolve() == folder.resolve()
            raise ValueError(f"{clip_path(folder)} is given twice" if same else
                             f"{clip_path(other)} and {clip_path(folder)} share games (the "
                             "same game, teacher, seed and part size): give one of them")
        streams[stream] = folder
        for name, checksum in meta["parts"].items():
            if checksum in parts:
                raise ValueError(f"{clip_path(parts[checksum])} and "
                                 f"{clip_path(folder / name)} are the same part: the datasets "
                                 "share games")
            parts[checksum] = folder / name
    return merge([load_dataset(folder, partial, game) for folder in folders])


def merge(datasets):
    """One dataset of several of the same game and options (for instance two seeds of one
    teacher), their games numbered one after the other; its config is the first's with the
    games of all."""
    first = datasets[0]
    for other in datasets[1:]:
        if (other.config.game, other.config.game_options) != (first.config.game,
                                                              first.config.game_options):
            raise ValueError(f"datasets of {first.config.game} {first.config.game_options} "
                             f"and {other.config.game} {other.config.game_options} cannot be "
                             "merged")
    games = np.cumsum([0] + [len(d.game_returns) for d in datasets])
    children = np.cumsum([0] + [len(d.child_action) for d in datasets])
    columns = {}
    for name in Dataset._fields[2:]:
        if name == "episode":
            columns[name] = np.concatenate([d.episode + games[k] for k, d in enumerate(datasets)])
        elif name == "child_start":
            columns[name] = np.concatenate([d.child_start[:-1] + children[k]
                                            for k, d in enumerate(datasets)] + [children[-1:]])
        else:
            columns[name] = np.concatenate([getattr(d, name) for d in datasets])
    config = DistillConfig(**{**first.config.to_dict(), "games": int(games[-1])})
    return Dataset(config=config, game=first.game, **columns)
