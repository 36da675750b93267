"""Several processes on one store, at the edges:

- news of an answer that arrives while a process is catching the game up with the one
  before is not lost: its watchers do not stay a step behind (on PostgreSQL, where each
  answer is told once);
- on SQLite, a game deleted as expired takes no number of the count of changes back,
  and the answers kept next are heard of;
- one failed call to the store while a game's bots are to play holds them up no longer
  than a lease, once the store is back;
- ``serve --workers`` killed with ``kill -9`` while its server processes start leaves
  none of them serving;
- a password that is not written as a URL wants it (``/``, ``@``, ``%``, as generated
  passwords hold) is never printed, and a store that cannot be reached is said to be,
  with the reason;
- a notification on the channel that the server did not send (any user of the
  database may send one) is not news, and the listening goes on;
- a game that cannot be read back holds up no other game's bots;
- a game caught up while its bots' lease was being taken is asked anew (no bot thinks
  for a family whose turn it is not), and a game caught up while it was being read
  back is not left a step behind;
- a PostgreSQL URL mistyped (a capital, a slash missing) is refused, not made a file
  named after its password;
- ``serve --workers`` gives up only when no process is serving.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from oriflamme import OriflammeError
from oriflamme.web.limits import Limits
from oriflamme.web.postgres import PostgresStore
from oriflamme.web.sqlite import SQLiteStore
from oriflamme.web.store import StoredGame, StoreError, open_store
from oriflamme.web.tables import LEASE_SECONDS, SWEEP_SECONDS, Tables

from .postgres import Cluster

SEED = 1_234_567


class Bus:
    """What PostgreSQL's NOTIFY is to the processes: each answer kept is told once to
    every process listening, as soon as it is kept."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[str, int], None]] = []


class Notifying(SQLiteStore):
    """A store that behaves as the PostgreSQL one does towards the server: called from
    threads (``remote``), each answer told once through the bus. ``during_answers``,
    if set, is run (once) after the next read of a game's answers, before it returns:
    what another process does at that moment."""

    remote = True

    def __init__(self, path: Path, bus: Bus) -> None:
        super().__init__(path)
        self.bus = bus
        self.during_answers: Callable[[], None] | None = None

    def listen(self, heard: Callable[[str, int], None]) -> Callable[[], None]:
        self.bus.listeners.append(heard)
        return lambda: self.bus.listeners.remove(heard)

    def record(self, game_id: str, step: int, *args: Any, **named: Any) -> None:
        super().record(game_id, step, *args, **named)
        for heard in list(self.bus.listeners):
            heard(game_id, step)

    def answers(
        self, game_id: str, upto: int | None = None, after: int = 0
    ) -> list[tuple[str, Any]]:
        found = super().answers(game_id, upto, after)
        hook, self.during_answers = self.during_answers, None
        if hook is not None:
            hook()
        return found


def _json(value: object) -> Any:
    return json.loads(json.dumps(value))


def test_an_answer_told_while_catching_up_with_the_one_before_is_not_missed(
    tmp_path: Path,
) -> None:
    print(f"seed {SEED}")
    bus = Bus()
    path = tmp_path / "games.sqlite3"
    here_store, there_store = Notifying(path, bus), Notifying(path, bus)
    here, there = Tables(here_store, entry_points=False), Tables(there_store, entry_points=False)

    async def play() -> tuple[int, int]:
        here.start()
        there.start()
        made, _, _ = await there.create({"families": 3, "seed": SEED})  # people only
        game = made.game.clone()
        first = game.decision
        assert first is not None
        first_answer = _json(first.options[0])
        game.answer(first_answer, family=first.family)
        second = game.decision
        assert second is not None
        second_answer = _json(second.options[0])
        table = await here.find(made.id)  # watched here, say
        watcher = here.watch(table, None)

        def meanwhile() -> None:
            # The next answer is kept (by a third process) while this one reads the
            # answers after step 0: its news arrives before that read is done.
            there_store.record(
                made.id, 2, second.family, json.dumps(second_answer), None, over=False
            )

        here_store.during_answers = meanwhile
        await there.answer(made, first.family, first_answer, 0)
        deadline = time.monotonic() + 3
        while table.step < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        here.leave(table, watcher)
        return table.step, len(there_store.answers(made.id))

    try:
        seen, kept = asyncio.run(play())
    finally:
        here.close()
        there.close()
        here_store.close()
        there_store.close()
    assert kept == 2
    assert seen == 2, f"the store holds 2 answers; the process told of both is at step {seen}"


