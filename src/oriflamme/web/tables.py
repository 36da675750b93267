"""The games being played: each a :class:`Table` (the game, who sits where, who watches).

The server's event loop is the only thread that touches a game; the store is called
from it too, or from threads it waits on when the store is on another machine.
Bots think in worker processes (:mod:`.thinking`), from their own family's observation
only, so no bot ever holds the server up; a bot's answer is then played like a
person's. Every answer goes through :meth:`Tables.answer` or the bots' loop: checked
against the step it was given for, played on the game, kept in the store, and only
then announced; if anything fails on the way, the game is put back as it was.

Other server processes may share the store (``serve --workers``, or hosts on one
PostgreSQL database). A game in memory here is brought up to date with the answers
they kept whenever it is asked for and whenever the store tells of one; of two answers
to one step, the store keeps the first and the other is refused (409). A game's bots
run in the process holding the store's lease on them (see :mod:`.store`).

A view is built once for each family (and once for every spectator) at each step,
kept as its JSON text, and sent to every watcher of that family: a watcher that is
slow to take it holds up nobody but itself, and is sent the newest view when it is
ready. The story in a view is told as the game goes, a few lines an answer.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hmac
import json
import logging
import os
import re
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

from oriflamme import (
    ConfigError,
    Game,
    IllegalAnswer,
    Observation,
    OriflammeError,
    PluginError,
    Registry,
)
from oriflamme.events import Event, event_to_dict
from oriflamme.saves import load as load_game
from oriflamme.text import Story

from .creation import Request, read_request
from .limits import Limits
from .players import PERSON, check_bot
from .store import (
    POOL_SIZE,
    SAVE_EVERY,
    Seat,
    Stale,
    Store,
    StoredGame,
    StoreError,
    seat_of,
    seat_token,
    token_hash,
)
from .thinking import Dropped, Lane, Thinkers
from .views import build_view

log = logging.getLogger("oriflamme.web")

#: Seconds a process's lease on a game's bots lasts; it is renewed while they play, so
#: a process that dies holds up that game's bots this long at most.
LEASE_SECONDS = 6.0
#: Seconds between two looks for games whose bots nobody runs.
SWEEP_SECONDS = 1.0
#: Games taken on at most at each look.
SWEEP_GAMES = 20
#: Seconds before bots that failed in a game are tried again by any process.
RETRY_SECONDS = 600.0
#: Seconds between two counts of the games in the store (other processes sharing it
#: create games too; ``--max-games`` is for them all).
COUNT_SECONDS = 60.0

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The fields of a view that are the same for everyone at every step of a game: their
#: JSON is made once (for each language).
CONSTANT = (
    "id",
    "families",
    "cards",
    "sets",
    "variants",
    "seats",
    "language",
    "names",
    "texts",
)


class Refused(OriflammeError):
    """A request the server turns down: ``status`` is the HTTP status to answer with;
    ``retry_after``, where given, the seconds after which it may be sent again."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


async def _nothing() -> None:
    """Counts nothing (a creation with no rate limit)."""


class Watcher:
    """One websocket watching a table: told when there is a new view to send, and how
    many log lines and events it has been sent (a frame sends only the new ones)."""

    def __init__(self, family: str | None, language: str = "en") -> None:
        self.family = family
        self.language = language
        self.changed = asyncio.Event()
        self.changed.set()  # the view as it is now, at once
        self.lines = 0
        self.events = 0

    def frame(self, table: Table) -> str:
        """The frame to send now: the view, with the lines and events not yet sent."""
        text, self.lines, self.events = table.frame(
            self.family, self.lines, self.events, self.language
        )
        return text


