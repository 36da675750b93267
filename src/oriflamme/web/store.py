"""Games kept in a SQLite file, so that nothing answered is ever lost.

Each game is its creation request, the engine's JSON save at the start and after the
last answer, and every answer in order. An answer and the save it leads to are written
in one transaction before anyone is told of it, so a server killed at any moment (even
with ``kill -9``) comes back with every answer it confirmed. The file is in WAL mode
with ``synchronous=NORMAL``: a commit survives the process dying; only a power cut may
lose the last few.

A seat's secret token is never stored: only its SHA-256, compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import attrs

from ..core.errors import OriflammeError

#: The layout of the file; a file of another layout is refused, not changed.
LAYOUT = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    request TEXT NOT NULL,
    initial TEXT NOT NULL,
    save TEXT NOT NULL,
    step INTEGER NOT NULL,
    over INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games(id),
    family TEXT NOT NULL,
    kind TEXT NOT NULL,
    token_hash TEXT,
    PRIMARY KEY (game, family)
);
CREATE TABLE IF NOT EXISTS answers (
    game TEXT NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL,
    family TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (game, step)
);
"""


class StoreError(OriflammeError):
    """The games file cannot be opened, read or written; the message names it."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.frozen
class Seat:
    """Who plays one family: ``person`` (with the hash of its token) or a bot kind."""

    family: str
    kind: str
    token_hash: str | None = None


@attrs.frozen
class StoredGame:
    """One game as the file holds it."""

    id: str
    request: dict[str, Any]
    initial: str
    save: str
    step: int
    over: bool
    seats: tuple[Seat, ...]


class Store:
    """The games file. Use it from one thread at a time: the server's event loop (it
    may be made in another, before the server starts)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._setup()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot use {self.path} as the games file: {exc}") from exc

    def _setup(self) -> None:
        db = self._db
        layout = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if layout not in (0, LAYOUT) or (layout == 0 and tables):
            raise StoreError(
                f"{self.path} is not a games file of this version "
                f"(layout {layout}, expected {LAYOUT}); give another --db"
            )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        if layout == 0:
            db.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version={LAYOUT}; COMMIT;")

    def close(self) -> None:
        self._db.close()

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` in one transaction: all of them are kept, or none (each
        must change a row: an answer to a game that has moved on is not kept)."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, values in statements:
                    if db.execute(sql, values).rowcount != 1:
                        raise StoreError(f"{self.path} does not hold that game at that step")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to {self.path}: {exc}") from exc

    def create(
        self, game_id: str, request: dict[str, Any], initial: str, seats: list[Seat]
    ) -> None:
        now = time.time()
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
                (game_id, now, now, json.dumps(request), initial, initial),
            )
        ]
        statements += [
            ("INSERT INTO seats VALUES (?, ?, ?, ?)", (game_id, s.family, s.kind, s.token_hash))
            for s in seats
        ]
        self._write(statements)

    def record(
        self, game_id: str, step: int, family: str, answer: str, save: str, *, over: bool
    ) -> None:
        """Answer number ``step`` (from 1) and the save it leads to, in one transaction."""
        self._write(
            [
                (
                    "UPDATE games SET save = ?, step = ?, over = ?, updated = ? "
                    "WHERE id = ? AND step = ?",
                    (save, step, int(over), time.time(), game_id, step - 1),
                ),
                ("INSERT INTO answers VALUES (?, ?, ?, ?)", (game_id, step, family, answer)),
            ]
        )

    def load(self, game_id: str) -> StoredGame | None:
        try:
            row = self._db.execute(
                "SELECT request, initial, save, step, over FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            seats = self._db.execute(
                "SELECT family, kind, token_hash FROM seats WHERE game = ?", (game_id,)
            ).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        request, initial, save, step, over = row
        return StoredGame(
            game_id,
            json.loads(request),
            initial,
            save,
            step,
            bool(over),
            tuple(Seat(*seat) for seat in seats),
        )

    def answers(self, game_id: str, upto: int) -> list[tuple[str, Any]]:
        """The first ``upto`` answers of a game: (family, answer as JSON values)."""
        try:
            rows = self._db.execute(
                "SELECT family, answer FROM answers WHERE game = ? AND step <= ? ORDER BY step",
                (game_id, upto),
            ).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        return [(family, json.loads(answer)) for family, answer in rows]


def seat_of(seats: tuple[Seat, ...], token: str) -> str | None:
    """The family whose token is ``token``, or None: every seat's hash is compared, each
    in constant time, so the time taken tells nothing of how close a guess was."""
    given = token_hash(token)
    found = None
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, given):
            found = seat.family
    return found
