"""What abilities and event hooks may do: ``ask`` one question at a time, continue
after the code that follows it, with saveable arguments, through a registered
ability's method; read the table without changing it; observe every kind of event;
and never ask from a hook."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from oriflamme import (
    Ability,
    AbilityError,
    CardId,
    Decision,
    Effects,
    Event,
    Game,
    GameConfig,
    Placement,
    Registry,
    hookimpl,
)
from oriflamme.bots import play_out
from oriflamme.events import EVENT_TYPES, HOOKS, Eliminated, Gained
from oriflamme.saves import load
from oriflamme.testing import registry_with

from .helpers import card_id, new_game, one_card_set, random_bots

#: What the test plugins' code did, in order; emptied before each test.
RECORD: list[Any] = []


@pytest.fixture(autouse=True)
def _fresh_record() -> None:
    RECORD.clear()


class Probe:
    """A test plugin: one card, ``probe``, with the ability it is given."""

    def __init__(self, folder: Path, ability: Ability) -> None:
        self.folder = folder
        self.ability = ability

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [one_card_set(self.folder, "probes", "probe")]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"probe": self.ability}

    @hookimpl
    def loadable_saves(self) -> bool:
        # Its continuations change nothing but the game (and the test's record of what
        # they receive): a save waiting on them may be tried on copies (docs/plugins.md).
        return True


def revealed(folder: Path, ability: Ability, *extra: object) -> tuple[Game, Registry]:
    """A game whose next answer is red revealing its probe (the first card in the queue),
    with ``ability`` as the probe's ability; ``extra`` plugins are registered too."""
    plugins: dict[str, object] = {"probes": Probe(folder, ability)}
    plugins.update({f"extra{i}": plugin for i, plugin in enumerate(extra)})
    registry = registry_with(plugins)
    cards = ("probe", "heir", "lord", "spy", "soldier", "archer", "conspiracy")
    config = GameConfig(seed=11, first_player="red", sets=("base", "probes"), cards=cards)
    game = Game.new(config, registry=registry)
    probe = card_id(game, "red.probe")
    game.answer(Placement(probe, "first"))
    for family in ("blue", "green"):
        game.answer(Placement(card_id(game, f"{family}.heir"), "last"))
    assert game.decision == Decision("red", "reveal", (True, False), probe)
    return game, registry


def refused(game: Game, answer: object, *message: str) -> None:
    """``answer`` raises an AbilityError saying each of ``message``, and changes nothing."""
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(answer)
    for part in message:
        assert part in str(error.value)
    assert game.snapshot() == before


class AsksTwice(Ability):
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask(game.owner(card), "choose", ("a", "b"), self.done, card)
        game.ask(game.owner(card), "choose", ("c", "d"), self.done, card)

    def done(self, game: Effects, card: CardId, answer: str) -> None:
        RECORD.append(answer)


def test_ask_refuses_a_second_question_while_one_is_pending(tmp_path: Path) -> None:
    game, _ = revealed(tmp_path, AsksTwice())
    refused(game, True, "red is already asked a choose question", "one question at a time")
    game.answer(False)  # the game goes on from where it was
    assert RECORD == []


class Continues(Ability):
    """Records around its ``ask``: the continuation must come after the code after it."""

    def __init__(self, options: Sequence[str], *args: Any) -> None:
        self.options = tuple(options)
        self.args = args

    def activate(self, game: Effects, card: CardId) -> None:
        RECORD.append("activated")
        game.ask(game.owner(card), "choose", self.options, self.go_on, card, *self.args)
        RECORD.append("after ask")

    def go_on(self, game: Effects, card: CardId, *args: Any) -> None:
        RECORD.append(("continued", *args))


def test_with_one_option_the_continuation_runs_after_the_code_after_ask(tmp_path: Path) -> None:
    game, _ = revealed(tmp_path, Continues(["only"], 7))
    game.answer(True)
    assert RECORD == ["activated", "after ask", ("continued", 7, "only")]
    assert game.decision is not None
    assert game.decision.kind != "choose"  # one option: applied, not asked


