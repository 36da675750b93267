"""Hostile tables beside a person, against a real ``oriflamme serve`` on 127.0.0.1 (see
tests/hostile.py): one client's tens of tables, each with a seat it answers at once and
three ISMCTS bots at the server's caps, hold the person's wait for its bots near their
own thinking time, since bot time is shared per client, not per table.

Scaled to a test's time: the server's caps are lowered (0.6 s a decision), the person's
bots search 0.15 s (never quick enough to be moved to the quick lane, pure or compiled).
benchmarks/web_hostile.py runs the same at the server's default caps and prints the
figures.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .hostile import Hostile, Person, beside
from .web_server import server_process

#: The server's caps on a bot's search in this test, and the hostile bots at them.
CAPS = ["--bot-seconds", "0.6"]
HOSTILE_BOTS = "ismcts:iterations=1000:seconds=0.6"
#: The person's two opponents.
OPPONENTS = {"blue": "ismcts:seconds=0.15", "green": "ismcts:seconds=0.15"}
#: Turn-arounds measured in each phase.
TURNS = 12
SEED = 37


@pytest.mark.slow
@pytest.mark.serial
def test_hostile_tables_hold_another_persons_wait_near_its_bots_own_time(
    tmp_path: Path,
) -> None:
    async def run(url: str) -> tuple[Person, Person, Person]:
        warm, alone, ten, fifty = Person(), Person(), Person(), Person()
        await beside(url, warm, OPPONENTS, None, seed=SEED, turns=4)  # the workers started
        await beside(url, alone, OPPONENTS, None, seed=SEED, turns=TURNS)
        ten_tables = Hostile(url, 10, HOSTILE_BOTS, 1000)
        await beside(url, ten, OPPONENTS, ten_tables, seed=SEED, turns=TURNS)
        fifty_tables = Hostile(url, 50, HOSTILE_BOTS, 2000)
        await beside(url, fifty, OPPONENTS, fifty_tables, seed=SEED, turns=TURNS)
        return alone, ten, fifty

    # Every table is created from one address: no rate limit on creating them here.
    with server_process(tmp_path / "g.sqlite3", CAPS) as (url, _):
        alone, ten, fifty = asyncio.run(run(url))
    print(
        f"seed {SEED}: the person's turn-around p50 alone {alone.median:.3f} s, beside 10 "
        f"hostile tables {ten.median:.3f} s ({ten.median / alone.median:.2f}x), beside 50 "
        f"{fifty.median:.3f} s ({fifty.median / alone.median:.2f}x)"
    )
    assert ten.median <= 2 * alone.median
    assert fifty.median <= 3 * alone.median
