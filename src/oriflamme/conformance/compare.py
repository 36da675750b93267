"""``oriflamme conformance --compare CMD``: where another engine first differs from ours.

Seeded games are played on both engines at once, through the engine protocol
(docs/engine-protocol.md) on both sides: each position is sent to the other engine
with ``load`` and handed to ours as the same :class:`~.engines.Setup`, built from
the same request, so that the two are compared on what the protocol carries and
nothing else. Each answer is drawn at random, from the game's seed, among ours'
legal answers, and given to both; after each one the decision and the position are
compared, and before each one the legal answers too, where the other engine lists
them (the protocol's optional ``options``).

The games are loaded afresh into both engines at every round's start, and at the
first turn of a resolution phase whose queue holds a stack, a bribed card, a Twin or
a Plot with tokens: so the other engine's ``load`` is tried on positions reached by
play, and a difference is found from a recent position both agreed on.

On the first difference, a scenario (docs/scenarios.md) that shows it is written:
from the latest position both engines agreed on, with the fewest answers. The
position just before the differing answer is tried first, and earlier ones only if
the other engine does not go wrong from it; each one is kept only if the scenario
passes here and fails on the other engine, at its last step or its ``expect``, as
``oriflamme conformance`` runs it.

Game ``i`` (from 0) has seed ``SEED + i``, which draws its families, sets (unless
``--families``/``--sets`` fix them), deal and answers: ``--seed SEED+i --games 1``
plays it alone again. With ``--jobs`` above 1 the games are shared out among
processes, each with an engine of its own; the difference reported is the one of the
earliest game that has one, whatever the number of processes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import attrs

from oriflamme import COLOURS, ConfigError, Game, GameConfig, OriflammeError, Registry
from oriflamme.limits import MAX_SEED
from oriflamme.saves import LABEL
from oriflamme.text import one_line
from oriflamme.yamlfile import YamlDocument

from ..pool import share_out
from ..simulate import progress_bar
from .engines import LocalEngine, Setup
from .model import ANSWER_FORMS, ZONES, Step
from .position import scenario_position
from .protocol import (
    REFUSALS,
    UNSUPPORTED,
    EngineRefused,
    Next,
    Table,
    load_state,
    printable,
    queue_json,
)
from .remote import RemoteEngine
from .runner import ScenarioResult, run_scenario
from .scenario import check_scenario, parse_scenario

#: Who ours is, and who the other, in what is printed (the other's command is printed
#: once, at the start).
OURS = "oriflamme"
THEIRS = "the engine"
#: Games when ``--games`` is left out.
GAMES = 100
#: What each game draws when ``--families`` or ``--sets`` is left out: every size of
#: game, and each set alone and both together (10 of their card types drawn).
FAMILY_CHOICES = (3, 4, 5)
SET_CHOICES: tuple[tuple[str, ...], ...] = (("base",), ("ablaze",), ("base", "ablaze"))
#: Games a process plays before it reports: small enough for the progress bar to move,
#: large enough that handing shares out costs nothing.
SHARE = 20
#: Warnings printed at most (one of ours' own inconsistencies, which should not happen).
MAX_WARNINGS = 5
#: The characters of a value shown in a report line (a queue of five families' cards
#: is a few hundred).
SHOWN = 1000

_BARE = re.compile(r"[a-z][a-z0-9_.-]*")
# Words YAML 1.1 reads as something other than a string.
_NOT_BARE = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n"})


# The notation, written: flow-style YAML, each word bare where it reads back as itself.


def word(value: object) -> str:
    """A scalar in the notation: bare where YAML reads it back as the same string,
    else as JSON (which is YAML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and _BARE.fullmatch(value) and value not in _NOT_BARE:
        return value
    return json.dumps(value)


def flow(value: object) -> str:
    """``value`` (mappings, lists and scalars) in YAML's flow style, on one line."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{word(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if value is None:
        return "null"
    return word(value)


def step_text(step: Step) -> str:
    """A step as ``play`` writes it: ``red: {target: blue.spy}``."""
    answer = dict(step.answer)
    if step.error:
        answer["error"] = True
    return f"{word(step.family)}: {flow(answer)}"


def make_step(family: str, answer: Mapping[str, Any], *, error: bool = False) -> Step:
    """``family``'s ``answer`` as a step (numbered when a scenario is written)."""
    kind = ANSWER_FORMS.get(frozenset(answer))
    if kind is None:
        raise OriflammeError(
            f"{family} is asked a decision whose answers the scenario notation cannot write "
            f"({flow(answer)}): the engines can be compared on the six kinds of "
            "docs/scenarios.md only"
        )
    return Step(0, family, kind, dict(answer), error, "")


# What is compared.


@attrs.frozen
class Settings:
    """A run, as the command line chose it (plain values: a forked worker reads them)."""

    command: str
    games: int
    seed: int
    families: int | None
    sets: tuple[str, ...] | None
    variants: tuple[tuple[str, str], ...]
    options: bool  # whether the other engine lists the legal answers
    out: str


@attrs.frozen
class Frame:
    """One game's sets, families (players) and variants: what each of its positions is
    loaded with."""

    sets: tuple[str, ...]
    players: tuple[str, ...]
    variants: Mapping[str, Any]


def game_config(settings: Settings, seed: int) -> tuple[GameConfig, random.Random]:
    """The configuration of the game of ``seed``, and the generator of its answers."""
    rng = random.Random(seed)
    # Both are always drawn, so that fixing one leaves the other's draw as it was.
    families = rng.choice(FAMILY_CHOICES)
    sets = rng.choice(SET_CHOICES)
    config = GameConfig(
        families=COLOURS[: settings.families or families],
        sets=settings.sets or sets,
        seed=seed,
        variants=dict(settings.variants),
    )
    return config, rng


def state_of(game: Game, players: tuple[str, ...]) -> dict[str, Any]:
    """The ``state`` of a ``load`` request that sets ``game``'s position up."""
    return load_state(game.position(), players, game.observe().first_player)


def setup_of(frame: Frame, state: Mapping[str, Any], registry: Registry) -> Setup:
    """The :class:`Setup` of a ``load`` of ``state``: read and checked exactly as
    ``oriflamme engine`` reads a ``load`` request, and as a scenario file is read."""
    data = {
        "name": "compare",
        "sets": list(frame.sets),
        "players": list(frame.players),
        "variants": dict(frame.variants),
        "state": dict(state),
    }
    scenario = check_scenario(YamlDocument("load", data, None))
    position, config = scenario_position(scenario, registry)
    return Setup(scenario.sets, scenario.players, scenario.variants, position, config)


def fingerprint(engine: LocalEngine) -> tuple[Table, Next, tuple[Mapping[str, Any], ...]]:
    return engine.table(), engine.decision(), engine.options()


def differences(
    ours: Table, theirs: Table, ours_next: Next, theirs_next: Next, players: Sequence[str]
) -> list[tuple[str, object, object]]:
    """Each key of ``expect`` on which ``theirs`` differs from ``ours``, as a scenario's
    ``expect`` of ours would find it (zones as collections, docs/rulings.md P9): the
    key, ours' value and theirs'."""
    found: list[tuple[str, object, object]] = []
    influence = {f: ours.influence.get(f) for f in players}
    other = {f: theirs.influence.get(f) for f in players}
    if influence != other:
        found.append(("influence", influence, other))
    if ours.queue != theirs.queue:
        found.append(("queue", queue_json(ours.queue), queue_json(theirs.queue)))
    for zone in ZONES:
        mine = {f: list(ours.zones[zone].get(f, ())) for f in players}
        yours = {f: list(theirs.zones[zone].get(f, ())) for f in players}
        if any(Counter(mine[f]) != Counter(yours[f]) for f in players):
            found.append((zone, mine, yours))
    if ours.round != theirs.round:
        found.append(("round", ours.round, theirs.round))
    over = ours_next == "end"
    if not over and ours.phase != theirs.phase:  # a finished game's phase is no key of expect
        found.append(("phase", ours.phase, theirs.phase))
    if ours_next != theirs_next:
        found.append(("next", ours_next, theirs_next))
    elif over and sorted(ours.winners or ()) != sorted(theirs.winners or ()):
        found.append(("winner", list(ours.winners or ()), list(theirs.winners or ())))
    return found


def expect_of(engine: LocalEngine, players: Sequence[str]) -> dict[str, Any]:
    """Every key of ``expect``, as ``engine`` holds it now."""
    table, asked = engine.table(), engine.decision()
    expect: dict[str, Any] = {
        "influence": {f: table.influence.get(f, 0) for f in players},
        "queue": queue_json(table.queue),
    }
    for zone in ZONES:
        expect[zone] = {f: list(table.zones[zone].get(f, ())) for f in players}
    expect["round"] = table.round
    if asked != "end":
        expect["phase"] = table.phase
    expect["next"] = asked
    if asked == "end":
        expect["winner"] = list(table.winners or ())
    return expect


def _features(table: Table) -> bool:
    """Whether the queue holds what a position is worth loading for: a stack, a bribed
    card, a Twin, or a Plot with tokens waiting on it."""
    for stack in table.queue:
        if len(stack) > 1:
            return True
        for entry in stack:
            match = LABEL.match(entry.card)
            key = match.group(2) if match is not None else ""
            if entry.owner is not None or key == "twin" or (key == "plot" and entry.tokens):
                return True
    return False


def _key(answer: Mapping[str, Any], empty_queue: bool) -> str:
    """An answer as a comparable key: in an empty queue ``last`` is ``first``."""
    if empty_queue and answer.get("at") == "last":
        answer = {**answer, "at": "first"}
    return json.dumps(answer, sort_keys=True)


# A difference, and the scenario that shows it.


@attrs.frozen
class Segment:
    """A game from the position last loaded into both engines (``start``, a ``load``
    request's ``state``): the answers given since."""

    frame: Frame
    start: Mapping[str, Any]
    steps: tuple[Step, ...] = ()


@attrs.frozen
class Mismatch:
    """What differs, found after ``at`` answers of the segment (the answers since the
    position last loaded into both): ``tail`` are the steps that show it from there
    (none: the loaded position itself)."""

    what: str
    sides: tuple[str, ...]
    at: int
    tail: tuple[Step, ...] = ()


@attrs.frozen
class Found:
    """A difference, with the scenario that shows it (None if none could be made)."""

    seed: int
    answers: int  # answers given in its game when the difference showed
    what: str
    sides: tuple[str, ...]
    scenario: str | None = None
    steps: int = 0
    start: str = ""
    fails: tuple[str, ...] = ()
    note: str = ""


@attrs.frozen
class Share:
    """What a share of games found: per game played to its end, its seed and answers."""

    played: tuple[tuple[int, int], ...]
    found: Found | None
    warnings: tuple[str, ...]


def _sides(found: list[tuple[str, object, object]]) -> tuple[str, ...]:
    """Each differing key, with ours' value above the other engine's."""
    width = max(len(OURS), len(THEIRS)) + 1
    lines: list[str] = []
    for key, mine, yours in found:
        lines.append(f"{key}:")
        lines.append(f"  {OURS + ':':<{width}} {one_line(flow(mine), SHOWN)}")
        lines.append(f"  {THEIRS + ':':<{width}} {one_line(flow(yours), SHOWN)}")
    return tuple(lines)


class Comparer:
    """Ours and the other engine, one game after another (one per process)."""

    def __init__(
        self, settings: Settings, registry: Registry, engine: RemoteEngine | None = None
    ) -> None:
        self.settings = settings
        self.registry = registry
        self.theirs = engine if engine is not None else RemoteEngine(settings.command)
        self.warnings: list[str] = []

    def close(self) -> None:
        self.theirs.close()

    def play(self, seeds: range, stop: Callable[[], int]) -> Share:
        """Play the games of ``seeds`` until one differs, or a game after ``stop()``'s
        (a difference already found) is reached."""
        played: list[tuple[int, int]] = []
        self.warnings = []
        for seed in seeds:
            if seed > stop():
                break
            found, answers = self.game(seed)
            if found is not None:
                return Share(tuple(played), found, tuple(self.warnings))
            played.append((seed, answers))
        return Share(tuple(played), None, tuple(self.warnings))

    def warn(self, seed: int, message: str) -> None:
        self.warnings.append(f"game of seed {seed}: {one_line(message, SHOWN)}")

    def restart(
        self,
        frame: Frame,
        state: Mapping[str, Any],
        seed: int,
        expected: object = None,
        *,
        warn: bool = True,
    ) -> tuple[LocalEngine, Setup] | None:
        """Ours set up at ``state`` through the path of a ``load``, if it gives the game
        ``expected`` (the fingerprint of the position as play reached it).

        A round's start and a turn's start are positions the notation holds whole: ours
        not giving the same game there is ours' own mistake, a warning (``warn``).
        Other positions may not be (a card halfway through its ability), and are
        tried only for a shorter scenario."""
        try:
            setup = setup_of(frame, state, self.registry)
            engine = LocalEngine(self.registry)
            engine.load(setup)
        except OriflammeError as exc:
            if warn:
                self.warn(seed, f"{OURS} cannot be set up at a position play reached: {exc}")
            return None
        if expected is not None and fingerprint(engine) != expected:
            if warn:
                self.warn(seed, f"{OURS} set up at a position play reached gives another game")
            return None
        return engine, setup

    def game(self, seed: int) -> tuple[Found | None, int]:
        """Play the game of ``seed`` on both: the difference found, if any, and the
        answers compared."""
        config, rng = game_config(self.settings, seed)
        dealt = Game.new(config, registry=self.registry, record=False)
        given = dict(self.settings.variants)
        variants = {name: dealt.rules.variants.get(name, value) for name, value in given.items()}
        frame = Frame(config.sets, config.families, variants)
        players = config.families
        start = state_of(dealt, players)  # the position last loaded into both
        restarted = self.restart(frame, start, seed)
        if restarted is None:
            return None, 0
        ours, setup = restarted
        segment: list[Step] = []  # the answers since
        position = ours.table()  # ours' table, read once for each answer
        mismatch = self.load(ours, position, setup, players)
        answers = 0
        tried = {(1, "placement")}
        while mismatch is None:
            asked = ours.decision()
            if not isinstance(asked, dict):
                return None, answers  # the game is over
            options = ours.options()
            when = (position.round, position.phase)
            ((family, kind),) = asked.items()
            if when not in tried and (
                position.phase == "placement" or (kind == "reveal" and _features(position))
            ):
                tried.add(when)
                state = state_of(ours.game, players)
                restarted = self.restart(frame, state, seed, (position, asked, options))
                if restarted is not None:
                    ours, setup = restarted
                    start, segment = state, []
                    mismatch = self.load(ours, position, setup, players)
                    if mismatch is not None:
                        break
            if self.settings.options:
                mismatch = self.options(position, options, family, len(segment))
                if mismatch is not None:
                    break
            step = make_step(family, options[rng.randrange(len(options))])
            ours.answer(step)
            segment.append(step)
            answers += 1
            position = ours.table()
            mismatch = self.answer(ours, position, step, players, len(segment) - 1)
        assert mismatch is not None
        return self.found(seed, answers, Segment(frame, start, tuple(segment)), mismatch), answers

    def load(
        self, ours: LocalEngine, position: Table, setup: Setup, players: Sequence[str]
    ) -> Mismatch | None:
        """Load ``setup`` into the other engine, and compare it with ``ours`` there
        (whose table is ``position``)."""
        where = f"round {setup.position.round}'s {setup.position.phase} phase"
        try:
            self.theirs.load(setup)
        except EngineRefused as refused:
            return Mismatch(
                f"{THEIRS} refuses a position of {where}",
                (f"{OURS}: sets it up", f"{THEIRS}: {one_line(str(refused), SHOWN)}"),
                0,
            )
        except OriflammeError as broken:
            what = f"{THEIRS} fails to load a position of {where}"
            return Mismatch(what, (one_line(str(broken), SHOWN),), 0)
        return self.after(ours, position, players, f"the position of {where}, loaded", at=0)

    def after(
        self,
        ours: LocalEngine,
        position: Table,
        players: Sequence[str],
        what: str,
        *,
        at: int,
        tail: Step | None = None,
    ) -> Mismatch | None:
        """Compare the position and decision of both engines after ``what``."""
        tails = (tail,) if tail is not None else ()
        try:
            theirs_next = self.theirs.decision()
            theirs_table = self.theirs.table()
        except OriflammeError as broken:
            return Mismatch(f"{THEIRS} fails after {what}", (str(broken),), at, tails)
        found = differences(position, theirs_table, ours.decision(), theirs_next, players)
        if not found:
            return None
        keys = ", ".join(key for key, _, _ in found)
        return Mismatch(f"{keys} after {what}", _sides(found), at, tails)

    def answer(
        self, ours: LocalEngine, position: Table, step: Step, players: Sequence[str], at: int
    ) -> Mismatch | None:
        """Give ``step``, which ours accepted, to the other engine, and compare."""
        said = step_text(step)
        try:
            self.theirs.answer(step)
        except EngineRefused as refused:
            sides = (f"{OURS}: accepts it", f"{THEIRS}: {one_line(str(refused), SHOWN)}")
            return Mismatch(f"{THEIRS} refuses {said}", sides, at, (step,))
        except OriflammeError as broken:
            return Mismatch(f"{THEIRS} fails on {said}", (str(broken),), at, (step,))
        return self.after(ours, position, players, said, at=at, tail=step)

    def options(
        self, position: Table, options: Sequence[Mapping[str, Any]], family: str, at: int
    ) -> Mismatch | None:
        """Compare the legal answers of both engines."""
        try:
            listed = self.theirs.options()
        except OriflammeError as broken:  # a refusal too: the op is known to it
            return Mismatch(f"{THEIRS} fails to list the options", (str(broken),), at)
        empty = not position.queue
        mine = {_key(answer, empty): answer for answer in options}
        yours = {_key(answer, empty): answer for answer in listed}
        if mine.keys() == yours.keys():
            return None
        more = [answer for key, answer in yours.items() if key not in mine]
        fewer = [answer for key, answer in mine.items() if key not in yours]
        lines = [f"{OURS}: {len(mine)} answers; {THEIRS}: {len(yours)}"]
        lines += [f"only {THEIRS} offers {word(family)}: {flow(a)}" for a in more[:5]]
        lines += [f"only {OURS} offers {word(family)}: {flow(a)}" for a in fewer[:5]]
        # The first answer one offers and the other not: a step marked error if the
        # other engine offers one ours refuses, else a step ours accepts.
        if more:
            tail = make_step(family, more[0], error=True)
            what = f"{THEIRS} offers {step_text(make_step(family, more[0]))}, which {OURS} refuses"
        else:
            tail = make_step(family, fewer[0])
            what = f"{THEIRS} does not offer {step_text(tail)}, which {OURS} accepts"
        return Mismatch(what, tuple(lines), at, (tail,))

    # Writing the scenario.

    def found(self, seed: int, answers: int, segment: Segment, mismatch: Mismatch) -> Found:
        """The difference, with the shortest scenario that shows it."""
        found = Found(seed, answers, mismatch.what, mismatch.sides)
        try:
            return self.reproduce(found, segment, mismatch)
        except OriflammeError as exc:
            note = f"no scenario could be written: {one_line(str(exc), SHOWN)}"
            return attrs.evolve(found, note=note)

    def reproduce(self, found: Found, segment: Segment, mismatch: Mismatch) -> Found:
        frame, players = segment.frame, segment.frame.players
        # Ours again from the loaded position: the position before each answer since.
        replay = LocalEngine(self.registry)
        replay.load(setup_of(frame, segment.start, self.registry))
        states: list[dict[str, Any]] = []
        prints: list[object] = []
        for number in range(mismatch.at + 1):
            states.append(state_of(replay.game, players))
            prints.append(fingerprint(replay))
            if number < mismatch.at:
                replay.answer(segment.steps[number])
        path = str(Path(self.settings.out) / scenario_name(found.seed))
        loose: Found | None = None
        # The latest position first: the fewest answers.
        for first in range(mismatch.at, -1, -1):
            steps = (*segment.steps[first : mismatch.at], *mismatch.tail)
            restarted = self.restart(frame, states[first], found.seed, prints[first], warn=False)
            if restarted is None:
                continue
            ours, _ = restarted
            try:
                for step in steps:
                    try:
                        ours.answer(step)
                    except EngineRefused as refused:
                        if not step.error or refused.code not in REFUSALS:
                            raise
            except OriflammeError:
                continue
            expect = expect_of(ours, players)
            label = self.theirs.label
            text = scenario_text(frame, states[first], steps, expect, found=found, label=label)
            scenario = parse_scenario(text, path)
            if not run_scenario(scenario, self.registry).passed:
                continue
            result = run_scenario(scenario, self.registry, self.theirs)
            if result.passed:
                continue
            if first == mismatch.at:
                where = "the position just before it" if mismatch.tail else "the loaded position"
            elif first == 0:
                where = "the position last loaded into both"
            else:
                where = f"the position {mismatch.at - first} answers before it"
            made = attrs.evolve(
                found, scenario=text, steps=len(steps), start=where, fails=result.problems
            )
            if _fails_at_the_end(result, len(steps) - len(mismatch.tail) + 1, mismatch):
                return made
            loose = loose or made
        if loose is not None:
            return loose
        if mismatch.tail and mismatch.tail[-1].error:
            offered = step_text(attrs.evolve(mismatch.tail[-1], error=False))
            note = (
                f"no scenario shows it: {THEIRS} offers {offered} but refuses it when it is "
                "answered (its options and its answers disagree)"
            )
        else:
            note = (
                f"no scenario shows it: from each position since the last one loaded, {THEIRS} "
                "passes the scenario that should show it"
            )
        return attrs.evolve(found, note=note)


def _fails_at_the_end(result: ScenarioResult, first_tail: int, mismatch: Mismatch) -> bool:
    """Whether the other engine fails the scenario where the difference was found: at
    the steps that show it or their ``expect``, not earlier."""
    if not mismatch.tail:
        return True
    reason = result.problems[0] if result.problems else ""
    return reason.startswith("expectations failed") or any(
        reason.startswith(f"step {number} (")
        for number in range(first_tail, first_tail + len(mismatch.tail))
    )


def scenario_name(seed: int) -> str:
    return f"difference-{seed}.yaml"


def scenario_text(
    frame: Frame,
    state: Mapping[str, Any],
    steps: Sequence[Step],
    expect: Mapping[str, Any],
    *,
    found: Found,
    label: str,
) -> str:
    """The scenario file: ``state``, ``steps``, and ``expect`` every key of it."""
    lines = [
        "# Written by oriflamme conformance --compare: it passes on oriflamme, the",
        f"# reference, and fails on {printable(one_line(label, 200))}.",
        f"name: {json.dumps(one_line(f'--compare found: {found.what}', 300))}",
        f'source: "oriflamme conformance --compare, the game of seed {found.seed}"',
        f"sets: {flow(frame.sets)}",
        f"players: {flow(frame.players)}",
    ]
    if frame.variants:
        lines.append(f"variants: {flow(frame.variants)}")
    lines.append("state:")
    for key in ("round", "phase", "first_player", "resolving", "influence"):
        if key in state:
            lines.append(f"  {key}: {flow(state[key])}")
    lines += _queue_lines("  ", state["queue"])
    for zone in ZONES:
        given = {f: cards for f, cards in state[zone].items() if cards}
        if given:
            lines += _zone_lines(zone, given)
    if steps:
        lines.append("play:")
        lines += [f"  - {step_text(step)}" for step in steps]
    lines.append("expect:")
    for key, value in expect.items():
        if key == "queue":
            lines += _queue_lines("  ", value)
        elif key in ZONES:
            lines += _zone_lines(key, value)
        else:
            lines.append(f"  {key}: {flow(value)}")
    return "\n".join(lines) + "\n"


def _zone_lines(zone: str, cards: Mapping[str, Sequence[str]]) -> list[str]:
    return [f"  {zone}:", *(f"    {word(f)}: {flow(listed)}" for f, listed in cards.items())]


def _queue_lines(indent: str, queue: Sequence[object]) -> list[str]:
    if not queue:
        return [f"{indent}queue: []"]
    return [f"{indent}queue:", *(f"{indent}  - {flow(entry)}" for entry in queue)]


# The run.


def probe(engine: RemoteEngine, settings: Settings, registry: Registry) -> str:
    """Start the other engine (a mistake if it cannot start or shake hands), and find
    whether it lists the legal answers: "" if it does, else why it is compared without
    (a reply ``unsupported`` to ``options``, or no reply of the protocol's shape)."""
    engine.start()
    config, _ = game_config(settings, settings.seed)
    dealt = Game.new(config, registry=registry, record=False)
    frame = Frame(config.sets, config.families, {})
    # A position refused is the first game's to show; the options still tell whether
    # the engine knows the op (bad_request with no position loaded).
    with contextlib.suppress(OriflammeError):
        engine.load(setup_of(frame, state_of(dealt, config.families), registry))
    try:
        engine.options()
    except EngineRefused as refused:
        if refused.code == UNSUPPORTED:
            return "it lists no legal answers (options: unsupported)"
    except OriflammeError as broken:
        return f"its options cannot be read ({one_line(str(broken), SHOWN)})"
    return ""


def compare(
    settings: Settings,
    registry: Registry,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    engine: RemoteEngine | None = None,
) -> tuple[Found | None, int, int, list[str]]:
    """Play the run's games: the difference of the earliest game that has one, the
    games played to their end without one and their answers, and the warnings.

    ``engine``, started already, plays the games played in this process (it is
    closed at the end); each forked process starts its own."""
    stop = multiprocessing.Value("q", MAX_SEED, lock=False)  # shared with forked workers
    comparers: dict[int, Comparer] = {}
    parent = os.getpid()
    if engine is not None:
        comparers[parent] = Comparer(settings, registry, engine)

    def play(seeds: range) -> Share:
        pid = os.getpid()
        comparer = comparers.get(pid)
        if comparer is None:
            comparer = comparers[pid] = Comparer(settings, registry)
            if pid != parent:  # a pool's worker is ended by SIGTERM: its engine too
                signal.signal(signal.SIGTERM, lambda *_: _leave(comparer))
        try:
            return comparer.play(seeds, lambda: int(stop.value))
        except OriflammeError as exc:
            # As its words only: an error of a forked process crosses back pickled, and
            # one made with other arguments (EngineRefused's code) would not unpickle.
            raise OriflammeError(str(exc)) from None

    best: Found | None = None
    played: dict[int, int] = {}
    warnings: list[str] = []

    def merge(share: Share) -> None:
        nonlocal best
        played.update(share.played)
        warnings.extend(share.warnings)
        if share.found is not None and (best is None or share.found.seed < best.seed):
            best = share.found
            stop.value = best.seed

    try:
        share_out(
            play, merge, settings.seed, settings.games, size=SHARE, jobs=jobs, progress=progress
        )
    finally:
        if parent in comparers:
            comparers[parent].close()
    found: Found | None = best
    if found is not None:
        earlier = {seed: count for seed, count in played.items() if seed < found.seed}
        return found, len(earlier), sum(earlier.values()) + found.answers, warnings
    return None, len(played), sum(played.values()), warnings


def _leave(comparer: Comparer) -> NoReturn:
    comparer.close()
    os._exit(0)


def compare_command(args: argparse.Namespace, registry: Registry) -> int:
    """``oriflamme conformance --compare CMD``: 0 if no difference is found, 1 if one is
    (printed, and its scenario written to ``--out``)."""
    if args.paths or args.engine is not None or getattr(args, "subset", None):
        raise ConfigError(
            "--compare CMD plays games of its own: give no PATH, --engine or --subset with it"
        )
    games = args.games
    drawn = args.seed is None
    # Drawn as a user's: any seed the whole run's games fit under.
    seed = random.SystemRandom().randrange(MAX_SEED - games + 2) if drawn else args.seed
    if seed + games - 1 > MAX_SEED:
        raise ConfigError(
            f"the last game's seed, --seed + --games - 1 = {seed + games - 1}, is more "
            f"than {MAX_SEED}"
        )
    settings = Settings(
        args.compare,
        games,
        seed,
        args.families,
        args.sets,
        tuple(args.variant),
        False,
        args.out,
    )
    for sets in (settings.sets,) if settings.sets else SET_CHOICES:
        # A bad choice fails before any game (unknown set, variant, value).
        Game.new(attrs.evolve(game_config(settings, seed)[0], sets=sets), registry=registry)
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    engine = RemoteEngine(args.compare)
    try:
        without = probe(engine, settings, registry)
        if jobs > 1 and games > SHARE:
            engine.close()  # the forked processes start their own
    except BaseException:
        engine.close()
        raise
    settings = attrs.evolve(settings, options=not without)
    label = engine.label
    print(
        f"comparing {OURS} with {label}: {games} game{'s' * (games != 1)}, seeds {seed} to "
        f"{seed + games - 1}{' (drawn)' if drawn else ''}; "
        f"{without or 'their legal answers compared too'}",
        flush=True,
    )
    terminal = sys.stderr is not None and sys.stderr.isatty()
    show = args.progress == "always" or (args.progress == "auto" and terminal)
    bar = progress_bar(games, sys.stderr) if show else None
    began = time.perf_counter()
    found, played, answers, warnings = compare(
        settings, registry, jobs=jobs, progress=bar, engine=engine
    )
    seconds = time.perf_counter() - began
    for warning in warnings[:MAX_WARNINGS]:
        print(f"oriflamme: warning: {warning}", file=sys.stderr)
    if found is None:
        print(
            f"no difference: {played} game{'s' * (played != 1)} and {answers:,} answers "
            f"compared in {seconds:.1f} s"
        )
        return 0
    report(found, settings, label, answers)
    return 1


def report(found: Found, settings: Settings, label: str, answers: int) -> None:
    """Print the difference, and write its scenario."""
    number = found.seed - settings.seed + 1
    say(
        f"difference in game {number} of {settings.games} (seed {found.seed}), after "
        f"{found.answers} of its answers ({answers:,} answers compared in all): {found.what}"
    )
    for line in found.sides:
        say(f"  {line}")
    if found.scenario is None:
        say(found.note)
    else:
        folder = Path(settings.out)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / scenario_name(found.seed)
        path.write_text(found.scenario, encoding="utf-8")
        steps = f"{found.steps} step{'s' * (found.steps != 1)}"
        say(f"wrote {path} ({steps}, from {found.start}); it passes here and fails on {label}:")
        for line in found.fails:
            say(f"  {line}")
    say(f"to play that game alone again: the same command with --seed {found.seed} --games 1")


def say(line: str) -> None:
    """A line of the report: an engine's words may hold what a terminal would obey."""
    print(printable(line))
