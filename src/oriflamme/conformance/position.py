"""Setting up a game at a scenario's starting position, and refusing impossible ones.

FORMAT.md: a card may appear in only one place; a position that breaks a rule of the
game (a face-up Intrigue in the queue, tokens on a face-up card, two copies of one
id, a card of a set not in ``sets``) is rejected with a clear error naming its line.
The checked position is handed to the engine as a :class:`~oriflamme.Position`.
"""

from __future__ import annotations

from ..core.cardsets import CardDef, Setup
from ..core.config import GameConfig
from ..core.errors import ConfigError, PositionError
from ..core.game import Game
from ..core.plugins import Registry
from ..core.position import LABEL, Position, QueueCard
from ..core.state import PILES
from .scenario import CardEntry, Scenario


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


def scenario_position(scenario: Scenario, registry: Registry) -> tuple[Position, GameConfig]:
    """The checked starting position of ``scenario``, and its game configuration."""
    doc = scenario.doc
    players = scenario.players
    if not 3 <= len(players) <= 5:
        raise PositionError(
            f"{doc.where('players')}: a game needs 3 to 5 families, not {len(players)} (RULINGS G1)"
        )
    try:
        rules = registry.rules(scenario.sets, scenario.variants)
    except ConfigError as exc:
        raise PositionError(f"{doc.where('sets')}: {exc}") from None
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
    for index, stack in enumerate(scenario.queue):
        for height, entry in enumerate(stack):
            where = ("queue", index, height) if len(stack) > 1 else ("queue", index)
            definition = register(entry.card, *where)
            _check_card(
                entry, definition, doc.where("state", *where), players, "bribery" in definitions
            )
        queue.append(
            tuple(QueueCard(e.card, e.up, e.tokens, e.owner) for e in stack),
        )
    zones: dict[str, dict[str, tuple[str, ...]]] = {}
    for zone in PILES:
        given = state.get(zone) or {}
        zones[zone] = {}
        for family, cards in given.items():
            for i, card in enumerate(cards or ()):
                here = doc.where("state", zone, family, i)
                definition = register(card, zone, family, i)
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
            zones[zone][family] = tuple(cards or ())
    # FORMAT.md: a family's reserve card (the Twin) that appears nowhere waits in its
    # reserve.
    for key, definition in definitions.items():
        if definition.setup is Setup.RESERVE and definition.set in scenario.sets:
            for family in players:
                card = f"{family}.{key}"
                if card not in placed:
                    register(card, "reserve")
                    reserve = zones["reserve"]
                    reserve[family] = (*reserve.get(family, ()), card)
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
    return Game.from_position(position, config, registry=registry)
