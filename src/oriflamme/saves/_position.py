"""A state set up at a :class:`~oriflamme.Position` (cards by label): a conformance
scenario's starting position, a test's. A position comes from outside: it is checked
for what it must hold to be read at all, then against the rules (core's
``check_position``), before anything is played on it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..core._config import GameConfig
from ..core._errors import PositionError
from ..core._identity import NO_CARD, CardId, Identity
from ..core._legality import check_position
from ..core._position import LABEL, Position
from ..core._rules import GameRules
from ..core._state import PILES, PLACEMENT, RESOLUTION, State


def state_from_position(
    position: Position,
    rules: GameRules,
    config: GameConfig,
    *,
    cards: tuple[str, ...],
    recording: bool = True,
) -> State:
    """A state at ``position``, before anything is asked.

    It checks what a position must hold to be read at all (labels of the game's
    families and keys, each card in one place, a zone holding its own family's
    cards), then the table against the rules (core's ``check_position``);
    a scenario's own checks name the line (:mod:`oriflamme.conformance.position`).
    """
    families = config.families
    for name in (*PILES, "influence"):
        strangers = set(getattr(position, name)) - set(families)
        if strangers:
            raise PositionError(
                f"{name} names {', '.join(sorted(strangers))}: the families are "
                f"{', '.join(families)}"
            )
    labels = position.cards()
    seen: set[str] = set()
    parsed: list[tuple[str, str, int, str]] = []
    for label in labels:
        if label in seen:
            raise PositionError(f"{label} is in two places: a card may appear in only one")
        seen.add(label)
        match = LABEL.match(label)
        if match is None:
            raise PositionError(f"{label!r} is not a card label like 'red.soldier'")
        family, key, copy = match.group(1), match.group(2), int(match.group(3) or 1)
        if family not in families:
            raise PositionError(f"{label} belongs to {family!r}, not one of the families")
        if key not in rules.definitions:
            raise PositionError(f"{label}: no card {key!r} in the sets {', '.join(rules.sets)}")
        parsed.append((family, key, copy, label))
    parsed.sort(key=lambda entry: (families.index(entry[0]), entry[1], entry[2]))
    ids = {label: card for card, (_, _, _, label) in enumerate(parsed)}
    identity = Identity([p[0] for p in parsed], [p[1] for p in parsed])
    state = State.empty(
        rules,
        config,
        identity,
        cards=_with_copies(cards, parsed),
        direction=config.direction or "rightward",
        recording=recording,
    )
    public: dict[CardId, str] = {}
    tokens, bribes = _lay_queue(state, position, ids, public)
    for name in PILES:
        zone: dict[str, tuple[CardId, ...]] = {}
        for family, cards_in_zone in position.zone(name).items():
            for label in cards_in_zone:
                if identity.colours[ids[label]] != family:
                    raise PositionError(
                        f"{label} cannot be in {family}'s {name.replace('_', ' ')}: every "
                        "zone holds its own family's cards"
                    )
            zone[family] = tuple(ids[label] for label in cards_in_zone)
            if name not in ("hands", "set_aside"):
                public.update({ids[label]: identity.keys[ids[label]] for label in cards_in_zone})
        state.set_zone(name, state.by_seat(zone, ()))
    state.set_cards(tokens, bribes, public)
    state.influence = state.by_seat(position.influence, 1)
    state.round = position.round
    state.phase = position.phase
    state.first = families.index(config.first_player or families[0])
    # Past the placement phase every family has had its turn to place (G4).
    state.placed = len(families) if position.phase != PLACEMENT else 0
    state.walk = position.resolving if position.phase == RESOLUTION else 0
    state.acting = NO_CARD
    check_position(state)
    return state


def _with_copies(
    cards: tuple[str, ...], parsed: list[tuple[str, str, int, str]]
) -> tuple[str, ...]:
    """The card list ``cards``, repeating a key as often as a family of the position
    holds it (``red.queen.2``: a list that repeats the Queen, docs/scenarios.md). Every family
    holds one copy of every card of the list (RULINGS G1), so the list is what the
    families' cards, and a search's guesses at them, are counted against."""
    held = Counter((family, key) for family, key, _, _ in parsed)
    most: Counter[str] = Counter()
    for (_, key), number in held.items():
        most[key] = max(most[key], number)
    listed = Counter(cards)
    left = listed.copy()
    found: list[str] = []
    for key in cards:
        found.append(key)
        left[key] -= 1
        if left[key] == 0:  # after the list's last copy of the key, the position's others
            found.extend([key] * (most[key] - listed[key]))
    return tuple(found)


def _lay_queue(
    state: State, position: Position, ids: Mapping[str, CardId], public: dict[CardId, str]
) -> tuple[dict[CardId, int], dict[CardId, str]]:
    """The queue of ``position`` on ``state``, and its cards' tokens and Bribery tokens."""
    tokens: dict[CardId, int] = {}
    bribes: dict[CardId, str] = {}
    queue = []
    for stack in position.queue:
        queue.append(tuple(ids[entry.card] for entry in stack))
        for entry in stack:
            card = ids[entry.card]
            if entry.up:
                state.up |= 1 << card
                public[card] = state.identity.keys[card]
            if entry.tokens:
                tokens[card] = entry.tokens
            if entry.owner is not None:
                bribes[card] = entry.owner
    state.queue = tuple(queue)
    return tokens, bribes
