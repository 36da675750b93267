"""What every bot is, and games played by bots: the loop and the totals.

A bot is any object with ``choose(observation) -> answer``. It receives the
:class:`~oriflamme.Observation` of its family (plain data, no link to the game), whose
``decision`` is the one it must answer; one of ``decision.options`` is what it returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from oriflamme import Answer, Decision, Game, GameConfig, Observation, Registry


class Bot(Protocol):
    def choose(self, observation: Observation) -> Answer:
        """One of ``observation.decision.options``, chosen from what the observation shows."""
        ...


def pending(observation: Observation) -> Decision:
    """The decision a bot is handed ``observation`` to answer (ValueError if none)."""
    decision = observation.decision
    if decision is None:
        raise ValueError("there is no decision to answer")
    return decision


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game dealt from ``game_seed``: one per pair."""
    return game_seed * 8 + seat


#: A multiple of every number of families that can share a win (2 to 5): the shares
#: of shared wins are counted in these parts, whole numbers that add up exactly.
SHARE_PARTS = 60


class Totals:
    """What a run of games adds up to, by seat: outright wins, shared wins, scores, and
    ``share_parts``: each shared win's share (1/k of a win shared by k families) in
    :data:`SHARE_PARTS` parts, so that win % (RULINGS G6) is exact whatever the order
    the totals are added in."""

    def __init__(self, seats: int) -> None:
        self.games = 0
        self.decisions = 0
        self.wins = [0] * seats
        self.shared = [0] * seats
        self.share_parts = [0] * seats
        self.scores = [0] * seats

    def add(self, game: Game, decisions: int) -> None:
        self.games += 1
        self.decisions += decisions
        winners = game.winners
        for seat, (family, score) in enumerate(game.scores.items()):
            self.scores[seat] += score
            if family in winners:
                if len(winners) == 1:
                    self.wins[seat] += 1
                else:
                    self.shared[seat] += 1
                    self.share_parts[seat] += SHARE_PARTS // len(winners)


def play_games(
    config: GameConfig,
    seeds: Iterable[int],
    registry: Registry,
    makers: Sequence[Callable[[random.Random], Bot]],
    *,
    record: bool = False,
    on_game: Callable[[Game, int], None] | None = None,
) -> Totals:
    """Play a game of ``config`` per seed, the bot of seat ``i`` made by ``makers[i]``.

    One generator per game, seeded with its seed, deals it and then drives its bots:
    each game can be replayed on its own from its seed. ``record`` keeps each game's
    event log; ``on_game(game, decisions)`` is handed each game once it is over, with
    the number of decisions its bots answered.
    """
    families = config.families
    totals = Totals(len(families))
    for seed in seeds:
        rng = random.Random(seed)
        game = Game.new(config, registry=registry, record=record, seed=seed, rng=rng)
        bots = {family: make(rng) for family, make in zip(families, makers, strict=True)}
        decisions = play_out(game, bots)
        totals.add(game, decisions)
        if on_game is not None:
            on_game(game, decisions)
    return totals


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
