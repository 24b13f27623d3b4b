"""The checked reader of a distillation dataset's parts: every column declared once in
``COLUMNS`` (dtype, what it has a row of, players axis, range), checked before it is allocated,
and its values checked before anything trains on them.

``read_part`` refuses in one line, naming the file and the column, a part that is too large,
whose bytes differ from the SHA-256 of ``dataset.json``, whose members are missing, extra,
compressed or of another dtype or shape (read from the ``.npy`` header first), or whose values
are out of range, non-finite, inconsistent between columns, or states the game refuses.

>>> from savanna.agents.training.dataset_parts import COLUMNS
>>> COLUMNS["child_visits"]
Column(dtype='int32', rows='children', per_player=False, low=0, high=None)
"""
import hashlib
import io
import math
import os
import stat
import zipfile
from dataclasses import dataclass

import numpy as np

from savanna.errors import clip, clip_path
from savanna.files import read_at_most

__all__ = ["COLUMNS", "MAX_ABS_VALUE", "Column", "PartShape", "digest", "read_part"]

DECISIONS, CHILDREN, GAMES = "decisions", "children", "games"
MAX_ABS_VALUE = 1e6  # returns and values: the games' are within [-1, 1] or small scores


@dataclass(frozen=True)
class Column:
    """One column of a part: its dtype (``"state"``: the game's state dtype), what it has a
    row of, whether a second axis holds a value per player, and its inclusive range (an int,
    a name of a ``PartShape`` limit, or None; floats are always finite and within
    ``MAX_ABS_VALUE``)."""

    dtype: str
    rows: str
    per_player: bool = False
    low: object = None
    high: object = None


COLUMNS = {
    "state": Column("state", DECISIONS),
    "player": Column("int8", DECISIONS, low=0, high="last_player"),
    "episode": Column("int32", DECISIONS, low="first_game", high="last_game"),
    "decision": Column("int32", DECISIONS, low=0, high="last_decision"),
    "action": Column("int16", DECISIONS, low=0, high="last_action"),
    "root_value": Column("float32", DECISIONS, per_player=True),
    "collected": Column("float32", DECISIONS, per_player=True),
    "child_count": Column("int16", DECISIONS, low=0, high="num_actions"),
    "child_action": Column("int16", CHILDREN, low=0, high="last_action"),
    "child_visits": Column("int32", CHILDREN, low=0),
    "child_q": Column("float32", CHILDREN),
    "game_returns": Column("float32", GAMES, per_player=True),
    "game_scores": Column("int64", GAMES, per_player=True),
    "game_decisions": Column("int32", GAMES, low=1, high="max_decisions"),
}


@dataclass(frozen=True)
class PartShape:
    """What the manifest and the game say a part must be: its games (numbered
    ``first_game .. first_game + games - 1``) and the game's sizes."""

    games: int
    first_game: int
    num_players: int
    num_actions: int
    max_decisions: int  # a game's decisions at most (the game's ``max_plies``)
    state_dtype: np.dtype

    @property
    def last_game(self):
        return self.first_game + self.games - 1

    @property
    def last_player(self):
        return self.num_players - 1

    @property
    def last_action(self):
        return self.num_actions - 1

    @property
    def last_decision(self):
        return self.max_decisions - 1

    def most_rows(self, rows):
        """The most rows a column of ``rows`` may have."""
        decisions = self.games * self.max_decisions
        return {GAMES: self.games, DECISIONS: decisions,
                CHILDREN: decisions * self.num_actions}[rows]

    def dtype(self, column):
        return self.state_dtype if column.dtype == "state" else np.dtype(column.dtype)

    def most_bytes(self):
        """The largest a part's file can be: every column at its most rows, plus room for
        the zip's and the headers' bytes."""
        return 4096 * len(COLUMNS) + sum(
            self.most_rows(c.rows) * self.dtype(c).itemsize * (self.num_players if
                                                                c.per_player else 1)
            for c in COLUMNS.values())

    def limit(self, bound):
        return getattr(self, bound) if isinstance(bound, str) else bound


def digest(data):
    """The SHA-256 of a part's bytes, as the manifest records it."""
    return hashlib.sha256(data).hexdigest()


def read_part(path, shape, checksum=None, check_states=None):
    """The columns of the part file ``path`` as a dict of arrays, once every check of the
    module docstring passes against ``shape`` (a ``PartShape``) and ``checksum`` (the SHA-256
    the manifest records; None: not recorded); ``check_states`` (the game's ``check_states``)
    checks the states. Returns ``(columns, the file's SHA-256)``; a one-line ValueError
    naming the file otherwise."""
    name = clip_path(path)
    data = _read_bounded(path, shape.most_bytes(), name)
    found = digest(data)
    if checksum is not None and found != checksum:
        raise ValueError(f"{name} does not match the SHA-256 that dataset.json records for it "
                         "(it changed after it was written)")
    try:
        columns = _columns(data, shape, name)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
            KeyError, NotImplementedError, OverflowError) as err:
        message = str(err)
        if message.startswith(name):
            raise
        raise ValueError(f"{name} is not a readable part: {clip(message, 120)}") from None
    _check_values(columns, shape, name)
    if check_states is not None:
        try:
            check_states(columns["state"])
        except ValueError as err:
            raise ValueError(f"{name}: column state: {clip(str(err), 160)}") from None
    return columns, found


