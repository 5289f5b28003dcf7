"""The web app's storage: one SQLite table of scanned sheets (stdlib `sqlite3`, schema made on start).

Each row keeps the photo's bytes, the scan result (`sheetscan.scan/1`) exactly as the scanner wrote it,
the user's review (the corrected numbers, names, target, variant and price; see `_review`), the sheet
that review spells (`sheetscan.sheet/1`, written with it: readable with plain SQL), a version
number that every save raises by one, and when the row was made and last changed.

Saves are optimistic: `save_review` writes only when the row still has the version the user's edit
started from, in one UPDATE, so two people saving at once cannot both win.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from webapp._review import Review

__all__ = ["Conflict", "SheetSummary", "Store", "StoredSheet"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sheets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    filename TEXT NOT NULL,
    photo BLOB NOT NULL,
    photo_type TEXT NOT NULL,
    scan TEXT NOT NULL,
    review TEXT NOT NULL,
    sheet TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class SheetSummary:
    """A row of the list of sheets (no photo, no JSON)."""

    id: int
    """The sheet's number in the database."""
    filename: str
    """The uploaded photo's file name as the user's browser gave it."""
    version: int
    """How many times it was saved (1 = as scanned)."""
    created: str
    """When it was uploaded (UTC, ISO 8601, seconds)."""
    updated: str
    """When it was last saved (UTC, ISO 8601, seconds)."""
    players: tuple[str, ...]
    """The players' names as last saved."""


@dataclass(frozen=True)
class StoredSheet:
    """One scanned sheet with its review, as stored."""

    id: int
    """The sheet's number in the database."""
    filename: str
    """The uploaded photo's file name."""
    photo_type: str
    """The photo's media type (`image/jpeg`, `image/png`, `image/webp`)."""
    scan: dict[str, Any]
    """The scan result, `sheetscan.scan/1`, as the scanner wrote it (never changed afterwards)."""
    review: Review
    """The user's corrections (see `_review.Review`), as last saved."""
    version: int
    """Raised by one on every save; a save names the version it was based on."""
    created: str
    """When it was uploaded (UTC, ISO 8601)."""
    updated: str
    """When it was last saved (UTC, ISO 8601)."""


class Conflict(Exception):
    """A save based on an older version than the stored one: someone else saved in between."""

    def __init__(self, current: StoredSheet) -> None:
        super().__init__(f"sheet {current.id} is at version {current.version}")
        self.current = current
        """The sheet as the other person saved it."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """The sheets in one SQLite file. Open a `Store` per request; it is cheap (one connection)."""

    def __init__(self, path: str | Path) -> None:
        # A web server's worker threads each open their own Store; the timeout waits out a writer.
        self._db = sqlite3.connect(str(path), timeout=10)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA foreign_keys = ON")

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def create_schema(self) -> None:
        """Make the table if the file does not have it yet."""
        with self._db:
            self._db.executescript(_SCHEMA)

    def count(self) -> int:
        """How many sheets are stored."""
        return int(self._db.execute("SELECT COUNT(*) FROM sheets").fetchone()[0])

    def add(self, *, filename: str, photo: bytes, photo_type: str, scan: dict[str, Any],
            review: Review, sheet: dict[str, Any]) -> int:
        """Store a freshly scanned photo at version 1; return its id."""
        now = _now()
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO sheets (filename, photo, photo_type, scan, review, sheet, version, created,"
                " updated) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)",
                (filename, photo, photo_type, json.dumps(scan), json.dumps(review), json.dumps(sheet), now,
                 now))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def list(self) -> list[SheetSummary]:
        """Every sheet, newest first."""
        rows = self._db.execute(
            "SELECT id, filename, version, created, updated, json_extract(sheet, '$.players') AS players"
            " FROM sheets ORDER BY id DESC").fetchall()
        return [SheetSummary(row["id"], row["filename"], row["version"], row["created"], row["updated"],
                             tuple(json.loads(row["players"] or "[]"))) for row in rows]

    def get(self, sheet_id: int) -> StoredSheet | None:
        """The sheet with this id, or None."""
        row = self._db.execute(
            "SELECT id, filename, photo_type, scan, review, version, created, updated FROM sheets"
            " WHERE id = ?", (sheet_id,)).fetchone()
        if row is None:
            return None
        return StoredSheet(row["id"], row["filename"], row["photo_type"], json.loads(row["scan"]),
                           json.loads(row["review"]), row["version"], row["created"], row["updated"])

    def sheet(self, sheet_id: int) -> dict[str, Any] | None:
        """The sheet (`sheetscan.sheet/1`) the stored review spells, or None."""
        row = self._db.execute("SELECT sheet FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
        return None if row is None else dict(json.loads(row["sheet"]))

    def photo(self, sheet_id: int) -> tuple[bytes, str] | None:
        """The photo's bytes and media type, or None."""
        row = self._db.execute("SELECT photo, photo_type FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
        return None if row is None else (bytes(row["photo"]), str(row["photo_type"]))

    def save_review(self, sheet_id: int, review: Review, sheet: dict[str, Any], *, based_on: int) -> int:
        """Store `review` and its `sheet` if the sheet is still at version `based_on`; return the new version.

        Raises `Conflict` (with the stored sheet) when someone saved since, `KeyError` when there is
        no such sheet.
        """
        with self._db:
            cursor = self._db.execute(
                "UPDATE sheets SET review = ?, sheet = ?, version = version + 1, updated = ?"
                " WHERE id = ? AND version = ?",
                (json.dumps(review), json.dumps(sheet), _now(), sheet_id, based_on))
        if cursor.rowcount == 1:
            return based_on + 1
        current = self.get(sheet_id)
        if current is None:
            raise KeyError(sheet_id)
        raise Conflict(current)

    def delete(self, sheet_id: int) -> bool:
        """Remove the sheet; False when there was none."""
        with self._db:
            cursor = self._db.execute("DELETE FROM sheets WHERE id = ?", (sheet_id,))
        return cursor.rowcount == 1
