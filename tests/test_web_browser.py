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
import json
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import oriflamme_house_rules
import pytest
from playwright.sync_api import Browser, Page, Response, WebSocket, sync_playwright

from .conftest import ROOT
from .web_server import get, server_thread

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/lib/chromium/chromium")
INSTALL = (
    "apt-get install -y --no-install-recommends chromium chromium-headless-shell fonts-liberation"
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("ORIFLAMME_TEST_ARTIFACTS") or ROOT / "test-artifacts") / "browser"
#: The seed of every choice the tests make by clicking; the game's own seed follows from it.
SEED = int(os.environ.get("ORIFLAMME_BROWSER_SEED", "2024"))
#: How long a page may take to show what the server has done (milliseconds).
WAIT_MS = 15_000
#: Answers at most in one game, and seconds at most to play it: far more than it needs.
MAX_ANSWERS = 400
PLAY_SECONDS = 150.0
#: The first person's turn at or after this step is where a page is reloaded.
RELOAD_AT = 10
FAMILIES = ("red", "blue", "green")

#: What a game page shows, read in one go (the step, the cards by id, what is offered).
SNAPSHOT = """() => {
  const ids = (selector) => [...document.querySelectorAll(selector)].map((e) => e.dataset.cardId);
  return {
    step: document.body.dataset.step,
    asked: document.body.dataset.asked,
    hand: ids("[data-testid=hand] [data-card-id]"),
    set_aside: ids("[data-testid=set-aside] [data-card-id]"),
    queue: ids("[data-testid=queue] [data-card-id]"),
    stacks: document.querySelectorAll("[data-testid=stack]").length,
    offered: [...document.querySelectorAll(
      "[data-testid=turn] [data-testid=answer], [data-testid=turn] [data-testid=place-card]"
    )].map((e) => e.dataset.answer ?? `card ${e.dataset.cardId}`),
    hands_shown: document.querySelectorAll("[data-testid=hand], [data-testid=set-aside]").length,
    log: document.querySelectorAll("[data-testid=log] li").length,
    who: document.querySelector("[data-testid=who]").textContent,
  };
}"""


def _fail_or_skip(reason: str) -> None:
    if os.environ.get("ORIFLAMME_SKIP_BROWSER") == "1":
        pytest.skip(f"{reason} (ORIFLAMME_SKIP_BROWSER=1)")
    pytest.fail(
        f"{reason}. Install it with `{INSTALL}` (as root), "
        "or set ORIFLAMME_SKIP_BROWSER=1 to skip the browser tests.",
        pytrace=False,
    )


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


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def api(url: str) -> Any:
    status, body = get(url)
    assert status == 200, (url, body)
    return body


@dataclass
class Watched:
    """What the pages of one browser context were sent (websocket frames, the API's
    responses), the errors they met and any address not of the server."""

    base: str
    frames: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    elsewhere: list[str] = field(default_factory=list)
    responses: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> Page:
        def socket(ws: WebSocket) -> None:
            if not ws.url.startswith(self.base.replace("http://", "ws://", 1)):
                self.elsewhere.append(ws.url)
            ws.on("framereceived", lambda payload: self.frames.append(str(payload)))

        page.on("websocket", socket)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"console: {message.text}") if message.type == "error" else None
            ),
        )
        page.on(
            "request",
            lambda request: (
                None if request.url.startswith(self.base) else self.elsewhere.append(request.url)
            ),
        )
        page.on("response", self.read)
        return page

    def read(self, response: Response) -> None:
        if "/api/games/" in response.url and response.ok:
            self.responses.append(response.text())

    def views(self) -> list[dict[str, Any]]:
        """Every view these pages were sent: websocket frames, then HTTP responses."""
        return [json.loads(text) for text in [*self.frames, *self.responses]]


