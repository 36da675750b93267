"""A real server for the web tests: uvicorn on 127.0.0.1 (a free port), its games in a
SQLite file or a PostgreSQL database (a throwaway cluster, see tests/postgres.py), in a
thread of the test process or as ``oriflamme serve`` in a process of its own (to be
killed); and a small HTTP client over loopback.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from oriflamme.web.app import create_app
from oriflamme.web.connections import server_config
from oriflamme.web.limits import Limits, Rate

#: How long a request, or a server's start, may take before the test fails (seconds).
TIMEOUT = 30.0
#: The limits of a test server: the defaults, but that tests make games and replays
#: quickly and open many connections from one address (those limits have tests of
#: their own).
TEST_LIMITS = Limits(
    create_rate=Rate(0, 1.0),
    replay_rate=Rate(0, 1.0),
    connections_per_address=1_000_000,
    websockets_per_address=1_000_000,
    bot_workers=2,
)


#: The stores a server keeps its games in, as the tests name them (``--db``: a file, or
#: a ``postgresql://`` URL).
STORES = ["sqlite", "postgresql"]


def fresh_db(request: pytest.FixtureRequest, folder: Path, name: str) -> str:
    """An empty store of the kind ``request.param`` names (one of :data:`STORES`):
    a new file in ``folder``, or a new database on the session's PostgreSQL cluster."""
    if request.param == "postgresql":
        cluster = request.getfixturevalue("postgres")
        found: str = cluster.database(f"{name}_{secrets.token_hex(4)}")
        return found
    return str(folder / f"{name}.sqlite3")


@contextlib.contextmanager
def server_thread(
    db: Path | str, plugins: dict[str, object] | None = None, limits: Limits | None = None
) -> Iterator[str]:
    """The app served by uvicorn in a thread; yields its base URL (no trailing slash).

    The installed plugins are left out (the tests do not depend on what is installed)
    but for ``plugins``, registered by name. ``limits``: the server's (by default,
    :data:`TEST_LIMITS`)."""
    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    limits = limits if limits is not None else TEST_LIMITS
    config = server_config(  # as oriflamme serve runs it
        create_app(db, plugins=plugins, entry_points=False, limits=limits),
        limits,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + TIMEOUT
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        listening.close()


@contextlib.contextmanager
def server_process(
    db: Path | str, args: list[str] | tuple[str, ...] = ()
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``oriflamme serve --port 0 --db DB`` (and ``args``, more options) in a process of
    its own; yields its base URL (read from the line it prints) and the process, killed
    at the end if still running. Games are created without a rate limit unless ``args``
    gives one."""
    rate = [] if "--create-rate" in args else ["--create-rate", "0/1"]
    # Every test client is 127.0.0.1: no cap per address unless ``args`` gives one.
    for cap in ("--connections-per-address", "--websockets-per-address"):
        if cap not in args:
            rate += [cap, "1000000"]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oriflamme",
            "serve",
            "--port",
            "0",
            "--db",
            str(db),
            *rate,
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # A session of its own: whatever it starts (its bot workers, the processes of
        # serve --workers) is killed with it at the end.
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://[\d.]+:\d+", line)
        assert found, f"oriflamme serve printed {line!r}, not its address"
        url = found.group(0)
        # Its access log goes on to stdout: read it, or a full pipe would stop the server.
        threading.Thread(target=process.stdout.read, daemon=True).start()
        deadline = time.monotonic() + TIMEOUT
        while True:  # listening already; wait until the app answers
            with contextlib.suppress(OSError):
                if call("GET", f"{url}/api/installed")[0] == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("oriflamme serve did not answer")
            time.sleep(0.05)
        yield url, process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(TIMEOUT)
        if process.stdout is not None:
            process.stdout.close()


def call(
    method: str,
    url: str,
    body: object = None,
    *,
    raw: bytes | None = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """One request (with ``token`` as a seat's, in its header): (status, JSON body or
    None, headers in lower case)."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, text, answered = response.status, response.read(), response.headers
    except urllib.error.HTTPError as exc:
        status, text, answered = exc.code, exc.read(), exc.headers
        exc.close()
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    return status, parsed, {name.lower(): value for name, value in answered.items()}


def get(url: str, token: str | None = None) -> tuple[int, Any]:
    status, body, _ = call("GET", url, token=token)
    return status, body


def post(url: str, body: object, token: str | None = None) -> tuple[int, Any]:
    status, found, _ = call("POST", url, body, token=token)
    return status, found


def answer(url: str, game: str, token: str, given: object, step: int) -> dict[str, Any]:
    """``given`` answered at ``step`` by the seat of ``token``, which must be accepted:
    the new view."""
    status, found = post(
        f"{url}/api/games/{game}/answer", {"answer": given, "step": step}, token=token
    )
    assert status == 200, found
    return found  # type: ignore[no-any-return]


class Frames:
    """A websocket's frames as whole views: a frame sends only the log lines and events
    the socket has not had yet (from ``log_from`` and ``events_from``); ``recv`` gives
    the view with all of them, as JSON text, as a socket's ``recv`` gives a frame (and
    as ``GET`` gives the view)."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.log: list[Any] = []
        self.events: list[Any] = []

    def recv(self, timeout: float | None = None) -> str:
        text = str(self.socket.recv(timeout=timeout))
        frame = json.loads(text)
        if "log_from" not in frame:
            return text
        self.log = self.log[: frame["log_from"]] + frame["log"]
        self.events = self.events[: frame["events_from"]] + frame["events"]
        whole = {"log_from": 0, "log": self.log, "events_from": 0, "events": self.events}
        return json.dumps({**frame, **whole})

    def send(self, text: str) -> None:
        self.socket.send(text)


@contextlib.contextmanager
def watch(url: str, game: str, token: str | None, *, timeout: float = TIMEOUT) -> Iterator[Frames]:
    """A websocket on the game, its token sent as its first message; the first view
    is not read yet."""
    ws = url.replace("http://", "ws://") + f"/api/games/{game}/ws"
    with connect(ws, open_timeout=timeout) as socket:
        socket.send(json.dumps({"token": token}))
        yield Frames(socket)
