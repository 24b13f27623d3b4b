"""The tables of ``savanna serve`` kept across a restart: every unfinished table is written to an
SQLite database in the save folder (``JOURNAL``, write-ahead log) after every change, and read
back when the server starts, as boardgame.io's storage adapters and lichess keep their games.

A row holds what ``Table.snapshot`` says (the game, its options, the seats as typed, the seed,
the moves and chance outcomes, the pace, the seat keys hashed) and when the table last changed.
A change is committed before any page hears of it, so a server killed at any point loses at most
the change it was making. With ``synchronous=NORMAL`` a commit survives the server's process
dying (``kill -9``, a crash); a power cut may lose the last commits. A finished game leaves the
journal once its record is written; a table freed when idle leaves it too.

>>> journal = Journal(":memory:")        # no save folder: kept for this process only
>>> journal.tables()
[]
"""
import json
import logging
import os
import sqlite3
import time
from pathlib import Path

__all__ = ["JOURNAL", "Journal"]

JOURNAL = ".savanna-tables.sqlite3"  # in the save folder; a hidden name, so never served
LOG = logging.getLogger(__name__)


class Journal:
    """The tables journaled at ``path`` (a file, or ``":memory:"``); ``clock``: wall seconds."""

    def __init__(self, path, clock=time.time):
        self.path, self.clock = path, clock
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, "
                        "snapshot TEXT NOT NULL, changed REAL NOT NULL)")

    @classmethod
    def in_folder(cls, folder):
        """The journal of the save folder ``folder`` (None: one in memory; so too, with one log
        line, where the folder cannot hold one)."""
        if folder is None:
            return cls(":memory:")
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
            path = Path(folder) / JOURNAL  # its owner's only: it holds the games' seeds (SQLite
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))  # gives its -wal the same)
            return cls(str(path))
        except (OSError, sqlite3.Error) as err:
            LOG.error("savanna serve: cannot keep the games in %s (%s): a restart will lose "
                      "the games in progress", Path(folder) / JOURNAL, err)
            return cls(":memory:")

    def save(self, table):
        """Write ``table`` as it stands, or forget it once its record is written."""
        if table.over and table.saved is not None:
            self.forget(table.id)
            return
        self._write("INSERT OR REPLACE INTO tables VALUES (?, ?, ?)",
                    (table.id, json.dumps(table.snapshot()), self.clock()))

    def forget(self, table_id):
        self._write("DELETE FROM tables WHERE id = ?", (table_id,))

    def _write(self, sql, values):
        """One statement, committed; a failure (a full disk) is logged, and the game goes on
        in memory rather than stops."""
        try:
            self.db.execute(sql, values)
        except sqlite3.Error as err:
            LOG.error("savanna serve: cannot write to %s (%s): a restart would lose this "
                      "change", self.path, err)

    def tables(self):
        """``[(snapshot, seconds since it last changed)]`` of every table journaled."""
        now = self.clock()
        return [(json.loads(text), max(0.0, now - changed)) for text, changed
                in self.db.execute("SELECT snapshot, changed FROM tables ORDER BY changed")]

    def restore(self, limits, restore_one):
        """The tables journaled that are not yet idle past ``limits.idle_minutes``, each made
        by ``restore_one(snapshot)``: ``[(table, idle seconds)]``. A table that no longer
        makes sense (an agent's checkpoint gone) is left out with one log line."""
        kept = []
        for snapshot, idle in self.tables():
            if idle > 60 * limits.idle_minutes:
                self.forget(snapshot["id"])
                continue
            try:
                kept.append((restore_one(snapshot), idle))
            except (ValueError, KeyError, TypeError) as err:
                LOG.warning("savanna serve: game %s of the journal cannot be resumed (%s); it "
                            "stays in %s", snapshot.get("id"), err, self.path)
        return kept

    def close(self):
        self.db.close()
