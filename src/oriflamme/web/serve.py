"""``oriflamme serve``: the web server on uvicorn (the optional extra ``oriflamme[web]``).

This module imports nothing of the extra until the command runs, so the command line
works, and says what to install, without it.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import math
import os
import re
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from oriflamme import ConfigError, OriflammeError
from oriflamme.installed import extra
from oriflamme.text import quote

from . import limits as limits_module
from .limits import Limits, Rate, fields, option
from .sockets import most_pending

#: Connections waiting to be accepted (uvicorn's default), unless the limit on open files
#: calls for fewer: asyncio accepts that many in one turn of its loop, each taking a file
#: descriptor until it is served, evicted or refused (see :func:`fit_open_files`).
MAX_BACKLOG = 2048
#: The fewest connections waiting to be accepted: below it, a burst of clients
#: connecting at once would wait for their systems to try again (a second or more).
MIN_BACKLOG = 64
#: The backlog where files are so few that even :data:`MIN_BACKLOG` does not fit.
LEAST_BACKLOG = 8
#: The fewest HTTP connections, and the fewest websockets, a server lowers its caps to.
LEAST = 8
#: Turns of the event loop whose accepted connections may hold descriptors at once (one
#: accepted, one given its transport, one evicted or refused and closing: three
#: measured, one more kept).
TURNS_IN_HAND = 4
#: File descriptors kept for anything but connections: the standard streams, the
#: listening socket, the event loop's, the games file and its journal, a static file
#: being sent; :func:`spare_files` adds the bot workers' pipes.
SPARE_FILES = 64
#: The loggers whose records are limited per minute (``--log-per-minute``): uvicorn's,
#: the app's, asyncio's (where a failed ``accept`` is logged) and the PostgreSQL
#: connection pool's (a connection lost). Not the access log:
#: every request is one line of one kind there, and a log of requests that kept only
#: twenty a minute would be of no use; it is rotated as any access log is.
LIMITED_LOGGERS = ["uvicorn", "uvicorn.error", "oriflamme.web", "asyncio", "psycopg.pool"]
_TOKEN = re.compile(r"(token=)[^&\s]*", re.IGNORECASE)
#: The most server processes ``--workers`` starts.
MAX_WORKERS = 64
#: A server process that stopped as it started (see :data:`STARTING_SECONDS`) is not
#: started again at once (it would stop again: the store is unreachable, say); the
#: next waits this long.
RESTART_SECONDS = 2.0
#: Server processes that stop so, one after the other, with none left serving,
#: before the supervisor gives up and stops (something every process needs is wrong:
#: the store is gone, say). While one still serves, it only waits longer between
#: starts, up to :data:`MOST_RESTART_SECONDS` (the store may come back).
QUICK_STOPS = 5
MOST_RESTART_SECONDS = 30.0
#: A server process that stops sooner than this after it was started stopped as it
#: started (it imports the server, opens the store and listens in a few seconds); one
#: alive longer is serving.
STARTING_SECONDS = 10.0


def default_db() -> Path:
    """``$XDG_DATA_HOME/oriflamme/games.sqlite3``, or under ``~/.local/share``."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "oriflamme" / "games.sqlite3"


def add_serve(commands: Any) -> None:
    """The ``serve`` command's options, on the command line's sub-commands."""
    serve = commands.add_parser("serve", help="play in a browser: the lobby, games, the JSON API")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    serve.add_argument(
        "--port", type=_port, default=8000, help="port, 0 to 65535 (default 8000; 0: any free)"
    )
    serve.add_argument(
        "--db",
        default=None,
        help="where games are kept: a SQLite file, or a PostgreSQL database as "
        "postgresql://USER:PASSWORD@HOST:PORT/NAME, which several servers may share "
        f"(default {default_db()})",
    )
    serve.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help="server processes taking connections on the port, all keeping their games in "
        "--db; one that stops is started again (default 1)",
    )
    serve.add_argument(
        "--trusted-proxies",
        type=_addresses,
        default=(),
        metavar="ADDRESS,ADDRESS",
        help="addresses or networks (10.0.0.0/8) of reverse proxies whose X-Forwarded-For "
        "and X-Forwarded-Proto are believed, * for any (default none: each client is "
        "known by its own address, which the rate limits count by)",
    )
    defaults = Limits()
    comments = doc_comments()
    attrs.resolve_types(Limits)  # the annotations are text until resolved
    for field in fields():
        name = field.name
        kind = field.type
        text = comments.get(name) or f"the limit {name.replace('_', ' ')}"
        shown = _shown(getattr(defaults, name))
        help_text = f"{text.rstrip('.')} (default {shown})".replace("%", "%%")
        if kind is bool:
            serve.add_argument(
                option(name),
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=help_text,
            )
            continue
        serve.add_argument(
            option(name),
            dest=name,
            type=_parser(name, kind),
            default=None,
            metavar=_metavar(name, kind),
            help=help_text,
        )


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{quote(text, 20)} is not a port number (0 to 65535)")
    return int(text)


