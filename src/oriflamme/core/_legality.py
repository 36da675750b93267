"""Whether a state is one the rules allow: checked whenever a state comes from outside.

A saved game and a position set up by hand (a scenario's, a test's) are read from
data anyone may have written (by :mod:`oriflamme.saves`, which adds the question and
the work waiting, its own ``_control``); and what a save writes is held to the same
table, so that nothing written is refused when read. Before such a state is played,
it is checked against what every state reached by the rules holds, derived from the
game's card list and the rules (never from what the data says of itself), and the
first thing that does not hold is named: a card in two places or none, a card in
another family's zone, a family holding another copy of a key than its card list,
negative Influence, a round that does not exist, a hand of other than the cards the
placements left, a face-up card that cannot be face up, tokens or a Bribery token where
none can lie... A state that passes can be played on: nothing in it can send the engine
outside the rules. (Each check is cheap; it runs on loading and saving, never in
play.)

Two depths, for two kinds of state:

* :func:`check_position`: any table, a partial one too. A scenario sets up only what
  it needs (its hands, set-aside cards and queue are free: docs/scenarios.md), so what is
  checked is what no card anywhere can change: where each card is, faces, tokens,
  Bribery tokens, no more cards of a key or in a hand than the list and the round
  leave.
* ``check_position(state, whole=True)``: a whole game, as a save holds it: the
  position and the deal (each family holds exactly the card list, in its block of ids;
  every hand exactly the cards the placements left it). A save read is then checked
  for its question and its work waiting (``oriflamme.saves.check_state``).

Bounds, beyond those of the rules themselves (:mod:`.bounds`):

* Influence: 0 to :data:`~.bounds.MAX_INFLUENCE` (10,000) per family;
* tokens: 1 to :data:`~.bounds.MAX_TOKENS` (100) on a card;

The question waited on and the work waiting are checked by ``oriflamme.saves``'
``_control``, with its own bounds.
"""

from __future__ import annotations

import itertools
from collections import Counter

from ._bounds import MAX_INFLUENCE, MAX_TOKENS
from ._cardsets import Setup
from ._deal import HAND_SIZE
from ._errors import PositionError
from ._identity import NO_CARD
from ._state import END, LAST_ROUND, PHASES, PILES, PLACEMENT, RESOLUTION, State

# The table's bounds are read from here as well as from .bounds.
__all__ = [
    "BRIBERY",
    "MAX_INFLUENCE",
    "MAX_TOKENS",
    "SHOWN",
    "TAKES_SET_ASIDE",
    "check_position",
]

#: The zones whose cards every family has seen: the reserves (RULINGS G2: the Twin
#: waits face up) and the piles (R5: a card is turned face up as it leaves).
SHOWN = ("reserve", "discarded", "eliminated")

#: The cards whose ability takes a card of its family's set-aside pile (RULINGS
#: A-Impersonation: "taken from your discarded, eliminated or set-aside cards"). With
#: none in the card list, the set-aside pile stays as it was dealt all game.
TAKES_SET_ASIDE = frozenset({"impersonation"})

#: The card that puts its family's Bribery token, and is then discarded (RULINGS
#: A-Bribery): a family's token lies on no more cards than it has played Briberies.
BRIBERY = "bribery"


def check_position(state: State, *, whole: bool = False) -> None:
    """The table alone: cards, hands, faces, tokens, Bribery tokens, Influence, round
    and phase. A position set up by hand (``whole=False``) holds only the cards it
    needs; a ``whole`` game holds its card list as dealt (see :func:`_check_deal`)."""
    _check_cards(state)
    if whole:
        _check_deal(state)
    _check_hands(state, whole=whole)
    _check_faces(state)
    _check_untouched(state)
    _check_progress(state)


def _check_deal(state: State) -> None:
    """What a whole game holds beyond a position: the card list as the rules make one,
    and each family holding it exactly, in its block of ids as dealt."""
    _check_list(state)
    _check_blocks(state)


def _fail(message: str) -> PositionError:
    return PositionError(message)


