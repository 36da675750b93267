"""Connections within the server's limits, against a real ``oriflamme serve`` on
127.0.0.1: slow clients dropped while others are served, the cap on connections
(evicting idle ones first), logs that a flood cannot fill, and ``serve``'s options.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from oriflamme.web.app import create_app
from oriflamme.web.connections import Connections, server_config
from oriflamme.web.limits import Limits, fields, option
from oriflamme.web.logs import LogLimit
from oriflamme.web.serve import MIN_BACKLOG, TURNS_IN_HAND, spare_files
from oriflamme.web.sockets import most_pending

from .web_server import TIMEOUT, answer, call, get, post, server_process, watch

#: How much later than its deadline a slow client may be dropped (a loaded machine).
LATE = 1.5


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _until_dropped(conn: socket.socket, trickle: bytes = b"", every: float = 0.1) -> float:
    """Seconds until the server drops ``conn``, sending ``trickle`` every ``every``
    seconds meanwhile (at most 10 s)."""
    start = time.monotonic()
    conn.settimeout(every)
    while time.monotonic() - start < 10.0:
        try:
            if not conn.recv(65536):
                break  # closed by the server
        except TimeoutError:
            if trickle:
                try:
                    conn.sendall(trickle)
                except OSError:
                    break
        except OSError:  # reset by the server
            break
    return time.monotonic() - start


def _lifetime(url: str, first: bytes, trickle: bytes = b"") -> float:
    """Seconds a new connection that sends ``first``, then trickles, stays open."""
    with socket.create_connection(_address(url), timeout=TIMEOUT) as conn:
        if first:
            conn.sendall(first)
        return _until_dropped(conn, trickle)


def _read_response(conn: socket.socket) -> bytes:
    """The status line of one whole response (its body ``Content-Length`` bytes)."""

    def more() -> bytes:
        chunk = conn.recv(65536)
        assert chunk, "closed before the whole response"
        return chunk

    data = b""
    while b"\r\n\r\n" not in data:
        data += more()
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"content-length: (\d+)", head.lower())
    assert length is not None
    while len(body) < int(length.group(1)):
        body += more()
    return head.split(b"\r\n")[0]


def _keep_serving(url: str, stop: threading.Event, served: list[float]) -> None:
    """A normal client meanwhile: a request at a time, each one's seconds in ``served``."""
    while not stop.is_set():
        start = time.monotonic()
        status, _ = get(f"{url}/api/installed")
        assert status == 200
        served.append(time.monotonic() - start)
        stop.wait(0.05)


