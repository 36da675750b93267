"""The web server's hot PostgreSQL transactions, with each candidate driver.

On a throwaway cluster (tests/postgres.py: 127.0.0.1, fsync and synchronous_commit on),
``--clients`` concurrent clients (asyncio tasks, or threads for the synchronous driver)
each keep a few games of their own and, for ``--seconds``:

- write: an answer's transaction. ``UPDATE games SET step, updated WHERE id AND step``
  (it must change one row: the step is the one the client saw), ``INSERT INTO answers``,
  ``SELECT pg_notify('oriflamme', id || ':' || step)``, commit;
- read: a game's row and its answers after a step (the last few), as a view is built.

Drivers: psycopg 3 async (``AsyncConnectionPool``), psycopg 3 sync (``ConnectionPool``,
called from threads) and asyncpg (its pool, as it comes and without the query it sends
to reset each connection given back) when installed (it is not a dependency of the
project: ``pip install asyncpg`` to measure it). Each pool holds one connection a
client, opened before the clock starts. Prints, for each driver and phase, transactions
a second, latency (p50, p95), and CPU seconds per 1,000 transactions: this process's
(the client: the web server would run its driver in its own process, on the same cores
as PostgreSQL) and the cluster's (its postmaster and every child: the clients' backends,
the idle listener's, the WAL writer...).

    .venv/bin/python benchmarks/pg_drivers.py --clients 8 --seconds 5

Every write is checked: each changed one row, and the answers and notifications counted
on the cluster afterwards match the transactions counted here.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.metadata
import importlib.util
import json
import random
import statistics
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import psycopg
from psycopg_pool import AsyncConnectionPool, ConnectionPool

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.postgres import Cluster, available

SCHEMA = """
CREATE TABLE games (
    id text PRIMARY KEY,
    step integer NOT NULL,
    updated double precision NOT NULL
);
CREATE TABLE answers (
    game text NOT NULL,
    step integer NOT NULL,
    family text NOT NULL,
    answer text NOT NULL,
    PRIMARY KEY (game, step)
);
"""
CHANNEL = "oriflamme"
#: Games each client plays in turn (none is shared: a write never loses a race).
GAMES = 4
#: A read fetches the answers after this many steps back, as a view catching up would.
BEHIND = 5
FAMILIES = ("red", "blue", "green", "yellow", "black")

# The same statements in each driver's placeholders (psycopg %s, asyncpg $n).
UPDATE = "UPDATE games SET step = $1, updated = $2 WHERE id = $3 AND step = $4"
INSERT = "INSERT INTO answers (game, step, family, answer) VALUES ($1, $2, $3, $4)"
NOTIFY = f"SELECT pg_notify('{CHANNEL}', $1::text || ':' || $2::integer)"
GAME = "SELECT id, step, updated FROM games WHERE id = $1"
AFTER = "SELECT step, family, answer FROM answers WHERE game = $1 AND step > $2 ORDER BY step"


def percent(statement: str) -> str:
    """``statement`` with psycopg's placeholders (``%s``) for asyncpg's (``$1``...)."""
    for number in range(9, 0, -1):
        statement = statement.replace(f"${number}", "%s")
    return statement


class Stale(RuntimeError):
    """An UPDATE changed no row: the step was not the one the client last saw."""


@dataclass
class Write:
    game: str
    step: int  # the step the client saw; the transaction moves the game to step + 1
    family: str
    answer: str
    now: float


@dataclass
class Client:
    """One client's games and its own seeded choices."""

    number: int
    seed: int
    steps: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.random = random.Random(self.seed * 1000 + self.number)
        self.steps = {f"g{self.number:03d}-{k}": 0 for k in range(GAMES)}

    def write(self) -> Write:
        game = self.random.choice(sorted(self.steps))
        answer = json.dumps({"card": self.random.randrange(60), "row": self.random.randrange(12)})
        family = self.random.choice(FAMILIES)
        return Write(game, self.steps[game], family, answer, time.time())

    def written(self, write: Write) -> None:
        self.steps[write.game] = write.step + 1

    def read(self) -> tuple[str, int]:
        game = self.random.choice(sorted(self.steps))
        return game, max(0, self.steps[game] - BEHIND)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0
    server_cpu: float = 0.0


