"""Hostile tables beside a person, against a real server: what tests/test_web_hostile.py
asserts and benchmarks/web_hostile.py measures.

A hostile client, on an address of its own (127.0.0.20), keeps ``tables`` tables
going: four families each, a person's seat it answers the moment it is asked (its
first answer), and three ISMCTS bots at the server's caps; a table that ends is
replaced. A person, on 127.0.0.1, plays whole games against ISMCTS bots through the
JSON API and a websocket, as the game page does; its *turn-around* is the time from
its answer's 200 to the view where it is asked again, when bots played in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import random
import statistics
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

#: The hostile client's address.
HOSTILE = "127.0.0.20"
#: The person's families: theirs, then the bots'.
PERSON = "red"
#: Seconds any one view may take to come before a run is given up.
PATIENCE = 120.0


def _parts(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


async def request(
    url: str, method: str, path: str, body: object = None, token: str | None = None
) -> tuple[int, Any]:
    """One request from the hostile client's address (in a thread: http.client)."""

    def send() -> tuple[int, Any]:
        host, port = _parts(url)
        connection = http.client.HTTPConnection(
            host, port, timeout=PATIENCE, source_address=(HOSTILE, 0)
        )
        try:
            headers = {"Content-Type": "application/json"}
            if token is not None:
                headers["Authorization"] = f"Bearer {token}"
            data = json.dumps(body) if body is not None else None
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()

    return await asyncio.to_thread(send)


def _ws(url: str, game: str) -> str:
    return url.replace("http://", "ws://") + f"/api/games/{game}/ws"


class Hostile:
    """The hostile client's tables (see the module's text)."""

    def __init__(self, url: str, tables: int, bots: str, seed: int) -> None:
        self.url, self.tables, self.bots, self.seed = url, tables, bots, seed
        self.answers = 0
        self.games = 0
        self.errors: list[str] = []
        self.playing = 0
        self._tasks: list[asyncio.Task[None]] = []
        # A few sockets at a time waiting for their first view: a server closes the
        # oldest of too many from one address waiting so.
        self._joining = asyncio.Semaphore(4)

    def start(self) -> None:
        self._tasks = [asyncio.ensure_future(self._slot(n)) for n in range(self.tables)]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _slot(self, index: int) -> None:
        for seed in range(self.seed + index, 2**31, self.tables):
            bots = dict.fromkeys(("blue", "green", "yellow"), self.bots)
            body = {"families": 4, "seed": seed, "bots": bots}
            status, made = await request(self.url, "POST", "/api/games", body)
            if status != 201:
                self.errors.append(f"create: {status} {made!r:.200}")
                return
            try:
                await self._play(made["id"], made["seats"][PERSON])
            except (OSError, WebSocketException, KeyError) as exc:
                self.errors.append(f"table {made['id']}: {type(exc).__name__}: {exc}")
                return
            self.games += 1

    async def _play(self, game: str, token: str) -> None:
        async with self._joining:
            socket = await connect(
                _ws(self.url, game), open_timeout=PATIENCE, local_addr=(HOSTILE, 0)
            )
            await socket.send(json.dumps({"token": token}))
            first = await asyncio.wait_for(socket.recv(), PATIENCE)
        async with socket:
            self.playing += 1
            try:
                if await self._answer(game, token, first):
                    return
                async for frame in socket:
                    if await self._answer(game, token, frame):
                        return
            finally:
                self.playing -= 1

    async def _answer(self, game: str, token: str, frame: str | bytes) -> bool:
        """Answers at once if the view ``frame`` asks: whether the game is over."""
        view = json.loads(frame)
        if view.get("phase") == "end":
            return True
        if view.get("answers"):
            answer = {"answer": view["answers"][0], "step": view["step"]}
            path = f"/api/games/{game}/answer"
            status, _ = await request(self.url, "POST", path, answer, token)
            self.answers += status == 200
        return False


class Person:
    """The person's turn-arounds, over whole games."""

    def __init__(self) -> None:
        self.turn_arounds: list[float] = []
        self.answers = 0

    @property
    def median(self) -> float:
        return statistics.median(self.turn_arounds) if self.turn_arounds else 0.0

    async def play(self, url: str, bots: dict[str, str], seed: int, turns: int) -> None:
        """Plays games (seeds from ``seed`` on) against ``bots`` until ``turns`` more
        turn-arounds are measured."""
        wanted = len(self.turn_arounds) + turns
        rng = random.Random(seed)
        while len(self.turn_arounds) < wanted:
            seed += 1
            await self._game(url, bots, seed, rng, wanted)

    async def _game(
        self, url: str, bots: dict[str, str], seed: int, rng: random.Random, wanted: int
    ) -> None:
        body = {"families": 1 + len(bots), "seed": seed, "bots": bots}
        status, made = await asyncio.to_thread(_post, url, "/api/games", body, None)
        assert status == 201, made
        game, token = made["id"], made["seats"][PERSON]
        async with connect(_ws(url, game), open_timeout=PATIENCE) as socket:
            await socket.send(json.dumps({"token": token}))
            view = await _next(socket)
            while view["phase"] != "end" and len(self.turn_arounds) < wanted:
                while not view["answers"] and view["phase"] != "end":
                    view = await _next(socket)
                if view["phase"] == "end":
                    return
                answer = {"answer": rng.choice(view["answers"]), "step": view["step"]}
                path = f"/api/games/{game}/answer"
                status, posted = await asyncio.to_thread(_post, url, path, answer, token)
                answered = time.perf_counter()
                assert status == 200, posted
                self.answers += 1
                view = posted
                if view["answers"] or view["phase"] == "end":
                    continue  # asked again at once: no bot played
                while view["step"] <= posted["step"] or (
                    not view["answers"] and view["phase"] != "end"
                ):
                    view = await _next(socket)
                if view["answers"]:
                    self.turn_arounds.append(time.perf_counter() - answered)


def _post(url: str, path: str, body: object, token: str | None) -> tuple[int, Any]:
    host, port = _parts(url)
    connection = http.client.HTTPConnection(host, port, timeout=PATIENCE)
    try:
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        connection.request("POST", path, body=json.dumps(body), headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


async def _next(socket: ClientConnection) -> Any:
    view = json.loads(await asyncio.wait_for(socket.recv(), PATIENCE))
    if "error" in view:
        raise RuntimeError(f"the person's websocket: {view['error']}")
    return view


async def beside(
    url: str,
    person: Person,
    bots: dict[str, str],
    hostile: Hostile | None,
    *,
    seed: int,
    turns: int,
) -> None:
    """``person`` plays ``turns`` turn-arounds, beside ``hostile``'s tables if given
    (started first, and given until every table is playing)."""
    if hostile is None:
        await person.play(url, bots, seed, turns)
        return
    hostile.start()
    try:
        deadline = time.monotonic() + PATIENCE
        while hostile.playing < hostile.tables and not hostile.errors:
            assert time.monotonic() < deadline, "the hostile tables did not all start"
            await asyncio.sleep(0.1)
        assert not hostile.errors, hostile.errors
        await person.play(url, bots, seed, turns)
        assert not hostile.errors, hostile.errors
    finally:
        with contextlib.suppress(Exception):
            await hostile.stop()
