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
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import ConfigError, SaveError
from .installed import installed
from .store import Store, StoreError
from .tables import Refused, Tables

log = logging.getLogger("oriflamme.web")

STATIC = Path(__file__).parent / "static"
#: The largest request body read; anything longer is refused with 413.
MAX_BODY = 64 * 1024
#: How long one websocket may take to take a view before it is let go (seconds).
SEND_SECONDS = 10.0

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
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, f"the request body is larger than {MAX_BODY} bytes")
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise Refused(400, f"the request body is not JSON: {str(exc)[:120]}") from exc


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _token(request: Request | WebSocket) -> str | None:
    return request.query_params.get("token")


async def lobby(request: Request) -> Response:
    return FileResponse(STATIC / "lobby.html")


async def game_page(request: Request) -> Response:
    return FileResponse(STATIC / "game.html")


async def get_installed(request: Request) -> Response:
    return JSONResponse(request.app.state.installed)


async def create(request: Request) -> Response:
    table, tokens = _tables(request).create(await read_json(request))
    base = str(request.base_url).rstrip("/")
    spectate = f"{base}/play/{table.id}"
    links = {family: f"{spectate}#token={value}" for family, value in tokens.items()}
    body = {"id": table.id, "seats": tokens, "spectate": spectate, "links": links}
    return JSONResponse(body, status_code=201)


async def view(request: Request) -> Response:
    table = _tables(request).find(request.path_params["id"])
    return JSONResponse(table.view(table.seat(_token(request))))


async def answer(request: Request) -> Response:
    tables = _tables(request)
    table = tables.find(request.path_params["id"])
    family = table.seat(_token(request))
    if family is None:
        raise Refused(403, "answering needs the token of a seat (?token=...)")
    body = await read_json(request)
    if not isinstance(body, dict) or set(body) != {"answer"}:
        raise Refused(400, 'the body must be {"answer": <one of the view\'s "answers">}')
    return JSONResponse(await tables.answer(table, family, body["answer"]))


async def replay(request: Request) -> Response:
    tables = _tables(request)
    table = tables.find(request.path_params["id"])
    family = table.seat(_token(request))
    step = request.query_params.get("step", "")
    if not step.isdigit() or len(step) > 9:
        raise Refused(400, f"step must be a whole number from 0 to {table.step}")
    return JSONResponse(tables.replay(table, family, int(step)))


async def websocket(socket: WebSocket) -> None:
    """Sends the view at once, then after every change; closes 4403 or 4404 (after
    one ``{"error": ...}`` message) for a wrong token or an unknown game."""
    await socket.accept()
    tables = _tables(socket)
    try:
        table = tables.find(socket.path_params["id"])
        family = table.seat(_token(socket))
    except Refused as exc:
        await socket.send_json({"error": str(exc)})
        await socket.close(code=4000 + exc.status)
        return
    except (SaveError, StoreError) as exc:
        log.error("game %s: %s", socket.path_params["id"], type(exc).__name__)
        await socket.close(code=1011)
        return

    async def send(view: dict[str, Any]) -> bool:
        try:
            await asyncio.wait_for(socket.send_text(json.dumps(view)), SEND_SECONDS)
        except Exception:  # gone, or too slow: it reconnects and gets the view
            return False
        return True

    await tables.watch(table, family, send)
    try:
        while True:  # what a client sends is not read: answers go through POST
            await socket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        tables.leave(table, send)


async def refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    return error(exc.status, str(exc))


async def not_found(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return error(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}")
    return Response(exc.detail, status_code=exc.status_code, media_type="text/plain")


async def bad_config(request: Request, exc: Exception) -> Response:
    return error(400, str(exc))


async def unreadable(request: Request, exc: Exception) -> Response:
    # The message is neither sent nor logged: a save's faults may name hidden cards.
    log.error("game %s: %s", request.path_params.get("id"), type(exc).__name__)
    if isinstance(exc, StoreError):
        return error(503, "the games file cannot be used just now; try again")
    return error(500, "this game's save cannot be read; the games file may be damaged")


ROUTES = [
    Route("/", lobby),
    Route("/play/{id}", game_page),
    Route("/api/installed", get_installed),
    Route("/api/games", create, methods=["POST"]),
    Route("/api/games/{id}", view),
    Route("/api/games/{id}/answer", answer, methods=["POST"]),
    Route("/api/games/{id}/replay", replay),
    WebSocketRoute("/api/games/{id}/ws", websocket),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


def create_app(
    db: Path | str, *, plugins: Mapping[str, object] | None = None, entry_points: bool = True
) -> Starlette:
    """The server's ASGI app, keeping its games in the SQLite file ``db``.

    Its plugins are the installed ones (``entry_points``) and ``plugins``, registered
    by name (an app that embeds the server with plugins of its own)."""
    store = Store(db)
    tables = Tables(store, plugins, entry_points)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()

    app = Starlette(
        routes=ROUTES,
        exception_handlers={
            Refused: refused,
            HTTPException: not_found,
            ConfigError: bad_config,
            SaveError: unreadable,
            StoreError: unreadable,
        },
        lifespan=lifespan,
    )
    app.add_middleware(SecurityHeaders)
    app.state.tables = tables
    app.state.installed = installed(tables.registry())
    return app
