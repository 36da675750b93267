"""The pages in a real browser: Chromium from the distribution, driven by Playwright.

A real server (``tests/web_server.py``: uvicorn on 127.0.0.1, a SQLite file in a
temporary folder, the house-rule plugin installed) serves the lobby, the table page and
the game page. A table is set from the lobby by clicking (base and Ablaze, the
``bounty`` variant, two people and a ``random`` bot); "Go to my seat" opens a new tab
and the lobby keeps every link; "Your games" survives a reload and opens the table
page, which lists every link with a Copy button (the clipboard, or its fallback). The
two people, each in a browser context of their own, play the game to the final scores
by clicking the buttons their page offers (each choice drawn from a printed seed), one
of them reloading mid-game, while a spectator watches. Every websocket frame a
person's page receives is checked for another family's secrets; the finished game is
watched and replayed step by step. In a game of three people, a double click plays
once, an answer sent twice is refused and the page just catches up, and too many
answers make the page say to wait. No token is ever in a URL the browser sends.
Screenshots are kept in ``test-artifacts/browser/`` (``ORIFLAMME_TEST_ARTIFACTS`` names
another folder for ``test-artifacts``).

Chromium is found at :data:`CHROMIUM`; when it is missing the tests fail saying how to
install it, unless ``ORIFLAMME_SKIP_BROWSER=1``, which skips them.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import oriflamme_house_rules
import pytest
from playwright.sync_api import Browser, Locator, Page, Route

from .browser_support import (
    ARTIFACTS,
    DESKTOP,
    EVERY,
    FAMILIES,
    MAX_ANSWERS,
    PHONE,
    PLAY_SECONDS,
    RELOAD_AT,
    SECRETS,
    SEED,
    SNAPSHOT,
    WAIT_MS,
    Played,
    Public,
    Table,
    Watched,
    api,
    card_objects,
    click_an_answer,
    create_game,
    fits,
    launched_chromium,
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

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """Chromium, headless, launched once for the module."""
    print(f"browser tests: seed {SEED} (ORIFLAMME_BROWSER_SEED), screenshots in {ARTIFACTS}")
    with launched_chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "games.sqlite3"
    with server_thread(db, {"house_rules": oriflamme_house_rules}) as url:
        yield url


@pytest.fixture(scope="module")
def table(chromium: Browser, server: str) -> Iterator[Table]:
    rng = random.Random(f"{SEED}:lobby")
    watched = Watched(server)
    context = watched.attach(chromium.new_context(viewport=DESKTOP))
    try:
        yield set_table(watched, context.new_page(), rng)
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
    assert table.table == f"{server}/table/{table.id}#token={table.creator}"
    assert len(table.creator) >= 20
    assert table.creator not in tokens.values()
    found = api(f"{server}/api/games/{table.id}/table", table.creator)
    assert (found["links"], found["spectate"], found["table"]) == (
        table.links,
        table.spectate,
        table.table,
    )
    seen = api(f"{server}/api/games/{table.id}")
    assert seen["seat"] is None
    assert seen["seats"] == {f: "random" if f == table.bot else "person" for f in FAMILIES}
    assert sorted(seen["sets"]) == ["ablaze", "base"]
    assert seen["variants"]["bounty"] is True
    assert len(set(seen["cards"]) - {"twin"}) == 10  # a Prince brings its Twin along
    for family, token in tokens.items():
        assert api(f"{server}/api/games/{table.id}", token)["seat"] == family
    # What is installed is listed, the house rules' card and variant with their words.
    assert "house_rules (added by this server)" in table.installed["plugin"]
    assert "Jester" in table.installed["jester"]
    assert "bounty" in table.installed["variants"]
    assert "eliminated with tokens on it pays them" in table.installed["variants"]
    assert table.watched.errors == []
    assert table.watched.elsewhere == []


def shown_links(page: Page) -> dict[str, str]:
    """Every link the lobby's "table is set" panel shows, by the test id of its field."""
    fields = page.get_by_test_id("created").locator("input[data-testid]").all()
    return {field.get_attribute("data-testid") or "": field.input_value() for field in fields}


