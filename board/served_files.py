"""The files ``savanna serve`` opens, only inside the folders given on its command line: records
files (a match's, a tournament's, a training evaluation's, a played game's ``*.jsonl``), ladder
files (``savanna ladder``'s JSON) and tournament results (``tournament.json``).

A file is named in requests by its path relative to one of the folders; ``resolve`` refuses
anything that leads outside them (``..``, an absolute path elsewhere, a link out, a hidden
folder) with the same answer as a missing file. Every read runs on a worker thread, after the
file's size is checked from ``stat`` (a larger file is refused unread); what is parsed is
kept and shared by concurrent requests (``board.cache``) while the file is unchanged: a
records file's index, each game replayed once, a ladder or a tournament.

A records file is read as a stream (``RecordsFile``): one pass finds where each record's line
starts, a megabyte at a time in numpy (16 bytes a record kept, the server's memory bounded
whatever the file's size, and the GIL held in short stretches only, so that the other requests
go on being answered meanwhile); a page of the listing, or one game, then parses only its own
lines. A malformed line is refused when it is read, naming its line.
"""
import os
from pathlib import Path

import numpy as np

from savanna.agents.arena.ladder import Ladder
from savanna.board.cache import SharedCache, stamp_of
from savanna.board.limits import confined
from savanna.board.refusals import Refused
from savanna.board.tables import outcome_name, view_picture
from savanna.errors import clip
from savanna.files import parse_json, read_text
from savanna.records import Record

__all__ = ["PAGE", "RecordsFile", "Replays", "list_files", "read_table", "resolve"]

MAX_LISTED = 2000          # files listed from the folders, at most
PAGE = 1000                # games listed in one answer, at most
MAX_RECORDS_BYTES = 2**26  # a records file the board opens (savanna replay reads larger ones)
MAX_TABLE_BYTES = 2**26    # a ladder or a tournament file
REPLAY_WEIGHT = 2**16      # what a replayed game counts for in the cache (its states)
CHUNK = 2**20              # bytes read at a time while a records file is indexed
_PARSED = SharedCache(budget=2**28)  # parsed files, by path, modification time and size


def resolve(text, folders):
    """The file ``text`` (relative to one of ``folders``) names, or a Refused (missing where no
    file is served: outside them, hidden, or missing alike)."""
    if not isinstance(text, str) or not text or len(text) > 4096 or "\0" in text:
        raise Refused(f"file must be a path relative to a served folder, got {clip(text)}")
    return confined(text, folders, "file")


def opened(text, folders, most, what):
    """``(path, key)`` of the file ``text`` names, if it holds at most ``most`` bytes (from
    ``stat``: a larger file is refused unread); ``key`` names this version of it for the
    cache."""
    path = resolve(text, folders)
    try:
        info = path.stat()
    except OSError:
        raise Refused(f"no file {clip(text)} in the folders this server serves", "missing") \
            from None
    if info.st_size > most:
        raise Refused(f"{clip(text)} is {info.st_size:,} bytes; the board opens {what} "
                         f"of at most {most:,} bytes")
    return path, (str(path), *stamp_of(info))


def list_files(folders):
    """The records, ladder and tournament files in ``folders`` (recursively, links not
    followed out), each ``{"file": path relative to its folder, "kind": ...}``."""
    out, seen = [], set()
    for folder in folders:
        root = Path(folder).resolve()
        for parent, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                shown = not name.startswith(".") and name.isprintable() and _utf8(parent + name)
                kind = _kind(name) if shown else None
                path = Path(parent, name)
                if kind is not None and path.resolve() not in seen \
                        and path.resolve().is_relative_to(root):  # once, links out left out
                    seen.add(path.resolve())
                    out.append({"file": str(path.relative_to(root)), "kind": kind,
                                "folder": root.name})  # by name: no path of the server
                if len(out) >= MAX_LISTED:
                    return out
    return out


def _utf8(text):
    """Whether a file name decodes as UTF-8 (else the OS gave undecodable bytes as
    surrogates, which no answer can carry)."""
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _kind(name):
    if name.endswith(".jsonl"):
        return "records"
    if name == "tournament.json":
        return "tournament"
    if name.startswith("ladder") and name.endswith(".json"):
        return "ladder"
    return None


