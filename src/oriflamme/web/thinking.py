"""Where bots think: in worker processes, never in the server's own.

A bot's search holds the interpreter's lock for as long as it runs, and a thread
cannot be stopped: searching in the server's process, a few long searches held up
every request. So each decision goes to a worker process as plain data: the family's
:class:`~oriflamme.Observation` (never the game), the bot kind as its text, the
plugins left out and the seed. The worker makes the bot exactly as the server would
(``make_bot(kind, registry, random.Random(seed))``), so it gives the same answer: a
restarted server plays on exactly as the first would have.

**Lanes.** Workers are split in lanes: :attr:`Lane.PEOPLE`, games with at least one
person (someone is waiting on these bots), with ``bot_workers`` workers, and
:attr:`Lane.BOTS`, games of bots alone, with half as many (at least one); and one more
worker, :attr:`Lane.QUICK`, takes the people lane's decisions whose bot kind has been
deciding in under :data:`QUICK_SECONDS` (``random`` and ``heuristic`` from the start), so
a person playing quick bots never waits behind another game's search, which cannot be
stopped half-way. Workers run below the server's priority (``nice`` +5 for the people's
lanes, +19 for the bots lane): the server's own requests get the CPU first, then the
bots a person is waiting on, then games of bots alone.

**Fairness.** In a lane, clients (the address a game was created from; a table given
none is a client of its own) share the workers' time, not their turns, and each client's
tables share its time. A table has at most one decision queued or running, and the next
decision run is the one that would finish first if thinking so far were counted: first
the client with the least thinking time had (its decisions running included) plus the
time its next decision's bot kind has been taking, then that client's table with the
least plus its kind's time (first come, first served between equals). A table of quick
bots is then served at once beside tables whose bots search for seconds, even before
each of those has had a first turn, and no client, however many or expensive its tables,
can starve the others. At most ``bot_tables_per_client`` (by default one) of a client's
decisions run at once in a lane, the others waiting even with a worker idle: so one
client leaves the people lane's other workers to the rest. A client alone in having
asked within :data:`ALONE_SECONDS` has no cap (a household behind one address, with
nobody else about, uses every worker); once another asks, the cap holds again, and the
newcomer waits for one decision at most. Time spent waiting (on a
person, or for a turn) earns nothing: a client asking again starts from the least
thinking time of the clients served so far, as a newcomer does, and a table from the
least of its client's tables; a client with nothing to do and no more time than that is
forgotten.

**Bounds.** A decision that takes longer than ``bot_timeout`` seconds (counted from
when its worker gets it) is given up: :meth:`Thinkers.think` returns None, and the
worker is killed and replaced. A bot that raises gives None too; the caller then
plays the first legal answer. :meth:`Thinkers.drop` forgets a table's work (a game
over, abandoned or let go): its waiting :meth:`~Thinkers.think` raises
:class:`Dropped`, a decision still queued is never run and one running is ignored.

**What crosses.** An observation, pickled: plain data, no rules (the game's public
rules, card definitions, abilities, the plugins' hook callers, cannot be pickled and
would weigh more than the rest). A bot that needs the rules (a search plays on from
the observation) has its worker's registry make them from the observation's sets,
variants and cards, once. An observation pickles by its fields, 1 to 4 KB in a tenth
of a millisecond or so, and is made again from them in the worker, each field checked
to be of its type and to fit the others (``Observation.__reduce__``). Answers come
back as JSON.

**Processes.** Workers are spawned (a fresh interpreter), never forked: the server
has threads. As with any program that spawns processes, a script that starts the
server must do so under ``if __name__ == "__main__":`` (the ``oriflamme`` command
does). A worker whose server is gone stops by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import importlib
import json
import logging
import math
import multiprocessing
import os
import pickle
import random
import signal
import socket
import struct
import sys
import threading
import time
import types
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from multiprocessing.process import BaseProcess
from typing import Any

import attrs

from oriflamme import ConfigError, Observation, Registry
from oriflamme.text import cut

from ..bots.kinds import QUICK_KINDS
from ..bots.levels import LEVELS
from .limits import Limits
from .players import make_bot

log = logging.getLogger("oriflamme.web")

#: Seconds a new worker has to load the engine and the plugins before it is given up.
START_SECONDS = 60.0
#: Seconds :meth:`Thinkers.close` waits for the killed workers to be gone.
CLOSE_SECONDS = 2.0
#: Seconds a killed worker is waited for in the background (its replacement is
#: already started); past it, :meth:`Thinkers.close` collects it.
EXIT_SECONDS = 60.0
#: The largest reply a worker may send (an answer as JSON); a larger one is a failure.
MAX_REPLY = 1 << 20
#: Bot kinds (as written, with their settings) whose decisions' cost a lane keeps.
KINDS = 256
#: Registries a worker keeps, one for each choice of plugins left out.
REGISTRIES = 16

_HEADER = struct.Struct("!I")


class Lane(enum.StrEnum):
    """Which workers a table's bots think in."""

    #: Games with at least one person's seat: a person is waiting on these bots.
    PEOPLE = "people"
    #: Games of bots alone.
    BOTS = "bots"
    #: The people lane's quick decisions, in a worker of their own.
    QUICK = "quick"


