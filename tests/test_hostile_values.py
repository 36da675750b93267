"""Hostile Python values, sent as answers at every kind of decision: each is refused
with an :class:`IllegalAnswer` whose message stays short, and the game is left as it
was. ``legal`` says False for each, and never raises.

Hostile means what the Python API lets a caller send that no JSON client could: whole
numbers of thousands of digits (Python will not even write them), NaN and infinity,
subclasses of int and str (one that equals everything, one whose hash raises), objects
whose ``__eq__``, ``__hash__``, ``__repr__``, ``__len__`` or ``__iter__`` raise or lie,
lists nested thousands deep, lists that hold themselves, a list that holds one big
list a thousand times, and placements and mappings built of all these.

The games are seeded (their seeds are printed); hypothesis is derandomized and bounded
(:mod:`tests.fuzzing`).
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oriflamme import (
    Ability,
    CardId,
    DecisionKind,
    Effects,
    Game,
    GameConfig,
    IllegalAnswer,
    Placement,
    Registry,
)
from oriflamme.testing import registry_with

from .fuzzing import FUZZ, no_hang
from .test_budget import Probe, revealing

#: The longest refusal: it may list the options, never repeat a huge answer.
MESSAGE = 600


# Hostile values, each made afresh (hypothesis never compares or hashes them).


class Equal:
    """Equals everything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class RaisingEq:
    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparing me")

    __hash__ = object.__hash__


class RaisingHash:
    def __hash__(self) -> int:
        raise TypeError("no hashing me")

    def __eq__(self, other: object) -> bool:
        raise TypeError("no comparing me")


class RaisingRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no showing me")


class HugeRepr:
    def __repr__(self) -> str:
        return "x" * 10_000_000


class EqualInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class EqualStr(str):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        raise TypeError("no hashing me")


class Word(str):
    """A plain str subclass: ``Word('first') == 'first'``."""


class Colour(enum.IntEnum):
    RED = 0
    BLUE = 1


class Flag(enum.IntFlag):
    ONE = 1


class LyingList(list[object]):
    def __len__(self) -> int:
        return 2

    def __iter__(self) -> Iterator[object]:
        raise RuntimeError("no iterating me")

    def __getitem__(self, index: object) -> Any:
        raise RuntimeError("no indexing me")


class LyingTuple(tuple[object, ...]):
    def __len__(self) -> int:
        raise RuntimeError("no measuring me")

    def __iter__(self) -> Iterator[object]:
        raise RuntimeError("no iterating me")


class LyingMapping(Mapping[str, object]):
    def __getitem__(self, key: str) -> object:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(("card", "at"))

    def __len__(self) -> int:
        return 2


class RaisingBool:
    def __bool__(self) -> bool:
        raise RuntimeError("no truth in me")

    def __index__(self) -> int:
        raise RuntimeError("no index in me")


def nested(depth: int) -> list[object]:
    value: list[object] = [0]
    for _ in range(depth):
        value = [value]
    return value


def holds_itself() -> list[object]:
    value: list[object] = [0]
    value.append(value)
    return value


def mapping_holds_itself() -> dict[str, object]:
    value: dict[str, object] = {"card": 0}
    value["at"] = value
    return value


def shared_big() -> list[object]:
    big = list(range(1_000))
    return [big] * 1_000  # a million values, a thousand lists


FACTORIES: list[Callable[[], object]] = [
    lambda: 10**5000,
    lambda: -(10**5000),
    lambda: 2**63,
    lambda: -(2**63) - 1,
    lambda: 10**20,
    lambda: math.nan,
    lambda: math.inf,
    lambda: -math.inf,
    lambda: 0.0,
    lambda: 1.0,
    lambda: complex(1, 2),
    lambda: None,
    lambda: b"first",
    lambda: bytearray(b"\x1b"),
    Equal,
    RaisingEq,
    RaisingHash,
    RaisingRepr,
    HugeRepr,
    lambda: EqualInt(0),
    lambda: EqualInt(10**5000),
    lambda: EqualStr("first"),
    lambda: EqualStr("x"),
    lambda: Word("first"),
    lambda: Word("last"),
    lambda: Colour.RED,
    lambda: Colour.BLUE,
    lambda: Flag.ONE,
    lambda: LyingList([0, "first"]),
    lambda: LyingTuple((0, "first")),
    LyingMapping,
    RaisingBool,
    lambda: nested(20),
    lambda: nested(5_000),
    holds_itself,
    mapping_holds_itself,
    shared_big,
    lambda: {Equal(), 1},
    lambda: frozenset({"first"}),
    lambda: {Equal(): 0, "card": 0, "at": "first"},
    lambda: {"card": 0, "at": "first", "x": 1},
    lambda: "x" * 1_000_000,
    lambda: ["a", 1] * 5_000,
    object,
    lambda: len,
    lambda: iter([0]),
    lambda: range(10**30),
]


def placements(leaf: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    """Placements and their JSON shapes, of a card id of the game or a hostile value,
    at an end, a position or a hostile value."""
    card = st.integers(0, 40) | leaf
    at = st.sampled_from(["first", "last", 0, 1, 2]) | leaf
    return st.one_of(
        st.builds(Placement, card, at),
        st.builds(lambda c, a: [c, a], card, at),
        st.builds(lambda c, a: (c, a), card, at),
        st.builds(lambda c, a: {"card": c, "at": a}, card, at),
    )


LEAF = st.sampled_from(FACTORIES).map(lambda make: make())
HOSTILE = st.recursive(
    LEAF,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | placements(inner)
        | st.dictionaries(st.sampled_from(["card", "at", "x"]), inner, max_size=3)
    ),
    max_leaves=6,
)


