"""The state of a game, as plain data: every card's place, face and tokens, Influence,
round and phase, and where the rules are in the round.

Every value in a state is immutable and replaced, never changed in place: the queue
is a tuple of stacks, each family's zones and Influence are tuples by seat, the faces
a bit mask, the tokens, Bribery tokens and public keys tuples by card id. So a clone
is a copy of the slots, an answer is applied to a clone and kept only if it succeeds
(all or nothing, whatever is raised), and an observation hands values out as they
are, with nothing to copy or guard.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Final

from ._bounds import check_seed
from ._config import MAX_NAMES, GameConfig
from ._decisions import Continuation, Decision
from ._errors import ConfigError
from ._events import Event
from ._identity import NO_CARD, CardId, Identity
from ._rules import GameRules

PLACEMENT: Final = "placement"
RESOLUTION: Final = "resolution"
END: Final = "end"  # docs/rulings.md P8: the game's end is a phase
PHASES: Final = (PLACEMENT, RESOLUTION, END)
LAST_ROUND: Final = 6
#: The per-family zones, by name.
PILES: Final = ("hands", "set_aside", "reserve", "discarded", "eliminated")

#: The event log: (the log before it, the newest event's type, its fields), or None
#: when empty. Appending is one tuple, and a clone or an observation shares the log.
Log = tuple[Any, type[Any], tuple[Any, ...]] | None
#: A per-family zone: each family's cards, by seat.
Zone = tuple[tuple[CardId, ...], ...]


@lru_cache(maxsize=64)
def _seats(families: tuple[str, ...]) -> dict[str, int]:
    """Each family's seat (shared by the games of one seating, and never changed)."""
    return {family: seat for seat, family in enumerate(families)}


