"""One person's games beside a crowd of bot tables: how long the person waits.

Starts ``oriflamme serve`` on 127.0.0.1 (a free port, a fresh SQLite file in a
temporary folder). One person plays whole games of three families against a
``heuristic`` bot and an ``ismcts`` bot (its default settings), ``--games`` of them one
after another, through the JSON API and a websocket, as the game page does: it answers
(one of its answers at random, seeded, with the view's step) as soon as a view says it
is its turn. The same games (same seeds, same answers) are played:

- on the idle server, where the person's waits are the bots' own thinking time (after
  one untimed round, so that the bots' workers are started and warm);
- beside ``--tables`` tables of bots alone (3 to 5 families; half of them all
  ``heuristic``, half all ``--ismcts``), each watched by one websocket so that it keeps
  playing, and replaced by a new one when it ends; the person comes once the crowd has
  played ``--settle`` seconds.

Prints, for both: the person's answer latency (its POST to the 200: p50, p95, max) and
its wait for its turn (from its answer's 200 to the websocket view where it is its turn
again, when bots played in between: p50, p95, max); the ratio of the waits' p95s (the
goal: under 2); the crowd's decisions a second while the person played; and the CPU
used meanwhile by this client, the server's process, the bots' workers and the rest of
the machine.

    .venv/bin/python benchmarks/web_crowd.py --tables 200 --games 3 --seed 0
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from web_load import CpuMeter, percentiles
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.web_server import call, server_process

from oriflamme import COLOURS
from oriflamme.simulate import progress_bar
from oriflamme.web.limits import Limits

#: The person's game: its seat, and a bot kind for each other family.
PERSON = "red"
OPPONENTS = {"blue": "heuristic", "green": "ismcts"}
#: Crowd tables created at once (each a request, and one the server answers at a time).
CREATING = 8


class Relabel(io.StringIO):
    """Standard error, for a progress bar counting the person's answers, not games."""

    def write(self, text: str, /) -> int:
        return sys.stderr.write(text.replace(" games", " answers"))

    def flush(self) -> None:
        sys.stderr.flush()


class Person:
    """What the person's plays measured, all its games together."""

    def __init__(self) -> None:
        self.answers: list[list[tuple[int, Any]]] = []  # each game's (step, answer)
        self.latencies: list[float] = []
        self.waits: list[float] = []
        self.back_to_back = 0  # answers after which it was the person's turn at once
        self.unfinished = 0
        self.seconds = 0.0

    @property
    def count(self) -> int:
        return sum(len(game) for game in self.answers)


class Crowd:
    """The bot tables: each slot keeps one table playing, watched by one websocket."""

    def __init__(self, url: str, tables: int, ismcts: str, seed: int) -> None:
        self.url = url
        self.tables = tables
        self.ismcts = ismcts
        self.seed = seed
        self.decisions = {"heuristic": 0, "ismcts": 0}
        self.games = 0
        self.errors: list[str] = []
        self.ready = asyncio.Event()
        self._started = 0
        self._creating = asyncio.Semaphore(CREATING)

    def fail(self, what: str) -> None:
        self.errors.append(what)
        self.ready.set()  # nobody waits for a crowd that cannot all start

    async def slot(self, index: int) -> None:
        """Table ``index``, then another in its place each time one ends."""
        first = True
        for seed in range(self.seed + index, 2**31, self.tables):
            families = 3 + index % 3
            kind = "heuristic" if index % 2 == 0 else "ismcts"
            bots = dict.fromkeys(
                COLOURS[:families],
                "heuristic" if kind == "heuristic" else self.ismcts,
            )
            body = {"families": families, "seed": seed, "bots": bots}
            async with self._creating:
                status, made, _ = await asyncio.to_thread(
                    call, "POST", f"{self.url}/api/games", body
                )
            if status != 201:
                self.fail(f"create: {status} {made!r:.200}")
                return
            try:
                async with connect(_ws(self.url, made["id"]), open_timeout=60) as socket:
                    await socket.send(json.dumps({"token": None}))
                    step = None
                    async for frame in socket:
                        view = json.loads(frame)
                        if "error" in view:
                            self.fail(f"websocket: {view['error']}")
                            return
                        if step is None and first:
                            first = False
                            self._started += 1
                            if self._started == self.tables:
                                self.ready.set()
                        # A slow watcher is sent the newest view: steps may be skipped.
                        if step is not None:
                            self.decisions[kind] += view["step"] - step
                        step = view["step"]
                        if view["phase"] == "end":
                            self.games += 1
                            break
            except Exception as exc:
                self.fail(f"websocket: {type(exc).__name__}: {exc}")
                return