def _check_cards(state: State) -> None:
    """Every card in exactly one place, its own family's when in a zone (RULINGS G1)."""
    identity = state.identity
    labels = identity.labels
    count = len(identity)
    families = state.families
    if not 3 <= len(families) <= 5:
        raise _fail(f"a game has 3 to 5 families, not {len(families)} (RULINGS G1)")
    definitions = state.rules.definitions
    listed = {key for key in state.cards if key in definitions}
    for card in range(count):
        if identity.colours[card] not in state.seat:
            raise _fail(f"card {card} is of {identity.colours[card]!r}, not a family of the game")
        if identity.keys[card] not in listed:
            raise _fail(f"card {card} is a {identity.keys[card]!r}, not a card of the list (G1)")
    where: dict[int, str] = {}

    def place(card: object, here: str) -> None:
        if type(card) is not int or not 0 <= card < count:
            raise _fail(f"{here} holds {card!r}, not a card of this game (0 to {count - 1})")
        if card in where:
            raise _fail(f"{labels[card]} is in {where[card]} and in {here}: a card is in one place")
        where[card] = here

    for index, stack in enumerate(state.queue):
        if not stack:
            raise _fail(f"queue position {index} is empty: a position holds at least one card")
        for card in stack:
            place(card, f"queue position {index}")
    for zone in PILES:
        for seat, cards in enumerate(state.zone(zone)):
            family = families[seat]
            for card in cards:
                place(card, f"{family}'s {zone.replace('_', ' ')}")
                if identity.colours[card] != family:
                    raise _fail(
                        f"{labels[card]} is in {family}'s {zone.replace('_', ' ')}: every "
                        "zone holds its own family's cards"
                    )
                reserve = _is_reserve(state, card)
                if zone == "reserve" and not reserve:
                    raise _fail(f"{labels[card]} is in a reserve, which holds only a Twin (G2)")
                if zone in ("hands", "set_aside") and reserve:
                    raise _fail(f"{labels[card]} waits in its reserve, never in a hand (A-Twin)")
    missing = [labels[card] for card in range(count) if card not in where]
    if missing:
        raise _fail(f"{', '.join(missing[:5])} is nowhere: every card is in one place")
    # RULINGS G1: each family holds one copy of every card of the list; so no family
    # holds a key more often than the list names it (a position may hold fewer).
    copies = Counter(state.cards)
    held = Counter(zip(identity.colours, identity.keys, strict=True))
    for (family, key), number in held.items():
        if number > copies[key]:
            raise _fail(
                f"{family} holds {_copies(number, key)}, and the card list "
                f"{_copies(copies[key], key, listed=True)}: each family holds one copy of "
                "every card of the list (RULINGS G1)"
            )
    for seat, influence in enumerate(state.influence):
        if type(influence) is not int or not 0 <= influence <= MAX_INFLUENCE:
            raise _fail(
                f"{families[seat]}'s Influence is {influence!r}: a whole number from 0 to "
                f"{MAX_INFLUENCE} (Influence is never negative, RULINGS G7)"
            )


def _check_hands(state: State, *, whole: bool) -> None:
    """Every hand holds the cards the placements left it: 7 dealt (RULINGS G2), a card
    leaves only by being placed, one each round (G4), and none comes back. Every
    set-aside pile holds what the deal set aside (G2: all cards but 7), unless a card of
    the list takes from it (:data:`TAKES_SET_ASIDE`); none comes back. A position set
    up by hand may hold fewer: it shows only the cards it needs."""
    families = state.families
    for seat, hand in enumerate(state.hands):
        size = max(_hand_size(state, seat), 0)
        if len(hand) > size or (whole and len(hand) != size):
            held = f"{families[seat]} holds {len(hand)} cards in round {state.round} {state.phase}"
            raise _fail(
                f"{held}: {'it holds' if whole else 'at most'} {size}, 7 dealt (RULINGS G2) "
                "less one for each placement turn it has had (G4)"
            )
    dealt = _set_aside_dealt(state)
    exact = whole and TAKES_SET_ASIDE.isdisjoint(state.cards)
    for seat, cards in enumerate(state.set_aside):
        if len(cards) > dealt or (exact and len(cards) != dealt):
            # Only an Impersonation takes a set-aside card (A-Impersonation).
            taken = "no card of the list takes one" if exact else "none comes back"
            raise _fail(
                f"{families[seat]} has {len(cards)} cards set aside: the deal sets aside "
                f"{dealt}, all of the list's {dealt + HAND_SIZE} shuffled cards but 7 "
                f"(RULINGS G2), and {taken}"
            )


