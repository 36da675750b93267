"""Websockets kept within a budget of their own, so that watchers never crowd out players.

A websocket is counted here from its upgrade until its connection is gone, apart from
the HTTP connections (:mod:`.connections`): however many sockets are open, a player's
request finds its HTTP budget whole.

- **Pending.** Until its first message says whose it is (a seat's token, or none: a
  spectator), a socket is *pending*: at most :data:`PENDING` are (fewer with few
  websockets: :func:`most_pending`), and at most :data:`PENDING_PER_ADDRESS` from one
  address. Past the first, the oldest pending socket of the address holding the most
  is closed; past the second, that address's oldest: a flood from many addresses
  closes its own sockets before a newcomer's.
- **Admitted.** Once its first message is read, the app admits it (:meth:`Socket.admit`)
  within its caps: in all (``max_websockets``), per client address
  (``websockets_per_address``), spectators per game (``spectators_per_game``) and per
  seat (``websockets_per_seat``). A newcomer past a cap makes room by closing the
  oldest socket that may give way to it: a spectator for anyone, a seat holder's only
  for another seat holder. In all, the oldest spectator of the client holding the
  most spectators gives way (a crowd on one game from one client: that game's oldest);
  with no spectator left, the oldest socket of the client holding the most. Per game,
  the oldest spectator there of the client holding the most there; per address and
  per seat, their own oldest (a spectator first). A spectator that finds no room is
  refused.
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
    @property
    def websockets_per_seat(self) -> int: ...


class Transport(Protocol):
    """What a socket's connection must do: as an asyncio transport does."""

    def abort(self) -> None: ...
    def is_closing(self) -> bool: ...


#: Sockets waiting for their first message, at most (each holds a file descriptor; a
#: browser sends its first message at once), unless ``max_websockets`` is so low that
#: a quarter of it is fewer (see :func:`most_pending`), but never under 32.
PENDING = 128
#: Of them, from one address (or a quarter of ``websockets_per_address``, if more).
PENDING_PER_ADDRESS = 8
#: Seconds a closing socket may take to be gone before it is aborted.
CLOSING_SECONDS = 5.0


