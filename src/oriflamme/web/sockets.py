"""Websockets kept within a budget of their own, so that watchers never crowd out players.

A websocket is counted here from its upgrade until its connection is gone, apart from
the HTTP connections (:mod:`.connections`): however many sockets are open, a player's
request finds its HTTP budget whole.

- **Pending.** Until its first message says whose it is (a seat's token, or none: a
  spectator), a socket is *pending*: at most :data:`PENDING` are (fewer with few
  websockets: :func:`most_pending`), and at most
  :data:`PENDING_PER_ADDRESS` from one address; past either, the oldest pending one
  (of that address) is closed, as the oldest connection waiting for its headers is.
- **Admitted.** Once its first message is read, the app admits it (:meth:`Socket.admit`)
  within three caps: in all (``max_websockets``), per client address
  (``websockets_per_address``) and spectators per game (``spectators_per_game``). A
  newcomer past a cap makes room by closing the oldest socket that may give way to it:
  a spectator for anyone; a seat holder's only for another seat holder, and only when
  no spectator is left to close (in all: the oldest of the client holding the most;
  per address: that client's own oldest). A spectator that finds no room is refused.
- **Gone for good.** A socket closed here is aborted at once (its client sees the
  connection drop, and may come back). One closing otherwise (the app ended it, or
  its client stopped answering pings) that is still not gone after
  :data:`CLOSING_SECONDS` is aborted too: a client that never reads its close would
  otherwise hold its file for as long as it likes.
"""

from __future__ import annotations

import asyncio
from typing import Protocol


class Limited(Protocol):
    """The caps :class:`Crowd` keeps (the fields of :class:`~.limits.Limits`)."""

    @property
    def max_websockets(self) -> int: ...
    @property
    def websockets_per_address(self) -> int: ...
    @property
    def spectators_per_game(self) -> int: ...


class Transport(Protocol):
    """What a socket's connection must do: as an asyncio transport does."""

    def abort(self) -> None: ...
    def is_closing(self) -> bool: ...


#: Sockets waiting for their first message, at most (each holds a file descriptor; a
#: browser sends its first message at once), unless ``max_websockets`` is so low that
#: a quarter of it is fewer (see :func:`most_pending`), but never under 32.
PENDING = 128
#: Of them, from one address.
PENDING_PER_ADDRESS = 8
#: Seconds a closing socket may take to be gone before it is aborted.
CLOSING_SECONDS = 5.0