def _hand_size(state: State, seat: int) -> int:
    """The cards left in a hand: 7 dealt (RULINGS G2), less one for each placement turn
    the family has had, every round (G4, and G5: one card is left at the end)."""
    count = len(state.families)
    placed = state.phase != PLACEMENT or (seat - state.first) % count < state.placed
    return HAND_SIZE - (state.round - 1) - (1 if placed else 0)


def _set_aside_dealt(state: State) -> int:
    """The cards each family set aside at the deal: its shuffled cards but 7 (G2)."""
    definitions = state.rules.definitions
    shuffled = sum(
        1 for key in state.cards if key in definitions and definitions[key].setup is Setup.SHUFFLED
    )
    return max(shuffled - HAND_SIZE, 0)


def _check_list(state: State) -> None:
    """The card list is one the rules make (RULINGS G1, G2): cards of the sets in
    play, at least 7 to deal, and a reserve card exactly when the card it needs is
    listed (A-Twin)."""
    definitions = state.rules.definitions
    listed = set(state.cards)
    for key in state.cards:
        if key not in definitions:
            raise _fail(f"the card list names {key!r}, which no set in play provides (G1)")
        needed = definitions[key].requires
        if needed is not None and needed not in listed:
            raise _fail(f"the card list holds {key!r} without {needed!r}, which it needs")
    for key, definition in definitions.items():
        partner = definition.requires
        if definition.setup is Setup.RESERVE and partner in listed and key not in listed:
            raise _fail(
                f"the card list holds {partner!r} without {key!r}, which joins it in "
                "every family's reserve (RULINGS G2, A-Twin)"
            )
    shuffled = sum(1 for key in state.cards if definitions[key].setup is Setup.SHUFFLED)
    if shuffled < HAND_SIZE:
        raise _fail(
            f"the card list has {shuffled} cards to shuffle: a hand is dealt {HAND_SIZE} "
            "(RULINGS G2)"
        )


def _check_blocks(state: State) -> None:
    """Each family holds the card list exactly, in its block of ids: the deal hands
    ids out family by family, in seat order, the list's length each (see .deal)."""
    identity = state.identity
    size = len(state.cards)
    families = state.families
    if len(identity) != size * len(families):
        raise _fail(
            f"the game has {len(identity)} cards: each of its {len(families)} families "
            f"holds the {size} cards of the list, {size * len(families)} in all (RULINGS G1)"
        )
    wanted = Counter(state.cards)
    for seat, family in enumerate(families):
        block = range(seat * size, (seat + 1) * size)
        for card in block:
            if identity.colours[card] != family:
                raise _fail(
                    f"card {card} is {identity.colours[card]}'s, among {family}'s ids: "
                    "ids are dealt family by family, in seat order"
                )
        held = Counter(identity.keys[card] for card in block)
        for key in sorted(wanted.keys() | held.keys()):
            if held[key] != wanted[key]:
                raise _fail(
                    f"{family} holds {_copies(held[key], key)}, and the card list "
                    f"{_copies(wanted[key], key, listed=True)}: each family holds one copy "
                    "of every card of the list, as dealt (RULINGS G1, G2)"
                )


def _copies(number: int, key: str, *, listed: bool = False) -> str:
    """``number`` copies of ``key`` in words: "2 'ambush' cards", "names no 'archer'"."""
    count = "no" if number == 0 else str(number)
    return f"{'names ' if listed else ''}{count} {key!r}{' cards' if number > 1 else ''}"


