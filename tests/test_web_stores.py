"""The store's contract (:class:`oriflamme.web.store.Store`), held to by both stores:
a SQLite file and a PostgreSQL database (a throwaway cluster, tests/postgres.py).

Every test of the contract runs once on each. Two store objects opened on one
database stand for two server processes sharing it: what one writes, the other reads,
hears of, or is refused by, and the rate buckets both take from. Then what each store
does of its own: bringing an older layout up to date, refusing a newer one or tables
it did not make, several processes setting up one new database at once, and the
messages of a database it cannot reach (never with the password of its URL).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import random
import secrets
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from oriflamme.web.sqlite import SQLiteStore
from oriflamme.web.store import (
    LAYOUT,
    Seat,
    Stale,
    Store,
    StoredGame,
    StoreError,
    open_store,
    seat_of,
    token_hash,
)

from .postgres import Cluster, free_port
from .web_server import STORES, fresh_db

SEED = 1_914_862_337
#: How long a listener may take to hear of an answer kept by another process (s).
HEAR_SECONDS = 5.0
#: How long a listener is given to start before what it hears is news (s): several
#: of the SQLite listener's looks at its file, and PostgreSQL's LISTEN done.
SETTLE_SECONDS = 0.5
#: A password that must never be shown.
SECRET = "s3cr3t-Pa55"


@pytest.fixture(params=STORES)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_db(request, tmp_path, "stores")


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    """A fresh store, closed after."""
    opened = open_store(db)
    yield opened
    opened.close()


@pytest.fixture
def other(db: str, store: Store) -> Iterator[Store]:
    """A second store object on the same database: another server process."""
    opened = open_store(db)
    yield opened
    opened.close()


def is_postgres(db: str) -> bool:
    return db.startswith("postgresql://")


def query(db: str, sql: str) -> list[tuple[Any, ...]]:
    """``sql`` run on the store's database past the store (the tests' own text)."""
    if is_postgres(db):
        import psycopg  # noqa: PLC0415 - the optional extra, there when PostgreSQL is tested

        with psycopg.connect(db, autocommit=True) as connection:
            cursor = connection.execute(sql)
            return cursor.fetchall() if cursor.description is not None else []
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as connection:
        return connection.execute(sql).fetchall()


def table(db: str, name: str) -> str:
    return f"oriflamme.{name}" if is_postgres(db) else name


def seats(red: str = "red token") -> list[Seat]:
    return [Seat("red", "person", token_hash(red)), Seat("blue", "random")]


def make(store: Store, game_id: str, *, bots_due: bool = False) -> None:
    store.create(game_id, {"families": 2}, f"start of {game_id}", seats(), bots_due=bots_due)


def play(store: Store, game_id: str, steps: range, *, over_at: int = 0) -> None:
    """Answers ``steps`` (each ``{"n": step}`` by red, no save); the game is over at
    ``over_at``."""
    for step in steps:
        store.record(game_id, step, "red", json.dumps({"n": step}), None, over=step == over_at)


def loaded(store: Store, game_id: str) -> StoredGame:
    found = store.load(game_id)
    assert found is not None, f"{game_id} is not in the store"
    return found


# --- create, load, record ------------------------------------------------------------


def test_a_game_created_is_loaded_back_as_it_was_given_its_tokens_as_hashes_only(
    db: str, store: Store, other: Store
) -> None:
    request = {"families": 3, "sets": ["base", "ablaze"], "bots": {"blue": "random"}, "n": 1.5}
    given = [
        Seat("red", "person", token_hash("red's secret")),
        Seat("green", "person", token_hash("green's secret")),
        Seat("blue", "random"),
    ]
    assert store.count() == 0
    assert store.load("g1") is None
    store.create("g1", request, '{"initial": true}', given, token_hash("creator's secret"))
    assert store.count() == 1
    found = loaded(other, "g1")  # kept, as another process reads it
    assert found.id == "g1"
    assert found.request == request
    assert (found.initial, found.save) == ('{"initial": true}', '{"initial": true}')
    assert (found.step, found.save_step, found.over, found.later) == (0, 0, False, ())
    assert sorted(found.seats, key=lambda s: s.family) == sorted(given, key=lambda s: s.family)
    assert found.creator_hash == token_hash("creator's secret")
    assert seat_of(found.seats, "green's secret") == "green"
    assert seat_of(found.seats, "blue") is None
    # No token is kept anywhere in the store: only its hash.
    kept = repr([query(db, f"SELECT * FROM {table(db, t)}") for t in ("games", "seats")])
    assert token_hash("red's secret") in kept
    for secret in ("red's secret", "green's secret", "creator's secret"):
        assert secret not in kept
    store.create("g2", {}, "other start", [])
    assert (store.count(), other.count()) == (2, 2)
    assert loaded(store, "g2").seats == ()
    # A game's id is kept once: a second creation is refused and changes nothing.
    with pytest.raises(StoreError):
        other.create("g1", {"families": 2}, "another start", seats())
    assert loaded(store, "g1") == found
    assert store.count() == 2


def test_an_answer_is_kept_only_at_the_step_it_follows(store: Store, other: Store) -> None:
    make(store, "g")
    with pytest.raises(Stale):
        store.record("g", 2, "red", "1", None, over=False)  # step 1 is not answered yet
    with pytest.raises(Stale):
        store.record("g", 0, "red", "1", None, over=False)
    store.record("g", 1, "red", '{"card": "archer"}', None, over=False)
    before = loaded(store, "g")
    assert (before.step, before.later) == (1, (("red", {"card": "archer"}),))
    # The same step again, from either process, with or without a save: not kept.
    for which in (store, other):
        for save in (None, "a save"):
            with pytest.raises(Stale):
                which.record("g", 1, "blue", '"other"', save, over=True, bots_due=True)
    assert loaded(other, "g") == before
    assert store.answers("g") == [("red", {"card": "archer"})]
    assert store.due(10) == []
    other.record("g", 2, "blue", "[1, 2]", None, over=False)
    assert store.answers("g") == [("red", {"card": "archer"}), ("blue", [1, 2])]
    # A game that is not there keeps nothing, and is not made.
    with pytest.raises(Stale):
        store.record("nowhere", 1, "red", "1", None, over=False)
    assert store.load("nowhere") is None
    assert store.answers("nowhere") == []
    assert store.count() == 1


def test_one_step_recorded_by_two_processes_at_once_is_kept_once(
    store: Store, other: Store
) -> None:
    rng = random.Random(SEED)
    print(f"seed {SEED}")
    make(store, "g")
    steps = 40
    for step in range(1, steps + 1):
        barrier = threading.Barrier(2)
        # Each process answers with a save half the time: a kept save is the kept answer's.
        tries = [(which, rng.choice(["red", "blue"]), rng.random() < 0.5) for which in "ab"]

        def attempt(
            which: str, family: str, saving: bool, step: int = step, barrier: Any = barrier
        ) -> bool:
            used = store if which == "a" else other
            save = f"save {step} {which}" if saving else None
            barrier.wait(10)
            try:
                used.record("g", step, family, json.dumps([step, which]), save, over=False)
            except Stale:
                return False
            return True

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            kept = list(pool.map(lambda t: attempt(*t), tries))
        assert kept.count(True) == 1, f"step {step}: kept {kept}"
        which, family, saving = tries[kept.index(True)]
        assert store.answers("g", step, after=step - 1) == [(family, [step, which])]
        found = loaded(other, "g")
        assert found.step == step
        if saving:
            assert (found.save, found.save_step) == (f"save {step} {which}", step)
    assert len(store.answers("g")) == steps


def test_a_save_moves_on_and_load_plays_only_the_answers_after_it(
    store: Store, other: Store
) -> None:
    make(store, "g")
    values: list[Any] = [{"n": 1}, [2, "two"], None, "four", 5, {"n": [6]}, True]
    for step, value in enumerate(values, start=1):
        save = f"save after {step}" if step in (3, 5) else None
        store.record("g", step, "blue" if step % 2 else "red", json.dumps(value), save, over=False)
        found = loaded(other, "g")
        last = 5 if step >= 5 else 3 if step >= 3 else 0
        assert found.step == step
        assert found.save_step == last
        assert found.save == (f"save after {last}" if last else "start of g")
        assert found.initial == "start of g"
        assert [v for _, v in found.later] == values[last:step]
    answers = [("blue" if step % 2 else "red", v) for step, v in enumerate(values, start=1)]
    assert other.answers("g") == answers
    assert other.answers("g", 2) == answers[:2]
    assert other.answers("g", 4, after=2) == answers[2:4]
    assert other.answers("g", after=6) == answers[6:]
    assert other.answers("g", 100, after=7) == []
    assert other.answers("g", 0) == []
    assert other.answers("g", 3, after=3) == []
    store.record("g", 8, "red", '"last"', "the end", over=True)
    found = loaded(other, "g")
    assert (found.step, found.over, found.save, found.save_step, found.later) == (
        8,
        True,
        "the end",
        8,
        (),
    )


def test_the_client_that_created_a_game_is_kept_with_it_and_found_by_its_creator(
    store: Store, other: Store
) -> None:
    creator = token_hash("creator's secret")
    store.create("g", {"families": 2}, "start", seats(), creator, client="203.0.113.7")
    store.create("no_client", {}, "start", [], token_hash("another creator"))
    make(store, "no_creator")
    assert loaded(other, "g").client == "203.0.113.7"
    assert loaded(other, "no_client").client is None
    assert loaded(other, "no_creator").client is None
    assert other.client_of(creator) == "203.0.113.7"
    assert other.client_of(token_hash("another creator")) is None
    assert other.client_of(token_hash("nobody's secret")) is None
    assert other.client_of("creator's secret") is None  # the token itself is not its hash
    # Kept as the game moves on, with or without a save.
    store.record("g", 1, "red", "1", None, over=False)
    store.record("g", 2, "red", "2", "a save", over=True)
    assert loaded(other, "g").client == "203.0.113.7"
    assert other.client_of(creator) == "203.0.113.7"
    # And gone with it.
    assert other.expire(finished_before=time.time() + 60, abandoned_before=0) == ["g"]
    assert store.client_of(creator) is None


# --- expiry --------------------------------------------------------------------------


def test_expire_cuts_finished_and_abandoned_games_off_at_their_own_times(
    store: Store, other: Store
) -> None:
    for game in ("old_over", "old_open", "new_open", "new_over"):
        make(store, game)
    play(store, "old_over", range(1, 3), over_at=2)
    play(store, "old_open", range(1, 3))
    time.sleep(0.05)
    between = time.time()
    time.sleep(0.05)
    play(store, "new_open", range(1, 2))
    play(store, "new_over", range(1, 2), over_at=1)
    assert other.expire(0, 0) == []
    assert other.expire(finished_before=between, abandoned_before=0) == ["old_over"]
    assert other.expire(finished_before=0, abandoned_before=between) == ["old_open"]
    assert store.count() == 2
    assert sorted(other.expire(finished_before=time.time() + 60, abandoned_before=0)) == [
        "new_over"
    ]
    assert store.count() == 1
    for gone in ("old_over", "old_open", "new_over"):
        assert store.load(gone) is None
        assert store.answers(gone) == []
        with pytest.raises(Stale):
            store.record(gone, 3, "red", "1", None, over=False)
    assert loaded(store, "new_open").step == 1
    # Its seats and answers went with it: the id makes a new game, with its own.
    make(store, "old_over")
    again = loaded(other, "old_over")
    assert (again.step, again.later) == (0, ())
    assert store.answers("old_over") == []
    assert len(again.seats) == 2
    store.record("old_over", 1, "blue", '"new"', None, over=False)
    assert store.answers("old_over") == [("blue", "new")]


# --- the lease on a game's bots ------------------------------------------------------


def test_the_lease_on_a_games_bots_is_held_by_one_owner_at_a_time(
    store: Store, other: Store
) -> None:
    make(store, "g", bots_due=True)
    assert store.claim_bots("g", "a", 30)
    assert not other.claim_bots("g", "b", 30)
    assert store.claim_bots("g", "a", 30)  # renewed
    other.release_bots("g", "b")  # not b's: nothing happens
    assert not other.claim_bots("g", "b", 30)
    store.release_bots("g", "a")
    assert other.claim_bots("g", "b", 0.2)
    assert not store.claim_bots("g", "a", 30)
    time.sleep(0.4)  # b's lease lapses: a takes it
    assert store.claim_bots("g", "a", 30)
    assert not other.claim_bots("g", "b", 30)
    assert not store.claim_bots("nowhere", "a", 30)
    # An answer after which a bot is still due keeps the lease; one after which none
    # is frees it at once.
    other.record("g", 1, "blue", "1", None, over=False, bots_due=True)
    assert not other.claim_bots("g", "b", 30)
    other.record("g", 2, "blue", "2", None, over=False, bots_due=False)
    assert other.claim_bots("g", "b", 30)
    assert not store.claim_bots("g", "a", 30)


def test_due_lists_the_games_waiting_on_bots_nobody_runs(store: Store, other: Store) -> None:
    make(store, "waiting", bots_due=True)
    make(store, "person_next")
    make(store, "leased", bots_due=True)
    make(store, "lapsed", bots_due=True)
    make(store, "released", bots_due=True)
    make(store, "over", bots_due=True)
    make(store, "moved_on", bots_due=True)
    assert store.claim_bots("leased", "a", 30)
    assert store.claim_bots("lapsed", "a", 0.2)
    assert store.claim_bots("released", "a", 30)
    store.release_bots("released", "a")
    store.record("over", 1, "blue", "1", None, over=True, bots_due=True)
    store.record("moved_on", 1, "blue", "1", None, over=False, bots_due=False)
    time.sleep(0.4)
    expected = {"waiting", "lapsed", "released"}
    assert set(other.due(100)) == expected
    assert len(other.due(100)) == 3
    some = other.due(2)
    assert len(some) == 2
    assert set(some) <= expected
    assert other.due(0) == []
    # A person answers; a bot is due again in a game nobody runs.
    store.record("moved_on", 2, "red", "2", None, over=False, bots_due=True)
    assert set(other.due(100)) == expected | {"moved_on"}
    assert store.claim_bots("waiting", "a", 30)
    assert set(other.due(100)) == expected - {"waiting"} | {"moved_on"}


# --- rate buckets --------------------------------------------------------------------

#: The tests' bucket: COUNT requests at once, one more every PER seconds.
COUNT, SECONDS = 3, 3.0
PER = SECONDS / COUNT
#: Seconds the store's clock and the tests' may disagree by over a test.
SLACK = 0.05


def test_a_bucket_gives_its_count_then_says_how_long_to_wait_then_gives_again(
    store: Store,
) -> None:
    key = "create:127.0.0.1"
    started = time.monotonic()
    assert [store.take(key, COUNT, SECONDS) for _ in range(COUNT)] == [0.0] * COUNT
    wait = store.take(key, COUNT, SECONDS)
    elapsed = time.monotonic() - started
    assert elapsed < PER, f"too slow to test: {elapsed:.3f} s, the bucket refilled meanwhile"
    # Full at the first take, refilled since: one more is PER after it.
    assert PER - elapsed - SLACK <= wait <= PER + SLACK, (wait, elapsed)
    # Refused, nothing is taken: asked again, the wait is shorter, not a request longer.
    again = store.take(key, COUNT, SECONDS)
    assert 0 < again <= wait
    assert store.take("create:127.0.0.2", COUNT, SECONDS) == 0.0  # each bucket its own
    time.sleep(again + SLACK)
    assert store.take(key, COUNT, SECONDS) == 0.0
    # The one request refilled is taken: the next is refused again, unless the sleep
    # overslept by a whole request.
    late = time.monotonic() - started - PER
    after = store.take(key, COUNT, SECONDS)
    assert 0 < after <= PER + SLACK or late >= PER, (after, late)


def test_processes_sharing_a_store_meet_one_limit(store: Store, other: Store) -> None:
    key = "answer:g:red"
    # 60 s for 3: one more every 20 s, none refilled during the test.
    assert [which.take(key, COUNT, 60) for which in (store, other, store)] == [0.0] * 3
    for which in (other, store):
        assert 15 < which.take(key, COUNT, 60) <= 20 + SLACK
    assert other.take("answer:g:blue", COUNT, 60) == 0.0


def test_a_bucket_outlives_a_restart(db: str) -> None:
    key = "create:192.0.2.1"
    first = open_store(db)
    try:
        assert [first.take(key, COUNT, 60) for _ in range(2)] == [0.0, 0.0]
    finally:
        first.close()
    again = open_store(db)  # the server restarted: what it took is counted still
    try:
        assert again.take(key, COUNT, 60) == 0.0
        assert 15 < again.take(key, COUNT, 60) <= 20 + SLACK
    finally:
        again.close()


def test_takes_racing_from_two_processes_take_a_bucket_exactly_once_each(
    store: Store, other: Store
) -> None:
    threads, each = 8, 5
    for round_ in range(3):
        key = f"create:198.51.100.{round_}"
        barrier = threading.Barrier(threads)

        def taking(which: Store, key: str = key, barrier: Any = barrier) -> list[float]:
            barrier.wait(10)
            # 10 in an hour: one more every 360 s, none refilled during the test.
            return [which.take(key, 10, 3600) for _ in range(each)]

        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            waits = [w for ws in pool.map(taking, [store, other] * (threads // 2)) for w in ws]
        assert len(waits) == threads * each
        assert waits.count(0.0) == 10, f"round {round_}: {waits.count(0.0)} taken"
        assert all(300 < w <= 360 + SLACK for w in waits if w != 0.0), waits
        assert store.take(key, 10, 3600) > 300


def test_expire_deletes_the_buckets_full_again_and_keeps_the_others(
    db: str, store: Store, other: Store
) -> None:
    make(store, "finished")
    play(store, "finished", range(1, 2), over_at=1)
    assert store.take("short", 2, 0.2) == 0.0  # full again 0.1 s later
    assert store.take("long", 2, 60) == 0.0  # full again 30 s later
    assert other.take("emptied", 1, 60) == 0.0  # full again 60 s later
    time.sleep(0.3)
    # Only the games are said.
    assert other.expire(finished_before=time.time() + 60, abandoned_before=0) == ["finished"]
    kept = query(db, f"SELECT key FROM {table(db, 'rates')} ORDER BY key")
    assert kept == [("emptied",), ("long",)]
    # What is kept counts still; what went reads as full.
    assert store.take("long", 2, 60) == 0.0
    assert store.take("long", 2, 60) > 0
    assert other.take("emptied", 1, 60) > 0
    assert [store.take("short", 2, 0.2) for _ in range(2)] == [0.0, 0.0]
    assert store.expire(0, 0) == []


# --- hearing of answers --------------------------------------------------------------


class Heard:
    """What a listener was told: (game, step) in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self._changed = threading.Condition()

    def __call__(self, game_id: str, step: int) -> None:
        with self._changed:
            self.calls.append((game_id, step))
            self._changed.notify_all()

    def wait(self, done: Callable[[list[tuple[str, int]]], bool], seconds: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: done(self.calls), seconds)