#: How much lower than the server each lane's workers run (``os.nice``).
NICE = {Lane.PEOPLE: 5, Lane.QUICK: 5, Lane.BOTS: 19}
#: Seconds since another client last asked for a decision in a lane, after which a
#: client is alone there: the cap on its decisions at once is lifted (it would keep a
#: worker idle for nobody), until another asks.
ALONE_SECONDS = 60.0
#: A bot kind whose decisions have been taking less than this (in seconds) is quick.
QUICK_SECONDS = 0.05
#: The built-in kinds known to be quick before any of their decisions is timed, and the
#: levels that stand for them.
QUICK = tuple(sorted(QUICK_KINDS)) + tuple(
    level.name for level in LEVELS if level.choice in QUICK_KINDS
)


class Dropped(Exception):
    """The table's work was dropped (:meth:`Thinkers.drop`) or every worker was stopped
    (:meth:`Thinkers.close`): there is no answer, and the game should not be played on
    with one."""


@attrs.frozen
class Plugins:
    """How a worker rebuilds the server's registries: the installed plugins (found by
    their entry points, if ``entry_points``) and the plugins the server was given by
    name, each as the module a worker imports: ``(plugin name, module name)``."""

    entry_points: bool = True
    modules: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, plugins: Mapping[str, object] | None, *, entry_points: bool = True) -> Plugins:
        """The description of ``plugins`` (plugin name to module, as ``create_app``
        takes them); a plugin that is not a module a worker can import by its name is
        refused with a :class:`ConfigError`."""
        named = []
        for name, plugin in (plugins or {}).items():
            module = plugin.__name__ if isinstance(plugin, types.ModuleType) else ""
            # The module a worker would import under that name must be this very one.
            if module in ("", "__main__", "__mp_main__") or sys.modules.get(module) is not plugin:
                what = f"module {module!r}" if module else f"a {type(plugin).__name__}"
                raise ConfigError(
                    f"plugin {name!r}: bots think in worker processes, which import each "
                    f"plugin by its module's name: {what} cannot be imported by name"
                )
            named.append((name, module))
        return cls(entry_points, tuple(named))