def _check_faces(state: State) -> None:
    """Faces, tokens, Bribery tokens and public keys where the rules can put them."""
    identity = state.identity
    labels = identity.labels
    count = len(identity)
    rules = state.rules
    in_queue = {card for stack in state.queue for card in stack}
    if state.up < 0 or state.up >> count:
        raise _fail("a face-up card is not a card of this game")
    shown = {c for zone in SHOWN for cards in state.zone(zone) for c in cards}
    for card in range(count):
        up = bool(state.up >> card & 1)
        definition = rules.definitions[identity.keys[card]]
        if up and card not in in_queue:
            raise _fail(f"{labels[card]} is face up outside the queue: faces are the queue's")
        # An Intrigue is discarded once its ability is done: face up, it is acting.
        if up and not definition.is_character and card != state.acting:
            raise _fail(f"{labels[card]} is a face-up Intrigue that is not resolving (R2)")
        if card in in_queue and not up and definition.setup is Setup.RESERVE:
            raise _fail(f"{labels[card]} is face down: a Twin enters the queue face up (A-Prince)")
        public = state.public[card]
        if public not in ("", identity.keys[card]):
            raise _fail(f"{labels[card]} is shown as a {public!r}")
        if bool(public) != (up or card in shown):
            raise _fail(
                f"{labels[card]} is {'known' if public else 'unknown'} to every family, yet "
                f"{'shown' if up or card in shown else 'never shown'}: a key is public once "
                "its card has been face up (R2, R5)"
            )
    for card, tokens in state.tokens:
        if type(card) is not int or not 0 <= card < count or card not in in_queue:
            raise _fail(f"tokens lie on {card!r}, which is not a card in the queue (R1)")
        if type(tokens) is not int or not 1 <= tokens <= MAX_TOKENS:
            raise _fail(f"{labels[card]} carries {tokens!r} tokens: 1 to {MAX_TOKENS}")
        kept = identity.keys[card] in rules.tokens_kept
        if state.up >> card & 1 and not kept:
            raise _fail(f"{labels[card]} is face up and carries tokens: revealing takes them (R2)")
    _check_bribes(state, in_queue)
    for index, stack in enumerate(state.queue):
        if state.round == 1 and any(not _is_reserve(state, card) for card in stack[1:]):
            raise _fail(
                f"queue position {index} is a stack in round 1: a family stacks on its "
                "own card from round 2 on (RULINGS G4)"
            )
        for under, over in itertools.pairwise(stack):
            if _is_reserve(state, over) and identity.keys[under] == _partner(state, over):
                raise _fail(f"{labels[over]} is on {labels[under]}: never on a Prince (A-Prince)")


def _check_bribes(state: State, in_queue: set[int]) -> None:
    """RULINGS A-Bribery: a family's token is put by playing its Bribery (then
    discarded) on a face-up Character; it goes when the card leaves the queue."""
    if not state.bribes:
        return
    identity = state.identity
    labels = identity.labels
    if len(state.bribes) != len(identity):
        raise _fail("the Bribery tokens do not match the cards of the game")
    tokens: dict[str, list[int]] = {}
    for card, family in enumerate(state.bribes):
        if not family:
            continue
        if family not in state.seat:
            raise _fail(f"{labels[card]} carries the Bribery token of {family!r}")
        tokens.setdefault(family, []).append(card)
        definition = state.rules.definitions[identity.keys[card]]
        if card not in in_queue or not state.up >> card & 1 or not definition.is_character:
            raise _fail(
                f"{labels[card]} carries a Bribery token: only a face-up Character in the "
                "queue can (RULINGS A-Bribery)"
            )
    for family, bribed in sorted(tokens.items()):
        played, unplayed = _briberies(state, family)
        if len(bribed) > played:
            where = f" ({', '.join(unplayed)})" if unplayed else ""
            raise _fail(
                f"{family}'s Bribery token is on {', '.join(labels[c] for c in bribed)}, yet "
                f"{family} has played {played or 'no'} Bribery{where}: the token is put by "
                "playing the Bribery, which is then discarded (RULINGS A-Bribery)"
            )