@contextlib.contextmanager
def listening(store: Store) -> Iterator[Heard]:
    heard = Heard()
    stop = store.listen(heard)
    try:
        yield heard
    finally:
        stop()


def settle(db: str, heard: Heard) -> None:
    """Waits until the listener has started: what is written after is news to it."""
    time.sleep(SETTLE_SECONDS)
    if is_postgres(db):  # said once LISTEN is done
        assert heard.wait(lambda calls: ("", 0) in calls, HEAR_SECONDS), heard.calls


def listeners() -> int:
    return sum(t.name == "oriflamme-store-listen" for t in threading.enumerate())


def test_a_listener_hears_the_answers_of_every_process_until_it_is_stopped(
    db: str, store: Store, other: Store
) -> None:
    make(store, "g")
    running = listeners()
    heard = Heard()
    stop = store.listen(heard)
    try:
        assert listeners() == running + 1
        settle(db, heard)
        started = time.monotonic()
        other.record("g", 1, "red", "1", None, over=False)
        assert heard.wait(lambda calls: ("g", 1) in calls, HEAR_SECONDS), heard.calls
        print(f"heard after {time.monotonic() - started:.3f} s")
        store.record("g", 2, "red", "2", "save", over=False)  # its own process's too
        assert heard.wait(lambda calls: ("g", 2) in calls, HEAR_SECONDS), heard.calls
        make(other, "h")  # no answer: nothing to hear
        other.record("g", 3, "red", "3", None, over=False, bots_due=True)
        other.record("h", 1, "blue", "1", None, over=False)
        assert heard.wait(lambda calls: {("g", 3), ("h", 1)} <= set(calls), HEAR_SECONDS)
        # Never a game at a step it has not reached; nor news of one with no answer.
        assert {call for call in heard.calls if call != ("", 0)} <= {
            ("g", 1),
            ("g", 2),
            ("g", 3),
            ("h", 1),
        }, heard.calls
    finally:
        stopping = time.monotonic()
        stop()
    # Stopped at its next look (SQLite) or wait for a notification (PostgreSQL: 0.5 s),
    # not at the end of the 5 s stop() gives it.
    assert time.monotonic() - stopping < 2.0
    assert listeners() == running
    told = len(heard.calls)
    other.record("g", 4, "red", "4", None, over=False)
    time.sleep(SETTLE_SECONDS)
    assert len(heard.calls) == told, heard.calls[told:]


