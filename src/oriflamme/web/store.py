"""Where the server keeps its games: one interface, :class:`Store`, over SQLite (a file,
the default: :mod:`.sqlite`) or PostgreSQL (a server several server processes and hosts
share: :mod:`.postgres`); :func:`open_store` picks one from ``--db``.

Each game is its creation request, the engine's JSON save at the start, a later save
(written every :data:`SAVE_EVERY` answers and at the game's end), and every answer in
order. An answer is written in its own transaction before anyone is told of it, so a
server killed at any moment (even with ``kill -9``) comes back with every answer it
confirmed: the game is the last save with the answers after it played again (the
engine is deterministic). An answer is kept only at the step it follows, so when two
server processes answer the same step at once, one answer is kept and the other is
:class:`Stale`.

A seat's secret token is never stored: only its SHA-256, compared in constant time; nor
is the creator's (from which every seat's token is made, see :func:`seat_token`).

Several processes may share one store. Each is told of the answers the others write
(:meth:`Store.listen`), and the bots of a game are run by one process at a time: the
one holding the game's *lease* (:meth:`Store.claim_bots`), which it renews while they
play; a process that dies lets its lease lapse, and another takes the game's bots on.
The limits on how often a client may do a thing are kept in the store too
(:meth:`Store.take`), so that every process sharing it meets one limit, and a restart
does not reset it.
"""

from __future__ import annotations

import abc
import base64
import hashlib
import hmac
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from oriflamme import OriflammeError
from oriflamme.installed import extra

#: The layout of the tables. A store of an earlier layout is brought up to date when
#: opened; one of a later layout (a newer server's) is refused, not changed.
LAYOUT = 4
#: A game's save is written again after this many answers (and at its end); between
#: saves only the answers are written, and a game is read back by playing them again.
SAVE_EVERY = 16
#: Calls a server process makes to a store on another machine at once (each waits in a
#: thread of its own, on a connection of its own).
POOL_SIZE = 8
#: The start of a PostgreSQL URL, in any case and however mistyped.
_MISTYPED = re.compile(r"\s*postgres(ql)?[:/]", re.IGNORECASE)
#: The start of libpq's KEY=VALUE way of naming a database (host=... dbname=...).
_SETTINGS = re.compile(r"\s*(host|hostaddr|port|dbname|user|password|service)\s*=")


class StoreError(OriflammeError):
    """The store cannot be opened, read or written; the message names it."""


class Stale(StoreError):
    """An answer to a game that has moved on in the store (or is not there): not kept."""


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
    """One game as the store holds it: its last save, made after ``save_step``
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
    #: The client that created it (None for a game of layout 3 or before).
    client: str | None = None

    @classmethod
    def of_rows(
        cls, game_id: str, game: tuple[Any, ...], seats: list[Any], later: list[Any]
    ) -> StoredGame:
        """A game from a store's rows: ``game`` (request, initial, save, step, over,
        creator_hash, save_step, client), its seats (family, kind, token_hash) and the
        answers after its save (as :func:`answers_of` reads them)."""
        request, initial, save, step, over, creator_hash, save_step, client = game
        return cls(
            game_id,
            json.loads(request),
            initial,
            save,
            step,
            bool(over),
            tuple(Seat(*seat) for seat in seats),
            creator_hash,
            save_step,
            tuple(later),
            client,
        )


def answers_of(rows: list[Any]) -> list[tuple[str, Any]]:
    """A store's (family, answer as JSON text) rows as (family, answer as JSON values)."""
    return [(family, json.loads(answer)) for family, answer in rows]


