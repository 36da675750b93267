"""Build tests/perft/random.yaml: perft positions reached by seeded random play.

In the spirit of the random perft positions of chess libraries: many positions nobody
chose, each counted to the depth that keeps checking the whole set to minutes, so that
another engine meets the situations the hand-written positions of tests/perft/positions
never reach. docs/perft.md ("The random set") describes the file for its readers.

Run from the project's root (a few minutes; ``--jobs`` processes, every core by
default)::

    .venv/bin/python -m tests.make_perft_set

The file is rebuilt byte for byte from :data:`MASTER_SEED`, whatever the number of
processes: each entry depends on its index and its seed alone (:func:`make_entry`),
and the seeds are drawn in order from one generator seeded with the master seed
(:func:`plan`), so that tests/test_perft_random.py rebuilds a few entries alone.

Entry ``i``:

1. Its seed is drawn as the server draws a game's (``secrets.randbits(63)``,
   oriflamme.web): 63 random bits, from 0 to ``MAX_SEED``. One game in four with
   base cards plays the ``revised`` Ambush (a second draw).
2. Its kind comes from ``i``: base, Ablaze and mixed (both sets, the cards drawn as
   ``Game.new`` draws them) in turn, with 3, 4 and 5 families in turn: one entry in
   nine of each kind.
3. The game is dealt from the seed as ``Game.new`` deals it, and :data:`GAMES` games
   are played from the deal to their ends, each answer drawn uniformly among the
   decision's options by the generator that dealt.
4. One decision is picked by the same generator, for the entry's aim (:data:`AIMS`,
   one for nine entries in turn, so that each kind meets each aim): in the first game
   that shows the aim's first mark (or, if none does, its second...), among the
   decisions that show it; among every decision of the first game if none shows any.
5. The position is written in the scenario notation: the table at the latest decision
   (this one, or one before it) that a ``state`` holds exactly (a round's first placement, the walk
   reaching a card...), then the answers from there as ``play`` steps (the walk in the
   middle of an ability, or of a placement round, is no ``state``). It is kept only if
   the game built from the file plays on exactly as the game played did
   (:func:`plays_alike`) and gives the same counts.
6. It is counted from depth 1 on, while the work stays small (:func:`depths`).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from oriflamme import COLOURS, Game, GameConfig, OriflammeError, Registry
from oriflamme.conformance import load_scenario
from oriflamme.conformance.protocol import entries, queue_json
from oriflamme.limits import MAX_SEED
from oriflamme.perft import MAX_DEPTH, answer_texts, perft, position_after_play
from oriflamme.pool import share_out
from oriflamme.simulate import progress_bar

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "perft" / "random.yaml"

#: Every seed of the file comes from this one (docs/perft.md, "The random set").
MASTER_SEED = 6_070_391_553_826_417_309
#: How many entries: 120 of each of the nine kinds.
ENTRIES = 1_080
#: The kinds of game, in turn by index: (sets, number of families).
KINDS: tuple[tuple[tuple[str, ...], int], ...] = tuple(
    (sets, families)
    for families in (3, 4, 5)
    for sets in (("base",), ("ablaze",), ("base", "ablaze"))
)
#: The name of each kind's sets, in ids.
SET_NAMES = {("base",): "base", ("ablaze",): "ablaze", ("base", "ablaze"): "mixed"}
#: What an entry's position is picked for, in turn, and how: the first of its marks
#: that some decision of the game shows (a tag of :func:`tags`, ``asks-`` and the kind
#: of decision asked, ``by-`` and the card whose ability asks), or any decision if none
#: does (an Ablaze card's, in a base game).
AIMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("round-start", ("round-start",)),
    ("placement", ("placement",)),
    ("reveal", ("asks-reveal",)),
    ("target", ("asks-target",)),
    ("stack", ("stack",)),
    ("bribed", ("bribed", "by-bribery")),
    ("twin", ("asks-twin", "twin")),
    ("plot", ("asks-choose", "by-plot", "plot")),  # a Plot spending its tokens first
    ("ambush", ("ambush", "trap")),
    ("late", ("late",)),
    ("end", ("end",)),
    ("move", ("asks-move",)),
)
#: The random games played from each deal: the first that shows an aim's mark gives the
#: position (a Plot spends its tokens in few games, say).
GAMES = 5
#: The share of the games with base cards that play the revised Ambush.
REVISED = 0.25
#: The random games played on from the position written and from the game itself, which
#: must go alike to their ends.
PLAYOUTS = 3
#: The work allowed to check one entry, in answers played (:func:`depths`): the whole
#: set then checks in about two minutes, in pure Python.
WORK = 15_000
#: An entry's keys that are a scenario's (docs/scenarios.md), in their order.
SCENARIO_KEYS = ("sets", "players", "variants", "state", "play")


def plan(master: int = MASTER_SEED, entries: int = ENTRIES) -> list[tuple[int, bool]]:
    """Each entry's seed, and whether it plays the revised Ambush, in order."""
    rng = random.Random(master)
    drawn = []
    for _ in range(entries):
        seed = rng.getrandbits(63)  # as oriflamme.web draws a game's seed
        assert 0 <= seed <= MAX_SEED
        drawn.append((seed, rng.random() < REVISED))
    return drawn


