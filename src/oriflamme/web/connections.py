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
import ipaddress
import logging
import socket
from collections.abc import Sequence
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import Limits, client, option

log = logging.getLogger("oriflamme.web")


class Phase(enum.Enum):
    """What a connection is waiting for from its client, if anything."""

    HEADERS = "headers"
    BODY = "body"


class Connections:
    """What the connections of one server share: its limits, and those waiting for a
    request's headers, oldest first (the ones a new connection may evict)."""

    def __init__(self, limits: Limits, proxies: Sequence[str] = ()) -> None:
        self.limits = limits
        # A dict keeps insertion order: the first key is the one waiting longest.
        self.waiting: dict[LimitedH11Protocol, None] = {}
        # Open connections by client (see limits.client), and the proxies not counted.
        self.by_client: dict[str, int] = {}
        self._proxies = [_network(proxy) for proxy in proxies]

    def counted(self, address: str) -> str | None:
        """The client ``address`` is counted as, None for a trusted proxy."""
        if any(network is None for network in self._proxies):  # "*": every address
            return None
        try:
            found = ipaddress.ip_address(address)
        except ValueError:
            return client(address)
        if any(network is not None and found in network for network in self._proxies):
            return None
        return client(address)

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
        self._client: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        shared = self.shared
        peer = transport.get_extra_info("peername")
        who = shared.counted(str(peer[0])) if isinstance(peer, tuple) and peer else None
        if (
            who is not None
            and shared.by_client.get(who, 0) >= shared.limits.connections_per_address
        ):
            self._refused = True
            log.warning(
                "connection from %s refused: it has the most connections %s allows",
                who,
                option("connections_per_address"),
            )
            transport.abort()
            return
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
        if who is not None:
            shared.by_client[who] = shared.by_client.get(who, 0) + 1
            self._client = who
        _no_delay(transport)
        super().connection_made(transport)
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:  # uvicorn never saw it: nothing of its to undo
            return
        if not self._upgraded:  # else the websocket's end gives its place back
            self._release()
        self._stop()
        super().connection_lost(exc)

    def _release(self) -> None:
        """Gives back this connection's place in its address's count (once)."""
        if self._client is not None:
            left = self.shared.by_client.pop(self._client, 1) - 1
            if left > 0:
                self.shared.by_client[self._client] = left
            self._client = None

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
        # The connection is now the websocket protocol's, which is told when it ends:
        # it gives back this connection's place in its address's count then.
        if self._client is not None:
            socket_protocol = self.transport.get_protocol()
            if socket_protocol is not self:
                ended = socket_protocol.connection_lost

                def lost(exc: Exception | None) -> None:
                    self._release()
                    ended(exc)

                socket_protocol.connection_lost = lost  # type: ignore[method-assign]

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


def limited_protocol(limits: Limits, proxies: Sequence[str] = ()) -> type[LimitedH11Protocol]:
    """The protocol class to give ``uvicorn.Config(http=...)``: one per server, its
    connections sharing ``limits``; ``proxies`` (addresses, networks or ``*``) are not
    counted per address."""

    class ServerProtocol(LimitedH11Protocol):
        shared = Connections(limits, proxies)

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


def _network(proxy: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """A trusted proxy as a network (None: ``*``, any address)."""
    return None if proxy.strip() == "*" else ipaddress.ip_network(proxy.strip(), strict=False)
