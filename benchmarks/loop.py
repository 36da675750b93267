"""Random-play throughput of the engine in one process, through the public API.

Plays games with random bots until ``--seconds`` have passed (at least one game) and
prints one JSON line::

    {"games_per_second": x, "decisions_per_second": y, "games": n, "seconds": s}

Each game is played as the README's API example plays one: a game that keeps its event
log, one random bot per family, each answering from its family's observation. Game ``i``
is dealt from ``--seed`` + i. Registry loading and one untimed warm-up game are left out of
the time. ``benchmarks/vs_peer.py`` runs it beside the other Python engine.

    .venv/bin/python benchmarks/loop.py [--seconds 5] [--families 3] [--sets base] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from oriflamme import COLOURS, Game, GameConfig, OriflammeError, Registry
from oriflamme.bots import RandomBot


def play_one(registry: Registry, families: int, sets: tuple[str, ...], seed: int) -> int:
    """Play one random game dealt from ``seed`` as the README's loop does; the answers."""
    game = Game.new(
        GameConfig(families=COLOURS[:families], sets=sets, seed=seed), registry=registry
    )
    rng = random.Random(seed * 8 + 7)  # as the README: the bots share one generator
    bots = {family: RandomBot(rng) for family in game.families}
    answers = 0
    decision = game.decision
    while decision is not None:
        family = decision.family
        game.answer(bots[family].choose(game.observe(family)))
        answers += 1
        decision = game.decision
    return answers


def measure(
    registry: Registry, families: int, sets: tuple[str, ...], seed: int, seconds: float
) -> dict[str, float]:
    """Games and answers per second over at least ``seconds`` (and at least one game)."""
    games = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += play_one(registry, families, sets, seed + games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "games_per_second": round(games / elapsed, 1),
        "decisions_per_second": round(decisions / elapsed, 1),
        "games": games,
        "seconds": round(elapsed, 3),
    }


def _sets(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one card set, e.g. base")
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="play games for this long (default 5)"
    )
    parser.add_argument("--families", type=int, default=3, help="families per game (default 3)")
    parser.add_argument(
        "--sets", type=_sets, default=("base",), help="card sets, comma-separated (default base)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    args = parser.parse_args()
    if not 1 <= args.families <= len(COLOURS):
        parser.error(f"--families must be 1 to {len(COLOURS)}, not {args.families}")
    registry = Registry(entry_points=False)
    try:
        play_one(registry, args.families, args.sets, args.seed)  # warm-up; checks the setup
        result = measure(registry, args.families, args.sets, args.seed, args.seconds)
    except OriflammeError as error:
        print(f"loop.py: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
