"""Damaged saved games: refused with a SaveError, or loaded as a legal position that
plays on to its end; never another exception, never a hang.

The saves are real: taken at random points of seeded random games (base, Ablaze and
both; 3 to 5 families), waiting on placements, reveals and abilities' questions. Each
input damages one of them in one to three places: a value replaced by one of another
type (null, a bool, a float, NaN, a huge or negative number, a string, a list, an
object, a deep nesting), a key or an item removed or repeated, or a card id copied
into a second place. A save that loads is checked here, by the test's own reading
of the table (every card once, Influence not negative, a round that exists...), then
played to its end with random answers.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme import Game, OriflammeError, Registry
from oriflamme.core.state import LAST_ROUND, PHASES

from .fuzzing import EXAMPLES, FUZZ, no_hang
from .helpers import new_game

REGISTRY = Registry(entry_points=False)
KINDS = (("base",), ("ablaze",), ("base", "ablaze"))


def _saves() -> list[dict[str, Any]]:
    found = []
    for seed in range(18):
        families = 3 + seed % 3
        game = new_game(REGISTRY, 9_000 + seed, families, sets=KINDS[seed % 3])
        rng = random.Random(seed)
        stops = sorted(rng.sample(range(1, 60), 3))
        step = 0
        while (decision := game.decision) is not None and stops:
            if step == stops[0]:
                stops.pop(0)
                found.append(json.loads(game.to_json()))
            game.answer_option(int(rng.random() * len(decision.options)))
            step += 1
    return found


SAVES = _saves()
#: Written into the text in place of this marker: too deep for json.dumps to write.
DEEP = "<deep nesting>"
JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    float("nan"),
    float("inf"),
    10**30,
    -(10**30),
    7,
    99,
    "",
    "red",
    "x" * 2_000,
    [],
    [0],
    [[0, 1]],
    {},
    {"kind": "gained"},
    DEEP,
    list(range(3_000)),
]


def _containers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every list and object inside ``value``."""
    found = []
    if isinstance(value, dict):
        found.append(path)
        for key, item in value.items():
            found += _containers(item, (*path, key))
    elif isinstance(value, list):
        found.append(path)
        for index, item in enumerate(value):
            found += _containers(item, (*path, index))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _ids(save: dict[str, Any]) -> list[int]:
    return [card for cards in save["hands"].values() for card in cards] or [0]


@st.composite
def damaged(draw: st.DrawFn) -> str:
    save = json.loads(json.dumps(SAVES[draw(st.integers(0, len(SAVES) - 1))]))
    ids = _ids(save)
    for _ in range(draw(st.integers(1, 3))):
        places = _containers(save)
        where = _at(save, draw(st.sampled_from(places)))
        keys = list(where) if isinstance(where, dict) else list(range(len(where)))
        how = draw(st.sampled_from(["replace", "remove", "repeat", "copy card", "nudge"]))
        if not keys and how != "copy card":
            continue
        key = draw(st.sampled_from(keys)) if keys else None
        if how == "replace":
            where[key] = draw(st.sampled_from(JUNK))
        elif how == "remove":
            del where[key]
        elif how == "repeat" and isinstance(where, list) and type(key) is int:
            where.insert(key, where[key])
        elif how == "nudge" and type(where[key]) is int:
            where[key] += draw(st.sampled_from([-2, -1, 1, 2, 30]))
        elif how == "copy card" and isinstance(where, list):
            where.append(draw(st.sampled_from(ids)))
    return json.dumps(save, allow_nan=True).replace(json.dumps(DEEP), "[" * 5_000 + "]" * 5_000)


def check_table(game: Game) -> None:
    """The test's own reading of a legal table."""
    position = game.position()
    labels = position.cards()
    assert len(labels) == len(set(labels)), "a card is in two places"
    assert set(labels) == set(position.ids), "a card is nowhere"
    for family, cards in [
        (f, c) for zone in ("hands", "set_aside") for f, c in position.zone(zone).items()
    ]:
        assert all(card.startswith(f"{family}.") for card in cards), "a card in another's zone"
    assert all(type(v) is int and v >= 0 for v in position.influence.values()), "Influence < 0"
    assert 3 <= len(game.families) <= 5
    assert 1 <= game.round <= LAST_ROUND
    assert game.phase in PHASES
    for stack in position.queue:
        assert stack, "an empty position"
        for entry in stack:
            assert not (entry.up and entry.tokens) or entry.card.endswith("plot"), "tokens up"
    decision = game.decision
    assert (decision is None) == game.over, "stuck: no decision, yet not over"
    if decision is not None:
        assert decision.family in game.families
        assert any(game.legal(option) for option in decision.options), "no legal answer"


def play_on(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(2_000):
        decision = game.decision
        if decision is None:
            return
        game.answer_option(int(rng.random() * len(decision.options)))
    pytest.fail("a loaded game did not end in 2,000 answers")


@pytest.mark.fuzz
@settings(FUZZ, max_examples=5 * EXAMPLES)  # most are refused in microseconds
@given(text=damaged(), seed=st.integers(0, 2**16))
def test_a_damaged_save_is_refused_or_is_a_legal_game(text: str, seed: int) -> None:
    with no_hang():
        try:
            game = Game.from_json(text, registry=REGISTRY)
        except OriflammeError as refused:
            message = str(refused)
        else:
            check_table(game)
            play_on(game, seed)
            return
        assert "\n" not in message, f"a refusal of more than one line: {message}"


@pytest.mark.parametrize("index", range(0, len(SAVES), 5))
def test_an_undamaged_save_loads_and_plays_on(index: int) -> None:
    game = Game.from_json(json.dumps(SAVES[index]), registry=REGISTRY)
    check_table(game)
    play_on(game, index)
    assert game.over
