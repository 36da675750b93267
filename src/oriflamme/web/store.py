"""Games kept in a SQLite file, so that nothing answered is ever lost.

Each game is its creation request, the engine's JSON save at the start, a later save
(written every :data:`SAVE_EVERY` answers and at the game's end), and every answer in
order. An answer is written in its own transaction before anyone is told of it, so a
server killed at any moment (even with ``kill -9``) comes back with every answer it
confirmed: the game is the last save with the answers after it played again (the
engine is deterministic). The file is in WAL mode with ``synchronous=NORMAL``: a
commit survives the process dying; only a power cut may lose the last few.

The file is created readable by its owner only (it holds seeds and saves). A seat's
secret token is never stored: only its SHA-256, compared in constant time; nor is the
creator's (from which every seat's token is made, see :func:`seat_token`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from oriflamme import OriflammeError

#: The layout of the file. A file of layout 1 is brought up to date when opened; a
#: file of a later layout (a newer server's) is refused, not changed.
LAYOUT = 2
#: A game's save is written again after this many answers (and at its end); between
#: saves only the answers are written, and a game is read back by playing them again.
SAVE_EVERY = 16

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    request TEXT NOT NULL,
    initial TEXT NOT NULL,
    save TEXT NOT NULL,
    step INTEGER NOT NULL,
    over INTEGER NOT NULL,
    creator_hash TEXT,
    save_step INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated);
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

# Layout 1 had no creator's link and saved after every answer.
_FROM_1 = """
ALTER TABLE games ADD COLUMN creator_hash TEXT;
ALTER TABLE games ADD COLUMN save_step INTEGER NOT NULL DEFAULT 0;
UPDATE games SET save_step = step;
CREATE INDEX IF NOT EXISTS games_updated ON games(updated);
"""


class StoreError(OriflammeError):
    """The games file cannot be opened, read or written; the message names it."""


class Stale(StoreError):
    """An answer to a game that has moved on in the file (or is not there): not kept."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_token(creator: str, game_id: str, family: str) -> str:
    """The secret token of ``family``'s seat, made from the creator's: the creator can
    get every link back (the table page) while the file keeps no token at all."""
    made = hmac.new(creator.encode(), f"seat:{game_id}:{family}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(made.digest()[:24]).decode()


@attrs.frozen
class Seat:
    """Who plays one family: ``person`` (with the hash of its token) or a bot kind."""

    family: str
    kind: str
    token_hash: str | None = None


@attrs.frozen
class StoredGame:
    """One game as the file holds it: its last save, made after ``save_step``
    answers, and ``later``, the answers after it (family, answer as JSON values)."""

    id: str
    request: dict[str, Any]
    initial: str
    save: str
    step: int
    over: bool
    seats: tuple[Seat, ...]
    creator_hash: str | None = None
    save_step: int = 0
    later: tuple[tuple[str, Any], ...] = ()


class Store:
    """The games file. Use it from one thread at a time: the server's event loop (it
    may be made in another, before the server starts)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _create_private(self.path)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._setup()
            # Only once it is known to be a games file: another file is left as it was.
            for each in (self.path, *(Path(f"{self.path}{end}") for end in ("-wal", "-shm"))):
                if each.exists():
                    each.chmod(0o600)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot use {self.path} as the games file: {exc}") from exc

    def _setup(self) -> None:
        db = self._db
        layout = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if layout not in (0, 1, LAYOUT) or (layout == 0 and tables):
            raise StoreError(
                f"{self.path} is not a games file of this version "
                f"(layout {layout}, expected {LAYOUT}); give another --db"
            )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        if layout == 0:
            db.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version={LAYOUT}; COMMIT;")
        elif layout == 1:
            db.executescript(f"BEGIN; {_FROM_1} PRAGMA user_version={LAYOUT}; COMMIT;")

    def close(self) -> None:
        self._db.close()

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` in one transaction: all of them are kept, or none (each
        must change a row: an answer to a game that has moved on is not kept)."""
        with self._transaction() as db:
            for sql, values in statements:
                if db.execute(sql, values).rowcount != 1:
                    raise Stale(f"{self.path} does not hold that game at that step")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The file, in one transaction: committed at the end, rolled back on any
        failure; a failure of the file's is a :class:`StoreError` naming it."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to {self.path}: {exc}") from exc

    def create(
        self,
        game_id: str,
        request: dict[str, Any],
        initial: str,
        seats: list[Seat],
        creator_hash: str | None = None,
    ) -> None:
        now = time.time()
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO games (id, created, updated, request, initial, save, step, over, "
                "creator_hash, save_step) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, 0)",
                (game_id, now, now, json.dumps(request), initial, initial, creator_hash),
            )
        ]
        statements += [
            ("INSERT INTO seats VALUES (?, ?, ?, ?)", (game_id, s.family, s.kind, s.token_hash))
            for s in seats
        ]
        self._write(statements)

    def record(
        self, game_id: str, step: int, family: str, answer: str, save: str | None, *, over: bool
    ) -> None:
        """Answer number ``step`` (from 1), with the save it leads to if given, in one
        transaction."""
        if save is None:
            update: tuple[str, tuple[Any, ...]] = (
                "UPDATE games SET step = ?, over = ?, updated = ? WHERE id = ? AND step = ?",
                (step, int(over), time.time(), game_id, step - 1),
            )
        else:
            update = (
                "UPDATE games SET save = ?, save_step = ?, step = ?, over = ?, updated = ? "
                "WHERE id = ? AND step = ?",
                (save, step, step, int(over), time.time(), game_id, step - 1),
            )
        self._write(
            [update, ("INSERT INTO answers VALUES (?, ?, ?, ?)", (game_id, step, family, answer))]
        )

    def count(self) -> int:
        """How many games the file holds."""
        try:
            found: int = self._db.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        return found

    def expire(self, finished_before: float, abandoned_before: float) -> list[str]:
        """Deletes the games finished with no answer since ``finished_before``, and the
        unfinished ones with none since ``abandoned_before`` (times as ``time.time()``):
        their ids."""
        with self._transaction() as db:
            gone = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM games WHERE (over AND updated < ?) "
                    "OR (NOT over AND updated < ?)",
                    (finished_before, abandoned_before),
                )
            ]
            for table in ("answers", "seats"):
                db.executemany(f"DELETE FROM {table} WHERE game = ?", [(g,) for g in gone])
            db.executemany("DELETE FROM games WHERE id = ?", [(g,) for g in gone])
        return gone

    def load(self, game_id: str) -> StoredGame | None:
        try:
            row = self._db.execute(
                "SELECT request, initial, save, step, over, creator_hash, save_step "
                "FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            seats = self._db.execute(
                "SELECT family, kind, token_hash FROM seats WHERE game = ?", (game_id,)
            ).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        request, initial, save, step, over, creator_hash, save_step = row
        return StoredGame(
            game_id,
            json.loads(request),
            initial,
            save,
            step,
            bool(over),
            tuple(Seat(*seat) for seat in seats),
            creator_hash,
            save_step,
            tuple(self.answers(game_id, step, after=save_step)),
        )

    def answers(self, game_id: str, upto: int, after: int = 0) -> list[tuple[str, Any]]:
        """A game's answers after the first ``after`` up to number ``upto``: (family,
        answer as JSON values)."""
        try:
            rows = self._db.execute(
                "SELECT family, answer FROM answers WHERE game = ? AND step > ? AND step <= ? "
                "ORDER BY step",
                (game_id, after, upto),
            ).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        return [(family, json.loads(answer)) for family, answer in rows]


def _create_private(path: Path) -> None:
    """Creates ``path``, if there is none, readable and writable by its owner only
    (SQLite gives its journal files the same permissions)."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(descriptor)


def seat_of(seats: tuple[Seat, ...], token: str) -> str | None:
    """The family whose token is ``token``, or None: every seat's hash is compared, each
    in constant time, so the time taken tells nothing of how close a guess was."""
    given = token_hash(token)
    found = None
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, given):
            found = seat.family
    return found