def test_a_listener_started_after_answers_does_not_report_them_as_news(
    db: str, store: Store, other: Store
) -> None:
    make(store, "before")
    play(other, "before", range(1, 4))
    make(store, "after")
    with listening(store) as heard:
        settle(db, heard)
        other.record("after", 1, "red", "1", None, over=False)
        assert heard.wait(lambda calls: ("after", 1) in calls, HEAR_SECONDS), heard.calls
        time.sleep(SETTLE_SECONDS)
    assert not [call for call in heard.calls if call[0] == "before"], heard.calls
    if is_postgres(db):
        # What was said before LISTEN is lost: once, at the start, "anything may have
        # changed".
        assert heard.calls[0] == ("", 0)
        assert heard.calls.count(("", 0)) == 1


def test_an_answer_kept_just_after_listen_returns_is_heard_or_announced(
    db: str, store: Store, other: Store
) -> None:
    for attempt in range(3):  # a gap that is missed is missed each time
        game = f"g{attempt}"
        make(store, game)
        with listening(store) as heard:
            other.record(game, 1, "red", "1", None, over=False)

            def told_of(calls: list[tuple[str, int]], game: str = game) -> bool:
                return (game, 1) in calls or ("", 0) in calls

            told = heard.wait(told_of, HEAR_SECONDS)
        assert told, f"attempt {attempt}: {heard.calls}"


