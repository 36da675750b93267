"""Where things are on the game page and the lobby, in a real browser, in English and
French, on a phone (390x844) and a laptop (1280x800): positions, not pixels.

On a phone the question, the hand, everyone's Influence and the first stacks of the
queue are on the first screen; a queue longer than the screen says how many stacks are
past its edge; a tapped card's text opens in view; no card's name spills out of its
card. On a laptop the newest line of the log is on the screen. Wherever it is, the last
move is marked on the card it touched. When the connection drops, the answers are
greyed out and cannot be clicked until it is back; a replay the server refuses says so
where the replay is. The lobby shows words, not identifiers, and a mix leaves the house
rules out until they are ticked. The French page is French: its own words, the cards'
French names, ``<html lang="fr">``. Screenshots are kept in ``test-artifacts/browser/``
as ``layout-<size>-<language>.png``.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import oriflamme_house_rules
import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, WebSocketRoute

from .browser_support import (
    ARTIFACTS,
    PHONE,
    SEED,
    WAIT_MS,
    Watched,
    api,
    create_game,
    launched_chromium,
    open_page,
)
from .web_server import post, server_thread

pytestmark = pytest.mark.browser

LAPTOP = ViewportSize(width=1280, height=800)
SIZES = {"phone": PHONE, "laptop": LAPTOP}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
#: Words of the page itself, in each language (static/words.js).
WORDS = {
    "en": {"queue": "The queue", "turn": "Your turn.", "log": "What happened"},
    "fr": {"queue": "La File", "turn": "À vous.", "log": "Ce qui s\u2019est passé"},
}
#: How many stacks the queue has when the pages are read: more than a phone shows.
STACKS = 6
FAMILIES = ["red", "blue", "green"]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with launched_chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("layout") / "games.sqlite3"
    with server_thread(db, {"house_rules": oriflamme_house_rules}) as url:
        yield url


def wait_until_asked(server: str, game: str, token: str) -> dict[str, Any]:
    """The seat's view once it is asked (the bots answer on the server), or the end."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        seen: dict[str, Any] = api(f"{server}/api/games/{game}", token)
        if seen["answers"] or seen["phase"] == "end":
            return seen
        assert time.monotonic() < deadline, f"step {seen['step']}: red was never asked"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def game(server: str) -> dict[str, Any]:
    """A game of red (a person) and two ``random`` bots, played by the API until red is
    asked with at least :data:`STACKS` stacks in the queue."""
    seed = random.Random(f"{SEED}:layout").randrange(2**31)
    rng = random.Random(seed)
    made = create_game(
        server,
        {
            "families": FAMILIES,
            "sets": ["base", "ablaze"],
            "size": 10,
            "seed": seed,
            "bots": {"blue": "random", "green": "random"},
        },
    )
    print(f"game {made['id']}: seed {seed}")
    token = made["seats"]["red"]
    for _ in range(60):
        seen = wait_until_asked(server, made["id"], token)
        assert seen["phase"] != "end", "the game ended before the queue was long"
        if len(seen["queue"]) >= STACKS:
            break
        status, _ = post(
            f"{server}/api/games/{made['id']}/answer",
            {"answer": rng.choice(seen["answers"]), "step": seen["step"]},
            token,
        )
        assert status == 200
    else:
        raise AssertionError(f"the queue never had {STACKS} stacks")
    found: dict[str, Any] = {
        "id": made["id"],
        "link": made["links"]["red"],
        "token": token,
        "step": seen["step"],
    }
    return found


def box(page: Page, selector: str) -> dict[str, float]:
    """The element's box on the screen (top, bottom, left, right, in CSS pixels)."""
    found = page.locator(selector).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); "
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"
    )
    return dict(found)


def on_screen(page: Page, selector: str) -> bool:
    size = page.viewport_size
    assert size is not None
    found = box(page, selector)
    return (
        found["top"] >= -1
        and found["bottom"] <= size["height"] + 1
        and found["left"] >= -1
        and found["right"] <= size["width"] + 1
    )


