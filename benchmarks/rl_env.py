"""Steps a second of the learning interfaces: random legal actions, whole episodes.

``--api pettingzoo`` (the default): each step is what a learning loop pays, ``last()``
(the observation vector and the action mask of the agent to act) and ``step()``.

``--api openspiel``: ``python_oriflamme`` through ``pyspiel``'s state API, as OpenSpiel's
own algorithms drive it: at each decision ``legal_actions()``, the player's
``observation_tensor()`` and ``information_state_tensor()``, then ``apply_action()``
(the deal's chance nodes are drawn too, not counted as steps). ``--reference GAME``
plays one of OpenSpiel's C++ games the same way, for comparison (with the tensors it
provides: Hearts has no observation tensor, Crazy Eights no information-state tensor).

Prints episodes and steps a second for each kind of game, measured for ``--seconds``
of this process's CPU time each (on one core: other work on the machine does not count).

    .venv/bin/python benchmarks/rl_env.py --seconds 5
    .venv/bin/python benchmarks/rl_env.py --api openspiel --seconds 5 --reference hearts
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from oriflamme.rl import openspiel
from oriflamme.rl.pettingzoo import env

KINDS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}


def measure(sets: tuple[str, ...], families: int, seconds: float) -> tuple[float, float]:
    game = env(families=families, sets=sets)
    rng = np.random.default_rng(0)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game.reset(seed=episodes)
        for _ in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        episodes += 1
    elapsed = time.process_time() - start
    return episodes / elapsed, steps / elapsed


def measure_openspiel(game: Any, seconds: float) -> tuple[float, float]:
    """Random playouts of ``game`` (a ``pyspiel.Game``) through the state API."""
    kind = game.get_type()
    observation = kind.provides_observation_tensor
    information = kind.provides_information_state_tensor
    rng = np.random.default_rng(0)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=chances)))
                continue
            player = state.current_player()
            legal = state.legal_actions()
            if observation:
                state.observation_tensor(player)
            if information:
                state.information_state_tensor(player)
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        episodes += 1
    elapsed = time.process_time() - start
    return episodes / elapsed, steps / elapsed


def show(name: str, families: int, episodes: float, steps: float) -> None:
    print(f"{name:<7} {families} families: {episodes:6.1f} episodes/s {steps:7.0f} steps/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--api", choices=("pettingzoo", "openspiel"), default="pettingzoo")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--families", type=int, default=3)
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help="which kinds of game, of " + ", ".join(KINDS)
    )
    parser.add_argument(
        "--reference", help="with --api openspiel: one of OpenSpiel's games too (hearts)"
    )
    args = parser.parse_args()
    kinds = [name.strip() for name in args.kinds.split(",") if name.strip()]
    unknown = [name for name in kinds if name not in KINDS]
    if unknown:
        parser.error(f"unknown kind {unknown[0]!r}: choose among {', '.join(KINDS)}")
    if args.api == "openspiel":
        for name in kinds:
            params = {"families": args.families, "sets": "+".join(KINDS[name])}
            game = pyspiel.load_game(openspiel.GAME_TYPE.short_name, params)
            episodes, steps = measure_openspiel(game, args.seconds)
            show(name, args.families, episodes, steps)
        if args.reference:
            episodes, steps = measure_openspiel(pyspiel.load_game(args.reference), args.seconds)
            print(f"{args.reference}: {episodes:6.1f} episodes/s {steps:7.0f} steps/s")
        return
    for name in kinds:
        episodes, steps = measure(KINDS[name], args.families, args.seconds)
        show(name, args.families, episodes, steps)


if __name__ == "__main__":
    main()