def test_slow_clients_are_dropped_and_others_served(tmp_path: Path) -> None:
    args = ["--header-seconds", "1", "--body-seconds", "1"]
    with server_process(tmp_path / "g.sqlite3", args) as (url, _):
        stop, served = threading.Event(), list[float]()
        normal = threading.Thread(target=_keep_serving, args=(url, stop, served))
        normal.start()
        try:
            lived = {
                "idle": _lifetime(url, b""),
                "slow headers": _lifetime(url, b"GET /api/installed HTTP/1.1\r\nHo", b"s"),
                "slow body": _lifetime(
                    url,
                    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
                    b" ",
                ),
            }
            # Served, then trickling the next request: due from the end of the response.
            with socket.create_connection(_address(url), timeout=TIMEOUT) as conn:
                conn.sendall(b"GET /api/installed HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert b" 200 " in _read_response(conn)
                lived["after a response"] = _until_dropped(conn, b"G")
        finally:
            stop.set()
            normal.join(TIMEOUT)
        print({what: round(seconds, 2) for what, seconds in lived.items()})
        print(f"meanwhile {len(served)} requests served, the slowest in {max(served):.3f} s")
        for what, seconds in lived.items():
            # A response reaches the client a moment after its deadline is set.
            assert 0.9 <= seconds < 1.0 + LATE, what
        assert len(served) >= 20
        assert max(served) < 1.0


def test_past_the_cap_idle_connections_are_evicted_and_files_stay_bounded(
    tmp_path: Path,
) -> None:
    with server_process(tmp_path / "g.sqlite3", ["--max-connections", "16"]) as (url, process):
        assert get(f"{url}/api/installed")[0] == 200
        before = _open_files(process.pid)
        held = []
        try:
            for n in range(64):
                conn = socket.create_connection(_address(url), timeout=TIMEOUT)
                held.append(conn)
                if n % 2:  # half idle, half having started a request
                    conn.sendall(b"GET /api/installed HTTP/1.1\r\nHost: 1")
            time.sleep(0.3)
            during = _open_files(process.pid)
            took = []
            for _ in range(10):
                start = time.monotonic()
                assert get(f"{url}/api/installed")[0] == 200
                took.append(time.monotonic() - start)
            still_open = 0
            for conn in held:
                conn.setblocking(False)
                try:
                    still_open += conn.recv(1) != b""
                except BlockingIOError:
                    still_open += 1
                except OSError:
                    pass
        finally:
            for conn in held:
                conn.close()
        print(
            f"open files: {before} before, {during} with 64 connections held; "
            f"{still_open} of them still open; /api/installed in at most {max(took):.3f} s"
        )
        assert during <= before + 16 + 2
        assert still_open <= 16
        assert max(took) < 2.0


def _serve(
    db: Path, out: Path, err: Path, args: list[str], files: int | None = None
) -> subprocess.Popen[bytes]:
    """``oriflamme serve`` with its output in files (read after it stops), allowed at
    most ``files`` open files if given (as ``ulimit -n`` would)."""
    limit = f"resource.setrlimit(resource.RLIMIT_NOFILE, ({files}, {files}))" if files else "0"
    run = f"import resource, sys; {limit}; from oriflamme.cli import main; sys.exit(main())"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        return subprocess.Popen(
            [sys.executable, "-c", run, "serve", "--port", "0", "--db", str(db), *args],
            stdout=stdout,
            stderr=stderr,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )


def _answering(process: subprocess.Popen[bytes], out: Path, err: Path, address: str) -> str:
    """The URL matching ``address`` that ``process`` printed, once its app answers."""
    deadline = time.monotonic() + TIMEOUT
    while not (found := re.search(address, out.read_text())):
        assert process.poll() is None, err.read_text()
        assert time.monotonic() < deadline, err.read_text()
        time.sleep(0.05)
    url = found.group(0)
    while True:
        with contextlib.suppress(OSError):
            if get(f"{url}/api/installed")[0] == 200:
                return url
        assert time.monotonic() < deadline, err.read_text()
        time.sleep(0.05)


@contextlib.contextmanager
def _served(
    tmp_path: Path, args: list[str], files: int | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes], Path, Path]]:
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    # Every test client is 127.0.0.1: no cap per address unless a test gives one.
    every = ["--connections-per-address", "1000000"]
    base = ["--create-rate", "0/1", *([] if "--connections-per-address" in args else every)]
    process = _serve(tmp_path / "g.sqlite3", out, err, [*base, *args], files)
    try:
        yield _answering(process, out, err, r"http://[\d.]+:\d+"), process, out, err
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(TIMEOUT)


def _refused(url: str) -> bool:
    """Whether a new connection is closed at once, before it sends anything."""
    with socket.create_connection(_address(url), timeout=TIMEOUT) as conn:
        conn.settimeout(5.0)
        try:
            return conn.recv(1) == b""
        except ConnectionResetError:
            return True


def test_a_flood_of_one_error_logs_a_few_lines_and_a_count(tmp_path: Path) -> None:
    args = ["--max-connections", "8", "--log-per-minute", "5", "--body-seconds", "60"]
    with _served(tmp_path, args) as (url, process, out, err):
        with contextlib.ExitStack() as stack:
            for _ in range(8):  # the cap, all busy sending a body: none may be evicted
                stack.enter_context(_busy(url))
            time.sleep(0.3)
            flood = 100
            assert all(_refused(url) for _ in range(flood))
        process.send_signal(signal.SIGINT)  # stopping logs the counts of the minute
        process.wait(TIMEOUT)
        logged = out.read_text() + err.read_text()
    refusals = [line for line in logged.splitlines() if line.startswith("connection from")]
    counts = re.findall(r"(\d+) more WARNING lines of oriflamme.web like 'connection from", logged)
    print(f"{flood} refusals: {len(refusals)} lines logged, and the count line {counts}")
    assert len(refusals) == 5
    assert [int(count) for count in counts] == [flood - 5]
    assert "suppressed (at most 5 a minute)" in logged