def last_card(view: dict[str, Any]) -> int | None:
    """The card the newest event naming one touched."""
    for event in reversed(view["events"]):
        for field in ("card", "by"):
            if isinstance(event.get(field), int):
                return int(event[field])
    return None


def no_sideways_scroll(page: Page) -> None:
    """Nothing makes the whole page wider than the screen (a wide table scrolls in its
    own box): what is too wide is named."""
    wide = page.evaluate(
        """() => ({
            page: document.documentElement.scrollWidth,
            screen: window.innerWidth,
            widest: [...document.querySelectorAll('body *')]
                .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
                .slice(0, 5)
                .map((e) => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right),
        })"""
    )
    assert wide["page"] <= wide["screen"], wide


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def speaks(page: Page, view: dict[str, Any], english: dict[str, Any], language: str) -> None:
    """The page speaks the browser's language, with the cards' names in it, and no
    card's name spills out of its card (none is broken inside a word)."""
    assert page.locator("html").get_attribute("lang") == language
    assert page.get_by_test_id("language").input_value() == language
    words = WORDS[language]
    assert page.locator("#queue-title").text_content() == words["queue"]
    assert page.locator("#log-title").text_content() == words["log"]
    assert page.get_by_test_id("status").inner_text().startswith(words["turn"])
    shown = page.locator("[data-testid=hand] [data-testid=card]").evaluate_all(
        "cards => cards.map((c) => [c.dataset.key, c.querySelector('.card-name').textContent])"
    )
    assert shown
    assert all(name == view["names"][key] for key, name in shown), shown
    if language == "fr":
        assert view["names"] != english["names"]
        assert "Soldat" in view["names"].values() or "Espion" in view["names"].values()
    spilt = page.evaluate(
        """() => [...document.querySelectorAll('#game .card-name')]
            .filter((e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth)
            .map((e) => e.textContent)"""
    )
    assert spilt == []


def marks_the_last_move(page: Page, view: dict[str, Any]) -> None:
    """The card the newest event touched is marked, and the newest line said."""
    card = last_card(view)
    assert card is not None
    marked = page.locator(f'#game [data-card-id="{card}"]')
    assert marked.count() >= 1, f"card {card} is not on the page"
    assert "last-move" in (marked.first.get_attribute("class") or "")
    assert page.get_by_test_id("last-move").is_visible()


def cues_the_queue(page: Page, size: str) -> None:
    """The queue says how many stacks are past its edge, when some are (on a phone,
    six stacks are more than the screen shows)."""
    queue = page.get_by_test_id("queue")
    overflowing = queue.evaluate("q => q.scrollWidth > q.clientWidth + 1")
    more = page.get_by_test_id("queue-more")
    if size == "phone":
        assert overflowing
    if overflowing:
        assert more.is_visible()
        hidden = int(more.get_attribute("data-count") or "0")
        assert hidden >= 1
        assert str(hidden) in more.inner_text()
    else:
        assert more.is_hidden()


def phone_screen(page: Page, view: dict[str, Any]) -> None:
    """On a phone: the question, everyone's Influence, the first stacks and the hand on
    the first screen; the queue swiped to its end shows the stacks before; scrolled
    down, the Influence stays in reach."""
    for selector in (
        "[data-testid=question]",
        "[data-testid=influence-bar]",
        "[data-testid=stack] >> nth=0",
        "[data-testid=stack] >> nth=1",
        "[data-testid=hand]",
    ):
        assert on_screen(page, selector), (selector, box(page, selector))
    for family in FAMILIES:
        bar = page.get_by_test_id(f"bar-influence-{family}")
        assert bar.inner_text() == str(view["influence"][family])
    # Swiping the queue to its end: the cue turns to the stacks before.
    page.get_by_test_id("queue").evaluate(
        "q => { q.scrollLeft = q.scrollWidth * (q.matches('.leftward') ? -1 : 1); }"
    )
    page.get_by_test_id("queue-before").wait_for(timeout=WAIT_MS)
    # Scrolled down, the Influence stays in reach.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert on_screen(page, "[data-testid=influence-bar]")
    page.evaluate("window.scrollTo(0, 0)")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", list(LOCALES))