@dataclass
class Table:
    """A game set from the lobby: its id, each person's link, the spectator's, the bot."""

    id: str
    links: dict[str, str]
    spectate: str
    bot: str
    mine: str
    go_to: str
    seed: int
    installed: dict[str, str]  # what the lobby lists of the house rules
    watched: Watched


def set_table(watched: Watched, page: Page, rng: random.Random) -> Table:
    """Sets a table from the lobby by clicking: three families, one a ``random`` bot, the
    cards a seeded mix of base and Ablaze, the house rules' ``bounty`` switched on."""
    page.goto(f"{watched.base}/")
    page.locator("body[data-ready=true]").wait_for(timeout=WAIT_MS)
    page.get_by_test_id("installed-set-house").locator("summary").click()
    installed = {
        "plugin": page.get_by_test_id("installed-plugin-house_rules").inner_text(),
        "jester": page.get_by_test_id("installed-card-jester").inner_text(),
        "variants": page.get_by_test_id("variants").inner_text(),
    }
    bot = rng.choice(FAMILIES)
    people = [family for family in FAMILIES if family != bot]
    for family in FAMILIES:
        page.get_by_test_id(f"seat-{family}").select_option("random" if family == bot else "person")
    mine = rng.choice(people)
    page.get_by_test_id(f"mine-{mine}").check()
    page.get_by_test_id("cards-mode-mix").check()
    for name in ("base", "ablaze", "house"):
        page.get_by_test_id(f"mix-{name}").set_checked(name != "house")
    page.get_by_test_id("size").fill("10")
    page.get_by_test_id("variant-bounty").select_option(label="true")
    seed = rng.randrange(2**31)
    page.get_by_test_id("seed").fill(str(seed))
    shoot(page, "01-lobby-filled")
    page.get_by_test_id("create").click()
    page.get_by_test_id("created").wait_for(timeout=WAIT_MS)
    shoot(page, "02-lobby-created")
    links = {
        family: page.get_by_test_id(f"link-{family}").input_value()
        for family in FAMILIES
        if page.get_by_test_id(f"link-{family}").count()
    }
    spectate = page.get_by_test_id("spectate-link").input_value()
    go_to = page.get_by_test_id("go-to-seat").get_attribute("href") or ""
    game = urlsplit(spectate).path.rsplit("/", 1)[-1]
    print(f"game {game}: seed {seed}, people {people} (links), bot {bot}, my seat {mine}")
    return Table(game, links, spectate, bot, mine, go_to, seed, installed, watched)


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


@dataclass
class Played:
    """A whole game played by clicking, and what its pages showed on the way."""

    table: Table
    seats: dict[str, Watched]
    spectator: Watched
    final: dict[str, Any] = field(default_factory=dict)
    clicks: int = 0
    reloaded: str = ""  # the family whose page was reloaded
    before_reload: dict[str, Any] = field(default_factory=dict)
    after_reload: dict[str, Any] = field(default_factory=dict)
    # At each person's turn: the stacks in the queue, and the spectator's page.
    watching: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    ends: dict[str, dict[str, Any]] = field(default_factory=dict)  # each page at the end


def token_of(table: Table, family: str) -> str:
    return table.links[family].partition("#token=")[2]


def click_an_answer(page: Page, expected: list[Any], rng: random.Random) -> None:
    """Clicks one of the answers the page offers (a placement: the card, then where),
    having checked that it offers exactly ``expected``, the seat's legal answers."""
    turn = page.get_by_test_id("turn")
    cards = turn.get_by_test_id("place-card")
    offered_cards = [int(c.get_attribute("data-card-id") or "-1") for c in cards.all()]
    if offered_cards:
        assert offered_cards == list(dict.fromkeys(a[0] for a in expected)), offered_cards
        chosen = rng.choice(offered_cards)
        turn.locator(f'[data-testid=place-card][data-card-id="{chosen}"]').click()
        turn.locator(f'[data-card-id="{chosen}"][aria-pressed=true]').wait_for(timeout=WAIT_MS)
        expected = [a for a in expected if a[0] == chosen]
    buttons = turn.get_by_test_id("answer")
    buttons.first.wait_for(timeout=WAIT_MS)
    offered = [json.loads(b.get_attribute("data-answer") or "null") for b in buttons.all()]
    assert offered == expected
    assert all(b.inner_text().strip() for b in buttons.all()), "an answer button has no words"
    buttons.nth(rng.randrange(len(offered))).click()


