"""Bots: players that answer decisions from their own family's observation only.

A bot is any object with ``choose(observation) -> answer``. It receives the
:class:`~oriflamme.Observation` of its family (plain data, no link to the game), whose
``decision`` is the one it must answer; one of ``decision.options`` is what it returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Protocol

from .core.decisions import Answer
from .core.game import Game
from .core.observation import Observation


class Bot(Protocol):
    def choose(self, observation: Observation) -> Answer:
        """One of ``observation.decision.options``, chosen from what the observation shows."""
        ...


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
        decision = observation.decision
        if decision is None:
            raise ValueError("there is no decision to answer")
        options = decision.options
        # floor(random() * n) is uniform up to n / 2**53, far below anything a game of
        # a few dozen options can show, and a third of the cost of randrange.
        return options[int(self._random() * len(options))]


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game dealt from ``game_seed``: one per pair."""
    return game_seed * 8 + seat


def random_bots(families: tuple[str, ...], rng: random.Random) -> dict[str, Bot]:
    """Random bots for every family of a game, sharing the generator ``rng``."""
    return {family: RandomBot(rng) for family in families}


def play_out(
    game: Game, bots: Mapping[str, Bot], on_answer: Callable[[Game, Answer], None] | None = None
) -> int:
    """Let ``bots`` (by family) answer until the game is over; returns the number of answers."""
    answers = 0
    decision = game.decision
    while decision is not None:
        family = decision.family
        answer = bots[family].choose(game.observe(family))
        game.answer(answer)
        answers += 1
        if on_answer is not None:
            on_answer(game, answer)
        decision = game.decision
    return answers