def kind_of(index: int) -> tuple[tuple[str, ...], int]:
    return KINDS[index % len(KINDS)]


def aim_of(index: int) -> tuple[str, tuple[str, ...]]:
    return AIMS[index // len(KINDS) % len(AIMS)]


def entry_id(index: int) -> str:
    sets, families = kind_of(index)
    return f"{SET_NAMES[sets]}-{families}-{index:04d}"


def config_of(index: int, seed: int, revised: bool) -> GameConfig:
    sets, families = kind_of(index)
    variants = {"ambush_own_elimination": "revised"} if revised and "base" in sets else {}
    return GameConfig(families=COLOURS[:families], sets=sets, seed=seed, variants=variants)


# What a position shows.


def tags(game: Game) -> list[str]:
    """What ``game``'s position shows, in order: the phase (``round-start`` when no card
    is placed yet this round, ``placement`` after, ``resolution``), then ``stack``,
    ``bribed`` (a Bribery token on a card), ``twin`` (a Twin in the queue, or to put
    there), ``plot`` (a face-down Plot with tokens, or a Plot acting), ``ambush``,
    ``trap``, ``face-up``, ``tokens`` (on a face-down card), ``late`` (round 5 or 6)
    and ``end`` (round 6's resolution: every sequence ends within the round)."""
    position = game.position()
    decision = game.decision
    assert decision is not None
    cards = [entry for stack in position.queue for entry in stack]
    keys = {key(entry.card) for entry in cards}
    found = []
    if position.phase == "placement":
        found.append("round-start" if game.observe().placed == 0 else "placement")
    else:
        found.append("resolution")
    shown = {
        "stack": any(len(stack) > 1 for stack in position.queue),
        "bribed": any(entry.owner is not None for entry in cards),
        "twin": decision.kind == "twin" or "twin" in keys,
        "plot": decision.ability == "plot"
        or any(key(entry.card) == "plot" and entry.tokens for entry in cards),
        "ambush": "ambush" in keys,
        "trap": "trap" in keys,
        "face-up": any(entry.up for entry in cards),
        "tokens": any(entry.tokens for entry in cards),
        "late": position.round >= 5,
        "end": position.round == 6 and position.phase == "resolution",
    }
    return found + [tag for tag, there in shown.items() if there]


def key(card: str) -> str:
    """``red.soldier.2`` -> ``soldier``."""
    return card.split(".")[1]


# Playing a game.


def played(deal: Game, rng: random.Random) -> tuple[list[int], list[set[str]]]:
    """A game played from ``deal`` to its end, each answer drawn by ``rng``: each answer's
    number among the options, and the marks of each decision (see :data:`AIMS`)."""
    game = deal.clone()
    answers: list[int] = []
    shown: list[set[str]] = []
    while (decision := game.decision) is not None:
        by = {f"by-{decision.ability}"} if decision.ability else set()
        shown.append({*tags(game), f"asks-{decision.kind}", *by})
        answers.append(rng.randrange(len(decision.options)))
        game.answer_option(answers[-1])
    return answers, shown


def picked(games: Sequence[list[set[str]]], marks: Sequence[str]) -> tuple[int, list[int]]:
    """The game to pick a decision from, and the decisions to pick among: in the first
    game that shows the first of ``marks`` that any shows, those that show it; if none
    does, every decision of the first game."""
    for mark in marks:
        for number, shown in enumerate(games):
            showing = [decision for decision, there in enumerate(shown) if mark in there]
            if showing:
                return number, showing
    return 0, list(range(len(games[0])))


def replayed(deal: Game, answers: Sequence[int]) -> Iterator[Game]:
    """The game from ``deal`` before each of ``answers``, then after the last."""
    game = deal.clone()
    yield game.clone()
    for number in answers:
        game.answer_option(number)
        yield game.clone()


# Writing a position.


def state_of(game: Game) -> dict[str, Any]:
    """``game``'s table as a scenario's ``state`` (docs/scenarios.md): every key but
    ``reserve`` (it holds Twins only, and a Twin the state names nowhere is put there)
    and the piles no family has a card in."""
    position = game.position()
    state: dict[str, Any] = {
        "round": position.round,
        "phase": position.phase,
        "first_player": game.observe().first_player,
    }
    if position.phase == "resolution":
        state["resolving"] = position.resolving
    state["influence"] = {family: position.influence[family] for family in game.families}
    state["queue"] = queue_json(entries(position))
    for zone in ("hands", "set_aside", "discarded", "eliminated"):
        cards = position.zone(zone)
        held = {family: list(cards[family]) for family in game.families if cards.get(family)}
        if held:
            state[zone] = held
    return state


def scenario_text(entry: Mapping[str, Any]) -> str:
    """``entry`` as a scenario file, which ``oriflamme perft`` counts from."""
    scenario = {"name": entry["id"], **{name: entry[name] for name in SCENARIO_KEYS}}
    return yaml.safe_dump(scenario, sort_keys=False)


def game_of(entry: Mapping[str, Any], registry: Registry, folder: Path) -> Game:
    """The game ``oriflamme perft`` counts from, ``entry`` written out as a file in
    ``folder`` and read back as the command reads it."""
    path = folder / f"{entry['id']}.yaml"
    path.write_text(scenario_text(entry), encoding="utf-8")
    return position_after_play(load_scenario(path), registry)


def plays_alike(game: Game, written: Game, seed: int) -> bool:
    """``written`` asks what ``game`` asks, with the same answers written alike and the
    same table after each, to the same scores at the end, along :data:`PLAYOUTS`
    random games: what a ``state`` leaves out (the engine's work under way) is not
    missed."""
    for playout in range(PLAYOUTS):
        rng = random.Random(seed + playout)
        one, other = game.clone(), written.clone()
        while one.decision is not None and other.decision is not None:
            texts = answer_texts(one)
            if texts != answer_texts(other) or not same_table(one, other):
                return False
            number = rng.randrange(len(texts))
            one.answer_option(number)
            other.answer_option(number)
        if one.decision is not None or other.decision is not None or one.scores != other.scores:
            return False
    return True


def same_table(one: Game, other: Game) -> bool:
    """The same table, but for the Twins a scenario puts in the reserve where the deal
    had none (a mixed game dealt without the Prince): they never come in."""
    a, b = one.position(), other.position()
    undealt = set(b.cards()) - set(a.cards())
    reserve = {
        family: tuple(card for card in cards if card not in undealt)
        for family, cards in b.reserve.items()
    }
    return (
        all(key(card) == "twin" for card in undealt)
        and (a.queue, a.hands, a.set_aside) == (b.queue, b.hands, b.set_aside)
        and (a.discarded, a.eliminated, a.influence) == (b.discarded, b.eliminated, b.influence)
        and (a.round, a.phase, a.resolving) == (b.round, b.phase, b.resolving)
        and a.reserve == reserve
        and one.observe().first_player == other.observe().first_player
    )


# Counting.


def depths(game: Game, work: int = WORK) -> dict[int, int]:
    """Counts from depth 1 on: always to depth 2, then deeper while the work of checking
    every depth stays at most ``work``, and never past the command's ``MAX_DEPTH``.

    The work is counted in answers played: a count at depth ``d`` plays an answer for
    each sequence of ``d - 1`` decisions (the last decision's answers are counted, not
    played), so checking depths 1 to ``D`` plays the counts below ``d``, summed over
    ``d``. That is what checking takes time for, and it comes from the counts alone: the
    file is the same whatever the machine that makes it."""
    counts: dict[int, int] = {}
    done = 0
    for depth in range(1, MAX_DEPTH + 1):
        more = sum(counts.values())
        if depth > 2 and done + more > work:
            break
        done += more
        counts[depth] = perft(game, depth)
    return counts


# An entry.


def make_entry(index: int, seed: int, revised: bool, registry: Registry) -> dict[str, Any]:
    """Entry ``index`` of the file, from its seed alone (see the module's docstring)."""
    config = config_of(index, seed, revised)
    rng = random.Random(seed)
    deal = Game.new(config, registry=registry, rng=rng, record=False)
    plays = [played(deal, rng) for _ in range(GAMES)]
    aim, marks = aim_of(index)
    which, candidates = picked([shown for _, shown in plays], marks)
    answers = plays[which][0][: rng.choice(candidates)]
    games = list(replayed(deal, answers))
    game = games[-1]
    decision = game.decision
    assert decision is not None
    steps = [
        yaml.safe_load(answer_texts(before)[option])  # `family: {answer}`, a play step
        for before, option in zip(games, answers, strict=False)
    ]
    with tempfile.TemporaryDirectory() as folder:
        # From the position itself back: the first one a state holds is the latest.
        for start in range(len(answers), -1, -1):
            entry: dict[str, Any] = {
                "id": entry_id(index),
                "seed": seed,
                "reached": {"game": which + 1, "answers": len(answers), "aim": aim},
                "tags": tags(game),
                "asks": {decision.family: decision.kind},
                "sets": list(config.sets),
                "players": list(config.families),
                "variants": dict(game.rules.variants),
                "state": state_of(games[start]),
                "play": steps[start:],
            }
            try:
                written = game_of(entry, registry, Path(folder))
            except OriflammeError:
                continue  # a table no state holds: a face-up Intrigue acting, say
            if not plays_alike(game, written, seed):
                continue
            counts = depths(written)
            if counts != {depth: perft(game, depth) for depth in counts}:
                continue
            entry["counts"] = counts
            return entry
    raise AssertionError(f"entry {index} (seed {seed}): no position written plays as the game")


# The file.

HEADER = f"""\
# Random perft positions: {ENTRIES:,} positions reached by seeded random play, in base,
# Ablaze and mixed (base and Ablaze) games of 3, 4 and 5 families, each with its
# counts. docs/perft.md ("The random set") says what each key holds.
#
# Made by `.venv/bin/python -m tests.make_perft_set` (tests/make_perft_set.py), which
# rebuilds this file byte for byte from the master seed {MASTER_SEED}:
# do not edit it by hand. `make perft` checks every count; `make test` checks a sample.
#
# A list of entries. An entry's sets, players, variants, state and play are a
# scenario's (docs/scenarios.md): with `name: <id>` added they make a file that
# `oriflamme perft PATH --depth N` counts from. counts maps each depth, from 1 up to
# the deepest with no gap, to the number of sequences of that many asked decisions.
# seed, reached, tags and asks say where the position comes from and what it shows.
"""


def flow(value: object) -> str:
    """``value`` on one line, in YAML's flow style (a scalar quoted where a bare one
    would read as something else)."""
    text: str = yaml.safe_dump([value], default_flow_style=True, sort_keys=False, width=2**31)
    return text.strip()[1:-1]


def render(entry: Mapping[str, Any]) -> str:
    """One entry of the file: a queue card, a stack, a pile or a step on each line."""
    lines = [f"- id: {flow(entry['id'])}"]
    for name in ("seed", "reached", "tags", "asks", *SCENARIO_KEYS[:3]):
        lines.append(f"  {name}: {flow(entry[name])}")
    lines.append("  state:")
    for name, value in entry["state"].items():
        if name == "queue" and value:
            lines.append("    queue:")
            lines.extend(f"      - {flow(stack)}" for stack in value)
        elif name in ("hands", "set_aside", "discarded", "eliminated"):
            lines.append(f"    {name}:")
            lines.extend(f"      {family}: {flow(cards)}" for family, cards in value.items())
        else:
            lines.append(f"    {name}: {flow(value)}")
    if entry["play"]:
        lines.append("  play:")
        for step in entry["play"]:
            ((family, answer),) = step.items()
            lines.append(f"    - {family}: {flow(answer)}")
    else:
        lines.append("  play: []")
    lines.append(f"  counts: {flow(entry['counts'])}")
    return "\n".join(lines) + "\n"


def entry_texts(text: str) -> list[str]:
    """The file's text cut into its entries', each as :func:`render` wrote it."""
    return re.split(r"(?m)^(?=- id: )", text)[1:]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.make_perft_set",
        description="Rebuild tests/perft/random.yaml from its master seed.",
    )
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: every core)"
    )
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"default: {OUTPUT}")
    args = parser.parse_args(argv)
    registry = Registry(entry_points=False)  # the built-in sets, whatever is installed
    seeds = plan()
    made: dict[int, str] = {}
    start = time.perf_counter()

    def make(indices: range) -> list[tuple[int, str]]:
        return [(i, render(make_entry(i, *seeds[i], registry))) for i in indices]

    def keep(part: list[tuple[int, str]]) -> None:
        made.update(part)

    share_out(
        make,
        keep,
        0,
        ENTRIES,
        size=4,
        jobs=args.jobs,
        progress=progress_bar(ENTRIES, sys.stderr),
    )
    text = HEADER + "".join(made[i] for i in range(ENTRIES))
    read = yaml.safe_load(text)
    assert [entry["id"] for entry in read] == [entry_id(i) for i in range(ENTRIES)]
    args.output.write_text(text, encoding="utf-8")
    seconds = time.perf_counter() - start
    print(f"{args.output}: {ENTRIES:,} positions in {seconds:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
