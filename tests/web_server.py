"""A real server for the web tests: uvicorn on 127.0.0.1 (a free port), its games in a
SQLite file, in a thread of the test process or as ``oriflamme serve`` in a process of
its own (to be killed); and a small HTTP client over loopback.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
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

import uvicorn

from oriflamme.web.app import create_app

#: How long a request, or a server's start, may take before the test fails (seconds).
TIMEOUT = 30.0


@contextlib.contextmanager
def server_thread(db: Path, plugins: dict[str, object] | None = None) -> Iterator[str]:
    """The app served by uvicorn in a thread; yields its base URL (no trailing slash).

    The installed plugins are left out (the tests do not depend on what is installed)
    but for ``plugins``, registered by name."""
    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(
        create_app(db, plugins=plugins, entry_points=False),
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
def server_process(db: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``oriflamme serve --port 0 --db DB`` in a process of its own; yields its base URL
    (read from the line it prints) and the process, killed at the end if still running."""
    process = subprocess.Popen(
        [sys.executable, "-m", "oriflamme", "serve", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
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
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait(TIMEOUT)
        if process.stdout is not None:
            process.stdout.close()


def call(
    method: str, url: str, body: object = None, *, raw: bytes | None = None
) -> tuple[int, Any, dict[str, str]]:
    """One request: (status, JSON body or None, headers in lower case)."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, text, headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as exc:
        status, text, headers = exc.code, exc.read(), exc.headers
        exc.close()
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    return status, parsed, {name.lower(): value for name, value in headers.items()}


def get(url: str) -> tuple[int, Any]:
    status, body, _ = call("GET", url)
    return status, body


def post(url: str, body: object) -> tuple[int, Any]:
    status, found, _ = call("POST", url, body)
    return status, found


def answer(url: str, game: str, token: str, given: object) -> dict[str, Any]:
    """``given`` answered by the seat of ``token``, which must be accepted: the new view."""
    status, found = post(f"{url}/api/games/{game}/answer?token={token}", {"answer": given})
    assert status == 200, found
    return found  # type: ignore[no-any-return]