# A game waiting on each kind of decision.


class Pair(DecisionKind):
    """A plugin's kind with the default check: exactly one of the options."""

    name = "pair"


class AsksPair(Ability):
    def activate(self, game: Effects, card: CardId) -> None:
        options: Any = [["a", 1], ["b", [2, None]], 3, "x", True]
        game.ask(game.owner(card), "pair", options, self.answered, card)

    def answered(self, game: Effects, card: CardId, answer: object) -> None:
        pass


def waiting(registry: Registry, sets: tuple[str, ...], kind: str) -> Game:
    """The first decision of ``kind`` in seeded random games of ``sets``."""
    for seed in range(300):
        game = Game.new(GameConfig(seed=seed, sets=sets), registry=registry)
        rng = random.Random(seed)
        while (decision := game.decision) is not None:
            if decision.kind == kind:
                print(f"{kind}: seed {seed}, round {game.round}")
                return game
            game.answer_option(int(rng.random() * len(decision.options)))
    raise AssertionError(f"no {kind} decision in 300 games of {sets}")


@pytest.fixture(scope="module")
def games(registry: Registry, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Game]:
    found = {kind: waiting(registry, ("base",), kind) for kind in ("place", "reveal", "target")}
    found["move"] = waiting(registry, ("base",), "move")
    found["twin"] = waiting(registry, ("ablaze",), "twin")
    found["choose"] = waiting(registry, ("ablaze",), "choose")
    # A placement in round 2 or later: a position to stack on is offered too.
    later = waiting(registry, ("base",), "reveal")
    while later.round < 2 or (later.decision is not None and later.decision.kind != "place"):
        later.answer_option(0)
    found["place, later round"] = later
    folder = tmp_path_factory.mktemp("hostile")
    pairs = revealing(registry_with({"probes": Probe(folder, AsksPair(), (Pair(),))}))
    pairs.answer(True)
    found["pair (a plugin's kind)"] = pairs
    for kind, game in found.items():
        assert game.decision is not None, kind
    return found


KINDS = [
    "place",
    "place, later round",
    "reveal",
    "target",
    "move",
    "twin",
    "choose",
    "pair (a plugin's kind)",
]


def refused(game: Game, value: object) -> None:
    """``value`` is refused at ``game``'s decision, plainly, and changes nothing; or,
    if ``legal`` says it is an answer, it is played."""
    decision = game.decision
    assert decision is not None
    with no_hang():
        before = game.snapshot()
        legal = game.legal(value)
        assert type(legal) is bool
        assert game.snapshot() == before
        if legal:
            game.clone().answer(value)
        else:
            _refusal(before, game, lambda: game.answer(value))
        if not (type(value) is int and 0 <= value < len(decision.options)):
            _refusal(before, game, lambda: game.answer_option(value))
        # Whoever sends it: a family that equals every family is none of them.
        family = cast(str, EqualStr(decision.family))
        _refusal(before, game, lambda: game.answer(decision.options[0], family=family))


def _refusal(before: object, game: Game, answer: Callable[[], None]) -> None:
    with pytest.raises(IllegalAnswer) as error:
        answer()
    message = str(error.value)
    assert len(message) <= MESSAGE, message[:MESSAGE]
    assert game.snapshot() == before


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("make", FACTORIES, ids=range(len(FACTORIES)))
def test_each_hostile_value_is_refused_at_each_kind_of_decision(
    games: dict[str, Game], kind: str, make: Callable[[], object]
) -> None:
    refused(games[kind], make())


@pytest.mark.parametrize("kind", KINDS)
def test_a_hostile_placement_is_refused(games: dict[str, Game], kind: str) -> None:
    game = games[kind]
    decision = game.decision
    assert decision is not None
    cards = [option.card for option in decision.options if isinstance(option, Placement)][:1]
    for card in [*cards, 0, 10**5000, Equal(), EqualInt(0)]:
        for at in (Equal(), RaisingEq(), EqualStr("first"), Word("first"), 10**5000, -1, math.nan):
            refused(game, Placement(cast(int, card), cast(str, at)))
            refused(game, [card, at])
            refused(game, {"card": card, "at": at})


@pytest.mark.fuzz
@FUZZ
@given(value=HOSTILE)
def test_hostile_values_are_refused_plainly(games: dict[str, Game], value: object) -> None:
    for kind in KINDS:
        refused(games[kind], value)


def test_the_huge_number_of_the_report_is_refused_plainly(games: dict[str, Game]) -> None:
    # The failure reported: a ValueError from the digit limit, at target, move and twin.
    for kind in ("target", "move", "twin"):
        game = games[kind]
        assert not game.legal(10**5000)
        with pytest.raises(IllegalAnswer, match="an int too long to show"):
            game.answer(10**5000)
    game = games["place"]
    decision = game.decision
    assert decision is not None
    card = game.observe(decision.family).hand[0]
    with pytest.raises(IllegalAnswer, match="a place in the queue is 'first', 'last' or a"):
        game.answer(Placement(card, cast(str, Equal())))
