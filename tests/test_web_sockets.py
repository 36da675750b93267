"""The websockets' budget (oriflamme.web.sockets.Crowd), on its own: who gives way to
whom at each cap. Against a real server, see tests/test_web_crowds.py.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from oriflamme.web import sockets
from oriflamme.web.limits import Limits
from oriflamme.web.sockets import PENDING_PER_ADDRESS, Crowd, Socket


class Line:
    """A connection that records being aborted, as an asyncio transport would be."""

    def __init__(self) -> None:
        self.aborted = False
        self.closing = False

    def abort(self) -> None:
        self.aborted = True

    def is_closing(self) -> bool:
        return self.closing or self.aborted


def in_loop(test: Callable[[], None]) -> Callable[[], None]:
    """``test`` run in an event loop, as the server runs the crowd."""

    @functools.wraps(test)
    def run() -> None:
        async def main() -> None:
            test()

        asyncio.run(main())

    return run


def crowd(**caps: Any) -> Crowd:
    return Crowd(Limits(**caps))


def join(crowd: Crowd, client: str, game: str, seat: bool, address: str | None = None) -> Socket:
    """A socket from ``address`` (``client`` if not given), admitted (it must be)."""
    socket = crowd.arrive(address or client, Line())
    assert socket.admit(client, game, seat)
    return socket


def aborted(socket: Socket) -> bool:
    assert isinstance(socket.transport, Line)
    return socket.transport.aborted


@in_loop
def test_a_spectator_past_the_cap_closes_the_oldest_spectator_of_the_busiest_game() -> None:
    many = crowd(max_websockets=8)
    busy = [join(many, f"10.0.0.{n}", "busy", seat=False) for n in range(4)]
    quiet = [join(many, f"10.0.1.{n}", "quiet", seat=False) for n in range(2)]
    seats = [join(many, f"10.0.2.{n}", "quiet", seat=True) for n in range(2)]
    assert many.admitted == 8
    newcomer = join(many, "10.0.3.1", "quiet", seat=False)
    assert aborted(busy[0])
    assert not any(aborted(each) for each in [*busy[1:], *quiet, *seats, newcomer])
    assert many.admitted == 8


@in_loop
def test_a_seat_holder_is_never_closed_for_a_spectator() -> None:
    full = crowd(max_websockets=8)
    seats = [join(full, f"10.0.0.{n}", f"g{n}", seat=True) for n in range(8)]
    late = full.arrive("10.0.9.9", Line())
    assert not late.admit("10.0.9.9", "g0", seat=False)
    assert not any(aborted(each) for each in seats)
    assert full.admitted == 8


@in_loop
def test_at_the_cap_a_seat_holder_closes_a_spectator_first_then_the_busiest_client() -> None:
    full = crowd(max_websockets=8)
    mine = [join(full, "10.0.0.1", f"g{n}", seat=True) for n in range(3)]
    theirs = [join(full, "10.0.0.2", f"h{n}", seat=True) for n in range(4)]
    spectator = join(full, "10.0.0.3", "g0", seat=False)
    join(full, "10.0.0.4", "g1", seat=True)
    assert aborted(spectator)
    assert not any(aborted(each) for each in [*mine, *theirs])
    join(full, "10.0.0.4", "g2", seat=True)
    # No spectator left: the client holding the most gives its oldest.
    assert aborted(theirs[0])
    assert not any(aborted(each) for each in [*mine, *theirs[1:]])


@in_loop
def test_one_address_closes_its_own_oldest_spectator_and_keeps_its_seats() -> None:
    home = crowd(websockets_per_address=3)
    seat = join(home, "10.0.0.1", "g", seat=True)
    first = join(home, "10.0.0.1", "a", seat=False)
    second = join(home, "10.0.0.1", "b", seat=False)
    other = join(home, "10.0.0.2", "a", seat=False)
    join(home, "10.0.0.1", "c", seat=False)
    assert aborted(first)
    assert not any(aborted(each) for each in (seat, second, other))
    # A seat holder past its address's cap closes its own spectator, then its oldest seat.
    join(home, "10.0.0.1", "g", seat=True)
    assert aborted(second)
    assert not aborted(seat)


@in_loop
def test_an_address_full_of_seats_refuses_a_spectator_and_rotates_seats() -> None:
    home = crowd(websockets_per_address=2)
    seats = [join(home, "10.0.0.1", "g", seat=True) for _ in range(2)]
    late = home.arrive("10.0.0.1", Line())
    assert not late.admit("10.0.0.1", "g", seat=False)
    assert not any(aborted(each) for each in seats)
    join(home, "10.0.0.1", "g", seat=True)
    assert aborted(seats[0])
    assert not aborted(seats[1])


@in_loop
def test_a_game_past_its_spectators_closes_its_oldest_spectator() -> None:
    game = crowd(spectators_per_game=2)
    watching = [join(game, f"10.0.0.{n}", "g", seat=False) for n in range(2)]
    seats = [join(game, f"10.0.1.{n}", "g", seat=True) for n in range(3)]  # not counted
    assert not any(aborted(each) for each in watching)
    join(game, "10.0.0.9", "g", seat=False)
    assert aborted(watching[0])
    assert not aborted(watching[1])
    assert not any(aborted(each) for each in seats)


@in_loop
def test_pending_sockets_are_bounded_in_all_and_per_address() -> None:
    waiting = crowd(max_websockets=64)
    limit = waiting.most_pending
    assert limit == 32
    one = [waiting.arrive("10.0.0.1", Line()) for _ in range(PENDING_PER_ADDRESS)]
    assert not any(aborted(each) for each in one)
    waiting.arrive("10.0.0.1", Line())
    assert aborted(one[0])
    others = [waiting.arrive(f"10.0.1.{n}", Line()) for n in range(limit)]
    assert len(waiting.pending) == limit
    assert all(aborted(each) for each in one)
    assert not aborted(others[-1])
    # A trusted proxy's sockets (no address) are bounded in all only.
    proxied = [waiting.arrive(None, Line()) for _ in range(limit)]
    assert len(waiting.pending) == limit
    assert not any(aborted(each) for each in proxied)


@in_loop
def test_a_socket_gone_gives_its_place_back_once() -> None:
    some = crowd()
    socket = join(some, "10.0.0.1", "g", seat=False)
    some.lost(socket)
    some.lost(socket)
    assert some.admitted == 0
    assert not some.by_client
    assert not some.spectators
    assert not socket.admit("10.0.0.1", "g", seat=False)


@pytest.fixture
def quick_closing(monkeypatch: pytest.MonkeyPatch) -> float:
    seconds = 0.2
    monkeypatch.setattr(sockets, "CLOSING_SECONDS", seconds)
    return seconds


def test_a_socket_that_stays_closing_is_aborted(quick_closing: float) -> None:
    async def main() -> tuple[bool, bool, bool]:
        watched = crowd()
        stuck = join(watched, "10.0.0.1", "g", seat=False)
        fine = join(watched, "10.0.0.2", "g", seat=False)
        assert isinstance(stuck.transport, Line)
        stuck.transport.closing = True  # closed, but its client never takes the close
        await asyncio.sleep(quick_closing * 0.4)
        early = aborted(stuck)
        await asyncio.sleep(quick_closing * 2.5)
        return early, aborted(stuck), aborted(fine)

    early, late, fine = asyncio.run(main())
    assert (early, late, fine) == (False, True, False)


def test_the_limits_check_every_new_cap() -> None:
    for name in (
        "max_websockets",
        "websockets_per_address",
        "spectators_per_game",
        "max_header_bytes",
        "max_header_lines",
        "bot_tables_per_client",
    ):
        with pytest.raises(Exception, match=name.replace("_", "-")):
            attrs.evolve(Limits(), **{name: 0}).check()  # type: ignore[arg-type]
