"""The server's limits: each bound ``oriflamme serve`` keeps, its option and its default.

One definition of each, read by the command line (``serve``'s options), the app and
the docs test (docs/web.md must name every option and its default). A hosted server
raises or lowers them; the defaults suit a table of friends on one machine and keep a
public server from being stalled by one client.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterator

import attrs

from oriflamme import ConfigError
from oriflamme.text import quote


@attrs.frozen
class Rate:
    """At most ``count`` requests in any ``seconds`` (a token bucket of ``count``,
    refilled evenly over ``seconds``); written ``COUNT/SECONDS``. A count of 0: no limit."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str, option: str) -> Rate:
        count, sep, seconds = text.partition("/")
        try:
            rate = cls(int(count), float(seconds)) if sep else None
        except ValueError:
            rate = None
        if rate is None or rate.count < 0 or not 0 < rate.seconds <= 86_400:
            raise ConfigError(
                f"{option}: expected COUNT/SECONDS such as 20/60 (count 0: no limit; seconds "
                f"above 0, at most 86400), not {quote(text)}"
            )
        return rate

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}"


def _workers() -> int:
    # At least two, so that a client whose tables fill one still finds another free
    # (see web/thinking.py); the workers run at a lower priority than the server.
    return max(2, os.cpu_count() or 2)


