"""A game of Oriflamme: set up from a configuration, advanced by answering decisions.

>>> game = Game.new(GameConfig(families=("red", "blue", "green"), seed=1),
...                 registry=Registry(entry_points=False))
>>> game.decision.kind
'place'
"""

from __future__ import annotations

import random
from typing import Any

from .answers import check_answer
from .blame import blame
from .cardsets import Setup
from .config import DIRECTIONS, GameConfig
from .decisions import Decision, Placement
from .errors import AbilityError, IllegalAnswer
from .events import Event, GameStarted, RoundStarted, event_from_record
from .plugins import Registry
from .round import Round
from .rules import GameRules
from .saves import dump, load, snapshot
from .scoring import final_scores, winners
from .state import END, PILES, PLACEMENT
from .views import View

HAND_SIZE = 7  # RULINGS G2: every family keeps 7 cards; the rest are set aside
# The types an offered answer has, by decision kind (bool is not an int here).
_EXACT: dict[str, tuple[type, ...]] = {
    "target": (int,),
    "move": (int,),
    "twin": (str, int),
    "choose": (str,),
}


def card_ids(family: str, keys: tuple[str, ...]) -> list[str]:
    """The ids of ``family``'s cards: ``red.soldier``; a second copy is ``red.soldier.2``."""
    return [f"{family}.{name}" for name in _names(keys)]


def _names(keys: tuple[str, ...]) -> list[str]:
    seen: dict[str, int] = {}
    names = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        names.append(key if seen[key] == 1 else f"{key}.{seen[key]}")
    return names


class _Cast:
    """The card ids of each family for one card list and seating, and where each starts."""

    def __init__(self, rules: GameRules, families: tuple[str, ...]) -> None:
        self.ids: dict[str, list[str]] = {}
        self.shuffled: dict[str, tuple[str, ...]] = {}
        self.reserve: dict[str, tuple[str, ...]] = {}
        self.family_of: dict[str, str] = {}
        self.key_of: dict[str, str] = {}
        names = _names(rules.cards)
        shuffled = [rules.definitions[k].setup is Setup.SHUFFLED for k in rules.cards]
        for family in families:
            ids = [f"{family}.{name}" for name in names]
            self.ids[family] = ids
            self.shuffled[family] = tuple(c for c, s in zip(ids, shuffled, strict=True) if s)
            self.reserve[family] = tuple(c for c, s in zip(ids, shuffled, strict=True) if not s)
            self.family_of.update(dict.fromkeys(ids, family))
            self.key_of.update(zip(ids, rules.cards, strict=True))