def _workers(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 1 to {MAX_WORKERS}, not {quote(text, 20)}"
        )
    return int(text)


def _addresses(text: str) -> tuple[str, ...]:
    found = tuple(part.strip() for part in text.split(",") if part.strip())
    for address in found:
        if address == "*":
            continue
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{quote(address)} is not an IP address or network (such as 10.0.0.0/8)"
            ) from None
    return found


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(map(str, value)) or "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _metavar(name: str, kind: Any) -> str:
    if kind is Rate:
        return "COUNT/SECONDS"
    if kind is int:
        return "N"
    if kind is float:
        return "DAYS" if name.endswith("_days") else "SECONDS"
    return "NAME,NAME"


def _parser(name: str, kind: Any) -> Callable[[str], object]:
    """What reads the option of the field ``name``; argparse names the option in any
    refusal. The bounds are :meth:`Limits.check`'s, once every option is read."""

    def parse(text: str) -> object:
        try:
            if kind is Rate:
                return Rate.parse(text, option(name))
            if kind is int:
                return int(text)
            if kind is float:
                value = float(text)
                if not math.isfinite(value):
                    raise ValueError(text)
                return value
        except ConfigError as exc:  # Rate.parse names the option itself: argparse will
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{option(name)}: ")) from None
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"expected {what}, not {quote(text)}") from None
        return tuple(part.strip() for part in text.split(",") if part.strip())

    return parse


def doc_comments() -> dict[str, str]:
    """Each field's doc comment (its ``#:`` lines) in limits.py, as one line; empty if
    the source cannot be read."""
    try:
        source = Path(limits_module.__file__ or "").read_text(encoding="utf-8")
    except OSError:
        return {}
    found: dict[str, str] = {}
    comment: list[str] = []
    for line in source.splitlines():
        text = line.strip()
        if text.startswith("#:"):
            comment.append(text[2:].strip())
            continue
        field = re.match(r"(\w+)\s*:", text)
        if comment and field and line.startswith("    ") and not line.startswith("     "):
            found[field.group(1)] = " ".join(comment).replace("``", "")
        comment = []
    return found


def limits_of(args: argparse.Namespace) -> Limits:
    """The limits the options give (each one not given: its default), checked."""
    given = {field.name: getattr(args, field.name, None) for field in fields()}
    limits = Limits(**{name: value for name, value in given.items() if value is not None})
    limits.check()
    return limits


