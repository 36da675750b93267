"""Third-party code, fuzzed: an ability and an event hook that do whatever they are told.

Each example is a plugin's script: what its ability does when it acts, what its
continuation does when it is called back, what its hook does when Influence is gained.
Steps gain and lose Influence, queue tasks, ask questions of every kind with every sort
of family, card, options and words (right and wrong), apply other abilities, raise,
and run away (a loop that never ends, with or without calling the engine). The game is
then played on, a few answers at a time. Each answer is either refused with an
``OriflammeError`` and the game exactly as it was, or accepted with a game that waits
on a question (or is over) and whose state the rules allow (the check a save passes on
loading). No answer hangs: each game has a small budget, and the whole example runs
under :func:`no_hang`.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from oriflamme import (
    Ability,
    Budget,
    CardId,
    DecisionKind,
    Effects,
    Game,
    OriflammeError,
    Placement,
    hookimpl,
)
from oriflamme.events import Gained
from oriflamme.saves import check_state
from oriflamme.testing import registry_with

from .fuzzing import FUZZ, no_hang
from .test_budget import Probe, revealing

#: Each example's budget: small, so that a runaway is stopped in a few milliseconds.
BUDGET = Budget(steps=300, lines=5_000)

#: The script of the current example: what the ability, its continuation and the hook do.
PLAN: dict[str, list[tuple[Any, ...]]] = {"now": [], "later": [], "hook": []}


class Pick(DecisionKind):
    """A plugin's own kind, with the default check."""

    name = "pick"


def run(game: Effects, card: CardId, steps: list[tuple[Any, ...]], ability: Scripted) -> None:
    for step in steps:
        what, *values = step
        if what == "gain":
            game.gain(game.owner(card), values[0], card)
        elif what == "lose":
            game.lose(game.owner(card), values[0], card)
        elif what == "then":
            game.then(ability.again, _card(game, card, values[0]), *values[1])
        elif what == "ask":
            family, kind, options, about, words = values
            game.ask(
                game.owner(card) if family == "owner" else family,
                kind,
                _options(game, card, options),
                ability.again,
                _card(game, card, about),
                **words,
            )
        elif what == "apply":
            game.apply_ability(values[0], card)
        elif what == "raise":
            raise ValueError("scripted")
        elif what == "spin":
            while True: pass  # noqa: E701  # fmt: skip
        elif what == "swallow":
            while True:
                try:
                    while True: pass  # noqa: E701  # fmt: skip
                except Exception:  # a plugin's catch-all cannot keep the loop going
                    pass
        elif what == "gain forever":
            while True:
                game.gain(game.owner(card), 1, card)


def _card(game: Effects, card: CardId, chosen: object) -> Any:
    return card if chosen == "self" else chosen


def _options(game: Effects, card: CardId, chosen: object) -> Any:
    if chosen == "positions":
        return list(range(len(game.queue)))
    if chosen == "spots":
        return list(game.spots(game.owner(card)))
    if chosen == "hand":
        return [Placement(c, "first") for c in game.hands[game.owner(card)]]
    return chosen


class Scripted(Ability):
    def activate(self, game: Effects, card: CardId) -> None:
        run(game, card, PLAN["now"], self)

    def again(self, game: Effects, card: CardId, *args: Any) -> None:
        run(game, card, PLAN["later"], self)


SCRIPTED = Scripted()


