"""SQLite storage of the game master's table: encounters and their committed history.

One row per encounter (its scenario, seed, players' side, state version, and how many of its
batches are in effect) and one row per *batch*: the events one committed write produced (the
start, an action, an answered reaction). The log is the encounter: on start the server rebuilds
every encounter by replaying its batches.

Each batch after the start keeps its *write* (the action, its reaction answers and every die it rolled:
:meth:`d20combat.encounter.resolution.Write.to_dict`), so that an export can be verified by replaying it
(issue 12); a batch stored before writes were kept has none (an export of it cannot be imported).

Undo moves ``head`` back one batch and keeps the batch for redo; redo moves it forward again; a new
action deletes the undone batches. An action paused in a reaction window is stored as ``pending``
(nothing of it is committed yet), so a question asked before a restart is still open after it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS encounters (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    scenario TEXT NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,
    created TEXT NOT NULL,
    version INTEGER NOT NULL,
    head INTEGER NOT NULL,
    pending TEXT,
    player_id TEXT,
    start_dice TEXT,
    revealed TEXT
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS batches (
    encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    events TEXT NOT NULL,
    write TEXT,
    PRIMARY KEY (encounter_id, seq)
);
"""


@dataclass(frozen=True, slots=True)
class EncounterRow:
    id: str
    name: str
    scenario: dict[str, Any]
    seed: int
    players: str
    created: str
    version: int
    head: int
    """How many batches are in effect (batch 0 is the start); later ones are undone, kept for redo."""
    pending: dict[str, Any] | None
    player_id: str | None = None
    """The players' page's own random id (None in a file from before issue 13: one is given on load)."""
    start_dice: list[list[int]] | None = None
    """The faces the start rolled, ``[[sides, face], …]``: what an export carries instead of the seed."""
    revealed: list[str] | None = None
    """The creatures the GM has revealed to the players whatever the rules say they see."""