def test_go_to_my_seat_opens_a_new_tab_and_the_lobby_keeps_every_link(
    table: Table, server: str
) -> None:
    page = table.page
    expected = {
        **{f"link-{family}": link for family, link in table.links.items()},
        "spectate-link": table.spectate,
        "table-link": table.table,
    }
    assert shown_links(page) == expected
    go = page.get_by_test_id("go-to-seat")
    assert go.get_attribute("target") == "_blank"
    assert "noopener" in (go.get_attribute("rel") or "").split()
    with page.context.expect_page(timeout=WAIT_MS) as opened:
        go.click()
    seat = opened.value
    seat.locator("[data-testid=who]", has_text=f"You play {table.mine}").wait_for(timeout=WAIT_MS)
    assert seat.url == table.links[table.mine]
    assert seat.evaluate("() => window.opener") is None
    seat.close()
    # The lobby stayed where it was, with the friends' links.
    assert page.url == f"{server}/"
    assert page.get_by_test_id("created").is_visible()
    assert shown_links(page) == expected
    assert page.get_by_test_id("kept").inner_text().startswith("It is also kept under")
    assert table.watched.errors == []


def test_the_seed_field_warns_that_a_seed_tells_every_hand(chromium: Browser, server: str) -> None:
    watched = Watched(server)
    with contextlib.ExitStack() as stack:
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = open_page(chromium, stack, watched, f"{server}/", viewport=viewport)
            page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
            warning = page.get_by_test_id("seed-warning")
            assert warning.is_visible(), name
            said = warning.inner_text()
            assert "Whoever knows a game's seed knows every hand." in said
            assert "Leave it empty unless you want to replay a deal" in said
            assert page.get_by_test_id("seed").get_attribute("aria-describedby") == "seed-warning"
            assert page.get_by_test_id("seed").input_value() == ""
            assert fits(page), name
        # Set from a phone with what the lobby offers first: the links fit its width.
        page.get_by_test_id("create").click()
        page.get_by_test_id("created").wait_for(timeout=WAIT_MS)
        SECRETS.update(v.partition("#token=")[2] for v in shown_links(page).values() if "#" in v)
        assert page.get_by_test_id("table-link").input_value().startswith(f"{server}/table/")
        assert fits(page)
        shoot(page, "08-phone-lobby-created")
        page.reload()
        page.get_by_test_id("your-game").first.wait_for(timeout=WAIT_MS)
        assert fits(page)
        shoot(page, "08-phone-lobby-your-games")
    assert watched.errors == []


def your_game(page: Page, game: str) -> Locator:
    return page.locator(f'[data-testid=your-game][data-game-id="{game}"]')