class Progress:
    """A line on stderr, redrawn twice a second: time elapsed and transactions so far."""

    def __init__(self, label: str, seconds: float, tally: Tally, stream: TextIO) -> None:
        self.label, self.seconds, self.tally, self.stream = label, seconds, tally, stream
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Progress:
        self.start = time.perf_counter()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()
        self._draw(final=True)

    def _run(self) -> None:
        # Redrawn in place on a terminal; in a log, only the last state of each phase.
        live = self.stream.isatty()
        while not self.done.wait(0.5):
            if live:
                self._draw(final=False)

    def _draw(self, *, final: bool) -> None:
        elapsed = min(self.seconds, time.perf_counter() - self.start)
        filled = round(30 * elapsed / self.seconds)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {elapsed:4.1f}/{self.seconds:g} s "
            f"{self.label}: {len(self.tally.latencies)} transactions"
        )
        self.stream.write("\n" if final else "")
        self.stream.flush()


# --- psycopg 3, async -----------------------------------------------------------------


async def psycopg_async(
    url: str, phase: str, clients: Sequence[Client], until: Clock, tally: Tally
) -> None:
    update, insert, notify, game_sql, after_sql = map(
        percent, (UPDATE, INSERT, NOTIFY, GAME, AFTER)
    )
    async with AsyncConnectionPool(
        url, min_size=len(clients), max_size=len(clients), kwargs={"autocommit": True}
    ) as pool:
        await pool.wait()

        async def one(client: Client) -> None:
            while not until.over():
                start = time.perf_counter()
                try:
                    async with pool.connection() as connection:
                        if phase == "write":
                            job = client.write()
                            async with connection.transaction():
                                cursor = await connection.execute(
                                    update, (job.step + 1, job.now, job.game, job.step)
                                )
                                if cursor.rowcount != 1:
                                    raise Stale(f"{job.game} was not at step {job.step}")
                                await connection.execute(
                                    insert, (job.game, job.step + 1, job.family, job.answer)
                                )
                                await connection.execute(notify, (job.game, job.step + 1))
                            client.written(job)
                        else:
                            game, after = client.read()
                            row = await (await connection.execute(game_sql, (game,))).fetchone()
                            assert row is not None
                            await (await connection.execute(after_sql, (game, after))).fetchall()
                except (psycopg.Error, Stale) as error:
                    tally.errors.append(str(error))
                    continue
                tally.latencies.append(time.perf_counter() - start)

        await timed(tally, until, [one(client) for client in clients])


# --- psycopg 3, sync, in threads ------------------------------------------------------


def psycopg_threads(
    url: str, phase: str, clients: Sequence[Client], until: Clock, tally: Tally
) -> None:
    update, insert, notify, game_sql, after_sql = map(
        percent, (UPDATE, INSERT, NOTIFY, GAME, AFTER)
    )
    with ConnectionPool(
        url, min_size=len(clients), max_size=len(clients), kwargs={"autocommit": True}
    ) as pool:
        pool.wait()
        lock = threading.Lock()

        def one(client: Client) -> None:
            until.ready.wait()
            while not until.over():
                start = time.perf_counter()
                try:
                    with pool.connection() as connection:
                        if phase == "write":
                            job = client.write()
                            with connection.transaction():
                                cursor = connection.execute(
                                    update, (job.step + 1, job.now, job.game, job.step)
                                )
                                if cursor.rowcount != 1:
                                    raise Stale(f"{job.game} was not at step {job.step}")
                                connection.execute(
                                    insert, (job.game, job.step + 1, job.family, job.answer)
                                )
                                connection.execute(notify, (job.game, job.step + 1))
                            client.written(job)
                        else:
                            game, after = client.read()
                            row = connection.execute(game_sql, (game,)).fetchone()
                            assert row is not None
                            connection.execute(after_sql, (game, after)).fetchall()
                except (psycopg.Error, Stale) as error:
                    with lock:
                        tally.errors.append(str(error))
                    continue
                elapsed = time.perf_counter() - start
                with lock:
                    tally.latencies.append(elapsed)

        threads = [threading.Thread(target=one, args=(client,)) for client in clients]
        for thread in threads:
            thread.start()
        until.begin()
        for thread in threads:
            thread.join()
        until.finish(tally)


# --- asyncpg --------------------------------------------------------------------------


async def asyncpg_pool(
    url: str, phase: str, clients: Sequence[Client], until: Clock, tally: Tally
) -> None:
    await asyncpg_run(url, phase, clients, until, tally, reset=True)