def replaced(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with the item at ``index`` replaced by ``value``: a new tuple."""
    items = list(values)  # compiled, the quickest way for short tuples
    items[index] = value
    return tuple(items)


class State:
    """The data of one game. The engine (:mod:`.engine`) is what changes it."""

    __slots__ = (
        "acting",
        "acting_gone",
        "bribes",
        "cards",
        "config",
        "direction",
        "discarded",
        "eliminated",
        "families",
        "first",
        "hand_counts",
        "hands",
        "identity",
        "influence",
        "log",
        "log_length",
        "log_mark",
        "pending",
        "phase",
        "placed",
        "public",
        "queue",
        "recording",
        "reserve",
        "resume",
        "revealing",
        "round",
        "rules",
        "seat",
        "seed",
        "set_aside",
        "set_aside_counts",
        "tasks",
        "tokens",
        "up",
        "walk",
    )

    # Fixed for the game, shared by clones.
    rules: GameRules
    config: GameConfig
    seed: int  # the game's own seed (a simulation's games share one configuration)
    cards: tuple[str, ...]  # the card list every family holds (RULINGS G1)
    families: tuple[str, ...]  # seat order, clockwise
    seat: dict[str, int]  # each family's seat
    identity: Identity
    direction: str  # which way the Resolution Direction tile points (display only)
    recording: bool  # whether events are kept in the log

    # The position.
    queue: tuple[tuple[CardId, ...], ...]  # resolution order; each stack bottom first
    up: int  # bit ``card`` set: that card is face up in the queue
    # Zones and Influence are by seat; tokens, Bribery tokens and public keys by card.
    tokens: tuple[tuple[CardId, int], ...]  # (card, tokens) for the cards with tokens, by id
    bribes: tuple[str, ...]  # the family whose Bribery token each card carries ("" none);
    # () while no card carries one
    hands: Zone
    set_aside: Zone
    reserve: Zone
    discarded: Zone  # piles in front of each ORIGINAL owner
    eliminated: Zone
    influence: tuple[int, ...]
    public: tuple[str, ...]  # the key of every card all families have seen ("" if not)
    # How many cards each family holds in hand and set aside, by seat: what every family
    # sees of the others' hands. Kept by set_zone: counted once, observed often.
    hand_counts: tuple[int, ...]
    set_aside_counts: tuple[int, ...]

    # Where the rules are.
    round: int
    phase: str
    first: int  # seat of the First Player this round
    placed: int  # families whose placement turn has passed this round
    walk: int  # resolution: the acting position, or the next one to resolve
    acting: CardId  # the card whose turn it is in the walk (NO_CARD: none)
    acting_gone: bool  # the acting card's position has left the queue (RULINGS R8)
    revealing: CardId  # the acting card, if its owner revealed it this turn
    pending: Decision | None  # the question the game waits on
    resume: Continuation | None  # how an ability goes on once it is answered
    tasks: tuple[Continuation, ...]  # work waiting for the current ability, last on top
    log: Log
    # How long the log was when the engine last counted it (it keeps no more than a
    # save holds): ``log_mark`` is the newest event then, and ``log_length`` the count.
    # A log set anew is counted again, from its start.
    log_mark: Log
    log_length: int

    @classmethod
    def empty(
        cls,
        rules: GameRules,
        config: GameConfig,
        identity: Identity,
        *,
        cards: tuple[str, ...],
        direction: str,
        recording: bool = True,
    ) -> State:
        """A table for ``config``'s families: round 1, placement, nothing anywhere.

        Every game is made here, so here its seed and its cards are held to what a
        save holds (:mod:`.bounds`, :data:`.config.MAX_NAMES`), however it is made.
        """
        check_seed(config.seed)
        families = len(config.families)
        if len(cards) > MAX_NAMES or len(identity) > MAX_NAMES * families:
            raise ConfigError(
                f"a card list of {len(cards)} cards ({len(identity)} in all) is more than "
                f"a save holds: at most {MAX_NAMES} in the list, as many a family"
            )
        state = cls()
        state.rules = rules
        state.config = config
        state.seed = config.seed
        state.cards = cards
        state.families = config.families
        state.seat = _seats(config.families)
        state.identity = identity
        state.direction = direction
        state.recording = recording
        state.queue = ()
        state.up = 0
        cards_count = len(identity)
        state.tokens = ()
        state.bribes = ()
        empty: Zone = ((),) * len(config.families)
        state.set_zone("hands", empty)
        state.set_zone("set_aside", empty)
        state.reserve = empty
        state.discarded = empty
        state.eliminated = empty
        state.influence = (1,) * len(config.families)  # RULINGS G2
        state.public = ("",) * cards_count
        state.round = 1
        state.phase = PLACEMENT
        state.first = 0
        state.placed = 0
        state.walk = 0
        state.acting = NO_CARD
        state.acting_gone = False
        state.revealing = NO_CARD
        state.pending = None
        state.resume = None
        state.tasks = ()
        state.log = None
        state.log_mark = None
        state.log_length = 0
        return state

    def clone(self) -> State:
        """An independent copy: the slots are copied, the containers shared (never changed)."""
        # Spelled out slot by slot: search clones often, and a loop over the slots
        # with getattr and setattr costs about twice as much.
        other = State()
        other.rules = self.rules
        other.config = self.config
        other.seed = self.seed
        other.cards = self.cards
        other.families = self.families
        other.seat = self.seat
        other.identity = self.identity
        other.direction = self.direction
        other.recording = self.recording
        other.queue = self.queue
        other.up = self.up
        other.tokens = self.tokens
        other.bribes = self.bribes
        other.hands = self.hands
        other.set_aside = self.set_aside
        other.reserve = self.reserve
        other.discarded = self.discarded
        other.eliminated = self.eliminated
        other.influence = self.influence
        other.public = self.public
        other.hand_counts = self.hand_counts
        other.set_aside_counts = self.set_aside_counts
        other.round = self.round
        other.phase = self.phase
        other.first = self.first
        other.placed = self.placed
        other.walk = self.walk
        other.acting = self.acting
        other.acting_gone = self.acting_gone
        other.revealing = self.revealing
        other.pending = self.pending
        other.resume = self.resume
        other.tasks = self.tasks
        other.log = self.log
        other.log_mark = self.log_mark
        other.log_length = self.log_length
        return other

    def zone(self, name: str) -> Zone:
        """One of the per-family zones by name: ``hands``, ``set_aside``, ``reserve``..."""
        if name == "hands":
            return self.hands
        if name == "set_aside":
            return self.set_aside
        if name == "reserve":
            return self.reserve
        if name == "discarded":
            return self.discarded
        if name == "eliminated":
            return self.eliminated
        raise KeyError(name)

    def set_zone(self, name: str, zone: Zone) -> None:
        """Make ``zone`` (by seat) the zone called ``name``."""
        if name == "hands":
            self.hands = zone
            self.hand_counts = tuple([len(cards) for cards in zone])
        elif name == "set_aside":
            self.set_aside = zone
            self.set_aside_counts = tuple([len(cards) for cards in zone])
        elif name == "reserve":
            self.reserve = zone
        elif name == "discarded":
            self.discarded = zone
        elif name == "eliminated":
            self.eliminated = zone
        else:
            raise KeyError(name)

    def events(self) -> tuple[Event, ...]:
        """The log, oldest event first."""
        return log_events(self.log)

    def owner(self, card: CardId) -> str:
        """The family that owns ``card`` now (RULINGS R3: a Bribery token's family, if any)."""
        bribes = self.bribes
        if bribes:
            briber = bribes[card]
            if briber:
                return briber
        return self.identity.colours[card]

    def tokens_on(self, card: CardId) -> int:
        """The tokens on ``card``."""
        for holder, count in self.tokens:
            if holder == card:
                return count
        return 0

    def set_tokens(self, card: CardId, count: int) -> None:
        """Put ``count`` tokens on ``card`` (0: none), in place of those it had."""
        tokens = self.tokens
        # The same pairs typed Any: compiled, each pair kept is the pair it was, not one
        # taken apart and made anew.
        held: tuple[Any, ...] = tokens
        pairs: list[Any] = []
        for i in range(len(tokens)):
            if tokens[i][0] != card:
                pairs.append(held[i])
        if count:
            pairs.append((card, count))
            pairs.sort()
        self.tokens = tuple(pairs)

    def by_family(self, values: tuple[Any, ...]) -> dict[str, Any]:
        """Something kept by seat, as a mapping of family to value."""
        return dict(zip(self.families, values, strict=True))

    def by_seat(self, values: Mapping[str, Any], default: Any) -> tuple[Any, ...]:
        """A mapping of family to value, as a tuple by seat (``default`` where missing)."""
        return tuple(values.get(family, default) for family in self.families)

    def set_cards(
        self,
        tokens: Mapping[CardId, int],
        bribes: Mapping[CardId, str],
        public: Mapping[CardId, str],
    ) -> None:
        """Tokens, Bribery tokens and public keys given by card, kept by card id."""
        count = len(self.identity)
        self.tokens = tuple(sorted((card, n) for card, n in tokens.items() if n))
        self.bribes = tuple(bribes.get(card, "") for card in range(count)) if bribes else ()
        self.public = tuple(public.get(card, "") for card in range(count))


def log_events(log: Log) -> tuple[Event, ...]:
    """The events of ``log``, oldest first."""
    found: list[Event] = []
    while log is not None:
        log, kind, fields = log
        found.append(kind(*fields))
    found.reverse()
    return tuple(found)


def logged(events: Iterable[Event]) -> Log:
    """A log of ``events``, oldest first."""
    log: Log = None
    for event in events:
        log = (log, type(event), tuple(event)[:-1])
    return log
