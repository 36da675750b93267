"""Setting up a game at a scenario's starting position, and refusing impossible ones.

docs/scenarios.md: a card may appear in only one place; a position that breaks a rule of the
game (a face-up Intrigue in the queue, tokens on a face-up card, two copies of one
id, a card of a set not in ``sets``) is rejected with a clear error naming its line.
Beyond the format, a state must be reachable by the rules: each refusal below
cites the ruling it follows. The checked position is handed to the engine as a
:class:`~oriflamme.Position`, whose own checks see the whole state once more.
"""

from __future__ import annotations

from collections.abc import Mapping

from oriflamme import (
    PILES,
    CardDef,
    ConfigError,
    Game,
    GameConfig,
    GameRules,
    Position,
    PositionError,
    QueueCard,
    Registry,
    Setup,
)
from oriflamme.saves import LABEL, from_position, state_from_position

from .model import CardEntry, Scenario


def _check_card(
    entry: CardEntry, definition: CardDef, here: str, players: tuple[str, ...], bribery: bool
) -> None:
    """A queue card's face, tokens and Bribery owner must be possible."""
    if entry.up and not definition.is_character:
        raise PositionError(
            f"{here}: {entry.card} cannot be face up in the queue: "
            "an Intrigue is discarded when it is revealed"
        )
    if entry.up and entry.tokens:
        raise PositionError(
            f"{here}: {entry.card} is face up and cannot carry tokens: revealing a card takes them"
        )
    if entry.owner is not None:
        if entry.owner not in players:
            raise PositionError(f"{here}: owner {entry.owner!r} is not one of the players")
        if not bribery:
            raise PositionError(
                f"{here}: {entry.card} has an owner, but no set in play has a Bribery card"
            )
        if not (entry.up and definition.is_character):
            raise PositionError(f"{here}: only a face-up Character can carry a Bribery token")


def _check_stack(
    stack: tuple[CardEntry, ...], definitions: Mapping[str, CardDef], where: list[str], round_: int
) -> None:
    """Each card of a queue entry must have reached its place by the rules."""
    for height, entry in enumerate(stack):
        definition = definitions[_key(entry.card)]
        here = where[height]
        reserve = definition.setup is Setup.RESERVE
        if reserve and not entry.up:
            raise PositionError(
                f"{here}: {entry.card} cannot be face down in the queue: it enters the queue "
                "only face up, put there by its Prince, and a covered card keeps its face "
                "(RULINGS A-Prince, A-Twin, R6)"
            )
        if height and round_ == 1 and not reserve:
            raise PositionError(
                f"{here}: {entry.card} cannot cover another card in round 1: cards are "
                "stacked from round 2 on (RULINGS G4); only a Twin may be put on another "
                "card in round 1, by its Prince (A-Prince)"
            )
        if height and definition.key == "twin" and _key(stack[height - 1].card) == "prince":
            raise PositionError(
                f"{here}: {entry.card} cannot be on top of {stack[height - 1].card}: a Twin "
                "is never put on a Prince (RULINGS A-Prince)"
            )


def _check_pile(card: str, definition: CardDef, zone: str, family: str, here: str) -> None:
    """A card of a hand, a reserve or a pile must be where it can be."""
    if not card.startswith(f"{family}."):
        raise PositionError(
            f"{here}: {card} cannot be in {family}'s {zone.replace('_', ' ')}: every "
            "zone holds the cards of its own family (piles are in front of each "
            "card's original owner)"
        )
    if definition.setup is Setup.RESERVE and zone in ("hands", "set_aside"):
        raise PositionError(
            f"{here}: {card} cannot be in {zone.replace('_', ' ')}: it waits in its "
            "family's reserve (RULINGS G2, A-Twin)"
        )
    if definition.setup is not Setup.RESERVE and zone == "reserve":
        raise PositionError(
            f"{here}: {card} cannot be in {family}'s reserve: only a card that "
            "starts there (the Twin) waits in a reserve (RULINGS G2)"
        )


def _key(card: str) -> str:
    match = LABEL.match(card)
    return match.group(2) if match is not None else ""


def _check_history(
    scenario: Scenario, zones: dict[str, dict[str, tuple[str, ...]]], placed: dict[str, str]
) -> None:
    """What the cards' places say has happened must be possible."""
    state = scenario.state
    entries = [entry for stack in scenario.queue for entry in stack]
    face_down = {entry.card for entry in entries if not entry.up}
    unplayed = {
        card for zone in ("hands", "set_aside") for cs in zones[zone].values() for card in cs
    }
    # With a second copy of a card, which copy did what cannot be told.
    copies = {card.rsplit(".", 1)[0] for card in placed if card.count(".") == 2}
    if state.get("round", 1) == 1 and state.get("phase", "placement") == "placement":
        # RULINGS G2, G4, R1: before round 1's first resolution every card in the queue
        # was placed face down this round, and nothing has left it.
        for entry in entries:
            if entry.up or entry.tokens:
                raise PositionError(
                    f"{placed[entry.card]}: {entry.card} cannot "
                    f"{'be face up' if entry.up else 'carry tokens'} in round 1's placement "
                    "phase: no card has resolved yet (RULINGS G4, R1)"
                )
        for zone in ("discarded", "eliminated"):
            for cards in zones[zone].values():
                if cards:
                    raise PositionError(
                        f"{placed[cards[0]]}: {cards[0]} cannot be {zone} in round 1's "
                        "placement phase: no card has resolved yet (RULINGS G4, R1)"
                    )
    bribed: dict[str, str] = {}
    for entry in entries:
        if entry.owner is None:
            continue
        # RULINGS A-Bribery: each family has one Bribery token, put by playing its
        # Bribery card, which is then discarded.
        if entry.owner in bribed:
            raise PositionError(
                f"{placed[entry.card]}: {entry.owner}'s Bribery token cannot be on "
                f"{entry.card}: it is on {bribed[entry.owner]}, and a family has one "
                "Bribery token (RULINGS A-Bribery)"
            )
        bribed[entry.owner] = entry.card
        card = f"{entry.owner}.bribery"
        if card not in copies and (card in unplayed or card in face_down):
            raise PositionError(
                f"{placed[card]}: {card} cannot be unplayed while {entry.owner}'s Bribery "
                f"token is on {entry.card}: the token is put by playing it (RULINGS A-Bribery)"
            )


