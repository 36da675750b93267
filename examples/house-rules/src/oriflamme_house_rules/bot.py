"""A bot that knows the house cards: the heuristic bot, taught what the Jester is
worth and whom the Pickpocket should rob."""

from __future__ import annotations

import random

from oriflamme import BotKind, BotSetting, Registry
from oriflamme.bots import CardAdvice, HeuristicBot, Reading


class JesterAdvice(CardAdvice):
    """The Jester gains 1 per adjacent face-down card: reveal it beside hidden cards."""

    worth = 1.0

    def __init__(self, boldness: float) -> None:
        self.boldness = boldness

    def activation(self, table: Reading, position: int) -> float:
        hidden = [i for i in table.adjacent(position) if not table.up[i]]
        return self.boldness * len(hidden)


class PickpocketAdvice(CardAdvice):
    """The Pickpocket steals 1 from a neighbour of another family: reveal it beside a
    family with Influence to take, and rob the richest."""

    worth = 1.0

    def activation(self, table: Reading, position: int) -> float:
        # Stealing 1 is worth 2 to us against that family: we gain it, they lose it.
        rich = [
            i
            for i in table.adjacent(position)
            if not table.mine(i) and table.influence[table.owners[i]]
        ]
        return 2.0 if rich else 0.0

    def target(self, table: Reading, acting: int | None, position: int) -> float:
        # The answer to the Pickpocket's question: the bot plays the option of the
        # highest value. The richest owner, the leader first among equals.
        owner = table.owners[position]
        return table.influence[owner] + (0.5 if owner == table.leader else 0.0)


def make(rng: random.Random, registry: Registry, *, boldness: float) -> HeuristicBot:
    advice = {"jester": JesterAdvice(boldness), "pickpocket": PickpocketAdvice()}
    return HeuristicBot(rng, advice=advice)


HOUSE_BOT = BotKind(
    name="house_heuristic",
    help="the heuristic bot, taught the Jester and the Pickpocket",
    make=make,
    settings=(
        BotSetting("boldness", float, 1.0, "how much a Jester's gain counts", low=0, high=5),
    ),
)
