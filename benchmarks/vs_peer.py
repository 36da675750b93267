"""How fast is random play, beside the other Python engine (jojolebarjos/oriflamme-simulator)?

Each round runs three measurements one after the other, each in its own process:

- peer: ``../shared/bench/peer_bench.py SECONDS`` with the other engine's python (3
  families, 7-card hands from its 9 base cards, 6 rounds, uniform random play);
- simulate: ``oriflamme simulate --games N --families 3 --sets base --seed 0 --progress never``
  (the rate it reports leaves out process start and registry loading);
- loop: ``benchmarks/loop.py --seconds SECONDS``, random games through the public API.

It prints each round's games per second (and decisions per second where known), then for
simulate / peer and loop / peer the min, median and max of the per-round ratios, and the
median rates. Interleaving the rounds spreads a shared machine's noise over all three;
compare only figures from one run.

The other engine is not on a package registry. ``../shared/bench/README.md`` says how to
get it: fetch ``github:jojolebarjos/oriflamme-simulator``, export the git directory as
``PEER_GIT_DIR`` and run ``../shared/bench/peer_venv.sh``, which prints the python of the
environment it builds. This script finds that environment in peer_venv.sh's cache, or
takes ``--peer-python`` (or ``PEER_PYTHON``).

    .venv/bin/python benchmarks/vs_peer.py [--rounds 5] [--seconds 5] [--games 20000]
        [--peer-python PATH] [--simulate-args "--jobs 1"]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOOP = HERE / "loop.py"
SHARED_BENCH = HERE.parent.parent / "shared" / "bench"
PEER_BENCH = SHARED_BENCH / "peer_bench.py"
RATE_LINE = re.compile(r"([\d,.]+|inf) games/s, ([\d,.]+|inf) decisions/s")


class BenchError(Exception):
    """A measurement could not be made; the message says why."""


@dataclass(frozen=True)
class Rate:
    games: float
    decisions: float | None = None

    def __str__(self) -> str:
        text = f"{self.games:8,.0f} games/s"
        if self.decisions is not None:
            text += f" {self.decisions:9,.0f} decisions/s"
        return text


def cached_peer_python() -> Path:
    """Where peer_venv.sh leaves the other engine's python."""
    cache = os.environ.get("PEER_CACHE")
    if not cache:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        cache = str(Path(base) / "oriflamme-peer")
    return Path(cache) / "venv" / "bin" / "python"


def how_to_get_peer() -> str:
    readme = SHARED_BENCH / "README.md"
    return (
        f"To get it (see {readme}):\n"
        "  1. fetch github:jojolebarjos/oriflamme-simulator with the search tool's `fetch`;\n"
        "     it returns a bare git directory;\n"
        "  2. export PEER_GIT_DIR=<that directory>;\n"
        f"  3. run {SHARED_BENCH / 'peer_venv.sh'}: it installs the other engine into its own\n"
        "     virtual environment (never this project's) and prints that environment's python;\n"
        "  4. run this again, or pass --peer-python PATH (or set PEER_PYTHON) to that python."
    )


def run(command: Sequence[str], what: str, env: dict[str, str] | None = None) -> str:
    """The standard output of ``command``; a failure becomes a BenchError."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    except OSError as error:
        raise BenchError(f"{what}: cannot run {command[0]}: {error}") from None
    if done.returncode != 0:
        detail = (done.stderr.strip() or done.stdout.strip()).splitlines()
        last = detail[-1] if detail else "no output"
        raise BenchError(f"{what} exited with status {done.returncode}: {last}")
    return done.stdout


def peer_rate(python: Path, seconds: float) -> Rate:
    # Its package is also named oriflamme: a PYTHONPATH meant for this project must not
    # shadow it.
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    try:
        out = run([str(python), str(PEER_BENCH), str(seconds)], "the peer benchmark", env)
    except BenchError as error:
        hint = f"Is {python} the other engine's python?"
        raise BenchError(f"{error}\n{hint}\n{how_to_get_peer()}") from None
    try:
        return Rate(float(out.split()[-1]))
    except (IndexError, ValueError):
        raise BenchError(f"the peer benchmark printed no rate: {out.strip()!r}") from None


def simulate_takes_json() -> bool:
    """Whether this version of ``oriflamme simulate`` has ``--json``."""
    out = run([sys.executable, "-m", "oriflamme", "simulate", "--help"], "oriflamme simulate")
    return "--json" in out


def parse_simulate(out: str) -> Rate:
    """The rates from simulate's JSON document, or else from its closing text line."""
    documents = [out, *reversed(out.splitlines())]
    for text in documents:
        try:
            rates = json.loads(text)["rates"]
            return Rate(float(rates["games_per_second"]), float(rates["decisions_per_second"]))
        except (ValueError, TypeError, KeyError):
            continue
    match = RATE_LINE.search(out)
    if match is None:
        raise BenchError("oriflamme simulate printed no rates")
    games, decisions = (float(value.replace(",", "")) for value in match.groups())
    return Rate(games, decisions)


