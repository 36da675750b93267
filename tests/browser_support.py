"""What the browser tests share: Chromium's place, the pages' helpers, and the reading
of views for another family's secrets (see tests/test_web_browser.py)."""

from __future__ import annotations

import contextlib
import json
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Request,
    Response,
    ViewportSize,
    WebSocket,
    sync_playwright,
)

from .conftest import ROOT
from .web_server import call, get

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
DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)
#: Every token the tests have seen (seats' and creators'): none may be in a URL sent.
SECRETS: set[str] = set()

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


@contextlib.contextmanager
def launched_chromium() -> Iterator[Browser]:
    """Chromium, headless, launched for a module's tests (failing, or skipping with
    ORIFLAMME_SKIP_BROWSER=1, when it is missing); screenshots go to :data:`ARTIFACTS`."""
    if not os.access(CHROMIUM, os.X_OK):
        _fail_or_skip(f"the browser tests need Chromium at {CHROMIUM}, which is missing")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def api(url: str, token: str | None = None) -> Any:
    """The JSON at ``url``, read as the holder of ``token`` (none: a spectator)."""
    status, body = get(url, token)
    assert status == 200, (url, body)
    return body


def create_game(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """A game made through the API (as the lobby makes one): the server's answer."""
    status, made, _ = call("POST", f"{base}/api/games", body)
    assert status == 201, made
    SECRETS.update([made["creator"], *made["seats"].values()])
    return made  # type: ignore[no-any-return]


@dataclass
class Sent:
    """One request a page sent (websockets too): what a server or a proxy would log."""

    method: str
    url: str
    kind: str  # Playwright's resource type: document, fetch, websocket, ...
    authorization: str | None


#: Every :class:`Watched` made, so that one test can read every request of the run.
EVERY: list[Watched] = []


@dataclass
class Watched:
    """What the pages of one browser context were sent (websocket frames, the API's
    responses), the errors they met, every request they sent and any address not of
    the server."""

    base: str
    frames: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    elsewhere: list[str] = field(default_factory=list)
    responses: list[str] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)

    def __post_init__(self) -> None:
        EVERY.append(self)

    def attach(self, context: BrowserContext) -> BrowserContext:
        """Watches every page of ``context``, new tabs included (from their first
        request: a new tab's page is only handed over once it has loaded)."""

        def socket(ws: WebSocket) -> None:
            self.sent.append(Sent("GET", ws.url, "websocket", None))
            if not ws.url.startswith(self.base.replace("http://", "ws://", 1)):
                self.elsewhere.append(ws.url)
            # A frame sends only the log lines and events this socket has not had:
            # each is kept whole, as the page joins them.
            kept: dict[str, list[Any]] = {"log": [], "events": []}
            ws.on("framereceived", lambda payload: self.frames.append(whole(str(payload), kept)))

        context.on("page", lambda page: page.on("websocket", socket))
        context.on("weberror", lambda error: self.errors.append(f"page error: {error.error}"))
        context.on(
            "console",
            lambda message: (
                self.errors.append(f"console: {message.text}") if message.type == "error" else None
            ),
        )
        context.on("request", self.request)
        context.on("response", self.read)
        return context

    def request(self, request: Request) -> None:
        self.sent.append(
            Sent(
                request.method,
                request.url,
                request.resource_type,
                request.headers.get("authorization"),
            )
        )
        if not request.url.startswith(self.base):
            self.elsewhere.append(request.url)

    def read(self, response: Response) -> None:
        if "/api/games/" in response.url and response.ok:
            self.responses.append(response.text())

    def views(self) -> list[dict[str, Any]]:
        """Every view these pages were sent: websocket frames, then HTTP responses (not
        the table page's links)."""
        found = [json.loads(text) for text in [*self.frames, *self.responses]]
        return [view for view in found if "families" in view and "step" in view]

    def unexpected(self, *statuses: int) -> list[str]:
        """The errors met, but for the browser's own line about a response of one of
        ``statuses`` (a refusal the test caused on purpose)."""
        expected = tuple(f"status of {status}" for status in statuses)
        return [e for e in self.errors if not any(word in e for word in expected)]


def whole(text: str, kept: dict[str, list[Any]]) -> str:
    """A websocket frame as the whole view: its log lines and events joined to those
    ``kept`` from the socket's earlier frames (``log_from``, ``events_from``)."""
    try:
        frame = json.loads(text)
    except ValueError:
        return text
    if not isinstance(frame, dict) or "log_from" not in frame:
        return text
    for name in ("log", "events"):
        kept[name] = kept[name][: frame[f"{name}_from"]] + frame[name]
        frame[name], frame[f"{name}_from"] = kept[name], 0
    return json.dumps(frame)


@dataclass
class Table:
    """A game set from the lobby: its id, each person's link, the spectator's, the
    table page's, the bot; and the lobby's page, still showing the links."""

    id: str
    links: dict[str, str]
    spectate: str
    table: str
    bot: str
    mine: str
    go_to: str
    seed: int
    installed: dict[str, str]  # what the lobby lists of the house rules
    watched: Watched
    page: Page

    @property
    def creator(self) -> str:
        return self.table.partition("#token=")[2]


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
    page.get_by_test_id("variant-bounty").select_option(label="on")
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
    table = page.get_by_test_id("table-link").input_value()
    go_to = page.get_by_test_id("go-to-seat").get_attribute("href") or ""
    game = urlsplit(spectate).path.rsplit("/", 1)[-1]
    SECRETS.update(link.partition("#token=")[2] for link in [*links.values(), table])
    print(f"game {game}: seed {seed}, people {people} (links), bot {bot}, my seat {mine}")
    return Table(game, links, spectate, table, bot, mine, go_to, seed, installed, watched, page)


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


def open_page(
    browser: Browser,
    stack: contextlib.ExitStack,
    watched: Watched,
    url: str,
    **options: Any,
) -> Page:
    """A page at ``url`` in a browser context of its own (closed with ``stack``; its
    ``options`` those of ``Browser.new_context``, a desktop's window by default)."""
    context = watched.attach(browser.new_context(**{"viewport": DESKTOP, **options}))
    stack.callback(context.close)
    page = context.new_page()
    page.goto(url)
    return page


def fits(page: Page) -> bool:
    """Whether the page fits its window's width (nothing to scroll sideways)."""
    return bool(
        page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    )


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