class Game(Round):
    """A game in progress. Read ``decision``; call ``answer``; repeat until ``over``."""

    __slots__ = ()

    @classmethod
    def new(
        cls, config: GameConfig | None = None, *, registry: Registry | None = None, **options: Any
    ) -> Game:
        """A new game, set up by the rulebook (RULINGS G2) from ``config``.

        ``options`` are GameConfig fields, for a config given inline. Pass one
        ``registry`` when creating many games: building one loads every plugin.
        """
        if config is None:
            config = GameConfig(**options)
        elif options:
            raise TypeError("give either a GameConfig or its fields, not both")
        config.check()
        registry = registry if registry is not None else Registry()
        rng = random.Random(config.seed)
        card_list = registry.card_list(config, rng)
        rules = registry.rules(card_list, config.sets, dict(config.variants))
        families = config.families
        first = config.first_player or rng.choice(families)
        direction = config.direction or rng.choice(DIRECTIONS)
        game = cls.blank(rules, config, direction=direction)
        cast = rules.casts.get(families)
        if cast is None:
            cast = rules.casts[families] = _Cast(rules, families)
        game.family_of = cast.family_of  # shared by every game of this seating: never
        game.key_of = cast.key_of  # changed once a game is set up
        for family in families:
            ids = cast.ids[family]
            shuffled = cast.shuffled[family]
            # Shuffling and setting the first cards aside is drawing them at random:
            # only which cards are set aside matters, so draw just those. Zones list
            # cards in card-list order, which reads better than a shuffled one.
            aside = set(rng.sample(shuffled, len(shuffled) - HAND_SIZE))
            game.set_aside[family] = tuple(c for c in ids if c in aside)
            game.hands[family] = tuple(c for c in shuffled if c not in aside)
            game.reserve[family] = cast.reserve[family]
        game.first = families.index(first)
        game._emit(GameStarted.kind, first, card_list)
        game._emit(RoundStarted.kind, 1, first)
        game._run()
        return game

    @classmethod
    def blank(
        cls,
        rules: GameRules,
        config: GameConfig,
        *,
        direction: str = DIRECTIONS[0],
        influence: int = 1,
    ) -> Game:
        """An empty table for ``config``'s families: round 1, placement, nothing dealt."""
        game = object.__new__(cls)
        game.rules = rules
        game.config = config
        game.families = config.families
        game.family_of = {}
        game.key_of = {}
        game.direction = direction
        game.queue = []
        game.up = set()
        game.tokens = {}
        game.bribes = {}
        for zone in PILES:
            setattr(game, zone, dict.fromkeys(config.families, ()))
        game.influence = dict.fromkeys(config.families, influence)
        game.round = 1
        game.phase = PLACEMENT
        game.first = 0
        game.placed = 0
        game.walk = 0
        game.acting = None
        game.acting_gone = False
        game.revealing = None
        game.pending = None
        game.resume = None
        game.tasks = []
        game.log = []
        return game

    # Asking and answering.

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        return self.pending

    def answer(self, answer: object) -> None:
        """Answer the pending decision and play on to the next one.

        An answer that is not legal raises :class:`IllegalAnswer`, which says why,
        and leaves the game exactly as it was.
        """
        decision = self.pending
        if decision is None:
            raise IllegalAnswer("the game is over: there is no decision to answer")
        kind = decision.kind
        # Fast paths for an offered answer given as offered; anything else is
        # checked in full: normalised, or refused with its reason.
        if kind == "reveal":
            if answer is not True and answer is not False:
                check_answer(self, decision, answer)  # raises: only True or False
        elif kind == "place":
            if type(answer) is not Placement or answer not in decision.options:
                answer = check_answer(self, decision, answer)
        elif type(answer) not in _EXACT[kind] or answer not in decision.options:
            answer = check_answer(self, decision, answer)
        if not self.rules.guarded:
            self._apply(decision, answer)
            return
        # Code from outside the built-in sets runs in this game: if it raises, the
        # answer is taken back whole, and the error names the plugin.
        saved = self.clone()
        try:
            self._apply(decision, answer)
        except Exception as exc:
            self.restore(saved)
            raise AbilityError(blame(self, exc, decision, answer)) from exc

    def _apply(self, decision: Decision, answer: Any) -> None:
        self.pending = None
        kind = decision.kind
        if kind == "reveal":
            if answer:
                self._reveal(decision.card)  # type: ignore[arg-type]
            else:
                self._decline(decision.card)  # type: ignore[arg-type]
        elif kind == "place":
            self._place(decision.family, answer)
        else:
            key, name, card, args = self.resume  # type: ignore[misc]
            self.resume = None
            if key is None:
                getattr(self, name)(card, *args, answer)
            else:
                getattr(self.rules.abilities[key], name)(self, card, *args, answer)
        self._run()

    def legal(self, answer: object) -> bool:
        """Whether ``answer`` would be accepted now."""
        if self.pending is None:
            return False
        try:
            check_answer(self, self.pending, answer)
        except IllegalAnswer:
            return False
        return True

    # The end.

    @property
    def over(self) -> bool:
        return self.phase == END

    @property
    def scores(self) -> dict[str, int]:
        """Each family's Influence (the final score once the game is over)."""
        return final_scores(self)

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning families once the game is over (several for a shared win)."""
        if not self.over:
            raise ValueError("the game is not over yet")
        return winners(self)

    # Looking at it.

    @property
    def events(self) -> list[Event]:
        """The event log, as typed events."""
        return [event_from_record(record) for record in self.log]

    def view(self, family: str) -> View:
        """What ``family`` may see of the game (see :class:`~oriflamme.core.views.View`)."""
        return View(self, family)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data: what :meth:`to_json` writes and ``==`` compares."""
        return snapshot(self)

    def to_json(self) -> str:
        return dump(self)

    @classmethod
    def from_json(
        cls, text: str, *, registry: Registry | None = None, allow_other_versions: bool = False
    ) -> Game:
        """A game saved with :meth:`to_json`, identical. The save names the plugins
        it was played with: one missing here, or of another version, is a
        :class:`SaveError` that says so (pass ``allow_other_versions`` to load anyway)."""
        registry = registry if registry is not None else Registry()
        return load(cls, text, registry, allow_other_versions=allow_other_versions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        decision = self.decision
        asking = f"{decision.family} to {decision.kind}" if decision else "over"
        return f"<Game round {self.round} {self.phase}, {asking}>"
