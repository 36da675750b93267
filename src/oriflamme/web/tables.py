"""The games being played: each a :class:`Table` (the game, who sits where, who watches).

The server's event loop is the only thread that touches a game or the games file. A
bot thinks in a worker thread, from its own family's observation (plain data with no
link to the game), so a slow bot never holds the server up; its answer is then played
like a person's. Every answer goes through :meth:`Tables.answer`: checked, played on
the game, written to the file with the new save in one transaction, and only then
announced; if anything fails on the way, the game is put back as it was.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..core.errors import ConfigError, IllegalAnswer, OriflammeError, PluginError
from ..core.game import Game
from ..core.plugins import Registry
from .creation import Request, read_request
from .players import PERSON, check_bot, make_bot
from .store import Seat, Store, StoredGame, seat_of, token_hash
from .views import build_view

log = logging.getLogger("oriflamme.web")

#: Games kept in memory at once; the least recently used idle one is let go first.
MAX_LIVE = 256
#: A bot that has not answered in this many seconds is stopped waiting for: the game
#: waits on it until it is next loaded (or the server restarts).
BOT_SECONDS = 120.0

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

#: Sends one view to one watcher; returns False once that watcher is gone.
Send = Callable[[dict[str, Any]], Awaitable[bool]]


class Refused(OriflammeError):
    """A request the server turns down: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Table:
    """One game in play, and the seats and watchers at it."""

    def __init__(self, stored: StoredGame, game: Game, registry: Registry) -> None:
        self.id = stored.id
        self.game = game
        self.registry = registry
        self.request = Request.from_dict(stored.request)
        self.seats = stored.seats
        self.step = stored.step
        self.initial = stored.initial
        self.lock = asyncio.Lock()
        self.watchers: dict[Send, str | None] = {}
        self.bots: asyncio.Task[None] | None = None

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
            raise Refused(403, "this link's token is not one of this game's seats")
        return family

    def view(
        self, family: str | None, game: Game | None = None, step: int | None = None
    ) -> dict[str, Any]:
        game = game if game is not None else self.game
        return build_view(
            game.observe(family),
            game.rules,
            game_id=self.id,
            step=self.step if step is None else step,
            seats=self.players,
        )

    @property
    def busy(self) -> bool:
        return bool(self.watchers) or (self.bots is not None and not self.bots.done())