async def asyncpg_no_reset(
    url: str, phase: str, clients: Sequence[Client], until: Clock, tally: Tally
) -> None:
    await asyncpg_run(url, phase, clients, until, tally, reset=False)


async def nothing(connection: Any) -> None:
    """A pool's reset that sends no query."""


async def asyncpg_run(
    url: str, phase: str, clients: Sequence[Client], until: Clock, tally: Tally, *, reset: bool
) -> None:
    """asyncpg's pool; by default it resets each connection given back, with one query
    more (``RESET ALL``, ``UNLISTEN *``...): ``reset=False`` leaves that out, as
    psycopg's pool does."""
    # Imported by name: asyncpg is no dependency of the project (nor typed).
    asyncpg: Any = importlib.import_module("asyncpg")
    pool = await asyncpg.create_pool(
        url,
        min_size=len(clients),
        max_size=len(clients),
        **({} if reset else {"reset": nothing}),
    )
    try:

        async def one(client: Client) -> None:
            while not until.over():
                start = time.perf_counter()
                try:
                    async with pool.acquire() as connection:
                        if phase == "write":
                            job = client.write()
                            async with connection.transaction():
                                status = await connection.execute(
                                    UPDATE, job.step + 1, job.now, job.game, job.step
                                )
                                if status != "UPDATE 1":
                                    raise Stale(f"{job.game} was not at step {job.step}")
                                await connection.execute(
                                    INSERT, job.game, job.step + 1, job.family, job.answer
                                )
                                await connection.execute(NOTIFY, job.game, job.step + 1)
                            client.written(job)
                        else:
                            game, after = client.read()
                            row = await connection.fetchrow(GAME, game)
                            assert row is not None
                            await connection.fetch(AFTER, game, after)
                except (asyncpg.PostgresError, Stale) as error:
                    tally.errors.append(str(error))
                    continue
                tally.latencies.append(time.perf_counter() - start)

        await timed(tally, until, [one(client) for client in clients])
    finally:
        await pool.close()


# --- the clock and the runs -----------------------------------------------------------


class Clock:
    """The measured span: clients start together and stop at ``seconds``.

    It takes the CPU used over that span by this process and by the cluster's server
    processes (``server``: their CPU seconds so far), pools opened before it starts.
    """

    def __init__(self, seconds: float, server: Callable[[], float]) -> None:
        self.seconds = seconds
        self.server = server
        self.ready = threading.Event()
        self.started = 0.0
        self.end = float("inf")
        self.cpu = (0.0, 0.0)

    def begin(self) -> None:
        self.cpu = (time.process_time(), self.server())
        self.started = time.perf_counter()
        self.end = self.started + self.seconds
        self.ready.set()

    def over(self) -> bool:
        return time.perf_counter() >= self.end

    def finish(self, tally: Tally) -> None:
        tally.seconds = time.perf_counter() - self.started
        tally.cpu = time.process_time() - self.cpu[0]
        tally.server_cpu = self.server() - self.cpu[1]


async def timed(tally: Tally, until: Clock, jobs: list[Awaitable[None]]) -> None:
    until.begin()
    await asyncio.gather(*jobs)
    until.finish(tally)


def server_cpu(cluster: Cluster) -> Callable[[], float]:
    """CPU seconds used so far by the cluster's postmaster and its children (Linux).

    From /proc/<pid>/schedstat, the scheduler's own count in nanoseconds, as precise as
    this process's (time.process_time): /proc/<pid>/stat counts in clock ticks, by
    sampling, which misses much of a backend's short bursts.
    """
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])

    def used() -> float:
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                # After the command's name in parentheses: state, then the parent's pid.
                parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
                pid = int(stat.parent.name)
                if postmaster in (pid, parent):
                    total += int((stat.parent / "schedstat").read_text().split()[0])
            except (OSError, IndexError, ValueError):
                continue  # a process gone meanwhile
        return total / 1e9

    return used


Runner = Callable[[str, str, Sequence[Client], Clock, Tally], None]


def async_runner(
    function: Callable[[str, str, Sequence[Client], Clock, Tally], Coroutine[Any, Any, None]],
) -> Runner:
    def run(url: str, phase: str, clients: Sequence[Client], until: Clock, tally: Tally) -> None:
        asyncio.run(function(url, phase, clients, until, tally))

    return run


