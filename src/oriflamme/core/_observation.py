"""What one family may see of a game, or a spectator: an :class:`Observation`.

An observation is plain data with no link to the game: each is made afresh and holds
only immutable values (tuples, numbers, strings, the immutable decision and events)
that hold nothing a family may not see. Changing one changes nothing but itself. A
bot, the terminal, a web page and a learning agent all decide from one. It holds no
rules: whoever reads one has them (``Game.rules``, or a registry's
``rules(observation.sets, dict(observation.variants), extra=observation.cards)``), and
``oriflamme.text.table(observation, rules)`` names the cards and words the questions
with them as a person at the table would read them (core says no sentence).

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

from ._decisions import Continuation, Decision
from ._events import Event, event_to_dict
from ._identity import NO_CARD, CardId, Identity
from ._scoring import rank
from ._state import END, Log, State, log_events

_NOTHING: Mapping[CardId, str] = MappingProxyType({})
#: The fields an observation is made of, but for its log (compared by its events): its
#: public data, then what only core reads (by seat, as the game keeps it).
FIELDS = (
    "family",
    "families",
    "cards",
    "sets",
    "variants",
    "direction",
    "round",
    "phase",
    "colours",
    "queue",
    "hand",
    "set_aside",
    "own_keys",
    "decision",
    "placed",
    "walk",
    "acting",
    "acting_gone",
    "revealing",
    "_first",
    "_up",
    "_tokens",
    "_bribes",
    "_influence",
    "_hand_counts",
    "_set_aside_counts",
    "_reserve",
    "_discarded",
    "_eliminated",
    "_public",
    "_resume",
    "_tasks",
)
#: The mappings an observation makes when first asked for one, and keeps: where each
#: is in its ``_made`` tuple.
_MAPS = (
    "influence",
    "reserve",
    "discarded",
    "eliminated",
    "hand_sizes",
    "set_aside_sizes",
    "tokens",
    "bribes",
    "public_keys",
)
#: The piles of each family (reserve, discarded, eliminated).
_Piles = Mapping[str, tuple[CardId, ...]]
_INFLUENCE: Final = 0
_RESERVE: Final = 1
_DISCARDED: Final = 2
_ELIMINATED: Final = 3
_HAND_SIZES: Final = 4
_SET_ASIDE_SIZES: Final = 5
_TOKENS: Final = 6
_BRIBES: Final = 7
_PUBLIC_KEYS: Final = 8


class Observation:
    """One family's view of a game at one moment (``family`` None: a spectator's).

    Every datum has one name: values by family (``influence``, ``reserve``,
    ``hand_sizes``...) and by card (``tokens``, ``bribes``, ``public_keys``) are
    read-only mappings, made when first read and kept (an observation never changes);
    a question about one card is a method (``key``, ``owner``, ``is_up``,
    ``tokens_on``).

    Its private slots hold the same facts by seat, as the game keeps them, for core
    alone (determinisation, pickling), and one thing more: the engine's work waiting
    (``_resume``, the continuation the pending answer resumes, and ``_tasks``, the
    task stack), which determinisation needs to play on from the observation. It is not for reading:
    what it tells a player is on the decision (``Decision.ability``,
    ``Decision.subject``).
    """

    __slots__ = (*FIELDS, "log", "_made")

    family: Final[str | None]
    families: Final[tuple[str, ...]]
    cards: Final[tuple[str, ...]]  # the card list every family holds
    sets: Final[tuple[str, ...]]
    variants: Final[Mapping[str, Any]]
    direction: Final[str]
    round: Final[int]
    phase: Final[str]
    colours: Final[tuple[str, ...]]  # every card id's colour: the card's back shows it
    queue: Final[tuple[tuple[CardId, ...], ...]]  # resolution order, stacks bottom first
    hand: Final[tuple[CardId, ...]]  # this family's own
    set_aside: Final[tuple[CardId, ...]]  # this family's own
    own_keys: Final[Mapping[CardId, str]]  # the keys of this family's own cards
    decision: Final[Decision | None]  # another family's private options are hidden
    # Where the rules are: public, as at the table (whose turn, what happens next).
    placed: Final[int]
    walk: Final[int]
    acting: Final[CardId | None]
    acting_gone: Final[bool]
    revealing: Final[CardId | None]
    log: Final[Log]  # the events, newest first: read them with ``events``
    # By seat or by card id, as the game keeps them: core's (see the properties).
    _first: Final[int]  # the seat of the First Player
    _up: Final[int]  # bit ``card`` set: that card is face up in the queue
    _tokens: Final[tuple[tuple[CardId, int], ...]]  # (card, tokens), by card id
    _bribes: Final[tuple[str, ...]]  # by card id ("" none), () while none
    _influence: Final[tuple[int, ...]]
    _hand_counts: Final[tuple[int, ...]]
    _set_aside_counts: Final[tuple[int, ...]]
    _reserve: Final[tuple[tuple[CardId, ...], ...]]
    _discarded: Final[tuple[tuple[CardId, ...], ...]]
    _eliminated: Final[tuple[tuple[CardId, ...], ...]]
    _public: Final[tuple[str, ...]]  # the key of every card all have seen, by id ("" not)
    # What determinisation plays on with; not for reading. Two slots, not a pair: an
    # observation is made at every question, and a pair would be one more object.
    _resume: Final[Continuation | None]
    _tasks: Final[tuple[Continuation, ...]]
    # The mappings made so far, by their place in _MAPS (None: not yet), or None while
    # none is: a value, replaced whole when one more is made. Most observations are
    # read for a few things only, and one slot set here costs least.
    _made: tuple[Mapping[Any, Any] | None, ...] | None

    def __init__(  # noqa: PLR0915 - a statement a slot: compiled, the one way in
        self,
        state: State,
        family: str | None,
        table: tuple[tuple[str, ...], Mapping[str, Any]] | None = None,
    ) -> None:
        """``family``'s observation of ``state`` (None: a spectator's). ``table``: the
        sets and variants of a state made from an observation's fields, which has no
        rules (:func:`rebuilt`), its decision already as this family sees it."""
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
        if table is None:
            rules = state.rules
            sets, variants = rules.sets, rules.variants
            if (
                decision is not None
                and decision.family != family
                and decision.options
                and rules.kinds[decision.kind].private_options
            ):
                # Another family's hand, say: only who is asked, what kind of question,
                # and what it is about (all public at the table).
                decision = decision._replace(options=(), question=None, labels=None)
        else:
            sets, variants = table
        self.family = family
        self.families = state.families
        self.cards = state.cards
        self.sets = sets
        self.variants = variants
        self.direction = state.direction
        self.round = state.round
        self.phase = state.phase
        self.colours = state.identity.colours
        self.queue = state.queue
        self.hand = hand
        self.set_aside = set_aside
        self.own_keys = own
        self.decision = decision
        self.placed = state.placed
        self.walk = state.walk
        acting = state.acting
        self.acting = None if acting == NO_CARD else acting
        self.acting_gone = state.acting_gone
        revealing = state.revealing
        self.revealing = None if revealing == NO_CARD else revealing
        self.log = state.log
        self._first = state.first
        self._up = state.up
        self._tokens = state.tokens
        self._bribes = state.bribes
        self._influence = state.influence
        self._hand_counts = state.hand_counts
        self._set_aside_counts = state.set_aside_counts
        self._reserve = state.reserve
        self._discarded = state.discarded
        self._eliminated = state.eliminated
        self._public = state.public
        self._resume = state.resume
        self._tasks = state.tasks
        self._made = None

    # Reading it.

    def key(self, card: CardId) -> str | None:
        """The key of ``card`` if this family may know it, else None."""
        found = self._public[card]
        if found:
            return found
        own = self.own_keys
        # Compiled, a read-only view's get is a method call; `in` and [] are not.
        return own[card] if card in own else None  # noqa: SIM401

    def knows(self, card: CardId) -> bool:
        return bool(self._public[card]) or card in self.own_keys

    def owner(self, card: CardId) -> str:
        """Who owns ``card`` now (RULINGS R3: a Bribery token's family, if any)."""
        bribes = self._bribes
        return (bribes[card] if bribes else "") or self.colours[card]

    def is_up(self, card: CardId) -> bool:
        return bool(self._up >> card & 1)

    def tokens_on(self, card: CardId) -> int:
        for holder, count in self._tokens:
            if holder == card:
                return count
        return 0

    def top(self, position: int) -> CardId:
        return self.queue[position][-1]

    def tops(self) -> tuple[CardId, ...]:
        return tuple([stack[-1] for stack in self.queue])

    @property
    def first_player(self) -> str:
        return self.families[self._first]

    @property
    def influence(self) -> Mapping[str, int]:
        """Every family's Influence, in seat order."""
        made = self._made
        found: Mapping[str, int] | None = made[_INFLUENCE] if made is not None else None
        if found is None:
            found = self._keep(_INFLUENCE, self._by_family(self._influence))
        return found

    @property
    def reserve(self) -> Mapping[str, tuple[CardId, ...]]:
        made = self._made
        found: _Piles | None = made[_RESERVE] if made is not None else None
        if found is None:
            found = self._keep(_RESERVE, self._by_family(self._reserve))
        return found

    @property
    def discarded(self) -> Mapping[str, tuple[CardId, ...]]:
        made = self._made
        found: _Piles | None = made[_DISCARDED] if made is not None else None
        if found is None:
            found = self._keep(_DISCARDED, self._by_family(self._discarded))
        return found

    @property
    def eliminated(self) -> Mapping[str, tuple[CardId, ...]]:
        made = self._made
        found: _Piles | None = made[_ELIMINATED] if made is not None else None
        if found is None:
            found = self._keep(_ELIMINATED, self._by_family(self._eliminated))
        return found

    @property
    def hand_sizes(self) -> Mapping[str, int]:
        """How many cards each family holds in hand (its own: ``hand`` says which)."""
        made = self._made
        found: Mapping[str, int] | None = made[_HAND_SIZES] if made is not None else None
        if found is None:
            found = self._keep(_HAND_SIZES, self._by_family(self._hand_counts))
        return found

    @property
    def set_aside_sizes(self) -> Mapping[str, int]:
        made = self._made
        found: Mapping[str, int] | None = made[_SET_ASIDE_SIZES] if made is not None else None
        if found is None:
            found = self._keep(_SET_ASIDE_SIZES, self._by_family(self._set_aside_counts))
        return found

    @property
    def tokens(self) -> Mapping[CardId, int]:
        """The cards with tokens on them, and how many."""
        made = self._made
        found: Mapping[CardId, int] | None = made[_TOKENS] if made is not None else None
        if found is None:
            found = self._keep(_TOKENS, MappingProxyType(dict(self._tokens)))
        return found

    @property
    def bribes(self) -> Mapping[CardId, str]:
        """The cards that carry a Bribery token, and whose."""
        made = self._made
        found: Mapping[CardId, str] | None = made[_BRIBES] if made is not None else None
        if found is None:
            bribed = {c: f for c, f in enumerate(self._bribes) if f}
            found = self._keep(_BRIBES, MappingProxyType(bribed))
        return found

    @property
    def public_keys(self) -> Mapping[CardId, str]:
        """The key of every card every family has seen face up."""
        made = self._made
        found: Mapping[CardId, str] | None = made[_PUBLIC_KEYS] if made is not None else None
        if found is None:
            public = {c: key for c, key in enumerate(self._public) if key}
            found = self._keep(_PUBLIC_KEYS, MappingProxyType(public))
        return found

    def _keep(self, at: int, mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
        """Keep ``mapping``, made for place ``at`` of :data:`_MAPS`."""
        made = self._made
        kept: list[Mapping[Any, Any] | None] = (
            list(made) if made is not None else [None] * len(_MAPS)
        )
        kept[at] = mapping
        self._made = tuple(kept)
        return mapping

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
        """Pickled by its fields (a read-only mapping as a dict) and made again from
        them (:func:`rebuilt`): plain data, no rules (whoever reads it has its own)."""
        fields = {name: getattr(self, name) for name in FIELDS}
        fields["variants"] = dict(self.variants)
        fields["own_keys"] = dict(self.own_keys)
        return (rebuilt, (self.log, fields))

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


def rebuilt(log: Log, fields: Mapping[str, Any]) -> Observation:
    """The observation whose fields are ``fields`` (every name of :data:`FIELDS`) and
    whose log is ``log``: an observation read back from its pickle.

    An observation is made from a state (compiled, its class has no other way in): this
    one from a state that shows its family exactly what it was shown, the cards it may
    not know in it as no card (where they are, not what they are), and no rules. A
    field that does not come out as it was given is a ValueError, never an observation
    of something else.
    """
    family, families, identity = _identity(fields)
    tasks = fields["_tasks"]
    if type(tasks) is not tuple:
        raise ValueError("an observation's '_tasks' is not a tuple of continuations")
    state = State()
    state.families = families
    state.seat = {name: seat for seat, name in enumerate(families)}
    state.cards = fields["cards"]
    state.identity = identity
    state.direction = fields["direction"]
    mine = families.index(family) if family is not None else -1
    # Another family's hand and set-aside cards are seen only as how many there are.
    state.set_zone(
        "hands",
        tuple(
            fields["hand"] if seat == mine else (NO_CARD,) * count
            for seat, count in enumerate(fields["_hand_counts"])
        ),
    )
    state.set_zone(
        "set_aside",
        tuple(
            fields["set_aside"] if seat == mine else (NO_CARD,) * count
            for seat, count in enumerate(fields["_set_aside_counts"])
        ),
    )
    state.queue = fields["queue"]
    state.up = fields["_up"]
    state.tokens = fields["_tokens"]
    state.bribes = fields["_bribes"]
    state.influence = fields["_influence"]
    state.reserve = fields["_reserve"]
    state.discarded = fields["_discarded"]
    state.eliminated = fields["_eliminated"]
    state.public = fields["_public"]
    state.round = fields["round"]
    state.phase = fields["phase"]
    state.first = fields["_first"]
    state.placed = fields["placed"]
    state.walk = fields["walk"]
    state.acting = NO_CARD if fields["acting"] is None else fields["acting"]
    state.acting_gone = fields["acting_gone"]
    state.revealing = NO_CARD if fields["revealing"] is None else fields["revealing"]
    state.pending = fields["decision"]
    state.resume, state.tasks = fields["_resume"], tasks
    state.log = log
    variants = MappingProxyType(dict(fields["variants"]))
    observation = Observation(state, family, (fields["sets"], variants))
    for name in FIELDS:
        if getattr(observation, name) != fields[name]:
            raise ValueError(f"an observation's {name!r} does not come back as it was given")
    if not 0 <= observation._first < len(families):
        raise ValueError("an observation's '_first' is not a seat")
    return observation


def _identity(fields: Mapping[str, Any]) -> tuple[str | None, tuple[str, ...], Identity]:
    """The family, the families and the cards (their colours, and the keys the family
    knows, the others none) of an observation's ``fields``; a ValueError if missing or
    not of their types."""
    missing = [name for name in FIELDS if name not in fields]
    if missing:
        raise ValueError(f"an observation's fields lack {', '.join(missing)}")
    family = fields["family"]
    families = fields["families"]
    colours = fields["colours"]
    public = fields["_public"]
    own = fields["own_keys"]
    if type(families) is not tuple or not all(type(name) is str for name in families):
        raise ValueError("an observation's families are not a tuple of names")
    if family is not None and family not in families:
        raise ValueError(f"an observation's family {family!r} is not one of its families")
    for name, value in (("colours", colours), ("_public", public)):
        if type(value) is not tuple or not all(type(item) is str for item in value):
            raise ValueError(f"an observation's {name!r} is not a tuple of str")
    if len(public) != len(colours) or not isinstance(own, Mapping):
        raise ValueError("an observation's keys do not fit its cards")
    keys = [public[card] or own.get(card, "") for card in range(len(colours))]
    return family, families, Identity(colours, keys)
