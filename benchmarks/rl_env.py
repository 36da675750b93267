"""Steps a second of the PettingZoo environment: random legal actions, whole episodes.

Each step is what a learning loop pays: ``last()`` (the observation vector and the
action mask of the agent to act) and ``step()``. Prints episodes and steps a second
for each kind of game, measured for ``--seconds`` each on one core.

    .venv/bin/python benchmarks/rl_env.py --seconds 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from oriflamme.rl.pettingzoo import env

KINDS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}


def measure(sets: tuple[str, ...], families: int, seconds: float) -> tuple[float, float]:
    game = env(families=families, sets=sets)
    rng = np.random.default_rng(0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.reset(seed=episodes)
        for _ in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        episodes += 1
    elapsed = time.perf_counter() - start
    return episodes / elapsed, steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--families", type=int, default=3)
    args = parser.parse_args()
    for name, sets in KINDS.items():
        episodes, steps = measure(sets, args.families, args.seconds)
        print(
            f"{name:<7} {args.families} families: {episodes:6.1f} episodes/s {steps:7.0f} steps/s"
        )


if __name__ == "__main__":
    main()
