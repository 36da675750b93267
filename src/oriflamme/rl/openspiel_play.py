"""OpenSpiel's Python ISMCTS bot playing :mod:`.openspiel`'s game against random bots.

Importing this module imports :mod:`.openspiel`, which registers ``python_oriflamme``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]
from open_spiel.python.bots import uniform_random  # type: ignore[import-untyped]

from .openspiel import OriflammeState


class Played(NamedTuple):
    """One game of :func:`play_ismcts_vs_random`: the ISMCTS bot's ``seat``, every
    player's ``returns`` by seat, and the bot's decisions and seconds thinking."""

    seat: int
    returns: tuple[float, ...]
    decisions: int
    seconds: float


def play_ismcts_vs_random(
    games: int,
    seed: int,
    simulations: int,
    params: Mapping[str, Any] | None = None,
    *,
    uct_c: float = 2.0,
) -> list[Played]:
    """Play ``games`` games of OpenSpiel's Python ISMCTS bot (``simulations`` a
    decision, random rollouts, a fresh resample for each simulation) against uniform
    random bots, the bot at seat ``i % families`` in game ``i``. Every random choice
    (the deals, the bots, the resamples) flows from ``seed``."""
    game = pyspiel.load_game("python_oriflamme", dict(params or {}))
    players = game.num_players()
    master = random.Random(seed)
    played = []
    for number in range(games):
        draws = np.random.RandomState(master.randrange(2**32))
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(draws.randint(2**31)))
        bot = ismcts.ISMCTSBot(
            game, evaluator, uct_c, simulations, random_state=draws, max_world_samples=-1
        )

        def resample(state: OriflammeState, player: int, draws: Any = draws) -> OriflammeState:
            return state.resample_from_infostate(player, draws.uniform)

        bot.set_resampler(resample)
        seat = number % players
        # A seed drawn for every seat, the bot's too (unused), so that the draws after
        # them do not depend on where the bot sits.
        seeds = [draws.randint(2**31) for _ in range(players)]
        others = {
            p: uniform_random.UniformRandomBot(p, np.random.RandomState(seeds[p]))
            for p in range(players)
            if p != seat
        }
        state = game.new_initial_state()
        decisions, seconds = 0, 0.0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(draws.randint(256)))
            elif state.current_player() == seat:
                start = time.perf_counter()
                action = bot.step(state)
                seconds += time.perf_counter() - start
                decisions += 1
                state.apply_action(int(action))
            else:
                state.apply_action(int(others[state.current_player()].step(state)))
        played.append(Played(seat, tuple(state.returns()), decisions, seconds))
    return played