class Replays:
    """Records files read once (while unchanged) and replayed game by game."""

    def __init__(self, folders):
        self.folders = folders

    def records(self, file):
        """The records of ``file``, a ``RecordsFile`` (each checked field by field when
        read)."""
        return self._records(file)[2]

    def _records(self, file):
        path, key = opened(file, self.folders, MAX_RECORDS_BYTES, "records files")
        return path, key, _PARSED.get(("records", key), lambda: RecordsFile(path, file),
                                      weight=key[2] // 16 + 1)  # about its index

    def listing(self, file, offset=0, limit=PAGE):
        """Games ``offset`` to ``offset + limit`` of ``file``, one line each: its index,
        agents, returns, decisions, where it was played; with the ``total`` and the ``next``
        page's offset (None after the last)."""
        records = self.records(file)
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise Refused(f"offset must be an int >= 0, got {clip(offset)}")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= PAGE:
            raise Refused(f"limit must be an int in 1..{PAGE}, got {clip(limit)}")
        end = min(offset + limit, len(records))
        games = [{"index": k, "game": r.game_name, "options": r.options, "agents": r.agents,
                  "returns": r.returns, "plies": r.plies, "info": r.info}
                 for k, r in enumerate(records.read(offset, end), offset)]
        return {"file": file, "games": games, "offset": offset, "total": len(records),
                "next": end if end < len(records) else None}

    def game(self, file, index):
        """``(record, game, states)`` of game ``index`` of ``file``, replayed and checked."""
        _, key, records = self._records(file)
        if isinstance(index, bool) or not isinstance(index, int) \
                or not 0 <= index < len(records):
            raise Refused(f"game must be in 0..{len(records) - 1} ({clip(file)} holds "
                             f"{len(records)} records), got {clip(index)}")
        return _PARSED.get(("replay", key, index), lambda: _replayed(records[index]),
                           weight=REPLAY_WEIGHT)

    def frame(self, file, index, ply, seat):
        """Ply ``ply`` of a game: the picture (as ``seat`` sees it, None: everything), the
        events that led to it, and the moves and outcomes of the whole game for the list."""
        record, game, states, plies = self.game(file, index)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(plies) - 1:
            raise Refused(f"ply must be in 0..{len(plies) - 1}, got {clip(ply)}")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < game.num_players):
            raise Refused(f"seat must be in 0..{game.num_players - 1} or none, got "
                             f"{clip(seat)}")
        k = plies[ply]
        row = states[k: k + 1]
        return {"file": file, "index": index, "ply": ply, "plies": len(plies) - 1,
                "state": k, "game": game.name, "title": repr(game), "agents": record.agents,
                "returns": record.returns, "svg": view_picture(game, row, seat),
                "position": game.to_text(row) if seat is None or game.perfect_information
                else None,
                "events": _events(record, game, states), "hidden": not game.perfect_information}


def _events(record, game, states):
    """Every event of the record named: a decision with its seat and notation, a chance
    outcome with the game's name for it; ``state`` is the index of the state before it."""
    out = []
    for k, move in enumerate(record.moves):
        if "chance" in move:
            out.append({"state": k, "chance": outcome_name(game, move["chance"])})
        else:
            out.append({"state": k, "player": move["player"],
                        "move": game.action_to_string(states[k], move["action"])})
    return out


class RecordsFile:
    """The records of a JSON Lines file (``savanna.records``' format: lines end at ``\\n``,
    blank ones skipped), indexed as a stream and parsed a few lines at a time (see the module
    docstring). ``len(records)``, ``records[k]``, ``records.read(start, end)``; a Refused
    naming ``name`` and the line of a malformed record, or of a file without any."""

    def __init__(self, path, name):
        self.path, self.name = path, name
        self.starts, self.lines = _line_starts(path)  # of the records' lines; line numbers
        if not len(self.starts):
            raise Refused(f"{clip(name)} holds no records")

    def __len__(self):
        return len(self.starts)

    def __getitem__(self, index):
        return self.read(index, index + 1)[0]

    def read(self, start, end):
        """Records ``start`` to ``end`` (excluded), parsed and checked field by field."""
        end = min(end, len(self))
        if start >= end:
            return []
        stop = int(self.starts[end]) if end < len(self) else None
        with open(self.path, "rb") as f:
            f.seek(int(self.starts[start]))
            text = f.read() if stop is None else f.read(stop - int(self.starts[start]))
        lines = [line for line in text.split(b"\n") if line.strip()][: end - start]
        return [self._parsed(line, int(n)) for line, n in zip(lines, self.lines[start:end])]

    def _parsed(self, line, number):
        where = f"{self.name!r} line {number}"
        try:
            return Record.from_json(parse_json(line.decode("utf-8"), where), where)
        except UnicodeDecodeError:
            raise Refused(f"{where} is not UTF-8 text") from None
        except ValueError as err:
            raise Refused(str(err)) from None