def simulate_rate(games: int, extra: Sequence[str], use_json: bool) -> Rate:
    command = [sys.executable, "-m", "oriflamme", "simulate", "--games", str(games)]
    command += ["--families", "3", "--sets", "base", "--seed", "0", "--progress", "never"]
    if use_json and "--json" not in extra:
        command.append("--json")
    return parse_simulate(run([*command, *extra], "oriflamme simulate"))


def loop_rate(seconds: float) -> Rate:
    out = run([sys.executable, str(LOOP), "--seconds", str(seconds)], "benchmarks/loop.py")
    try:
        result = json.loads(out.strip().splitlines()[-1])
        return Rate(float(result["games_per_second"]), float(result["decisions_per_second"]))
    except (IndexError, ValueError, TypeError, KeyError):
        raise BenchError(f"benchmarks/loop.py printed no rates: {out.strip()!r}") from None


def spread(values: Sequence[float]) -> str:
    low, middle, high = min(values), statistics.median(values), max(values)
    return f"min {low:.2f}  median {middle:.2f}  max {high:.2f}"


def median_rate(rates: Sequence[Rate]) -> Rate:
    decisions = [rate.decisions for rate in rates if rate.decisions is not None]
    return Rate(
        statistics.median(rate.games for rate in rates),
        statistics.median(decisions) if decisions else None,
    )


def compare(
    peer_python: Path, rounds: int, seconds: float, games: int, extra: Sequence[str]
) -> None:
    use_json = simulate_takes_json()
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(
        f"vs peer: Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load {load}; {rounds} rounds, peer and loop {seconds:g} s, "
        f"simulate {games} games{' ' + shlex.join(extra) if extra else ''}",
        flush=True,
    )
    results: dict[str, list[Rate]] = {"peer": [], "simulate": [], "loop": []}
    for number in range(1, rounds + 1):
        results["peer"].append(peer_rate(peer_python, seconds))
        results["simulate"].append(simulate_rate(games, extra, use_json))
        results["loop"].append(loop_rate(seconds))
        print(f"round {number}:", flush=True)
        for name, rates in results.items():
            print(f"  {name:<9}{rates[-1]}", flush=True)
    peers = [rate.games for rate in results["peer"]]
    print("ratios of games/s over the rounds:")
    for name in ("simulate", "loop"):
        ratios = [ours.games / peer for ours, peer in zip(results[name], peers, strict=True)]
        print(f"  {name + ' / peer':<16}{spread(ratios)}")
    print("median rates:")
    for name, rates in results.items():
        print(f"  {name:<9}{median_rate(rates)}")


def find_peer_python(given: str | None) -> Path | None:
    """The other engine's python: as given, else peer_venv.sh's cached one, if any."""
    if given:
        return Path(given)
    cached = cached_peer_python()
    return cached if cached.exists() else None


def main() -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=how_to_get_peer(),
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds of three runs (default 5)")
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="seconds of the peer and loop runs (default 5)"
    )
    parser.add_argument(
        "--games", type=int, default=20000, help="games of each simulate run (default 20000)"
    )
    parser.add_argument(
        "--peer-python",
        default=os.environ.get("PEER_PYTHON"),
        metavar="PATH",
        help="the other engine's python (default: $PEER_PYTHON, else peer_venv.sh's cache)",
    )
    parser.add_argument(
        "--simulate-args",
        default="",
        metavar="ARGS",
        help='more arguments for oriflamme simulate, e.g. "--jobs 1" (or --simulate-args=--x)',
    )
    args = parser.parse_args()
    if args.rounds < 1 or args.games < 1 or args.seconds <= 0:
        parser.error("--rounds and --games must be at least 1, --seconds above 0")
    try:
        extra = shlex.split(args.simulate_args)
    except ValueError as error:
        parser.error(f"--simulate-args: {error}")
    peer_python = find_peer_python(args.peer_python)
    if peer_python is None:
        print(
            "vs_peer.py: the other engine (jojolebarjos/oriflamme-simulator) is missing: "
            f"PEER_PYTHON is not set and there is no {cached_peer_python()}.\n" + how_to_get_peer(),
            file=sys.stderr,
        )
        return 2
    if not peer_python.exists():
        print(f"vs_peer.py: no python at {peer_python}.\n" + how_to_get_peer(), file=sys.stderr)
        return 2
    if not PEER_BENCH.exists():
        print(
            f"vs_peer.py: {PEER_BENCH} is missing: this checkout needs ../shared/bench beside it.",
            file=sys.stderr,
        )
        return 2
    try:
        compare(peer_python, args.rounds, args.seconds, args.games, extra)
    except BenchError as error:
        print(f"vs_peer.py: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("vs_peer.py: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
