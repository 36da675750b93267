"""Games kept on a PostgreSQL server (``serve --db postgresql://...``), which several server
processes, on one host or many, share (see :mod:`.store`).

The driver is psycopg 3, with its connection pool. An answer is kept by one statement,
so one round trip: the game's row moves on from the step the answer follows (or nothing
happens: :class:`Stale`), the answer is added, and every server process listening is
told (``NOTIFY``) once it commits. A process hears of the answers with ``LISTEN`` on one
connection of its own. Times that several hosts compare (a lease on a game's bots, a rate
bucket) are the database server's, so the hosts' clocks need not agree.

The tables are in the schema ``oriflamme``, so the database may hold others; the
layout is in ``oriflamme.layout``, and a server brings it up to date (under a lock, so
several processes starting at once do it once) or refuses a newer one.
"""

from __future__ import annotations

import json
import logging
import threading
import urllib.parse
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from .store import LAYOUT, POOL_SIZE, Seat, Stale, Store, StoredGame, StoreError, answers_of

#: Seconds to wait for the database server when starting.
CONNECT_SECONDS = 10.0
#: Seconds a request waits for a connection (the pool's free ones all busy, or the
#: database server down) before it is answered 503.
WAIT_SECONDS = 5.0
#: The channel answers are announced on.
CHANNEL = "oriflamme"
#: How a connection finds out that the network to the database server went silent
#: (no reply, no reset): TCP keepalives, and a cap on unacknowledged sends (ms).
#: Without them a request, or the listening, could wait on a dead link for hours.
KEEPALIVE: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 30_000,
}

log = logging.getLogger("oriflamme.web")
#: Any number the database names the lock on setting the tables up by.
_SETUP_LOCK = 0x0F1F1A33
#: The database server's clock, in seconds as ``time.time()`` gives them.
_NOW = "extract(epoch from clock_timestamp())"
_T = TypeVar("_T")
#: Times a take refused is tried again when the bucket has a request by the time its
#: wait is read; :data:`_SOON` (seconds) is the wait said if it still has not got one.
_TRIES = 3
_SOON = 0.001

