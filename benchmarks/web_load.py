"""Load on the web server: many games at once, people answering and websockets watching.

Starts ``oriflamme serve`` on 127.0.0.1 (a free port) with its games in ``--db``:
``sqlite`` (the default), a fresh SQLite file in a temporary folder; ``postgresql``, a
fresh database on a throwaway PostgreSQL cluster of its own (tests/postgres.py), stopped
at the end; or ``postgresql://USER@HOST:PORT/NAME``, an existing database, used as is.
``--workers N`` runs ``oriflamme serve --workers N``: a supervisor and N server
processes sharing the port. Then ``--clients`` threads each play games to the end
through the JSON API: for the seat asked, get its view, then post one of its answers at
random (seeded) with the view's step. One websocket per seat and one spectator's take
every view pushed; ``--bot-games`` games of four random bots run beside them, each
watched by one websocket (a game of bots alone plays only while watched). Bounded by
``--games`` and ``--seconds``.

Prints the server's options and store, how idle the machine was just before the load
(anything else running skews the figures) and its load average before and at the end,
games finished, answers a second (to the last answer), the latency of an answer (p50,
p95, p99), frames pushed, the websockets still without their game's end 5 s after the
load (a frame the server never pushed),
errors (anything but a success; there must be none), and the CPU used by this client,
the server processes (their sum, and each one's share when there are several, so an
uneven spread shows), the supervisor (with ``--workers``), the bots' workers (every
server process's), and the PostgreSQL cluster (its postmaster and every child) when it
is this script's own: the client runs on the same machine, so a reader can tell
whether the figure is the server's limit, the database's or the client's.

    .venv/bin/python benchmarks/web_load.py --clients 16 --games 64 --bot-games 16
    .venv/bin/python benchmarks/web_load.py --clients 16 --games 64 --bot-games 16 \\
        --db postgresql --workers 2

``--profile FILE`` samples the server processes with py-spy (``pip install py-spy``)
while the load runs, keeps their stacks in FILE (collapsed, one stack a line) and
prints the functions they spend their time in, by self and by cumulative time.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import json
import os
import random
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.postgres import Cluster, available
from tests.web_server import TIMEOUT, call, server_process

from oriflamme.simulate import progress_bar
from oriflamme.web.store import POOL_SIZE

#: Server options of this load: the limits a hosted server keeps against one client
#: flooding it are lifted, since here every client is the benchmark, on one address
#: (and the server these figures are compared with had none).
SERVE = (
    "--create-rate",
    "0/1",
    "--answer-rate",
    "0/1",
    "--websockets-per-address",
    "1000000",
    "--connections-per-address",
    "1000000",
)
#: A frame in this share of the profile's samples or more is the server's trunk.
TRUNK = 0.9
#: Clock ticks a second, the unit of CPU times in /proc/<pid>/stat.
TICKS = os.sysconf("SC_CLK_TCK")
#: The stores ``--db`` names (besides a PostgreSQL URL): a fresh SQLite file, a fresh
#: database on a throwaway cluster.
STORES = ("sqlite", "postgresql")
#: Seconds the machine is watched, just before the load, for what else keeps it busy.
IDLE_SECONDS = 2.0
#: Seconds the websockets of games over are given, once the load is, for the last
#: frames on their way; one still waiting then is listed.
LATE_SECONDS = 5.0


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.games = 0
        self.bot_games = 0
        self.frames = 0
        #: When the last answer was answered (``time.perf_counter()``).
        self.last_answer = 0.0
        #: The websockets the run's end stopped before their game's end came.
        self.waiting: list[str] = []
        #: The websockets of games of people that are over, still open until each has
        #: its game's end.
        self.watchers: list[threading.Thread] = []
        self.errors: list[str] = []

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


def serve_options(extra: str) -> list[str]:
    """:data:`SERVE` with ``extra`` (shell words) after it: a later option wins."""
    return [*SERVE, *shlex.split(extra)]


def percentiles(values: Sequence[float], *cuts: int) -> list[float]:
    """The ``cuts`` percentiles of ``values`` (0 for each when there are fewer than two)."""
    if len(values) < 2:
        return [values[0] if values else 0.0] * len(cuts)
    found = statistics.quantiles(values, n=100, method="inclusive")
    return [found[cut - 1] for cut in cuts]


def _cpu(pid: int) -> tuple[int, float] | None:
    """Process ``pid``'s parent and the CPU seconds it has used (user and system, all
    its threads), or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command's name, in brackets, may hold spaces: the fields follow its ")".
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def _scheduled(pid: int) -> float | None:
    """CPU seconds process ``pid``'s main thread has run, from /proc/<pid>/schedstat: the
    scheduler's own count in nanoseconds, where /proc/<pid>/stat samples clock ticks and
    misses much of a PostgreSQL backend's short bursts (its processes have one thread)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def _processes() -> dict[int, tuple[int, float]]:
    """Every process's parent and CPU seconds (see :func:`_cpu`), by its id."""
    seen = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            found = _cpu(int(entry.name))
            if found is not None:
                seen[int(entry.name)] = found
    return seen


