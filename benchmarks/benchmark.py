"""How fast is the engine? Random-play games and decisions per second, the cost of a
clone, and how much of a game's time goes to plugin dispatch.

    .venv/bin/python benchmarks/benchmark.py [--games N] [--sets base]

Run it on an idle machine: it measures wall-clock time on one core. It asserts
nothing; tests never depend on speed.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import sys
import time
import timeit
from unittest import mock

import pluggy

from oriflamme import Ability, Game, GameConfig, Registry
from oriflamme.bots import RandomBot, play_out, random_bots
from oriflamme.core.config import COLOURS


def play_games(
    registry: Registry, families: int, sets: tuple[str, ...], games: int, seed: int = 0
) -> tuple[float, int]:
    """Seconds and decisions for ``games`` random games, set-up included."""
    config = GameConfig(families=COLOURS[:families], sets=sets)
    decisions = 0
    start = time.perf_counter()
    for number in range(games):
        game = Game.new(
            GameConfig(families=config.families, sets=sets, seed=seed + number), registry=registry
        )
        bots = random_bots(game.families, seed + number)
        decisions += play_out(game, bots)
    return time.perf_counter() - start, decisions


def clone_cost(registry: Registry, sets: tuple[str, ...]) -> float:
    """Microseconds per clone of a game in mid-play (round 4, a full queue)."""
    game = Game.new(GameConfig(sets=sets, seed=1), registry=registry)
    bots = {f: RandomBot(i) for i, f in enumerate(game.families)}
    while game.round < 4 and game.decision is not None:
        decision = game.decision
        game.answer(bots[decision.family].choose(game.view(decision.family), decision))
    number = 100_000
    return timeit.timeit(game.clone, number=number) / number * 1e6


def dispatch(registry: Registry, sets: tuple[str, ...], games: int) -> dict[str, float]:
    """Where plugin code and plugin dispatch sit in a game's time."""
    # 1. Calls into plugins per game: abilities (activate, continuations, reactions)
    #    and the pluggy hook calls made while games run.
    calls = {"ability": 0, "pluggy": 0}
    hook_call = pluggy.HookCaller.__call__

    def counting_hook(self: pluggy.HookCaller, *args: object, **kwargs: object) -> object:
        calls["pluggy"] += 1
        return hook_call(self, *args, **kwargs)

    profile = cProfile.Profile()
    with mock.patch.object(pluggy.HookCaller, "__call__", counting_hook):
        profile.enable()
        play_games(registry, 3, sets, games, seed=10_000)
        profile.disable()
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    in_plugins = 0.0
    for (filename, _line, _name), row in stats.stats.items():  # type: ignore[attr-defined]
        if "/expansions/" in filename:
            calls["ability"] += row[1]  # primitive calls of ability methods
            in_plugins += row[2]  # time inside ability methods themselves
    # 2. The cost of one dispatch: looking an ability up in the game's table and
    #    calling it, less the cost of calling the same method directly (best of 7).
    game = Game.new(GameConfig(sets=sets, seed=1), registry=registry)
    inert = Ability()
    table = {"x": inert}
    number = 1_000_000
    via_table = min(
        timeit.repeat(lambda: table.get("x", inert).activate(game, "c"), number=number, repeat=7)
    )
    direct = min(timeit.repeat(lambda: inert.activate(game, "c"), number=number, repeat=7))
    per_dispatch = max(via_table - direct, 0.0) / number
    seconds, _ = play_games(registry, 3, sets, games, seed=10_000)
    return {
        "ability calls per game": calls["ability"] / games,
        "pluggy calls per game": calls["pluggy"] / games,
        "share of time inside ability code (profiled)": 100 * in_plugins / total,
        "dispatch overhead per call (ns)": per_dispatch * 1e9,
        "share of time in dispatch overhead": 100 * per_dispatch * calls["ability"] / seconds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per measurement")
    parser.add_argument(
        "--sets",
        action="append",
        help="card sets, comma-separated; repeat to compare (default: base, ablaze, base,ablaze)",
    )
    args = parser.parse_args()
    kinds = [tuple(text.split(",")) for text in args.sets or ["base", "ablaze", "base,ablaze"]]
    registry = Registry(entry_points=False)
    print(
        f"oriflamme benchmark: Python {platform.python_version()} on {platform.machine()}, "
        f"{args.games} games per line"
    )
    play_games(registry, 3, kinds[0], 200)  # warm up
    for sets in kinds:
        for families in (3, 5):
            seconds, decisions = play_games(registry, families, sets, args.games)
            print(
                f"{','.join(sets):<12} {families} families: {args.games / seconds:8,.0f} "
                f"games/s {decisions / seconds:10,.0f} decisions/s "
                f"({decisions / args.games:.1f} decisions per game)"
            )
    print(f"clone of a game in round 4: {clone_cost(registry, kinds[0]):.2f} us")
    start = time.perf_counter()
    Registry(entry_points=False).cards  # noqa: B018 - loading is the point
    print(
        f"registry load (plugins, YAML, tables): "
        f"{(time.perf_counter() - start) * 1e3:.1f} ms, once per process"
    )
    for name, value in dispatch(registry, kinds[0], max(args.games // 10, 100)).items():
        print(f"{name}: {value:.1f}" + ("%" if "share" in name else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
