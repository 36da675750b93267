"""Observations: plain data with no link to the game, which nobody can change, and
which show a family everything public and its own cards, never another family's
hidden card. Checked over many seeded games of every kind, at random steps."""

from __future__ import annotations

import gc
import json
import pickle
import random
import types
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any

import pytest

import oriflamme.core._observation
from oriflamme import (
    Decision,
    Effects,
    Game,
    GameRules,
    IllegalAnswer,
    Observation,
    Placement,
    Placements,
    Registry,
)
from oriflamme.core._engine import Engine
from oriflamme.core._identity import Identity
from oriflamme.core._observation import FIELDS
from oriflamme.core._state import State
from oriflamme.events import EVENT_TYPES
from oriflamme.saves import load

from .helpers import new_game, play_until
from .test_properties import FAMILIES, KINDS, seeds

# Compiled, an observation's own fields are read-only too.
COMPILED = not oriflamme.core._observation.__file__.endswith(".py")

GAMES = 20  # per family count and kind of game
STOPS = 3  # random steps looked at in each game, besides its end
#: What a game is made of: no observation may lead to one.
GAME_TYPES = (Game, State, Engine, Effects, GameRules, Identity, Registry)
#: All an observation may hold: values, read-only mappings, and the dicts behind them.
PLAIN = (
    Observation,
    Decision,
    Placements,
    Placement,
    tuple,
    str,
    int,
    float,
    bool,
    type(None),
    types.MappingProxyType,
    *EVENT_TYPES.values(),
)
WALK_LIMIT = 200_000


def reachable(root: object, skip: object = None) -> Iterator[tuple[object, object | None]]:
    """Every object reachable from ``root`` through references, with the one that led to
    it, but ``skip`` and what only it leads to. Classes, modules and functions are not
    followed: they are code, not data."""
    seen: set[int] = {id(skip)} if skip is not None else set()
    todo: list[tuple[object, object | None]] = [(root, None)]
    while todo:
        item, parent = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        assert len(seen) < WALK_LIMIT, "an observation reaches too many objects"
        yield item, parent
        if isinstance(item, type | types.ModuleType | types.FunctionType | types.CodeType):
            continue
        todo.extend((child, item) for child in gc.get_referents(item))


def check_plain(observation: Observation, where: str) -> None:
    """Every value ``observation`` holds is plain data: no rules, nothing of the game."""
    assert not hasattr(observation, "rules"), where
    for item, parent in reachable(observation):
        assert not isinstance(item, GAME_TYPES), f"{where}: reaches a {type(item).__name__}"
        if isinstance(item, type):
            continue
        if type(item) is dict:
            assert type(parent) is types.MappingProxyType, f"{where}: a dict in {parent!r}"
            continue
        assert isinstance(item, PLAIN), f"{where}: holds a {type(item).__name__}: {item!r}"


def colour(label: str) -> str:
    return label.split(".", maxsplit=1)[0]


def hidden_from(game: Game, family: str | None) -> set[int]:
    """The ids of the cards ``family`` (None: a spectator) may not know: another
    family's card in hand, set aside, or face down in the queue (read from the
    referee's position, not from an observation)."""
    position = game.position()
    ids = position.ids
    hidden = {
        ids[label]
        for other in game.families
        if other != family
        for zone in (position.hands, position.set_aside)
        for label in zone[other]
    }
    for stack in position.queue:
        hidden |= {ids[e.card] for e in stack if not e.up and colour(e.card) != family}
    return hidden


def public_cards(game: Game) -> set[int]:
    """The ids of the cards everyone sees: face up in the queue, in a reserve or a pile."""
    position = game.position()
    ids = position.ids
    seen = {ids[e.card] for stack in position.queue for e in stack if e.up}
    for zone in (position.reserve, position.discarded, position.eliminated):
        seen |= {ids[label] for cards in zone.values() for label in cards}
    return seen