def test_with_two_options_the_continuation_runs_after_the_answer(tmp_path: Path) -> None:
    game, _ = revealed(tmp_path, Continues(["left", "right"], 7))
    game.answer(True)
    assert RECORD == ["activated", "after ask"]
    assert game.decision is not None
    assert (game.decision.kind, game.decision.options) == ("choose", ("left", "right"))
    game.answer("right")
    assert RECORD == ["activated", "after ask", ("continued", 7, "right")]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (({1, 2},), "set {1, 2}"),
        ((object(),), "object <object"),
        (({"card": 1},), "dict {'card': 1}"),
        (((1, frozenset()),), "frozenset frozenset()"),
        ((float("inf"),), "float inf"),
    ],
)
def test_continuation_arguments_must_be_saveable(
    tmp_path: Path, args: tuple[Any, ...], named: str
) -> None:
    game, _ = revealed(tmp_path, Continues(["left", "right"], *args))
    refused(game, True, "the arguments of probe.go_on must be saveable", named)
    assert RECORD == ["activated"]  # as far as it got; the game itself is unchanged


def test_a_game_waiting_with_saveable_arguments_saves_and_loads(tmp_path: Path) -> None:
    args = ((1, "two"), [3, [4, None]], "five", 6, True, None, 0.5)
    game, registry = revealed(tmp_path, Continues(["left", "right"], *args))
    game.answer(True)
    loaded = load(game.to_json(), registry=registry)
    assert loaded == game
    assert loaded.decision == game.decision
    RECORD.clear()
    loaded.answer("left")
    game.answer("left")
    assert loaded == game
    received = ("continued", (1, "two"), (3, (4, None)), "five", 6, True, None, 0.5, "left")
    assert [received, received] == RECORD  # lists come back as tuples


class Stranger:
    def later(self, game: Effects, card: CardId) -> None:
        RECORD.append("stranger")


class Schedules(Ability):
    """Continues with ``pick(self)``: something other than its own public method."""

    def __init__(self, pick: Callable[[Schedules], Callable[..., None]], asks: bool) -> None:
        self.pick = pick
        self.asks = asks

    def activate(self, game: Effects, card: CardId) -> None:
        if self.asks:
            game.ask(game.owner(card), "choose", ("a", "b"), self.pick(self), card)
        else:
            game.then(self.pick(self), card)

    def _later(self, game: Effects, card: CardId) -> None:
        RECORD.append("private")


@pytest.mark.parametrize("asks", [False, True], ids=["then", "ask"])
@pytest.mark.parametrize(
    "pick",
    [
        lambda ability: Stranger().later,
        lambda ability: ability._later,
        lambda ability: lambda game, card: None,
        lambda ability: print,
    ],
    ids=["another object", "a private method", "a lambda", "a builtin"],
)
def test_continuing_with_anything_but_a_registered_ability_is_refused(
    tmp_path: Path, pick: Callable[[Schedules], Callable[..., None]], asks: bool
) -> None:
    game, _ = revealed(tmp_path, Schedules(pick, asks))
    refused(game, True, "is not a public method of a registered ability")
    assert RECORD == []


def set_item(target: Any, key: object, value: object) -> None:
    target[key] = value


def del_item(target: Any, key: object) -> None:
    del target[key]


def call(target: Any, method: str, *args: object) -> None:
    getattr(target, method)(*args)


class Meddles(Ability):
    """Tries to change what it reads; records each try and what stopped it."""

    def activate(self, game: Effects, card: CardId) -> None:
        family = game.owner(card)
        tries: dict[str, Callable[[], object]] = {
            "queue[0] = ()": partial(set_item, game.queue, 0, ()),
            "queue[0].append": partial(call, game.queue[0], "append", card),
            "queue = ()": partial(setattr, game, "queue", ()),
            "hands[red] = ()": partial(set_item, game.hands, family, ()),
            "del hands[red]": partial(del_item, game.hands, family),
            "hands[red].append": partial(call, game.hands[family], "append", card),
            "hands = {}": partial(setattr, game, "hands", {}),
            "influence[red] = 99": partial(set_item, game.influence, family, 99),
            "influence.update": partial(call, game.influence, "update", {family: 99}),
            "influence = {}": partial(setattr, game, "influence", {}),
            "tokens[card] = 5": partial(set_item, game.tokens, card, 5),
            "tokens = {}": partial(setattr, game, "tokens", {}),
        }
        for zone in ("hands", "set_aside", "reserve", "discarded", "eliminated"):
            pile = game.pile(zone)
            tries[f"pile({zone})[red] = ()"] = partial(set_item, pile, family, ())
            tries[f"pile({zone}).pop"] = partial(call, pile, "pop", family)
        for what, attempt in tries.items():
            try:
                attempt()
            except (TypeError, AttributeError) as error:
                RECORD.append((what, type(error).__name__))
            else:
                RECORD.append((what, "changed"))


