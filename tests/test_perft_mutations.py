"""Perft catches rule mistakes: each deliberate mutation of tests/rule_mutations.py changes
a reference count.

For each mutation, the reference counts of tests/perft/counts.yaml are counted again
with the mutation applied, by depth then by position name, skipping counts above
:data:`LIMIT` (each of those left runs in well under a second), until one differs: that
position and depth catch it. A mutation no count catches is run against the scenario
suite (tests/conformance) as well; one that survives both fails its test. The table of
what catches each mutation is printed, and is docs/perft.md's table ("Mistakes the counts
catch"). No randomness: nothing to seed.
"""

from __future__ import annotations

import re

import attrs
import pytest
import yaml

import oriflamme.core._engine
from oriflamme import Registry
from oriflamme.conformance.runner import run_paths
from oriflamme.conformance.scenario import load_scenario
from oriflamme.perft import perft, position_after_play

from .conftest import ROOT
from .rule_mutations import MUTATIONS, Mutation

PERFT = ROOT / "tests" / "perft"
POSITIONS = {path.stem: path for path in sorted((PERFT / "positions").glob("*.yaml"))}
COUNTS: dict[str, dict[int, int]] = yaml.safe_load(
    (PERFT / "counts.yaml").read_text(encoding="utf-8")
)
# The mistakes are put in by patching Python methods of the engine and the abilities: a
# compiled engine calls its own native code, which no patch reaches. What they show is
# the power of the reference counts, the same in both forms; test_perft checks the
# compiled engine gives those counts.
pytestmark = pytest.mark.skipif(
    not oriflamme.core._engine.__file__.endswith(".py"),
    reason="the compiled engine's methods cannot be patched with mistakes: run in pure Python",
)

#: The largest reference count the search runs (at most a few tenths of a second each,
#: in pure Python): a mistake must show in a count that runs in seconds.
LIMIT = 20_000
#: The counts searched, in order: the shallowest depth first, then by position name.
CELLS = sorted(
    (depth, name)
    for name, counts in COUNTS.items()
    for depth, count in counts.items()
    if count <= LIMIT
)


@attrs.frozen
class Catch:
    """What caught a mutation: a reference count (position, depth, what it became), or
    a scenario of the suite (``depth`` None)."""

    where: str
    depth: int | None
    change: str


def first_catch(mutation: Mutation, registry: Registry) -> Catch | None:
    """The first reference count that ``mutation`` changes, else the first scenario it
    fails, else None."""
    with pytest.MonkeyPatch.context() as patch:
        mutation.apply(patch)
        for depth, name in CELLS:
            expected = COUNTS[name][depth]
            try:
                # Set up under the mutation: it may change what happens before the
                # first decision.
                game = position_after_play(load_scenario(POSITIONS[name]), registry)
                found = perft(game, depth)
            except Exception as error:  # a mistake that breaks the engine is caught too
                return Catch(name, depth, f"{expected:,} -> {type(error).__name__}")
            if found != expected:
                return Catch(name, depth, f"{expected:,} -> {found:,}")
        for result in run_paths([ROOT / "tests" / "conformance"], registry):
            if not result.passed:
                return Catch(result.path, None, "fails")
    return None


_CAUGHT: dict[str, Catch | None] = {}


def caught(mutation: Mutation, registry: Registry) -> Catch | None:
    """:func:`first_catch`, searched once per mutation in a run."""
    if mutation.name not in _CAUGHT:
        _CAUGHT[mutation.name] = first_catch(mutation, registry)
    return _CAUGHT[mutation.name]


def table_row(mutation: Mutation, catch: Catch | None) -> str:
    """The mutation's row of docs/perft.md's table."""
    start = f"| `{mutation.name}` | {mutation.ruling} | {mutation.what} |"
    if catch is None:
        return f"{start} survives | | |"
    if catch.depth is None:
        return f"{start} scenario `{catch.where}` | | {catch.change} |"
    return f"{start} `{catch.where}` | {catch.depth} | {catch.change} |"


HEADER = "| mutation | ruling | the mistake | caught by | depth | count |"


def test_mutations_cover_the_tricky_rulings() -> None:
    """At least 20 mutations, each reading wrongly a ruling docs/rulings.md has, and
    among them every family of tricky rulings."""
    assert len(MUTATIONS) >= 20
    rulings = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"^\s*- \*\*([A-Z][\w/ -]*?)\.(?:\*\*| )", rulings, flags=re.MULTILINE))
    for mutation in MUTATIONS:
        assert mutation.ruling in ids, (
            f"{mutation.name}: no ruling {mutation.ruling} in docs/rulings.md"
        )
    covered = {mutation.ruling for mutation in MUTATIONS}
    for ruling in (
        "R6",
        "R8",
        "P6",
        "P2",
        "P18",
        "A-Plot",
        "A-Prince",
        "A-Bribery",
        "B-Ambush",
        "A-Trap",
        "A-Impersonation",
        "A-Schemer",
        "A-Cutthroat",
        "B-Archer",
        "G5",
    ):
        assert ruling in covered, f"no mutation of {ruling}"


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda mutation: mutation.name)
def test_the_mutation_is_caught(mutation: Mutation, registry: Registry) -> None:
    catch = caught(mutation, registry)
    assert catch is not None, (
        f"{mutation.name} ({mutation.ruling}: {mutation.what}) survives: no reference count "
        f"up to {LIMIT:,} differs, and every scenario of tests/conformance passes"
    )


def test_the_docs_table_is_what_catches_each_mutation(registry: Registry) -> None:
    """docs/perft.md's table says, for each mutation, what the search finds (printed)."""
    rows = [table_row(mutation, caught(mutation, registry)) for mutation in MUTATIONS]
    print("\n".join(["", HEADER, *rows]))
    text = (ROOT / "docs" / "perft.md").read_text(encoding="utf-8")
    section = text.split("## Mistakes the counts catch", 1)[1].split("\n## ", 1)[0]
    documented = [line for line in section.splitlines() if line.startswith("| `")]
    assert documented == rows, "docs/perft.md's table of mutations, against the search"


def test_the_reference_counts_stand_once_the_mutations_are_undone(registry: Registry) -> None:
    for mutation in MUTATIONS:
        caught(mutation, registry)
    for name, path in POSITIONS.items():
        game = position_after_play(load_scenario(path), registry)
        assert perft(game, 3) == COUNTS[name][3], name