def most_pending(max_websockets: int) -> int:
    """How many sockets may wait for their first message, beside ``max_websockets``."""
    return max(4 * PENDING_PER_ADDRESS, min(PENDING, max_websockets // 4))


class Socket:
    """One websocket: where it comes from, and once admitted, whose it is."""

    def __init__(self, crowd: Crowd, address: str, transport: Transport) -> None:
        self.crowd = crowd
        #: The address it connected from ("": unknown, a proxy's that said none).
        self.address = address
        #: Once admitted: its client, its game and its seat (None: a spectator).
        self.client = ""
        self.game = ""
        self.seat: str | None = None
        self.admitted = False
        self.gone = False
        self.transport = transport
        self.closing_since: float | None = None

    def admit(self, client: str, game: str, family: str | None) -> bool:
        """Counts this socket as ``client``'s on ``game``, the seat of ``family`` (None:
        a spectator's), closing others to make room: whether it is admitted (a
        spectator that finds no room is not: the app closes it)."""
        return self.crowd.admit(self, client, game, family)

    def close(self) -> None:
        """Closes the connection at once (its client sees it drop)."""
        self.crowd.lost(self)
        self.transport.abort()


class Groups:
    """Sockets grouped by a key (an address, a client, a game, a seat), each group
    oldest first, the largest group found at once (of equals, the first to grow so)."""

    def __init__(self) -> None:
        self.groups: dict[str, dict[Socket, None]] = {}
        self._sizes: dict[int, dict[str, None]] = {}  # the keys of the groups of each size
        self._top = 0

    def __bool__(self) -> bool:
        return bool(self.groups)

    def __getitem__(self, key: str) -> dict[Socket, None]:
        return self.groups.get(key, {})

    def add(self, key: str, socket: Socket) -> None:
        group = self.groups.setdefault(key, {})
        self._resize(key, len(group), len(group) + 1)
        group[socket] = None

    def remove(self, key: str, socket: Socket) -> None:
        group = self.groups.get(key)
        if group is None or socket not in group:
            return
        del group[socket]
        self._resize(key, len(group) + 1, len(group))
        if not group:
            del self.groups[key]

    def largest(self) -> dict[Socket, None]:
        """The largest group (empty if there is none)."""
        while self._top > 0 and not self._sizes.get(self._top):
            self._top -= 1
        keys = self._sizes.get(self._top)
        return self.groups[next(iter(keys))] if keys else {}

    def _resize(self, key: str, was: int, now: int) -> None:
        if was:
            self._sizes[was].pop(key, None)
        if now:
            self._sizes.setdefault(now, {})[key] = None
            self._top = max(self._top, now)


class Crowd:
    """Every websocket of one server process (see the module's text). Use it from the
    server's event loop."""

    def __init__(self, limits: Limited) -> None:
        self.limits = limits
        # Dicts keep insertion order: the first key of each is its oldest socket.
        self.pending: dict[Socket, None] = {}
        self.pending_by_address = Groups()
        self.by_client = Groups()  # every socket admitted
        self.spectators = Groups()  # the spectators' sockets, by client
        self.by_game = Groups()  # the spectators' sockets, by game
        self.by_seat = Groups()
        self.admitted = 0
        self.most_pending = most_pending(limits.max_websockets)
        # An address allowed many websockets may open many at once.
        self.pending_per_address = min(
            self.most_pending, max(PENDING_PER_ADDRESS, limits.websockets_per_address // 4)
        )
        self._watch: asyncio.TimerHandle | None = None

    def arrive(self, address: str | None, transport: Transport) -> Socket:
        """A socket just upgraded from ``address`` (None: unknown), pending; makes
        room among those pending if there are too many (see the module's text)."""
        key = address or ""
        if len(self.pending_by_address[key]) >= self.pending_per_address:
            _oldest(self.pending_by_address[key]).close()
        if len(self.pending) >= self.most_pending:
            _oldest(self.pending_by_address.largest()).close()
        socket = Socket(self, key, transport)
        self.pending[socket] = None
        self.pending_by_address.add(key, socket)
        self._watching()
        return socket

    def admit(self, socket: Socket, client: str, game: str, family: str | None) -> bool:
        if socket.gone or socket.admitted:
            return not socket.gone
        limits = self.limits
        seat = f"{game} {family}"
        if family is None:
            # Refused before anything is closed for it: a spectator makes room only
            # by closing spectators, and there may be none where it needs room.
            full_here = len(self.by_client[client]) >= limits.websockets_per_address
            if (full_here and not self.spectators[client]) or (
                self.admitted >= limits.max_websockets and not self.spectators
            ):
                return False
            watching = self.by_game[game]
            if len(watching) >= limits.spectators_per_game:
                _oldest(_busiest(watching)).close()
        elif len(self.by_seat[seat]) >= limits.websockets_per_seat:
            _oldest(self.by_seat[seat]).close()
        if len(self.by_client[client]) >= limits.websockets_per_address:
            _oldest(self.spectators[client] or self.by_client[client]).close()
        if self.admitted >= limits.max_websockets:
            _oldest(self.spectators.largest() or self.by_client.largest()).close()
        self._unpend(socket)
        socket.client, socket.game, socket.seat, socket.admitted = client, game, family, True
        self.by_client.add(client, socket)
        if family is None:
            self.spectators.add(client, socket)
            self.by_game.add(game, socket)
        else:
            self.by_seat.add(seat, socket)
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
            self.by_client.remove(socket.client, socket)
            if socket.seat is None:
                self.spectators.remove(socket.client, socket)
                self.by_game.remove(socket.game, socket)
            else:
                self.by_seat.remove(f"{socket.game} {socket.seat}", socket)

    def _unpend(self, socket: Socket) -> None:
        if socket in self.pending:
            del self.pending[socket]
            self.pending_by_address.remove(socket.address, socket)

    def sockets(self) -> list[Socket]:
        """Every socket counted, pending or admitted."""
        admitted = (socket for group in self.by_client.groups.values() for socket in group)
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


def _oldest(group: dict[Socket, None]) -> Socket:
    return next(iter(group))


def _busiest(sockets: dict[Socket, None]) -> dict[Socket, None]:
    """Of ``sockets`` (a game's spectators), those of the client holding the most."""
    by_client: dict[str, dict[Socket, None]] = {}
    for socket in sockets:
        by_client.setdefault(socket.client, {})[socket] = None
    most: dict[Socket, None] = {}
    for group in by_client.values():
        if len(group) > len(most):
            most = group
    return most
