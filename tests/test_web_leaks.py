"""No response and no websocket frame shows a seat what it may not see.

Seeded games are played to the end through the API of two real servers sharing one
store (a SQLite file; a PostgreSQL database), as a site of several server processes
runs: each seat watches on one server and asks for its view on the other, and the
answers go to either. After every answer, every seat's view and the spectator's are
fetched, and each is checked twice:

- against the truth (the game's save, read from the store): every card
  whose key a view shows is the seat's own or has been seen by all, and a seat's hand
  and set-aside hold only its own cards;
- against other deals: the view must be exactly the one a game dealt differently,
  but agreeing with everything the seat has seen, would give (``Game.determinise``).
  Any field, log line or word that depended on a hidden card would differ.

Every frame each seat's websocket received is then compared with the view fetched at
the same step. ``ORIFLAMME_LEAK_GAMES`` sets how many games (default 8).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from oriflamme import Game, Registry
from oriflamme.saves import load
from oriflamme.web.store import open_store
from oriflamme.web.views import build_view

from .web_server import STORES, Frames, answer, fresh_db, get, post, server_thread, watch

GAMES = int(os.environ.get("ORIFLAMME_LEAK_GAMES", "8"))
SEED = int(os.environ.get("ORIFLAMME_LEAK_SEED", "2026"))
#: Other deals each view is compared with, at each step.
DEALS = 2
CHOICES = [
    {"families": 3, "sets": ["base"]},
    {"families": 4, "sets": ["ablaze"]},
    {"families": 5, "sets": ["base", "ablaze"], "size": 10},
    {"families": 3, "sets": ["base", "ablaze"], "size": 12, "bots": {"green": "random"}},
]


@pytest.fixture(scope="module", params=STORES)
def server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[tuple[list[str], str]]:
    """Two servers on one store: their URLs, and the store."""
    db = fresh_db(request, tmp_path_factory.mktemp("leaks"), "leaks")
    with server_thread(db) as one, server_thread(db) as other:
        yield [one, other], db


def cards_in(view: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield from view["hand"]
    yield from view["set_aside"]
    for stack in view["queue"]:
        yield from stack
    for zone in ("reserve", "discarded", "eliminated"):
        for pile in view[zone].values():
            yield from pile


def check_against_truth(view: dict[str, Any], truth: Game, seat: str | None) -> None:
    public = truth.observe(None)
    where = f"{seat or 'spectator'} at step {view['step']}"
    for card in cards_in(view):
        if card["key"] is None:
            continue
        ident = card["id"]
        owned = seat is not None and seat in (card["colour"], card.get("owner"))
        assert owned or public.key(ident) is not None, f"{where} sees card {ident}: {card}"
    if seat is None:
        assert view["hand"] == view["set_aside"] == []
    else:
        mine = truth.observe(seat)
        assert [c["id"] for c in view["hand"]] == list(mine.hand), where
        assert [c["id"] for c in view["set_aside"]] == list(mine.set_aside), where
        for family in truth.families:
            if family != seat:
                hidden = set(truth.observe(family).hand) | set(truth.observe(family).set_aside)
                assert not hidden & {c["id"] for c in view["hand"]}, where


def check_against_other_deals(
    view: dict[str, Any], truth: Game, seat: str | None, registry: Registry, rng: random.Random
) -> None:
    # A spectator sees less than any seat: a deal agreeing with a seat's view agrees
    # with the spectator's.
    for _ in range(DEALS):
        source = truth.observe(seat if seat is not None else truth.families[0])
        other = Game.determinise(source, rng.getrandbits(32), registry=registry)
        again = build_view(
            other.observe(seat),
            other.rules,
            game_id=view["id"],
            step=view["step"],
            seats=view["seats"],
        )
        assert json.loads(json.dumps(again)) == view, f"{seat} at step {view['step']}"


def drain(socket: Frames, last: int) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    while not frames or frames[-1]["step"] < last:
        frames.append(json.loads(socket.recv(timeout=30)))
    return frames


@pytest.mark.parametrize("number", range(GAMES))
def test_no_view_or_frame_shows_a_hidden_card(server: tuple[list[str], str], number: int) -> None:
    urls, db = server
    url = urls[number % 2]
    seed = SEED + number
    print(f"game seed {seed}")
    rng = random.Random(seed)
    registry = Registry(entry_points=False)
    status, made = post(f"{url}/api/games", {**CHOICES[number % len(CHOICES)], "seed": seed})
    assert status == 201, made
    game, tokens = made["id"], made["seats"]
    watchers: dict[str | None, str | None] = {None: None, **tokens}
    # Each seat watches on one server and asks on the other.
    where = {seat: urls[index % 2] for index, seat in enumerate(watchers)}
    seen: dict[tuple[str | None, int], dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        sockets = {
            seat: stack.enter_context(watch(where[seat], game, token))
            for seat, token in watchers.items()
        }
        while True:
            views = {}
            for seat, token in watchers.items():
                other = urls[1] if where[seat] == urls[0] else urls[0]
                status, view = get(f"{other}/api/games/{game}", token)
                assert status == 200
                views[seat] = view
            step = views[None]["step"]
            if any(view["step"] != step for view in views.values()):
                continue  # a bot answered between two requests: look again
            truth = replayed(db, game, step, registry)
            for seat, view in views.items():
                check_against_truth(view, truth, seat)
                check_against_other_deals(view, truth, seat, registry, rng)
                seen[seat, step] = view
            if truth.over:
                break
            asked = [seat for seat, view in views.items() if view["answers"]]
            if not asked:
                continue  # a bot's turn
            (family,) = asked
            to = urls[step % 2]
            answer(to, game, tokens[family], rng.choice(views[family]["answers"]), step)
        final = views[None]["step"]
        for seat, socket in sockets.items():
            for frame in drain(socket, final):
                expected = seen.get((seat, frame["step"]))
                if expected is not None:
                    assert frame == expected, f"{seat}'s frame at step {frame['step']}"
                else:  # a bot's step the test did not stop at: checked on its own
                    check_against_truth(frame, replayed(db, game, frame["step"], registry), seat)


def replayed(db: str, game: str, step: int, registry: Registry) -> Game:
    """The game after ``step`` answers, from its first save and its answers."""
    store = open_store(db)
    try:
        kept = store.load(game)
        assert kept is not None
        answers = store.answers(game, step)
    finally:
        store.close()
    played = load(kept.initial, registry=registry)
    for family, given in answers:
        played.answer(given, family=family)
    return played