def most_pending(max_websockets: int) -> int:
    """How many sockets may wait for their first message, beside ``max_websockets``."""
    return max(4 * PENDING_PER_ADDRESS, min(PENDING, max_websockets // 4))


class Socket:
    """One websocket: where it comes from, and once admitted, whose it is."""

    def __init__(self, crowd: Crowd, address: str | None, transport: Transport) -> None:
        self.crowd = crowd
        #: The address it connected from (None: a trusted proxy's; not counted per
        #: address while pending).
        self.address = address
        #: Once admitted: its client, its game and whether it is a seat holder's.
        self.client = ""
        self.game = ""
        self.seat = False
        self.admitted = False
        self.gone = False
        self.transport = transport
        self.closing_since: float | None = None

    def admit(self, client: str, game: str, seat: bool) -> bool:
        """Counts this socket as ``client``'s on ``game`` (a seat holder's, or a
        spectator's), closing others to make room: whether it is admitted (a spectator
        that finds no room is not: the app closes it)."""
        return self.crowd.admit(self, client, game, seat)

    def close(self) -> None:
        """Closes the connection at once (its client sees it drop)."""
        self.crowd.lost(self)
        self.transport.abort()


class Crowd:
    """Every websocket of one server process (see the module's text). Use it from the
    server's event loop."""

    def __init__(self, limits: Limited) -> None:
        self.limits = limits
        # Dicts keep insertion order: the first key of each is its oldest socket.
        self.pending: dict[Socket, None] = {}
        self.pending_by_address: dict[str, dict[Socket, None]] = {}
        self.by_client: dict[str, dict[Socket, None]] = {}
        self.spectators: dict[str, dict[Socket, None]] = {}
        self.admitted = 0
        self.most_pending = most_pending(limits.max_websockets)
        self._watch: asyncio.TimerHandle | None = None

    def arrive(self, address: str | None, transport: Transport) -> Socket:
        """A socket just upgraded from ``address`` (None: not counted per address),
        pending; the oldest pending one (of that address) is closed if there are too
        many."""
        if address is not None:
            mine = self.pending_by_address.get(address, {})
            if len(mine) >= PENDING_PER_ADDRESS:
                next(iter(mine)).close()
        if len(self.pending) >= self.most_pending:
            next(iter(self.pending)).close()
        socket = Socket(self, address, transport)
        self.pending[socket] = None
        if address is not None:
            self.pending_by_address.setdefault(address, {})[socket] = None
        self._watching()
        return socket

    def admit(self, socket: Socket, client: str, game: str, seat: bool) -> bool:
        if socket.gone or socket.admitted:
            return not socket.gone
        limits = self.limits
        own = self.by_client.get(client, {})
        if not seat:
            # Refused before anything is closed for it: a spectator makes room only
            # by closing spectators, and there may be none where it needs room.
            full_here = len(own) >= limits.websockets_per_address and all(each.seat for each in own)
            if full_here or (self.admitted >= limits.max_websockets and not self.spectators):
                return False
            watching = self.spectators.get(game, {})
            if len(watching) >= limits.spectators_per_game:
                next(iter(watching)).close()
        own = self.by_client.get(client, {})
        if len(own) >= limits.websockets_per_address:
            spectator = next((each for each in own if not each.seat), None)
            (spectator or next(iter(own))).close()
        if self.admitted >= limits.max_websockets:
            if self.spectators:  # the oldest spectator of the busiest game
                next(iter(_most(self.spectators))).close()
            else:  # only seat holders: the oldest of the client holding the most
                next(iter(_most(self.by_client))).close()
        self._unpend(socket)
        socket.client, socket.game, socket.seat, socket.admitted = client, game, seat, True
        self.by_client.setdefault(client, {})[socket] = None
        if not seat:
            self.spectators.setdefault(game, {})[socket] = None
        self.admitted += 1
        return True

    def lost(self, socket: Socket) -> None:
        """``socket`` is gone (or being closed here): it no longer counts."""
        if socket.gone:
            return
        socket.gone = True
        self._unpend(socket)
        if socket.admitted:
            self.admitted -= 1
            _discard(self.by_client, socket.client, socket)
            if not socket.seat:
                _discard(self.spectators, socket.game, socket)

    def _unpend(self, socket: Socket) -> None:
        if socket in self.pending:
            del self.pending[socket]
            _discard(self.pending_by_address, socket.address, socket)

    def sockets(self) -> list[Socket]:
        """Every socket counted, pending or admitted."""
        admitted = (socket for group in self.by_client.values() for socket in group)
        return [*self.pending, *admitted]

    def _watching(self) -> None:
        """Looks every :data:`CLOSING_SECONDS` (halved) for sockets closing too long,
        while there are any sockets at all."""
        if self._watch is None:
            loop = asyncio.get_running_loop()
            self._watch = loop.call_later(CLOSING_SECONDS / 2, self._overdue, loop)

    def _overdue(self, loop: asyncio.AbstractEventLoop) -> None:
        self._watch = None
        now = loop.time()
        for socket in self.sockets():
            if not socket.transport.is_closing():
                continue
            if socket.closing_since is None:
                socket.closing_since = now
            elif now - socket.closing_since >= CLOSING_SECONDS:
                socket.close()
        if self.pending or self.admitted:
            self._watching()


def _most(groups: dict[str, dict[Socket, None]]) -> dict[Socket, None]:
    """The group holding the most sockets (the first of equals)."""
    most: dict[Socket, None] = {}
    for group in groups.values():
        if len(group) > len(most):
            most = group
    return most


def _discard(groups: dict[str, dict[Socket, None]], key: str | None, socket: Socket) -> None:
    if key is None:
        return
    group = groups.get(key)
    if group is not None:
        group.pop(socket, None)
        if not group:
            del groups[key]