def _lowered(warning: list[str]) -> tuple[int, int]:
    """The caps on HTTP connections and websockets the one warning line says."""
    assert len(warning) == 1
    found = re.fullmatch(
        r"oriflamme: warning: only \d+ files may be open at once \(ulimit -n\): "
        rf"{option('max_connections')} lowered from 512 to (\d+), "
        rf"{option('max_websockets')} from 1024 to (\d+)",
        warning[0],
    )
    assert found, warning
    return int(found.group(1)), int(found.group(2))


def test_too_few_files_lowers_the_cap_and_a_flood_never_runs_out(tmp_path: Path) -> None:
    files = 600
    args = ["--bot-workers", "2"]
    with _served(tmp_path, args, files) as (url, process, _, err):
        warning = [line for line in err.read_text().splitlines() if "ulimit" in line]
        room = files - spare_files(Limits(bot_workers=2)) - TURNS_IN_HAND * MIN_BACKLOG
        connections, websockets = _lowered(warning)
        cap = connections + websockets + most_pending(websockets)
        # Lowered to what fits beside the backlog and the spare files: HTTP connections,
        # which players' requests need, keep half of it.
        assert room - 2 <= cap <= room
        assert connections == room // 2

        def flood(count: int) -> None:
            held = []
            for _ in range(count):
                conn = socket.socket()
                conn.setblocking(False)
                with contextlib.suppress(BlockingIOError):
                    conn.connect(_address(url))
                held.append(conn)
            time.sleep(1.0)
            for conn in held:
                conn.close()

        highest = 0
        floods = [threading.Thread(target=flood, args=(500,)) for _ in range(4)]
        for thread in floods:
            thread.start()
        while any(thread.is_alive() for thread in floods):
            highest = max(highest, _open_files(process.pid))
            time.sleep(0.002)
        for thread in floods:
            thread.join(TIMEOUT)
        time.sleep(0.5)  # the flood's last connections still in the queue are let go
        start = time.monotonic()
        assert get(f"{url}/api/installed")[0] == 200
        took = time.monotonic() - start
        print(f"cap {cap}; 2000 connections at once: at most {highest} files open")
        print(f"then /api/installed served in {took:.3f} s")
        assert "Too many open files" not in err.read_text()
        assert highest < files
        assert took < 3.5  # a connection dropped from a full queue is tried again in 1 s