def test_your_games_survive_a_reload_and_open_the_table(
    table: Table, chromium: Browser, server: str
) -> None:
    """The lobby of the browser that set the table lists it, after a reload too, and its
    link opens the table page; a game forgotten (and not brought back) is gone for good,
    until its table page is opened again. (In a copy of that browser's storage, which
    the other tests keep as it was.)"""
    watched = Watched(server)
    context = watched.attach(
        chromium.new_context(viewport=DESKTOP, storage_state=table.page.context.storage_state())
    )
    page = context.new_page()
    page.goto(f"{server}/")
    page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
    item = your_game(page, table.id)
    for _ in range(2):
        item.wait_for(timeout=WAIT_MS)
        status = item.get_by_test_id("your-game-status")
        status.locator("xpath=self::*[@data-state]").wait_for(timeout=WAIT_MS)
        over = api(f"{server}/api/games/{table.id}")["phase"] == "end"
        assert ("over" if over else "in play") in status.inner_text()
        said = item.inner_text().lower()  # the names are capitalised on the page
        for family in FAMILIES:
            assert family in said
        assert f"{table.mine} (you)" in said
        assert f"{table.bot} (bot: random)" in said
        assert item.get_by_test_id("your-game-table").get_attribute("href") == table.table
        page.reload()
    shoot(page, "09-lobby-your-games")
    item.get_by_test_id("your-game-table").click()
    page.wait_for_url(table.table, timeout=WAIT_MS)
    page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
    for family, link in table.links.items():
        assert page.get_by_test_id(f"link-{family}").input_value() == link
    page.go_back()
    page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
    item.get_by_test_id("your-game-forget").click()
    page.get_by_test_id("your-game-forgotten").wait_for(timeout=WAIT_MS)
    assert item.count() == 0
    page.get_by_test_id("your-game-undo").click()
    item.wait_for(timeout=WAIT_MS)
    page.reload()
    item.wait_for(timeout=WAIT_MS)
    item.get_by_test_id("your-game-forget").click()
    page.reload()
    page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
    assert item.count() == 0
    # Opening its table page remembers it again.
    page.goto(table.table)
    page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
    page.goto(f"{server}/")
    item.wait_for(timeout=WAIT_MS)
    context.close()
    assert watched.errors == []


def test_the_table_page_lists_every_link_and_copies_one(
    table: Table, chromium: Browser, server: str
) -> None:
    watched = Watched(server)
    kept = table.page.context.storage_state()  # the lobby's "Your games": who is "you"
    with contextlib.ExitStack() as stack:
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = open_page(
                chromium,
                stack,
                watched,
                table.table,
                viewport=viewport,
                storage_state=kept,
                permissions=["clipboard-read", "clipboard-write"],
            )
            page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
            seen = api(f"{server}/api/games/{table.id}/table", table.creator)
            for family in FAMILIES:
                if family == table.bot:
                    assert "random" in page.get_by_test_id(f"bot-{family}").inner_text()
                    assert page.get_by_test_id(f"link-{family}").count() == 0
                    continue
                assert page.get_by_test_id(f"link-{family}").input_value() == table.links[family]
                row = page.locator(f".link-row[data-family={family}]")
                assert ("(you)" in row.inner_text()) == (family == table.mine)
                opener = page.get_by_test_id(f"link-{family}-open")
                assert (opener.inner_text(), opener.get_attribute("target")) == (
                    "Open my seat",
                    "_blank",
                )
            assert page.get_by_test_id("spectate-link").input_value() == table.spectate
            status = page.get_by_test_id("table-status")
            assert status.get_attribute("data-over") == str(seen["over"]).lower()
            assert ("over" in status.inner_text()) == seen["over"]
            assert fits(page), name
            shoot(page, f"10-table-{name}")
        for testid, link in (
            (f"link-{table.mine}", table.links[table.mine]),
            ("spectate-link", table.spectate),
        ):
            page.get_by_test_id(f"{testid}-copy").click()
            page.locator(f'[data-testid="{testid}-copy"][data-copied=true]').wait_for(
                timeout=WAIT_MS
            )
            assert page.get_by_test_id(f"{testid}-copy").inner_text() == "Copied"
            assert page.evaluate("() => navigator.clipboard.readText()") == link
        other = next(f for f in sorted(table.links) if f != table.mine)
        with page.context.expect_page(timeout=WAIT_MS) as opened:
            page.get_by_test_id(f"link-{other}-open").click()
        seat = opened.value
        seat.locator("[data-testid=who]", has_text=f"You play {other}").wait_for(timeout=WAIT_MS)
        assert seat.url == table.links[other]
        assert page.url == table.table
    assert watched.errors == []


#: A browser with no clipboard for pages (as a page served over plain http to another
#: machine has none); the real one is kept aside for the test to read.
NO_CLIPBOARD = """
window.keptClipboard = navigator.clipboard;
Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined });
"""