def reset(url: str, clients: Sequence[Client]) -> None:
    """Empty tables, each client's games at step 0."""
    with psycopg.connect(url) as connection:
        connection.execute("TRUNCATE games, answers")
        with connection.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO games (id, step, updated) VALUES (%s, 0, %s)",
                [(game, time.time()) for client in clients for game in client.steps],
            )


def check(url: str, writes: int, listener: psycopg.Connection[Any]) -> list[str]:
    """What the cluster holds against ``writes`` transactions counted; [] when it agrees."""
    problems = []
    with psycopg.connect(url) as connection:
        answers = connection.execute("SELECT count(*) FROM answers").fetchone()
        steps = connection.execute("SELECT coalesce(sum(step), 0) FROM games").fetchone()
    if answers != (writes,) or steps != (writes,):
        problems.append(f"{writes} transactions, but answers {answers} and steps {steps}")
    notified = 0
    while batch := list(listener.notifies(timeout=0.5, stop_after=10_000)):
        notified += len(batch)
    if notified != writes:
        problems.append(f"{writes} transactions, but {notified} notifications")
    return problems


def percentiles(values: Sequence[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0], values[0]) if values else (float("nan"), float("nan"))
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49], cuts[94]


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (8)")
    parser.add_argument("--seconds", type=float, default=5.0, help="each phase's span (5)")
    parser.add_argument("--seed", type=int, default=1, help="the clients' choices (1)")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.seconds <= 0:
        parser.error("--clients must be at least 1 and --seconds above 0")
    reason = available()
    if reason is not None:
        print(f"pg_drivers: {reason}", file=sys.stderr)
        return 2
    drivers: list[tuple[str, Runner]] = [
        ("psycopg async pool", async_runner(psycopg_async)),
        ("psycopg sync pool, threads", psycopg_threads),
    ]
    skipped = []
    if importlib.util.find_spec("asyncpg") is not None:
        drivers.append(("asyncpg pool", async_runner(asyncpg_pool)))
        drivers.append(("asyncpg pool, no reset query", async_runner(asyncpg_no_reset)))
    else:
        skipped.append("asyncpg (not installed: pip install asyncpg)")
    rows: list[tuple[str, str, Tally]] = []
    problems: list[str] = []
    with Cluster() as cluster:
        url = cluster.database("bench")
        server_used = server_cpu(cluster)
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(SCHEMA)
            server = connection.execute("SHOW server_version").fetchone()
        print(
            f"PostgreSQL {server[0] if server else '?'} on {cluster.host}:{cluster.port}; "
            f"psycopg {version('psycopg')}, psycopg-pool {version('psycopg-pool')}, "
            f"asyncpg {version('asyncpg')}; Python {sys.version.split()[0]}, asyncio"
        )
        print(
            f"{args.clients} clients, {GAMES} games each, {args.seconds:g} s a phase, "
            f"seed {args.seed}"
        )
        for name, run in drivers:
            clients = [Client(number, args.seed) for number in range(args.clients)]
            reset(url, clients)
            with psycopg.connect(url, autocommit=True) as listener:
                listener.execute(f"LISTEN {CHANNEL}")
                for phase in ("write", "read"):
                    until = Clock(args.seconds, server_used)
                    tally = Tally()
                    label = f"{name}, {phase}"
                    with Progress(label, args.seconds, tally, sys.stderr):
                        run(url, phase, clients, until, tally)
                    rows.append((name, phase, tally))
                    problems += [f"{label}: {error}" for error in tally.errors[:3]]
                    if phase == "write":
                        problems += [
                            f"{label}: {problem}"
                            for problem in check(url, len(tally.latencies), listener)
                        ]
    print()
    print(
        f"{'driver':<30} {'phase':<6} {'tx/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'client CPU s/1000':>18} {'server CPU s/1000':>18}"
    )
    for name, phase, tally in rows:
        count = len(tally.latencies)
        p50, p95 = percentiles(tally.latencies)
        print(
            f"{name:<30} {phase:<6} {count / tally.seconds:8.0f} {p50 * 1000:8.2f} "
            f"{p95 * 1000:8.2f} {tally.cpu / max(count, 1) * 1000:18.3f} "
            f"{tally.server_cpu / max(count, 1) * 1000:18.3f}"
        )
    for name in skipped:
        print(f"skipped: {name}")
    for problem in problems:
        print(f"error: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
