"""Blame: every fault of a plugin's code names the plugin and the card, and the answer
is taken back whole.

The faults the engine could not pin on anyone before: a continuation that is a lambda
or a private method, arguments no save can hold, an event hook that asks a question,
a hook that feeds its own event until Python's recursion limit (which can run out in
the engine's own code, far from the hook). And a list that keeps doubling, which only
the process's memory limit stopped: in a continuation's arguments, in a question's
options, or in the plugin's own loop.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from oriflamme import Ability, AbilityError, CardId, Effects, Game, hookimpl
from oriflamme.core import _guards as guards
from oriflamme.events import Gained

from .fuzzing import no_hang
from .helpers import card_id
from .test_budget import probed

Run = Callable[["Faulty", Effects, CardId], None]
Hook = Callable[["Faulty", Effects, Gained], None]


class Faulty(Ability):
    """Gains 2 (a change the refusal must take back), then does as ``run`` says."""

    def __init__(self, run: Run) -> None:
        self.run = run

    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 2, card)
        self.run(self, game, card)

    def again(self, game: Effects, card: CardId, *args: object) -> None:
        pass

    def _private(self, game: Effects, card: CardId, *args: object) -> None:
        pass

    def doubles(self, game: Effects, card: CardId, values: list[object]) -> None:
        game.then(self.doubles, card, values + values)


class Watcher:
    """Plugin 'extra0': an event hook on Influence gained that does as ``hook`` says
    (with the probe's ability at hand)."""

    def __init__(self, hook: Hook, ability: Faulty) -> None:
        self.hook = hook
        self.ability = ability

    @hookimpl
    def influence_gained(self, game: Effects, event: Gained) -> None:
        self.hook(self.ability, game, event)


def faulty(folder: Path, run: Run, hook: Hook | None = None) -> tuple[Game, CardId]:
    """The game whose next answer, red revealing its probe, runs the fault."""
    ability = Faulty(run)
    game = probed(folder, ability, *([Watcher(hook, ability)] if hook is not None else []))
    return game, card_id(game, "red.probe")


def blamed(game: Game, *parts: str) -> str:
    """Revealing the probe is refused naming each of ``parts``, and changes nothing."""
    before = game.snapshot()
    with no_hang(), pytest.raises(AbilityError) as error:
        game.answer(True)
    message = str(error.value)
    assert "plugin '?'" not in message, message
    for part in parts:
        assert part in message, message
    assert message.endswith("the game is as it was before this answer"), message
    assert game.snapshot() == before
    return message


# The card acting is named by its family and key, never by its opaque id.
ABILITY = "plugin 'probes': the ability of 'probe' (red's 'probe' acting)"
# A hook's card is named by its key only while it is face up: here it is being revealed.
HOOK = "plugin 'extra0': an event hook (red's face-down card acting)"

FAULTS: dict[str, tuple[Run, Hook | None, str, str]] = {
    "a lambda continues, after then": (
        lambda ability, game, card: game.then(lambda *args: None, card),
        None,
        ABILITY,
        "is not a public method of a registered ability",
    ),
    "a lambda continues, after ask": (
        lambda ability, game, card: game.ask(
            game.owner(card), "choose", ("a", "b"), lambda *args: None, card
        ),
        None,
        ABILITY,
        "is not a public method of a registered ability",
    ),
    "a private method continues": (
        lambda ability, game, card: game.then(ability._private, card),
        None,
        ABILITY,
        "_private of",
    ),
    "a built-in function continues": (
        lambda ability, game, card: game.then(print, card),
        None,
        ABILITY,
        "is not a public method of a registered ability",
    ),
    "unsaveable arguments, after then": (
        lambda ability, game, card: game.then(ability.again, card, {1, 2}),
        None,
        ABILITY,
        "the arguments of probe.again must be saveable",
    ),
    "unsaveable arguments, after ask": (
        lambda ability, game, card: game.ask(
            game.owner(card), "choose", ("a", "b"), ability.again, card, object()
        ),
        None,
        ABILITY,
        "the arguments of probe.again must be saveable",
    ),
    "unsaveable arguments, after a question of one option": (
        lambda ability, game, card: game.ask(
            game.owner(card), "choose", ("a",), ability.again, card, 1.5, float("nan")
        ),
        None,
        ABILITY,
        "the arguments of probe.again must be saveable (None, booleans, numbers, strings, "
        "and lists or tuples of them), not float nan",
    ),
    "a hook asks a question": (
        lambda ability, game, card: None,
        lambda ability, game, event: game.ask(event.family, "choose", ("a", "b"), ability.again, 0),
        HOOK,
        "hooks may not ask",
    ),
    "a hook continues with a lambda": (
        lambda ability, game, card: None,
        lambda ability, game, event: game.then(lambda *args: None, 0),
        HOOK,
        "is not a public method of a registered ability",
    ),
    "a hook queues another plugin's method with unsaveable arguments": (
        # The hook's code did it, not the ability whose method it names.
        lambda ability, game, card: None,
        lambda ability, game, event: game.then(ability.again, 0, {1}),
        "plugin 'extra0': an event hook",
        "must be saveable",
    ),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_a_fault_names_the_plugin_and_the_card(tmp_path: Path, fault: str) -> None:
    run, hook, who, what = FAULTS[fault]
    game, probe = faulty(tmp_path, run, hook)
    message = blamed(game, who.format(card=probe), what)
    assert message.startswith(who.format(card=probe)), message


def feeds_itself(ability: Faulty, game: Effects, event: Gained) -> None:
    game.gain(event.family, 1, event.card)


def test_a_hook_that_feeds_its_own_event_is_named_wherever_the_recursion_stops(
    tmp_path: Path,
) -> None:
    # Python's recursion limit is met wherever the stack happens to be that deep: in
    # the hook, in the engine's own code between two calls of it, in the guard.
    game, probe = faulty(tmp_path, lambda ability, game, card: None, feeds_itself)
    where: set[str] = set()

    def at_depth(depth: int) -> str:
        if depth:
            return at_depth(depth - 1)
        return blamed(game, "plugin 'extra0'", "failed observing gained", "RecursionError")

    for depth in range(0, 120, 3):
        message = at_depth(depth)
        acting = "(red's face-down card acting)"
        where.add("with the card" if acting in message else "in the event")
        assert f"card={probe}" in message or acting in message, message
    print(f"named: {sorted(where)}")


# A list that keeps doubling.


def shared(ability: Faulty, game: Effects, card: CardId) -> None:
    big = list(range(1_000_000))
    game.then(ability.again, card, *[big] * 999)  # a billion values, were they copied


def shared_options(ability: Faulty, game: Effects, card: CardId) -> None:
    big = list(range(1_000_000))
    options: Any = [big] * 1_000
    game.ask(game.owner(card), "choose", options, ability.again, card)


def doubling_arguments(ability: Faulty, game: Effects, card: CardId) -> None:
    game.then(ability.doubles, card, [1])


TOO_BIG = "are too big or too deeply nested (at most 1000 values, 8 levels deep)"


@pytest.mark.parametrize(
    ("run", "what"),
    [
        (doubling_arguments, f"the arguments of probe.doubles cannot be saved: they {TOO_BIG}"),
        (shared, f"the arguments of probe.again cannot be saved: they {TOO_BIG}"),
        (shared_options, "an option of its choose question holds more than 1000 values"),
    ],
)
def test_a_doubling_list_the_engine_keeps_is_refused_at_once(
    tmp_path: Path, run: Run, what: str
) -> None:
    game, probe = faulty(tmp_path, run)
    started = time.perf_counter()
    blamed(game, ABILITY.format(card=probe), what)
    took = time.perf_counter() - started
    print(f"refused in {took:.3f} s")
    assert took < 2.0  # never copied whole: a billion values would take minutes


def doubles_its_own_list(ability: Faulty, game: Effects, card: CardId) -> None:
    values: list[Any] = [0]
    while True:
        values = values + values


def test_a_plugin_s_own_doubling_list_is_stopped_by_its_memory_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if sys.gettrace() is not None:
        pytest.skip("another tracer (coverage, a debugger) is in place: memory is not counted")
    # A low bound, so that the test itself takes little memory: 32 MiB more, where
    # the list doubles at each line.
    monkeypatch.setattr(guards, "MAX_MEMORY", 32 * 1024 * 1024)
    if guards.held() == 0:
        pytest.skip("this system tells no process how much memory it holds")
    game, probe = faulty(tmp_path, doubles_its_own_list)
    started = time.perf_counter()
    blamed(
        game,
        ABILITY.format(card=probe),
        "went over its bound of 32 MiB more memory for one call of plugin code",
    )
    took = time.perf_counter() - started
    print(f"stopped in {took:.3f} s")
    assert took < 5.0
    assert sys.gettrace() is None