class Store(abc.ABC):
    """The games of a server, kept so that nothing answered is ever lost. Its methods
    may be called from any thread; ``remote`` says whether they wait on a network
    (the server then calls them off its event loop)."""

    #: Whether a call waits on another machine (or process) to answer.
    remote = False
    #: How the store is named in messages and logs (never a password).
    name = ""

    @abc.abstractmethod
    def close(self) -> None: ...

    @abc.abstractmethod
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
        """Keeps a new game; ``bots_due``: a bot is to answer first (see :meth:`due`);
        ``client``: the client that created it (see :meth:`client_of`)."""

    @abc.abstractmethod
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
        """Answer number ``step`` (from 1), with the save it leads to if given, in one
        transaction, and every listener told of it once it is kept. :class:`Stale` if
        the game is not at step ``step - 1``: nothing is kept. ``bots_due``: a bot is
        to answer next."""

    @abc.abstractmethod
    def count(self) -> int:
        """How many games are kept."""

    @abc.abstractmethod
    def expire(self, finished_before: float, abandoned_before: float) -> list[str]:
        """Deletes the games finished with no answer since ``finished_before``, and the
        unfinished ones with none since ``abandoned_before`` (times as ``time.time()``):
        their ids. Deletes the rate buckets full again too (see :meth:`take`)."""

    @abc.abstractmethod
    def load(self, game_id: str) -> StoredGame | None: ...

    @abc.abstractmethod
    def client_of(self, creator_hash: str) -> str | None:
        """The client of a game whose creator's token hashes to ``creator_hash``, or None."""

    @abc.abstractmethod
    def answers(
        self, game_id: str, upto: int | None = None, after: int = 0
    ) -> list[tuple[str, Any]]:
        """A game's answers after the first ``after`` up to number ``upto`` (None: the
        last): (family, answer as JSON values)."""

    @abc.abstractmethod
    def claim_bots(self, game_id: str, owner: str, seconds: float) -> bool:
        """Takes (or renews) the lease on a game's bots for ``owner`` for ``seconds``:
        whether it is ``owner``'s (no other owner holds an unexpired one)."""

    @abc.abstractmethod
    def release_bots(self, game_id: str, owner: str) -> None:
        """Gives the lease up, if ``owner`` holds it."""

    @abc.abstractmethod
    def due(self, limit: int) -> list[str]:
        """Up to ``limit`` games kept with ``bots_due`` whose bots' lease is free or
        lapsed: the process that ran their bots stopped or died."""

    @abc.abstractmethod
    def take(self, key: str, count: int, seconds: float) -> float:
        """Takes one request from the token bucket ``key`` (``count`` requests at once, refilled
        evenly over ``seconds``): 0.0 if taken, else the seconds until one would be (nothing
        is changed then). A bucket not kept is full; its time is the store's clock, so that
        it outlives a restart. Two processes taking at once never both get the last one."""

    @abc.abstractmethod
    def listen(self, heard: Callable[[str, int], None]) -> Callable[[], None]:
        """Calls ``heard(game_id, step)`` (from another thread) after answers are kept,
        by this process or another one sharing the store; returns what stops it.
        A game may be heard of more than once, or at a step it has passed already;
        ``heard("", 0)`` says that news may have been missed (any game may have moved)."""


def open_store(db: Path | str) -> Store:
    """The store ``db`` names: a ``postgresql://`` URL (the optional extra
    ``oriflamme[postgres]``), else the path of a SQLite file."""
    text = str(db)
    if _MISTYPED.match(text):
        # A URL mistyped would otherwise be a file, named after its password.
        scheme, separator, rest = text.partition("://")
        if not separator or scheme.lower() not in ("postgresql", "postgres"):
            raise StoreError(
                "the --db given starts as a PostgreSQL URL but is not one "
                "(expected postgresql://USER:PASSWORD@HOST:PORT/NAME)"
            )
        text = f"{scheme.lower()}://{rest}"
    if text.startswith(("postgresql://", "postgres://")):
        try:
            from .postgres import PostgresStore  # noqa: PLC0415 - the optional extra
        except ImportError as exc:
            raise StoreError(
                f"a PostgreSQL --db needs the postgres extra ({exc.name} is missing): "
                f"{extra('postgres')}"
            ) from exc
        return PostgresStore(text)
    if _SETTINGS.match(text) and not Path(text).exists():
        # libpq's other way of writing a database: taken as a file, it would name a
        # file after the password.
        raise StoreError(
            "--db takes a SQLite file or a URL postgresql://USER:PASSWORD@HOST:PORT/NAME; "
            "what was given reads as PostgreSQL settings (KEY=VALUE): write them as a URL"
        )
    from .sqlite import SQLiteStore  # noqa: PLC0415 - one module or the other

    return SQLiteStore(Path(db))


def seat_of(seats: tuple[Seat, ...], token: str) -> str | None:
    """The family whose token is ``token``, or None: every seat's hash is compared, each
    in constant time, so the time taken tells nothing of how close a guess was."""
    given = token_hash(token)
    found = None
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, given):
            found = seat.family
    return found
