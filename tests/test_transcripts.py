"""Whole games of ``oriflamme play``, compared line by line with transcripts kept here.

Each game is seeded; the person's answers are scripted (always the first answer, so
the transcript reads as a plain game) and echoed after each prompt, as at a terminal.
The transcripts under tests/transcripts/ were read through by eye once; any change to
what a player reads shows here as a difference. After a deliberate change, write them
again with ``ORIFLAMME_WRITE_TRANSCRIPTS=1 pytest tests/test_transcripts.py`` and read
the diff before committing it.

The 4-family mixed game is also checked line by line: each Influence change names the
card behind it, and the Influence the lines announce adds up to the final scores, so
nothing is told twice or left out.
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from oriflamme import Registry
from oriflamme.arguments import build_parser
from oriflamme.terminal import play_command

FOLDER = Path(__file__).parent / "transcripts"
WRITE = os.environ.get("ORIFLAMME_WRITE_TRANSCRIPTS") == "1"
GAMES = {
    "mixed-4-families": "--families 4 --sets base,ablaze --seed 7 --bots heuristic",
    "base-3-families": "--families 3 --sets base --seed 3 --bots random --seat 2 --language fr",
    "ablaze-5-families": "--families 5 --sets ablaze --seed 11 "
    "--bots heuristic,random,random,random",
    "mixed-3-families-pl": "--families 3 --sets base,ablaze --seed 12 --bots random --seat 3 "
    "--language pl",
}
#: The Influence a line announces at its end, naming whose: ": you +2.", ": blue +1, green -1."
SCORES = re.compile(r": ([a-z]+ [+-]\d+(?:, [a-z]+ [+-]\d+)*)\.$")


def transcript(options: str, registry: Registry) -> str:
    out = io.StringIO()

    def typed(prompt: str) -> str:
        out.write(f"{prompt}1\n")  # echoed, as a terminal shows what was typed
        return "1"

    args = build_parser().parse_args(["play", *options.split()])
    assert play_command(args, registry, read=typed, out=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seeded_game_reads_as_its_transcript(registry: Registry, name: str) -> None:
    print(f"oriflamme play {GAMES[name]}")
    text = transcript(GAMES[name], registry)
    path = FOLDER / f"{name}.txt"
    if WRITE:
        FOLDER.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    kept = path.read_text(encoding="utf-8")
    assert text.splitlines() == kept.splitlines()


def test_every_influence_change_names_its_card_and_counts_once(registry: Registry) -> None:
    print(f"oriflamme play {GAMES['mixed-4-families']}")
    lines = transcript(GAMES["mixed-4-families"], registry).splitlines()
    you = "red"
    start = next(line for line in lines if line.startswith("Influence: "))
    total = Counter(_scores(start.removeprefix("Influence: ")))
    told = [line for line in lines if SCORES.search(line)]
    assert len(told) > 15
    for line in told:
        assert re.match(r"(Your|[A-Z][a-z]+'s) ", line), line  # a card, and its owner
        found = SCORES.search(line)
        assert found is not None
        for part in found.group(1).split(", "):
            family, _, amount = part.rpartition(" ")
            total[you if family == "you" else family] += int(amount)
    # The last line: "The game is over: red 2 (you), blue 9. Blue wins."
    final = next(line for line in lines if line.startswith("The game is over: "))
    assert dict(total) == _scores(final.removeprefix("The game is over: ").rsplit(". ", 1)[0])
    for kind in ("eliminated", "is discarded", "placed", "Bribery token on", "moved"):
        for line in (line for line in lines if f" {kind}" in line):
            assert re.match(r"(You|Your|[A-Z][a-z]+'s|[A-Z][a-z]+) ", line), line


def _scores(text: str) -> dict[str, int]:
    """``red 3 (you), blue 5`` as a mapping."""
    pairs = (part.replace(" (you)", "").split() for part in text.split(", "))
    return {family: int(score) for family, score in pairs}


def test_a_game_in_french_quotes_the_cards_in_french(registry: Registry) -> None:
    print(f"oriflamme play {GAMES['base-3-families']}")
    text = transcript(GAMES["base-3-families"], registry)
    english = {d.text for d in registry.cards.values() if d.set == "base"}
    french = {d.text_in("fr") for d in registry.cards.values() if d.set == "base"}
    assert not [t for t in english if t in text]
    assert [t for t in french if f"« {t} »" in text]