class Table:
    """One game in play, and the seats and watchers at it."""

    def __init__(self, stored: StoredGame, game: Game, registry: Registry) -> None:
        self.id = stored.id
        self.game = game
        self.registry = registry
        self.request = Request.from_dict(stored.request)
        self.seats = stored.seats
        self.step = stored.step
        self.saved = stored.save_step  # the step of the file's last save
        self.initial = stored.initial
        self.creator_hash = stored.creator_hash
        # Whose bots these are when bots share the workers' time (see thinking): the
        # client that created the game (None, kept before clients were: its own).
        self.client = stored.client
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        self.bots: asyncio.Task[None] | None = None
        self.using = 0  # requests at work on it
        self.expired = False  # deleted from the store: kept long enough
        self.hearing = False  # catching up with answers the store told of
        self.news = False  # told of one since it last looked
        self.people = any(seat.kind == PERSON for seat in self.seats)
        # Since when nobody has watched (a game of bots alone pauses after a while).
        self.unwatched_since: float | None = time.monotonic()
        # Each family's view (in each language asked for) at the last step it was built
        # for, but for the log and events; each family's story in each language and its
        # lines as JSON; the events (public), as they are and as JSON, to the log's
        # newest node.
        self._cores: dict[tuple[str | None, str], tuple[int, str]] = {}
        self._stories: dict[tuple[str | None, str], tuple[Story, list[str]]] = {}
        self._events: list[Event] = []
        self._events_json: list[str] = []
        self._log: object = None  # the observation's log chain last sent (compared by identity)
        self._events_step = -1
        self._constant: dict[str, str] = {}  # by language

    @property
    def players(self) -> dict[str, str]:
        """Who plays each family, in seat order: ``person`` or a bot kind (public)."""
        kinds = {seat.family: seat.kind for seat in self.seats}
        return {family: kinds[family] for family in self.game.families}

    def seat(self, token: str | None) -> str | None:
        """The family ``token`` is the secret of (None: a spectator); 403 if none."""
        if token is None:
            return None
        family = seat_of(self.seats, token)
        if family is None:
            raise Refused(403, "this token is not one of this game's seats")
        return family

    def view(self, family: str | None, language: str = "en") -> str:
        """``family``'s view now (None: a spectator's) in ``language``, as JSON text:
        built once a step."""
        text, _, _ = self.frame(family, 0, 0, language)
        return text

    def frame(
        self, family: str | None, log_from: int, events_from: int, language: str = "en"
    ) -> tuple[str, int, int]:
        """``family``'s view now in ``language`` as JSON text, its ``log`` and ``events``
        holding only what comes from ``log_from`` and ``events_from`` on (said in the
        view): the text, and how many lines and events there are in all."""
        core, lines = self._core(family, language)
        events = self._events_json
        log_from = min(log_from, len(lines))
        events_from = min(events_from, len(events))
        text = (
            f'{core}, "log_from": {log_from}, "log": [{", ".join(lines[log_from:])}], '
            f'"events_from": {events_from}, "events": [{", ".join(events[events_from:])}]}}'
        )
        return text, len(lines), len(events)

    def _core(self, family: str | None, language: str) -> tuple[str, list[str]]:
        """``family``'s view at this step in ``language`` as JSON, but for its log and
        events and its closing brace, and its story's lines as JSON: built once a step."""
        key = (family, language)
        found = self._cores.get(key)
        if found is not None and found[0] == self.step:
            return found[1], self._stories[key][1]
        observation = self.game.observe(family)
        if self._events_step != self.step:
            self._catch_up(observation)
        # Each family's story is told as the game goes, and kept as JSON: a view is then
        # its few changing fields, and the kept lines and events joined.
        story = self._stories.get(key)
        if story is None:
            story = self._stories[key] = (Story(self.game.rules.definitions, language), [])
        story[1].extend(json.dumps(line) for line in story[0].read(observation, self._events))
        built = build_view(
            observation,
            self.game.rules,
            game_id=self.id,
            step=self.step,
            seats=self.players,
            log=[],
            events=False,
            language=language,
        )
        for spliced in ("log_from", "log", "events_from"):
            del built[spliced]
        constant = self._constant.get(language)
        if constant is None:  # the same in every view of the game, at every step
            constant = json.dumps({name: built[name] for name in CONSTANT})[1:-1]
            self._constant[language] = constant
        for name in CONSTANT:
            del built[name]
        core = f"{json.dumps(built)[:-1]}, {constant}"
        self._cores[key] = (self.step, core)
        return core, story[1]

    def _catch_up(self, observation: Observation) -> None:
        """Adds the events since the last step to those kept (they are public: the same
        in every family's observation). The log is a chain, newest first, that only
        grows: it is walked back to the newest event already kept."""
        node, fresh = observation.log, []
        while node is not None and node is not self._log:
            node, kind, fields = node
            fresh.append(kind(*fields))
        if node is not self._log:  # not the chain kept: start again from its start
            self._events, self._events_json = [], []
        fresh.reverse()
        self._events.extend(fresh)
        self._events_json.extend(json.dumps(event_to_dict(event)) for event in fresh)
        self._log = observation.log
        self._events_step = self.step

    def replay(
        self, family: str | None, game: Game, step: int, language: str = "en"
    ) -> dict[str, Any]:
        """The view ``family`` had in ``game``, after ``step`` answers, in ``language``."""
        return build_view(
            game.observe(family),
            game.rules,
            game_id=self.id,
            step=step,
            seats=self.players,
            language=language,
        )

    @property
    def busy(self) -> bool:
        """Whether someone watches, a request is using it or its bots are thinking:
        such a table is not let go from memory (a copy read back from the file while
        this one is in use would not see what this one plays)."""
        return (
            bool(self.watchers)
            or self.using > 0
            or (self.bots is not None and not self.bots.done())
        )