@attrs.frozen
class Limits:
    """Every limit of the server. Each field is one ``serve`` option: the field's name
    with ``-`` for ``_`` (``max_connections`` is ``--max-connections``)."""

    #: Seconds a client has to send a request's headers, counted from when it
    #: connects or from the end of its last response; a client slower than that is
    #: dropped.
    header_seconds: float = 10.0
    #: Seconds a client has to send a request's body once its headers are in.
    body_seconds: float = 10.0
    #: Open HTTP connections at once (websockets have a budget of their own,
    #: --max-websockets); at the cap a new one drops the oldest still waiting for its
    #: headers, or is closed at once if none is, so the server never runs out of file
    #: descriptors.
    max_connections: int = 512
    #: Open HTTP connections from one client address (an IPv6 address's /64); past
    #: it, a new one from there is closed at once. Not counted for --trusted-proxies,
    #: whose connections carry everyone's requests.
    connections_per_address: int = 64
    #: Bytes of a request's headers (its request line included); past it the request
    #: is refused with 431 before its headers are read.
    max_header_bytes: int = 16_384
    #: Lines of a request's headers; past it the request is refused with 431.
    max_header_lines: int = 100
    #: Open websockets at once, apart from HTTP connections: at the cap a newcomer
    #: makes room by closing the oldest spectator of the client holding the most
    #: spectators; a seat holder's websocket gives way only to another seat holder's
    #: (the oldest of the client holding the most), never to a spectator's.
    max_websockets: int = 1024
    #: Open websockets from one client address (an IPv6 address's /64); past it the
    #: newcomer closes that client's own oldest spectator (a seat holder's: its own
    #: oldest websocket), and a spectator with none to close is refused.
    websockets_per_address: int = 32
    #: Spectators' websockets on one game; past it the oldest spectator there of the
    #: client holding the most there is closed to make room (seat holders not counted).
    spectators_per_game: int = 64
    #: Websockets on one seat (its token's: a phone, a laptop, a tab left open); past
    #: it the seat's oldest is closed to make room.
    websockets_per_seat: int = 3
    #: Seconds between the server's pings on a websocket; one whose pong has not come
    #: within as many seconds more (a client gone, or not reading) is closed.
    websocket_ping_seconds: float = 20.0
    #: Games created per client address (0/1: no limit).
    create_rate: Rate = Rate(20, 60.0)
    #: Answers sent per seat (each seat is one client: its token; 0/1: no limit).
    answer_rate: Rate = Rate(60, 10.0)
    #: Replays asked for per client address (0/1: no limit): each plays the game
    #: again from its start.
    replay_rate: Rate = Rate(60, 10.0)
    #: Games kept in the store; creating one more is refused (503) until some expire.
    max_games: int = 100_000
    #: Days a finished game is kept after its last answer (its links and replay).
    keep_finished_days: float = 30.0
    #: Days an unfinished game is kept with no answer from anyone.
    keep_abandoned_days: float = 14.0
    #: Games held in memory at once; the least recently used idle one is let go (it is
    #: read back from the file when next asked for).
    max_live: int = 256
    #: Host names the server answers to, besides IP addresses and ``localhost`` (``*``:
    #: any). A request naming another host is refused: a defence against DNS rebinding.
    allowed_hosts: tuple[str, ...] = ()
    #: Worker processes the bots of games with a person think in (never the server's
    #: own process): as many such decisions run at once. Games of bots alone have half
    #: as many more (at least one), at the lowest priority, and quick decisions one.
    bot_workers: int = attrs.field(factory=_workers)
    #: Tables of one client (the address a game was created from, an IPv6 address's
    #: /64, or the client of the earlier game whose creator's token the creation
    #: sent) whose bots may think at once while another client has asked for a bot's
    #: decision in the last minute (one alone uses every worker); the workers' time
    #: is shared first among clients, then among each client's tables.
    bot_tables_per_client: int = 1
    #: The most games an ISMCTS bot may search per decision (a deterministic budget:
    #: every ISMCTS decision is bounded by it, whatever else its settings say).
    bot_iterations: int = 1000
    #: The most seconds a bot may be given per decision (the ``seconds`` setting).
    bot_seconds: float = 2.0
    #: Seconds after which a bot still thinking is stopped (its worker is replaced and
    #: the first legal answer is played): a plugin's bot with no budget of its own.
    bot_timeout: float = 30.0
    #: Seconds a game of bots alone plays on with nobody watching it; it then waits
    #: until someone opens it again.
    unwatched_seconds: float = 60.0
    #: Log lines of one kind at most, per minute; the rest are counted and the count is
    #: logged once the minute is over, so a flood of one error cannot fill a disk.
    log_per_minute: int = 20

    def check(self) -> None:
        """Raises :class:`ConfigError` naming the option whose value cannot be used."""
        for name, low in (
            ("header_seconds", 0.1),
            ("body_seconds", 0.1),
            ("keep_finished_days", 0.0),
            ("keep_abandoned_days", 0.0),
            ("bot_seconds", 0.001),
            ("bot_timeout", 0.1),
            ("unwatched_seconds", 0.0),
            ("websocket_ping_seconds", 0.1),
        ):
            value = getattr(self, name)
            if not low <= value <= 10**7:
                raise ConfigError(f"{option(name)}: expected {low:g} to 10000000, not {value:g}")
        for name, low in (
            ("max_connections", 8),
            ("connections_per_address", 1),
            ("max_header_bytes", 1024),
            ("max_header_lines", 8),
            ("max_websockets", 8),
            ("websockets_per_address", 1),
            ("spectators_per_game", 1),
            ("websockets_per_seat", 1),
            ("bot_tables_per_client", 1),
            ("max_games", 1),
            ("max_live", 1),
            ("bot_workers", 2),
            ("bot_iterations", 1),
            ("log_per_minute", 1),
        ):
            value = getattr(self, name)
            if not low <= value <= 10**9:
                raise ConfigError(f"{option(name)}: expected {low} to 1000000000, not {value}")


def option(name: str) -> str:
    """The ``serve`` option of the field ``name``."""
    return "--" + name.replace("_", "-")


def fields() -> Iterator[attrs.Attribute]:  # type: ignore[type-arg]
    """Each limit, in the order the docs list them."""
    yield from attrs.fields(Limits)


def client(address: str) -> str:
    """The client an address counts as: itself, or for an IPv6 address its /64 (one
    household's network, whose machines choose their own addresses in it)."""
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return str(found)
