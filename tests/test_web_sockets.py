"""The websockets' budget (oriflamme.web.sockets.Crowd), on its own: who gives way to
whom at each cap. Against a real server, see tests/test_web_crowds.py.
"""

from __future__ import annotations

import asyncio
import functools
import random
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


def join(
    crowd: Crowd, client: str, game: str, seat: str | None, address: str | None = None
) -> Socket:
    """A socket from ``address`` (``client`` if not given), admitted (it must be) as the
    seat of the family ``seat`` (None: a spectator)."""
    socket = crowd.arrive(address or client, Line())
    assert socket.admit(client, game, seat)
    return socket


def aborted(socket: Socket) -> bool:
    assert isinstance(socket.transport, Line)
    return socket.transport.aborted


@in_loop
def test_a_spectator_past_the_cap_closes_the_oldest_of_the_client_with_the_most() -> None:
    many = crowd(max_websockets=8)
    busy = [join(many, "10.0.0.1", "busy", None) for _ in range(4)]
    quiet = [join(many, f"10.0.1.{n}", "quiet", None) for n in range(2)]
    seats = [join(many, f"10.0.2.{n}", "quiet", "red") for n in range(2)]
    assert many.admitted == 8
    newcomer = join(many, "10.0.3.1", "quiet", None)
    assert aborted(busy[0])
    assert not any(aborted(each) for each in [*busy[1:], *quiet, *seats, newcomer])
    assert many.admitted == 8


@in_loop
def test_a_popular_game_keeps_its_audience_when_one_client_floods_others() -> None:
    # Twelve people watch one game; a client with many spectators on games of its own
    # gives way first, though the popular game is the busiest.
    full = crowd(max_websockets=40)
    audience = [join(full, f"10.0.0.{n}", "popular", None) for n in range(12)]
    flood = [join(full, "10.9.9.9", f"own{n}", None) for n in range(28)]
    flood += [join(full, "10.9.9.8", f"more{n}", None) for n in range(20)]
    assert not any(aborted(each) for each in audience)
    # The two flooding clients share what is left, each closing the other's oldest.
    assert sum(not aborted(each) for each in flood) == 28
    held = len(full.spectators["10.9.9.9"]), len(full.spectators["10.9.9.8"])
    print(f"the two flooding clients hold {held}")
    assert abs(held[0] - held[1]) <= 2


@in_loop
def test_a_seat_holder_is_never_closed_for_a_spectator() -> None:
    full = crowd(max_websockets=8)
    seats = [join(full, f"10.0.0.{n}", f"g{n}", "red") for n in range(8)]
    late = full.arrive("10.0.9.9", Line())
    assert not late.admit("10.0.9.9", "g0", None)
    assert not any(aborted(each) for each in seats)
    assert full.admitted == 8


@in_loop
def test_at_the_cap_a_seat_holder_closes_a_spectator_first_then_the_busiest_client() -> None:
    full = crowd(max_websockets=8)
    mine = [join(full, "10.0.0.1", f"g{n}", "red") for n in range(3)]
    theirs = [join(full, "10.0.0.2", f"h{n}", "red") for n in range(4)]
    spectator = join(full, "10.0.0.3", "g0", None)
    join(full, "10.0.0.4", "g1", "blue")
    assert aborted(spectator)
    assert not any(aborted(each) for each in [*mine, *theirs])
    join(full, "10.0.0.4", "g2", "blue")
    # No spectator left: the client holding the most gives its oldest.
    assert aborted(theirs[0])
    assert not any(aborted(each) for each in [*mine, *theirs[1:]])


@in_loop
def test_one_address_closes_its_own_oldest_spectator_and_keeps_its_seats() -> None:
    home = crowd(websockets_per_address=3)
    seat = join(home, "10.0.0.1", "g", "red")
    first = join(home, "10.0.0.1", "a", None)
    second = join(home, "10.0.0.1", "b", None)
    other = join(home, "10.0.0.2", "a", None)
    join(home, "10.0.0.1", "c", None)
    assert aborted(first)
    assert not any(aborted(each) for each in (seat, second, other))
    # A seat holder past its address's cap closes its own spectator, then its oldest seat.
    join(home, "10.0.0.1", "g", "blue")
    assert aborted(second)
    assert not aborted(seat)


@in_loop
def test_an_address_full_of_seats_refuses_a_spectator_and_rotates_seats() -> None:
    home = crowd(websockets_per_address=2)
    seats = [join(home, "10.0.0.1", "g", family) for family in ("red", "blue")]
    late = home.arrive("10.0.0.1", Line())
    assert not late.admit("10.0.0.1", "g", None)
    assert not any(aborted(each) for each in seats)
    join(home, "10.0.0.1", "g", "green")
    assert aborted(seats[0])
    assert not aborted(seats[1])