def test_a_listener_hears_answers_kept_after_the_newest_game_expired(
    db: str, store: Store, other: Store
) -> None:
    make(store, "playing")
    make(store, "finished")
    play(other, "playing", range(1, 2))
    play(other, "finished", range(1, 2), over_at=1)  # the game changed last
    with listening(store) as heard:
        settle(db, heard)
        assert other.expire(finished_before=time.time() + 60, abandoned_before=0) == ["finished"]
        other.record("playing", 2, "red", "2", None, over=False)
        assert heard.wait(lambda calls: ("playing", 2) in calls, HEAR_SECONDS), heard.calls


# --- layouts -------------------------------------------------------------------------


def test_a_store_of_a_newer_layout_is_refused_and_left_as_it_is(db: str) -> None:
    first = open_store(db)
    make(first, "g")
    first.close()
    if is_postgres(db):
        query(db, f"UPDATE oriflamme.layout SET layout = {LAYOUT + 1}")
    else:
        query(db, f"PRAGMA user_version = {LAYOUT + 1}")
    with pytest.raises(StoreError, match=f"layout {LAYOUT + 1}, expected {LAYOUT}"):
        open_store(db)
    if is_postgres(db):
        assert query(db, "SELECT layout FROM oriflamme.layout") == [(LAYOUT + 1,)]
    else:
        assert query(db, "PRAGMA user_version") == [(LAYOUT + 1,)]
    assert query(db, f"SELECT id, step FROM {table(db, 'games')}") == [("g", 0)]


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_postgres_tables_named_as_ours_with_no_layout_are_refused_not_changed(db: str) -> None:
    query(db, "CREATE SCHEMA oriflamme")
    query(db, "CREATE TABLE oriflamme.games (id TEXT PRIMARY KEY, note TEXT)")
    query(db, "INSERT INTO oriflamme.games VALUES ('someone', 'else''s')")
    with pytest.raises(StoreError, match="not a games store's") as refused:
        open_store(db)
    assert "oriflamme.layout" in str(refused.value)
    assert query(db, "SELECT * FROM oriflamme.games") == [("someone", "else's")]
    tables = query(
        db, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'oriflamme'"
    )
    assert tables == [("games",)]


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_postgres_processes_setting_up_one_new_database_at_once_make_it_once(
    db: str, postgres: Cluster
) -> None:
    from oriflamme.web.postgres import PostgresStore  # noqa: PLC0415 - the optional extra

    for round_ in range(3):
        url = db if round_ == 0 else postgres.database(f"stores_setup_{secrets.token_hex(4)}")
        barrier = threading.Barrier(4)

        def opening(url: str = url, barrier: Any = barrier) -> PostgresStore:
            barrier.wait(10)
            return PostgresStore(url)

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            opened = list(pool.map(lambda _: opening(), range(4)))
        try:
            assert query(url, "SELECT layout FROM oriflamme.layout") == [(LAYOUT,)]
            make(opened[0], "g")
            opened[3].record("g", 1, "red", "1", None, over=False)
            assert loaded(opened[1], "g").step == 1
        finally:
            for each in opened:
                each.close()


