"""A bot that knows the Jester: the heuristic bot, taught what the card is worth."""

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


def make(rng: random.Random, registry: Registry, *, boldness: float) -> HeuristicBot:
    return HeuristicBot(rng, advice={"jester": JesterAdvice(boldness)})


HOUSE_BOT = BotKind(
    name="house_heuristic",
    help="the heuristic bot, taught the Jester",
    make=make,
    settings=(
        BotSetting("boldness", float, 1.0, "how much a Jester's gain counts", low=0, high=5),
    ),
)