def _rules(scenario: Scenario, registry: Registry) -> GameRules:
    doc = scenario.doc
    if not 3 <= len(scenario.players) <= 5:
        raise PositionError(
            f"{doc.where('players')}: a game needs 3 to 5 families, "
            f"not {len(scenario.players)} (RULINGS G1)"
        )
    try:
        registry.rules(scenario.sets, {})
    except ConfigError as exc:
        raise PositionError(f"{doc.where('sets')}: {exc}") from None
    try:
        return registry.rules(scenario.sets, scenario.variants)
    except ConfigError as exc:
        raise PositionError(f"{doc.where('variants')}: {exc}") from None


def scenario_position(scenario: Scenario, registry: Registry) -> tuple[Position, GameConfig]:
    """The checked starting position of ``scenario``, and its game configuration."""
    doc = scenario.doc
    players = scenario.players
    rules = _rules(scenario, registry)
    definitions = rules.definitions
    state = scenario.state
    placed: dict[str, str] = {}

    def register(card: str, *where: str | int) -> CardDef:
        here = doc.where("state", *where)
        if card in placed:
            raise PositionError(
                f"{here}: {card} is already at {placed[card]}: a card may appear in only one place"
            )
        match = LABEL.match(card)
        if match is None:
            raise PositionError(f"{here}: {card!r} is not a card id like 'red.soldier'")
        family, key = match.group(1), match.group(2)
        if family not in players:
            raise PositionError(f"{here}: {card} belongs to {family!r}, not one of the players")
        if key not in definitions:
            raise PositionError(
                f"{here}: {card}: no card {key!r} in the sets {', '.join(scenario.sets)}"
            )
        placed[card] = here
        return definitions[key]

    queue = []
    round_ = state.get("round", 1)
    for index, stack in enumerate(scenario.queue):
        lines = []
        for height, entry in enumerate(stack):
            where = ("queue", index, height) if len(stack) > 1 else ("queue", index)
            definition = register(entry.card, *where)
            lines.append(doc.where("state", *where))
            _check_card(entry, definition, lines[-1], players, "bribery" in definitions)
        _check_stack(stack, definitions, lines, round_)
        queue.append(tuple(QueueCard(e.card, e.up, e.tokens, e.owner) for e in stack))
    zones: dict[str, dict[str, tuple[str, ...]]] = {}
    for zone in PILES:
        given = state.get(zone) or {}
        zones[zone] = {}
        for family, cards in given.items():
            for i, card in enumerate(cards or ()):
                here = doc.where("state", zone, family, i)
                definition = register(card, zone, family, i)
                _check_pile(card, definition, zone, family, here)
            zones[zone][family] = tuple(cards or ())
    # docs/scenarios.md: a family's reserve card (the Twin) that appears nowhere waits in its
    # reserve.
    for key, definition in definitions.items():
        if definition.setup is Setup.RESERVE and definition.set in scenario.sets:
            for family in players:
                card = f"{family}.{key}"
                if card not in placed:
                    register(card, "reserve")
                    reserve = zones["reserve"]
                    reserve[family] = (*reserve.get(family, ()), card)
    _check_history(scenario, zones, placed)
    first = state.get("first_player", players[0])
    config = GameConfig(
        families=players, sets=scenario.sets, first_player=first, variants=scenario.variants
    )
    position = Position(
        queue=tuple(queue),
        influence=dict(state.get("influence") or {}),
        round=state.get("round", 1),
        phase=state.get("phase", "placement"),
        resolving=state.get("resolving", 0),
        hands=zones["hands"],
        set_aside=zones["set_aside"],
        reserve=zones["reserve"],
        discarded=zones["discarded"],
        eliminated=zones["eliminated"],
    )
    return position, config


def build_game(scenario: Scenario, registry: Registry) -> Game:
    """The game at ``scenario``'s starting position, advanced to its first decision."""
    position, config = scenario_position(scenario, registry)
    return from_position(position, config, registry=registry)


def checked_position(scenario: Scenario, registry: Registry) -> tuple[Position, GameConfig]:
    """What :func:`build_game` checks, without the game: ``scenario``'s starting
    position and configuration, refused as :func:`build_game` would refuse them.

    This is what another engine is handed, so that a scenario whose position is
    impossible is reported alike whichever engine runs it.
    """
    position, config = scenario_position(scenario, registry)
    keys = tuple(label.split(".")[1] for label in position.cards())
    rules = registry.rules(config.sets, dict(config.variants), extra=keys)
    cards = registry.set_cards(config.sets)
    state_from_position(position, rules, config, cards=cards, recording=False)
    return position, config