#: The games file of layout 2 (before several processes could share it): games had no
#: lease on their bots, nor the order in which they changed.
LAYOUT_2 = """
CREATE TABLE games (
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
CREATE INDEX games_updated ON games(updated);
CREATE TABLE seats (
    game TEXT NOT NULL REFERENCES games(id),
    family TEXT NOT NULL,
    kind TEXT NOT NULL,
    token_hash TEXT,
    PRIMARY KEY (game, family)
);
CREATE TABLE answers (
    game TEXT NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL,
    family TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (game, step)
);
PRAGMA user_version = 2;
"""


def test_a_sqlite_file_of_layout_2_is_brought_up_to_date_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    now = time.time()
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as old:
        old.executescript(LAYOUT_2)
        old.execute("PRAGMA journal_mode=WAL")
        games = [
            ("playing", now, now, '{"families": 2}', "start", "after 2", 2, 0, "c", 2),
            ("finished", now, now, "{}", "start", "the end", 3, 1, None, 3),
            ("saved_early", now, now, "{}", "start", "after 1", 3, 0, None, 1),
        ]
        old.executemany(f"INSERT INTO games VALUES ({', '.join('?' * 10)})", games)
        for row in games:
            game, step = str(row[0]), int(row[6])
            old.execute(
                "INSERT INTO seats VALUES (?, 'red', 'person', ?)",
                (game, token_hash(f"{game} red")),
            )
            old.execute("INSERT INTO seats VALUES (?, 'blue', 'random', NULL)", (game,))
            old.executemany(
                "INSERT INTO answers VALUES (?, ?, 'red', ?)",
                [(game, n, json.dumps({"step": n})) for n in range(1, step + 1)],
            )
    store = SQLiteStore(path)
    try:
        assert query(str(path), "PRAGMA user_version") == [(LAYOUT,)]
        columns = {row[1] for row in query(str(path), "PRAGMA table_info(games)")}
        assert {"bots_due", "bot_owner", "bot_until", "changed", "client"} <= columns
        assert store.count() == 3
        playing = loaded(store, "playing")
        assert (playing.request, playing.initial, playing.save) == (
            {"families": 2},
            "start",
            "after 2",
        )
        assert (playing.step, playing.save_step, playing.over, playing.later) == (2, 2, False, ())
        assert playing.creator_hash == "c"
        assert seat_of(playing.seats, "playing red") == "red"
        early = loaded(store, "saved_early")
        assert early.later == (("red", {"step": 2}), ("red", {"step": 3}))
        assert loaded(store, "finished").over
        # Not due: its bots play when it is next opened, as they did.
        assert store.due(10) == []
        # Played on: an answer is kept at the next step only, and heard of.
        with pytest.raises(Stale):
            store.record("playing", 2, "red", "2", None, over=False)
        with listening(store) as heard:
            time.sleep(SETTLE_SECONDS)
            store.record("playing", 3, "blue", '"new"', None, over=False, bots_due=True)
            assert heard.wait(lambda calls: ("playing", 3) in calls, HEAR_SECONDS)
        assert loaded(store, "playing").later == (("blue", "new"),)
        assert store.due(10) == ["playing"]
        assert store.claim_bots("playing", "a", 30)
        assert store.due(10) == []
        assert store.expire(finished_before=now + 60, abandoned_before=0) == ["finished"]
    finally:
        store.close()
    again = SQLiteStore(path)  # opened again: as it was left
    assert again.count() == 2
    again.close()


