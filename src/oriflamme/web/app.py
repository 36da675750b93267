"""The web server: the lobby and game pages, the JSON API and the websocket (see
docs/web.md, where the API is written down as a contract).

The server is a thin layer over the engine: every view is built from one family's
observation (:mod:`.views`), every answer is checked by the engine, and the page
only ever offers the answers a view lists.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from oriflamme import ConfigError, SaveError
from oriflamme.text import cut

from .connections import SOCKET_EXTENSION
from .installed import installed
from .languages import UnknownLanguage, read_language
from .limits import Limits, client
from .origins import HostsAndOrigins
from .rates import RateLimit
from .sockets import Socket
from .store import StoreError, open_store
from .tables import Refused, Table, Tables

log = logging.getLogger("oriflamme.web")

STATIC = Path(__file__).parent / "static"
#: The largest request body read; anything longer is refused with 413.
MAX_BODY = 64 * 1024
#: How long one websocket may take to take a view before it is let go (seconds).
SEND_SECONDS = 10.0
#: How long a websocket has to send its first message, the token (seconds).
HELLO_SECONDS = 10.0
#: How often games kept long enough are deleted (seconds).
EXPIRY_SECONDS = 3600.0

HEADERS = [
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (
        b"content-security-policy",
        b"default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
        b"script-src 'self'; base-uri 'none'; frame-ancestors 'none'",
    ),
]


class SecurityHeaders:
    """Adds :data:`HEADERS` to every HTTP response, and ``Cache-Control: no-store`` to
    the API's: a view is one seat's secret."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *HEADERS]
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request) -> Any:
    """The request's body as JSON: 413 past :data:`MAX_BODY` bytes, 400 if not JSON."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refused(413, f"the request body is larger than {MAX_BODY} bytes")
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise Refused(413, f"the request body is larger than {MAX_BODY} bytes")
    except ClientDisconnect as exc:  # gone, or dropped for being too slow
        raise Refused(400, "the request body did not arrive whole") from exc
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise Refused(400, f"the request body is not JSON: {cut(str(exc), 120)}") from exc


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _token(request: Request) -> str | None:
    """The seat's (or creator's) token, from ``Authorization: Bearer <token>``; None
    with no such header (a spectator). A token in the URL is refused: proxies and
    access logs keep URLs."""
    if any(name.lower() == "token" for name in request.query_params):
        raise Refused(
            400,
            "a token is sent in the header Authorization: Bearer <token>, never in the "
            "URL (where logs would keep it)",
        )
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200:
        raise Refused(400, "the Authorization header must be: Bearer <token>")
    return token


def _language(request: Request | WebSocket) -> str:
    """The view's language, from ``?language=`` (en, fr, pl; English if none): 400 for
    any other."""
    try:
        return read_language(request.query_params)
    except UnknownLanguage as exc:
        raise Refused(400, str(exc)) from exc


def _client(request: HTTPConnection) -> str:
    """The client the request comes from: its address (a trusted proxy's
    X-Forwarded-For, see serve), an IPv6 address's /64."""
    return client(request.client.host) if request.client is not None else "?"


