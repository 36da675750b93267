"""Connections kept within the server's limits (:class:`~.limits.Limits`).

uvicorn's HTTP/1.1 protocol on h11, with these bounds added:

- **Headers in time.** A client has ``header_seconds`` to send a whole request's
  headers, counted from when it connects or from the end of its previous response
  (uvicorn's keep-alive timeout applies too, and is shorter by default). A client that
  sends nothing, or trickles its headers a byte at a time, is dropped.
- **Headers in size.** A request whose headers pass ``max_header_bytes`` or
  ``max_header_lines`` is answered 431 and closed as the bytes arrive, before h11
  parses them (h11 only bounds headers that have not all arrived).
- **A body in time.** Once the headers are in, the client has ``body_seconds`` to send
  the whole body, whether or not the app has already answered.
- **So many connections.** At most ``max_connections`` HTTP connections are open at
  once. A new connection past the cap first evicts the oldest connection still waiting
  for a request's headers (an idle or slow one); if there is none, the new connection
  is closed at once. The server therefore never runs out of file descriptors, however
  many clients connect. A connection upgraded to a websocket leaves this count for the
  websockets' own (:mod:`.sockets`): watchers never take a player's place.

Each connection holds at most one timer, set when a phase starts (waiting for
headers, receiving a body) and cancelled when it ends: nothing polls. Once a
connection is upgraded to a websocket its timers stop, and :class:`~.sockets.Crowd`
counts it; the app finds its entry there in the scope's extension
:data:`SOCKET_EXTENSION`.

h11 is uvicorn's own dependency, so this protocol is the same wherever the server
runs, whether or not httptools is installed. It relies on these parts of uvicorn's
``H11Protocol``: its constructor, ``conn`` (the h11 connection, whose client state
tells the phase), ``transport``, ``loop``, and the methods ``connection_made``,
``connection_lost``, ``data_received``, ``on_response_complete`` and
``handle_websocket_upgrade``, each overridden to call uvicorn's first; and on the
websocket protocol uvicorn's ``websockets-sansio`` makes, its ``scope`` (built as the
upgrade request is read) and ``connection_lost``.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import ipaddress
import json
import logging
import re
import socket
from collections.abc import Sequence
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import Limits, client, option
from .sockets import Crowd

log = logging.getLogger("oriflamme.web")

#: A client's websocket messages are not read (answers go through POST): any large one
#: is refused.
WS_MAX_SIZE = 4096
#: Seconds an idle connection is kept between requests (uvicorn's keep-alive).
KEEP_ALIVE_SECONDS = 5
#: The scope extension under which the app finds a websocket's :class:`~.sockets.Socket`.
SOCKET_EXTENSION = "oriflamme.socket"
#: The end of a request's headers (h11 takes bare line feeds too).
_END = re.compile(rb"\r?\n\r?\n")


class Phase(enum.Enum):
    """What a connection is waiting for from its client, if anything."""

    HEADERS = "headers"
    BODY = "body"


class Connections:
    """What the connections of one server share: its limits, the HTTP connections open,
    those waiting for a request's headers, oldest first (the ones a new connection may
    evict), and the websockets (:class:`~.sockets.Crowd`)."""

    def __init__(self, limits: Limits, proxies: Sequence[str] = ()) -> None:
        self.limits = limits
        self.open: set[LimitedH11Protocol] = set()
        # A dict keeps insertion order: the first key is the one waiting longest.
        self.waiting: dict[LimitedH11Protocol, None] = {}
        # Open connections by client (see limits.client), and the proxies not counted.
        self.by_client: dict[str, int] = {}
        self.crowd = Crowd(limits)
        self._proxies = [_network(proxy) for proxy in proxies]

    def counted(self, address: str) -> str | None:
        """The client ``address`` is counted as, None for a trusted proxy."""
        if any(network is None for network in self._proxies):  # "*": every address
            return None
        try:
            found = ipaddress.ip_address(address)
        except ValueError:
            return client(address)
        if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
            found = found.ipv4_mapped  # an IPv4 client of a server listening on "::"
        if any(network is not None and found in network for network in self._proxies):
            return None
        return client(address)

    def forwarded(self, value: str) -> str | None:
        """The client a trusted proxy's ``X-Forwarded-For`` names (as uvicorn reads it:
        the last address that is not a trusted proxy's); None if it names none."""
        hosts = [_host(part) for part in value.split(",") if part.strip()]
        for host in reversed(hosts):
            who = self.counted(host)
            if who is not None:
                return who
        return client(hosts[0]) if hosts else None

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
        self._who: str | None = None  # the client it counts as (None: a trusted proxy)
        # While a request's headers come in: their bytes and line ends so far, and the
        # last three bytes (an end of the headers may straddle two reads).
        self._head: tuple[int, int, bytes] | None = None
        self._ahead = False  # the next request's headers counted as a response ended

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
        if len(shared.open) >= shared.limits.max_connections and not shared.evict_oldest_waiting():
            # Full of busy connections: this one is closed before uvicorn knows of it.
            self._refused = True
            log.warning(
                "connection from %s refused: %d connections open, the most %s allows",
                _address(transport),
                len(shared.open),
                option("max_connections"),
            )
            transport.abort()
            return
        self._who = who
        if who is not None:
            shared.by_client[who] = shared.by_client.get(who, 0) + 1
            self._client = who
        shared.open.add(self)
        _no_delay(transport)
        super().connection_made(transport)
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:  # uvicorn never saw it: nothing of its to undo
            return
        self._release()
        self._stop()
        super().connection_lost(exc)

    def _release(self) -> None:
        """Gives back this connection's place among the HTTP connections (once)."""
        self.shared.open.discard(self)
        if self._client is not None:
            left = self.shared.by_client.pop(self._client, 1) - 1
            if left > 0:
                self.shared.by_client[self._client] = left
            self._client = None

    def data_received(self, data: bytes) -> None:
        if self._head is not None and not self._head_fits(data):
            return
        super().data_received(data)
        self._follow()

    def _head_fits(self, data: bytes) -> bool:
        """Counts ``data`` into the request's headers: False (and the request answered
        431, the connection closed) once they are larger than the limits allow."""
        assert self._head is not None
        size, lines, tail = self._head
        seen = tail + data
        end = _END.search(seen)
        head = seen if end is None else seen[: end.end()]
        size += len(head) - len(tail)
        # The request line and the blank line after the headers are not headers.
        lines += head.count(b"\n") - tail.count(b"\n")
        limits = self.shared.limits
        if size > limits.max_header_bytes or lines > limits.max_header_lines + 2:
            self._too_large()
            return False
        self._head = None if end is not None else (size, lines, seen[-3:])
        return True

    def _too_large(self) -> None:
        limits = self.shared.limits
        log.warning(
            "request from %s refused: its headers are over %s or %s",
            _address(self.transport),
            option("max_header_bytes"),
            option("max_header_lines"),
        )
        body = json.dumps(
            {
                "error": f"the request's headers are larger than this server takes (at most "
                f"{limits.max_header_bytes} bytes and {limits.max_header_lines} lines)"
            }
        ).encode()
        self._stop()
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: application/json\r\ncache-control: no-store\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
        )
        self.transport.close()

    def on_response_complete(self) -> None:
        # The next request's headers are due from now (h11 starts its next cycle here,
        # or on the rest of the request's body if the app answered before reading it).
        if not self._upgraded and self.conn.their_state is h11.DONE:
            # A request sent before this response ended (pipelined) waits in h11's
            # buffer, parsed as the next cycle starts: its headers are counted first.
            self._head = (0, 0, b"")
            ahead = bytes(self.conn.trailing_data[0])
            if ahead and not self._head_fits(ahead):
                return
            self._ahead = True
        super().on_response_complete()
        self._follow()
        self._ahead = False

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True
        self._stop()
        # Out of the HTTP connections' count, into the websockets' (if it becomes one).
        self._release()
        super().handle_websocket_upgrade(event)
        socket_protocol = self.transport.get_protocol()
        scope = getattr(socket_protocol, "scope", None)
        if socket_protocol is self or not isinstance(scope, dict) or self.transport.is_closing():
            return  # no websocket came of it (a handshake refused): nothing to count
        address = self._who
        if address is None:  # a trusted proxy's: counted by the client it forwards for
            forwarded = b", ".join(v for name, v in event.headers if name == b"x-forwarded-for")
            address = self.shared.forwarded(forwarded.decode("latin-1"))
        entry = self.shared.crowd.arrive(address, self.transport)
        scope["extensions"][SOCKET_EXTENSION] = entry
        ended = socket_protocol.connection_lost

        def lost(exc: Exception | None) -> None:
            entry.crowd.lost(entry)
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
            if not self._ahead:  # else counted from what was sent ahead already
                self._head = (0, 0, b"")
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