#: The games file of layout 3 (before the rate buckets were kept in it): games had no
#: client.
LAYOUT_3 = """
CREATE TABLE games (
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
    changed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX games_updated ON games(updated);
CREATE INDEX games_changed ON games(changed);
CREATE INDEX games_due ON games(bot_until) WHERE bots_due AND NOT over;
CREATE TABLE news (last INTEGER NOT NULL);
INSERT INTO news VALUES (7);
CREATE TABLE seats (
    game TEXT NOT NULL REFERENCES games(id),
    family TEXT NOT NULL,
    kind TEXT NOT NULL,
    token_hash TEXT,
    PRIMARY KEY (game, family)
);
CREATE TABLE answers (
    game TEXT NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL,
    family TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (game, step)
);
PRAGMA user_version = 3;
"""


def layout_3_games(now: float) -> list[tuple[Any, ...]]:
    """Two games of layout 3: one playing, a bot due, saved after step 1 of 2; one over."""
    return [
        ("playing", now, now, '{"families": 2}', "start", "after 1", 2, 0, "c", 1, 1),
        ("finished", now, now, "{}", "start", "the end", 3, 1, None, 3, 0),
    ]


def check_layout_3_plays_on(store: Store, db: str, now: float) -> None:
    """The games of :func:`layout_3_games`, in a store brought up to date: as they were,
    with no client; and the store does all layout 4 does."""
    assert store.count() == 2
    playing = loaded(store, "playing")
    assert (playing.request, playing.initial, playing.save) == ({"families": 2}, "start", "after 1")
    assert (playing.step, playing.save_step, playing.over) == (2, 1, False)
    assert playing.later == (("red", {"step": 2}),)
    assert (playing.creator_hash, playing.client) == ("c", None)
    assert seat_of(playing.seats, "playing red") == "red"
    assert loaded(store, "finished").over
    assert store.client_of("c") is None
    assert store.due(10) == ["playing"]
    with pytest.raises(Stale):
        store.record("playing", 2, "red", "2", None, over=False)
    store.record("playing", 3, "blue", '"new"', None, over=False)
    assert loaded(store, "playing").later == (("red", {"step": 2}), ("blue", "new"))
    store.create("new", {}, "start", [], token_hash("new creator"), client="192.0.2.9")
    assert loaded(store, "new").client == "192.0.2.9"
    assert store.client_of(token_hash("new creator")) == "192.0.2.9"
    assert store.take("create:192.0.2.9", 1, 60) == 0.0
    assert store.take("create:192.0.2.9", 1, 60) > 50
    assert store.take("short", 1, 0.1) == 0.0
    time.sleep(0.2)
    assert store.expire(finished_before=now + 60, abandoned_before=0) == ["finished"]
    assert query(db, f"SELECT key FROM {table(db, 'rates')}") == [("create:192.0.2.9",)]