def test_sqlite_listeners_hear_answers_kept_after_the_newest_game_expired(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.sqlite3"
    listening, writing = SQLiteStore(path), SQLiteStore(path)  # two processes
    heard: list[tuple[str, int]] = []
    stop = listening.listen(lambda game_id, step: heard.append((game_id, step)))

    def hears(expected: tuple[str, int]) -> bool:
        deadline = time.monotonic() + 2
        while expected not in heard and time.monotonic() < deadline:
            time.sleep(0.02)
        return expected in heard

    try:
        time.sleep(0.2)  # listening: what is written from now on is news
        writing.create("unfinished", {}, "{}", [])
        writing.record("unfinished", 1, "red", '"a"', None, over=False)
        writing.create("finished", {}, "{}", [])
        writing.record("finished", 1, "red", '"a"', None, over=True)
        assert hears(("unfinished", 1))
        assert hears(("finished", 1))
        # Finished games are kept for less time than unfinished ones: the finished one
        # (the newest change) is deleted, the other kept.
        assert writing.expire(time.time() + 1, 0.0) == ["finished"]
        writing.record("unfinished", 2, "red", '"b"', None, over=False)
        assert hears(("unfinished", 2)), f"heard only {heard}"
    finally:
        stop()
        listening.close()
        writing.close()


class ClaimFailsOnce(SQLiteStore):
    """The store is unreachable for one call: the first claim on a game's bots."""

    failures = 1

    def claim_bots(self, game_id: str, owner: str, seconds: float) -> bool:
        if self.failures:
            self.failures -= 1
            raise StoreError(f"cannot use {self.name}: the database restarted")
        return super().claim_bots(game_id, owner, seconds)


def test_bots_play_on_soon_after_one_failed_call_to_the_store(tmp_path: Path) -> None:
    print(f"seed {SEED}")
    path = tmp_path / "games.sqlite3"
    store, other_store = ClaimFailsOnce(path), SQLiteStore(path)
    limits = Limits(bot_workers=1)
    here = Tables(store, entry_points=False, limits=limits)
    other = Tables(other_store, entry_points=False, limits=limits)  # another process

    async def play() -> int:
        here.start()
        other.start()
        table, _, _ = await here.create(
            {
                "families": 3,
                "seed": SEED,
                "first_player": "blue",
                "bots": {"blue": "random", "green": "random"},
            }
        )
        # The lease of a process that died lapses, and the next look finds the game:
        # a store that failed once is given as long, and a few looks more.
        deadline = time.monotonic() + LEASE_SECONDS + 6 * SWEEP_SECONDS
        while table.step == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return table.step

    try:
        step = asyncio.run(play())
    finally:
        here.close()
        other.close()
        store.close()
        other_store.close()
    assert step > 0, "the bots to answer first have not answered; the person waits"


def test_serve_workers_killed_at_once_leaves_no_server_serving(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oriflamme",
            "serve",
            "--port",
            "0",
            "--workers",
            "2",
            "--db",
            str(tmp_path / "games.sqlite3"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "playing at" in line, line
        # Killed as its server processes start (a host's out-of-memory killer, say).
        time.sleep(0.05)
        process.kill()
        process.wait(10)
        deadline = time.monotonic() + 15
        left = _group(process.pid)
        while left and time.monotonic() < deadline:
            time.sleep(0.5)
            left = _group(process.pid)
        assert not left, f"left running with nobody to stop them: {left}"
    finally:
        for pid in _group(process.pid):
            os.kill(pid, signal.SIGKILL)
        if process.stdout is not None:
            process.stdout.close()


def _group(group: int) -> list[int]:
    """The processes still running in process group ``group``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://oriflamme:Zq7/Kx+w@127.0.0.1:1/oriflamme",  # base64 holds '/'
        "postgresql://oriflamme:Zq7@Kxw@127.0.0.1:1/oriflamme",
        "postgresql://oriflamme:Zq7%Kxw@127.0.0.1:1/oriflamme",  # not %-encoded
    ],
)
def test_a_store_that_cannot_be_used_never_shows_its_password(
    url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("psycopg_pool")
    from oriflamme.web import postgres  # noqa: PLC0415 - the optional extra

    monkeypatch.setattr(postgres, "CONNECT_SECONDS", 1.0)
    password = re.search(r"oriflamme:(.*)@127", url)
    assert password is not None
    secret = password.group(1)
    with caplog.at_level(logging.DEBUG), pytest.raises(StoreError) as refused:
        postgres.PostgresStore(url)
    said = [str(refused.value), *(record.getMessage() for record in caplog.records)]
    for line in said:
        for part in re.split(r"[/@%+]", secret):
            # A letter or two is in any sentence: longer pieces are the password's.
            assert len(part) < 3 or part not in line, f"{line!r} shows {part!r} of the password"


def test_a_store_that_cannot_be_reached_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg_pool")
    from oriflamme.web import postgres  # noqa: PLC0415 - the optional extra

    monkeypatch.setattr(postgres, "CONNECT_SECONDS", 1.0)
    with pytest.raises(StoreError) as refused:
        postgres.PostgresStore("postgresql://oriflamme@127.0.0.1:1/oriflamme")
    assert "refused" in str(refused.value), str(refused.value)


def test_a_stray_notification_does_not_stop_the_listening(postgres: Any) -> None:
    import psycopg  # noqa: PLC0415 - the optional extra; the fixture skips without it

    from oriflamme.web.postgres import CHANNEL, PostgresStore  # noqa: PLC0415

    url = postgres.database("review_stray")
    store = PostgresStore(url)
    heard: list[tuple[str, int]] = []
    stop = store.listen(lambda game_id, step: heard.append((game_id, step)))

    def hears(expected: tuple[str, int]) -> bool:
        deadline = time.monotonic() + 5
        while expected not in heard and time.monotonic() < deadline:
            time.sleep(0.02)
        return expected in heard

    try:
        assert hears(("", 0))  # listening
        # Any role that may connect to the database may NOTIFY on any channel (another
        # program sharing the database, a mistake at a psql prompt).
        with psycopg.connect(url, autocommit=True) as other:
            other.execute("SELECT pg_notify(%s, %s)", (CHANNEL, "hello"))
        store.create("game", {}, "{}", [])
        store.record("game", 1, "red", '"a"', None, over=False)
        assert hears(("game", 1)), f"heard only {heard}"
    finally:
        stop()
        store.close()


class NeverClaims(SQLiteStore):
    """A process that makes games but never gets to run their bots (it stops first)."""

    def claim_bots(self, game_id: str, owner: str, seconds: float) -> bool:
        return False


def test_a_game_that_cannot_be_read_does_not_keep_the_others_bots_waiting(
    tmp_path: Path,
) -> None:
    print(f"seed {SEED}")
    path = tmp_path / "games.sqlite3"
    made_store = NeverClaims(path)
    maker = Tables(made_store, entry_points=False)
    request = {
        "families": 3,
        "seed": SEED,
        "first_player": "blue",
        "bots": {"blue": "random", "green": "random"},
    }

    async def make() -> list[str]:
        made = [await maker.create(request) for _ in range(2)]
        return [table.id for table, _, _ in made]

    store = SQLiteStore(path)
    taker = Tables(store, entry_points=False, limits=Limits(bot_workers=1))
    try:
        damaged, whole = asyncio.run(make())
        maker.close()
        with sqlite3.connect(path) as db:  # the first game's save is damaged
            db.execute("UPDATE games SET save = 'damaged' WHERE id = ?", (damaged,))
        assert store.due(20)[0] == damaged

        async def look() -> int:
            taker.start()
            deadline = time.monotonic() + 6 * SWEEP_SECONDS + 5
            while time.monotonic() < deadline:
                kept = store.load(whole)
                assert kept is not None
                if kept.step > 0:
                    return kept.step
                await asyncio.sleep(0.2)
            return 0

        step = asyncio.run(look())
    finally:
        taker.close()
        store.close()
        made_store.close()
    assert step > 0, "the game that can be read waits on bots nobody runs"


RACE_SEED = 7_654_321


class HookedClaim(PostgresStore):
    """Runs ``hook`` (in the store's thread) before the first claim on a game's bots."""

    hook: Callable[[], None] | None = None

    def claim_bots(self, game_id: str, owner: str, seconds: float) -> bool:
        hook, self.hook = self.hook, None
        if hook is not None:
            hook()
        return super().claim_bots(game_id, owner, seconds)


class NeverClaimsThere(PostgresStore):
    """Another process that never runs the bots (some other one holds their lease)."""

    def claim_bots(self, game_id: str, owner: str, seconds: float) -> bool:
        return False


def test_bots_think_only_for_the_family_asked_when_the_game_moved_during_the_claim(
    postgres: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    print(f"seed {RACE_SEED}")
    url = postgres.database(f"claim_race_{os.getpid()}")
    here_store, other_store = HookedClaim(url), NeverClaimsThere(url)
    limits = Limits(bot_workers=1)
    here = Tables(here_store, entry_points=False, limits=limits)
    other = Tables(other_store, entry_points=False, limits=limits)  # another process
    caplog.set_level(logging.WARNING, logger="oriflamme.web")

    async def play() -> int:
        here.start()
        other.start()
        loop = asyncio.get_running_loop()
        made, _, _ = await other.create(
            {
                "families": 3,
                "seed": RACE_SEED,
                "first_player": "blue",
                "bots": {"blue": "random", "green": "random"},
            }
        )
        game_id = made.id

        def hook() -> None:
            # While this process asks for the lease, another keeps blue's answer, and
            # this process hears of it and catches up.
            asyncio.run_coroutine_threadsafe(first_answer(other, game_id, "blue"), loop).result(10)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                live = here._live.get(game_id)
                if live is not None and live.step >= 1:
                    return
                time.sleep(0.05)

        here_store.hook = hook
        table = await here.find(game_id)  # its bots start here
        deadline = time.monotonic() + 20
        while table.step < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        return table.step

    try:
        step = asyncio.run(play())
    finally:
        here.close()
        other.close()
        here_store.close()
        other_store.close()
    assert step >= 1
    wrong = [r.getMessage() for r in caplog.records if "bot" in r.getMessage()]
    assert not wrong, f"a bot was asked for a family whose turn it was not: {wrong}"


async def first_answer(tables: Tables, game_id: str, family: str) -> None:
    """``family`` answers the first option it is offered at step 0, through ``tables``
    (another process)."""
    table = await tables.find(game_id)
    answer: Any = table.game.decision.options[0]  # type: ignore[union-attr]
    await tables.answer(table, family, _as_json(answer), 0)


def _as_json(answer: object) -> Any:
    return json.loads(json.dumps(answer))


@pytest.mark.parametrize(
    "db",
    [
        "PostgreSQL://oriflamme:TOPSECRET@127.0.0.1:5432/oriflamme",
        "postgresql:/oriflamme:TOPSECRET@127.0.0.1:5432/oriflamme",
    ],
)
def test_a_mistyped_postgresql_url_is_refused_not_made_a_file(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError) as refused:
        open_store(db).close()
    assert "TOPSECRET" not in str(refused.value)
    made = [str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*")]
    assert not made, f"--db {db!r} made files named after its password: {made}"


class HookedLoad(PostgresStore):
    """Runs ``hook`` (in the store's thread) after the first load of a game has read it."""

    hook: Callable[[], None] | None = None

    def load(self, game_id: str) -> StoredGame | None:
        found = super().load(game_id)
        hook, self.hook = self.hook, None
        if hook is not None:
            hook()
        return found


def test_a_game_read_back_while_another_process_answers_in_it_catches_up(
    postgres: Cluster,
) -> None:
    print(f"seed {RACE_SEED}")
    url = postgres.database(f"load_race_{os.getpid()}")
    here_store, other_store = HookedLoad(url), NeverClaimsThere(url)
    here = Tables(here_store, entry_points=False)
    other = Tables(other_store, entry_points=False)  # another process

    async def play() -> tuple[int, int]:
        here.start()
        other.start()
        loop = asyncio.get_running_loop()
        made, _, _ = await other.create({"families": 3, "seed": RACE_SEED, "first_player": "red"})
        game_id = made.id

        def hook() -> None:
            # Just after this process read the game, another keeps an answer in it,
            # and its news reaches this process before the game is kept here.
            asyncio.run_coroutine_threadsafe(first_answer(other, game_id, "red"), loop).result(10)
            time.sleep(1.0)

        here_store.hook = hook
        table = await here.find(game_id)
        watcher = here.watch(table, None)
        watcher.changed.clear()
        await asyncio.sleep(2.0)  # news is heard within 50 ms or so
        return table.step, made.step

    try:
        step, kept = asyncio.run(play())
    finally:
        here.close()
        other.close()
        here_store.close()
        other_store.close()
    assert kept == 1
    assert step == 1, "the game stayed at step 0 here: its watchers never see the answer"


def test_the_supervisor_gives_up_only_when_no_process_is_serving() -> None:
    from oriflamme.web.serve import MOST_RESTART_SECONDS, QUICK_STOPS, _restart_wait  # noqa: PLC0415

    waits = [_restart_wait(quick, serving=True) for quick in range(1, 3 * QUICK_STOPS)]
    assert waits == sorted(waits)  # less and less often, while one serves
    assert waits[0] == _restart_wait(1, serving=False)
    assert max(waits) == MOST_RESTART_SECONDS
    for quick in range(1, QUICK_STOPS):
        assert _restart_wait(quick, serving=False) == waits[0]
    with pytest.raises(OriflammeError, match="none is serving"):
        _restart_wait(QUICK_STOPS, serving=False)
