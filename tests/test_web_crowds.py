"""Floods of websockets against a real ``oriflamme serve`` on 127.0.0.1, many loopback
addresses (127.0.0.x) standing for many clients: idle spectators by the hundred never
take a player's place, a new browser still gets in, a socket that stops answering
pings is closed, and the request headers are capped. Bounded in count and time.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import http.client
import json
import os
import re
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from .web_server import TIMEOUT, Frames, get, post, server_process, watch

#: The flood's addresses: ten clients.
FLOOD = [f"127.0.0.{n}" for n in range(10, 20)]
#: The player's address, and a newcomer's (a new browser).
PLAYER, NEWCOMER = "127.0.0.2", "127.0.0.3"
#: The slowest a player's request may be answered during a flood (seconds).
PROMPT = 2.0


def _host_port(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _hello_frame() -> bytes:
    """A client's (masked) text frame holding a spectator's first message."""
    payload = json.dumps({"token": None}).encode()
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[n % 4] for n, byte in enumerate(payload))
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked


def _handshake(host: str, port: int, game: str) -> bytes:
    key = base64.b64encode(os.urandom(16))
    return (
        f"GET /api/games/{game}/ws HTTP/1.1\r\nHost: {host}:{port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


class Flood:
    """Idle spectators' websockets from :data:`FLOOD`, opened in a thread of their own:
    half of them a library's client that answers pings and reads (and throws away)
    every frame, half bare sockets that send their first message and never read again.
    """

    def __init__(self, url: str, games: list[str]) -> None:
        self.host, self.port = _host_port(url)
        self.games = games
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.reading: list[ClientConnection] = []
        self.bare: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.opened = 0
        self.failed = 0

    def open(self, count: int) -> None:
        """Opens ``count`` more sockets, spread over the addresses and games."""
        asyncio.run_coroutine_threadsafe(self._open(count), self.loop).result(4 * TIMEOUT)

    async def _open(self, count: int) -> None:
        start = self.opened + self.failed
        # A few at a time from each address, as fast as the server takes them.
        at_once = {address: asyncio.Semaphore(2) for address in FLOOD}
        await asyncio.gather(*(self._one(start + n, at_once) for n in range(count)))

    async def _one(self, n: int, at_once: dict[str, asyncio.Semaphore]) -> None:
        address = FLOOD[n % len(FLOOD)]
        game = self.games[n % len(self.games)]
        try:
            async with at_once[address]:
                if n % 2:
                    await self._bare(address, game)
                else:
                    await self._reading(address, game)
            self.opened += 1
        except (OSError, EOFError, WebSocketException, TimeoutError, ValueError):
            self.failed += 1

    async def _reading(self, address: str, game: str) -> None:
        uri = f"ws://{self.host}:{self.port}/api/games/{game}/ws"
        ws = await connect(uri, local_addr=(address, 0), open_timeout=TIMEOUT, ping_interval=None)
        await ws.send(json.dumps({"token": None}))
        self.reading.append(ws)

        async def drain() -> None:
            with contextlib.suppress(WebSocketException, OSError):
                async for _ in ws:
                    pass

        self.tasks.append(asyncio.ensure_future(drain()))

    async def _bare(self, address: str, game: str) -> None:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port, local_addr=(address, 0)), TIMEOUT
        )
        try:
            writer.write(_handshake(self.host, self.port, game))
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
            if b" 101 " not in head.split(b"\r\n")[0]:
                raise ValueError(head[:40])
            writer.write(_hello_frame())
        except BaseException:
            writer.close()
            raise
        self.bare.append((reader, writer))

    def churn(self, seconds: float, in_flight: int, addresses: list[str]) -> int:
        """Keeps ``in_flight`` upgrades open from ``addresses`` for ``seconds``, none of
        them ever sending its first message, each opened again once the server closes
        it: how many were opened."""
        return asyncio.run_coroutine_threadsafe(
            self._churn(seconds, in_flight, addresses), self.loop
        ).result(seconds + TIMEOUT)

    async def _churn(self, seconds: float, in_flight: int, addresses: list[str]) -> int:
        deadline = time.monotonic() + seconds
        opened = 0

        async def one(n: int) -> None:
            nonlocal opened
            while time.monotonic() < deadline:
                address = addresses[n % len(addresses)]
                with contextlib.suppress(OSError, EOFError, TimeoutError, ValueError):
                    reader, writer = await asyncio.open_connection(
                        self.host, self.port, local_addr=(address, 0)
                    )
                    opened += 1
                    try:
                        writer.write(_handshake(self.host, self.port, self.games[0]))
                        left = max(0.0, deadline - time.monotonic())
                        while await asyncio.wait_for(reader.read(65536), left):
                            pass  # held until the server closes it
                    finally:
                        writer.close()

        await asyncio.gather(*(one(n) for n in range(in_flight)))
        return opened

    def still_open(self) -> int:
        """How many of the sockets opened are still open (not closed by the server),
        once the last ones' first messages have been read and their places settled."""
        time.sleep(0.5)
        return asyncio.run_coroutine_threadsafe(self._still_open(), self.loop).result(TIMEOUT)

    async def _still_open(self) -> int:
        count = sum(1 for ws in self.reading if ws.close_code is None)
        for reader, writer in self.bare:
            if writer.is_closing():
                continue
            # Read what the server sent (a view, maybe its close): open unless it ended.
            with contextlib.suppress(TimeoutError):
                while await asyncio.wait_for(reader.read(65536), 0.01):
                    pass
                continue  # the server ended it
            count += 1
        return count

    def close(self) -> None:
        async def closing() -> None:
            for task in self.tasks:
                task.cancel()
            for ws in self.reading:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 1.0)
            for _, writer in self.bare:
                writer.close()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(closing(), self.loop).result(TIMEOUT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        self.loop.close()


@contextlib.contextmanager
def flooded(url: str, games: list[str]) -> Iterator[Flood]:
    flood = Flood(url, games)
    try:
        yield flood
    finally:
        flood.close()


def _latest(frames: Frames) -> Any:
    """The newest view a websocket has been sent (every frame read, the last kept)."""
    view = json.loads(frames.recv(TIMEOUT))
    with contextlib.suppress(TimeoutError):
        while True:
            view = json.loads(frames.recv(0.5))
    return view


def _request(url: str, path: str, source: str, token: str | None = None) -> tuple[int, bytes]:
    """GET ``path`` from the address ``source``, on a connection of its own."""
    host, port = _host_port(url)
    connection = http.client.HTTPConnection(host, port, timeout=TIMEOUT, source_address=(source, 0))
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _new_game(url: str, people: tuple[str, ...] = ("red",)) -> dict[str, Any]:
    bots = {family: "random" for family in ("red", "blue", "green") if family not in people}
    status, made = post(f"{url}/api/games", {"families": 3, "bots": bots})
    assert status == 201, made
    return made  # type: ignore[no-any-return]


class Player:
    """A person playing a game against random bots, timing every request."""

    def __init__(self, url: str, made: dict[str, Any], family: str = "red") -> None:
        self.url, self.game, self.token = url, made["id"], made["seats"][family]
        self.family = family
        self.took: list[float] = []
        self.statuses: list[int] = []

    def timed(self, method: str, path: str, body: object = None) -> Any:
        start = time.monotonic()
        if method == "GET":
            status, found = get(f"{self.url}{path}", self.token)
        else:
            status, found = post(f"{self.url}{path}", body, self.token)
        self.took.append(time.monotonic() - start)
        self.statuses.append(status)
        return found

    def play(self, seconds: float) -> int:
        """Plays for ``seconds`` (or to the end): the answers given."""
        given = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            view = self.timed("GET", f"/api/games/{self.game}")
            if view.get("over"):
                break
            if view["answers"]:
                self.timed(
                    "POST",
                    f"/api/games/{self.game}/answer",
                    {"answer": view["answers"][0], "step": view["step"]},
                )
                given += 1
            else:
                time.sleep(0.05)
        return given


@pytest.mark.slow
def test_idle_spectators_by_the_hundred_never_crowd_out_a_player(tmp_path: Path) -> None:
    # The defaults but for creating games quickly: 32 websockets an address, 64 HTTP
    # connections an address, 1,024 websockets in all.
    args = ["--websockets-per-address", "32", "--connections-per-address", "64"]
    with server_process(tmp_path / "g.sqlite3", args) as (url, _):
        theirs = [_new_game(url, ("red", "blue", "green"))["id"] for _ in range(6)]
        made = _new_game(url)
        player = Player(url, made)
        with flooded(url, theirs) as flood, watch(url, player.game, player.token) as seat:
            seat.recv(TIMEOUT)
            start = time.monotonic()
            flood.open(600)
            opened = time.monotonic() - start
            given = player.play(8.0)
            held = flood.still_open()
            # A new browser: the pages, then a spectator's websocket on the player's game.
            page = _request(url, "/", NEWCOMER)
            play = _request(url, f"/play/{player.game}", NEWCOMER)
            with watch(url, player.game, None) as newcomer:
                first = json.loads(newcomer.recv(TIMEOUT))
            seat_view = json.loads(seat.recv(TIMEOUT))  # the seat's socket still hears
        print(
            f"600 sockets from {len(FLOOD)} addresses opened in {opened:.1f} s "
            f"({flood.failed} refused), {held} still open; the player answered {given} times, "
            f"{len(player.took)} requests, the slowest in {max(player.took):.3f} s"
        )
        assert set(player.statuses) == {200}
        assert given >= 5
        assert max(player.took) < PROMPT
        assert page[0] == 200
        assert b"<html" in page[1].lower()
        assert play[0] == 200
        assert first["id"] == player.game
        assert "answers" in first
        assert seat_view["id"] == player.game
        # Each address keeps at most its 32 websockets (a few more pending for a moment).
        assert held <= 32 * len(FLOOD)


@pytest.mark.slow
def test_at_the_cap_spectators_give_way_and_a_seat_holder_never_does(tmp_path: Path) -> None:
    args = ["--max-websockets", "100", "--websockets-per-address", "32"]
    with server_process(tmp_path / "g.sqlite3", args) as (url, _):
        theirs = [_new_game(url, ("red", "blue", "green"))["id"] for _ in range(4)]
        made = _new_game(url)
        player = Player(url, made)
        with flooded(url, theirs) as flood:
            flood.open(300)  # 30 an address: 300 tried, 100 at most kept
            held = flood.still_open()
            assert 90 <= held <= 100
            with watch(url, player.game, player.token) as seat:
                seat.recv(TIMEOUT)  # admitted at the cap: a spectator gave way
                with watch(url, player.game, None) as spectator:
                    spectator.recv(TIMEOUT)  # and for another game's newcomer too
                    flood.open(300)  # the flood goes on: its own spectators give way
                    given = player.play(3.0)
                    view = _latest(seat)  # never closed: it hears every step
                    assert view["id"] == player.game
                    assert view["step"] >= given
                    after = flood.still_open()
        print(
            f"the flood held {held} sockets, then {after} after 300 more; "
            f"the player answered {given} times"
        )
        assert after <= 100 - 2  # the seat's and the newcomer's places stayed theirs
        assert given >= 3
        assert max(player.took) < PROMPT


def test_a_socket_that_stops_answering_pings_is_closed(tmp_path: Path) -> None:
    args = ["--websocket-ping-seconds", "0.5"]
    with server_process(tmp_path / "g.sqlite3", args) as (url, _):
        game = _new_game(url)["id"]
        host, port = _host_port(url)
        with socket.create_connection((host, port), timeout=TIMEOUT) as bare:
            bare.sendall(_handshake(host, port, game))
            head = b""
            while b"\r\n\r\n" not in head:
                head += bare.recv(1)
            assert b" 101 " in head
            bare.sendall(_hello_frame())
            with watch(url, game, None) as answering:  # its library answers pings
                answering.recv(TIMEOUT)
                time.sleep(2.5)  # a ping, no pong within 0.5 s: closed
                start = time.monotonic()
                bare.settimeout(TIMEOUT)
                while bare.recv(65536):
                    pass  # the view, the ping, the close: then the end
                assert time.monotonic() - start < 1.0  # it had ended already
                answering.socket.ping().wait(TIMEOUT)  # the other is open still


def _raw(url: str, request: bytes) -> tuple[bytes, float]:
    """The status line the server answers ``request`` with, and the seconds it took."""
    with socket.create_connection(_host_port(url), timeout=TIMEOUT) as conn:
        start = time.monotonic()
        conn.sendall(request)
        data = b""
        while b"\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        return data.split(b"\r\n")[0], time.monotonic() - start


def test_headers_past_the_caps_are_431_before_they_are_read(tmp_path: Path) -> None:
    with server_process(tmp_path / "g.sqlite3") as (url, _):
        plain = b"GET /api/installed HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        lines = b"".join(b"X-%d: y\r\n" % n for n in range(10_000))  # about 80 KB
        status, took = _raw(url, plain + lines + b"\r\n")
        assert b" 431 " in status, status
        long = b"X-Long: " + b"a" * 20_000 + b"\r\n"
        assert b" 431 " in _raw(url, plain + long + b"\r\n")[0]
        at_the_cap = b"".join(b"X-%d: y\r\n" % n for n in range(98))  # and Host: 99
        assert b" 200 " in _raw(url, plain + at_the_cap + b"\r\n")[0]
        over = b"".join(b"X-%d: y\r\n" % n for n in range(100))
        assert b" 431 " in _raw(url, plain + over + b"\r\n")[0]
        # Trickled in small pieces, as a slow client would.
        with socket.create_connection(_host_port(url), timeout=TIMEOUT) as conn:
            conn.sendall(plain)
            with contextlib.suppress(OSError):
                for n in range(200):
                    conn.sendall(b"X-%d: y\r\n" % n)
            assert b" 431 " in conn.recv(65536)
        print(f"10,000 header lines refused in {took * 1000:.1f} ms")
        assert took < 0.5


def test_a_page_of_another_scheme_is_another_site(tmp_path: Path) -> None:
    with server_process(tmp_path / "g.sqlite3") as (url, _):
        host, port = _host_port(url)
        for origin, expected in (
            (f"http://{host}:{port}", 201),
            (f"https://{host}:{port}", 403),
            (f"http://{host}:{port + 1}", 403),
        ):
            connection = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
            body = json.dumps({"families": 3})
            connection.request(
                "POST",
                "/api/games",
                body=body,
                headers={"Origin": origin, "Content-Type": "application/json"},
            )
            assert connection.getresponse().status == expected, origin
            connection.close()


@pytest.mark.browser
def test_a_new_browser_gets_the_game_during_a_flood(tmp_path: Path) -> None:
    pytest.importorskip("playwright")
    from .browser_support import launched_chromium  # noqa: PLC0415 - the browser's extra

    args = ["--max-websockets", "64", "--websockets-per-address", "32"]
    with server_process(tmp_path / "g.sqlite3", args) as (url, _):
        theirs = [_new_game(url, ("red", "blue", "green"))["id"] for _ in range(2)]
        made = _new_game(url)
        with flooded(url, theirs) as flood, launched_chromium() as browser:
            flood.open(200)
            page = browser.new_page()
            page.goto(f"{url}/play/{made['id']}#token={made['seats']['red']}")
            page.wait_for_selector("[data-testid=turn] [data-testid=place-card]", timeout=15_000)
            held = flood.still_open()
            print(f"the flood holds {held} sockets; the page shows its turn")
            assert held >= 32


def test_upgrades_that_never_send_their_token_do_not_keep_a_newcomer_out(
    tmp_path: Path,
) -> None:
    addresses = [f"127.0.1.{n}" for n in range(1, 33)]
    with server_process(tmp_path / "g.sqlite3") as (url, _):
        game = _new_game(url)["id"]
        with flooded(url, [game]) as flood:
            churning = threading.Thread(target=flood.churn, args=(8.0, 300, addresses))
            churning.start()
            time.sleep(1.0)
            tries, admitted = 0, 0
            while admitted < 10:
                tries += 1
                assert tries <= 20, f"{admitted} admitted in {tries - 1} tries"
                with (
                    contextlib.suppress(OSError, WebSocketException),
                    watch(url, game, None, timeout=5.0) as newcomer,
                ):
                    assert json.loads(newcomer.recv(5.0))["id"] == game
                    admitted += 1
            churning.join(TIMEOUT)
        print(
            f"300 upgrades in flight from 32 addresses: a newcomer admitted {admitted} times "
            f"in {tries} tries"
        )


def test_a_request_sent_ahead_on_a_kept_connection_is_held_to_the_caps(tmp_path: Path) -> None:
    with server_process(tmp_path / "g.sqlite3") as (url, _):
        small = b"GET /api/installed HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        large = (
            b"GET /api/installed HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + b"".join(b"X-%d: y\r\n" % n for n in range(8_000))
            + b"\r\n"
        )
        for ahead, expected in ((small, b" 200 "), (large, b" 431 ")):
            with socket.create_connection(_host_port(url), timeout=TIMEOUT) as conn:
                conn.sendall(small + ahead)  # the second sent before the first is answered
                data = b""
                conn.settimeout(TIMEOUT)
                # A response's body ends with no line end: the next status line follows it.
                while len(statuses := re.findall(rb"HTTP/1\.1 \d{3} ", data)) < 2:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                assert len(statuses) == 2, data[:300]
                assert b" 200 " in statuses[0]
                assert expected in statuses[1], statuses
