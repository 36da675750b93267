"""What one family may see of a game, or a spectator: an :class:`Observation`.

An observation is plain data with no link to the game: each is made afresh and holds
only immutable values (tuples, numbers, strings, the immutable decision and events)
that hold nothing a family may not see. Changing one changes nothing but itself. A
bot, the terminal, a web page and a learning agent all decide from one. Beside them
it keeps the game's rules table (:attr:`Observation.rules`): the rules of play, public
as the rulebook is, shared read-only by every game of those rules, with which
``oriflamme.text.table(observation)`` names the cards and words the questions as a
person at the table would read them (core says no sentence).

A family sees everything public (the queue's cards by id and colour, faces, tokens,
Bribery tokens, Influence, the reserves and piles, the log), its own hand and
set-aside cards, and the key of every card it owns or that has been face up for all to
see. It never sees the key of another family's hidden card (in hand, set aside, face
down in the queue), nor which ids another family holds in hand: only how many. A
spectator sees only what is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from ._config import GameConfig
from ._decisions import Continuation, Decision
from ._events import Event, event_to_dict
from ._identity import NO_CARD, CardId, Identity
from ._rules import GameRules
from ._scoring import rank
from ._state import END, Log, State, log_events

_NOTHING: Mapping[CardId, str] = MappingProxyType({})
#: The fields an observation is made of, but for its log (compared by its events).
FIELDS = (
    "family",
    "families",
    "cards",
    "sets",
    "variants",
    "direction",
    "round",
    "phase",
    "first",
    "colours",
    "queue",
    "up_mask",
    "token_pairs",
    "card_bribes",
    "seat_influence",
    "hand",
    "set_aside",
    "hand_counts",
    "set_aside_counts",
    "seat_reserve",
    "seat_discarded",
    "seat_eliminated",
    "shown",
    "own_keys",
    "decision",
    "placed",
    "walk",
    "acting",
    "acting_gone",
    "revealing",
    "resume",
    "tasks",
)


class Observation:
    """One family's view of a game at one moment (``family`` None: a spectator's).

    Values kept by seat or by card id are tuples; the properties give them as
    mappings of family, or of card, to value.
    """

    __slots__ = (*FIELDS, "log", "rules")

    family: Final[str | None]
    families: Final[tuple[str, ...]]
    cards: Final[tuple[str, ...]]  # the card list every family holds
    sets: Final[tuple[str, ...]]
    variants: Final[Mapping[str, Any]]
    direction: Final[str]
    round: Final[int]
    phase: Final[str]
    first: Final[int]  # the seat of the First Player
    colours: Final[tuple[str, ...]]  # every card id's colour: the card's back shows it
    queue: Final[tuple[tuple[CardId, ...], ...]]  # resolution order, stacks bottom first
    up_mask: Final[int]  # bit ``card`` set: that card is face up in the queue
    token_pairs: Final[tuple[tuple[CardId, int], ...]]  # (card, tokens), by card id
    card_bribes: Final[tuple[str, ...]]  # by card id ("" none), () while none
    seat_influence: Final[tuple[int, ...]]
    hand: Final[tuple[CardId, ...]]  # this family's own
    set_aside: Final[tuple[CardId, ...]]  # this family's own
    hand_counts: Final[tuple[int, ...]]  # every family's hand size, by seat
    set_aside_counts: Final[tuple[int, ...]]
    seat_reserve: Final[tuple[tuple[CardId, ...], ...]]
    seat_discarded: Final[tuple[tuple[CardId, ...], ...]]
    seat_eliminated: Final[tuple[tuple[CardId, ...], ...]]
    shown: Final[tuple[str, ...]]  # the key of every card all have seen, by id ("" not)
    own_keys: Final[Mapping[CardId, str]]  # the keys of this family's own cards
    decision: Final[Decision | None]  # another family's private options are hidden
    # Where the rules are: public, as at the table (whose turn, what happens next).
    placed: Final[int]
    walk: Final[int]
    acting: Final[CardId | None]
    acting_gone: Final[bool]
    revealing: Final[CardId | None]
    resume: Final[Continuation | None]
    tasks: Final[tuple[Continuation, ...]]
    log: Final[Log]  # the events, newest first: read them with ``events``
    # The rules of play (card definitions, decision kinds, variants): public, and
    # shared by every game of them, so neither compared nor copied; never changed.
    rules: Final[GameRules]

    def __init__(self, state: State, family: str | None) -> None:
        """``family``'s observation of ``state`` (None: a spectator's)."""
        seat = state.seat
        if family is None:
            hand: tuple[CardId, ...] = ()
            set_aside: tuple[CardId, ...] = ()
            own: Mapping[CardId, str] = _NOTHING
        elif family in seat:
            where = seat[family]
            hand, set_aside = state.hands[where], state.set_aside[where]
            own = state.identity.own(family)
        else:
            known = ", ".join(state.families)
            raise ValueError(f"{family!r} is not a family of this game ({known})")
        decision = state.pending
        if (
            decision is not None
            and decision.family != family
            and decision.options
            and state.rules.kinds[decision.kind].private_options
        ):
            # Another family's hand, say: only who is asked and what kind of question.
            decision = Decision(decision.family, decision.kind, (), decision.card)
        self.family = family
        self.families = state.families
        self.cards = state.cards
        self.sets = state.rules.sets
        self.variants = state.rules.variants
        self.direction = state.direction
        self.round = state.round
        self.phase = state.phase
        self.first = state.first
        self.colours = state.identity.colours
        self.queue = state.queue
        self.up_mask = state.up
        self.token_pairs = state.tokens
        self.card_bribes = state.bribes
        self.seat_influence = state.influence
        self.hand = hand
        self.set_aside = set_aside
        self.hand_counts = state.hand_counts
        self.set_aside_counts = state.set_aside_counts
        self.seat_reserve = state.reserve
        self.seat_discarded = state.discarded
        self.seat_eliminated = state.eliminated
        self.shown = state.public
        self.own_keys = own
        self.decision = decision
        self.placed = state.placed
        self.walk = state.walk
        self.acting = None if state.acting == NO_CARD else state.acting
        self.acting_gone = state.acting_gone
        self.revealing = None if state.revealing == NO_CARD else state.revealing
        self.resume = state.resume
        self.tasks = state.tasks
        self.log = state.log
        self.rules = state.rules

    # Reading it.

    def key(self, card: CardId) -> str | None:
        """The key of ``card`` if this family may know it, else None."""
        found = self.shown[card]
        if found:
            return found
        own = self.own_keys
        # Compiled, a read-only view's get is a method call; `in` and [] are not.
        return own[card] if card in own else None  # noqa: SIM401

    def knows(self, card: CardId) -> bool:
        return bool(self.shown[card]) or card in self.own_keys

    def colour(self, card: CardId) -> str:
        """The family printed on ``card`` (its original owner)."""
        return self.colours[card]

    def owner(self, card: CardId) -> str:
        """Who owns ``card`` now (RULINGS R3: a Bribery token's family, if any)."""
        bribes = self.card_bribes
        return (bribes[card] if bribes else "") or self.colours[card]

    def is_up(self, card: CardId) -> bool:
        return bool(self.up_mask >> card & 1)

    def tokens_on(self, card: CardId) -> int:
        for holder, count in self.token_pairs:
            if holder == card:
                return count
        return 0

    def top(self, position: int) -> CardId:
        return self.queue[position][-1]

    def tops(self) -> tuple[CardId, ...]:
        return tuple([stack[-1] for stack in self.queue])

    @property
    def first_player(self) -> str:
        return self.families[self.first]

    @property
    def influence(self) -> Mapping[str, int]:
        return self._by_family(self.seat_influence)

    @property
    def reserve(self) -> Mapping[str, tuple[CardId, ...]]:
        return self._by_family(self.seat_reserve)

    @property
    def discarded(self) -> Mapping[str, tuple[CardId, ...]]:
        return self._by_family(self.seat_discarded)

    @property
    def eliminated(self) -> Mapping[str, tuple[CardId, ...]]:
        return self._by_family(self.seat_eliminated)

    @property
    def hand_sizes(self) -> Mapping[str, int]:
        return self._by_family(self.hand_counts)

    @property
    def set_aside_sizes(self) -> Mapping[str, int]:
        return self._by_family(self.set_aside_counts)

    @property
    def tokens(self) -> Mapping[CardId, int]:
        """The cards with tokens on them, and how many."""
        return MappingProxyType(dict(self.token_pairs))

    @property
    def bribes(self) -> Mapping[CardId, str]:
        """The cards that carry a Bribery token, and whose."""
        return MappingProxyType({c: f for c, f in enumerate(self.card_bribes) if f})

    @property
    def public_keys(self) -> Mapping[CardId, str]:
        """The key of every card every family has seen face up."""
        return MappingProxyType({c: key for c, key in enumerate(self.shown) if key})

    def _by_family(self, values: tuple[Any, ...]) -> Mapping[str, Any]:
        return MappingProxyType(dict(zip(self.families, values, strict=True)))

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, oldest first (cards by id: see :meth:`key`)."""
        return log_events(self.log)

    @property
    def over(self) -> bool:
        return self.phase == END

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning families once the game is over (RULINGS G6; several: a shared win)."""
        if not self.over:
            raise ValueError("the game is not over yet")
        return rank(self.families, self.influence, self.queue, self.owner)

    @property
    def asked(self) -> bool:
        """Whether this family must answer the pending decision."""
        return self.decision is not None and self.decision.family == self.family

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its fields (a read-only mapping as a dict) and its rules, and made
        again from them (:func:`rebuilt`). A rules table does not pickle: whoever
        pickles an observation names its rules itself (``pickle.Pickler.persistent_id``:
        by their sets, variants and cards, say) and gives them back when it is read
        (``persistent_load``: from a registry of the same plugins), as the web server
        does to send one to the process a bot thinks in."""
        fields = {name: getattr(self, name) for name in FIELDS}
        fields["variants"] = dict(self.variants)
        fields["own_keys"] = dict(self.own_keys)
        return (rebuilt, (self.rules, self.log, fields))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return (
            all(getattr(self, name) == getattr(other, name) for name in FIELDS)
            and self.events == other.events
        )

    def __hash__(self) -> int:
        raise TypeError("an observation is compared by value, not hashed")

    def __repr__(self) -> str:
        who = self.family or "a spectator"
        return f"<Observation for {who}: round {self.round} {self.phase}>"

    def to_dict(self, *, events: bool = True) -> dict[str, Any]:
        """As JSON-ready data: what a server sends this family (without ``events``, a
        server that keeps the events' data as the game goes: they are public)."""
        decision = self.decision
        found = {
            "family": self.family,
            "families": list(self.families),
            "cards": list(self.cards),
            "sets": list(self.sets),
            "variants": dict(self.variants),
            "round": self.round,
            "phase": self.phase,
            "first_player": self.first_player,
            "direction": self.direction,
            "influence": dict(self.influence),
            "queue": [[_queue_card(self, c) for c in stack] for stack in self.queue],
            "acting": self.acting,
            "hand": [_card(self, c) for c in self.hand],
            "set_aside": [_card(self, c) for c in self.set_aside],
            "hand_sizes": dict(self.hand_sizes),
            "set_aside_sizes": dict(self.set_aside_sizes),
            "reserve": _zone(self, self.reserve),
            "discarded": _zone(self, self.discarded),
            "eliminated": _zone(self, self.eliminated),
            "decision": decision.to_dict() if decision is not None else None,
        }
        if events:
            found["events"] = [event_to_dict(event) for event in self.events]
        return found


def _card(seen: Observation, card: CardId) -> dict[str, Any]:
    return {"id": card, "colour": seen.colours[card], "key": seen.key(card)}


def _queue_card(seen: Observation, card: CardId) -> dict[str, Any]:
    return {
        **_card(seen, card),
        "owner": seen.owner(card),
        "up": seen.is_up(card),
        "tokens": seen.tokens_on(card),
    }


def _zone(
    seen: Observation, zone: Mapping[str, tuple[CardId, ...]]
) -> dict[str, list[dict[str, Any]]]:
    return {family: [_card(seen, c) for c in cards] for family, cards in zone.items()}


def observe(state: State, family: str | None) -> Observation:
    """``family``'s observation of ``state`` (None: a spectator's)."""
    return Observation(state, family)


def rebuilt(rules: GameRules, log: Log, fields: Mapping[str, Any]) -> Observation:
    """The observation of a game of ``rules`` whose fields are ``fields`` (every name of
    :data:`FIELDS`) and whose log is ``log``: an observation read back from its pickle.

    An observation is made from a state (compiled, its class has no other way in): this
    one from a state that shows its family exactly what it was shown, the cards it may
    not know in it as no card (where they are, not what they are). A field that does not
    come out as it was given is a ValueError, never an observation of something else.
    """
    family: str | None = fields["family"]
    families: tuple[str, ...] = fields["families"]
    colours: tuple[str, ...] = fields["colours"]
    shown: tuple[str, ...] = fields["shown"]
    own: Mapping[CardId, str] = fields["own_keys"]
    config = GameConfig(
        families=families,
        sets=rules.sets,
        cards=fields["cards"],
        first_player=families[fields["first"]],
        direction=fields["direction"],
        variants=dict(rules.variants),
    )
    keys = [shown[card] or own.get(card, "") for card in range(len(colours))]
    state = State.empty(
        rules,
        config,
        Identity(colours, keys),
        cards=fields["cards"],
        direction=fields["direction"],
    )
    mine = families.index(family) if family is not None else -1
    # Another family's hand and set-aside cards are seen only as how many there are.
    state.set_zone(
        "hands",
        tuple(
            fields["hand"] if seat == mine else (NO_CARD,) * count
            for seat, count in enumerate(fields["hand_counts"])
        ),
    )
    state.set_zone(
        "set_aside",
        tuple(
            fields["set_aside"] if seat == mine else (NO_CARD,) * count
            for seat, count in enumerate(fields["set_aside_counts"])
        ),
    )
    state.queue = fields["queue"]
    state.up = fields["up_mask"]
    state.tokens = fields["token_pairs"]
    state.bribes = fields["card_bribes"]
    state.influence = fields["seat_influence"]
    state.reserve = fields["seat_reserve"]
    state.discarded = fields["seat_discarded"]
    state.eliminated = fields["seat_eliminated"]
    state.public = shown
    state.round = fields["round"]
    state.phase = fields["phase"]
    state.first = fields["first"]
    state.placed = fields["placed"]
    state.walk = fields["walk"]
    state.acting = NO_CARD if fields["acting"] is None else fields["acting"]
    state.acting_gone = fields["acting_gone"]
    state.revealing = NO_CARD if fields["revealing"] is None else fields["revealing"]
    state.pending = fields["decision"]
    state.resume = fields["resume"]
    state.tasks = fields["tasks"]
    state.log = log
    observation = Observation(state, family)
    for name in FIELDS:
        if getattr(observation, name) != fields[name]:
            raise ValueError(f"an observation's {name!r} does not come back as it was given")
    return observation