def test_what_an_ability_reads_cannot_be_changed(tmp_path: Path) -> None:
    game, _ = revealed(tmp_path, Meddles())
    before = game.position()
    game.answer(True)
    assert len(RECORD) == 22
    assert [what for what, stopped in RECORD if stopped == "changed"] == []
    after = game.position()
    assert (after.hands, after.influence, after.set_aside) == (
        before.hands,
        before.influence,
        before.set_aside,
    )
    assert [len(stack) for stack in after.queue] == [len(stack) for stack in before.queue]


class TriesToRun(Ability):
    """Looks for the engine behind its game: what would play the game on from inside."""

    def activate(self, game: Effects, card: CardId) -> None:
        RECORD.append(type(game))
        for name in ("run", "apply", "start", "_run", "_play", "_answer", "_activate", "_finish"):
            if hasattr(game, name):
                RECORD.append(name)


def test_an_ability_is_handed_effects_that_cannot_run_the_game(tmp_path: Path) -> None:
    game, _ = revealed(tmp_path, TriesToRun())
    game.answer(True)
    assert RECORD[0] is Effects  # exactly the Effects, no engine
    assert RECORD[1:] == []  # no step of the engine to call


def observe(self: object, game: Effects, event: Event) -> None:
    RECORD.append((event, isinstance(game, Effects)))


#: A plugin that observes every kind of event, recording each with the game it got.
Recorder = type("Recorder", (), dict.fromkeys(HOOKS.values(), hookimpl(observe)))


def in_log_order(seen: list[Event]) -> list[Event]:
    """The events observed, put back in log order: an observer sees an elimination once
    the eliminator has gained for it (docs/rulings.md P7), the log has it first."""
    events = list(seen)
    i = 0
    while i < len(events) - 1:
        gained, eliminated = events[i], events[i + 1]
        if (
            isinstance(gained, Gained)
            and isinstance(eliminated, Eliminated)
            and gained.card == eliminated.by
            and gained.amount == 1
        ):
            events[i], events[i + 1] = eliminated, gained
            i += 1
        i += 1
    return events


def test_every_kind_of_event_reaches_its_observer() -> None:
    registry = registry_with({"recorder": Recorder()})
    kinds: set[str] = set()
    for seed in range(6100, 6106):
        print(f"seed={seed}")
        for sets in (("base",), ("ablaze",)):
            RECORD.clear()
            game = new_game(registry, seed, 4, sets=sets)
            play_out(game, random_bots(game, seed))
            assert all(effects for _, effects in RECORD), "a hook got something else than Effects"
            seen = [event for event, _ in RECORD]
            assert in_log_order(seen) == list(game.events), f"seed {seed}, {sets}"
            kinds |= {event.kind for event in seen}
    assert kinds == set(EVENT_TYPES) == set(HOOKS)


class Listens(Ability):
    def heard(self, game: Effects, card: CardId, answer: str) -> None:
        RECORD.append(answer)


class AsksFromAHook:
    """An observer that asks a question when a card is revealed: not allowed."""

    def __init__(self, ability: Listens, options: tuple[str, ...]) -> None:
        self.ability = ability
        self.options = options

    @hookimpl
    def card_revealed(self, game: Effects, event: Any) -> None:
        game.ask(event.family, "choose", self.options, self.ability.heard, event.card)


@pytest.mark.parametrize("options", [("yes", "no"), ("yes",)])
def test_an_event_hook_may_not_ask(tmp_path: Path, options: tuple[str, ...]) -> None:
    # Even a question with one option, which would be applied without asking.
    listens = Listens()
    game, _ = revealed(tmp_path, listens, AsksFromAHook(listens, options))
    refused(game, True, "an observer of revealed asked a choose question; hooks may not ask")
    game.answer(False)
    assert RECORD == []
