"""Whether a state is one the rules allow: checked whenever a state comes from outside.

A saved game and a position set up by hand (a scenario's, a test's) are read from
data anyone may have written. Before such a state is played, :func:`check_state`
checks what every state reached by the rules holds, and names the first thing that
does not: a card in two places or none, a card in another family's zone, negative
Influence, a round that does not exist, a face-up card that cannot be face up,
tokens where none can lie, a question that is not the one the rules would ask...
A state that passes can be played on: nothing in it can send the engine outside the
rules. (Each check is cheap; it runs on loading, never in play.)
"""

from __future__ import annotations

import math
from typing import Any

from .cardsets import Setup
from .decisions import REVEAL_OPTIONS, Continuation, Decision, Placements
from .engine import Engine
from .errors import IllegalAnswer, PositionError
from .identity import NO_CARD
from .state import END, LAST_ROUND, PHASES, PILES, PLACEMENT, RESOLUTION, State

#: The most Influence a family may hold: far above any game (the rules give a few
#: points a turn), low enough that no sum of them is ever a problem.
MAX_INFLUENCE = 10_000
#: The most tokens on one card (one a round, or a few from an ability).
MAX_TOKENS = 100
#: The most continuations waiting at once: abilities nest a few deep.
MAX_TASKS = 100
#: How deep a continuation's arguments may nest, and how many values they may hold.
MAX_ARGUMENT_DEPTH = 8
MAX_ARGUMENT_VALUES = 1_000
#: The largest integer in a continuation's arguments or an option.
MAX_VALUE = 10**9


def check_state(state: State) -> None:
    """Raise :class:`PositionError` naming the first thing in ``state`` the rules forbid."""
    check_position(state)
    _check_control(state)


def check_position(state: State) -> None:
    """The table alone: cards, faces, tokens, Influence, round and phase."""
    _check_cards(state)
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
    for card in range(count):
        if identity.colours[card] not in state.seat:
            raise _fail(f"card {card} is of {identity.colours[card]!r}, not a family of the game")
        if identity.keys[card] not in definitions:
            raise _fail(f"card {card} is a {identity.keys[card]!r}, which no set in play has")
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
                reserve = definitions[identity.keys[card]].setup is Setup.RESERVE
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
                f"{MAX_INFLUENCE} (Influence is never negative)"
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
        if up and not public:
            raise _fail(f"{labels[card]} is face up, yet not known to every family")
    for card, tokens in state.tokens:
        if type(card) is not int or not 0 <= card < count or card not in in_queue:
            raise _fail(f"tokens lie on {card!r}, which is not a card in the queue (R1)")
        if type(tokens) is not int or not 1 <= tokens <= MAX_TOKENS:
            raise _fail(f"{labels[card]} carries {tokens!r} tokens: 1 to {MAX_TOKENS}")
        kept = identity.keys[card] in rules.tokens_kept
        if state.up >> card & 1 and not kept:
            raise _fail(f"{labels[card]} is face up and carries tokens: revealing takes them (R2)")
    if state.bribes:
        if len(state.bribes) != count:
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
            definition = rules.definitions[identity.keys[card]]
            if card not in in_queue or not state.up >> card & 1 or not definition.is_character:
                raise _fail(f"{labels[card]} carries a Bribery token: only a face-up Character can")
    if state.round == 1:
        for index, stack in enumerate(state.queue):
            covered = [labels[card] for card in stack[1:] if not _is_reserve(state, card)]
            if covered:
                raise _fail(
                    f"queue position {index} is a stack in round 1: a family stacks on its "
                    "own card from round 2 on (RULINGS G4)"
                )


def _is_reserve(state: State, card: int) -> bool:
    return state.rules.definitions[state.identity.keys[card]].setup is Setup.RESERVE


def _check_progress(state: State) -> None:
    """Round, phase and the walk within what the rules go through (RULINGS G5, R1)."""
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