def card_entries(data: object) -> Iterator[Mapping[str, Any]]:
    """Every card entry (a dict with an ``id``) of an observation's JSON data."""
    if isinstance(data, dict):
        if "id" in data and "key" in data:
            yield data
        for value in data.values():
            yield from card_entries(value)
    elif isinstance(data, list):
        for value in data:
            yield from card_entries(value)


def check_secrets(
    game: Game, family: str | None, seed: int, where: str, registry: Registry
) -> None:
    """What ``family`` (None: a spectator) knows is exactly its own cards and the public."""
    observation = game.observe(family)
    position = game.position()
    keys = {card: label.split(".")[1] for label, card in position.ids.items()}
    known = public_cards(game)
    if family is not None:
        known |= {card for label, card in position.ids.items() if colour(label) == family}
        for card in hidden_from(game, family):
            assert observation.key(card) is None, f"{where}: {family} sees hidden {card}"
    for card, key in keys.items():
        expected = key if card in known else None
        assert observation.key(card) == expected, f"{where}: {family} and card {card}"
    data = json.loads(json.dumps(observation.to_dict()))
    for entry in card_entries(data):
        assert entry["key"] == (keys[entry["id"]] if entry["id"] in known else None), (
            f"{where}: {family}'s JSON shows {entry}"
        )
    own = tuple(position.ids[label] for label in position.hands[family]) if family else ()
    assert observation.hand == own, where
    assert [entry["id"] for entry in data["hand"]] == list(own), where
    assert observation.hand_sizes == {f: len(h) for f, h in position.hands.items()}, where
    assert observation.events == game.events, where
    decision = game.decision
    if decision is not None:
        if decision.family == family or decision.kind != "place":
            assert observation.decision == decision, where
        else:  # another family's hand: only who is asked, and what
            assert observation.decision == Decision(decision.family, "place", ()), where
            assert data["decision"]["options"] == [], where
    if family is not None:  # another deal of the cards it cannot see changes nothing it sees
        sample = Game.determinise(observation, seed, registry=registry)
        assert sample.observe(family) == observation, f"{where}: {family}'s resample differs"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("families", FAMILIES)
def test_no_observation_shows_another_familys_hidden_card(
    registry: Registry, families: int, kind: str
) -> None:
    chosen = seeds(families, kind, GAMES)
    print(f"{families} families, {kind}: seeds {chosen.start} to {chosen.stop - 1}")
    for seed in chosen:
        rng = random.Random(seed)
        game = new_game(registry, seed, families, sets=KINDS[kind])
        step = 0
        for stop in sorted(rng.sample(range(150), STOPS)):
            play_until(game, stop - step, seed + stop)
            step = stop
            for family in (None, *game.families):
                check_secrets(game, family, seed + stop, f"seed {seed}, step {stop}", registry)
        play_until(game, 1000, seed)
        assert game.over, f"seed {seed}"
        for family in (None, *game.families):
            check_secrets(game, family, seed, f"seed {seed}, at the end", registry)


@pytest.mark.parametrize("kind", KINDS)
def test_an_observation_holds_no_link_to_the_game(registry: Registry, kind: str) -> None:
    chosen = seeds(4, kind, 6)
    print(f"{kind}: seeds {chosen.start} to {chosen.stop - 1}")
    for seed in chosen:
        game = new_game(registry, seed, 4, sets=KINDS[kind])
        for steps in (0, 25, 40, 1000):
            play_until(game, steps, seed + steps)
            for family in (None, *game.families):
                seen = game.observe(family)
                read(seen)  # the mappings it makes when they are read are plain too
                check_plain(seen, f"seed {seed}, round {game.round}")


def set_item(target: Any, key: object, value: object) -> None:
    target[key] = value


def del_item(target: Any, key: object) -> None:
    del target[key]


def call(target: Any, method: str, *args: object) -> None:
    getattr(target, method)(*args)


def own_attempts(observation: Observation) -> Iterator[tuple[str, Callable[[], object]]]:
    """Ways to change the observation object itself: refused when it is compiled, and
    harmless anyway (each observation is made afresh: it is nobody else's)."""
    yield "set a field", partial(setattr, observation, "round", 99)
    yield "add an attribute", partial(setattr, observation, "note", 1)
    yield "delete a field", partial(delattr, observation, "hand")