def test_a_sqlite_file_of_layout_3_is_brought_up_to_date_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    now = time.time()
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as old:
        old.executescript(LAYOUT_3)
        old.execute("PRAGMA journal_mode=WAL")
        old.executemany(
            "INSERT INTO games (id, created, updated, request, initial, save, step, over, "
            f"creator_hash, save_step, bots_due) VALUES ({', '.join('?' * 11)})",
            layout_3_games(now),
        )
        old.executemany(
            "INSERT INTO seats VALUES (?, 'red', 'person', ?)",
            [(game, token_hash(f"{game} red")) for game in ("playing", "finished")],
        )
        old.executemany(
            "INSERT INTO answers VALUES (?, ?, 'red', ?)",
            [("playing", n, json.dumps({"step": n})) for n in (1, 2)]
            + [("finished", n, json.dumps({"step": n})) for n in (1, 2, 3)],
        )
    store = SQLiteStore(path)
    try:
        assert query(str(path), "PRAGMA user_version") == [(LAYOUT,)]
        assert "client" in {row[1] for row in query(str(path), "PRAGMA table_info(games)")}
        indexes = {row[0] for row in query(str(path), "SELECT name FROM sqlite_master")}
        assert {"games_creator", "rates", "rates_full"} <= indexes
        check_layout_3_plays_on(store, str(path), now)
    finally:
        store.close()
    again = SQLiteStore(path)  # opened again: as it was left
    try:
        assert again.count() == 2
        assert again.take("create:192.0.2.9", 1, 60) > 50
        assert loaded(again, "new").client == "192.0.2.9"
    finally:
        again.close()


#: The PostgreSQL tables of layout 3 (the first there), as that server made them.
LAYOUT_3_POSTGRES = [
    "CREATE SCHEMA oriflamme",
    "CREATE TABLE oriflamme.layout (layout INTEGER NOT NULL)",
    "INSERT INTO oriflamme.layout VALUES (3)",
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
        bot_until DOUBLE PRECISION NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX games_updated ON oriflamme.games (updated)",
    "CREATE INDEX games_due ON oriflamme.games (bot_until) WHERE bots_due AND NOT over",
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
]


def literal(value: Any) -> str:
    """``value`` as SQL text (the tests' own values only)."""
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_a_postgres_database_of_layout_3_is_brought_up_to_date_and_plays_on(db: str) -> None:
    now = time.time()
    for statement in LAYOUT_3_POSTGRES:
        query(db, statement)
    for game in layout_3_games(now):
        values = [*game[:7], bool(game[7]), *game[8:10], bool(game[10])]
        query(
            db,
            "INSERT INTO oriflamme.games (id, created, updated, request, initial, save, step, "
            "over, creator_hash, save_step, bots_due) "
            f"VALUES ({', '.join(map(literal, values))})",
        )
        query(
            db,
            f"INSERT INTO oriflamme.seats VALUES ({literal(game[0])}, 'red', 'person', "
            f"{literal(token_hash(f'{game[0]} red'))})",
        )
        for n in range(1, int(game[6]) + 1):
            answer = json.dumps({"step": n})
            query(
                db,
                f"INSERT INTO oriflamme.answers VALUES ({literal(game[0])}, {n}, 'red', "
                f"{literal(answer)})",
            )
    store = open_store(db)
    try:
        assert query(db, "SELECT layout FROM oriflamme.layout") == [(LAYOUT,)]
        indexes = query(db, "SELECT indexname FROM pg_indexes WHERE schemaname = 'oriflamme'")
        assert {"games_creator", "rates_full"} <= {row[0] for row in indexes}
        check_layout_3_plays_on(store, db, now)
    finally:
        store.close()
    again = open_store(db)  # opened again: as it was left, and not set up twice
    try:
        assert query(db, "SELECT layout FROM oriflamme.layout") == [(LAYOUT,)]
        assert again.count() == 2
        assert again.take("create:192.0.2.9", 1, 60) > 50
    finally:
        again.close()


