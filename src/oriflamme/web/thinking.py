"""Where bots think: in worker processes, never in the server's own.

A bot's search holds the interpreter's lock for as long as it runs, and a thread
cannot be stopped: searching in the server's process, a few long searches held up
every request. So each decision goes to a worker process as plain data: the family's
:class:`~oriflamme.Observation` (never the game), the bot kind as its text, the
plugins left out and the seed. The worker makes the bot exactly as the server would
(``make_bot(kind, registry, random.Random(seed))``), so it gives the same answer: a
restarted server plays on exactly as the first would have.

**Lanes.** Workers are split in two lanes: :attr:`Lane.PEOPLE`, games with at least
one person (someone is waiting on these bots), and :attr:`Lane.BOTS`, games of bots
alone. The people lane has half the workers (at least one), the bots lane the rest;
and one more worker, :attr:`Lane.QUICK`, takes the people lane's decisions whose bot
kind has been deciding in under :data:`QUICK_SECONDS` (``random`` and ``heuristic``
from the start), so a person playing quick bots never waits behind another game's
search, which cannot be stopped half-way. Workers run below the server's priority
(``nice`` +5 for the people's lanes, +19 for the bots lane): the server's own
requests get the CPU first, then the bots a person is waiting on, then games of bots
alone.

**Fairness.** In a lane, tables share the workers' time, not their turns: a table has
at most one decision queued or running, and the next decision run is the one that
would finish first if each table's thinking so far were counted: the least thinking
time had plus the time a decision of its bot kind has been taking (first come, first
served between equals). A table of quick bots is then served at once beside tables
whose bots search for seconds, even before each of those has had a first turn, and
one table of expensive bots cannot starve the others. Time spent waiting (on a person,
or for a turn) earns nothing: a table asking again starts from the least thinking
time of the tables served so far, as a newcomer does.

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
from collections.abc import Mapping
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
    """The worker processes bots think in, in two lanes (see the module's text).

    ``limits`` gives the number of workers (``bot_workers``, at least 2) and
    ``bot_timeout``; ``plugins`` (plugin name to module) and ``entry_points`` are what
    the server's registries are made of: each worker makes the same ones. Workers are
    started when there is work for them, and kept. Use it from one event loop.
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
        people = max(1, limits.bot_workers // 2)
        bots = max(1, limits.bot_workers - people)
        self._lanes = {
            Lane.PEOPLE: _Lane(Lane.PEOPLE, people),
            Lane.QUICK: _Lane(Lane.QUICK, 1),
            Lane.BOTS: _Lane(Lane.BOTS, bots),
        }
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
    ) -> object | None:
        """The answer of a bot of ``kind`` (``ismcts:iterations=2000``) made with
        ``random.Random(seed)`` for a game of the registry without ``without``, to
        ``observation``, as JSON values (a placement as a list); None if the bot failed
        or took longer than ``bot_timeout``. Raises :class:`Dropped` if the table is
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
        job = _Job(self._numbers, table, kind, payload, asyncio.get_running_loop().create_future())
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
            lane.used.pop(table, None)
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
        lane.used[job.table] = max(lane.used.get(job.table, 0.0), lane.floor)
        while lane.idle:
            waiter = lane.idle.popleft()
            if not waiter.done():
                waiter.set_result(job)
                return
        lane.queue[job.table] = job
        # A worker for each job waiting, as long as the lane has room for one.
        if lane.starting < len(lane.queue) and lane.alive < lane.size:
            self._start(lane)

    def _forget(self, job: _Job) -> None:
        if self._jobs.get(job.table) is job:
            del self._jobs[job.table]
        for lane in self._lanes.values():
            if lane.queue.get(job.table) is job:
                del lane.queue[job.table]

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
                if lane.queue:
                    self._finish(next(iter(lane.queue.values())), None)
                failed = True
                return
            finally:
                lane.starting -= 1
            ready = True
            while not self._closed:
                job = await self._take(lane)
                if job.future.done():
                    continue  # dropped between being handed over and now
                if not await self._run(worker, job, lane):
                    failed = True
                    return
        finally:
            lane.alive -= 1
            if worker is not None:
                worker.kill()
                lane.workers.discard(worker)
            if failed and not self._closed:
                # A worker that could not start is tried again only for work waiting.
                if (ready or lane.queue) and lane.alive < lane.size:
                    self._start(lane)
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
        """The job of the table in ``lane`` that has had the least thinking time, the
        one that has waited longest between equals (waiting for one)."""
        if lane.queue:
            used, costs, queue = lane.used, lane.costs, lane.queue
            table = min(
                queue, key=lambda name: used.get(name, 0.0) + costs.get(queue[name].kind, 0.0)
            )
            lane.floor = max(lane.floor, used.get(table, 0.0))
            return queue.pop(table)
        waiter: asyncio.Future[_Job] = asyncio.get_running_loop().create_future()
        lane.idle.append(waiter)
        try:
            return await waiter
        finally:
            with contextlib.suppress(ValueError):
                lane.idle.remove(waiter)

    async def _run(self, worker: _Worker, job: _Job, lane: _Lane) -> bool:
        """Runs ``job`` on ``worker``, counting the time against its table; False if the
        worker failed and must be replaced."""
        started = time.monotonic()
        try:
            return await self._answer(worker, job)
        finally:
            took = time.monotonic() - started
            if job.table in lane.used:  # not dropped meanwhile
                lane.used[job.table] += took
            lane.cost(job.kind, took)

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
    kind: str
    payload: bytes
    future: asyncio.Future[object | None]


@attrs.define(eq=False)
class _Lane:
    """One lane's queue of tables, its idle workers and its workers' drivers."""

    name: Lane
    size: int
    queue: OrderedDict[str, _Job] = attrs.field(factory=OrderedDict)
    idle: deque[asyncio.Future[_Job]] = attrs.field(factory=deque)
    drivers: set[asyncio.Task[None]] = attrs.field(factory=set)
    workers: set[_Worker] = attrs.field(factory=set)
    # Thinking seconds each table has had, and the least of those served so far.
    used: dict[str, float] = attrs.field(factory=dict)
    floor: float = 0.0
    # What a decision of each bot kind (as written) has been taking, recent ones most.
    costs: OrderedDict[str, float] = attrs.field(factory=OrderedDict)
    alive: int = 0  # drivers not yet ended
    starting: int = 0  # of them, those whose worker is not yet ready

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
