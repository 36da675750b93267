"""Hostile tables beside a person: how long the person waits for its bots.

Starts ``oriflamme serve`` on 127.0.0.1 (a free port, a fresh SQLite file, the
server's default caps on bots) and plays, through the JSON API and a websocket as the
game page does (tests/hostile.py):

- a person on 127.0.0.1, in whole games of three families against two ``--opponent``
  bots (default ``ismcts``), answering at random (seeded) as soon as it is asked;
- a hostile client on 127.0.0.20 keeping ``--tables`` tables going, each of four
  families: a person's seat it answers the moment it is asked, and three ISMCTS bots
  at the server's caps (``ismcts:iterations=1000:seconds=2`` by default).

The person plays ``--turns`` turn-arounds alone (after a few untimed, so that the bots'
workers are started), then the same games beside each number of hostile tables given.
Prints the turn-around (from the person's answer's 200 to the view asking it again,
when bots played between): p50, p95, and the ratio of each p50 to the one alone; the
hostile tables' answers a second; and the machine's load average.

    .venv/bin/python benchmarks/web_hostile.py --tables 10 50 --turns 30
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

from web_load import percentiles

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.hostile import Hostile, Person, beside
from tests.web_server import server_process

from oriflamme.web.limits import Limits


async def run(url: str, args: argparse.Namespace) -> None:
    opponents = {"blue": args.opponent, "green": args.opponent}
    await beside(url, Person(), opponents, None, seed=args.seed, turns=3)
    alone = Person()
    await beside(url, alone, opponents, None, seed=args.seed, turns=args.turns)
    rows = [("alone", alone, 0.0)]
    for count in args.tables:
        person = Person()
        hostile = Hostile(url, count, args.hostile, args.seed + 10_000 * count)
        start = time.monotonic()
        await beside(url, person, opponents, hostile, seed=args.seed, turns=args.turns)
        rate = hostile.answers / (time.monotonic() - start)
        rows.append((f"beside {count} hostile tables", person, rate))
    base = alone.median
    print(
        f"the person: red against {opponents}; the hostile tables: a seat answered at once "
        f"and three {args.hostile} each, from another address"
    )
    for name, person, rate in rows:
        p50, p95 = percentiles(person.turn_arounds, 50, 95)
        extra = f", the hostile seats answering {rate:.1f} a second" if rate else ""
        print(
            f"{name}: {len(person.turn_arounds)} turn-arounds, p50 {p50:.3f} s "
            f"({p50 / base:.2f}x alone), p95 {p95:.3f} s{extra}"
        )
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


def main() -> int:
    limits = Limits()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables", type=int, nargs="+", default=[10, 50], help="hostile tables (default 10 50)"
    )
    parser.add_argument("--turns", type=int, default=30, help="turn-arounds measured each time")
    parser.add_argument("--seed", type=int, default=0, help="the person's games' first seed")
    parser.add_argument("--opponent", default="ismcts", help="the person's two bots")
    parser.add_argument(
        "--hostile",
        default=f"ismcts:iterations={limits.bot_iterations}:seconds={limits.bot_seconds:g}",
        help="the hostile tables' bots (default: at the server's caps)",
    )
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        # Every hostile table is created from one address.
        server_process(Path(folder) / "g.sqlite3", ["--create-rate", "0/1"]) as (url, _),
    ):
        asyncio.run(run(url, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
