"""``oriflamme simulate``: bots play many games; wins per seat and mean scores."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

import attrs

from .bots import play_out, random_bots
from .choices import describe_cards, game_config
from .core.config import GameConfig
from .core.game import Game
from .core.plugins import Registry


@attrs.define
class Summary:
    """The results of a run of games, per seat (seat 1 is the first family)."""

    families: tuple[str, ...]
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    wins: list[int] = attrs.field(factory=list)  # outright wins
    shared: list[int] = attrs.field(factory=list)  # wins shared with another family
    score_total: list[int] = attrs.field(factory=list)

    def __attrs_post_init__(self) -> None:
        seats = len(self.families)
        self.wins = [0] * seats
        self.shared = [0] * seats
        self.score_total = [0] * seats

    def add(self, game: Game, decisions: int) -> None:
        self.games += 1
        self.decisions += decisions
        winners = game.winners
        for seat, family in enumerate(self.families):
            self.score_total[seat] += game.influence[family]
            if family in winners:
                if len(winners) == 1:
                    self.wins[seat] += 1
                else:
                    self.shared[seat] += 1

    def table(self) -> str:
        lines = [
            f"{'seat':<5} {'family':<8} {'wins':>7} {'shared':>7} {'win %':>7} {'mean score':>11}"
        ]
        for seat, family in enumerate(self.families):
            games = max(self.games, 1)
            lines.append(
                f"{seat + 1:<5} {family:<8} {self.wins[seat]:>7} "
                f"{self.shared[seat]:>7} {100 * self.wins[seat] / games:>6.1f}% "
                f"{self.score_total[seat] / games:>11.2f}"
            )
        return "\n".join(lines)


def simulate(
    config: GameConfig,
    games: int,
    registry: Registry,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` random-bot games; game ``i`` is dealt from ``config.seed + i``."""
    summary = Summary(config.families)
    start = time.perf_counter()
    for number in range(games):
        seed = config.seed + number
        game = Game.new(attrs.evolve(config, seed=seed), registry=registry)
        bots = random_bots(config.families, seed)
        summary.add(game, play_out(game, bots))
        if progress is not None:
            progress(number + 1)
    summary.seconds = time.perf_counter() - start
    return summary


def progress_bar(total: int, stream: TextIO) -> Callable[[int], None]:
    step = max(1, total // 100)

    def show(done: int) -> None:
        if done % step and done != total:
            return
        filled = 30 * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show


def simulate_command(
    args: argparse.Namespace, registry: Registry, out: TextIO | None = None
) -> int:
    out = out if out is not None else sys.stdout
    config = game_config(args, registry, args.seed)
    # One game up front, so that a bad choice fails before any is played.
    first = Game.new(config, registry=registry)
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    progress = progress_bar(args.games, sys.stderr) if show else None
    summary = simulate(config, args.games, registry, progress)
    rate = summary.games / summary.seconds if summary.seconds else float("inf")
    per_second = summary.decisions / summary.seconds if summary.seconds else float("inf")
    print(
        f"{summary.games} games, {len(config.families)} families, sets "
        f"{','.join(config.sets)}, seeds {args.seed} to {args.seed + args.games - 1}",
        file=out,
    )
    print(describe_cards(config, first.rules.cards), file=out)
    print(summary.table(), file=out)
    print(f"{summary.seconds:.2f} s: {rate:,.0f} games/s, {per_second:,.0f} decisions/s", file=out)
    return 0
