"""A plugin of bots that misbehave, for the tests of where bots think
(tests/test_web_thinking.py): registered through the public hook, as any plugin's.

Their answers need not be legal: the tests read them back as they came.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from typing import Any

from oriflamme import BotKind, BotSetting, Observation, Registry, hookimpl


class _Bot:
    def __init__(self, choose: Any) -> None:
        self.choose = choose


def _first(observation: Observation) -> Any:
    decision = observation.decision
    assert decision is not None
    return decision.options[0]


def _napping(rng: random.Random, registry: Registry, *, nap: float) -> _Bot:
    def choose(observation: Observation) -> Any:
        time.sleep(nap)
        return _first(observation)

    return _Bot(choose)


def _timed(rng: random.Random, registry: Registry, *, nap: float) -> _Bot:
    # When it thought, by the clock every process of the machine shares: its process,
    # then when it started and ended.
    def choose(observation: Observation) -> Any:
        started = time.monotonic()
        time.sleep(nap)
        return [os.getpid(), started, time.monotonic()]

    return _Bot(choose)


def _forever(rng: random.Random, registry: Registry) -> _Bot:
    def choose(observation: Observation) -> Any:
        count = 0
        while True:  # a search with no budget of its own, holding the CPU
            count += 1

    return _Bot(choose)


def _broken(rng: random.Random, registry: Registry) -> _Bot:
    def choose(observation: Observation) -> Any:
        raise RuntimeError("this bot always fails")

    return _Bot(choose)


def _crash(rng: random.Random, registry: Registry, *, nap: float) -> _Bot:
    def choose(observation: Observation) -> Any:
        time.sleep(nap)
        os._exit(3)  # its process gone, as if killed from outside

    return _Bot(choose)


def _whoami(rng: random.Random, registry: Registry) -> _Bot:
    # Where it thinks: its process and that process's priority.
    return _Bot(lambda observation: [os.getpid(), os.nice(0)])


def _budgeted(
    rng: random.Random, registry: Registry, *, iterations: int, seconds: float | None
) -> _Bot:
    return _Bot(_first)


KINDS = (
    BotKind(
        "napping",
        "sleeps, then plays the first answer",
        _napping,
        (BotSetting("nap", float, 0.0, "seconds to sleep", low=0, high=60),),
    ),
    BotKind(
        "timed",
        "sleeps, then answers its process id and when it started and ended",
        _timed,
        (BotSetting("nap", float, 0.0, "seconds to sleep", low=0, high=60),),
    ),
    BotKind("forever", "never answers", _forever),
    BotKind("broken", "raises", _broken),
    BotKind(
        "crash",
        "sleeps, then ends its process",
        _crash,
        (BotSetting("nap", float, 0.0, "seconds to sleep", low=0, high=60),),
    ),
    BotKind("whoami", "answers its process id and priority", _whoami),
    BotKind(
        "budgeted",
        "a search of a plugin's, with settings a server caps",
        _budgeted,
        (
            BotSetting("iterations", int, 5000, "games searched", low=1, high=10**9),
            BotSetting("seconds", float, None, "time budget", low=0.001, high=10_000),
        ),
    ),
)


@hookimpl
def register_bot_kinds() -> Sequence[BotKind]:
    return KINDS