def _line_starts(path):
    """``(starts, numbers)``: the byte offset and the line number (from 1) of each line of
    ``path`` that is not blank, read ``CHUNK`` bytes at a time."""
    starts, numbers = [], []
    line, offset, lines = 0, 0, 0  # where the current line starts; bytes read; lines ended
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            ends = np.flatnonzero(np.frombuffer(chunk, np.uint8) == 10) + offset
            begins = np.concatenate([[line], ends[:-1] + 1]) if len(ends) else np.empty(0)
            kept = _not_blank(f, begins.astype(np.int64), ends)
            starts.append(begins[kept].astype(np.int64))
            numbers.append(np.flatnonzero(kept) + lines + 1)
            if len(ends):
                line = int(ends[-1]) + 1
            lines += len(ends)
            offset += len(chunk)
            f.seek(offset)
        if offset > line:  # a last line without its newline
            last = np.array([line], np.int64)
            kept = _not_blank(f, last, np.array([offset]))
            starts.append(last[kept])
            numbers.append(np.flatnonzero(kept) + lines + 1)
    if not starts:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    return np.concatenate(starts).astype(np.int64), np.concatenate(numbers).astype(np.int64)


def _not_blank(f, begins, ends, short=64):
    """Which of the lines ``begins[k]:ends[k]`` of file ``f`` hold more than white space: an
    empty line is blank, a line of ``short`` bytes or more is not (a record is longer), and
    the few others are read to see."""
    kept = ends > begins
    for k in np.flatnonzero(kept & (ends - begins < short)):
        f.seek(int(begins[k]))
        kept[k] = bool(f.read(int(ends[k] - begins[k])).strip())
    return kept


def _replayed(record):
    try:
        game = record.game()
        states = record.states(game)
        plies = [record.ply_index(k) for k in range(record.plies + 1)]
    except ValueError as err:
        raise Refused(str(err)) from None
    return record, game, states, plies


def read_table(file, folders):
    """A ladder's ratings or a tournament's ratings and crosstable, with the records file that
    holds its games (when it was recorded, beside it)."""
    path, key = opened(file, folders, MAX_TABLE_BYTES, "ladders and tournaments")
    return _PARSED.get(("table", key), lambda: _read_table(file, path), weight=key[2])


def _read_table(file, path):
    kind = _kind(path.name)
    if kind == "ladder":
        try:
            ladder = Ladder.load(path)
        except ValueError as err:
            raise Refused(str(err)) from None
        return {"kind": "ladder", "game": ladder.game_name, "game_title": repr(ladder.game),
                "ratings": ladder.ratings(), "agents": ladder.agents, "records": None}
    if kind != "tournament":
        raise Refused(f"{clip(file)} is not a ladder (ladder*.json) or a tournament "
                         "(tournament.json) file")
    try:
        data = parse_json(read_text(path, "tournament file", MAX_TABLE_BYTES), file)
        ratings, agents = data["ratings"], data["agents"]
        score, games = data["pair_score"], data["pair_games"]
    except (ValueError, KeyError, TypeError) as err:
        raise Refused(f"{clip(file)} is not a tournament file ({clip(str(err))})") from None
    records = path.parent / "records.jsonl"
    relative = str(Path(file).parent / "records.jsonl") if records.is_file() else None
    cross = [[None if not games[i][j] else score[i][j] / games[i][j]
              for j in range(len(agents))] for i in range(len(agents))]
    return {"kind": "tournament", "game": data.get("game"), "game_title": None,
            "ratings": ratings, "agents": agents, "crosstable": cross, "records": relative}
