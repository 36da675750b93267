"""Damaged saved games, many of them, counted: how many are refused, how many load,
and whether a loaded one is illegal or plays into an illegal state.

    .venv/bin/python benchmarks/fuzz_saves.py [--saves 30000] [--seed 0]
        [--registry built-in|house ...] [--input N]

Each input is a real save damaged in one to four places and probed as the fuzz test
``tests/test_fuzz_saves.py`` probes it (:func:`~tests.test_fuzz_saves.outcome`): loaded
with only the built-in sets (``built-in``) or with the example house-rules plugin
installed (``house``); a save that loads is read by the independent checker of
``tests/invariants.py``, determinised for every family and played to its end with
random answers, every state read again. Input ``N`` of a registry is drawn from the
seed ``"<seed>/<registry>/<N>"`` alone: ``--input N`` runs that one again. The exit
status is 1 if any input went wrong (anything but a one-line refusal or a legal game
that plays on legally), and the first of each kind are printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The test modules, and the example plugin from its source, as pytest finds them.
sys.path[:0] = [str(ROOT), str(ROOT / "examples" / "house-rules" / "src")]

from tests.fuzzing import Hang, no_hang  # noqa: E402 - once the path holds the repository
from tests.test_fuzz_saves import FINE, REGISTRIES, SAVES, Seeded, damage, outcome  # noqa: E402


def probe(name: str, seed: int, number: int) -> tuple[str, int]:
    """What becomes of input ``number`` of registry ``name``, and its play seed."""
    rng = random.Random(f"{seed}/{name}/{number}")
    saves = SAVES[name]
    text = damage(saves[rng.randrange(len(saves))], Seeded(rng))
    play_seed = rng.getrandbits(63)
    try:
        with no_hang():
            return outcome(text, play_seed, REGISTRIES[name]), play_seed
    except Hang as hang:
        return f"hang: {hang}", play_seed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=30_000, help="inputs per registry")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--registry", choices=sorted(REGISTRIES), nargs="+")
    parser.add_argument("--input", type=int, help="run only this input again")
    options = parser.parse_args()
    names = options.registry or sorted(REGISTRIES)
    wrong = 0
    for name in names:
        numbers = range(options.saves) if options.input is None else [options.input]
        counts: Counter[str] = Counter()
        shown: set[str] = set()
        start = time.perf_counter()
        for number in numbers:
            result, play_seed = probe(name, options.seed, number)
            kind = _kind(result)
            counts[kind] += 1
            if result not in FINE:
                wrong += 1
                if kind not in shown or options.input is not None:
                    shown.add(kind)
                    print(f"{name} input {number} (play seed {play_seed}): {result}")
        seconds = time.perf_counter() - start
        print(
            f"{name}: {len(numbers)} damaged saves (seed {options.seed}) in {seconds:.0f} s: "
            f"{counts['refused']} refused, {counts['loaded']} loaded and played on legally; "
            f"{counts['illegal state accepted']} illegal states accepted, "
            f"{counts['played into an illegal state']} loaded saves played into an illegal "
            f"state; {len(numbers) - counts['refused'] - counts['loaded']} wrong in all"
        )
    return 1 if wrong else 0


def _kind(result: str) -> str:
    """The kind of an outcome, without its details: ``played into an illegal state``."""
    if result in FINE:
        return result
    for kind in ("played into an illegal state", "failed in play", "determinised for"):
        if result.startswith(kind):
            return kind
    return result.split(":", 1)[0]


if __name__ == "__main__":
    sys.exit(main())
