"""Third-party code cannot hang a game: each answer has a budget of engine steps and of
lines of plugin code. Past it the answer is taken back whole, and the error names the
plugin and the bound; the built-in cards run outside the guard and pay nothing."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType, SimpleNamespace
from typing import Any

import pytest

from oriflamme import (
    Ability,
    AbilityError,
    Budget,
    CardId,
    ConfigError,
    Decision,
    DecisionKind,
    Effects,
    Game,
    GameConfig,
    IllegalAnswer,
    Placement,
    Registry,
    hookimpl,
)
from oriflamme.core._budget import BUDGET, MAX_LINES, MAX_STEPS
from oriflamme.core._guards import guarded_rules
from oriflamme.events import Gained
from oriflamme.testing import game_at, registry_with

from .fuzzing import no_hang
from .helpers import card_id, one_card_set, played

Run = Callable[["Runaway", Effects, CardId], None]


class Runaway(Ability):
    """Gains 2, then, while ``wild``, runs away as ``run`` does; tamed, it stops there."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.wild = True

    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 2, card)  # a change the refusal must take back
        if self.wild:
            self.run(self, game, card)

    def again(self, game: Effects, card: CardId, *answer: object) -> None:
        if self.wild:
            self.run(self, game, card)


class Probe:
    """The test plugin 'probes': one card, ``probe``, with the ability it is given."""

    def __init__(self, folder: Path, ability: Ability, kinds: tuple[DecisionKind, ...] = ()):
        self.folder = folder
        self.ability = ability
        self.kinds = kinds

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [one_card_set(self.folder, "probes", "probe")]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"probe": self.ability}

    @hookimpl
    def register_decision_kinds(self) -> list[DecisionKind]:
        return list(self.kinds)

    @hookimpl
    def loadable_saves(self) -> bool:
        # Its continuations change nothing but the game (and the test's record of what
        # they receive): a save waiting on them may be tried on copies (docs/plugins.md).
        return True


def revealing(registry: Registry) -> Game:
    """A game whose next answer is red revealing its probe, first in the queue."""
    cards = ("probe", "heir", "lord", "spy", "soldier", "archer", "conspiracy")
    config = GameConfig(seed=11, first_player="red", sets=("base", "probes"), cards=cards)
    game = Game.new(config, registry=registry)
    probe = card_id(game, "red.probe")
    game.answer(Placement(probe, "first"))
    for family in ("blue", "green"):
        game.answer(Placement(card_id(game, f"{family}.heir"), "last"))
    assert game.decision == Decision("red", "reveal", (True, False), probe)
    return game


def probed(folder: Path, ability: Ability, *extra: object) -> Game:
    plugins: dict[str, object] = {"probes": Probe(folder, ability)}
    plugins.update({f"extra{i}": plugin for i, plugin in enumerate(extra)})
    return revealing(registry_with(plugins))


def refused(game: Game, *message: str) -> AbilityError:
    """Revealing the probe is refused with each of ``message`` and changes nothing."""
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    for part in message:
        assert part in str(error.value)
    assert game.snapshot() == before
    assert sys.gettrace() is None  # the tracer is gone with the answer
    return error.value


def spins(runaway: Runaway, game: Effects, card: CardId) -> None:
    while True:
        pass


def spins_on_one_line(runaway: Runaway, game: Effects, card: CardId) -> None:
    # Python reports no line for a loop that jumps to itself: its instructions count.
    while True: pass  # noqa: E701  # fmt: skip


def swallows(runaway: Runaway, game: Effects, card: CardId) -> None:
    while True:
        try:
            spins_on_one_line(runaway, game, card)
        except Exception:  # a plugin's catch-all cannot keep the loop going
            continue


def requeues(runaway: Runaway, game: Effects, card: CardId) -> None:
    game.then(runaway.again, card)


def asks_one_option(runaway: Runaway, game: Effects, card: CardId) -> None:
    game.ask(game.owner(card), "choose", ("again",), runaway.again, card)


def keeps_gaining(runaway: Runaway, game: Effects, card: CardId) -> None:
    while True:
        game.gain(game.owner(card), 1, card)


def keeps_queueing(runaway: Runaway, game: Effects, card: CardId) -> None:
    while True:
        game.then(runaway.again, card)


LINES = "lines of plugin code for one answer"
STEPS = "engine steps for one answer"