def _descendants(root: int, seen: dict[int, tuple[int, float]]) -> set[int]:
    """``root`` and every process under it, among ``seen``."""
    tree = {root}
    grown = True
    while grown:  # process ids are in no order: grow the tree until it stops
        grown = False
        for pid, (parent, _) in seen.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grown = True
    return tree & seen.keys()


def _tracker(pid: int) -> bool:
    """Whether ``pid`` is multiprocessing's resource tracker, which a process starts
    beside the first process it spawns (the supervisor's, or a lone server's)."""
    try:
        return b"multiprocessing.resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def server_processes(root: int, workers: int, timeout: float = 60.0) -> list[int]:
    """The ids of the processes serving requests: ``root`` itself when ``workers`` is 1,
    else its ``workers`` children (not its resource tracker), once they have all started
    and settled (their CPU time still for half a second: each imports the app first,
    and that is no part of the load)."""
    if workers == 1:
        return [root]
    deadline = time.monotonic() + timeout
    before: dict[int, float] = {}
    while time.monotonic() < deadline:
        seen = _processes()
        found = {
            pid: seconds
            for pid, (parent, seconds) in seen.items()
            if parent == root and not _tracker(pid)
        }
        # One tick or less each in half a second: started and waiting for requests.
        if len(found) == workers and all(
            pid in before and seconds - before[pid] <= 1.5 / TICKS for pid, seconds in found.items()
        ):
            return sorted(found)
        before = found
        time.sleep(0.5)
    raise RuntimeError(f"oriflamme serve did not start its {workers} server processes")


def _loads(averages: tuple[float, float, float]) -> str:
    """The system's load averages over 1, 5 and 15 minutes, as ``uptime`` shows them."""
    return "{:.2f}, {:.2f}, {:.2f} (1, 5, 15 min)".format(*averages)


def machine_idle(seconds: float) -> float:
    """The share of the machine's CPU time (all its cores) idle over the next ``seconds``."""
    busy, idle = _machine()
    time.sleep(seconds)
    busy_after, idle_after = _machine()
    return (idle_after - idle) / max(1e-9, busy_after - busy + idle_after - idle)


