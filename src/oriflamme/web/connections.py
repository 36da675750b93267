"""Connections kept within the server's limits (:class:`~.limits.Limits`).

uvicorn's HTTP/1.1 protocol on h11, with three bounds added:

- **Headers in time.** A client has ``header_seconds`` to send a whole request's
  headers, counted from when it connects or from the end of its previous response
  (uvicorn's keep-alive timeout applies too, and is shorter by default). A client that
  sends nothing, or trickles its headers a byte at a time, is dropped.
- **A body in time.** Once the headers are in, the client has ``body_seconds`` to send
  the whole body, whether or not the app has already answered.
- **So many connections.** At most ``max_connections`` are open at once, websockets
  included. A new connection past the cap first evicts the oldest connection still
  waiting for a request's headers (an idle or slow one); if there is none, the new
  connection is closed at once. The server therefore never runs out of file
  descriptors, however many clients connect.

Each connection holds at most one timer, set when a phase starts (waiting for
headers, receiving a body) and cancelled when it ends: nothing runs per byte received
and nothing polls. Once a connection is upgraded to a websocket its timers stop (the
app bounds websockets itself).

h11 is uvicorn's own dependency, so this protocol is the same wherever the server
runs, whether or not httptools is installed. It relies on these parts of uvicorn's
``H11Protocol``: its constructor, ``conn`` (the h11 connection, whose client state
tells the phase), ``transport``, ``loop``, ``server_state.connections`` (every open
connection, websockets included), and the methods ``connection_made``,
``connection_lost``, ``data_received``, ``on_response_complete`` and
``handle_websocket_upgrade``, each overridden to call uvicorn's first.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import socket
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import Limits, option

log = logging.getLogger("oriflamme.web")


class Phase(enum.Enum):
    """What a connection is waiting for from its client, if anything."""

    HEADERS = "headers"
    BODY = "body"


class Connections:
    """What the connections of one server share: its limits, and those waiting for a
    request's headers, oldest first (the ones a new connection may evict)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        # A dict keeps insertion order: the first key is the one waiting longest.
        self.waiting: dict[LimitedH11Protocol, None] = {}

    def evict_oldest_waiting(self) -> bool:
        """Drops the connection waiting longest for headers; False if none is waiting."""
        oldest = next(iter(self.waiting), None)
        if oldest is None:
            return False
        oldest.drop()
        return True


class LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, within the limits of :attr:`shared` (see the module)."""

    shared: ClassVar[Connections]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._phase: Phase | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._refused = False
        self._upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        shared = self.shared
        if (
            len(self.server_state.connections) >= shared.limits.max_connections
            and not shared.evict_oldest_waiting()
        ):
            # Full of busy connections: this one is closed before uvicorn knows of it.
            self._refused = True
            log.warning(
                "connection from %s refused: %d connections open, the most %s allows",
                _address(transport),
                len(self.server_state.connections),
                option("max_connections"),
            )
            transport.abort()
            return
        _no_delay(transport)
        super().connection_made(transport)
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:  # uvicorn never saw it: nothing of its to undo
            return
        self._stop()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        # The next request's headers are due from now (h11 starts its next cycle here,
        # or on the rest of the request's body if the app answered before reading it).
        super().on_response_complete()
        self._follow()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True
        self._stop()
        super().handle_websocket_upgrade(event)

    def drop(self) -> None:
        """Closes the connection at once, discarding anything not yet sent to it."""
        self._stop()
        if not self.transport.is_closing():
            self.transport.abort()

    def _follow(self) -> None:
        """Sets the timer of the phase the client is in, if it changed."""
        phase: Phase | None = None
        if not self._upgraded and not self.transport.is_closing():
            state = self.conn.their_state
            if state is h11.IDLE:
                phase = Phase.HEADERS
            elif state is h11.SEND_BODY:
                phase = Phase.BODY
        if phase is self._phase:
            return  # still in the same phase: its deadline stands
        self._stop()
        if phase is None:
            return
        limits = self.shared.limits
        if phase is Phase.HEADERS:
            self.shared.waiting[self] = None
            seconds = limits.header_seconds
        else:
            seconds = limits.body_seconds
        self._phase = phase
        self._deadline = self.loop.call_later(seconds, self.drop)

    def _stop(self) -> None:
        self._phase = None
        self.shared.waiting.pop(self, None)
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None


def _address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
    return "an unknown address"


def limited_protocol(limits: Limits) -> type[LimitedH11Protocol]:
    """The protocol class to give ``uvicorn.Config(http=...)``: one per server, its
    connections sharing ``limits``."""

    class ServerProtocol(LimitedH11Protocol):
        shared = Connections(limits)

    return ServerProtocol


def _no_delay(transport: asyncio.Transport) -> None:
    """Sends each write at once. asyncio does so only for sockets made as TCP sockets
    (protocol 6); a listening socket made by :func:`socket.create_server` is protocol 0,
    and so are the connections it accepts: a response's body then waited for the
    client's delayed acknowledgement of its headers, 40 ms, on every request of a
    connection kept alive."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
