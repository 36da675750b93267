"""Whether a state is one the rules allow: checked whenever a state comes from outside.

A saved game and a position set up by hand (a scenario's, a test's) are read from
data anyone may have written. Before such a state is played, :func:`check_state`
checks what every state reached by the rules holds, and names the first thing that
does not: a card in two places or none, a card in another family's zone, negative
Influence, a round that does not exist, a hand bigger than the round allows, a
face-up card that cannot be face up, tokens where none can lie, a question that is
not the one the rules would ask, work waiting that no ability left...
A state that passes can be played on: nothing in it can send the engine outside the
rules. (Each check is cheap; it runs on loading, never in play.)

Bounds, beyond those of the rules themselves (:mod:`.bounds`):

* Influence: 0 to :data:`~.bounds.MAX_INFLUENCE` (10,000) per family;
* tokens: 1 to :data:`~.bounds.MAX_TOKENS` (100) on a card;

The question waited on and the work waiting are checked by :mod:`.control`, with
its own bounds.
"""

from __future__ import annotations

import itertools

from .bounds import MAX_INFLUENCE, MAX_TOKENS
from .cardsets import Setup
from .control import check_control
from .deal import HAND_SIZE
from .errors import PositionError
from .identity import NO_CARD
from .state import END, LAST_ROUND, PHASES, PILES, PLACEMENT, RESOLUTION, State

# The table's bounds are read from here as well as from .bounds.
__all__ = ["MAX_INFLUENCE", "MAX_TOKENS", "SHOWN", "check_position", "check_state"]

#: The zones whose cards every family has seen: the reserves (RULINGS G2: the Twin
#: waits face up) and the piles (R5: a card is turned face up as it leaves).
SHOWN = ("reserve", "discarded", "eliminated")


def check_state(state: State) -> None:
    """Raise :class:`PositionError` naming the first thing in ``state`` the rules forbid."""
    check_position(state)
    check_control(state)


def check_position(state: State) -> None:
    """The table alone: cards, hands, faces, tokens, Influence, round and phase."""
    _check_cards(state)
    _check_hands(state)
    _check_faces(state)
    _check_progress(state)


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
    for seat, influence in enumerate(state.influence):
        if type(influence) is not int or not 0 <= influence <= MAX_INFLUENCE:
            raise _fail(
                f"{families[seat]}'s Influence is {influence!r}: a whole number from 0 to "
                f"{MAX_INFLUENCE} (Influence is never negative, RULINGS G7)"
            )


def _check_hands(state: State) -> None:
    """No hand holds more than the round leaves it: 7 dealt (RULINGS G2), one placed
    each round (G4), and nothing ever comes back to a hand."""
    count = len(state.families)
    for seat, hand in enumerate(state.hands):
        placed = state.phase != PLACEMENT or (seat - state.first) % count < state.placed
        most = HAND_SIZE - state.round + (0 if placed else 1)
        if len(hand) > max(most, 0):
            raise _fail(
                f"{state.families[seat]} holds {len(hand)} cards in round {state.round} "
                f"({state.phase}): at most {max(most, 0)}, one being placed each round (G2, G4)"
            )


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
    if not state.bribes:
        return
    labels = state.identity.labels
    if len(state.bribes) != len(state.identity):
        raise _fail("the Bribery tokens do not match the cards of the game")
    bribed: set[str] = set()
    for card, family in enumerate(state.bribes):
        if not family:
            continue
        if family not in state.seat:
            raise _fail(f"{labels[card]} carries the Bribery token of {family!r}")
        if family in bribed:
            raise _fail(f"{family}'s Bribery token is on two cards (A-Bribery)")
        bribed.add(family)
        definition = state.rules.definitions[state.identity.keys[card]]
        if card not in in_queue or not state.up >> card & 1 or not definition.is_character:
            raise _fail(f"{labels[card]} carries a Bribery token: only a face-up Character can")


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