class Tables:
    """Every game: the live ones in memory, all of them in the :class:`Store`, which
    other server processes may share. A live game is brought up to date with the store
    whenever it is asked for and whenever the store tells of an answer to it."""

    def __init__(
        self,
        store: Store,
        plugins: Mapping[str, object] | None = None,
        entry_points: bool = True,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits if limits is not None else Limits()
        self._plugins = dict(plugins or {})
        self._entry_points = entry_points
        self._live: OrderedDict[str, Table] = OrderedDict()
        self._registries: dict[frozenset[str], Registry] = {}
        self._games = store.count()
        self.thinkers = Thinkers(self.limits, self._plugins, entry_points=entry_points)
        # Who holds a lease on a game's bots: this process, among every one sharing
        # the store (on this host or another).
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        # A store on another machine is waited on off the event loop, so that a slow
        # answer from it holds up no other table.
        self._calls = (
            concurrent.futures.ThreadPoolExecutor(POOL_SIZE, thread_name_prefix="oriflamme-store")
            if store.remote
            else None
        )
        self._background: set[asyncio.Task[None]] = set()
        self._stop_listening: Callable[[], None] | None = None

    async def take(self, key: str, count: int, seconds: float) -> float:
        """One request from the store's rate bucket ``key`` (see :meth:`Store.take`)."""
        wait: float = await self._io(self.store.take, key, count, seconds)
        return wait

    async def _io(self, call: Callable[..., Any], *args: Any, **named: Any) -> Any:
        """``call`` on the store: on the event loop if the store is a local file, else
        in a thread of its own."""
        if self._calls is None:
            return call(*args, **named)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._calls, functools.partial(call, *args, **named))

    def start(self) -> None:
        """Listens for answers kept by other processes, and looks every
        :data:`SWEEP_SECONDS` for games whose bots nobody runs (call it on the loop)."""
        loop = asyncio.get_running_loop()

        def heard(game_id: str, step: int) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._heard, game_id, step)

        self._stop_listening = self.store.listen(heard)
        self._spawn(self._sweeping())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def registry(self, without: tuple[str, ...] = ()) -> Registry:
        """The installed plugins but ``without`` (made once for each choice)."""
        key = frozenset(without)
        found = self._registries.get(key)
        if found is None:
            # Plugins given by name are left out by not registering them.
            installed = sorted(key - set(self._plugins))
            found = Registry(entry_points=self._entry_points, exclude=installed)
            for name, plugin in self._plugins.items():
                if name not in key:
                    found.register(plugin, name)
            self._registries[key] = found
        return found

    def optional_plugins(self) -> list[str]:
        return [p["name"] for p in self.registry().describe() if not p["builtin"]]

    def close(self) -> None:
        """Stops every bot and all listening; the games are all in the store already
        (a lease on bots this process held lapses, and another process takes them on)."""
        if self._stop_listening is not None:
            self._stop_listening()
        for task in list(self._background):
            task.cancel()
        for table in self._live.values():
            if table.bots is not None:
                table.bots.cancel()
        self.thinkers.close()
        if self._calls is not None:
            self._calls.shutdown(wait=False, cancel_futures=True)

    # Making and finding games.

    async def create(
        self,
        body: object,
        count: Callable[[], Awaitable[None]] = _nothing,
        *,
        client: str | None = None,
        earlier: str | None = None,
    ) -> tuple[Table, str, dict[str, str]]:
        """A new game from a creation request: the table, the creator's token and each
        person's token. ``count`` is awaited once the game could be made (it may
        refuse, as a rate limit does). The game is ``client``'s (its address), or if
        ``earlier`` is the creator's token of a game kept here, that game's client's."""
        everyone = self.registry()
        request = read_request(
            body,
            self.optional_plugins(),
            lambda kind, family: check_bot(kind, family, everyone, limits=self.limits),
        )
        if self._games >= self.limits.max_games:
            await self.expire()
            if self._games >= self.limits.max_games:
                raise Refused(
                    503,
                    f"this server keeps at most {self.limits.max_games} games and is full; "
                    "try again later",
                    retry_after=3600,
                )
        if earlier is not None:
            client = await self._io(self.store.client_of, token_hash(earlier)) or client
        registry = self.registry(request.without)
        try:
            game = Game.new(request.config, registry=registry)
        except PluginError as exc:
            raise ConfigError(f"a plugin failed while setting up the game: {exc}") from exc
        # Counted once the game could be made: a request the engine refuses (a card or a
        # size that cannot be dealt) costs nothing.
        await count()
        game_id = secrets.token_urlsafe(12)
        creator = secrets.token_urlsafe(24)
        tokens: dict[str, str] = {}
        seats = []
        for family in game.families:
            kind = request.bots.get(family, PERSON)
            if kind == PERSON:
                tokens[family] = seat_token(creator, game_id, family)
                seats.append(Seat(family, kind, token_hash(tokens[family])))
            else:
                seats.append(Seat(family, kind))
        save = game.to_json()
        stored = StoredGame(
            game_id,
            request.to_dict(),
            save,
            save,
            0,
            game.over,
            tuple(seats),
            token_hash(creator),
            client=client,
        )
        table = Table(stored, game, registry)
        await self._io(
            self.store.create,
            game_id,
            stored.request,
            save,
            seats,
            stored.creator_hash,
            bots_due=_bots_due(table, game),
            client=client,
        )
        self._games += 1
        self._keep(table)
        self.play_bots(table)
        return table, creator, tokens

    async def find(self, game_id: str) -> Table:
        """The game ``game_id`` as the store has it now, loaded from its save if need
        be; 404 if there is none."""
        table = self._live.get(game_id)
        if table is not None:
            self._live.move_to_end(game_id)
            await self.catch_up(table)
            if self._live.get(game_id) is table:
                return table
        stored = await self._io(self.store.load, game_id) if _plausible(game_id) else None
        if stored is None:
            raise Refused(404, "there is no game with that id")
        table = self._live.get(game_id)  # read back meanwhile by another request
        if table is not None:
            return table
        request = Request.from_dict(stored.request)
        registry = self.registry(request.without)
        # The server's own saves: one written before it was upgraded names the older
        # version, and its game goes on under the rules installed now (the save is
        # checked against them as it is read), never refused and lost to its players.
        game = load_game(stored.save, registry=registry, allow_other_versions=True)
        for family, answer in stored.later:  # the answers since the last save
            game.answer(answer, family=family)
        table = self._keep(Table(stored, game, registry))
        # News of an answer kept while it was read was not for a game kept here yet.
        await self.catch_up(table)
        # A server stopped while a bot was to answer: the bot answers now.
        self.play_bots(table)
        return table

    async def catch_up(self, table: Table) -> None:
        """Plays on ``table`` the answers other processes kept since its step, and
        tells its watchers; a game that cannot be caught up is let go (it is read back
        whole when next asked for)."""
        async with table.lock:
            await self._catch_up(table)

    async def _catch_up(self, table: Table) -> None:
        """As :meth:`catch_up`, with ``table``'s lock held."""
        later = await self._io(self.store.answers, table.id, None, after=table.step)
        if not later:
            return
        try:
            for family, answer in later:
                table.game.answer(answer, family=family)
                table.step += 1
        except OriflammeError:
            self._let_go(table.id)
            return
        if table.game.over:  # ended elsewhere: no bot here has more to do in it
            self.thinkers.drop(table.id)
        self._announce(table)

    def _heard(self, game_id: str, step: int) -> None:
        """The store told of an answer at ``step`` (by this process or another)."""
        if game_id:
            table = self._live.get(game_id)
            behind = [table] if table is not None and table.step < step else []
        else:
            behind = list(self._live.values())
        for table in behind:
            table.news = True
            if not table.hearing:
                table.hearing = True
                self._spawn(self._hear(table))

    async def _hear(self, table: Table) -> None:
        """Catches ``table`` up until no news of it came meanwhile: an answer told of
        while it was catching up may have been kept after it looked."""
        try:
            while table.news:
                table.news = False
                await self.catch_up(table)
        except OriflammeError as exc:
            log.error("game %s: catching up: %s", table.id, type(exc).__name__)
        finally:
            table.hearing = False

    def links(self, table: Table, creator: str | None) -> dict[str, str]:
        """Each person's token, for the creator (whose token ``creator`` must be)."""
        if (
            creator is None
            or table.creator_hash is None
            or not hmac.compare_digest(table.creator_hash, token_hash(creator))
        ):
            raise Refused(403, "only the game's creator may see every seat's link")
        return {
            seat.family: seat_token(creator, table.id, seat.family)
            for seat in table.seats
            if seat.kind == PERSON
        }

    def _keep(self, table: Table) -> Table:
        self._live[table.id] = table
        for game_id, idle in list(self._live.items()):
            if len(self._live) <= self.limits.max_live:
                break
            if not idle.busy:
                self._let_go(game_id)
        return table

    def _let_go(self, game_id: str) -> None:
        """Drops a game from memory, and any bot work for it (the store has it all);
        its watchers, if any, are told (they connect again and find it read back)."""
        table = self._live.pop(game_id, None)
        if table is not None:
            if table.bots is not None:
                table.bots.cancel()
            for watcher in table.watchers:
                watcher.changed.set()
        self.thinkers.drop(game_id)

    async def expire(self) -> int:
        """Deletes the games kept long enough (see :class:`Limits`): how many."""
        now = time.time()
        day = 86_400.0
        gone = await self._io(
            self.store.expire,
            now - self.limits.keep_finished_days * day,
            now - self.limits.keep_abandoned_days * day,
        )
        for game_id in gone:
            table = self._live.get(game_id)
            if table is not None:
                table.expired = True
                for watcher in table.watchers:
                    watcher.changed.set()  # they find the game gone
            self._let_go(game_id)
        # Other processes sharing the store create games too.
        self._games = await self._io(self.store.count)
        return len(gone)

    # Playing.

    async def answer(
        self, table: Table, family: str, answer: object, step: int, language: str = "en"
    ) -> str:
        """``family`` answers at ``step``: its new view (in ``language``). 409 if it is
        not its turn or the game is at another step (the answer was played already, or
        came late), 400 if the answer is refused; the game stays as it was."""
        table.using += 1
        try:
            async with table.lock:
                await self._play(table, family, answer, step)
                view = table.view(family, language)
        finally:
            table.using -= 1
        self._announce(table)
        self.play_bots(table)
        return view

    def check_turn(self, table: Table, family: str, step: int) -> None:
        """Refuses (409) an answer of ``family`` at ``step`` before the engine sees it:
        only the family asked may answer, at the step asked."""
        decision = table.game.decision
        if decision is None:
            raise Refused(409, "the game is over")
        if step != table.step:
            raise Refused(
                409,
                f"that answer is for step {step}, but the game is at step {table.step}: it "
                "was answered already, or the view was out of date; get the view again",
            )
        if decision.family != family:
            raise Refused(409, f"it is {decision.family}'s turn, not {family}'s")

    async def _play(self, table: Table, family: str, answer: object, step: int) -> None:
        """Plays and keeps one answer, with ``table``'s lock held: the game moves on
        only once the store has it."""
        self.check_turn(table, family, step)
        game = table.game
        before = game.clone()
        try:
            game.answer(answer, family=family)
        except IllegalAnswer as exc:
            raise Refused(400, str(exc)) from exc
        except PluginError as exc:
            raise Refused(400, f"that answer cannot be played: {exc}") from exc
        step = table.step + 1
        save = game.to_json() if game.over or step - table.saved >= SAVE_EVERY else None
        try:
            await self._io(
                self.store.record,
                table.id,
                step,
                family,
                json.dumps(answer),
                save,
                over=game.over,
                bots_due=_bots_due(table, game),
            )
        except Stale as exc:
            table.game = before
            # Another process kept an answer at this step first (or this copy of the
            # game was read back while this one waited): that one stands.
            await self._catch_up(table)
            raise Refused(
                409, "another answer was kept at that step first; get the view again"
            ) from exc
        except BaseException:
            table.game = before  # not kept: not played
            raise
        table.step = step
        if save is not None:
            table.saved = step
        if game.over:
            self.thinkers.drop(table.id)

    def _announce(self, table: Table) -> None:
        """Every watcher is told there is a new view (each sends it when it can)."""
        for watcher in table.watchers:
            watcher.changed.set()

    def play_bots(self, table: Table) -> None:
        """Bots answer while it is their turn, in the background, in whichever process
        holds the game's lease on them."""
        if table.bots is None or table.bots.done():
            table.bots = asyncio.get_running_loop().create_task(self._bots(table))

    async def _bots(self, table: Table) -> None:
        held = False
        try:
            held = await self._bots_play(table)
        except Dropped:
            pass  # the game was let go, or is over: nobody waits for these bots
        except StoreError as exc:
            # The store failed (the database restarting, say): the lease lapses, and
            # this process or another takes the bots on at its next look.
            log.error("game %s: bots stopped: %s", table.id, type(exc).__name__)
            held = False
        except OriflammeError as exc:
            # The game waits; its bots try again when it is next loaded, or once the
            # lease, kept long, lapses.
            log.error("game %s: bots stopped: %s", table.id, type(exc).__name__)
            with contextlib.suppress(OriflammeError):
                await self._io(self.store.claim_bots, table.id, self.owner, RETRY_SECONDS)
            held = False
        finally:
            if held:
                with contextlib.suppress(OriflammeError, RuntimeError):
                    await self._io(self.store.release_bots, table.id, self.owner)

    async def _bots_play(self, table: Table) -> bool:
        """Plays the bots' answers while it is their turn: whether this process took
        the game's lease on them."""
        kinds = table.players
        seed = table.request.config.seed
        lane = Lane.PEOPLE if table.people else Lane.BOTS
        held = False
        while True:
            decision = table.game.decision
            if decision is None or kinds[decision.family] == PERSON:
                return held
            if not table.people and self._unwatched(table):
                return held  # paused until someone opens it again (see watch)
            # Taken, or renewed, for each answer: a process that died lets it lapse.
            asked = table.step
            if not await self._io(self.store.claim_bots, table.id, self.owner, LEASE_SECONDS):
                return held  # another process runs them, and tells of their answers
            held = True
            if table.step != asked:
                continue  # caught up while the lease was taken: asked anew
            family, step = decision.family, table.step
            observation = table.game.observe(family)
            # Seeded by game, family and step: a restarted server plays on the same way.
            renewing = asyncio.get_running_loop().create_task(self._renew(table.id))
            try:
                answer = await self.thinkers.think(
                    table.id,
                    lane,
                    kinds[family],
                    table.request.without,
                    observation,
                    f"{seed}:{family}:{step}",
                    client=table.client,
                )
            finally:
                renewing.cancel()
            if answer is None:
                # The bot failed or took too long (a plugin's bot): the game goes on.
                # The kind of failure was logged by the thinkers, never what it saw.
                log.warning(
                    "game %s: the %s bot of %s gave no answer; it plays its first legal one",
                    table.id,
                    kinds[family],
                    family,
                )
            async with table.lock:
                if table.step != step:
                    continue
                try:
                    await self._play(table, family, answer, step)
                except Refused as exc:
                    if exc.status != 400:
                        continue  # the game moved on meanwhile: look again
                    # Its answer is not legal: the first legal one is played instead.
                    with contextlib.suppress(Refused):
                        await self._play(table, family, _json(decision.options[0]), step)
            self._announce(table)

    async def _renew(self, game_id: str) -> None:
        """Renews this process's lease on a game's bots while one of them thinks."""
        while True:
            await asyncio.sleep(LEASE_SECONDS / 3)
            with contextlib.suppress(OriflammeError):
                await self._io(self.store.claim_bots, game_id, self.owner, LEASE_SECONDS)

    async def _sweeping(self) -> None:
        """Every :data:`SWEEP_SECONDS`: the games waiting on bots that no process runs
        (the one that ran them died) are taken on, and so are the bots of the games
        watched here whose bots stopped; every :data:`COUNT_SECONDS`, the games in the
        store are counted again."""
        counted = time.monotonic()
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                if time.monotonic() - counted > COUNT_SECONDS:
                    self._games = await self._io(self.store.count)
                    counted = time.monotonic()
                due = await self._io(self.store.due, SWEEP_GAMES)
            except OriflammeError as exc:
                log.error("looking for bots to run: %s", type(exc).__name__)
                continue
            for game_id in due:
                # Each on its own: a game that cannot be read back here (a damaged
                # save, a plugin this host lacks) holds up no other game's bots.
                try:
                    table = self._live.get(game_id)
                    if table is None:
                        await self.find(game_id)  # and its bots start
                    else:
                        self.play_bots(table)
                except OriflammeError as exc:
                    log.error("game %s: taking its bots on: %s", game_id, type(exc).__name__)
                    with contextlib.suppress(OriflammeError):  # not at every look
                        await self._io(self.store.claim_bots, game_id, self.owner, RETRY_SECONDS)
            for table in list(self._live.values()):
                if table.watchers and not table.people:
                    self.play_bots(table)

    def _unwatched(self, table: Table) -> bool:
        since = table.unwatched_since
        return since is not None and time.monotonic() - since > self.limits.unwatched_seconds

    # Watching.

    def watch(self, table: Table, family: str | None, language: str = "en") -> Watcher:
        watcher = Watcher(family, language)
        table.watchers.add(watcher)
        table.unwatched_since = None
        self.play_bots(table)  # a game of bots alone that had paused goes on
        return watcher

    def leave(self, table: Table, watcher: Watcher) -> None:
        table.watchers.discard(watcher)
        if not table.watchers:
            table.unwatched_since = time.monotonic()

    def gone(self, table: Table) -> bool:
        """Whether ``table``'s game is no longer kept (it expired, or was let go)."""
        return self._live.get(table.id) is not table

    async def replay(
        self, table: Table, family: str | None, step: int, language: str = "en"
    ) -> dict[str, Any]:
        """The view ``family`` had after ``step`` answers (in ``language``), rebuilt
        from the start."""
        if not 0 <= step <= table.step:
            raise Refused(400, f"step must be a whole number from 0 to {table.step}")
        game = load_game(table.initial, registry=table.registry, allow_other_versions=True)
        for who, answer in await self._io(self.store.answers, table.id, step):
            game.answer(answer, family=who)
        view = table.replay(family, game, step, language)
        view.update(answers=[], answer_texts=[], question=None, steps=table.step)
        return view


def _bots_due(table: Table, game: Game) -> bool:
    """Whether a bot is to answer next in a game with a person: one a process that
    finds it so takes on (a game of bots alone plays only while watched)."""
    decision = game.decision
    return (
        table.people
        and decision is not None
        and table.players.get(decision.family, PERSON) != PERSON
    )


def _json(answer: object) -> Any:
    """An answer as JSON brings it (a placement as a list), as it is written down."""
    return json.loads(json.dumps(answer))


def _plausible(game_id: str) -> bool:
    return _ID.fullmatch(game_id) is not None