def _read_bounded(path, most, name):
    """The bytes of the regular file ``path``, refused unread if larger than ``most``."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{name} is not a regular file")
        if info.st_size > most:
            raise ValueError(f"{name} is {info.st_size:,} bytes, more than such a part can "
                             f"hold ({most:,})")
        with open(path, "rb") as f:
            data = read_at_most(f, most + 1)
    except OSError as err:
        raise ValueError(f"cannot read {name}: {err.strerror or type(err).__name__}") from None
    if len(data) > most:
        raise ValueError(f"{name} grew past {most:,} bytes while it was read")
    return data


def _columns(data, shape, name):
    """The arrays of the zip ``data``, each header checked before its array is read."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {info.filename: info for info in archive.infolist()}
        expected = {f"{key}.npy" for key in COLUMNS}
        if set(members) != expected:
            missing = sorted(k.removesuffix(".npy") for k in expected - set(members))
            extra = sorted(members.keys() - expected)
            raise ValueError(f"{name} is not a part of this dataset: missing columns "
                             f"{clip(missing)}, unexpected members {clip(extra)}")
        columns = {}
        for key, column in COLUMNS.items():
            info = members[f"{key}.npy"]
            where = f"{name}: column {key}"
            if info.compress_type != zipfile.ZIP_STORED:
                raise ValueError(f"{where} is compressed; parts are stored uncompressed")
            with archive.open(info) as f:
                version = np.lib.format.read_magic(f)
                read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                               (2, 0): np.lib.format.read_array_header_2_0}.get(version)
                if read_header is None:
                    raise ValueError(f"{where} has .npy format version {version}")
                dims, fortran, dtype = read_header(f, max_header_size=10_000)
                _check_header(dims, fortran, dtype, info.file_size - f.tell(), column,
                              shape, where)
            with archive.open(info) as f:  # from the start: read_array reads the header too
                columns[key] = np.lib.format.read_array(f, allow_pickle=False)
    return columns


def _check_header(dims, fortran, dtype, stored, column, shape, where):
    """The header of one column against its declaration and the bytes stored after it."""
    want = shape.dtype(column)
    if dtype != want:
        raise ValueError(f"{where} has dtype {clip(str(dtype), 60)}, expected "
                         f"{clip(str(want), 60)}")
    ndim = 2 if column.per_player else 1
    if len(dims) != ndim or fortran:
        raise ValueError(f"{where} has shape {clip(dims)}, expected {ndim} dimension(s)")
    if column.per_player and dims[1] != shape.num_players:
        raise ValueError(f"{where} has {dims[1]} values per row, expected one per player "
                         f"({shape.num_players})")
    most = shape.most_rows(column.rows)
    if not 0 <= dims[0] <= most:
        raise ValueError(f"{where} has {dims[0]:,} rows, more than {most:,} ({shape.games} "
                         f"games of {column.rows})")
    if math.prod(dims) * dtype.itemsize != stored:
        raise ValueError(f"{where} declares {clip(dims)} values but stores {stored:,} bytes "
                         "(truncated or edited)")


def _check_values(columns, shape, name):
    """Ranges, finiteness and the columns' agreement with each other."""
    for key, column in COLUMNS.items():
        values, where = columns[key], f"{name}: column {key}"
        if values.dtype.kind == "f":
            bad = ~np.isfinite(values) | (np.abs(values) > MAX_ABS_VALUE)
            if bad.any():
                raise ValueError(f"{where} holds {values[bad][0]:g}; values must "
                                 f"be finite and within ±{MAX_ABS_VALUE:g}")
        low, high = shape.limit(column.low), shape.limit(column.high)
        if len(values) and low is not None and values.min() < low:
            raise ValueError(f"{where} holds {values.min()}, below its least {low}")
        if len(values) and high is not None and values.max() > high:
            raise ValueError(f"{where} holds {values.max()}, above its most {high}")
    rows = {kind: len(columns[next(k for k, c in COLUMNS.items() if c.rows == kind)])
            for kind in (DECISIONS, CHILDREN, GAMES)}
    for key, column in COLUMNS.items():
        if len(columns[key]) != rows[column.rows]:
            raise ValueError(f"{name}: column {key} has {len(columns[key]):,} rows, the other "
                             f"columns of {column.rows} {rows[column.rows]:,}")
    problems = (
        (rows[GAMES] != shape.games,
         f"holds {rows[GAMES]} games, the manifest says {shape.games}"),
        (columns["child_count"].sum(dtype=np.int64) != rows[CHILDREN],
         f"column child_count adds up to {columns['child_count'].sum(dtype=np.int64):,}, "
         f"column child_action has {rows[CHILDREN]:,} rows"),
        (columns["game_decisions"].sum(dtype=np.int64) != rows[DECISIONS],
         f"column game_decisions adds up to "
         f"{columns['game_decisions'].sum(dtype=np.int64):,}, there are {rows[DECISIONS]:,} "
         "decisions"),
    )
    for bad, what in problems:
        if bad:
            raise ValueError(f"{name}: {what}")
    local = columns["episode"].astype(np.int64) - shape.first_game
    per_game = np.bincount(local, minlength=shape.games)
    if not np.array_equal(per_game, columns["game_decisions"]):
        raise ValueError(f"{name}: column episode does not give each game the decisions of "
                         "column game_decisions")
    if (columns["decision"] >= columns["game_decisions"][local]).any():
        raise ValueError(f"{name}: column decision holds a number past its game's decisions")