# --- messages ------------------------------------------------------------------------


def closed_url(password: str = SECRET) -> str:
    """A PostgreSQL URL with a password, on a port nothing listens on."""
    return f"postgresql://player:{password}@127.0.0.1:{free_port()}/games"


def test_an_unreachable_postgres_is_named_in_the_error_without_its_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("psycopg")
    monkeypatch.setattr("oriflamme.web.postgres.CONNECT_SECONDS", 0.5)
    url = closed_url()
    port = url.split(":")[3].split("/")[0]
    with pytest.raises(StoreError) as refused:
        open_store(url)
    message = str(refused.value)
    print(message)
    assert f"127.0.0.1:{port}/games" in message
    assert SECRET not in message
    # Not a URL: refused too, with nothing of it shown.
    with pytest.raises(StoreError) as refused:
        open_store(f"postgresql://player:{SECRET}@[::1/games")
    assert SECRET not in str(refused.value)


def test_a_postgres_url_that_cannot_be_parsed_is_refused_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("psycopg")
    monkeypatch.setattr("oriflamme.web.postgres.CONNECT_SECONDS", 1.0)
    started = time.monotonic()
    with pytest.raises(StoreError) as refused:
        open_store(f"postgresql://player:{SECRET}@[::1/games")
    assert time.monotonic() - started < 0.5
    assert "pool" not in str(refused.value)


class Refused:
    """``oriflamme serve`` on a PostgreSQL URL it cannot use, started at once (each waits
    for the database server as long as the server does): its exit status and stderr."""

    def __init__(self, urls: dict[str, str]) -> None:
        self.processes = {
            name: subprocess.Popen(
                [sys.executable, "-m", "oriflamme", "serve", "--db", url, "--port", "0"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            for name, url in urls.items()
        }
        self._done: dict[str, tuple[int, str]] = {}

    def __getitem__(self, name: str) -> tuple[int, str]:
        if name not in self._done:
            process = self.processes[name]
            _, stderr = process.communicate(timeout=60)
            self._done[name] = (process.returncode, stderr)
        return self._done[name]

    def close(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
            process.communicate()


@pytest.fixture(scope="module", autouse=True)
def refused() -> Iterator[Refused]:
    """Started with the module's first test: each process waits for a database server
    that never answers (CONNECT_SECONDS) while the other tests run."""
    started = Refused(
        {"closed": closed_url(), "not a url": f"postgresql://player:{SECRET}@[::1/games"}
    )
    yield started
    started.close()


@pytest.mark.parametrize("kind", ["closed", "not a url"])
def test_serve_on_a_postgres_it_cannot_use_exits_with_an_error_and_no_password(
    refused: Refused, kind: str
) -> None:
    pytest.importorskip("psycopg")
    status, stderr = refused[kind]
    print(stderr)
    assert status != 0
    assert "Traceback" not in stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("oriflamme: error: cannot use ")
    assert SECRET not in last
    if kind == "closed":
        assert "@127.0.0.1:" in last
        assert SECRET not in stderr


def test_serve_on_an_unreachable_postgres_says_so_in_one_line(refused: Refused) -> None:
    pytest.importorskip("psycopg")
    _, stderr = refused["closed"]
    assert len(stderr.strip().splitlines()) == 1, stderr


def test_serve_on_a_postgres_url_that_is_not_one_never_shows_its_password(
    refused: Refused,
) -> None:
    pytest.importorskip("psycopg")
    status, stderr = refused["not a url"]
    assert status != 0
    assert SECRET not in stderr, stderr


def test_postgres_settings_written_as_keywords_are_refused_not_taken_for_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = f"host=127.0.0.1 user=player password={SECRET} dbname=games"
    with pytest.raises(StoreError, match="write them as a URL") as refused:
        open_store(settings)
    assert SECRET not in str(refused.value)
    assert list(tmp_path.iterdir()) == []  # no file named after the password


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_a_user_with_rights_on_the_rows_only_opens_a_store_set_up_already(db: str) -> None:
    open_store(db).close()  # set up by its owner
    player = f"player_{secrets.token_hex(3)}"  # roles are the cluster's, not the database's
    query(db, f"CREATE ROLE {player} LOGIN")
    query(db, f"GRANT USAGE ON SCHEMA oriflamme TO {player}")
    query(db, f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA oriflamme TO {player}")
    as_player = db.replace("postgresql://postgres@", f"postgresql://{player}@")
    store = open_store(as_player)
    try:
        make(store, "g")
        store.record("g", 1, "red", "1", None, over=False)
        assert store.answers("g") == [("red", 1)]
    finally:
        store.close()