def server_config(
    app: Any, limits: Limits, trusted: Sequence[str] = (), **settings: Any
) -> uvicorn.Config:
    """uvicorn's settings for serving ``app`` within ``limits`` (as ``oriflamme serve``
    does, and the tests' servers), believing the forwarded addresses of ``trusted``
    proxies only; ``settings``: more of uvicorn's (a backlog, a log level)."""
    return uvicorn.Config(
        app,
        http=limited_protocol(limits, trusted),
        # The protocol whose scope the upgrade hands the socket's entry in (see above).
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        # Each frame compressed for each watcher was a fifth of the server's time under
        # load; a view is a few kilobytes of JSON.
        ws_per_message_deflate=False,
        # A socket whose client is gone, or does not read, misses its pong: it is closed.
        ws_ping_interval=limits.websocket_ping_seconds,
        ws_ping_timeout=limits.websocket_ping_seconds,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        # h11's own bound on headers not yet all in, as high as ours (above, ours
        # refuses first; below, h11's would refuse what ours allows).
        h11_max_incomplete_event_size=limits.max_header_bytes + 1024,
        # Without a trusted proxy, no header may say where a request comes from: the
        # rate limits count by the address the connection comes from.
        proxy_headers=bool(trusted),
        forwarded_allow_ips=_trusted(trusted) or None,
        **settings,
    )


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


def _trusted(proxies: Sequence[str]) -> list[str]:
    """The trusted proxies as uvicorn reads them: networks written exactly, and each
    IPv4 one also as an IPv6 server listening on ``::`` sees it (``::ffff:10.0.0.0/104``)."""
    found = []
    for proxy in proxies:
        network = _network(proxy)
        if network is None:
            return ["*"]
        found.append(str(network))
        if isinstance(network, ipaddress.IPv4Network):
            found.append(f"::ffff:{network.network_address}/{96 + network.prefixlen}")
    return found


def _host(part: str) -> str:
    """An address of ``X-Forwarded-For``, without brackets or a port."""
    text = part.strip()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text
