"""The pages in a real browser: Chromium from the distribution, driven by Playwright.

A real server (``tests/web_server.py``: uvicorn on 127.0.0.1, a SQLite file in a
temporary folder, the house-rule plugin installed) serves the lobby and the game page.
A table is set from the lobby by clicking (base and Ablaze, the ``bounty`` variant, two
people and a ``random`` bot); the two people, each in a browser context of their own,
play it to the final scores by clicking the buttons their page offers (each choice
drawn from a printed seed), one of them reloading mid-game, while a spectator watches.
Every websocket frame a person's page receives is checked for another family's secrets;
the finished game is watched and replayed step by step. Screenshots are kept in
``test-artifacts/browser/`` (``ORIFLAMME_TEST_ARTIFACTS`` names another folder for
``test-artifacts``).

Chromium is found at :data:`CHROMIUM`; when it is missing the tests fail saying how to
install it, unless ``ORIFLAMME_SKIP_BROWSER=1``, which skips them.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import oriflamme_house_rules
import pytest
from playwright.sync_api import Browser, sync_playwright

from .browser_support import (
    ARGS,
    ARTIFACTS,
    CHROMIUM,
    FAMILIES,
    MAX_ANSWERS,
    PLAY_SECONDS,
    RELOAD_AT,
    SEED,
    SNAPSHOT,
    WAIT_MS,
    Played,
    Public,
    Table,
    Watched,
    _fail_or_skip,
    api,
    card_objects,
    click_an_answer,
    open_page,
    reload_mid_game,
    secrets_shown,
    set_table,
    shoot,
    the_end,
    token_of,
    wait_for_step,
)
from .web_server import server_thread

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """Chromium, headless, launched once for the module."""
    if not os.access(CHROMIUM, os.X_OK):
        _fail_or_skip(f"the browser tests need Chromium at {CHROMIUM}, which is missing")
    print(f"browser tests: seed {SEED} (ORIFLAMME_BROWSER_SEED), screenshots in {ARTIFACTS}")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "games.sqlite3"
    with server_thread(db, {"house_rules": oriflamme_house_rules}) as url:
        yield url


@pytest.fixture(scope="module")
def table(chromium: Browser, server: str) -> Iterator[Table]:
    rng = random.Random(f"{SEED}:lobby")
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        watched = Watched(server)
        yield set_table(watched, watched.watch(context.new_page()), rng)
    finally:
        context.close()


def test_the_lobby_sets_a_table_with_ablaze_a_house_rule_and_a_bot(
    table: Table, server: str
) -> None:
    people = {family for family in FAMILIES if family != table.bot}
    assert set(table.links) == people
    assert table.spectate == f"{server}/play/{table.id}"
    tokens = {family: link.partition("#token=")[2] for family, link in table.links.items()}
    for family, link in table.links.items():
        assert link == f"{table.spectate}#token={tokens[family]}"
        assert len(tokens[family]) >= 20
    assert len(set(tokens.values())) == 2
    assert table.go_to == table.links[table.mine]
    seen = api(f"{server}/api/games/{table.id}")
    assert seen["seat"] is None
    assert seen["seats"] == {f: "random" if f == table.bot else "person" for f in FAMILIES}
    assert sorted(seen["sets"]) == ["ablaze", "base"]
    assert seen["variants"]["bounty"] is True
    assert len(set(seen["cards"]) - {"twin"}) == 10  # a Prince brings its Twin along
    for family, token in tokens.items():
        assert api(f"{server}/api/games/{table.id}?token={token}")["seat"] == family
    # What is installed is listed, the house rules' card and variant with their words.
    assert "house_rules (added by this server)" in table.installed["plugin"]
    assert "Jester" in table.installed["jester"]
    assert "bounty" in table.installed["variants"]
    assert "eliminated with tokens on it pays them" in table.installed["variants"]
    assert table.watched.errors == []
    assert table.watched.elsewhere == []


@pytest.fixture(scope="module")
def played(chromium: Browser, server: str, table: Table) -> Iterator[Played]:
    rng = random.Random(f"{SEED}:play")
    game = f"{server}/api/games/{table.id}"
    played = Played(table, {f: Watched(server) for f in sorted(table.links)}, Watched(server))
    with contextlib.ExitStack() as stack:
        pages = {
            family: open_page(chromium, stack, watched, table.links[family])
            for family, watched in played.seats.items()
        }
        watcher = open_page(chromium, stack, played.spectator, table.spectate)
        start = time.monotonic()
        while (seen := api(game))["phase"] != "end":
            assert time.monotonic() - start < PLAY_SECONDS, f"not over in {PLAY_SECONDS} s"
            assert played.clicks < MAX_ANSWERS, f"not over after {MAX_ANSWERS} answers"
            family, step = seen["waiting_for"], seen["step"]
            # The bot answers on the server: a person's page shows it soon.
            page = pages[family] if family != table.bot else next(iter(pages.values()))
            if family != table.bot:
                wait_for_step(page, step, asked=True)
                wait_for_step(watcher, step)
                played.watching.append((len(seen["queue"]), watcher.evaluate(SNAPSHOT)))
                if not played.reloaded and step >= RELOAD_AT:
                    played.reloaded = family
                    reload_mid_game(page, step, played)
                    shoot(watcher, "05-spectator-mid-game")
                expected = api(f"{game}?token={token_of(table, family)}")["answers"]
                click_an_answer(page, expected, rng)
                played.clicks += 1
            page.wait_for_function(
                "s => Number(document.body.dataset.step) > s", arg=step, timeout=WAIT_MS
            )
        played.final = seen
        for family, page in [*pages.items(), ("spectator", watcher)]:
            played.ends[family] = the_end(page)
            shoot(page, f"06-{family}-final-scores")
        print(
            f"played to the end: {seen['step']} answers, {played.clicks} clicked, "
            f"{time.monotonic() - start:.1f} s"
        )
        yield played


def test_two_people_and_a_bot_play_to_the_final_scores_by_clicking(played: Played) -> None:
    final = played.final
    assert final["phase"] == "end"
    assert played.clicks >= 2 * 6  # each person places a card in each of six rounds at least
    assert played.clicks < final["step"]  # the bot answered too
    for family, end in played.ends.items():
        shown = {f: int(score) for f, score in end["scores"].items()}
        assert shown == final["scores"], family
        assert end["snapshot"]["offered"] == [], family
        winners = final["winners"]
        if family in winners:
            assert end["winners"].startswith("You"), (family, end["winners"])
        else:
            assert all(w in end["winners"] for w in winners), (family, end["winners"])
    for watched in [*played.seats.values(), played.spectator]:
        assert watched.errors == []
        assert watched.elsewhere == []  # loopback only, this server only


def test_a_reload_mid_game_comes_back_where_it_was(played: Played) -> None:
    assert played.reloaded, f"no person's turn at step {RELOAD_AT} or later"
    before, after = played.before_reload, played.after_reload
    assert int(before["step"]) >= RELOAD_AT
    assert before["hand"], "nothing in hand to compare"
    assert after == before
    assert after["asked"] == "true"


def test_a_spectator_sees_the_table_and_no_hand_nor_answers(played: Played) -> None:
    assert len(played.watching) == played.clicks
    for stacks, seen in played.watching:
        assert seen["offered"] == []
        assert seen["hands_shown"] == 0
        assert seen["stacks"] == stacks
        assert "spectator" in seen["who"]
    for view in played.spectator.views():
        assert view["seat"] is None
        assert (view["hand"], view["set_aside"], view["answers"]) == ([], [], [])


def test_a_finished_game_is_replayed_step_by_step(
    played: Played, chromium: Browser, replays: dict[str | None, list[dict[str, Any]]]
) -> None:
    """The spectator's page, and a person's, step through the finished game: each step
    shows what the replay API says that seat had then (as it saw it)."""
    table, steps = played.table, played.final["step"]
    family = sorted(table.links)[0]
    for who, link in ((None, table.spectate), (family, table.links[family])):
        watched = Watched(table.watched.base)
        with contextlib.ExitStack() as stack:
            page = open_page(chromium, stack, watched, link)
            page.get_by_test_id("scores").wait_for(timeout=WAIT_MS)
            assert page.evaluate(SNAPSHOT)["offered"] == []
            page.get_by_test_id("replay-start").click()
            for step in (0, 1, 2, 3):
                if step:
                    page.get_by_test_id("replay-forward").click()
                shown = f'body[data-shown-step="{step}"][data-replaying=true]'
                page.locator(shown).wait_for(state="attached", timeout=WAIT_MS)
                assert page.get_by_test_id("replay-step").inner_text() == f"Step {step} of {steps}"
                then, seen = replays[who][step], page.evaluate(SNAPSHOT)
                assert seen["stacks"] == len(then["queue"])
                assert seen["hand"] == [str(card["id"]) for card in then["hand"]]
                assert seen["log"] == len(then["log"])
                assert seen["offered"] == []
            shoot(page, f"07-{who or 'spectator'}-replay-step-3")
            page.get_by_test_id("replay-back").click()
            page.locator('body[data-shown-step="2"]').wait_for(state="attached", timeout=WAIT_MS)
            page.get_by_test_id("replay-end").click()
            shown = f'body[data-shown-step="{steps}"][data-replaying=false]'
            page.locator(shown).wait_for(state="attached", timeout=WAIT_MS)
            assert page.get_by_test_id("replay-forward").is_disabled()
            assert page.get_by_test_id("scores").is_visible()
            assert watched.errors == []


@pytest.fixture(scope="module")
def replays(played: Played, server: str) -> dict[str | None, list[dict[str, Any]]]:
    """Each person's view (and, under None, the spectator's) after every step, read from
    the replay API once the game is over."""
    table, steps = played.table, played.final["step"]
    game = f"{server}/api/games/{table.id}"
    found: dict[str | None, list[dict[str, Any]]] = {}
    for family in [None, *sorted(table.links)]:
        token = "" if family is None else f"&token={token_of(table, family)}"
        found[family] = [api(f"{game}/replay?step={step}{token}") for step in range(steps + 1)]
    return found


def test_every_view_a_page_is_sent_is_its_seats_view_at_that_step(
    played: Played, replays: dict[str | None, list[dict[str, Any]]]
) -> None:
    for seat, watched in played.seats.items():
        assert watched.frames, f"{seat}'s page received no websocket frame"
        assert watched.responses, f"{seat}'s page read no view over HTTP"
        views = watched.views()
        assert max(view["step"] for view in views) == played.final["step"]
        for view in views:
            assert (view["seat"], view["family"]) == (seat, seat)
            then = {**replays[seat][view["step"]], "answers": view["answers"]}
            for name in ("answer_texts", "question", "steps"):
                then.pop(name, None)
            assert {k: v for k, v in view.items() if k not in ("answer_texts", "question")} == then


def test_no_view_a_page_is_sent_shows_another_familys_hidden_card(
    played: Played, replays: dict[str | None, list[dict[str, Any]]]
) -> None:
    """In every view a seat's page is sent (websocket frames, the API's responses), a
    card's key is there only for the seat's own cards or for one every family has seen
    (the key a spectator was shown for that card by then); and no card of another
    person's hand or set-aside is in it at all. The engine's rule, checked from outside:
    a family knows its own cards and what has been public, never a card it only owns
    by a bribe while that card is face down."""
    public: list[Public] = []  # by step: every key a spectator has seen so far
    known: dict[int, str] = {}
    pairs: set[tuple[str, str]] = set()
    for seen in replays[None]:
        for card in card_objects(seen):
            if card["key"] is not None:
                assert known.setdefault(card["id"], card["key"]) == card["key"]
                pairs.add((card["colour"], card["key"]))
        public.append(Public(dict(known), set(pairs)))
    held = {  # each person's hand and set-aside, by step
        family: [{c["id"] for c in v["hand"] + v["set_aside"]} for v in views]
        for family, views in replays.items()
        if family is not None
    }
    problems: list[str] = []
    checked = 0
    for seat, watched in played.seats.items():
        for view in watched.views():
            step = view["step"]
            hidden = set().union(*(held[f][step] for f in held if f != seat))
            problems.extend(secrets_shown(view, seat, public[step], hidden))
            checked += 1
    assert checked > 0
    assert not problems, "\n".join(problems[:20])
    print(f"views checked (websocket frames and responses): {checked}")