@pytest.mark.parametrize(
    ("run", "bound"),
    [
        (spins, LINES),
        (spins_on_one_line, LINES),
        (swallows, LINES),
        (requeues, STEPS),
        (asks_one_option, STEPS),
        (keeps_gaining, STEPS),
        (keeps_queueing, "queued a task while 100 wait: at most 100 may wait at once"),
    ],
)
def test_a_runaway_ability_is_refused_and_the_answer_taken_back(
    tmp_path: Path, run: Run, bound: str
) -> None:
    runaway = Runaway(run)
    game = probed(tmp_path, runaway)
    limit = {LINES: f"budget of {MAX_LINES:,} ", STEPS: f"budget of {MAX_STEPS:,} "}.get(bound, "")
    refused(game, "plugin 'probes': the ability of 'probe'", f"{limit}{bound}")
    runaway.wild = False
    game.answer(True)  # the same answer, from a well-behaved plugin
    assert game.scores["red"] == 1 + 2


def test_the_steps_are_counted_under_a_debugger_or_coverage(tmp_path: Path) -> None:
    # Another tracer is in place: lines are not counted, but engine steps still are,
    # and the other tracer is left as it was.
    calls: list[str] = []

    def other(frame: FrameType, event: str, arg: object) -> None:
        calls.append(event)

    runaway = Runaway(requeues)
    game = probed(tmp_path, runaway)
    before = game.snapshot()
    sys.settrace(other)
    try:
        with pytest.raises(AbilityError, match=f"budget of {MAX_STEPS:,} {STEPS}"):
            game.answer(True)
        assert sys.gettrace() is other
    finally:
        sys.settrace(None)
    assert calls  # it went on tracing
    assert game.snapshot() == before


class Litter:
    """An object whose finaliser runs lines of code when it is dropped."""

    dropped = 0

    def __del__(self) -> None:
        for _ in range(20):
            Litter.dropped += 1


def collects_then_spins(runaway: Runaway, game: Effects, card: CardId) -> None:
    gc.collect()  # the collector's callbacks run here
    Litter()  # dropped at once: its finaliser runs here
    while True: pass  # noqa: E701  # fmt: skip


@pytest.mark.slow
def test_the_bound_is_never_passed_where_python_ignores_errors(tmp_path: Path) -> None:
    # Python ignores what a finaliser or a collector's callback raises, and removes a
    # tracer that raised: were the bound passed there, the spin after would run on.
    collected: list[str] = []

    def callback(phase: str, info: object) -> None:
        for _ in range(20):
            collected.append(phase)

    game = probed(tmp_path, Runaway(collects_then_spins))
    gc.callbacks.append(callback)
    try:
        for lines in range(1, 60):  # the bound falls on every line up to the spin
            game.budget = Budget(steps=MAX_STEPS, lines=lines)
            with no_hang():
                refused(game, "plugin 'probes': the ability of 'probe'", f"budget of {lines} lines")
    finally:
        gc.callbacks.remove(callback)
    assert "stop" in collected
    assert Litter.dropped


class LoopingHook:
    """An observer that spins when Influence is gained, while ``wild``."""

    def __init__(self) -> None:
        self.wild = True

    @hookimpl
    def influence_gained(self, game: Effects, event: Gained) -> None:
        while self.wild:
            pass


def test_a_runaway_event_hook_is_refused_and_named(tmp_path: Path) -> None:
    hook = LoopingHook()
    runaway = Runaway(requeues)
    runaway.wild = False
    game = probed(tmp_path, runaway, hook)
    refused(game, "plugin 'extra0': an event hook went over", LINES)
    hook.wild = False
    game.answer(True)
    assert game.scores["red"] == 3


def test_a_game_has_a_budget_of_its_own_and_its_clones_keep_it(tmp_path: Path) -> None:
    counted: list[int] = []

    def gains_ten(runaway: Runaway, game: Effects, card: CardId) -> None:
        for _ in range(10):
            counted.append(1)
            game.gain(game.owner(card), 1, card)

    game = probed(tmp_path, Runaway(gains_ten))
    assert game.budget == BUDGET == Budget(MAX_STEPS, MAX_LINES)
    tight = Budget(steps=6, lines=MAX_LINES)
    game.budget = tight
    copy = game.clone()
    assert copy.budget is tight
    refused(copy, "budget of 6 engine steps for one answer")
    game.budget = Budget(steps=MAX_STEPS, lines=5)
    refused(game, "budget of 5 lines of plugin code for one answer")
    game.budget = BUDGET
    game.answer(True)
    assert game.scores["red"] == 1 + 2 + 10


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ((100, 100), "a game's budget is an oriflamme.Budget, not tuple"),
        (Budget(0, 100), "Budget.steps must be an int of at least 1, not 0"),
        (Budget(100, True), "Budget.lines must be an int of at least 1, not True"),
        (Budget._make((100.0, 100)), "Budget.steps must be an int of at least 1, not 100.0"),
    ],
)
def test_a_budget_that_is_not_one_is_refused(
    registry: Registry, budget: object, message: str
) -> None:
    game = Game.new(GameConfig(seed=1), registry=registry)
    with pytest.raises(ConfigError, match=f"^{message}$"):
        game.budget = budget
    assert game.budget is BUDGET