@in_loop
def test_a_seat_opens_so_many_websockets_its_oldest_giving_way() -> None:
    tabs = crowd(websockets_per_seat=2)
    first, second = (join(tabs, f"10.0.0.{n}", "g", "red") for n in range(2))
    other = join(tabs, "10.0.0.9", "g", "blue")
    third = join(tabs, "10.0.0.3", "g", "red")
    assert aborted(first)
    assert not any(aborted(each) for each in (second, other, third))


@in_loop
def test_a_game_past_its_spectators_closes_one_of_the_client_with_the_most_there() -> None:
    game = crowd(spectators_per_game=3)
    alone = join(game, "10.0.0.1", "g", None)
    flood = [join(game, "10.0.0.2", "g", None) for _ in range(2)]
    seats = [join(game, f"10.0.1.{n}", "g", "red") for n in range(3)]  # not counted
    join(game, "10.0.0.9", "g", None)
    assert aborted(flood[0])
    assert not any(aborted(each) for each in [alone, flood[1], *seats])


@in_loop
def test_pending_sockets_are_bounded_and_a_flood_closes_its_own() -> None:
    waiting = crowd(max_websockets=64)
    limit = waiting.most_pending
    assert limit == 32
    one = [waiting.arrive("10.0.0.1", Line()) for _ in range(PENDING_PER_ADDRESS)]
    assert not any(aborted(each) for each in one)
    waiting.arrive("10.0.0.1", Line())
    assert aborted(one[0])
    # A newcomer from elsewhere, then a flood from a few addresses filling the rest:
    # past the cap, the addresses with the most waiting give way, not the newcomer.
    newcomer = waiting.arrive("10.0.1.1", Line())
    flood = [waiting.arrive(f"10.0.2.{n % 4}", Line()) for n in range(3 * limit)]
    assert len(waiting.pending) == limit
    assert not aborted(newcomer)
    assert sum(not aborted(each) for each in flood) <= 4 * PENDING_PER_ADDRESS
    # An address allowed many websockets may have more waiting at once.
    lifted = crowd(websockets_per_address=1000)
    many = [lifted.arrive("10.0.0.1", Line()) for _ in range(lifted.most_pending)]
    assert not any(aborted(each) for each in many)
    # A trusted proxy's sockets that said no client are one address.
    proxied = [waiting.arrive(None, Line()) for _ in range(PENDING_PER_ADDRESS + 1)]
    assert aborted(proxied[0])


@in_loop
def test_a_socket_gone_gives_its_place_back_once() -> None:
    some = crowd()
    socket = join(some, "10.0.0.1", "g", None)
    some.lost(socket)
    some.lost(socket)
    assert some.admitted == 0
    assert not some.by_client
    assert not some.spectators
    assert not some.by_game
    assert not socket.admit("10.0.0.1", "g", None)


@in_loop
def test_every_count_is_right_after_thousands_of_comings_and_goings() -> None:
    rng = random.Random(2024)
    print("seed 2024")
    busy = crowd(max_websockets=50, websockets_per_address=6, spectators_per_game=9)
    live: list[Socket] = []
    for _ in range(5000):
        if live and rng.random() < 0.3:
            gone = live.pop(rng.randrange(len(live)))
            busy.lost(gone)
            continue
        socket = busy.arrive(f"10.0.0.{rng.randrange(20)}", Line())
        family = rng.choice([None, None, "red", "blue"])
        if socket.admit(f"10.0.0.{rng.randrange(20)}", f"g{rng.randrange(8)}", family):
            live.append(socket)
        live = [each for each in live if not aborted(each)]
        assert busy.admitted == len(live) <= 50
    held = {each.client: 0 for each in live}
    for each in live:
        held[each.client] += 1
    assert max(held.values()) <= 6
    assert {key: len(group) for key, group in busy.by_client.groups.items()} == held
    assert len(busy.by_client.largest()) == max(held.values())


@pytest.fixture
def quick_closing(monkeypatch: pytest.MonkeyPatch) -> float:
    seconds = 0.2
    monkeypatch.setattr(sockets, "CLOSING_SECONDS", seconds)
    return seconds


def test_a_socket_that_stays_closing_is_aborted(quick_closing: float) -> None:
    async def main() -> tuple[bool, bool, bool]:
        watched = crowd()
        stuck = join(watched, "10.0.0.1", "g", None)
        fine = join(watched, "10.0.0.2", "g", None)
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
        "websockets_per_seat",
        "max_header_bytes",
        "max_header_lines",
        "bot_tables_per_client",
    ):
        with pytest.raises(Exception, match=name.replace("_", "-")):
            attrs.evolve(Limits(), **{name: 0}).check()  # type: ignore[arg-type]