def spare_files(limits: Limits) -> int:
    """File descriptors the server needs besides connections, open or being accepted."""
    # Each bot worker holds a few pipes (its tasks, its results, its sentinel): the
    # people's lane, the bots' lane (half as many) and the quick one.
    workers = limits.bot_workers + max(1, limits.bot_workers // 2) + 1
    return SPARE_FILES + 4 * workers


def connection_files(limits: Limits) -> int:
    """File descriptors the connections may hold: HTTP connections, websockets, and
    websockets waiting for their first message."""
    return limits.max_connections + limits.max_websockets + most_pending(limits.max_websockets)


@attrs.frozen
class Fitted:
    """What fits in the limit on open files: the limits, the backlog of connections
    waiting to be accepted, and the line saying the caps on connections were lowered."""

    limits: Limits
    backlog: int
    lowered: str | None = None


def fit_open_files(limits: Limits) -> Fitted:
    """Raises the soft limit on open files to the hard one where allowed, then fits the
    open connections (:func:`connection_files`), the connections being accepted and
    :func:`spare_files` in it: the backlog as long as there is room for, and
    ``max_connections`` and ``max_websockets`` lowered (see :func:`_lowered`) if even
    :data:`MIN_BACKLOG` does not fit beside them."""
    try:
        import resource  # noqa: PLC0415 - Unix only
    except ImportError:  # no such limit to fit in
        return Fitted(limits, MAX_BACKLOG)
    infinity = resource.RLIM_INFINITY
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    spare = spare_files(limits)
    wanted = connection_files(limits)
    if soft != infinity and (hard == infinity or soft < hard):
        most = wanted + spare + TURNS_IN_HAND * MAX_BACKLOG
        raised = hard if hard != infinity else max(soft, most)
        with contextlib.suppress(ValueError, OSError):  # a system may cap it lower still
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    if soft == infinity:
        return Fitted(limits, MAX_BACKLOG)
    backlog = (soft - spare - wanted) // TURNS_IN_HAND
    if backlog >= MIN_BACKLOG:
        return Fitted(limits, min(backlog, MAX_BACKLOG))
    room = soft - spare
    backlog = MIN_BACKLOG
    if room - TURNS_IN_HAND * backlog < 3 * LEAST:
        # Very few files: the backlog shrinks too, to leave half the room to connections.
        backlog = max(LEAST_BACKLOG, room // (2 * TURNS_IN_HAND))
    fits = min(wanted, room - TURNS_IN_HAND * backlog)
    if fits == wanted:
        return Fitted(limits, backlog)
    lowered = _lowered(limits, fits)
    if lowered is None:
        least = 3 * LEAST + spare + TURNS_IN_HAND * LEAST_BACKLOG
        raise OriflammeError(
            f"only {soft} files may be open at once (ulimit -n); the server needs {least}"
        )
    line = (
        f"oriflamme: warning: only {soft} files may be open at once (ulimit -n): "
        f"{option('max_connections')} lowered from {limits.max_connections} to "
        f"{lowered.max_connections}, {option('max_websockets')} from "
        f"{limits.max_websockets} to {lowered.max_websockets}"
    )
    return Fitted(lowered, backlog, line)


def _lowered(limits: Limits, fits: int) -> Limits | None:
    """``limits`` with HTTP connections and websockets lowered until their files fit in
    ``fits``: HTTP connections, which players' requests need, keep up to half of them;
    websockets (which give way to one another at their cap) the rest. None if even
    :data:`LEAST` of each do not fit."""
    connections = min(limits.max_connections, max(LEAST, fits // 2))
    websockets = min(limits.max_websockets, fits - connections)
    while websockets >= LEAST and connections + websockets + most_pending(websockets) > fits:
        websockets -= 1
    if websockets < LEAST:
        return None
    return attrs.evolve(limits, max_connections=connections, max_websockets=websockets)


class _HideTokens(logging.Filter):
    """Access log lines show each request's path with any seat token blanked out."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN.sub(r"\1...", arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


@contextlib.contextmanager
def _server_logs(per_minute: int) -> Iterator[None]:
    """The server's log filters, installed while it runs: tokens hidden, and at most
    ``per_minute`` lines of a kind."""
    from .logs import LogLimit  # noqa: PLC0415 - only the server logs this much

    hide = _HideTokens()
    limit = LogLimit(per_minute, logging.getLogger("uvicorn.error"))
    # Requests (stdout) and websockets opened (stderr) are logged with their paths.
    installed: list[tuple[str, logging.Filter]] = [
        ("uvicorn.access", hide),
        ("uvicorn.error", hide),
    ]
    installed += [(name, limit) for name in LIMITED_LOGGERS]
    for name, log_filter in installed:
        logging.getLogger(name).addFilter(log_filter)
    try:
        yield
    finally:
        limit.flush()  # the counts of the minute the server stopped in
        for name, log_filter in installed:
            logging.getLogger(name).removeFilter(log_filter)


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` (an IPv6 address too; ``::`` takes IPv4 as well
    where the system allows it)."""
    if ":" not in host:
        return socket.create_server((host, port))
    both = host.strip("[]") == "::" and socket.has_dualstack_ipv6()
    return socket.create_server(
        (host.strip("[]"), port), family=socket.AF_INET6, dualstack_ipv6=both
    )


@attrs.frozen
class Settings:
    """What each server process is started with (sent to it whole)."""

    db: str
    limits: Limits
    trusted: tuple[str, ...]
    backlog: int


def serve_command(args: argparse.Namespace) -> int:
    """Serve until interrupted; the address is printed once the server listens."""
    limits = limits_of(args)
    try:
        import uvicorn  # noqa: F401, PLC0415 - the optional extra, needed by this command only

        from . import app  # noqa: F401, PLC0415 - it imports the extra
        from .store import open_store  # noqa: PLC0415 - beside it
    except ImportError as exc:
        raise OriflammeError(
            f"oriflamme serve needs the web extra ({exc.name} is missing): {extra('web')}"
        ) from exc
    fitted = fit_open_files(limits)
    db = args.db if args.db is not None else str(default_db())
    # Opened once here, so that a store that cannot be used is said once, and is set up
    # (or brought up to date) once before the server processes start.
    store = open_store(db)
    shown = store.name
    store.close()
    try:
        listening = _listen(args.host, args.port)
    except OSError as exc:
        raise OriflammeError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from exc
    host, port = listening.getsockname()[:2]
    address = f"[{host}]" if ":" in host else host
    processes = f"; {args.workers} server processes" if args.workers > 1 else ""
    print(
        f"oriflamme: playing at http://{address}:{port}/ (games kept in {shown}{processes}); "
        "Ctrl+C stops"
    )
    sys.stdout.flush()
    if fitted.lowered is not None:
        print(fitted.lowered, file=sys.stderr, flush=True)
    settings = Settings(db, fitted.limits, tuple(args.trusted_proxies), fitted.backlog)
    if args.workers == 1:
        _serve(settings, listening)
    else:
        _supervise(settings, listening, args.workers)
    return 0


def _serve(settings: Settings, listening: socket.socket) -> None:
    """One server process: the app on uvicorn, taking connections on ``listening``."""
    import uvicorn  # noqa: PLC0415 - the optional extra

    from .app import create_app  # noqa: PLC0415 - it imports the extra
    from .connections import server_config  # noqa: PLC0415 - so does this

    limits = settings.limits
    app = create_app(settings.db, limits=limits)
    config = server_config(
        app,
        limits,
        settings.trusted,
        timeout_graceful_shutdown=2,
        backlog=settings.backlog,
        log_level="info",
    )
    with _server_logs(limits.log_per_minute):
        uvicorn.Server(config).run(sockets=[listening])


def _worker(settings: Settings, listening: socket.socket, parent: int) -> None:
    """A server process started by :func:`_supervise` (Ctrl+C reaches it too: it stops
    as a lone server does). It stops too when its supervisor, ``parent``, dies (killed
    with ``kill -9``, say; even before this one started), rather than serve on with
    nobody to stop it."""
    import signal  # noqa: PLC0415 - only for several processes
    import threading  # noqa: PLC0415
    import time  # noqa: PLC0415

    def orphaned() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)  # uvicorn stops gracefully on SIGTERM

    threading.Thread(target=orphaned, name="oriflamme-supervised", daemon=True).start()
    with contextlib.suppress(KeyboardInterrupt):
        try:
            _serve(settings, listening)
        except OriflammeError as exc:
            print(f"oriflamme serve: {exc}", file=sys.stderr, flush=True)
            sys.exit(1)


def _restart_wait(quick: int, serving: bool) -> float:
    """Seconds to wait before starting a server process again, after ``quick`` in a
    row stopped as they started; ``serving``: whether another one has been serving
    for a while. Raises when it is time to give up."""
    if quick >= QUICK_STOPS and not serving:
        raise OriflammeError(
            f"{quick} server processes in a row stopped as soon as they started, and "
            "none is serving (see above why); stopping"
        )
    if serving:  # the site is up: try again, less and less often
        return min(RESTART_SECONDS * 2.0 ** (quick - 1), MOST_RESTART_SECONDS)
    return RESTART_SECONDS


def _supervise(settings: Settings, listening: socket.socket, count: int) -> None:
    """``count`` server processes sharing ``listening`` (the system hands each new
    connection to one of them) and the store; one that stops, killed or failing, is
    started again. Stops them all on Ctrl+C or SIGTERM, and gives up (an error) once
    :data:`QUICK_STOPS` of them in a row stopped as they started with none serving."""
    import multiprocessing  # noqa: PLC0415 - only for several processes
    import multiprocessing.connection  # noqa: PLC0415
    import signal  # noqa: PLC0415
    import time  # noqa: PLC0415

    # Spawned, not forked: each starts its own threads and event loop from nothing.
    context = multiprocessing.get_context("spawn")
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    def start() -> Any:
        process = context.Process(
            target=_worker, args=(settings, listening, os.getpid()), daemon=False
        )
        process.start()
        return process, time.monotonic()

    previous = signal.signal(signal.SIGTERM, stop)
    running = [start() for _ in range(count)]
    quick = 0  # processes in a row that stopped as soon as they started
    try:
        while not stopping:
            try:
                multiprocessing.connection.wait([p.sentinel for p, _ in running], 0.5)
            except KeyboardInterrupt:
                break
            for index, (process, since) in enumerate(running):
                if process.is_alive() or stopping:
                    continue
                print(
                    f"oriflamme: a server process stopped (exit code {process.exitcode}); "
                    "starting another",
                    file=sys.stderr,
                    flush=True,
                )
                if time.monotonic() - since < STARTING_SECONDS:
                    quick += 1
                    now = time.monotonic()
                    serving = any(
                        other.is_alive() and now - began > STARTING_SECONDS
                        for other, began in running
                    )
                    deadline = time.monotonic() + _restart_wait(quick, serving)
                    while not stopping and time.monotonic() < deadline:
                        time.sleep(0.2)  # a signal is not kept waiting
                    if stopping:
                        break
                else:
                    quick = 0
                running[index] = start()
    finally:
        signal.signal(signal.SIGTERM, previous)
        for process, _ in running:
            if process.is_alive():
                process.terminate()  # uvicorn stops gracefully on SIGTERM
        deadline = time.monotonic() + 10
        for process, _ in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