class Tables:
    """Every game: the live ones in memory, all of them in the :class:`Store`."""

    def __init__(
        self, store: Store, plugins: Mapping[str, object] | None = None, entry_points: bool = True
    ) -> None:
        self.store = store
        self._plugins = dict(plugins or {})
        self._entry_points = entry_points
        self._live: OrderedDict[str, Table] = OrderedDict()
        self._registries: dict[frozenset[str], Registry] = {}

    def registry(self, without: tuple[str, ...] = ()) -> Registry:
        """The installed plugins but ``without`` (made once for each choice)."""
        key = frozenset(without)
        found = self._registries.get(key)
        if found is None:
            found = Registry(entry_points=self._entry_points, exclude=sorted(key))
            for name, plugin in self._plugins.items():
                if name not in key:
                    found.register(plugin, name)
            self._registries[key] = found
        return found

    def optional_plugins(self) -> list[str]:
        return [p["name"] for p in self.registry().describe() if not p["builtin"]]

    # Making and finding games.

    def create(self, body: object) -> tuple[Table, dict[str, str]]:
        """A new game from a creation request: the table and each person's token."""
        everyone = self.registry()
        request = read_request(
            body, self.optional_plugins(), lambda kind, family: check_bot(kind, family, everyone)
        )
        registry = self.registry(request.without)
        try:
            game = Game.new(request.config, registry=registry)
        except PluginError as exc:
            raise ConfigError(f"a plugin failed while setting up the game: {exc}") from exc
        tokens: dict[str, str] = {}
        seats = []
        for family in game.families:
            kind = request.bots.get(family, PERSON)
            if kind == PERSON:
                tokens[family] = secrets.token_urlsafe(24)
                seats.append(Seat(family, kind, token_hash(tokens[family])))
            else:
                seats.append(Seat(family, kind))
        game_id = secrets.token_urlsafe(12)
        save = game.to_json()
        self.store.create(game_id, request.to_dict(), save, seats)
        stored = StoredGame(game_id, request.to_dict(), save, save, 0, game.over, tuple(seats))
        table = self._keep(Table(stored, game, registry))
        self.play_bots(table)
        return table, tokens

    def find(self, game_id: str) -> Table:
        """The game ``game_id``, loaded from its save if need be; 404 if there is none."""
        table = self._live.get(game_id)
        if table is not None:
            self._live.move_to_end(game_id)
            return table
        stored = self.store.load(game_id) if _plausible(game_id) else None
        if stored is None:
            raise Refused(404, "there is no game with that id")
        request = Request.from_dict(stored.request)
        registry = self.registry(request.without)
        game = Game.from_json(stored.save, registry=registry)
        table = self._keep(Table(stored, game, registry))
        # A server stopped while a bot was to answer: the bot answers now.
        self.play_bots(table)
        return table

    def _keep(self, table: Table) -> Table:
        self._live[table.id] = table
        for game_id, idle in list(self._live.items()):
            if len(self._live) <= MAX_LIVE:
                break
            if not idle.busy:
                del self._live[game_id]
        return table

    # Playing.

    async def answer(self, table: Table, family: str, answer: object) -> dict[str, Any]:
        """``family`` answers: its new view. 409 if it is not its turn, 400 if the
        answer is refused (the game as it was)."""
        async with table.lock:
            self._play(table, family, answer)
            view = table.view(family)
        await self._announce(table)
        self.play_bots(table)
        return view

    def _play(self, table: Table, family: str, answer: object) -> None:
        game = table.game
        decision = game.decision
        # Refused before the engine sees it: only the family asked may answer.
        if decision is None:
            raise Refused(409, "the game is over")
        if decision.family != family:
            raise Refused(409, f"it is {decision.family}'s turn, not {family}'s")
        before = game.clone()
        try:
            game.answer(answer, family=family)
        except IllegalAnswer as exc:
            raise Refused(400, str(exc)) from exc
        except PluginError as exc:
            raise Refused(400, f"that answer cannot be played: {exc}") from exc
        try:
            self.store.record(
                table.id, table.step + 1, family, json.dumps(answer), game.to_json(), over=game.over
            )
        except OriflammeError:
            table.game = before  # not written: not played
            raise
        table.step += 1

    async def _announce(self, table: Table) -> None:
        """Every watcher gets its new view; a watcher that is gone is dropped."""
        views: dict[str | None, dict[str, Any]] = {}
        for send, family in list(table.watchers.items()):
            if family not in views:
                views[family] = table.view(family)
            if not await send(views[family]):
                table.watchers.pop(send, None)

    def play_bots(self, table: Table) -> None:
        """Bots answer while it is their turn, in the background."""
        if table.bots is None or table.bots.done():
            table.bots = asyncio.get_running_loop().create_task(self._bots(table))

    async def _bots(self, table: Table) -> None:
        try:
            await self._bots_play(table)
        except OriflammeError as exc:
            # The game waits; the next time it is loaded its bots try again.
            log.error("game %s: bots stopped: %s", table.id, type(exc).__name__)

    async def _bots_play(self, table: Table) -> None:
        kinds = table.players
        seed = table.request.config.seed
        while True:
            decision = table.game.decision
            if decision is None or kinds[decision.family] == PERSON:
                return
            family, step = decision.family, table.step
            observation = table.game.observe(family)
            # Seeded by game, family and step: a restarted server plays on the same way.
            bot = make_bot(kinds[family], table.registry, random.Random(f"{seed}:{family}:{step}"))
            try:
                chosen = await asyncio.wait_for(
                    asyncio.to_thread(bot.choose, observation), BOT_SECONDS
                )
                answer = _json(chosen)
            except Exception as exc:  # a plugin's bot: the game goes on without its advice
                # The kind of failure only: its message might name what the bot saw.
                log.warning(
                    "game %s: the %s bot of %s failed (%s); it plays its first legal answer",
                    table.id,
                    kinds[family],
                    family,
                    type(exc).__name__,
                )
                answer = None
            async with table.lock:
                if table.step != step:
                    continue
                try:
                    self._play(table, family, answer)
                except Refused:
                    # Its answer is not legal: the first legal one is played instead.
                    self._play(table, family, _json(decision.options[0]))
            await self._announce(table)

    # Watching.

    async def watch(self, table: Table, family: str | None, send: Send) -> None:
        table.watchers[send] = family
        if not await send(table.view(family)):
            table.watchers.pop(send, None)

    def leave(self, table: Table, send: Send) -> None:
        table.watchers.pop(send, None)

    def replay(self, table: Table, family: str | None, step: int) -> dict[str, Any]:
        """The view ``family`` had after ``step`` answers, rebuilt from the start."""
        if not 0 <= step <= table.step:
            raise Refused(400, f"step must be a whole number from 0 to {table.step}")
        game = Game.from_json(table.initial, registry=table.registry)
        for who, answer in self.store.answers(table.id, step):
            game.answer(answer, family=who)
        view = table.view(family, game, step)
        view.update(answers=[], answer_texts=[], question=None, steps=table.step)
        return view


def _json(answer: object) -> Any:
    """An answer as JSON brings it (a placement as a list), as it is written down."""
    return json.loads(json.dumps(answer))


def _plausible(game_id: str) -> bool:
    return _ID.fullmatch(game_id) is not None