def _machine() -> tuple[float, float]:
    """CPU seconds the whole machine has been busy and idle, over all its cores."""
    with open("/proc/stat") as stat:
        ticks = [int(field) for field in stat.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal (guest time is in user already)
    idle = ticks[3] + ticks[4]
    return (sum(ticks[:8]) - idle) / TICKS, idle / TICKS


SERVER, SUPERVISOR, BOTS, POSTGRES = "server", "supervisor", "bots", "postgres"


class CpuMeter:
    """CPU used from now on by this process (the client), the server's processes, their
    bots' workers, and the PostgreSQL cluster when ``postgres`` (its postmaster's id) is
    given, read from /proc (no psutil needed).

    ``server`` is the process ``oriflamme serve`` runs in: with ``workers`` 1 it serves
    and its children are the bots' workers; with more, it is the supervisor, its children
    are the server processes and theirs the bots' workers. multiprocessing's resource
    tracker goes with the supervisor (with the server when there is none).

    The processes are sampled every second: one started during the run (a bot worker, a
    backend) is seen, and one that ends is counted up to its last sample."""

    def __init__(self, server: int, workers: int = 1, postgres: int | None = None) -> None:
        self.server = server
        self.workers = workers
        self.postgres = postgres
        self._client = time.process_time()
        self._machine = _machine()
        self._started = time.perf_counter()
        self._roles: dict[int, str] = {}
        self._first: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._stop = threading.Event()
        self._sample(first=True)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _role(self, pid: int, parent: int) -> str:
        if pid not in self._roles:
            if pid == self.server or _tracker(pid):
                role = SERVER if self.workers == 1 else SUPERVISOR
            elif parent == self.server and self.workers > 1:
                role = SERVER
            else:
                role = BOTS
            self._roles[pid] = role
        return self._roles[pid]

    def _sample(self, first: bool = False) -> None:
        seen = _processes()
        used = {pid: seen[pid][1] for pid in _descendants(self.server, seen)}
        for pid in used:
            self._role(pid, seen[pid][0])
        if self.postgres is not None:
            for pid, (parent, _) in seen.items():
                if self.postgres in (pid, parent):
                    scheduled = _scheduled(pid)
                    if scheduled is not None:
                        self._roles[pid] = POSTGRES
                        used[pid] = scheduled
        for pid, seconds in used.items():
            self._last[pid] = seconds
            if first:
                self._first[pid] = seconds

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            self._sample()

    def stop(self) -> str:
        """Stops measuring: each part's CPU seconds and share of one core, and what the
        rest of the machine used meanwhile (anything else running skews the figures)."""
        self._stop.set()
        self._thread.join()
        self._sample()
        wall = time.perf_counter() - self._started
        busy = _machine()[0] - self._machine[0]
        client = time.process_time() - self._client
        used = {pid: self._last[pid] - self._first.get(pid, 0.0) for pid in self._last}
        by_role: dict[str, list[float]] = collections.defaultdict(list)
        for pid in sorted(used):
            by_role[self._roles[pid]].append(used[pid])
        cores = os.cpu_count() or 1

        def share(seconds: float) -> str:
            return f"{100 * seconds / wall:.0f}%"

        def part(name: str, seconds: float) -> str:
            return f"{name} {seconds:.1f} s ({share(seconds)})"

        servers = by_role[SERVER]
        if self.workers == 1:
            parts = [part("server", sum(servers))]
        else:
            each = ", ".join(share(seconds) for seconds in servers)
            parts = [
                f"server ({len(servers)} processes) {sum(servers):.1f} s "
                f"({share(sum(servers))}: {each})",
                part("supervisor", sum(by_role[SUPERVISOR])),
            ]
        bots = by_role[BOTS]
        parts.append(part(f"bot workers ({len(bots)} processes)", sum(bots)))
        if self.postgres is not None:
            database = by_role[POSTGRES]
            parts.append(part(f"PostgreSQL ({len(database)} processes)", sum(database)))
        total = client + sum(used.values())
        return (
            f"CPU over {wall:.1f} s, as a share of one core ({cores} cores: "
            f"{100 * cores}% in all): {part('client', client)}, {', '.join(parts)}; "
            f"together {100 * total / wall:.0f}%; "
            f"{part('the rest of the machine', max(0.0, busy - total))}"
        )


class Profile:
    """py-spy sampling the server processes until :meth:`stop`, their stacks kept in
    ``path`` (collapsed: one stack a line, outermost frame first, then its count; the
    processes' stacks one after the other, so that a function's counts add up)."""

    def __init__(self, pids: Sequence[int], path: Path) -> None:
        spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        self.path = path
        # One py-spy a process, each its own file (py-spy's --subprocesses would take in
        # the bots' workers too).
        self.parts = (
            [path] if len(pids) == 1 else [path.with_name(f"{path.name}.{pid}") for pid in pids]
        )
        # --function: one frame per function (not per line), so functions add up.
        self.processes = [
            subprocess.Popen(
                [spy, "record", "--pid", str(pid), "--format", "raw", "--function"]
                + ["--rate", "100", "--output", str(part)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for pid, part in zip(pids, self.parts, strict=True)
        ]

    def stop(self, top: int = 15) -> list[str]:
        """Stops sampling: the ``top`` functions by self time, then by cumulative time."""
        for process in self.processes:
            process.send_signal(signal.SIGINT)  # as Ctrl+C: py-spy writes its file
        for process in self.processes:
            process.wait(60)
        for part in self.parts:
            if not part.exists():
                raise RuntimeError(f"py-spy wrote no {part} (is it installed?)")
        if self.parts != [self.path]:
            self.path.write_text("".join(part.read_text() for part in self.parts))
            for part in self.parts:
                part.unlink()
        own: collections.Counter[str] = collections.Counter()
        within: collections.Counter[str] = collections.Counter()
        total = 0
        for line in self.path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            frames = stack.split(";")
            total += int(count)
            own[frames[-1]] += int(count)
            for frame in set(frames):  # a function recursing counts once in a stack
                within[frame] += int(count)
        # The trunk every request runs under (the event loop, uvicorn's server, the
        # command line) tells nothing: left out of the cumulative list.
        trunk = {frame for frame, count in within.items() if count >= TRUNK * total}
        for frame in trunk:
            del within[frame]
        of = f" of {len(self.processes)} processes" if len(self.processes) > 1 else ""
        lines = [
            f"server profile: {total} samples{of}, the event loop's idle waits left out "
            f"({len(trunk)} frames under which {100 * TRUNK:.0f}% or more of the time went "
            "left out of the cumulative list)"
        ]
        for title, counter in (("self", own), ("cumulative", within)):
            lines.append(f"top {top} by {title} time:")
            lines += [
                f"  {100 * count / max(1, total):5.1f}%  {frame}"
                for frame, count in counter.most_common(top)
            ]
        return lines


#: Each client thread's connection to the server, kept open between its requests as a
#: browser keeps its own (``--new-connections``: one connection a request).
_CONNECTIONS = threading.local()
NEW_CONNECTIONS = False


def request(method: str, url: str, body: object = None, token: str | None = None) -> Any:
    if NEW_CONNECTIONS:
        status, found, _ = call(method, url, body, token=token)
        return status, found
    parts = urllib.parse.urlsplit(url)
    connection = getattr(_CONNECTIONS, "connection", None)
    if connection is None:
        connection = _CONNECTIONS.connection = http.client.HTTPConnection(
            parts.netloc, timeout=TIMEOUT
        )
        connection.connect()
        # Small requests go out at once, as a browser's do (no wait for an ACK).
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    data = json.dumps(body).encode() if body is not None else None
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read()
    except (OSError, http.client.HTTPException):
        # The server closed an idle connection: a browser opens another and sends again.
        connection.close()
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read()
    try:
        return response.status, json.loads(text)
    except ValueError:
        return response.status, None


def watch(url: str, token: str | None, tally: Tally, stop: threading.Event, what: str) -> bool:
    """One websocket (``token``'s seat, None: a spectator) on the game ``what`` names:
    counts frames until the game is over (True) or the run is (False)."""
    try:
        with connect(url, open_timeout=30) as socket:
            socket.send(json.dumps({"token": token}))
            while not stop.is_set():
                try:
                    view = json.loads(socket.recv(timeout=1))
                except TimeoutError:
                    continue
                if "error" in view:
                    tally.error(f"websocket: {view['error']}")
                    return False
                with tally.lock:
                    tally.frames += 1
                if view["phase"] == "end":
                    return True
            with tally.lock:
                tally.waiting.append(what)
    except Exception as exc:
        tally.error(f"websocket: {type(exc).__name__}: {exc}")
    return False


def play_game(url: str, seed: int, tally: Tally, stop: threading.Event) -> None:
    rng = random.Random(seed)
    families = 3 + seed % 3
    sets = (["base"], ["ablaze"], ["base", "ablaze"])[seed % 3]
    status, made = request(
        "POST", f"{url}/api/games", {"families": families, "sets": sets, "size": 10, "seed": seed}
    )
    if status != 201:
        tally.error(f"create: {status} {made!r:.200}")
        return
    game, tokens = made["id"], made["seats"]
    ws = url.replace("http://", "ws://") + f"/api/games/{game}/ws"
    watchers = [
        threading.Thread(
            target=watch,
            args=(ws, token, tally, stop, f"game {game} of people, seat {family}"),
        )
        for family, token in [*tokens.items(), ("spectator", None)]
    ]
    for thread in watchers:
        thread.start()
    # Whose turn it is comes with each answer's view (waiting_for): no polling.
    status, view = request("GET", f"{url}/api/games/{game}", token=next(iter(tokens.values())))
    while status == 200 and view["phase"] != "end" and not stop.is_set():
        token = tokens[view["waiting_for"]]
        status, view = request("GET", f"{url}/api/games/{game}", token=token)
        if status != 200:
            break
        started = time.perf_counter()
        status, view = request(
            "POST",
            f"{url}/api/games/{game}/answer",
            {"answer": rng.choice(view["answers"]), "step": view["step"]},
            token=token,
        )
        answered = time.perf_counter()
        with tally.lock:
            tally.latencies.append(answered - started)
            tally.last_answer = max(tally.last_answer, answered)
    if status != 200:
        tally.error(f"game {game}: {status} {view!r:.200}")
    elif view["phase"] == "end":
        with tally.lock:
            tally.games += 1
    # Not waited for here: the load is the answers, and a frame the server never pushes
    # would hold this client, and stretch the run, until the run's end.
    with tally.lock:
        tally.watchers += watchers


def bot_game(url: str, seed: int, tally: Tally, stop: threading.Event) -> None:
    bots = dict.fromkeys(["red", "blue", "green", "yellow"], "random")
    status, made = request("POST", f"{url}/api/games", {"families": 4, "seed": seed, "bots": bots})
    if status != 201:
        tally.error(f"create bot game: {status} {made!r:.200}")
        return
    ws = url.replace("http://", "ws://") + f"/api/games/{made['id']}/ws"
    if watch(ws, None, tally, stop, f"game {made['id']} of bots"):
        with tally.lock:
            tally.bot_games += 1


def store_option(text: str) -> str:
    """``--db``: one of :data:`STORES`, or a PostgreSQL URL."""
    if text in STORES or text.startswith(("postgresql://", "postgres://")):
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r}: expected sqlite, postgresql or postgresql://USER@HOST:PORT/NAME"
    )


def workers_option(text: str) -> int:
    """``--workers``: a number of server processes, 1 or more."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number of processes, 1 or more")
    return int(text)


@contextlib.contextmanager
def store(chosen: str, folder: Path, workers: int) -> Iterator[tuple[str, str, int | None]]:
    """The store ``--db`` names: what ``serve --db`` is given, how it is shown, and the
    postmaster's process id when the PostgreSQL cluster is this script's own."""
    if chosen == "sqlite":
        path = folder / "g.sqlite3"
        yield str(path), f"a fresh SQLite file ({path})", None
    elif chosen == "postgresql":
        # Each server process keeps a pool of connections and one listening: room for
        # them all, and for psql beside.
        connections = max(100, (POOL_SIZE + 1) * workers + 10)
        with Cluster(settings={"max_connections": str(connections)}) as cluster:
            db = cluster.database("load")
            postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
            yield (
                db,
                f"a fresh database on a throwaway PostgreSQL {cluster.bin.parent.name} "
                f"cluster ({db}; fsync and synchronous_commit on)",
                postmaster,
            )
    else:
        from oriflamme.web.postgres import shown  # noqa: PLC0415 - psycopg: only for PostgreSQL

        yield chosen, f"the existing database {shown(chosen)}", None


def arguments() -> argparse.Namespace:
    """The command line's options, checked (``--new-connections`` set for the clients)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16, help="games played at once")
    parser.add_argument("--games", type=int, default=64, help="games played by people")
    parser.add_argument("--bot-games", type=int, default=16, help="games of bots alone")
    parser.add_argument("--seconds", type=float, default=300, help="stop after this long")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--db",
        type=store_option,
        default="sqlite",
        metavar="STORE",
        help="where the server keeps its games: sqlite (a fresh file in a temporary "
        "folder), postgresql (a fresh database on a throwaway cluster of this script's "
        "own, tests/postgres.py) or postgresql://USER@HOST:PORT/NAME (an existing "
        "database, used as is); default sqlite",
    )
    parser.add_argument(
        "--workers",
        type=workers_option,
        default=1,
        metavar="N",
        help="server processes: oriflamme serve --workers N (default 1)",
    )
    parser.add_argument(
        "--serve",
        default="",
        metavar="OPTIONS",
        help=f"more options for oriflamme serve, after {' '.join(SERVE)} (a later one wins)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="sample the server processes with py-spy into FILE",
    )
    parser.add_argument(
        "--new-connections",
        action="store_true",
        help="open a connection for each request (by default each client keeps its own "
        "open, as a browser does)",
    )
    args = parser.parse_args()
    if args.db == "postgresql" and (reason := available()) is not None:
        parser.error(f"--db postgresql needs a throwaway cluster, and {reason}")
    global NEW_CONNECTIONS  # noqa: PLW0603 - read by every client thread
    NEW_CONNECTIONS = args.new_connections
    return args