class Watcher:
    @hookimpl
    def influence_gained(self, game: Effects, event: Gained) -> None:
        card = event.card if event.card is not None else 0
        run(game, card, PLAN["hook"], SCRIPTED)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=3) | st.floats(),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=5,
)
OPTIONS = st.one_of(
    st.sampled_from(["positions", "spots", "hand"]),
    st.lists(JSON, max_size=4),
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
    st.lists(st.integers(0, 8), max_size=4),
    st.tuples(st.integers(0, 3), st.integers(0, 3)),
    st.text(max_size=3),
    st.integers(),
    st.frozensets(st.integers(0, 3), max_size=3),
)
CARDS = st.one_of(st.just("self"), st.integers(-2, 70), st.none(), st.text(max_size=2))
FAMILIES = st.sampled_from(["owner", "red", "blue", "green", "purple", "", None, 0])
KINDS = st.sampled_from(["choose", "target", "move", "twin", "pick", "place", "reveal", "nope"])
#: Words a terminal would obey: a question or a label holding one is refused.
HOSTILE_WORDS = st.sampled_from(
    ["\x1b[2J", "\x1b]0;title\x07", "two\nlines", "\u202eright", "\x9b1m"]
)
WORDS = st.fixed_dictionaries(
    {},
    optional={
        "question": st.none() | st.text(max_size=4) | st.integers() | HOSTILE_WORDS,
        "labels": st.none()
        | st.dictionaries(
            st.sampled_from(["a", "b", 0, 1]), st.text(max_size=3) | HOSTILE_WORDS, max_size=2
        )
        | st.lists(st.text(max_size=2), max_size=2),
    },
)
#: What no question or label a game keeps holds.
RAW = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: A question asked as the rules allow, so that games go on past the first answer.
FAIR_ASK = st.tuples(
    st.just("ask"),
    st.just("owner"),
    st.sampled_from(["choose", "pick"]),
    st.lists(st.sampled_from(["a", "b", "c"]), unique=True, max_size=3),
    st.just("self"),
    st.just({}),
)
STEP = st.one_of(
    FAIR_ASK,
    st.tuples(st.just("ask"), st.just("owner"), st.just("target"), st.just("positions")).map(
        lambda step: (*step, "self", {})
    ),
    st.tuples(st.sampled_from(["gain", "lose"]), st.integers(0, 3)),
    # Continuation arguments without floats: a save refuses them (see the report).
    st.tuples(st.just("then"), CARDS, st.lists(st.integers(-3, 9) | st.text(max_size=2))),
    st.tuples(st.just("ask"), FAMILIES, KINDS, OPTIONS, CARDS, WORDS),
    st.tuples(st.just("apply"), st.sampled_from(["soldier", "spy", "archer", "heir", "probe"])),
    st.tuples(st.sampled_from(["raise", "spin", "swallow", "gain forever"])),
)
SCRIPT = st.lists(STEP, max_size=4)


@pytest.fixture(scope="module")
def opening(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The game whose next answer is red revealing the scripted probe (made once)."""
    folder = tmp_path_factory.mktemp("fuzz-plugins")
    plugins = {"probes": Probe(folder, SCRIPTED, (Pick(),)), "watcher": Watcher()}
    return revealing(registry_with(plugins))


def start(opening: Game) -> Game:
    game = opening.clone()
    game.budget = BUDGET
    return game


def answered(game: Game, number: int, as_json: bool) -> str:
    """Answer option ``number``: ``accepted``, or ``refused`` and the error's type. A
    refusal changes nothing; an acceptance leaves a game the rules allow, waiting on a
    question or over."""
    decision = game.decision
    assert decision is not None
    before = game.snapshot()
    option = decision.options[number % len(decision.options)]
    try:
        if as_json:
            game.answer(decision.to_dict()["options"][number % len(decision.options)])
        else:
            game.answer(option)
    except OriflammeError as error:
        assert game.snapshot() == before
        return f"refused: {type(error).__name__}"
    check_state(game._state)
    assert game.decision is not None or game.over
    asked = game.decision
    if asked is not None:  # the words it waits on are printable as they are
        for word in [asked.question or "", *(asked.labels or ())]:
            assert RAW.search(word) is None, repr(word)
    return "accepted"


@pytest.mark.fuzz
@FUZZ
@given(
    now=SCRIPT,
    later=SCRIPT,
    hook=st.lists(STEP, max_size=2),
    answers=st.lists(st.tuples(st.integers(0, 50), st.booleans()), max_size=12),
)
def test_a_scripted_plugin_never_hangs_nor_wedges_a_game(
    opening: Game,
    now: list[tuple[Any, ...]],
    later: list[tuple[Any, ...]],
    hook: list[tuple[Any, ...]],
    answers: list[tuple[int, bool]],
) -> None:
    PLAN.update(now=now, later=later, hook=hook)
    with no_hang():
        game = start(opening)
        outcome = answered(game, 0, False)  # red reveals the probe
        event(f"the reveal: {outcome}")
        if outcome != "accepted":
            return
        for number, as_json in answers:
            if game.decision is None:
                event("played to the end")
                break
            event(f"{game.decision.kind}: {answered(game, number, as_json)}")


def test_the_fuzzed_plugin_runs_its_script(opening: Game) -> None:
    # The script is what runs: an ability that gains 2 and asks a fair question.
    PLAN.update(
        now=[("gain", 2), ("ask", "owner", "pick", ["x", "y"], "self", {})],
        later=[("gain", 3)],
        hook=[],
    )
    game = start(opening)
    assert answered(game, 0, False) == "accepted"
    assert game.decision is not None
    assert (game.decision.kind, game.decision.options) == ("pick", ("x", "y"))
    assert answered(game, 1, True) == "accepted"
    assert game.scores["red"] == 1 + 2 + 3