def _ws(url: str, game: str) -> str:
    return url.replace("http://", "ws://") + f"/api/games/{game}/ws"


async def play(
    url: str, seed: int, person: Person, deadline: float, show: Callable[[int], None]
) -> None:
    """The person's game, created with ``seed``, played to its end (or the deadline, a
    :func:`time.monotonic` time); what it measured goes to ``person``."""
    rng = random.Random(seed)
    body = {"families": 3, "seed": seed, "bots": OPPONENTS}
    status, made, _ = await asyncio.to_thread(call, "POST", f"{url}/api/games", body)
    if status != 201:
        raise RuntimeError(f"creating the person's game: {status} {made!r:.200}")
    game, token = made["id"], made["seats"][PERSON]
    answers: list[tuple[int, Any]] = []
    person.answers.append(answers)
    started = time.perf_counter()
    async with connect(_ws(url, game), open_timeout=60) as socket:
        await socket.send(json.dumps({"token": token}))
        view = await _next(socket, deadline)
        while True:
            while not view["answers"] and view["phase"] != "end":
                view = await _next(socket, deadline)
            if view["phase"] == "end":
                break
            given = rng.choice(view["answers"])
            answers.append((view["step"], given))
            asked = time.perf_counter()
            status, posted, _ = await asyncio.to_thread(
                call,
                "POST",
                f"{url}/api/games/{game}/answer",
                {"answer": given, "step": view["step"]},
                token=token,
            )
            answered = time.perf_counter()
            if status != 200:
                raise RuntimeError(f"the person's answer: {status} {posted!r:.200}")
            person.latencies.append(answered - asked)
            show(person.count)
            view = posted
            if view["answers"] or view["phase"] == "end":
                person.back_to_back += view["phase"] != "end"
                continue
            # The bots play: the person's turn comes back by the websocket.
            while view["step"] <= posted["step"] or (
                not view["answers"] and view["phase"] != "end"
            ):
                view = await _next(socket, deadline)
            if view["answers"]:
                person.waits.append(time.perf_counter() - answered)
    person.seconds += time.perf_counter() - started


async def _next(socket: ClientConnection, deadline: float) -> Any:
    """The next view the websocket brings; TimeoutError past the deadline."""
    frame = await asyncio.wait_for(socket.recv(), max(0.0, deadline - time.monotonic()))
    view = json.loads(frame)
    if "error" in view:
        raise RuntimeError(f"the person's websocket: {view['error']}")
    return view


def _quiet(done: int) -> None:
    """No progress shown (the plays on the idle server are short)."""


def summary(name: str, person: Person) -> list[str]:
    latency = percentiles(person.latencies, 50, 95)
    waits = percentiles(person.waits, 50, 95)
    return [
        f"{name}: {person.count} answers in {person.seconds:.1f} s",
        f"  answer latency: p50 {latency[0] * 1000:.1f} ms, p95 {latency[1] * 1000:.1f} ms, "
        f"max {max(person.latencies, default=0) * 1000:.1f} ms",
        f"  wait for their turn ({len(person.waits)} waits; {person.back_to_back} turns came "
        f"at once): p50 {waits[0] * 1000:.0f} ms, p95 {waits[1] * 1000:.0f} ms, "
        f"max {max(person.waits, default=0) * 1000:.0f} ms",
    ]