def _check_control(state: State) -> None:
    """The question waited on is one the rules can ask here; the work left is sound."""
    decision = state.pending
    if len(state.tasks) > MAX_TASKS:
        raise _fail(f"{len(state.tasks)} tasks wait: at most {MAX_TASKS}")
    for task in state.tasks:
        _check_continuation(state, task)
    if state.resume is not None:
        _check_continuation(state, state.resume)
    if decision is None:
        if state.phase != END:
            raise _fail("no question is asked, yet the game is not over")
        if state.tasks or state.resume is not None:
            raise _fail("the game is over, yet work is waiting")
        return
    if state.phase == END:
        raise _fail("the game is over, yet a question is asked")
    if decision.family not in state.seat:
        raise _fail(f"the question is for {decision.family!r}, not a family of the game")
    if decision.kind not in state.rules.kinds:
        raise _fail(f"the question is of kind {decision.kind!r}, which no plugin provides")
    if decision.kind in ("place", "reveal"):
        if state.tasks or state.resume is not None:
            raise _fail(f"a {decision.kind} question is asked while an ability is at work")
        _check_turn(state, decision)
        return
    if state.phase != RESOLUTION or state.resume is None:
        raise _fail(f"a {decision.kind} question is asked outside an ability's turn")
    if decision.card is not None and not 0 <= decision.card < len(state.identity):
        raise _fail(f"the question is about {decision.card!r}, not a card of this game")
    _check_options(state, decision)


def _check_turn(state: State, decision: Decision) -> None:
    """A placement or a reveal is asked of the family whose turn it is, as the engine would."""
    if decision.kind == "place":
        count = len(state.families)
        seat = (state.first + state.placed) % count
        expected = state.families[seat]
        if state.phase != PLACEMENT or state.placed >= count or decision.family != expected:
            raise _fail(f"{decision.family} is asked to place, but it is not its turn (G4)")
        options = decision.options
        spots = Engine(state, state.rules).spots(expected)
        if (
            not isinstance(options, Placements)
            or decision.card is not None
            or options != Placements(state.hands[seat], spots)
        ):
            raise _fail(f"{expected} is offered other placements than its hand and the queue allow")
        return
    card = decision.card
    queue = state.queue
    if (
        state.phase != RESOLUTION
        or state.walk >= len(queue)
        or card != queue[state.walk][-1]
        or card != state.acting
        or state.up >> card & 1
        or decision.family != state.owner(card)
        or decision.options != REVEAL_OPTIONS
    ):
        raise _fail(
            "a reveal is asked, but not of the owner of the face-down card whose turn it is"
        )


def _check_options(state: State, decision: Decision) -> None:
    """An ability's question has options, and each is an answer its kind accepts."""
    options = decision.options
    if not isinstance(options, tuple) or not options:
        raise _fail(f"the {decision.kind} question has no options: nothing could answer it")
    kind = state.rules.kinds[decision.kind]
    engine = Engine(state, state.rules)
    for option in options:
        check_value(option, f"an option of the {decision.kind} question")
        try:
            kind.check(engine, decision, option)
        except IllegalAnswer:
            raise _fail(
                f"the {decision.kind} question offers {option!r}, which its kind refuses"
            ) from None


def _check_continuation(state: State, task: Continuation) -> None:
    _, name, card, args = task
    if type(card) is not int or not 0 <= card < len(state.identity):
        raise _fail(f"the continuation {name!r} is about {card!r}, not a card of this game")
    check_value(args, f"the arguments of {name!r}")


def check_value(value: Any, what: str) -> None:
    """A JSON value: numbers bounded, nested a few levels, a bounded number of them."""
    seen = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_ARGUMENT_VALUES or depth > MAX_ARGUMENT_DEPTH:
            raise _fail(f"{what} are too big or too deeply nested")
        if isinstance(item, tuple):
            stack.extend((part, depth + 1) for part in item)
        elif type(item) is int:
            if not -MAX_VALUE <= item <= MAX_VALUE:
                raise _fail(f"{what} hold a number out of range")
        elif type(item) is float:
            if not math.isfinite(item):
                raise _fail(f"{what} hold {item}: numbers are finite")
        elif item is not None and type(item) not in (str, bool):
            raise _fail(f"{what} hold a {type(item).__name__}: JSON values only")