def test_the_engine_loop_is_bounded_on_a_damaged_position() -> None:
    # A position no rule reaches (a round far before the first): the rounds would go
    # on and on. The engine stops, and the game is as it was.
    game = game_at(
        {
            "round": 6,
            "phase": "resolution",
            "queue": [{"card": "red.spy"}],
            "hands": {"red": [], "blue": [], "green": []},
        }
    )
    game._state.round = -(10**9)
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    assert str(error.value).startswith(
        f"the engine went over its budget of {MAX_STEPS:,} engine steps for one answer"
    )
    assert game.snapshot() == before
    game._state.round = 6
    game.answer(True)
    assert game.over


class Stalls(DecisionKind):
    """A plugin's kind whose check is broken in the way it is given."""

    name = "stall"
    fault = "spin"

    def check(self, game: Effects, decision: Decision, answer: object) -> Any:
        if self.fault == "spin":
            while True:
                pass
        if self.fault == "raise":
            raise TypeError("the check tripped")
        if self.fault == "meddle":
            game.gain(decision.family, 50)  # checking never changes the game
        return super().check(game, decision, answer)


class AsksStall(Ability):
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask(game.owner(card), "stall", ("a", "b"), self.stalled, card)

    def stalled(self, game: Effects, card: CardId, answer: str) -> None:
        game.gain(game.owner(card), 1, card)


@pytest.fixture
def stalling(tmp_path: Path) -> Iterator[Game]:
    Stalls.fault = ""
    game = revealing(registry_with({"probes": Probe(tmp_path, AsksStall(), (Stalls(),))}))
    game.answer(True)
    assert game.decision is not None
    assert game.decision.kind == "stall"
    yield game
    Stalls.fault = ""


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("spin", f"went over its budget of {MAX_LINES:,} lines of plugin code"),
        ("raise", "raised TypeError: the check tripped"),
    ],
)
def test_a_plugin_kind_whose_check_fails_is_named(stalling: Game, fault: str, message: str) -> None:
    Stalls.fault = fault
    before = stalling.snapshot()
    with pytest.raises(AbilityError) as error:
        stalling.answer("a")
    text = str(error.value)
    assert text.startswith(f"the 'stall' decision kind ({__name__}.Stalls) ")
    assert message in text
    assert text.endswith("checking 'a'; the game is as it was before this answer")
    assert stalling.snapshot() == before
    with pytest.raises(AbilityError):
        stalling.legal("a")
    Stalls.fault = ""
    stalling.answer("a")
    assert stalling.scores["red"] == 2


def test_a_plugin_kind_checks_on_a_copy_of_the_game(stalling: Game) -> None:
    Stalls.fault = "meddle"
    before = stalling.snapshot()
    with pytest.raises(IllegalAnswer, match="'c' is not one of the options 'a', 'b'"):
        stalling.answer("c")
    assert stalling.snapshot() == before
    stalling.answer("b")
    assert stalling.scores == {"red": 2, "blue": 1, "green": 1}


def test_the_built_in_cards_run_unguarded(tmp_path: Path, registry: Registry) -> None:
    game = Game.new(GameConfig(seed=1), registry=registry)
    assert game._engine.effects.rules is game.rules  # nothing to guard: the same table
    assert guarded_rules(game.rules) is game.rules
    mixed = probed(tmp_path, Runaway(requeues))
    engine_rules = mixed._engine.effects.rules
    assert engine_rules is not mixed.rules
    assert engine_rules.abilities["probe"] is not mixed.rules.abilities["probe"]
    for key in ("heir", "lord", "spy", "soldier", "archer", "conspiracy"):
        assert engine_rules.abilities[key] is mixed.rules.abilities[key]
    assert engine_rules.ability_keys == mixed.rules.ability_keys


def test_the_house_rules_play_within_the_budget() -> None:
    import oriflamme_house_rules  # noqa: PLC0415 - the example plugin, from its source

    registry = registry_with({"house": oriflamme_house_rules})
    for seed in range(3):
        print(f"seed={seed}")
        game = played(
            registry,
            seed,
            sets=("base", "house"),
            variants={"generous_heir": True, "bounty": True},
        )
        assert game.over
        assert sys.gettrace() is None


def test_a_plugin_event_hook_is_guarded_and_the_table_made_once() -> None:
    watcher = SimpleNamespace(card_revealed=hookimpl(lambda game, event: None))
    rules = registry_with({"watcher": watcher}).rules(("base",), {})
    assert guarded_rules(rules) is not rules
    assert guarded_rules(rules) is guarded_rules(rules)  # made once per table