def _briberies(state: State, family: str) -> tuple[int, list[str]]:
    """How many Briberies ``family`` may have played, and where its unplayed ones are.

    A played Bribery is discarded at once (A-Bribery), and nothing takes an Intrigue
    back out of a discard pile; one in a hand, set aside, in the queue or eliminated
    (a face-down card eliminated is not played, R5) has not been played. A copy the
    position does not show (a scenario sets up only what it needs) may have been."""
    identity = state.identity
    seat = state.seat[family]
    places = {card: "in the queue" for stack in state.queue for card in stack}
    for zone, words in (("hands", "in hand"), ("set_aside", "set aside")):
        places.update(dict.fromkeys(state.zone(zone)[seat], words))
    places.update(dict.fromkeys(state.eliminated[seat], "eliminated"))
    unplayed = [
        f"{identity.labels[card]} is {places[card]}"
        for card in range(len(identity))
        if identity.colours[card] == family and identity.keys[card] == BRIBERY and card in places
    ]
    return Counter(state.cards)[BRIBERY] - len(unplayed), unplayed


def _check_untouched(state: State) -> None:
    """RULINGS G4, R1: before round 1's resolution no card has resolved, so none is face
    up, carries a token, or has left the queue."""
    if state.round != 1 or state.phase != PLACEMENT:
        return
    labels = state.identity.labels
    ups = [card for card in range(len(labels)) if state.up >> card & 1]
    tokens = [card for card, _ in state.tokens]
    gone = [card for zone in ("discarded", "eliminated") for cs in state.zone(zone) for card in cs]
    for cards, what in ((ups, "is face up"), (tokens, "carries tokens"), (gone, "left the queue")):
        if cards:
            raise _fail(
                f"{labels[cards[0]]} {what} in round 1's placement phase: no card has "
                "resolved yet (RULINGS G4, R1)"
            )


def _is_reserve(state: State, card: int) -> bool:
    return state.rules.definitions[state.identity.keys[card]].setup is Setup.RESERVE


def _partner(state: State, card: int) -> str | None:
    """The card a reserve card needs in the card list (the Twin's Prince)."""
    return state.rules.definitions[state.identity.keys[card]].requires


def _check_progress(state: State) -> None:
    """Round, phase and the walk within what the rules go through (RULINGS G4, G5, R1)."""
    count = len(state.families)
    if type(state.round) is not int or not 1 <= state.round <= LAST_ROUND:
        raise _fail(f"round {state.round!r} does not exist: a game has rounds 1 to {LAST_ROUND}")
    if state.phase not in PHASES:
        raise _fail(f"phase {state.phase!r} is not one of {', '.join(PHASES)}")
    if state.phase == END and state.round != LAST_ROUND:
        raise _fail(f"the game cannot be over in round {state.round} (RULINGS G5)")
    if type(state.first) is not int or not 0 <= state.first < count:
        raise _fail(f"the First Player's seat {state.first!r} is not a seat (0 to {count - 1})")
    if type(state.placed) is not int or not 0 <= state.placed <= count:
        raise _fail(f"{state.placed!r} families placed: 0 to {count}")
    if state.phase != PLACEMENT and state.placed != count:
        raise _fail(f"{state.placed} of {count} families placed, yet the placement phase is over")
    walk, length = state.walk, len(state.queue)
    if type(walk) is not int or not 0 <= walk <= length:
        raise _fail(f"the walk is at {walk!r}: the queue has positions 0 to {length - 1}")
    cards = len(state.identity)
    for name in ("acting", "revealing"):
        card = getattr(state, name)
        if type(card) is not int or not (card == NO_CARD or 0 <= card < cards):
            raise _fail(f"the {name} card {card!r} is not a card of this game")
    if state.revealing not in (NO_CARD, state.acting):
        raise _fail("the card being revealed is not the acting card")
    if (state.phase != RESOLUTION and state.acting != NO_CARD) or (
        state.phase == PLACEMENT and walk
    ):
        raise _fail(f"a card acts in the {state.phase} phase: cards act in resolution (R1)")
    if state.acting != NO_CARD and not state.acting_gone and walk >= length:
        raise _fail("a card acts at a position past the end of the queue (R8)")