class Thinkers:
    """The worker processes bots think in, in three lanes (see the module's text).

    ``limits`` gives the number of workers (``bot_workers``, at least 2: the people
    lane's, the bots lane having half as many), ``bot_tables_per_client`` and
    ``bot_timeout``; ``plugins`` (plugin name to module) and ``entry_points`` are what
    the server's registries are made of: each worker makes the same ones. Workers are
    started when there is work they could take, and kept. Use it from one event loop.
    """

    def __init__(
        self,
        limits: Limits,
        plugins: Mapping[str, object] | None = None,
        *,
        entry_points: bool = True,
    ) -> None:
        self.limits = limits
        self.plugins = Plugins.of(plugins, entry_points=entry_points)
        # Limits built without checking them may ask for less: a lane has one at least.
        self._lanes = {
            Lane.PEOPLE: _Lane(Lane.PEOPLE, max(1, limits.bot_workers)),
            Lane.QUICK: _Lane(Lane.QUICK, 1),
            Lane.BOTS: _Lane(Lane.BOTS, max(1, limits.bot_workers // 2)),
        }
        self._cap = max(1, limits.bot_tables_per_client)
        # What each bot kind's decisions have been taking, shared by the lanes.
        costs: OrderedDict[str, float] = OrderedDict((kind, 0.0) for kind in QUICK)
        for each in self._lanes.values():
            each.costs = costs
        # Every table with work queued or running, and the work.
        self._jobs: dict[str, _Job] = {}
        self._numbers = 0
        self._closed = False
        # Every worker process started and not yet collected, ready or not.
        self._processes: set[BaseProcess] = set()
        # Spawned, not forked: the server has threads, and a fork copies none of them
        # but all their locks.
        self._context = multiprocessing.get_context("spawn")

    def sizes(self) -> dict[Lane, int]:
        """The most workers each lane has."""
        return {name: lane.size for name, lane in self._lanes.items()}

    async def think(  # noqa: PLR0917 - a decision's parts, in the order the caller has them
        self,
        table: str,
        lane: Lane,
        kind: str,
        without: tuple[str, ...],
        observation: Observation,
        seed: str,
        *,
        client: str | None = None,
    ) -> object | None:
        """The answer of a bot of ``kind`` (``ismcts:iterations=2000``) made with
        ``random.Random(seed)`` for a game of the registry without ``without``, to
        ``observation``, as JSON values (a placement as a list); None if the bot failed
        or took longer than ``bot_timeout``. ``client`` is whose table it is (the address
        the game was created from), whose tables share one share of the workers' time;
        None: the table is a client of its own. Raises :class:`Dropped` if the table is
        dropped (or every worker stopped) first, and :class:`ValueError` if ``table``
        already has a decision queued or running."""
        if self._closed:
            raise Dropped(f"game {table}: the bots' workers are stopped")
        if table in self._jobs:
            raise ValueError(f"game {table} already has a decision queued or running")
        self._numbers += 1
        payload = pickle.dumps(
            (self._numbers, kind, tuple(without), seed, dump_observation(observation)),
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        # Clients and tables alone named apart: neither can take the other's share.
        who = f"client {client}" if client is not None else f"table {table}"
        future = asyncio.get_running_loop().create_future()
        job = _Job(self._numbers, table, who, kind, payload, future)
        self._jobs[table] = job
        chosen = Lane(lane)
        if chosen is Lane.PEOPLE and self._lanes[chosen].costs.get(kind, 1.0) < QUICK_SECONDS:
            chosen = Lane.QUICK
        self._submit(self._lanes[chosen], job)
        try:
            return await job.future
        except asyncio.CancelledError:
            self._forget(job)
            raise

    def drop(self, table: str) -> None:
        """Forgets ``table``'s work: a decision queued is never run, one running is
        ignored (its worker finishes it, within ``bot_timeout``), and the waiting
        :meth:`think` raises :class:`Dropped`. A table with no work: nothing happens."""
        for lane in self._lanes.values():
            for client in lane.clients.values():
                client.tables.pop(table, None)
        job = self._jobs.get(table)
        if job is not None:
            self._drop(job, "its bots' work was dropped")

    def _drop(self, job: _Job, why: str) -> None:
        self._forget(job)
        if not job.future.done():
            job.future.set_exception(Dropped(f"game {job.table}: {why}"))

    def close(self) -> None:
        """Stops every worker at once, whatever it is doing (every waiting
        :meth:`think` raises :class:`Dropped`); :meth:`think` then refuses new work.
        Safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        for job in list(self._jobs.values()):
            self._drop(job, "the bots' workers are stopped")
        workers = [worker for lane in self._lanes.values() for worker in lane.workers]
        for lane in self._lanes.values():
            for waiter in lane.idle:
                waiter.cancel()
            lane.idle.clear()
            for task in lane.drivers:
                task.cancel()
        for worker in workers:
            worker.kill()
        for process in self._processes:
            with contextlib.suppress(OSError, ValueError):
                process.kill()
        deadline = time.monotonic() + CLOSE_SECONDS
        for process in list(self._processes):
            _reap(process, max(0.0, deadline - time.monotonic()))
        self._processes.clear()

    # Queuing.

    def _submit(self, lane: _Lane, job: _Job) -> None:
        now = time.monotonic()
        lane.asked[job.client] = now
        for name, when in list(lane.asked.items()):
            if now - when >= ALONE_SECONDS:
                del lane.asked[name]
        client = lane.clients.get(job.client)
        if client is None:
            client = lane.clients[job.client] = _Client(used=lane.floor)
        elif not client.queue and not client.running:
            client.used = max(client.used, lane.floor)
        client.tables[job.table] = max(client.tables.get(job.table, 0.0), client.floor)
        client.queue[job.table] = job
        self._dispatch(lane)

    def _dispatch(self, lane: _Lane, *, start: bool = True) -> None:
        """Hands the work ``lane``'s clients may have run to its idle workers, then (if
        ``start``) starts a worker for each job of it left, as long as the lane has room."""
        if self._closed:
            return
        while lane.idle:
            job = self._choose(lane)
            if job is None:
                break
            waiter = lane.idle.popleft()
            if not waiter.done():
                self._pick(lane, job)
                waiter.set_result(job)
        while start and lane.starting < lane.ready(self._caps(lane)) and lane.alive < lane.size:
            self._start(lane)

    def _caps(self, lane: _Lane) -> Callable[[str], float]:
        """How many decisions of each client may run at once in ``lane``: the cap, but
        none for a client alone in having asked within :data:`ALONE_SECONDS` (no other
        client around needs a worker kept free: its tables may use every one)."""
        now = time.monotonic()
        recent = [name for name, when in lane.asked.items() if now - when < ALONE_SECONDS]
        alone = recent[0] if len(recent) == 1 else None
        cap = self._cap
        return lambda name: math.inf if name == alone else cap

    def _choose(self, lane: _Lane) -> _Job | None:
        """The job ``lane`` runs next (None: none may run now): of the clients under the
        cap, the one that has had the least thinking time plus its next decision's cost,
        the one that has waited longest between equals; of its tables, the same."""
        now = time.monotonic()
        chosen: _Job | None = None
        least = (math.inf, 0)
        caps = self._caps(lane)
        for name, client in lane.clients.items():
            if not client.queue or len(client.running) >= caps(name):
                continue
            job = client.next(lane.costs)
            first = next(iter(client.queue.values()))
            key = (client.had(now) + lane.costs.get(job.kind, 0.0), first.number)
            if key < least:
                chosen, least = job, key
        return chosen

    def _pick(self, lane: _Lane, job: _Job) -> None:
        """Takes ``job`` off ``lane``'s queue: running from now, its client and table
        raising the floors, and the clients with nothing to do at or below the floor
        forgotten (they would start from it anyway)."""
        now = time.monotonic()
        client = lane.clients[job.client]
        del client.queue[job.table]
        lane.floor = max(lane.floor, client.had(now))
        client.floor = max(client.floor, client.tables.get(job.table, 0.0))
        client.running[job] = now
        idle = [
            name
            for name, each in lane.clients.items()
            if not each.queue and not each.running and each.used <= lane.floor
        ]
        for name in idle:
            del lane.clients[name]

    def _ended(self, lane: _Lane, job: _Job, took: float | None) -> None:
        """Counts the ``took`` seconds ``job`` ran (None: it was dropped before it ran)
        against its client and table, and hands out the work its client's cap held."""
        client = lane.clients.get(job.client)
        if client is not None:
            client.running.pop(job, None)
            if took is not None:
                client.used += took
                if job.table in client.tables:  # not dropped meanwhile
                    client.tables[job.table] += took
        if took is not None:
            lane.cost(job.kind, took)
        # Its worker takes a job next itself, or is replaced (see _drive).
        self._dispatch(lane, start=False)

    def _forget(self, job: _Job) -> None:
        if self._jobs.get(job.table) is job:
            del self._jobs[job.table]
        for lane in self._lanes.values():
            client = lane.clients.get(job.client)
            if client is not None and client.queue.get(job.table) is job:
                del client.queue[job.table]

    def _finish(self, job: _Job, answer: object | None) -> None:
        self._forget(job)
        if not job.future.done():
            job.future.set_result(answer)

    # The workers.

    def _start(self, lane: _Lane) -> None:
        lane.starting += 1
        lane.alive += 1
        task = asyncio.get_running_loop().create_task(self._drive(lane))
        lane.drivers.add(task)
        task.add_done_callback(lane.drivers.discard)

    async def _drive(self, lane: _Lane) -> None:
        """One worker's life: started, given the lane's jobs in turn until it fails or
        everything stops, then killed; one that failed is replaced at once (so that
        the next decision need not wait for a start) and collected."""
        worker: _Worker | None = None
        # Whether it ended by failing (not by being cancelled: then nothing is awaited).
        failed = ready = False
        try:
            try:
                worker = self._launch(lane)
                await asyncio.wait_for(worker.connect(), START_SECONDS)
            except Exception as exc:  # whatever it is, the work waiting must not hang on it
                log.error("a worker for bots could not start (%s)", type(exc).__name__)
                # Each failed start costs one decision its bot: bounded, whatever the cause.
                job = self._choose(lane)
                if job is not None:
                    self._finish(job, None)
                failed = True
                return
            finally:
                lane.starting -= 1
            ready = True
            while not self._closed:
                job = await self._take(lane)
                if job.future.done():
                    self._ended(lane, job, None)  # dropped between being handed over and now
                    continue
                if not await self._run(worker, job, lane):
                    failed = True
                    return
        finally:
            lane.alive -= 1
            if worker is not None:
                worker.kill()
                lane.workers.discard(worker)
            if failed and not self._closed:
                if ready and lane.alive < lane.size:
                    self._start(lane)
                # A worker that could not start is tried again only for work it could take.
                self._dispatch(lane)
                if worker is not None and await worker.exited():
                    self._processes.discard(worker.process)

    def _launch(self, lane: _Lane) -> _Worker:
        """A new worker process of ``lane``, started (it says when it is ready)."""
        ours, theirs = socket.socketpair()
        try:
            process = self._context.Process(
                target=work,
                args=(theirs, self.plugins, NICE[lane.name]),
                name=f"oriflamme-bots-{lane.name}",
                daemon=True,
            )
            process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # the worker has its own copy
        self._processes.add(process)
        worker = _Worker(process, ours)
        lane.workers.add(worker)
        return worker

    async def _take(self, lane: _Lane) -> _Job:
        """The job ``lane`` runs next (:meth:`_choose`), waiting for one."""
        job = self._choose(lane)
        if job is not None:
            self._pick(lane, job)
            return job
        waiter: asyncio.Future[_Job] = asyncio.get_running_loop().create_future()
        lane.idle.append(waiter)
        try:
            return await waiter
        finally:
            with contextlib.suppress(ValueError):
                lane.idle.remove(waiter)

    async def _run(self, worker: _Worker, job: _Job, lane: _Lane) -> bool:
        """Runs ``job`` on ``worker``, counting the time against its client and table;
        False if the worker failed and must be replaced."""
        started = time.monotonic()
        try:
            return await self._answer(worker, job)
        finally:
            self._ended(lane, job, time.monotonic() - started)

    async def _answer(self, worker: _Worker, job: _Job) -> bool:
        try:
            reply = await asyncio.wait_for(worker.ask(job.payload), self.limits.bot_timeout)
            if not isinstance(reply, dict) or reply.get("id") != job.number:
                raise ValueError("a worker's reply is not to its question")
        except TimeoutError:
            log.warning(
                "game %s: the %s bot took over %gs; its worker is replaced",
                job.table,
                job.kind,
                self.limits.bot_timeout,
            )
            self._finish(job, None)
            return False
        except Exception as exc:  # a worker gone or out of step: the job must not hang on it
            log.warning(
                "game %s: the %s bot's worker stopped (%s); it is replaced",
                job.table,
                job.kind,
                type(exc).__name__,
            )
            self._finish(job, None)
            return False
        if "failed" in reply:
            # The kind of failure only: its message might name what the bot saw.
            log.warning(
                "game %s: the %s bot failed (%s)", job.table, job.kind, cut(str(reply["failed"]))
            )
            self._finish(job, None)
        else:
            self._finish(job, reply.get("answer"))
        return True


@attrs.define(eq=False)
class _Job:
    """One decision to make: the pickled question and the future its answer goes to."""

    number: int
    table: str
    client: str  # whose share of the lane it is counted in
    kind: str
    payload: bytes
    future: asyncio.Future[object | None]


@attrs.define(eq=False)
class _Client:
    """One client's share of a lane: its tables' decisions waiting and running, and the
    thinking time it and each of its tables have had."""

    queue: OrderedDict[str, _Job] = attrs.field(factory=OrderedDict)
    # Each decision running, and when it was handed to a worker.
    running: dict[_Job, float] = attrs.field(factory=dict)
    used: float = 0.0
    # Thinking seconds each table has had, and the least of those served so far.
    tables: dict[str, float] = attrs.field(factory=dict)
    floor: float = 0.0

    def had(self, now: float) -> float:
        """The thinking seconds had by ``now``: those counted, and those of its decisions
        running so far."""
        return self.used + sum(now - started for started in self.running.values())

    def next(self, costs: Mapping[str, float]) -> _Job:
        """The job of the table that has had the least thinking time plus its decision's
        cost, the one that has waited longest between equals (one must be waiting)."""
        tables = self.tables
        return min(
            self.queue.values(),
            key=lambda job: tables.get(job.table, 0.0) + costs.get(job.kind, 0.0),
        )


@attrs.define(eq=False)
class _Lane:
    """One lane's clients and their work, its idle workers and its workers' drivers."""

    name: Lane
    size: int
    clients: dict[str, _Client] = attrs.field(factory=dict)
    idle: deque[asyncio.Future[_Job]] = attrs.field(factory=deque)
    drivers: set[asyncio.Task[None]] = attrs.field(factory=set)
    workers: set[_Worker] = attrs.field(factory=set)
    # The least thinking time of the clients served so far.
    floor: float = 0.0
    # When each client last asked for a decision, for ALONE_SECONDS.
    asked: dict[str, float] = attrs.field(factory=dict)
    # What a decision of each bot kind (as written) has been taking, recent ones most.
    costs: OrderedDict[str, float] = attrs.field(factory=OrderedDict)
    alive: int = 0  # drivers not yet ended
    starting: int = 0  # of them, those whose worker is not yet ready

    def ready(self, caps: Callable[[str], float]) -> int:
        """How many jobs waiting could be run now, at most ``caps(client)`` of a client's
        at once."""
        return sum(
            int(max(0, min(len(client.queue), caps(name) - len(client.running))))
            for name, client in self.clients.items()
        )

    def cost(self, kind: str, took: float) -> None:
        """Counts a decision of ``kind`` that took ``took`` seconds (the kinds last used
        are kept, at most :data:`KINDS` of them)."""
        known = self.costs.pop(kind, None)
        self.costs[kind] = took if known is None else 0.7 * known + 0.3 * took
        if len(self.costs) > KINDS:
            self.costs.popitem(last=False)


class _Worker:
    """The server's end of one worker process."""

    def __init__(self, process: BaseProcess, sock: socket.socket) -> None:
        self.process = process
        self.sock = sock
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.killed = False

    async def connect(self) -> None:
        """Waits until the worker says it is ready."""
        self.reader, self.writer = await asyncio.open_unix_connection(sock=self.sock)
        hello = await _read(self.reader)
        if not isinstance(hello, dict) or hello.get("ready") != self.process.pid:
            raise ValueError("a worker's first words are not that it is ready")

    async def ask(self, payload: bytes) -> Any:
        if self.reader is None or self.writer is None:
            raise ConnectionError("the worker is not connected")
        self.writer.write(_HEADER.pack(len(payload)) + payload)
        await self.writer.drain()
        return await _read(self.reader)

    def kill(self) -> None:
        """Stops the process at once (it holds nothing worth saving) and closes its pipe."""
        if self.killed:
            return
        self.killed = True
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        if self.writer is not None:
            self.writer.close()
        else:
            self.sock.close()

    async def exited(self) -> bool:
        """Waits, without blocking the loop, until the killed process is gone and
        collected: whether it is (else :meth:`Thinkers.close` collects it)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + EXIT_SECONDS
        try:
            sentinel = self.process.sentinel
        except ValueError:
            return True  # collected already
        gone = loop.create_future()

        def done() -> None:
            if not gone.done():
                gone.set_result(None)

        loop.add_reader(sentinel, done)
        try:
            await asyncio.wait_for(gone, EXIT_SECONDS)
        except TimeoutError:
            return False
        finally:
            loop.remove_reader(sentinel)
        # Its pipe closes as it ends, a moment before it can be collected.
        while not _reap(self.process, 0.0):
            if loop.time() > deadline:
                return False
            await asyncio.sleep(0.01)
        return True


def _reap(process: BaseProcess, seconds: float) -> bool:
    """Collects a killed process's exit, waiting at most ``seconds``: whether it is."""
    try:
        process.join(seconds)
        if process.exitcode is None:
            return False
        process.close()
    except ValueError:
        pass  # collected already
    return True


async def _read(reader: asyncio.StreamReader) -> Any:
    (size,) = _HEADER.unpack(await reader.readexactly(_HEADER.size))
    if size > MAX_REPLY:
        raise ValueError(f"a worker's reply of {size} bytes")
    return json.loads(await reader.readexactly(size))


# What crosses to a worker.


def dump_observation(observation: Observation) -> bytes:
    """``observation`` as a worker reads it back (:func:`load_observation`): its
    fields, plain data (no rules: the worker's registry has its own)."""
    return pickle.dumps(observation, protocol=pickle.HIGHEST_PROTOCOL)


def load_observation(data: bytes) -> Observation:
    """The observation :func:`dump_observation` made. An observation is made again from
    its fields, each checked to be of its type and to fit the others (see
    ``Observation.__reduce__``): never a bot deciding from something else."""
    observation = pickle.loads(data)
    if not isinstance(observation, Observation):
        raise ValueError(f"an observation was expected, not a {type(observation).__name__}")
    return observation


# The worker's side.


def work(sock: socket.socket, plugins: Plugins, nice: int) -> None:
    """A worker process's life: answer each question that comes on ``sock`` until the
    server closes it (or is gone)."""
    # Ctrl+C in a terminal reaches every process of the group: the server stops its
    # workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(nice)
    threading.Thread(target=_orphaned, args=(os.getppid(),), daemon=True).start()
    thinker = _Thinker(plugins)
    thinker.registry(())  # every plugin loaded before any decision's clock starts
    # The server gone (its end of the pipe closed): nothing more to do, nobody to tell.
    with contextlib.suppress(OSError):
        _send(sock, {"ready": os.getpid()})
        while (question := _receive(sock)) is not None:
            _send(sock, thinker.answer(question))


def _orphaned(parent: int) -> None:
    # A server killed outright cannot stop its workers: each stops itself, even in the
    # middle of a search that would never end.
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


class _Thinker:
    """A worker's bots, and the registries they play by."""

    def __init__(self, plugins: Plugins) -> None:
        self.plugins = plugins
        self._registries: OrderedDict[frozenset[str], Registry] = OrderedDict()

    def registry(self, without: tuple[str, ...]) -> Registry:
        """The server's registry without ``without``, made as the server makes it."""
        key = frozenset(without)
        found = self._registries.get(key)
        if found is None:
            named = {name for name, _ in self.plugins.modules}
            # A plugin given by name is left out by not registering it: a registry
            # refuses to leave out a name it does not know of.
            found = Registry(entry_points=self.plugins.entry_points, exclude=sorted(key - named))
            for name, module in self.plugins.modules:
                if name not in key:
                    found.register(importlib.import_module(module), name)
            if len(self._registries) >= REGISTRIES:
                self._registries.popitem(last=False)
        else:
            self._registries.move_to_end(key)
        self._registries[key] = found
        return found

    def answer(self, question: bytes) -> dict[str, Any]:
        number, kind, without, seed, observation = pickle.loads(question)
        try:
            registry = self.registry(without)
            bot = make_bot(kind, registry, random.Random(seed))
            answer = bot.choose(load_observation(observation))
            json.dumps(answer)  # as it is sent: a bot's answer that JSON cannot carry fails
        # A bot's failure is its decision's, not the worker's: even sys.exit().
        except (Exception, SystemExit) as exc:
            return {"id": number, "failed": type(exc).__name__}
        return {"id": number, "answer": answer}


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message).encode()
    sock.sendall(_HEADER.pack(len(data)) + data)


def _receive(sock: socket.socket) -> bytes | None:
    header = _exactly(sock, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    return _exactly(sock, size)


def _exactly(sock: socket.socket, size: int) -> bytes | None:
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(min(size - len(data), 1 << 16))
        if not chunk:
            return None
        data += chunk
    return bytes(data)
