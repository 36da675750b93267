"""The statistics of a ladder: win rates with their 95% confidence intervals, and Elo
ratings fitted to every game played.

A game of Oriflamme has one winner among 3 to 5 families (or a few, sharing the win).
Ratings follow the Luce choice model, the many-player form of Bradley-Terry and of
Elo's own model: a bot of strength ``s`` wins a game against the others at the table
with probability ``s / (sum of every seat's strength)``. An Elo rating is
``400 * log10(s)``, so 400 points are odds of 10 to 1 between two bots, as in chess.
Strengths are fitted by maximum likelihood with Hunter's MM algorithm (2004), a shared
win counting as a share of a win.

A rating's 95% interval is a bootstrap over games (:func:`elo_intervals`): the games of
each kind of table are drawn again with replacement, as many as were played, the
ratings fitted again, and the 2.5th and 97.5th percentiles of each bot's ratings kept.
The draws come from a fixed seed, so the same games give the same intervals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

import attrs

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Stop when no strength moves by more than this fraction.
TOLERANCE = 1e-10
MAX_ROUNDS = 100_000
#: How many times the games are drawn again for a rating's interval, and from what seed.
BOOTSTRAP_ROUNDS = 1000
BOOTSTRAP_SEED = 0


def wilson(share: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate of ``share`` wins in ``games`` games
    (a shared win counts as its share)."""
    if games <= 0:
        return 0.0, 1.0
    rate = share / games
    middle = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    # At a rate of 0 or 1 the interval reaches that end exactly (rounding aside).
    low = 0.0 if rate <= 0 else max(0.0, (middle - spread) / scale)
    high = 1.0 if rate >= 1 else min(1.0, (middle + spread) / scale)
    return low, high


@attrs.frozen
class Tally:
    """How many games were played at one kind of table and who won them: ``seats``
    maps each bot to its number of seats, ``wins`` each bot to its wins (shares)."""

    seats: Mapping[str, int]
    games: int
    wins: Mapping[str, float]


def elo(tables: Sequence[Tally], anchor: str) -> dict[str, float]:
    """Every bot's Elo rating from ``tables``, ``anchor`` at 0.

    Each bot also gets one virtual game against the anchor, a half win for each, so
    that a bot that never won (or never lost) still gets a finite rating; it weighs
    next to nothing beside a few hundred real games.
    """
    bots = sorted({bot for table in tables for bot in table.seats} | {anchor})
    strength = dict.fromkeys(bots, 1.0)
    virtual = [
        Tally({bot: 1, anchor: 1}, 1, {bot: 0.5, anchor: 0.5}) for bot in bots if bot != anchor
    ]
    everything = [*tables, *virtual]
    wins = dict.fromkeys(bots, 0.0)
    for table in everything:
        for bot, won in table.wins.items():
            wins[bot] += won
    for _ in range(MAX_ROUNDS):
        exposure = dict.fromkeys(bots, 0.0)
        for table in everything:
            total = sum(strength[bot] * n for bot, n in table.seats.items())
            for bot, n in table.seats.items():
                exposure[bot] += table.games * n / total
        moved = 0.0
        updated = {}
        for bot in bots:
            new = wins[bot] / exposure[bot]
            moved = max(moved, abs(new - strength[bot]) / strength[bot])
            updated[bot] = new
        base = updated[anchor]
        strength = {bot: value / base for bot, value in updated.items()}
        if moved < TOLERANCE:
            break
    return {bot: 400 * math.log10(strength[bot]) for bot in bots}


@attrs.frozen
class Games:
    """The games played at one kind of table, each kept by its result: ``seats`` maps
    each bot to its number of seats, ``results`` pairs each way a game ended (each bot's
    wins in it, a shared win as shares) with the number of games that ended so."""

    seats: Mapping[str, int]
    results: Sequence[tuple[Mapping[str, float], int]]

    @property
    def games(self) -> int:
        return sum(count for _, count in self.results)

    def tally(self, counts: Sequence[int] | None = None) -> Tally:
        """The table's totals; with ``counts``, those of games drawn again, ``counts[i]``
        games ending as ``results[i]``."""
        counts = counts if counts is not None else [count for _, count in self.results]
        wins = dict.fromkeys(self.seats, 0.0)
        for (won, _), count in zip(self.results, counts, strict=True):
            for bot, share in won.items():
                wins[bot] += share * count
        return Tally(self.seats, sum(counts), wins)


def elo_intervals(
    tables: Sequence[Games],
    anchor: str,
    *,
    rounds: int = BOOTSTRAP_ROUNDS,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, tuple[float, float]]:
    """Each bot's 95% interval of its Elo rating, ``anchor`` at 0: the ratings fitted to
    ``rounds`` draws with replacement of each table's games, their 2.5th and 97.5th
    percentiles. Deterministic: the draws come from ``seed``."""
    rng = random.Random(seed)
    fitted: dict[str, list[float]] = {}
    for _ in range(rounds):
        drawn = []
        for table in tables:
            games = table.games
            endings = range(len(table.results))
            weights = [count for _, count in table.results]
            counts = [0] * len(table.results)
            for ending in rng.choices(endings, weights, k=games) if games else ():
                counts[ending] += 1
            drawn.append(table.tally(counts))
        for bot, rating in elo(drawn, anchor).items():
            fitted.setdefault(bot, []).append(rating)
    return {
        bot: (_percentile(values, 2.5), _percentile(values, 97.5)) for bot, values in fitted.items()
    }


def _percentile(values: Sequence[float], percent: float) -> float:
    """The ``percent``th percentile of ``values``, interpolated between the two nearest
    (as NumPy's default)."""
    ordered = sorted(values)
    at = (len(ordered) - 1) * percent / 100
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)