#: The index :meth:`PostgresStore.client_of` reads by.
_CREATOR = "CREATE INDEX games_creator ON oriflamme.games (creator_hash)"
#: The rate buckets: the tokens each held as of a time, and when it is full again (those
#: full again are deleted by the hourly expiry: not kept, a bucket reads as full).
_RATES = [
    """CREATE TABLE oriflamme.rates (
        key TEXT PRIMARY KEY,
        tokens DOUBLE PRECISION NOT NULL,
        as_of DOUBLE PRECISION NOT NULL,
        full_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX rates_full ON oriflamme.rates (full_at)",
]

_SCHEMA = [
    "CREATE SCHEMA IF NOT EXISTS oriflamme",
    "CREATE TABLE oriflamme.layout (layout INTEGER NOT NULL)",
    """CREATE TABLE oriflamme.games (
        id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        request TEXT NOT NULL,
        initial TEXT NOT NULL,
        save TEXT NOT NULL,
        step INTEGER NOT NULL,
        over BOOLEAN NOT NULL,
        creator_hash TEXT,
        save_step INTEGER NOT NULL DEFAULT 0,
        bots_due BOOLEAN NOT NULL DEFAULT FALSE,
        bot_owner TEXT,
        bot_until DOUBLE PRECISION NOT NULL DEFAULT 0,
        client TEXT
    )""",
    "CREATE INDEX games_updated ON oriflamme.games (updated)",
    # The games waiting on a bot are few: the sweep for them reads only those.
    "CREATE INDEX games_due ON oriflamme.games (bot_until) WHERE bots_due AND NOT over",
    _CREATOR,
    """CREATE TABLE oriflamme.seats (
        game TEXT NOT NULL REFERENCES oriflamme.games (id) ON DELETE CASCADE,
        family TEXT NOT NULL,
        kind TEXT NOT NULL,
        token_hash TEXT,
        PRIMARY KEY (game, family)
    )""",
    """CREATE TABLE oriflamme.answers (
        game TEXT NOT NULL REFERENCES oriflamme.games (id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        family TEXT NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (game, step)
    )""",
    *_RATES,
]
#: The statements that bring layout N up to N + 1 (layout 3 is the first on PostgreSQL).
_MIGRATIONS: dict[int, list[str]] = {
    # Layout 3 kept the rate buckets in each process's memory, and not the client that
    # created a game: the games of layout 3 have none.
    3: ["ALTER TABLE oriflamme.games ADD COLUMN client TEXT", _CREATOR, *_RATES],
}
#: The tokens of the bucket ``r`` now (``excluded.as_of``): refilled since it was last
#: taken from (nothing if the server's clock went back), up to full.
_REFILLED = "least(%(count)s, r.tokens + greatest(0, excluded.as_of - r.as_of) * %(per_second)s)"
#: One request taken from a bucket, in one statement: a bucket not kept is made (full,
#: less the one taken), one kept is changed only if it holds a request, the row locked
#: meanwhile; a row is returned only if taken. The time is read once: ``excluded.as_of``.
_TAKE = (
    "INSERT INTO oriflamme.rates AS r (key, tokens, as_of, full_at) "
    "SELECT %(key)s, %(count)s - 1, now, now + 1 / %(per_second)s "
    f"FROM (SELECT {_NOW} AS now) AS clock "
    f"ON CONFLICT (key) DO UPDATE SET tokens = {_REFILLED} - 1, as_of = excluded.as_of, "
    f"full_at = excluded.as_of + (%(count)s - {_REFILLED} + 1) / %(per_second)s "
    f"WHERE {_REFILLED} >= 1 RETURNING 1"
)
#: The seconds until a bucket holds a request again.
_WAIT = (
    f"SELECT (1 - least(%(count)s, tokens + greatest(0, {_NOW} - as_of) * %(per_second)s)) "
    "/ %(per_second)s FROM oriflamme.rates WHERE key = %(key)s"
)


def shown(url: str) -> str:
    """``url`` as messages and logs may show it: no password, nor any other setting.
    Made from the text after the URL's last ``@``, which no password reaches (even one
    holding an ``@``), not from a reading of the whole that could misplace one."""
    _, separator, rest = url.partition("://")
    if not separator:
        return "the PostgreSQL database given"
    userinfo, at, place = rest.rpartition("@")
    user = userinfo.partition(":")[0] if at else ""
    place = place.partition("?")[0]
    return f"postgresql://{user}{'@' if user else ''}{place}"


def _read(url: str) -> None:
    """Refuses a URL libpq cannot read, or would read otherwise than it is written (a
    password holding a ``/`` or ``@`` not percent-encoded), never quoting it."""
    expected = "expected postgresql://USER:PASSWORD@HOST:PORT/NAME"
    try:
        parts = conninfo_to_dict(url)
    except psycopg.Error:
        # libpq's message quotes the URL, password and all: not shown.
        raise StoreError(
            f"cannot use the --db given: it is not a PostgreSQL URL ({expected})"
        ) from None
    userinfo, at, _ = url.partition("://")[2].rpartition("@")
    password = urllib.parse.unquote(userinfo.partition(":")[2]) if at else ""
    if password and parts.get("password") != password:
        raise StoreError(
            "cannot use the --db given: its password holds a character a URL must "
            "percent-encode (write / as %2F, @ as %40, % as %25, : as %3A, ? as %3F, "
            "# as %23), or give the password in ~/.pgpass or PGPASSWORD"
        )


class PostgresStore(Store):
    """The games on a PostgreSQL server: a pool of connections, each call taking one."""

    remote = True

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = shown(url)
        _read(url)
        try:
            # One connection first: a server that cannot be reached is said in one
            # line at once, not retried by the pool (which logs each try) until it
            # gives up.
            psycopg.connect(
                url, connect_timeout=max(1, round(CONNECT_SECONDS)), **KEEPALIVE
            ).close()
            self._pool = ConnectionPool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                kwargs={"autocommit": True, **KEEPALIVE},
                timeout=WAIT_SECONDS,
                open=False,
                name="oriflamme",
            )
            self._pool.open(wait=True, timeout=CONNECT_SECONDS)
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreError(f"cannot use {self.name} as the games store: {_why(exc)}") from exc
        try:
            self._setup()
        except BaseException:
            self._pool.close()
            raise

    def _setup(self) -> None:
        try:
            with self._pool.connection() as db, db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
                found = db.execute("SELECT to_regclass('oriflamme.layout')").fetchone()
                layout = 0
                if found is not None and found[0] is not None:
                    row = db.execute("SELECT layout FROM oriflamme.layout").fetchone()
                    layout = row[0] if row is not None else 0
                elif db.execute("SELECT to_regclass('oriflamme.games')").fetchone() != (None,):
                    raise StoreError(
                        f"{self.name} holds a table oriflamme.games that is not a games "
                        "store's (it has no oriflamme.layout): left as it is; give another --db"
                    )
                if layout == 0:
                    for statement in _SCHEMA:
                        db.execute(statement)
                    db.execute("INSERT INTO oriflamme.layout VALUES (%s)", (LAYOUT,))
                    return
                if not 3 <= layout <= LAYOUT:
                    raise StoreError(
                        f"{self.name} holds games of another version (layout {layout}, "
                        f"expected {LAYOUT}); give another --db"
                    )
                if layout == LAYOUT:
                    return  # nothing to write: a user with rights on the rows only will do
                while layout < LAYOUT:
                    for statement in _MIGRATIONS[layout]:
                        db.execute(statement)
                    layout += 1
                db.execute("UPDATE oriflamme.layout SET layout = %s", (LAYOUT,))
        except psycopg.Error as exc:
            raise StoreError(f"cannot set up {self.name}: {_why(exc)}") from exc

    def close(self) -> None:
        self._pool.close()

    def _run(self, sql: str, values: tuple[Any, ...] | dict[str, Any] = ()) -> list[Any]:
        """One statement (a transaction of its own): the rows it returns."""
        try:
            return self._again(lambda: self._once(sql, values))
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreError(f"cannot use {self.name}: {_why(exc)}") from exc

    def _once(self, sql: str, values: tuple[Any, ...] | dict[str, Any]) -> list[Any]:
        with self._pool.connection() as db:
            cursor = db.execute(sql, values)
            return cursor.fetchall() if cursor.description is not None else []

    def _again(self, call: Callable[[], _T]) -> _T:
        """``call``, and once more if the connection it took was lost: the database
        server restarted, and every connection the pool kept from before is dead (the
        pool is checked first). A statement sent to a server process that is gone was
        not run; one the server died running is run again, and an answer it had kept
        is then refused as :class:`Stale`. A wait for a free connection that ran out
        (the server is down) is not tried again: the request is answered at once."""
        try:
            return call()
        except psycopg.OperationalError:
            self._pool.check()
            return call()

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
        def insert() -> None:
            with self._pool.connection() as db, db.transaction():
                db.execute(
                    "INSERT INTO oriflamme.games (id, created, updated, request, initial, save, "
                    "step, over, creator_hash, save_step, bots_due, client) "
                    f"VALUES (%s, {_NOW}, {_NOW}, %s, %s, %s, 0, FALSE, %s, 0, %s, %s)",
                    (
                        game_id,
                        json.dumps(request),
                        initial,
                        initial,
                        creator_hash,
                        bots_due,
                        client,
                    ),
                )
                with db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO oriflamme.seats VALUES (%s, %s, %s, %s)",
                        [(game_id, s.family, s.kind, s.token_hash) for s in seats],
                    )

        try:
            self._again(insert)
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreError(f"cannot write to {self.name}: {_why(exc)}") from exc

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
        saving = "" if save is None else ", save = %(save)s, save_step = %(step)s"
        # One statement: the game moves on only from the step the answer follows, the
        # answer is added only if it did, and the news is sent only if both were.
        kept = self._run(
            "WITH moved AS (UPDATE oriflamme.games SET step = %(step)s, over = %(over)s, "
            f"updated = {_NOW}, bots_due = %(due)s{lease}{saving} "
            "WHERE id = %(id)s AND step = %(step)s - 1 RETURNING id), "
            "added AS (INSERT INTO oriflamme.answers "
            "SELECT id, %(step)s, %(family)s, %(answer)s FROM moved RETURNING game) "
            "SELECT pg_notify(%(channel)s, game || ' ' || %(step)s) FROM added",
            {
                "step": step,
                "over": over,
                "due": bots_due,
                "save": save,
                "id": game_id,
                "family": family,
                "answer": answer,
                "channel": CHANNEL,
            },
        )
        if not kept:
            raise Stale(f"{self.name} does not hold that game at that step")

    def count(self) -> int:
        found: int = self._run("SELECT count(*) FROM oriflamme.games")[0][0]
        return found

    def expire(self, finished_before: float, abandoned_before: float) -> list[str]:
        # The buckets full again go too (a bucket not kept reads as full), by the time
        # the statement started: a time that holds still in it, which the index can use.
        rows = self._run(
            "WITH full_again AS (DELETE FROM oriflamme.rates "
            "WHERE full_at <= extract(epoch from statement_timestamp())) "
            "DELETE FROM oriflamme.games WHERE (over AND updated < %s) "
            "OR (NOT over AND updated < %s) RETURNING id",
            (finished_before, abandoned_before),
        )
        return [row[0] for row in rows]

    def load(self, game_id: str) -> StoredGame | None:
        rows = self._run(
            "SELECT request, initial, save, step, over, creator_hash, save_step, client "
            "FROM oriflamme.games WHERE id = %s",
            (game_id,),
        )
        if not rows:
            return None
        step, save_step = rows[0][3], rows[0][6]
        seats = self._run(
            "SELECT family, kind, token_hash FROM oriflamme.seats WHERE game = %s", (game_id,)
        )
        # Answers are only ever added: those up to the row's step are the row's.
        later = self.answers(game_id, step, after=save_step)
        if len(later) != step - save_step:  # expired meanwhile
            return None
        return StoredGame.of_rows(game_id, rows[0], seats, later)

    def client_of(self, creator_hash: str) -> str | None:
        rows = self._run(
            "SELECT client FROM oriflamme.games WHERE creator_hash = %s LIMIT 1", (creator_hash,)
        )
        return rows[0][0] if rows else None

    def answers(
        self, game_id: str, upto: int | None = None, after: int = 0
    ) -> list[tuple[str, Any]]:
        rows = self._run(
            "SELECT family, answer FROM oriflamme.answers "
            "WHERE game = %s AND step > %s AND step <= %s ORDER BY step",
            (game_id, after, 2**31 - 1 if upto is None else upto),
        )
        return answers_of(rows)

    def claim_bots(self, game_id: str, owner: str, seconds: float) -> bool:
        rows = self._run(
            f"UPDATE oriflamme.games SET bot_owner = %s, bot_until = {_NOW} + %s "
            f"WHERE id = %s AND (bot_owner IS NULL OR bot_owner = %s OR bot_until < {_NOW}) "
            "RETURNING id",
            (owner, seconds, game_id, owner),
        )
        return bool(rows)

    def release_bots(self, game_id: str, owner: str) -> None:
        self._run(
            "UPDATE oriflamme.games SET bot_owner = NULL, bot_until = 0 "
            "WHERE id = %s AND bot_owner = %s",
            (game_id, owner),
        )

    def due(self, limit: int) -> list[str]:
        rows = self._run(
            f"SELECT id FROM oriflamme.games WHERE bots_due AND NOT over AND bot_until < {_NOW} "
            "LIMIT %s",
            (limit,),
        )
        return [row[0] for row in rows]

    def take(self, key: str, count: int, seconds: float) -> float:
        values = {"key": key, "count": count, "per_second": count / seconds}
        for _ in range(_TRIES):
            if self._run(_TAKE, values):
                return 0.0
            found = self._run(_WAIT, values)
            if found and found[0][0] > 0:
                return float(found[0][0])
            # Refilled (or full again and expired) since it was refused: taken again.
        return _SOON

    def listen(self, heard: Callable[[str, int], None]) -> Callable[[], None]:
        stop = threading.Event()

        def hear() -> None:
            while not stop.is_set():
                try:
                    with psycopg.connect(
                        self.url,
                        autocommit=True,
                        connect_timeout=int(CONNECT_SECONDS),
                        **KEEPALIVE,
                    ) as db:
                        db.execute(f"LISTEN {CHANNEL}")
                        # Whatever was said while not listening is lost: anything may
                        # have changed.
                        heard("", 0)
                        while not stop.is_set():
                            for note in db.notifies(timeout=0.5):
                                told = _told(note.payload)
                                if told is not None:
                                    heard(*told)
                except psycopg.Error as exc:
                    # The database server restarted, or refused a connection: said
                    # (the kind only), and tried again each second.
                    log.error("listening for answers on %s: %s", self.name, type(exc).__name__)
                    stop.wait(1.0)

        thread = threading.Thread(target=hear, name="oriflamme-store-listen", daemon=True)
        thread.start()

        def stopping() -> None:
            stop.set()
            thread.join(5)

        return stopping


def _told(payload: str) -> tuple[str, int] | None:
    """The game and step a notification tells of; None for one the server did not
    send (any user of the database may notify the channel): it is not news."""
    game_id, _, step = payload.partition(" ")
    if not (game_id and step.isascii() and step.isdigit() and len(step) < 10):
        return None
    return game_id, int(step)


def _why(exc: BaseException) -> str:
    """The first line of a driver's message (the rest may quote a statement)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
