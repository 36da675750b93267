"""How fast is the engine? Random-play games and decisions per second, and the costs
search leans on: a clone, an observation, and determinise + clone + random playout.

    .venv/bin/python benchmarks/benchmark.py [--games N] [--sets base ...]

Games are played as ``oriflamme simulate --jobs 1`` plays them (one process, no event
log, random bots). It measures wall-clock time on one core: run it on an idle machine,
and compare only figures from one run. It asserts nothing; tests never depend on speed.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
import timeit
from collections.abc import Callable

import oriflamme
from oriflamme import COLOURS, Game, GameConfig, Registry
from oriflamme.simulate import play_games

KINDS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}


def games_per_second(
    registry: Registry, families: int, sets: tuple[str, ...], games: int
) -> tuple[float, float]:
    """Games and decisions per second over ``games`` random games, set-up included."""
    config = GameConfig(families=COLOURS[:families], sets=sets)
    start = time.perf_counter()
    summary = play_games(config, range(games), registry, ("random",) * families)
    seconds = time.perf_counter() - start
    return games / seconds, summary.decisions / seconds


def mid_game(registry: Registry, sets: tuple[str, ...], seed: int = 1) -> Game:
    """A game in round 4, reached by random play: a full queue, hands half spent."""
    game = Game.new(GameConfig(sets=sets, seed=seed), registry=registry, record=False)
    rng = random.Random(seed)
    while game.round < 4 and game.decision is not None:
        game.answer_option(int(rng.random() * len(game.decision.options)))
    return game


def best_of(function: Callable[[], object], number: int, repeat: int = 5) -> float:
    """Microseconds per call, the best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number * 1e6


def playouts_per_second(registry: Registry, sets: tuple[str, ...], seconds: float) -> float:
    """Determinise from the acting family's observation, clone, play out at random."""
    game = mid_game(registry, sets)
    decision = game.decision
    assert decision is not None
    seen = game.observe(decision.family)
    rng = random.Random(0)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        sample = Game.determinise(seen, done, registry=registry, record=False).clone()
        step = sample.decision
        while step is not None:
            sample.answer_option(int(rng.random() * len(step.options)))
            step = sample.decision
        done += 1
    return done / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per measurement")
    parser.add_argument(
        "--sets", action="append", choices=sorted(KINDS), help="kinds of game (default: all)"
    )
    args = parser.parse_args()
    kinds = args.sets or list(KINDS)
    registry = Registry(entry_points=False)
    compiled = not oriflamme.core._engine.__file__.endswith(".py")
    print(
        f"oriflamme benchmark: Python {platform.python_version()} on {platform.machine()}, "
        f"{'compiled' if compiled else 'pure Python'}, {args.games} games per line"
    )
    games_per_second(registry, 3, ("base",), 200)  # warm up
    for kind in kinds:
        for families in (3, 5):
            games, decisions = games_per_second(registry, families, KINDS[kind], args.games)
            print(
                f"{kind:<7} {families} families: {games:8,.0f} games/s {decisions:10,.0f} "
                f"decisions/s ({decisions / games:.1f} decisions per game)"
            )
    game = mid_game(registry, ("base",))
    decision = game.decision
    assert decision is not None
    print(f"clone of a game in round 4: {best_of(game.clone, 100_000):.2f} us")
    family = decision.family
    print(f"observation of it: {best_of(lambda: game.observe(family), 100_000):.2f} us")
    for kind in kinds:
        rate = playouts_per_second(registry, KINDS[kind], 3.0)
        print(f"{kind:<7} determinise + clone + random playout from round 4: {rate:,.0f}/s")
    start = time.perf_counter()
    Registry(entry_points=False).cards  # noqa: B018 - loading is the point
    print(f"registry load: {(time.perf_counter() - start) * 1e3:.1f} ms, once per process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