def test_every_limit_is_an_option_and_a_bad_value_is_one_line(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "oriflamme", "serve"]
    shown = subprocess.run([*command, "--help"], capture_output=True, text=True, check=True)
    words = " ".join(shown.stdout.split())
    for field in fields():
        assert option(field.name) in words, field.name
    assert "--trusted-proxies" in words
    assert "(default 512)" in words
    assert "(default 20/60)" in words
    db = str(tmp_path / "g.sqlite3")
    for bad, named in (
        (["--create-rate", "fast"], "--create-rate"),
        (["--max-connections", "0"], "--max-connections"),
        (["--header-seconds", "soon"], "--header-seconds"),
        (["--trusted-proxies", "proxy.example"], "--trusted-proxies"),
    ):
        found = subprocess.run(
            [*command, "--port", "0", "--db", db, *bad],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        assert found.returncode == 2, bad
        assert found.stdout == ""
        assert len(found.stderr.splitlines()) == 1, found.stderr
        assert named in found.stderr


def test_a_websocket_outlives_the_header_deadline(tmp_path: Path) -> None:
    with server_process(tmp_path / "g.sqlite3", ["--header-seconds", "1"]) as (url, _):
        status, made = post(f"{url}/api/games", {"families": 3})
        assert status == 201
        with watch(url, made["id"], None) as ws:
            first = json.loads(ws.recv(timeout=TIMEOUT))
            time.sleep(2.5)  # well past --header-seconds
            family = first["waiting_for"]
            token = made["seats"][family]
            status, view = get(f"{url}/api/games/{made['id']}", token=token)
            assert status == 200
            answer(url, made["id"], token, view["answers"][0], view["step"])
            later = json.loads(ws.recv(timeout=TIMEOUT))
        print(f"a websocket open 2.5 s saw step {first['step']}, then {later['step']}")
        assert later["step"] == first["step"] + 1


def test_forwarded_addresses_are_believed_only_from_trusted_proxies(tmp_path: Path) -> None:
    def created(args: list[str]) -> list[int]:
        """Two games created, each claiming another address: the statuses."""
        db = tmp_path / f"{len(args)}.sqlite3"
        with server_process(db, ["--create-rate", "1/60", *args]) as (url, _):
            return [
                call("POST", f"{url}/api/games", {"families": 3}, headers=forwarded)[0]
                for forwarded in ({"X-Forwarded-For": "10.0.0.1"}, {"X-Forwarded-For": "10.0.0.2"})
            ]

    assert created([]) == [201, 429]  # one client: the connection's address
    assert created(["--trusted-proxies", "127.0.0.1"]) == [201, 201]


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def kept() -> Iterator[tuple[logging.Logger, _Kept]]:
    """A logger of the tests' own, keeping the lines it would write."""
    logger = logging.getLogger("oriflamme.test.logs")
    handler = _Kept()
    logger.addHandler(handler)
    logger.propagate = False
    yield logger, handler
    logger.removeHandler(handler)
    logger.propagate = True
    logger.filters.clear()


def test_the_log_limit_lets_a_few_of_each_kind_through_then_counts(
    kept: tuple[logging.Logger, _Kept],
) -> None:
    logger, handler = kept
    limit = LogLimit(3, logger, seconds=0.3)
    logger.addFilter(limit)
    for n in range(100):
        logger.warning("client %d refused", n)
        logger.warning("a different kind")
        logger.error("client %d refused", n)  # the level is part of the kind
    assert handler.lines[:3] == ["client 0 refused", "a different kind", "client 0 refused"]
    assert len(handler.lines) == 9
    deadline = time.monotonic() + TIMEOUT
    while len(handler.lines) < 12:  # the minute is over: one count line per kind
        assert time.monotonic() < deadline
        time.sleep(0.02)
    counts = sorted(handler.lines[9:])
    assert counts == [
        "97 more ERROR lines of oriflamme.test.logs like 'client %d refused' "
        "were suppressed (at most 3 a minute)",
        "97 more WARNING lines of oriflamme.test.logs like 'a different kind' "
        "were suppressed (at most 3 a minute)",
        "97 more WARNING lines of oriflamme.test.logs like 'client %d refused' "
        "were suppressed (at most 3 a minute)",
    ]
    logger.warning("client %d refused", 100)  # a new minute
    assert handler.lines[-1] == "client 100 refused"
    for _ in range(5):
        logger.warning("again")
    limit.flush()  # stopping: the minute not yet over is counted too
    assert handler.lines[-1].startswith("2 more WARNING lines of oriflamme.test.logs like 'again'")
    assert len(handler.lines) == 9 + 3 + 1 + 3 + 1


def test_the_log_limit_counts_only_the_first_line_of_a_message(
    kept: tuple[logging.Logger, _Kept],
) -> None:
    logger, handler = kept
    limit = LogLimit(2, logger)
    logger.addFilter(limit)
    for n in range(10):  # asyncio writes each error's details after its first line
        logger.error(f"socket.accept() out of system resource\nsocket: <fd={n}>")
    limit.flush()
    assert len(handler.lines) == 3
    assert handler.lines[-1].startswith("8 more ERROR lines")


def test_a_connection_kept_alive_sends_each_response_at_once(tmp_path: Path) -> None:
    # A response's headers and body are two writes: unless the socket sends each at
    # once, the body waits for the client's delayed acknowledgement (40 ms a request).
    limits = Limits()
    listening = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(
        server_config(
            create_app(tmp_path / "g.sqlite3", entry_points=False, limits=limits),
            limits,
            log_level="warning",
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + TIMEOUT
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        port = listening.getsockname()[1]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        for _ in range(3):
            connection.request("GET", "/api/installed")
            response = connection.getresponse()
            response.read()
            assert response.status == 200
        (open_one,) = server.server_state.connections
        sock = open_one.transport.get_extra_info("socket")
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        connection.close()
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        listening.close()


def _busy(url: str) -> socket.socket:
    """A connection busy sending a request's body (not one a newcomer may evict)."""
    conn = socket.create_connection(_address(url), timeout=TIMEOUT)
    conn.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
    )
    return conn


def test_one_address_cannot_take_every_connection(tmp_path: Path) -> None:
    args = ["--connections-per-address", "4", "--max-connections", "64", "--body-seconds", "60"]
    with _served(tmp_path, args) as (url, _, _, err):
        made = post(f"{url}/api/games", {"families": 3})[1]
        with contextlib.ExitStack() as stack:
            # Websockets are not HTTP connections: four open leave the address its four.
            sockets = [stack.enter_context(watch(url, made["id"], None)) for _ in range(4)]
            for each in sockets:
                assert json.loads(each.recv(timeout=TIMEOUT))["id"] == made["id"]
            assert get(f"{url}/api/installed")[0] == 200
            for _ in range(4):
                stack.enter_context(_busy(url))
            time.sleep(0.2)
            # A fifth connection from the same address is closed at once.
            with pytest.raises(OSError, match=r"reset|closed|aborted"):
                get(f"{url}/api/installed")
        # The connections closed, the address is served again.
        deadline = time.monotonic() + TIMEOUT
        while True:
            with contextlib.suppress(OSError):
                if get(f"{url}/api/installed")[0] == 200:
                    break
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.5)
    assert "the most connections --connections-per-address allows" in err.read_text()


def test_very_few_files_shrink_the_backlog_too(tmp_path: Path) -> None:
    files = 256
    with _served(tmp_path, ["--bot-workers", "2"], files) as (url, _, _, err):
        warning = [line for line in err.read_text().splitlines() if "ulimit" in line]
        connections, websockets = _lowered(warning)
        assert connections >= 8
        assert websockets >= 8
        assert connections + websockets + most_pending(websockets) < files
        assert get(f"{url}/api/installed")[0] == 200


def test_serve_listens_on_an_ipv6_address(tmp_path: Path) -> None:
    if not socket.has_ipv6:
        pytest.skip("this Python has no IPv6")
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
    except OSError as exc:
        pytest.skip(f"no IPv6 loopback here: {exc}")
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    process = _serve(tmp_path / "g.sqlite3", out, err, ["--host", "::1"])
    try:
        _answering(process, out, err, r"http://\[::1\]:\d+")
    finally:
        process.kill()
        process.wait(TIMEOUT)


def test_a_trusted_proxy_is_known_in_both_forms_and_its_client_found() -> None:
    shared = Connections(Limits(), ["127.0.0.1", "10.0.0.0/8"])
    # A server listening on "::" sees an IPv4 proxy as an IPv4-mapped IPv6 address.
    assert shared.counted("::ffff:127.0.0.1") is None
    assert shared.counted("::ffff:10.1.2.3") is None
    assert shared.counted("::ffff:192.0.2.7") == "192.0.2.7"
    assert shared.counted("2001:db8::1") == "2001:db8::/64"
    # X-Forwarded-For: the last address no trusted proxy holds, as uvicorn reads it.
    assert shared.forwarded("203.0.113.9, 10.0.0.2") == "203.0.113.9"
    assert shared.forwarded("198.51.100.1, 203.0.113.9:4431, 10.0.0.2") == "203.0.113.9"
    assert shared.forwarded("[2001:db8::5]:80") == "2001:db8::/64"
    assert shared.forwarded("10.0.0.3, 10.0.0.2") == "10.0.0.3"
    assert shared.forwarded("") is None
    config = server_config(object(), Limits(), ["10.1.2.3/8"])
    assert config.forwarded_allow_ips == ["10.0.0.0/8", "::ffff:10.0.0.0/104"]