def test_the_table_at_a_glance(
    chromium: Browser, server: str, game: dict[str, Any], size: str, language: str
) -> None:
    watched = Watched(server)
    view = api(f"{server}/api/games/{game['id']}?language={language}", game["token"])
    english = api(f"{server}/api/games/{game['id']}", game["token"])
    with contextlib.ExitStack() as stack:
        page = open_page(
            chromium,
            stack,
            watched,
            game["link"],
            viewport=SIZES[size],
            locale=LOCALES[language],
            is_mobile=size == "phone",
            has_touch=size == "phone",
        )
        page.locator("[data-testid=connection][data-state=live]").wait_for(timeout=WAIT_MS)
        page.locator(f'body[data-step="{game["step"]}"][data-asked=true]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        page.wait_for_function("document.fonts.ready.then(() => true)")
        speaks(page, view, english, language)
        marks_the_last_move(page, view)
        cues_the_queue(page, size)
        if size == "phone":
            phone_screen(page, view)
        else:
            newest = "[data-testid=log] li:last-child"
            assert on_screen(page, newest), box(page, newest)
            # Every card's whole text is on its face (set smaller where it is long).
            cut = page.locator("#game .card-body.clipped").all_inner_texts()
            assert cut == []
            assert on_screen(page, "[data-testid=question]")
        shot(page, f"layout-{size}-{language}")
        # A tapped card's text opens in view, in the page's language.
        tapped = page.locator("[data-testid=hand] [data-testid=card]").last
        key = tapped.get_attribute("data-key") or ""
        tapped.click()
        info = page.get_by_test_id("card-info")
        info.wait_for(timeout=WAIT_MS)
        assert on_screen(page, "[data-testid=card-info]"), box(page, "[data-testid=card-info]")
        assert page.get_by_test_id("card-text").inner_text() == view["texts"][key]
        shot(page, f"layout-{size}-{language}-card")
        page.keyboard.press("Escape")
        info.wait_for(state="hidden", timeout=WAIT_MS)
    assert watched.errors == []


def test_a_lost_connection_greys_out_the_answers_until_it_is_back(
    chromium: Browser, server: str, game: dict[str, Any]
) -> None:
    watched = Watched(server)
    sockets: list[WebSocketRoute] = []
    cut = {"now": False}

    def through(ws: WebSocketRoute) -> None:
        sockets.append(ws)
        if not cut["now"]:
            ws.connect_to_server()  # else: a socket that opens and never hears a thing

    with contextlib.ExitStack() as stack:
        context = watched.attach(chromium.new_context(viewport=PHONE))
        stack.callback(context.close)
        page = context.new_page()
        page.route_web_socket(re.compile(r"/ws(\?|$)"), through)
        page.goto(game["link"])
        page.locator("[data-testid=connection][data-state=live]").wait_for(timeout=WAIT_MS)
        answers = page.get_by_test_id("turn").locator("button")
        answers.first.wait_for(timeout=WAIT_MS)
        assert all(button.is_enabled() for button in answers.all())
        cut["now"] = True
        sockets[-1].close()
        page.locator("[data-testid=connection][data-state=reconnecting]").wait_for(timeout=WAIT_MS)
        page.get_by_test_id("offline-note").wait_for(timeout=WAIT_MS)
        assert answers.count() > 0
        assert all(button.is_disabled() for button in answers.all())
        assert "offline" in (page.get_by_test_id("turn").get_attribute("class") or "")
        shot(page, "layout-phone-en-offline")
        # Back: the answers come back.
        cut["now"] = False
        sockets[-1].close()
        page.locator("[data-testid=connection][data-state=live]").wait_for(timeout=WAIT_MS * 2)
        page.get_by_test_id("offline-note").wait_for(state="detached", timeout=WAIT_MS)
        assert all(button.is_enabled() for button in answers.all())
        assert api(f"{server}/api/games/{game['id']}")["step"] == game["step"]
    assert watched.errors == []


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_replay_the_server_refuses_says_so_beside_the_replay(
    chromium: Browser, server: str, language: str
) -> None:
    """A game of bots alone plays to its end; the server refuses the replay asked for
    (the answer is made up here: the page asks only for steps that exist)."""
    made = create_game(
        server,
        {"families": FAMILIES, "seed": 5, "bots": dict.fromkeys(FAMILIES, "random")},
    )
    refusal = "step must be a whole number from 0 to 3"

    def refuse(route: Route) -> None:
        route.fulfill(
            status=400, content_type="application/json", body=json.dumps({"error": refusal})
        )

    watched = Watched(server)
    with contextlib.ExitStack() as stack:
        page = open_page(
            chromium, stack, watched, made["spectate"], viewport=PHONE, locale=LOCALES[language]
        )
        page.get_by_test_id("scores").wait_for(timeout=WAIT_MS * 2)
        page.route(lambda url: "/replay?" in url, refuse)
        page.get_by_test_id("replay-start").click()
        error = page.get_by_test_id("replay-error")
        error.wait_for(timeout=WAIT_MS)
        said = error.inner_text()
        assert refusal in said
        assert said.startswith(
            "The replay could not be read"
            if language == "en"
            else "La partie n\u2019a pas pu être revue"
        )
        error.scroll_into_view_if_needed()
        assert on_screen(page, "[data-testid=replay-error]")
        assert page.locator("body").get_attribute("data-replaying") == "false"
        shot(page, f"layout-phone-{language}-replay-error")
    assert watched.unexpected(400) == []


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_lobby_shows_words_and_mixes_the_built_in_sets(
    chromium: Browser, server: str, language: str
) -> None:
    watched = Watched(server)
    with contextlib.ExitStack() as stack:
        page = open_page(
            chromium, stack, watched, f"{server}/", viewport=PHONE, locale=LOCALES[language]
        )
        page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
        assert page.locator("html").get_attribute("lang") == language
        form = page.get_by_test_id("create-form")
        said = form.inner_text()
        for raw in ("ambush_own_elimination", "first_edition", "generous_heir", "house_rules"):
            assert raw not in said, raw
        options = page.locator("[data-testid=variants] option").all_inner_texts()
        assert options
        assert not {"true", "false"} & {o.split(" (")[0] for o in options}, options
        page.get_by_test_id("cards-mode-mix").check()
        assert page.get_by_test_id("mix-base").is_checked()
        assert page.get_by_test_id("mix-ablaze").is_checked()
        assert not page.get_by_test_id("mix-house").is_checked()
        page.get_by_test_id("cards-mode-list").check()
        soldier = page.locator("label", has=page.get_by_test_id("card-soldier")).inner_text()
        assert soldier.strip() == {"en": "Soldier", "fr": "Soldat"}[language]
        create = page.get_by_test_id("create").inner_text()
        assert create == {"en": "Create the game", "fr": "Créer la partie"}[language]
        # A bot's seat offers the levels first, the kinds after them, and starts at the
        # middle level; a seat given a level says what it is, in the page's language.
        seat = page.get_by_test_id("seat-blue")
        groups = seat.locator("optgroup")
        assert groups.count() == 2
        offered = groups.first.locator("option").evaluate_all("os => os.map((o) => o.value)")
        assert offered == ["beginner", "easy", "medium", "hard"]
        assert "ismcts" in groups.last.locator("option").evaluate_all(
            "os => os.map((o) => o.value)"
        )
        assert seat.input_value() == "medium"
        described = page.get_by_test_id("level-help-blue").inner_text()
        assert described.startswith({"en": "Plays at once", "fr": "Joue aussitôt"}[language])
        seat.select_option("hard")
        described = page.get_by_test_id("level-help-blue").inner_text()
        assert described.startswith({"en": "Thinks ahead", "fr": "Réfléchit :"}[language])
        seat.select_option("ismcts")
        assert page.get_by_test_id("level-help-blue").count() == 0
        page.screenshot(path=str(ARTIFACTS / f"layout-phone-{language}-lobby.png"), full_page=True)
        # Every card of every set listed, the long texts too: the page is no wider than
        # the phone, the table scrolls sideways in its own box.
        page.evaluate(
            "document.querySelectorAll('[data-testid=installed] details')"
            ".forEach((d) => { d.open = true; })"
        )
        scroller = page.get_by_test_id("card-table-scroll").first
        scroller.wait_for(timeout=WAIT_MS)
        no_sideways_scroll(page)
        assert scroller.evaluate("s => s.scrollWidth > s.clientWidth"), "the table fits anyway"
        shot(page, f"layout-phone-{language}-lobby-installed")
        # The language chosen is kept: the next page opened speaks it.
        page.get_by_test_id("language").select_option("pl")
        page.locator("html[lang=pl]").wait_for(state="attached", timeout=WAIT_MS)
        page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
        assert page.get_by_test_id("create").inner_text() == "Utwórz grę"
        again = page.context.new_page()
        again.goto(f"{server}/")
        again.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
        assert again.locator("html").get_attribute("lang") == "pl"
    assert watched.errors == []


def test_the_table_page_is_no_wider_than_a_phone(chromium: Browser, server: str) -> None:
    made = create_game(server, {"families": FAMILIES, "seed": 9, "bots": {"green": "random"}})
    watched = Watched(server)
    with contextlib.ExitStack() as stack:
        page = open_page(chromium, stack, watched, made["table"], viewport=PHONE, locale="fr-FR")
        page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
        page.get_by_test_id("link-red").wait_for(timeout=WAIT_MS)
        no_sideways_scroll(page)
        shot(page, "layout-phone-fr-table")
    assert watched.errors == []


def test_a_bribed_cards_last_move_mark_leaves_its_pill_clear(
    chromium: Browser, server: str, game: dict[str, Any]
) -> None:
    """The view the page reads is made to say that every top card of the queue is bribed
    and that the newest move touched a face card and a back (the websocket is kept shut,
    so that view stays): on each, the "last move" pill and the bribe's do not overlap."""
    watched = Watched(server)
    marked: list[int] = []

    def bribed(route: Route) -> None:
        response = route.fetch()
        view = response.json()
        tops = [stack[-1] for stack in view["queue"]]
        face = next((card["id"] for card in tops if card["key"] is not None), None)
        back = next((card["id"] for card in tops if card["key"] is None), None)
        if face is not None and back is not None:
            view["bribes"] = {str(card["id"]): "blue" for card in tops} | view.get("bribes", {})
            view["events"].append({"kind": "bribed", "card": face, "by": back})
            marked[:] = [face, back]
        route.fulfill(response=response, json=view)

    with contextlib.ExitStack() as stack:
        context = watched.attach(chromium.new_context(viewport=PHONE, is_mobile=True))
        stack.callback(context.close)
        page = context.new_page()
        page.route_web_socket(re.compile(r"/ws(\?|$)"), lambda ws: None)
        page.route(re.compile(rf"/api/games/{game['id']}(\?|$)"), bribed)
        page.goto(game["link"])
        page.locator(f'body[data-step="{game["step"]}"]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        assert len(marked) == 2, "the queue has no face card or no back on top"
        for card in marked:
            found = page.locator(f'[data-testid=queue] .card[data-card-id="{card}"]')
            mark, pill = found.locator(".last-mark"), found.get_by_test_id("bribe")
            one, other = mark.bounding_box(), pill.bounding_box()
            assert one is not None, f"card {card} is not marked"
            assert other is not None, f"card {card} shows no bribe"
            whole = found.bounding_box()
            assert whole is not None
            for seen in (one, other):  # each whole on the card, none cut by its edge
                assert whole["y"] <= seen["y"], (card, whole, seen)
                assert seen["y"] + seen["height"] <= whole["y"] + whole["height"], (
                    card,
                    whole,
                    seen,
                )
            apart = (
                one["y"] >= other["y"] + other["height"]
                or other["y"] >= one["y"] + one["height"]
                or one["x"] >= other["x"] + other["width"]
                or other["x"] >= one["x"] + one["width"]
            )
            assert apart, (card, one, other)
        shot(page, "layout-phone-en-bribed-last-move")
    assert watched.errors == []