def main() -> int:
    args = arguments()
    tally = Tally()
    stop = threading.Event()
    seeds = iter(range(args.seed, args.seed + args.games))
    seeds_lock = threading.Lock()
    show = progress_bar(args.games, sys.stderr)
    options = serve_options(args.serve)
    if args.workers > 1:
        options += ["--workers", str(args.workers)]

    def client(url: str) -> None:
        while not stop.is_set():
            with seeds_lock:
                seed = next(seeds, None)
            if seed is None:
                return
            play_game(url, seed, tally, stop)
            show(tally.games)

    with (
        tempfile.TemporaryDirectory() as folder,
        store(args.db, Path(folder), args.workers) as (db, shown, postmaster),
        server_process(db, options) as (url, server),
    ):
        servers = server_processes(server.pid, args.workers)
        idle, before = machine_idle(IDLE_SECONDS), os.getloadavg()
        profile = Profile(servers, args.profile) if args.profile else None
        cpu = CpuMeter(server.pid, args.workers, postmaster)
        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(url,)) for _ in range(args.clients)]
        threads += [
            threading.Thread(target=bot_game, args=(url, 10_000 + n, tally, stop))
            for n in range(args.bot_games)
        ]
        for thread in threads:
            thread.start()
        deadline = started + args.seconds
        for thread in threads:
            thread.join(max(0.0, deadline - time.perf_counter()))
        seconds, usage, during = time.perf_counter() - started, cpu.stop(), os.getloadavg()
        profiled = profile.stop() if profile is not None else []
        late = time.perf_counter() + LATE_SECONDS
        for thread in tally.watchers:
            thread.join(max(0.0, late - time.perf_counter()))
        stop.set()
        for thread in threads + tally.watchers:
            thread.join(60)
    latencies = sorted(tally.latencies)
    p50, p95, p99 = percentiles(latencies, 50, 95, 99)
    # Answers a second over the time they took, not over a tail of games of bots alone.
    answering = max(1e-9, tally.last_answer - started) if latencies else seconds
    print(f"server: oriflamme serve {' '.join(options)}\nstore: {shown}")
    print(
        f"machine before the load: {100 * idle:.0f}% idle over {IDLE_SECONDS:.0f} s "
        f"({os.cpu_count() or 1} cores); load average {_loads(before)} before, "
        f"{_loads(during)} at the end"
    )
    print(
        f"{tally.games} games by people and {tally.bot_games} of bots ({args.bot_games} started), "
        f"{args.clients} at once, in {seconds:.1f} s"
    )
    print(
        f"answers: {len(latencies)}, {len(latencies) / answering:.0f} a second "
        f"(over {answering:.1f} s, to the last answer)"
    )
    print(
        f"answer latency: p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
    )
    print(f"websocket frames: {tally.frames}")
    if tally.waiting:
        waiting = [f"  {line}" for line in tally.waiting[:10]]
        print(
            f"websockets without their game's end {LATE_SECONDS:.0f} s after the load: "
            f"{len(tally.waiting)}",
            *waiting,
            sep="\n",
        )
    print(usage)
    errors = [f"  {line}" for line in tally.errors[:10]]
    print("\n".join([f"errors: {len(tally.errors)}", *errors, *profiled]))
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