def attempts(observation: Observation) -> Iterator[tuple[str, Callable[[], object]]]:
    """Ways to change what an observation shares with the game, each named: every one
    must fail."""
    for name in (*FIELDS, "log"):
        value = getattr(observation, name)
        if isinstance(value, Mapping):
            key = next(iter(value), "red")
            yield f"set in {name}", partial(set_item, value, key, 0)
            yield f"delete from {name}", partial(del_item, value, key)
            yield f"clear {name}", partial(call, value, "clear")
        elif isinstance(value, tuple) and value:
            yield f"set in {name}", partial(set_item, value, 0, 0)
            yield f"append to {name}", partial(call, value, "append", 0)
    for prop in ("influence", "reserve", "discarded", "eliminated", "tokens", "public_keys"):
        value = getattr(observation, prop)
        yield f"set in {prop}", partial(set_item, value, next(iter(value), "red"), 0)
    for event in observation.events[-3:]:
        yield f"set a field of {event!r}", partial(setattr, event, event._fields[0], None)
    yield "set in the hand sizes", partial(set_item, observation.hand_sizes, "red", 7)
    decision = observation.decision
    if decision is not None:
        yield "set the decision's family", partial(setattr, decision, "family", "nobody")
        yield "set the decision's options", partial(setattr, decision, "options", ())
        options = decision.options
        if isinstance(options, Placements):
            yield from placements_attempts(options)


def placements_attempts(options: Placements) -> Iterator[tuple[str, Callable[[], object]]]:
    for name in ("_cards", "_ats", "_size", "_width", "cards", "ats", "extra"):
        yield f"set Placements.{name}", partial(setattr, options, name, (0, 1, 2, 3))
        yield f"delete Placements.{name}", partial(delattr, options, name)


def test_nothing_reachable_from_an_observation_can_be_changed(registry: Registry) -> None:
    seed = 4242
    print(f"seed={seed}")
    game = new_game(registry, seed, 4, sets=KINDS["mixed"])
    kinds = set()
    while game.decision is not None:
        kinds.add(game.decision.kind)
        before = game.snapshot()
        for family in (None, *game.families):
            observation = game.observe(family)
            for what, attempt in attempts(observation):
                try:
                    attempt()
                except (AttributeError, TypeError):
                    continue
                pytest.fail(f"{family} could {what}")
            assert observation == game.observe(family), f"{family}'s observation changed"
            for what, attempt in own_attempts(observation):
                try:
                    attempt()
                except AttributeError:
                    continue
                assert not COMPILED, f"{family} could {what} of a compiled observation"
        assert game.snapshot() == before, "changing an observation changed the game"
        play_until(game, 1, seed + len(game.events))
    assert {"place", "reveal", "target"} <= kinds


def test_a_decision_cannot_be_widened_to_pass_an_illegal_answer(registry: Registry) -> None:
    game = new_game(registry, 77, 3, first_player="red")
    decision = game.decision
    assert decision is not None
    options = decision.options
    assert isinstance(options, Placements)
    outsider = game.observe("blue").hand[0]
    before = game.snapshot()
    for name in ("_cards", "_ats", "cards", "ats", "_size", "_width"):
        with pytest.raises(AttributeError, match="cannot be changed"):
            setattr(options, name, (*options.cards, outsider))
    with pytest.raises(AttributeError):
        decision.options = Placements((outsider,), ("first",))  # type: ignore[misc]
    assert outsider not in options.cards
    with pytest.raises(IllegalAnswer, match=f"card {outsider} is not in red's hand"):
        game.answer(Placement(outsider, "first"))
    assert game.snapshot() == before