def _json_text(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


async def lobby(request: Request) -> Response:
    return FileResponse(STATIC / "lobby.html")


async def game_page(request: Request) -> Response:
    return FileResponse(STATIC / "game.html")


async def table_page(request: Request) -> Response:
    return FileResponse(STATIC / "table.html")


async def get_installed(request: Request) -> Response:
    return JSONResponse(request.app.state.installed)


def _links(request: Request, table: Table, creator: str, tokens: dict[str, str]) -> dict[str, Any]:
    base = str(request.base_url).rstrip("/")
    spectate = f"{base}/play/{table.id}"
    return {
        "id": table.id,
        "seats": tokens,
        "spectate": spectate,
        "links": {family: f"{spectate}#token={value}" for family, value in tokens.items()},
        "creator": creator,
        "table": f"{base}/table/{table.id}#token={creator}",
    }


async def create(request: Request) -> Response:
    # A creator's token of an earlier game, if sent: the new game is that client's.
    earlier = _token(request)
    body = await read_json(request)
    address = _client(request)
    # Counted once the request is read and checked: a refused one costs nothing.
    rate = request.app.state.create_rate
    table, creator, tokens = await _tables(request).create(
        body, lambda: rate.take(address), client=address, earlier=earlier
    )
    return JSONResponse(_links(request, table, creator, tokens), status_code=201)


async def view(request: Request) -> Response:
    language = _language(request)
    table = await _tables(request).find(request.path_params["id"])
    return _json_text(table.view(table.seat(_token(request)), language))


async def table_links(request: Request) -> Response:
    """Every seat's link and the spectator's, for the game's creator."""
    tables = _tables(request)
    table = await tables.find(request.path_params["id"])
    creator = _token(request)
    tokens = tables.links(table, creator)
    assert creator is not None
    found = _links(request, table, creator, tokens)
    found.update(players=table.players, step=table.step, over=table.game.over)
    return JSONResponse(found)


async def answer(request: Request) -> Response:
    tables = _tables(request)
    token = _token(request)
    language = _language(request)
    # The body is read before the game is looked up: from then on, nothing waits until
    # the answer is played, so the game cannot be let go from memory meanwhile.
    body = await read_json(request)
    table = await tables.find(request.path_params["id"])
    family = table.seat(token)
    if family is None:
        raise Refused(403, "answering needs a seat's token (Authorization: Bearer <token>)")
    step = body.get("step") if isinstance(body, dict) else None
    if not isinstance(body, dict) or set(body) != {"answer", "step"} or type(step) is not int:
        raise Refused(
            400,
            'the body must be {"answer": <one of the view\'s "answers">, '
            '"step": <the view\'s "step">}',
        )
    tables.check_turn(table, family, step)  # refused for free: a retry costs nothing
    await request.app.state.answer_rate.take(f"{table.id}:{family}")
    return _json_text(await tables.answer(table, family, body["answer"], step, language))


async def replay(request: Request) -> Response:
    tables = _tables(request)
    language = _language(request)
    table = await tables.find(request.path_params["id"])
    family = table.seat(_token(request))
    step = request.query_params.get("step", "")
    if not (step.isascii() and step.isdigit()) or len(step) > 9:
        raise Refused(400, f"step must be a whole number from 0 to {table.step}")
    await request.app.state.replay_rate.take(_client(request))
    return JSONResponse(await tables.replay(table, family, int(step), language))


async def _hello(socket: WebSocket) -> str | None:
    """The token a websocket sends first, ``{"token": <token> | null}`` (null: a
    spectator); a browser cannot put a header on a websocket, and a URL is logged."""
    try:
        message = await asyncio.wait_for(socket.receive(), HELLO_SECONDS)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        hello = json.loads(message.get("text") or "")  # a binary message is no token
    except (TimeoutError, ValueError, RecursionError) as exc:
        raise Refused(400, 'the first message must be {"token": <token> or null}') from exc
    token = hello.get("token") if isinstance(hello, dict) else None
    if (
        not isinstance(hello, dict)
        or set(hello) != {"token"}
        or not (token is None or (isinstance(token, str) and 0 < len(token) <= 200))
    ):
        raise Refused(400, 'the first message must be {"token": <token> or null}')
    return token


async def websocket(socket: WebSocket) -> None:
    """Waits for the token, then sends the view (in ``?language=``) at once and after
    every change; closes 4400, 4403 or 4404 (after one ``{"error": ...}`` message) for
    a bad first message or language, a wrong token or an unknown game, and 4503 for a
    spectator the server has no room for (see :mod:`.sockets`)."""
    await socket.accept()
    tables = _tables(socket)
    # Its place among the server's websockets (none where another server runs the app).
    entry: Socket | None = socket.scope.get("extensions", {}).get(SOCKET_EXTENSION)
    try:
        if any(name.lower() == "token" for name in socket.query_params):
            raise Refused(400, "a token is sent in the first message, never in the URL")
        language = _language(socket)
        token = await _hello(socket)
        table = await tables.find(socket.path_params["id"])
        family = table.seat(token)
        if entry is not None and not entry.admit(_client(socket), table.id, family):
            raise Refused(
                503, "this server watches as many games as it can just now; try again later"
            )
    except Refused as exc:
        with contextlib.suppress(Exception):
            await socket.send_json({"error": str(exc)})
            await socket.close(code=4000 + exc.status)
        if entry is not None:
            entry.close()  # refused: its file is not held while its client takes the close
        return
    except (WebSocketDisconnect, RuntimeError):
        return
    except (SaveError, StoreError) as exc:
        log.error("game %s: %s", socket.path_params["id"], type(exc).__name__)
        await socket.close(code=1011)
        return
    watcher = tables.watch(table, family, language)

    async def sending() -> None:
        while True:
            await watcher.changed.wait()
            watcher.changed.clear()
            if tables.gone(table):
                if table.expired:
                    await socket.send_json({"error": "this game was kept long enough: it is gone"})
                    await socket.close(code=4404)
                else:  # let go from memory: a new connection finds it again
                    await socket.close(code=1012)
                return
            # Not while an answer is being kept: the game has moved on, its step not yet.
            async with table.lock:
                frame = watcher.frame(table)
            # Too slow to take a view: let go; it reconnects and gets the newest.
            await asyncio.wait_for(socket.send_text(frame), SEND_SECONDS)

    async def reading() -> None:
        # What a client sends now is not read (answers go through POST), text or not.
        while (await socket.receive())["type"] != "websocket.disconnect":
            pass

    tasks = [asyncio.ensure_future(sending()), asyncio.ensure_future(reading())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        tables.leave(table, watcher)


async def refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    response = error(exc.status, str(exc))
    if exc.retry_after is not None:
        response.headers["retry-after"] = str(exc.retry_after)
    return response


async def not_found(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return error(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}")
    return Response(exc.detail, status_code=exc.status_code, media_type="text/plain")


async def bad_config(request: Request, exc: Exception) -> Response:
    return error(400, str(exc))


async def unreadable(request: Request, exc: Exception) -> Response:
    # The message is neither sent nor logged: a save's faults may name hidden cards.
    game = request.path_params.get("id")
    if game is None:  # a game being created
        log.error("%s %s: %s", request.method, request.url.path, type(exc).__name__)
    else:
        log.error("game %s: %s", game, type(exc).__name__)
    if isinstance(exc, StoreError):
        return error(503, "the games store cannot be used just now; try again")
    return error(500, "this game's save cannot be read; the games store may be damaged")


ROUTES = [
    Route("/", lobby),
    Route("/play/{id}", game_page),
    Route("/table/{id}", table_page),
    Route("/api/installed", get_installed),
    Route("/api/games", create, methods=["POST"]),
    Route("/api/games/{id}", view),
    Route("/api/games/{id}/answer", answer, methods=["POST"]),
    Route("/api/games/{id}/replay", replay),
    Route("/api/games/{id}/table", table_links),
    WebSocketRoute("/api/games/{id}/ws", websocket),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


async def crashed(request: Request, exc: Exception) -> Response:
    """A failure nobody foresaw: a JSON error with the usual headers. Only the kind of
    failure is logged here: its message might name a hidden card."""
    log.error("%s %s: %s", request.method, request.url.path, type(exc).__name__)
    response = error(500, "the server failed on this request")
    for name, value in [*HEADERS, (b"cache-control", b"no-store")]:
        response.headers[name.decode()] = value.decode()
    return response


def create_app(
    db: Path | str,
    *,
    plugins: Mapping[str, object] | None = None,
    entry_points: bool = True,
    limits: Limits | None = None,
) -> Starlette:
    """The server's ASGI app, keeping its games in ``db``: the path of a SQLite file, or
    a ``postgresql://`` URL (see :func:`.store.open_store`).

    Its plugins are the installed ones (``entry_points``) and ``plugins``, registered
    by name (an app that embeds the server with plugins of its own: modules, so that
    the bots' worker processes can import them too). ``limits``: see :class:`Limits`."""
    limits = limits if limits is not None else Limits()
    limits.check()
    store = open_store(db)
    tables = Tables(store, plugins, entry_points, limits)

    async def expiring() -> None:
        while True:
            try:
                await tables.expire()
            except StoreError as exc:
                log.error("expiring games: %s", type(exc).__name__)
            await asyncio.sleep(EXPIRY_SECONDS)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sweeper = asyncio.ensure_future(expiring())
        tables.start()
        try:
            yield
        finally:
            sweeper.cancel()
            tables.close()
            store.close()

    app = Starlette(
        routes=ROUTES,
        exception_handlers={
            Refused: refused,
            HTTPException: not_found,
            ConfigError: bad_config,
            SaveError: unreadable,
            StoreError: unreadable,
            Exception: crashed,
        },
        lifespan=lifespan,
    )
    app.add_middleware(HostsAndOrigins, allowed_hosts=limits.allowed_hosts)
    app.add_middleware(SecurityHeaders)
    app.state.tables = tables
    app.state.create_rate = RateLimit(
        limits.create_rate, "create", "games created from this address", tables.take
    )
    app.state.answer_rate = RateLimit(
        limits.answer_rate, "answer", "answers from this seat", tables.take
    )
    app.state.replay_rate = RateLimit(
        limits.replay_rate, "replay", "replays from this address", tables.take
    )
    app.state.installed = installed(tables.registry(), limits)
    return app
