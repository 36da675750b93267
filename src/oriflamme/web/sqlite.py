"""Games kept in a SQLite file: the server's default store (see :mod:`.store`).

The file is in WAL mode with ``synchronous=NORMAL``: a commit survives the process
dying; only a power cut may lose the last few. It is created readable by its owner only
(it holds seeds and saves). Several server processes on one host may share the file
(``serve --workers``): SQLite locks it for each write, and each process learns of the
others' answers by looking at the file's ``data_version`` every :data:`LOOK_SECONDS`,
then at the games changed since it last looked (each write numbers the game it changes,
``changed``, from a count in the table ``news`` that only goes up: a game deleted
takes no number back).

The rate buckets (:meth:`SQLiteStore.take`) are timed by the wall clock, not a monotonic
one, so that they outlive the process: a clock set back refills none, nor empties any.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .store import LAYOUT, Seat, Stale, Store, StoredGame, StoreError, answers_of

#: How often a process looks whether another one has written to the file (seconds).
LOOK_SECONDS = 0.05
#: Seconds a writer waits for another process's write to the file to end.
BUSY_SECONDS = 10.0

# The rate buckets: the tokens each held as of a time, and when it is full again (those
# full again are deleted by expire: not kept, a bucket reads as full).
_RATES = """
CREATE TABLE IF NOT EXISTS rates (
    key TEXT PRIMARY KEY,
    tokens REAL NOT NULL,
    as_of REAL NOT NULL,
    full_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rates_full ON rates(full_at);
"""
_SCHEMA = f"""
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
    save_step INTEGER NOT NULL DEFAULT 0,
    bots_due INTEGER NOT NULL DEFAULT 0,
    bot_owner TEXT,
    bot_until REAL NOT NULL DEFAULT 0,
    changed INTEGER NOT NULL DEFAULT 0,
    client TEXT
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated);
CREATE INDEX IF NOT EXISTS games_changed ON games(changed);
CREATE INDEX IF NOT EXISTS games_due ON games(bot_until) WHERE bots_due AND NOT over;
CREATE INDEX IF NOT EXISTS games_creator ON games(creator_hash);
CREATE TABLE IF NOT EXISTS news (last INTEGER NOT NULL);
INSERT INTO news VALUES (0);
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
{_RATES}"""

# Layout 1 had no creator's link and saved after every answer.
_FROM_1 = """
ALTER TABLE games ADD COLUMN creator_hash TEXT;
ALTER TABLE games ADD COLUMN save_step INTEGER NOT NULL DEFAULT 0;
UPDATE games SET save_step = step;
CREATE INDEX IF NOT EXISTS games_updated ON games(updated);
"""
# Layout 2 had no lease on a game's bots (one process ran them all), nor the order in
# which games changed (one process wrote them all). A game of layout 2
# waiting on a bot is not due: its bots play when it is next opened, as they did.
_FROM_2 = """
ALTER TABLE games ADD COLUMN bots_due INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN bot_owner TEXT;
ALTER TABLE games ADD COLUMN bot_until REAL NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS games_changed ON games(changed);
CREATE INDEX IF NOT EXISTS games_due ON games(bot_until) WHERE bots_due AND NOT over;
CREATE TABLE IF NOT EXISTS news (last INTEGER NOT NULL);
INSERT INTO news VALUES (0);
"""
# Layout 3 kept the rate buckets in each process's memory, and not the client that
# created a game: the games of layout 3 have none.
_FROM_3 = f"""
ALTER TABLE games ADD COLUMN client TEXT;
CREATE INDEX IF NOT EXISTS games_creator ON games(creator_hash);
{_RATES}"""
#: The scripts that bring each earlier layout (0: a new file) up to :data:`LAYOUT`.
_STEPS = {
    0: [_SCHEMA],
    1: [_FROM_1, _FROM_2, _FROM_3],
    2: [_FROM_2, _FROM_3],
    3: [_FROM_3],
    LAYOUT: [],
}


class SQLiteStore(Store):
    """The games file. Its connection is shared by the threads that call it, one call
    at a time; the server calls it from its event loop (a call is a local write)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.name = str(self.path)
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _create_private(self.path)
            self._db = self._connect()
            self._setup()
            # Only once it is known to be a games file: another file is left as it was.
            for each in (self.path, *(Path(f"{self.path}{end}") for end in ("-wal", "-shm"))):
                if each.exists():
                    each.chmod(0o600)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot use {self.path} as the games file: {exc}") from exc

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_SECONDS
        )

    def _setup(self) -> None:
        db = self._db
        # Several processes may open a new file at once: one sets it up, the others
        # wait for it and find it done.
        db.execute("BEGIN IMMEDIATE")
        try:
            layout = db.execute("PRAGMA user_version").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if layout not in _STEPS or (layout == 0 and tables):
                raise StoreError(
                    f"{self.path} is not a games file of this version "
                    f"(layout {layout}, expected {LAYOUT}); give another --db"
                )
            for script in _STEPS[layout]:
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute(f"PRAGMA user_version={LAYOUT}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        with self._lock:
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
        with self._lock:
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

    def _read(self, sql: str, values: tuple[Any, ...] = ()) -> list[Any]:
        try:
            with self._lock:
                return self._db.execute(sql, values).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc

    def create(
        self,
        game_id: str,
        request: dict[str, Any],
        initial: str,
        seats: list[Seat],
        creator_hash: str | None = None,
        *,
        bots_due: bool = False,
        client: str | None = None,
    ) -> None:
        now = time.time()
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO games (id, created, updated, request, initial, save, step, over, "
                "creator_hash, save_step, bots_due, client) "
                "VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, 0, ?, ?)",
                (
                    game_id,
                    now,
                    now,
                    json.dumps(request),
                    initial,
                    initial,
                    creator_hash,
                    int(bots_due),
                    client,
                ),
            )
        ]
        statements += [
            ("INSERT INTO seats VALUES (?, ?, ?, ?)", (game_id, s.family, s.kind, s.token_hash))
            for s in seats
        ]
        self._write(statements)

    def record(
        self,
        game_id: str,
        step: int,
        family: str,
        answer: str,
        save: str | None,
        *,
        over: bool,
        bots_due: bool = False,
    ) -> None:
        # A game no bot is due in has no lease: the process that ran its bots may have
        # not given it up yet, and the next bot's turn must not wait for it to.
        lease = "" if bots_due else ", bot_owner = NULL, bot_until = 0"
        lease += ", changed = (SELECT last FROM news)"
        if save is None:
            update: tuple[str, tuple[Any, ...]] = (
                f"UPDATE games SET step = ?, over = ?, updated = ?, bots_due = ?{lease} "
                "WHERE id = ? AND step = ?",
                (step, int(over), time.time(), int(bots_due), game_id, step - 1),
            )
        else:
            update = (
                "UPDATE games SET save = ?, save_step = ?, step = ?, over = ?, updated = ?, "
                f"bots_due = ?{lease} WHERE id = ? AND step = ?",
                (save, step, step, int(over), time.time(), int(bots_due), game_id, step - 1),
            )
        self._write(
            [
                ("UPDATE news SET last = last + 1", ()),
                update,
                ("INSERT INTO answers VALUES (?, ?, ?, ?)", (game_id, step, family, answer)),
            ]
        )

    def count(self) -> int:
        found: int = self._read("SELECT count(*) FROM games")[0][0]
        return found

    def expire(self, finished_before: float, abandoned_before: float) -> list[str]:
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
            # A bucket full again reads as full when not kept.
            db.execute("DELETE FROM rates WHERE full_at <= ?", (time.time(),))
        return gone

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:  # the game and its seats and answers as of one moment
            rows = self._read(
                "SELECT request, initial, save, step, over, creator_hash, save_step, client "
                "FROM games WHERE id = ?",
                (game_id,),
            )
            if not rows:
                return None
            seats = self._read(
                "SELECT family, kind, token_hash FROM seats WHERE game = ?", (game_id,)
            )
            step, save_step = rows[0][3], rows[0][6]
            later = self.answers(game_id, step, after=save_step)
        return StoredGame.of_rows(game_id, rows[0], seats, later)

    def client_of(self, creator_hash: str) -> str | None:
        rows = self._read(
            "SELECT client FROM games WHERE creator_hash = ? LIMIT 1", (creator_hash,)
        )
        return rows[0][0] if rows else None

    def answers(
        self, game_id: str, upto: int | None = None, after: int = 0
    ) -> list[tuple[str, Any]]:
        rows = self._read(
            "SELECT family, answer FROM answers WHERE game = ? AND step > ? AND step <= ? "
            "ORDER BY step",
            (game_id, after, 2**62 if upto is None else upto),
        )
        return answers_of(rows)

    def claim_bots(self, game_id: str, owner: str, seconds: float) -> bool:
        now = time.time()
        with self._transaction() as db:
            taken = db.execute(
                "UPDATE games SET bot_owner = ?, bot_until = ? WHERE id = ? "
                "AND (bot_owner IS NULL OR bot_owner = ? OR bot_until < ?)",
                (owner, now + seconds, game_id, owner, now),
            ).rowcount
        return taken == 1

    def release_bots(self, game_id: str, owner: str) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET bot_owner = NULL, bot_until = 0 WHERE id = ? AND bot_owner = ?",
                (game_id, owner),
            )

    def due(self, limit: int) -> list[str]:
        rows = self._read(
            "SELECT id FROM games WHERE bots_due AND NOT over AND bot_until < ? LIMIT ?",
            (time.time(), limit),
        )
        return [row[0] for row in rows]

    def take(self, key: str, count: int, seconds: float) -> float:
        per_second = count / seconds
        # One transaction holding the file's write lock from the read: two processes
        # taking the last request at once are served one after the other.
        with self._transaction() as db:
            now = time.time()
            found = db.execute("SELECT tokens, as_of FROM rates WHERE key = ?", (key,)).fetchone()
            tokens, then = found if found is not None else (float(count), now)
            # A clock set back (the wall clock may be) refills nothing, and takes nothing.
            tokens = min(float(count), tokens + max(0.0, now - then) * per_second)
            if tokens < 1:
                return (1 - tokens) / per_second
            tokens -= 1
            db.execute(
                "INSERT OR REPLACE INTO rates VALUES (?, ?, ?, ?)",
                (key, tokens, now, now + (count - tokens) / per_second),
            )
        return 0.0

    def listen(self, heard: Callable[[str, int], None]) -> Callable[[], None]:
        stop = threading.Event()
        # Its own connection: data_version tells of commits by other connections only,
        # so this one sees the server's own answers as well as other processes'.
        looking = self._connect()

        # What is there already is not news: the count as listening starts, read
        # before this returns, so that an answer kept just after is heard.
        try:
            seen = looking.execute("SELECT last FROM news").fetchone()[0]
        except sqlite3.Error as exc:
            looking.close()
            raise StoreError(f"cannot read {self.path}: {exc}") from exc

        def look() -> None:
            nonlocal seen
            version = None
            while not stop.wait(LOOK_SECONDS):
                try:
                    found = looking.execute("PRAGMA data_version").fetchone()[0]
                    if found == version:
                        continue
                    rows = looking.execute(
                        "SELECT id, step, changed FROM games WHERE changed > ?", (seen,)
                    ).fetchall()
                    version = found  # only once read: a failed look is looked at again
                except sqlite3.Error:
                    continue  # the file is busy or gone: looked at again shortly
                for game_id, step, changed in rows:
                    seen = max(seen, changed)
                    heard(game_id, step)
            looking.close()

        thread = threading.Thread(target=look, name="oriflamme-store-listen", daemon=True)
        thread.start()

        def stopping() -> None:
            stop.set()
            thread.join(5)

        return stopping


def _create_private(path: Path) -> None:
    """Creates ``path``, if there is none, readable and writable by its owner only
    (SQLite gives its journal files the same permissions)."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(descriptor)
