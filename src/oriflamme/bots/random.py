"""The random bot: uniformly at random among the legal answers."""

from __future__ import annotations

import random

from oriflamme import Answer, Observation

from .play import Bot, pending


class RandomBot:
    """Plays uniformly at random among the legal answers.

    Its choices flow from ``seed``, or from a generator it is given: bots that share one
    seeded generator (as ``oriflamme simulate`` does, one per game) are still
    reproducible, and seeding one generator costs as much as a short game's turn.
    """

    def __init__(self, seed: int | random.Random | None = None) -> None:
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self._random = rng.random

    def choose(self, observation: Observation) -> Answer:
        decision = pending(observation)
        options = decision.options
        # floor(random() * n) is uniform up to n / 2**53, far below anything a game of
        # a few dozen options can show, and a third of the cost of randrange.
        return options[int(self._random() * len(options))]


def random_bots(families: tuple[str, ...], rng: random.Random) -> dict[str, Bot]:
    """Random bots for every family of a game, sharing the generator ``rng``."""
    return {family: RandomBot(rng) for family in families}