async def run(url: str, server: int, args: argparse.Namespace) -> int:
    deadline = time.monotonic() + args.seconds
    seeds = range(args.seed, args.seed + args.games)
    # Played once untimed first: the bots' workers start and load the engine.
    warm, idle, busy = Person(), Person(), Person()
    for seed in seeds:
        await play(url, seed, warm, deadline, _quiet)
    for seed in seeds:
        await play(url, seed, idle, deadline, _quiet)

    crowd = Crowd(url, args.tables, args.ismcts, args.seed + 1_000)
    slots = [asyncio.ensure_future(crowd.slot(n)) for n in range(args.tables)]
    ready = time.perf_counter()
    await asyncio.wait_for(crowd.ready.wait(), max(0.0, deadline - time.monotonic()))
    ready = time.perf_counter() - ready
    if crowd.errors:
        print(f"errors: {len(crowd.errors)}", *crowd.errors[:10], sep="\n  ")
        return 1
    # The person comes to a server that has been busy a while: its bot workers
    # started, the crowd's first searches under way.
    await asyncio.sleep(args.settle)
    settled = dict(crowd.decisions)
    cpu = CpuMeter(server)
    bar = progress_bar(idle.count, Relabel())
    for seed in seeds:
        await play(url, seed, busy, deadline, bar)
    usage = cpu.stop()
    made = {kind: crowd.decisions[kind] - settled[kind] for kind in settled}
    for task in slots:
        task.cancel()
    await asyncio.gather(*slots, return_exceptions=True)

    idle_p95 = percentiles(idle.waits, 95)[0]
    busy_p95 = percentiles(busy.waits, 95)[0]
    same = warm.answers == idle.answers == busy.answers
    print(f"server: oriflamme serve {' '.join(args.options)}")
    print(
        f"the person: {PERSON} against {OPPONENTS}, {args.games} games one after another "
        f"(seeds {seeds.start} to {seeds.stop - 1}), the same answers each time: "
        f"{'yes' if same else 'NO'}"
    )
    print(*summary("idle server (the bots' own thinking time)", idle), sep="\n")
    print(*summary(f"beside {args.tables} bot tables", busy), sep="\n")
    print(
        f"wait p95 beside the crowd / the bots' own p95: "
        f"{busy_p95 / idle_p95 if idle_p95 else float('inf'):.2f} (goal: under 2)"
    )
    print(
        f"crowd: {args.tables} tables (half heuristic, half {args.ismcts}), all made and "
        f"watched {ready:.1f} s after the first was asked for, then {args.settle:g} s "
        f"({sum(settled.values())} decisions) before the person came; while the person "
        f"played, {sum(made.values()) / busy.seconds:.2f} decisions a second "
        f"(heuristic tables {made['heuristic'] / busy.seconds:.2f}, "
        f"ismcts tables {made['ismcts'] / busy.seconds:.2f}); {crowd.games} crowd games ended"
    )
    print(usage)
    print(f"errors: {len(crowd.errors)}")
    for line in crowd.errors[:10]:
        print(f"  {line}")
    return 1 if crowd.errors or not same else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables of bots alone")
    parser.add_argument(
        "--seconds",
        type=float,
        default=1800,
        help="give up after this long (the whole run)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the person's first game's seed")
    parser.add_argument(
        "--games",
        type=int,
        default=3,
        help="the person's games, one after another (seeds from --seed on; default 3)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=30,
        help="seconds the crowd plays before the person comes (default 30)",
    )
    parser.add_argument(
        "--workers", type=int, help="bot worker processes (--bot-workers; default the server's)"
    )
    parser.add_argument(
        "--ismcts",
        default=f"ismcts:iterations={Limits().bot_iterations}",
        help="the ISMCTS bot of the crowd's tables (default: the server's cap, "
        f"ismcts:iterations={Limits().bot_iterations})",
    )
    args = parser.parse_args()
    # The crowd's tables are all created from this one address.
    args.options = ["--create-rate", "0/1"]
    if args.workers is not None:
        args.options += ["--bot-workers", str(args.workers)]
    with (
        tempfile.TemporaryDirectory() as folder,
        server_process(Path(folder) / "g.sqlite3", args.options) as (url, server),
    ):
        return asyncio.run(run(url, server.pid, args))


if __name__ == "__main__":
    sys.exit(main())
