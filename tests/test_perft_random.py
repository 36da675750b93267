"""The random perft set, tests/perft/random.yaml, checked.

Each entry is written out as the scenario file it is (``name: <id>`` added) and read
back as ``oriflamme perft`` reads it, then counted. ``make test`` checks a sample of
:data:`SAMPLE` entries, every kind of game among them, with this engine's perft at
every depth, and at a shallower depth with the independent counter of
tests/test_perft.py (``naive``, written from docs/perft.md's definition alone).
``make perft`` sets ``ORIFLAMME_PERFT_ALL=1``: every entry is checked with the engine,
and the whole file read at once. The generator, tests/make_perft_set.py, rebuilds a few
entries exactly here.

Each entry's seed is in the file: a test prints the seed of the entry it checks.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from oriflamme import Registry
from oriflamme.cli import main
from oriflamme.limits import MAX_SEED
from oriflamme.perft import MAX_DEPTH, perft

from .conftest import ROOT
from .make_perft_set import (
    ENTRIES,
    KINDS,
    MASTER_SEED,
    OUTPUT,
    SCENARIO_KEYS,
    entry_id,
    entry_texts,
    game_of,
    make_entry,
    plan,
    render,
    scenario_text,
)
from .test_perft import naive

#: Set to 1 (``make perft``) to check every entry, not only the sample.
ALL = os.environ.get("ORIFLAMME_PERFT_ALL") == "1"
TEXT = OUTPUT.read_text(encoding="utf-8")
#: Each entry's text, as the generator wrote it. Reading the whole file as YAML takes
#: seconds in pure Python: a test reads only the entries it checks.
TEXTS = entry_texts(TEXT)
#: One entry in 26, 40 in all: 26 and the 9 kinds have no common factor, so the sample
#: goes through every kind (and the aims, one for nine entries, in turn).
SAMPLE = range(0, 40 * 26, 26)
CHECKED = range(len(TEXTS)) if ALL else SAMPLE
#: The independent counter plays out every sequence and tries every answer the notation
#: can write: it counts the sample at the deepest depth with at most this many.
NAIVE_LIMIT = 1_000
#: Entries the generator makes again, each with steps to play: a mixed game in the
#: middle of a placement round, an Ablaze Plot spending its tokens (asking gain or
#: repeat), a base Royal Decree moving a card.
REBUILT = [14, 64, 75]


@functools.cache
def entry(index: int) -> dict[str, Any]:
    """Entry ``index``, read once (the whole file's test reads them all again)."""
    (found,) = yaml.safe_load(TEXTS[index])
    assert isinstance(found, dict)
    return found


def name(index: int) -> str:
    match = re.match(r"- id: (\S+)\n", TEXTS[index])
    assert match is not None, f"entry {index} does not start with its id"
    return match.group(1)


@functools.cache
def read_heads() -> list[dict[str, Any]]:
    """Each entry's one-line keys (its first 8 lines) and its counts (its last line),
    read as YAML: a tenth of the file, read in a second or two."""
    lines = [text.splitlines() for text in TEXTS]
    heads = yaml.safe_load("\n".join(line for entry in lines for line in [*entry[:8], entry[-1]]))
    assert isinstance(heads, list)
    return heads


def test_the_set_has_every_kind_of_game() -> None:
    """At least 1,000 entries, each kind of game as often, each seed the master seed's,
    each count where it should be; and the situations the set is made to cover."""
    assert len(TEXTS) == ENTRIES >= 1_000
    assert f"master seed {MASTER_SEED}" in TEXT[: TEXT.index("\n- id: ")]
    heads = read_heads()
    assert [head["id"] for head in heads] == [entry_id(i) for i in range(ENTRIES)]
    seeds = plan()
    kinds: Counter[tuple[tuple[str, ...], int]] = Counter()
    tags: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    for index, head in enumerate(heads):
        seed, revised = seeds[index]
        assert head["seed"] == seed, head["id"]
        assert 0 <= seed <= MAX_SEED, head["id"]
        revised = revised and "base" in head["sets"]
        assert (head["variants"].get("ambush_own_elimination") == "revised") == revised
        kinds[tuple(head["sets"]), len(head["players"])] += 1
        tags.update(head["tags"])
        ((_, kind),) = head["asks"].items()
        asked[kind] += 1
        counts = head["counts"]
        assert sorted(counts) == list(range(1, len(counts) + 1)), head["id"]
        assert 2 <= len(counts) <= MAX_DEPTH, head["id"]
        # Every asked decision has 2 answers or more, and a finished game counts 1.
        values = [counts[depth] for depth in sorted(counts)]
        assert values[0] >= 2, head["id"]
        assert values == sorted(values), head["id"]
    assert kinds == dict.fromkeys(KINDS, ENTRIES // len(KINDS))
    assert {tuple(sets) for sets, _ in kinds} == {("base",), ("ablaze",), ("base", "ablaze")}
    print(f"tags: {dict(tags)}\nasked: {dict(asked)}")
    # What the set is made to cover: each tag of make_perft_set.tags, each kind of
    # decision, and positions in the middle of a placement round or of an ability.
    covered = ["round-start", "placement", "resolution", "stack", "bribed", "twin", "plot"]
    covered += ["ambush", "trap", "face-up", "tokens", "late", "end"]
    for tag in covered:
        assert tags[tag] >= 50, f"{tags[tag]} entries show {tag}"
    for kind in ("place", "reveal", "target", "move", "twin", "choose"):
        assert asked[kind] >= 5, f"{asked[kind]} entries ask {kind}"
    played = sum(1 for text in TEXTS if "\n  play: []\n" not in text)
    assert played >= 100, f"only {played} entries start with play steps"


def test_the_docs_table_of_tags_is_the_files() -> None:
    """docs/perft.md's table of what the positions show counts the file's tags."""
    text = (ROOT / "docs" / "perft.md").read_text(encoding="utf-8")
    section = text.split("## The random set", 1)[1].split("\n## ", 1)[0]
    rows = {}
    table = section.split("What the positions show", 1)[1].split("\n\n")[1]
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `"):
            rows[cells[0].strip("`")] = [int(cell.replace(",", "")) for cell in cells[1:5]]
    found: dict[str, list[int]] = {}
    for head in read_heads():
        column = ["base", "ablaze", "mixed"].index(head["id"].split("-")[0])
        for tag in head["tags"]:
            counts = found.setdefault(tag, [0, 0, 0, 0])
            counts[column] += 1
            counts[3] += 1
    assert rows == found


@pytest.mark.parametrize("index", CHECKED, ids=name)
def test_the_counts(index: int, registry: Registry, tmp_path: Path) -> None:
    found = entry(index)
    print(f"{found['id']}: seed {found['seed']}")
    game = game_of(found, registry, tmp_path)
    decision = game.decision
    assert decision is not None
    assert found["asks"] == {decision.family: decision.kind}
    counts = {depth: perft(game, depth) for depth in found["counts"]}
    assert counts == found["counts"], f"{found['id']}: perft against tests/perft/random.yaml"


@pytest.mark.parametrize("index", SAMPLE, ids=name)
def test_an_independent_counter_finds_the_counts(
    index: int, registry: Registry, tmp_path: Path
) -> None:
    found = entry(index)
    print(f"{found['id']}: seed {found['seed']}")
    counts = found["counts"]
    depth = max([1, *(d for d in counts if counts[d] <= NAIVE_LIMIT and d < max(counts))])
    game = game_of(found, registry, tmp_path)
    assert naive(game, depth) == counts[depth], f"{found['id']}: naive counter, depth {depth}"


@pytest.mark.parametrize("index", REBUILT, ids=name)
def test_the_generator_makes_an_entry_again_from_its_seed(index: int, registry: Registry) -> None:
    seed, revised = plan()[index]
    print(f"{entry_id(index)}: seed {seed}")
    assert render(make_entry(index, seed, revised, registry)) == TEXTS[index]


def test_an_entry_written_out_is_counted_by_the_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = entry(REBUILT[0])
    seed = f"{found['id']}: seed {found['seed']}"
    print(seed)
    assert found["play"], "an entry with play steps"
    path = tmp_path / "entry.yaml"
    path.write_text(scenario_text(found), encoding="utf-8")
    assert main(["perft", str(path), "--depth", "3", "--no-plugins"]) == 0
    out = capsys.readouterr().out
    print(out, end="")  # shown again if what follows fails
    assert out == f"{seed}\n{found['counts'][3]}\n"
    assert set(yaml.safe_load(path.read_text(encoding="utf-8"))) == {"name", *SCENARIO_KEYS}


@pytest.mark.skipif(not ALL, reason="reads the whole file (seconds): ORIFLAMME_PERFT_ALL=1")
def test_the_whole_file_reads_as_its_entries() -> None:
    """The file read at once is the entries read one by one: cutting it up loses none."""
    read = yaml.safe_load(TEXT)
    assert read == [entry(index) for index in range(len(TEXTS))]
