"""How many machine instructions a game costs, counted by valgrind's callgrind.

A rate in games per second moves with whatever else the machine does; a count of
instructions does not, so it shows a change of one percent that a timing cannot. It
runs ``oriflamme simulate`` (3 families, base, random bots, seed 0, one process) twice
under callgrind, with ``--games SMALL`` and ``--games LARGE``, and prints the difference
divided by ``LARGE - SMALL``: what one game costs, without the process's start.

    .venv/bin/python benchmarks/instructions.py [--small 100] [--large 1100]
        [--python PATH]

``--python`` measures another install (a compiled one, say: the count is of what that
interpreter runs). Needs ``valgrind`` (Debian: ``apt-get install valgrind``); a run of
1,100 games takes a few minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(python: str, games: int) -> int:
    """The instructions callgrind counts for a process simulating ``games`` games."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        python,
        "-m",
        "oriflamme",
        "simulate",
        "--games",
        str(games),
        "--families",
        "3",
        "--sets",
        "base",
        "--seed",
        "0",
        "--progress",
        "never",
        "--jobs",
        "1",
    ]
    # The same string hashes every run: a set's order, and so the work, is the same.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = COLLECTED.search(run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed ({run.returncode}): {run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=1100)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    if not 0 <= args.small < args.large:
        raise SystemExit("--small must be at least 0 and less than --large")
    small = instructions(args.python, args.small)
    large = instructions(args.python, args.large)
    per_game = (large - small) / (args.large - args.small)
    print(f"{per_game:,.0f} instructions per simulated game ({args.python})")


if __name__ == "__main__":
    main()