def wait_for_step(page: Page, step: int, asked: bool | None = None) -> None:
    """Waits until ``page`` shows step ``step`` (and, if given, whether it is asked)."""
    wanted = f'body[data-step="{step}"]'
    if asked is not None:
        wanted += f'[data-asked="{"true" if asked else "false"}"]'
    page.locator(wanted).wait_for(state="attached", timeout=WAIT_MS)


def open_page(browser: Browser, stack: contextlib.ExitStack, watched: Watched, url: str) -> Page:
    """A page at ``url`` in a browser context of its own (closed with ``stack``)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    stack.callback(context.close)
    page = watched.watch(context.new_page())
    page.goto(url)
    return page


def reload_mid_game(page: Page, step: int, played: Played) -> None:
    """Reloads ``page`` at its seat's turn, noting what it showed before and after."""
    played.before_reload = page.evaluate(SNAPSHOT)
    shoot(page, f"03-{played.reloaded}-before-reload")
    page.reload()
    wait_for_step(page, step, asked=True)
    page.locator("[data-testid=connection][data-state=live]").wait_for(timeout=WAIT_MS)
    played.after_reload = page.evaluate(SNAPSHOT)
    shoot(page, f"04-{played.reloaded}-after-reload")


def the_end(page: Page) -> dict[str, Any]:
    """What a page shows once the game is over: the winners, the scores, the rest."""
    page.locator("body[data-phase=end]").wait_for(state="attached", timeout=WAIT_MS)
    page.get_by_test_id("scores").wait_for(timeout=WAIT_MS)
    return {
        "winners": page.get_by_test_id("winners").inner_text(),
        "scores": {
            f: page.get_by_test_id(f"score-{f}").locator("td").first.inner_text() for f in FAMILIES
        },
        "snapshot": page.evaluate(SNAPSHOT),
    }


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


def card_objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every card in a view, wherever it is: objects with an id, a colour and a key."""
    if isinstance(value, dict):
        if {"id", "colour", "key"} <= value.keys():
            yield value
        for inner in value.values():
            yield from card_objects(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from card_objects(inner)


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


@dataclass
class Public:
    """What every family has seen by one step: each card's key, and (printed family,
    key) pairs, as a spectator was shown them."""

    keys: dict[int, str]
    pairs: set[tuple[str, str]]


def secrets_shown(
    view: dict[str, Any], seat: str, public: Public, hidden: set[int]
) -> Iterator[str]:
    """What ``view``, sent to ``seat``, shows that it may not see: a card of another
    person's hand, a key of another family's card that is not public, or words naming
    one (the pages' words name a card as "<family> <card name>")."""
    where = f"{seat}'s view at step {view['step']}"
    if "seed" in view:
        yield f"{where} holds the game's seed"
    for card in card_objects(view):
        named = f"{where}: card {card['id']} ({card['colour']})"
        if card["id"] in hidden:
            yield f"{named} is in another person's hand"
        if card["colour"] == seat:
            if card["key"] is None:
                yield f"{named}: its own card without its key"
        elif card["key"] is not None and public.keys.get(card["id"]) != card["key"]:
            yield f"{named} shows {card['key']!r}, which is not public"
    lines = [*view["log"], *view["answer_texts"], view["question"] or ""]
    for key, name in view["names"].items():
        for colour in view["families"]:
            words = f"{colour} {name}"
            if colour != seat and (colour, key) not in public.pairs:
                yield from (f"{where} reads {line!r}" for line in lines if words in line)


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