class Store:
    """A thread-safe handle on one SQLite file in WAL mode (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(batches)")}
        if "write" not in columns:  # a file from before issue 12
            self._db.execute("ALTER TABLE batches ADD COLUMN write TEXT")
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(encounters)")}
        for column in ("player_id", "start_dice", "revealed"):  # a file from before issue 13
            if column not in columns:
                self._db.execute(f"ALTER TABLE encounters ADD COLUMN {column} TEXT")
        self._db.execute("CREATE UNIQUE INDEX IF NOT EXISTS encounters_player_id ON encounters(player_id)")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ------------------------------------------------------------------ reading
    def ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM encounters ORDER BY created, rowid")]

    def count(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM encounters").fetchone()
        return int(row[0])

    def get(self, encounter_id: str) -> EncounterRow | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, name, scenario, seed, players, created, version, head, pending, player_id, start_dice, "
                "revealed FROM encounters WHERE id = ?", (encounter_id,)).fetchone()
        if row is None:
            return None
        return EncounterRow(row[0], row[1], json.loads(row[2]), int(row[3]), row[4], row[5], int(row[6]),
                            int(row[7]), json.loads(row[8]) if row[8] is not None else None, row[9],
                            json.loads(row[10]) if row[10] is not None else None,
                            json.loads(row[11]) if row[11] is not None else None)

    def by_player_id(self, player_id: str) -> str | None:
        """The encounter whose players' page is ``player_id``."""
        with self._lock:
            row = self._db.execute("SELECT id FROM encounters WHERE player_id = ?", (player_id,)).fetchone()
        return None if row is None else str(row[0])

    def setting(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def setting_or(self, key: str, value: str) -> str:
        """The stored setting, or ``value`` stored now if there is none (the first writer wins)."""
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, value))
            row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return str(row[0])

    def batches(self, encounter_id: str) -> list[list[dict[str, Any]]]:
        """Every stored batch in order, the undone ones (at and after ``head``) included."""
        with self._lock:
            rows = self._db.execute("SELECT events FROM batches WHERE encounter_id = ? ORDER BY seq",
                                    (encounter_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def history(self, encounter_id: str) -> list[tuple[list[dict[str, Any]], dict[str, Any] | None]]:
        """Every stored batch in order with its write (None for the start and for batches stored before writes
        were kept)."""
        with self._lock:
            rows = self._db.execute("SELECT events, write FROM batches WHERE encounter_id = ? ORDER BY seq",
                                    (encounter_id,)).fetchall()
        return [(json.loads(r[0]), json.loads(r[1]) if r[1] is not None else None) for r in rows]

    # ------------------------------------------------------------------ writing
    def create(self, row: EncounterRow, batches: list[list[dict[str, Any]]],
               writes: list[dict[str, Any] | None] | None = None) -> None:
        """A new encounter with its batches and their writes (aligned with ``batches``, None for the start)."""
        kept = writes if writes is not None else [None] * len(batches)
        with self._tx() as db:
            db.execute("INSERT INTO encounters (id, name, scenario, seed, players, created, version, head, pending, "
                       "player_id, start_dice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (row.id, row.name, _dumps(row.scenario), row.seed, row.players, row.created, row.version,
                        row.head, _dumps(row.pending) if row.pending is not None else None, row.player_id,
                        _dumps(row.start_dice) if row.start_dice is not None else None))
            db.executemany("INSERT INTO batches (encounter_id, seq, events, write) VALUES (?, ?, ?, ?)",
                           [(row.id, seq, _dumps(b), _dumps(w) if w is not None else None)
                            for seq, (b, w) in enumerate(zip(batches, kept, strict=True))])

    def commit_batch(self, encounter_id: str, seq: int, events: list[dict[str, Any]], version: int,
                     write: dict[str, Any] | None = None) -> None:
        """Store a new batch at ``seq`` with the write that made it (dropping the undone ones from there on),
        make it the head, and close any pending reaction window."""
        with self._tx() as db:
            db.execute("DELETE FROM batches WHERE encounter_id = ? AND seq >= ?", (encounter_id, seq))
            db.execute("INSERT INTO batches (encounter_id, seq, events, write) VALUES (?, ?, ?, ?)",
                       (encounter_id, seq, _dumps(events), _dumps(write) if write is not None else None))
            db.execute("UPDATE encounters SET version = ?, head = ?, pending = NULL WHERE id = ?",
                       (version, seq + 1, encounter_id))

    def set_head(self, encounter_id: str, head: int, version: int) -> None:
        with self._tx() as db:
            db.execute("UPDATE encounters SET version = ?, head = ?, pending = NULL WHERE id = ?",
                       (version, head, encounter_id))

    def set_keys(self, encounter_id: str, player_id: str, start_dice: list[list[int]]) -> None:
        """Give an encounter stored before issue 13 its players' id and its start's faces."""
        with self._tx() as db:
            db.execute("UPDATE encounters SET player_id = ?, start_dice = ? WHERE id = ?",
                       (player_id, _dumps(start_dice), encounter_id))

    def set_revealed(self, encounter_id: str, revealed: list[str], version: int) -> None:
        with self._tx() as db:
            db.execute("UPDATE encounters SET revealed = ?, version = ? WHERE id = ?",
                       (_dumps(revealed), version, encounter_id))

    def rename(self, encounter_id: str, name: str, version: int) -> None:
        with self._tx() as db:
            db.execute("UPDATE encounters SET name = ?, version = ? WHERE id = ?", (name, version, encounter_id))

    def delete(self, encounter_id: str) -> bool:
        """Forget an encounter and its history; False if there was none."""
        with self._tx() as db:
            db.execute("DELETE FROM batches WHERE encounter_id = ?", (encounter_id,))
            return db.execute("DELETE FROM encounters WHERE id = ?", (encounter_id,)).rowcount > 0

    def set_pending(self, encounter_id: str, pending: dict[str, Any] | None, version: int) -> None:
        with self._tx() as db:
            db.execute("UPDATE encounters SET version = ?, pending = ? WHERE id = ?",
                       (version, _dumps(pending) if pending is not None else None, encounter_id))


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
