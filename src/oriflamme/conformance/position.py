"""Setting up a game at a scenario's starting position, and refusing impossible ones.

FORMAT.md: a card may appear in only one place; a position that breaks a rule of
the game (a face-up Intrigue in the queue, tokens on a face-up card, two copies
of one id, a card of a set not in ``sets``) is rejected with a clear error.
"""

from __future__ import annotations

from ..core.cardsets import Setup
from ..core.config import GameConfig
from ..core.errors import ConfigError, PositionError
from ..core.game import Game
from ..core.plugins import Registry
from ..core.state import PILES
from .scenario import CARD_ID, CardEntry, Scenario


def _lay(game: Game, entry: CardEntry, here: str, players: tuple[str, ...]) -> None:
    """Give a queue card its face, tokens and Bribery owner, refusing impossible ones."""
    definition = game.rules.definitions[game.key_of[entry.card]]
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
        if "bribery" not in game.rules.definitions:
            raise PositionError(
                f"{here}: {entry.card} has an owner, but no set in play has a Bribery card"
            )
        if not (entry.up and definition.is_character):
            raise PositionError(f"{here}: only a face-up Character can carry a Bribery token")
        game.bribes[entry.card] = entry.owner
    if entry.up:
        game.up.add(entry.card)
    if entry.tokens:
        game.tokens[entry.card] = entry.tokens


def build_game(scenario: Scenario, registry: Registry) -> Game:
    """The game at ``scenario``'s starting position, advanced to its first decision."""
    doc = scenario.doc
    players = scenario.players
    if not 3 <= len(players) <= 5:
        raise PositionError(
            f"{doc.where('players')}: a game needs 3 to 5 families, not {len(players)} (RULINGS G1)"
        )
    try:
        rules = registry.rules(registry.set_cards(scenario.sets), scenario.sets, scenario.variants)
    except ConfigError as exc:
        raise PositionError(f"{doc.where('sets')}: {exc}") from None
    state = scenario.state
    config = GameConfig(
        families=players,
        sets=scenario.sets,
        first_player=state.get("first_player", players[0]),
        variants=scenario.variants,
    )
    game = Game.blank(rules, config)
    placed: dict[str, str] = {}

    def register(card: str, *where: str | int) -> None:
        here = doc.where("state", *where)
        if card in placed:
            raise PositionError(
                f"{here}: {card} is already at {placed[card]}: a card may appear in only one place"
            )
        family, key = CARD_ID.match(card).group(1, 2)  # type: ignore[union-attr]
        if family not in players:
            raise PositionError(f"{here}: {card} belongs to {family!r}, not one of the players")
        if key not in rules.definitions:
            raise PositionError(
                f"{here}: {card}: no card {key!r} in the sets {', '.join(scenario.sets)}"
            )
        placed[card] = here
        game.family_of[card] = family
        game.key_of[card] = key

    for index, stack in enumerate(scenario.queue):
        for height, entry in enumerate(stack):
            where = ("queue", index, height) if len(stack) > 1 else ("queue", index)
            register(entry.card, *where)
            _lay(game, entry, doc.where("state", *where), players)
        game.queue.append(tuple(entry.card for entry in stack))
    for zone in PILES:
        given = state.get(zone) or {}
        for family, cards in given.items():
            for i, card in enumerate(cards or ()):
                register(card, zone, family, i)
                if game.family_of[card] != family:
                    raise PositionError(
                        f"{doc.where('state', zone, family, i)}: {card} cannot be in "
                        f"{family}'s {zone.replace('_', ' ')}: every zone holds the cards "
                        "of its own family (piles are in front of each card's original owner)"
                    )
                waits = rules.definitions[game.key_of[card]].setup is Setup.RESERVE
                if waits and zone in ("hands", "set_aside"):
                    raise PositionError(
                        f"{doc.where('state', zone, family, i)}: {card} cannot be in "
                        f"{zone.replace('_', ' ')}: it waits in its family's reserve "
                        "(RULINGS G2, A-Twin)"
                    )
            game.pile(zone)[family] = tuple(cards or ())
    # FORMAT.md: a family's reserve card (the Twin) that appears nowhere waits in
    # its reserve.
    for key, definition in rules.definitions.items():
        if definition.setup is Setup.RESERVE and definition.set in scenario.sets:
            for family in players:
                card = f"{family}.{key}"
                if card not in placed:
                    register(card, "reserve")
                    game.reserve[family] = (*game.reserve[family], card)
    for family, amount in (state.get("influence") or {}).items():
        game.influence[family] = amount
    game.round = state.get("round", 1)
    game.phase = state.get("phase", "placement")
    game.first = players.index(state.get("first_player", players[0]))
    game.walk = state.get("resolving", 0)
    game._run()
    return game