def test_with_no_clipboard_copy_selects_the_link(
    table: Table, chromium: Browser, server: str
) -> None:
    watched = Watched(server)
    context = watched.attach(
        chromium.new_context(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    )
    try:
        context.add_init_script(NO_CLIPBOARD)
        page = context.new_page()
        page.goto(table.table)
        page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
        assert page.evaluate("() => navigator.clipboard === undefined")
        page.get_by_test_id("spectate-link-copy").click()
        copy = page.locator("[data-testid=spectate-link-copy][data-copied]")
        copy.wait_for(timeout=WAIT_MS)
        selected = page.get_by_test_id("spectate-link").evaluate(
            "e => [e.selectionStart, e.selectionEnd, document.activeElement === e]"
        )
        assert selected == [0, len(table.spectate), True]
        if copy.get_attribute("data-copied") == "true":  # copied from the selection
            assert copy.inner_text() == "Copied"
            assert page.evaluate("() => window.keptClipboard.readText()") == table.spectate
        else:
            assert copy.inner_text() == "Selected: copy it"
    finally:
        context.close()
    assert watched.errors == []


def test_the_table_page_opens_only_with_the_creators_link(
    table: Table, chromium: Browser, server: str
) -> None:
    watched = Watched(server)
    family = sorted(table.links)[0]
    with contextlib.ExitStack() as stack:
        for link, said in (
            (f"{server}/table/{table.id}#token={token_of(table, family)}", "only the table's own"),
            (f"{server}/table/{table.id}", "opens with the table's own link"),
            (f"{server}/table/nosuchgame#token={table.creator}", "There is no game"),
        ):
            page = open_page(chromium, stack, watched, link)
            error = page.get_by_test_id("page-error")
            error.wait_for(timeout=WAIT_MS)
            assert said in error.inner_text(), link
            assert page.get_by_test_id("table-panel").is_hidden()
    assert watched.unexpected(403, 404) == []


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
                expected = api(game, token_of(table, family))["answers"]
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
            # A family opening the sentence takes a capital: "Green wins."
            said = end["winners"].lower()
            assert all(w in said for w in winners), (family, end["winners"])
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
        token = None if family is None else token_of(table, family)
        found[family] = [api(f"{game}/replay?step={step}", token) for step in range(steps + 1)]
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


@pytest.fixture(scope="module")
def people(server: str) -> dict[str, Any]:
    """A game of three people and no bot, made through the API: each step waits for a
    person, so a step moves only when a test answers."""
    seed = random.Random(f"{SEED}:people").randrange(2**31)
    made = create_game(server, {"families": list(FAMILIES), "seed": seed})
    print(f"game {made['id']} of three people: seed {seed}")
    return made


def asked_page(
    chromium: Browser, stack: contextlib.ExitStack, watched: Watched, server: str, made: Any
) -> tuple[Page, int, list[Any]]:
    """The page of the person asked now, showing it: the page, the step, the answers
    posted from it (their bodies)."""
    seen = api(f"{server}/api/games/{made['id']}")
    assert seen["phase"] != "end"
    page = open_page(chromium, stack, watched, made["links"][seen["waiting_for"]])
    wait_for_step(page, seen["step"], asked=True)
    page.locator("[data-testid=connection][data-state=live]").wait_for(timeout=WAIT_MS)
    posted: list[Any] = []
    page.on(
        "request",
        lambda r: (
            posted.append(r.post_data_json) if r.method == "POST" and answering(r.url) else None
        ),
    )
    return page, seen["step"], posted


def an_answer(page: Page, rng: random.Random) -> Locator:
    """One of the answer buttons the page offers (a placement's card chosen first)."""
    turn = page.get_by_test_id("turn")
    cards = turn.get_by_test_id("place-card").all()
    if cards:
        rng.choice(cards).click()
        turn.locator("[data-testid=place-card][aria-pressed=true]").wait_for(timeout=WAIT_MS)
    buttons = turn.get_by_test_id("answer")
    buttons.first.wait_for(timeout=WAIT_MS)
    return buttons.nth(rng.randrange(buttons.count()))


def answering(url: str) -> bool:
    """Whether ``url`` is a game's answer (in whatever language its view is asked)."""
    return urlsplit(url).path.endswith("/answer")


def step_of(server: str, made: Any) -> int:
    return int(api(f"{server}/api/games/{made['id']}")["step"])


def test_a_double_click_on_an_answer_plays_it_once(
    chromium: Browser, server: str, people: dict[str, Any]
) -> None:
    rng = random.Random(f"{SEED}:double")
    watched = Watched(server)
    with contextlib.ExitStack() as stack:
        for how in ("double click", "two clicks at once"):
            page, step, posted = asked_page(chromium, stack, watched, server, people)
            button = an_answer(page, rng)
            if how == "double click":
                button.dblclick()
            else:  # both before the page has drawn anything again
                button.evaluate("b => { b.click(); b.click(); }")
            wait_for_step(page, step + 1)
            page.wait_for_timeout(300)  # time for a second answer, were one sent
            assert step_of(server, people) == step + 1, how
            assert [body["step"] for body in posted] == [step], how
            assert page.get_by_test_id("answer-error").count() == 0, how
            assert page.locator("body").get_attribute("data-step") == str(step + 1)
    assert watched.errors == []


def test_an_answer_sent_twice_is_refused_and_the_page_just_catches_up(
    chromium: Browser, server: str, people: dict[str, Any]
) -> None:
    """The answer is played, its reply lost and the same answer sent again (a retry):
    the server refuses the second (409) and the page shows the game as it now is,
    with no error."""
    rng = random.Random(f"{SEED}:twice")
    watched = Watched(server)
    statuses: list[tuple[int, int]] = []

    def twice(route: Route) -> None:
        first = route.fetch()
        again = route.fetch()
        statuses.append((first.status, again.status))
        route.fulfill(response=again)

    with contextlib.ExitStack() as stack:
        page, step, posted = asked_page(chromium, stack, watched, server, people)
        page.route(answering, twice)
        with page.expect_response(lambda r: answering(r.url), timeout=WAIT_MS) as replied:
            an_answer(page, rng).click()
        assert replied.value.status == 409
        assert statuses == [(200, 409)]
        wait_for_step(page, step + 1, asked=False)
        page.wait_for_timeout(300)  # time for the page to read the view again
        assert step_of(server, people) == step + 1
        assert [body["step"] for body in posted] == [step]
        assert page.get_by_test_id("answer-error").count() == 0
        assert page.get_by_test_id("answer-note").count() == 0
    assert watched.unexpected(409) == []


def test_too_many_answers_make_the_page_say_to_wait(
    chromium: Browser, server: str, people: dict[str, Any]
) -> None:
    rng = random.Random(f"{SEED}:busy")
    watched = Watched(server)
    refusal = "too many answers from this seat: at most 60 in 10 seconds; try again in 3 s"

    def busy(route: Route) -> None:
        route.fulfill(
            status=429,
            headers={"Retry-After": "3"},
            content_type="application/json",
            body=json.dumps({"error": refusal}),
        )

    with contextlib.ExitStack() as stack:
        page, step, _ = asked_page(chromium, stack, watched, server, people)
        page.route(answering, busy)
        an_answer(page, rng).click()
        note = page.get_by_test_id("answer-note")
        note.wait_for(timeout=WAIT_MS)
        assert "wait 3 seconds, then answer again" in note.inner_text()
        assert page.get_by_test_id("answer-error").count() == 0
        buttons = page.get_by_test_id("turn").locator("button").all()
        assert buttons
        assert all(button.is_disabled() for button in buttons)
        shoot(page, "11-too-many-answers")
        assert step_of(server, people) == step
        page.unroute(answering, busy)
        note.wait_for(state="detached", timeout=WAIT_MS)
        an_answer(page, rng).click()
        wait_for_step(page, step + 1)
        assert step_of(server, people) == step + 1
    assert watched.unexpected(429) == []


def test_no_token_is_ever_in_a_url_the_browser_sends(played: Played) -> None:
    """Every request of every page of this run (the lobby, the table page, the game
    pages, their websockets, answers and replays) names no token: the tokens go in the
    Authorization header, or the websocket's first message. A page's own address keeps
    its token in the fragment, which the browser does not send."""
    sent = [request for watched in EVERY for request in watched.sent]
    table = played.table
    assert {table.creator, *(token_of(table, f) for f in table.links)} <= SECRETS
    assert {"document", "script", "fetch", "websocket"} <= {r.kind for r in sent}
    problems: list[str] = []
    for request in sent:
        url, _, fragment = request.url.partition("#")
        if fragment and request.kind != "document":
            problems.append(f"{request.kind} {request.url} has a fragment")
        if "token=" in url.lower() or any(secret in url for secret in SECRETS):
            problems.append(f"{request.method} {request.url} ({request.kind}) names a token")
        if request.authorization is not None and request.kind != "fetch":
            problems.append(f"{request.method} {request.url} ({request.kind}) sends a token")
    assert not problems, "\n".join(problems[:20])
    # The tokens went in the header instead: each seat's page sent its own, the
    # spectator's none.
    for family, watched in played.seats.items():
        asked = [r for r in watched.sent if r.kind == "fetch" and "/api/games/" in r.url]
        bearers = {r.authorization for r in asked}
        assert bearers == {f"Bearer {token_of(table, family)}"}, family
        assert any(r.method == "POST" and answering(r.url) for r in watched.sent)
    assert all(r.authorization is None for r in played.spectator.sent)
    print(f"requests checked: {len(sent)}")


def test_a_bots_turn_shows_it_thinking_until_it_answers(chromium: Browser, server: str) -> None:
    """While a searching bot chooses (two seconds a decision here), the person's page
    says so, with the bot's family; the sign is gone once it is the person's turn."""
    seed = random.Random(f"{SEED}:thinking").randrange(2**63)
    rng = random.Random(seed)
    made = create_game(
        server,
        {
            "families": list(FAMILIES),
            "seed": seed,
            "bots": dict.fromkeys(FAMILIES[1:], "ismcts:seconds=2"),
        },
    )
    print(f"game {made['id']}: seed {seed}")
    mine = FAMILIES[0]
    watched = Watched(server)
    with contextlib.ExitStack() as stack:
        page = open_page(chromium, stack, watched, made["links"][mine])
        page.locator("body[data-step]").wait_for(state="attached", timeout=WAIT_MS)
        thinking = page.get_by_test_id("thinking")
        for _ in range(MAX_ANSWERS):
            page.locator("body[data-asked=true], [data-testid=thinking]").first.wait_for(
                timeout=WAIT_MS
            )
            if thinking.count():
                break
            seen = api(f"{server}/api/games/{made['id']}", token_of_link(made["links"][mine]))
            click_an_answer(page, seen["answers"], rng)
            wait_for_step(page, seen["step"] + 1)
        else:
            raise AssertionError("no bot's turn came")
        family = thinking.get_attribute("data-family")
        assert family in FAMILIES[1:]
        status = page.get_by_test_id("status").inner_text().lower()
        assert f"{family} (bot: searching (ismcts): seconds=2" in status, status
        assert "thinking" in status, status
        assert page.get_by_test_id("answer").count() == 0
        shoot(page, "10-a-bot-thinking")
        # Each bot takes its two seconds; then it is the person's turn again, or the end.
        page.locator("body[data-asked=true], body[data-phase=end]").first.wait_for(
            timeout=WAIT_MS * 2
        )
        assert thinking.count() == 0
    assert watched.errors == []


def token_of_link(link: str) -> str:
    return link.partition("#token=")[2]