def test_observations_are_compared_by_value(registry: Registry) -> None:
    seed = 909
    print(f"seed={seed}")
    game = play_until(new_game(registry, seed, 5, sets=KINDS["ablaze"]), 60, seed)
    loaded = load(game.to_json(), registry=registry)
    for family in (None, *game.families):
        observation = game.observe(family)
        assert observation == game.clone().observe(family)
        assert observation == loaded.observe(family)  # a log rebuilt event by event
        assert observation is not loaded.observe(family)
        with pytest.raises(TypeError, match="compared by value"):
            hash(observation)
    later = play_until(game.clone(), 1, seed)
    assert later.observe("red") != game.observe("red")
    assert later.observe("red") == play_until(game.clone(), 1, seed).observe("red")


def read(observation: Observation) -> None:
    """Read every public name of ``observation`` (its mappings are made when first read)."""
    for name in PUBLIC:
        getattr(observation, name)


#: Every public name of an observation: one a datum.
PUBLIC = (
    "family",
    "families",
    "cards",
    "sets",
    "variants",
    "direction",
    "round",
    "phase",
    "first_player",
    "colours",
    "queue",
    "hand",
    "set_aside",
    "own_keys",
    "decision",
    "placed",
    "walk",
    "acting",
    "acting_gone",
    "revealing",
    "influence",
    "reserve",
    "discarded",
    "eliminated",
    "hand_sizes",
    "set_aside_sizes",
    "tokens",
    "bribes",
    "public_keys",
    "log",
    "events",
    "over",
    "asked",
)
#: The names an observation had before each datum had one: none is an attribute now.
GONE = (
    "seat_influence",
    "seat_reserve",
    "seat_discarded",
    "seat_eliminated",
    "hand_counts",
    "set_aside_counts",
    "token_pairs",
    "card_bribes",
    "shown",
    "up_mask",
    "first",
    "colour",
    "resume",
    "tasks",
    "rules",
)


def test_an_observation_has_one_name_a_datum(registry: Registry) -> None:
    game = play_until(new_game(registry, 31, 4, sets=KINDS["mixed"]), 30, 31)
    for family in (None, *game.families):
        seen = game.observe(family)
        for name in PUBLIC:
            assert hasattr(seen, name), name
        for name in GONE:
            assert not hasattr(seen, name), name
        public = [name for name in dir(seen) if not name.startswith("_")]
        methods = {"key", "knows", "owner", "is_up", "tokens_on", "top", "tops", "to_dict"}
        assert set(public) == {*PUBLIC, "winners"} | methods
        # By family, in seat order; by card, the cards that have one.
        assert tuple(seen.influence) == game.families
        assert tuple(seen.hand_sizes) == game.families
        assert seen.first_player in game.families
        assert seen.influence is seen.influence  # made once, kept
        assert seen.tokens == {c: seen.tokens_on(c) for c in seen.tokens}
        assert all(
            seen.is_up(card)
            for card in seen.public_keys
            if any(card in stack for stack in seen.queue)
        )


def test_an_observation_pickles_by_its_fields(registry: Registry) -> None:
    seed = 404
    print(f"seed={seed}")
    game = play_until(new_game(registry, seed, 4, sets=KINDS["ablaze"]), 40, seed)
    for family in (None, *game.families):
        seen = game.observe(family)
        read(seen)
        back = pickle.loads(pickle.dumps(seen, protocol=pickle.HIGHEST_PROTOCOL))
        assert type(back) is Observation
        assert back == seen
        assert back.events == seen.events
        for name in PUBLIC:
            assert getattr(back, name) == getattr(seen, name), name
        check_plain(back, f"{family} read back")


def test_an_observation_read_back_is_the_one_sent_or_nothing(registry: Registry) -> None:
    game = play_until(new_game(registry, 5, 3), 10, 5)
    seen = game.observe("red")
    rebuild, (log, fields) = seen.__reduce__()
    assert rebuild(log, fields) == seen
    # One card more in hand than red holds; the key of a card of blue's red cannot know.
    other = game.observe("blue").hand[0]
    for name, value in (
        ("hand", (*fields["hand"], other)),
        ("own_keys", {**fields["own_keys"], other: "spy"}),
    ):
        with pytest.raises(ValueError, match="does not come back as it was given"):
            rebuild(log, {**fields, name: value})
