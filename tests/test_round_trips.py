"""Whatever the engine writes, it reads back.

Every game the engine, the command line (``oriflamme play --seed N --save F``) and the
server make, from any seed they accept or draw, saves and loads back equal at every
decision: the same game, the same question, the very same text saved again, and the
loaded copy plays on as the game does. So does every value a plugin's ability may
pass to ``ask`` and ``then``, the extremes of each bound included. A value one past a
bound is refused as it is given, by an error naming the plugin and the bound, and a
save holding it is refused when read; a game grown past what a save holds is refused
when saved, never written. A save written before seeds of 19 digits could be read
back loads.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import secrets
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from oriflamme import (
    COLOURS,
    Ability,
    AbilityError,
    CardId,
    ConfigError,
    DecisionKind,
    Effects,
    Game,
    GameConfig,
    Registry,
    SaveError,
)
from oriflamme.arguments import build_parser
from oriflamme.savefile import load_game, save_game
from oriflamme.saves import load
from oriflamme.terminal import play_command
from oriflamme.testing import registry_with
from oriflamme.web.creation import Request, read_request

from .test_budget import Probe, revealing

#: The bounds as the documentation states them (docs/limits.md, docs/plugins.md):
#: written out here, not imported, so that a change to the engine's shows.
MAX_SEED = 2**63 - 1  # seeds and every whole number: what 64 bits hold
DEEPEST = 8  # levels a continuation's arguments (their tuple is the first) or an option nest
MOST = 1_000  # values in them, containers included
LONGEST = 1_000  # characters of a question or an option's words
MAX_VALUE_BYTES = 64 * 1024  # bytes a save keeps of one continuation's arguments
MOST_INFLUENCE = 10_000  # a family's

REGISTRY = Registry(entry_points=False)
SETS = (("base",), ("ablaze",), ("base", "ablaze"))
#: Bounded: the whole file runs in well under 30 s.
BOUNDED = settings(
    max_examples=20,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def same_after_loading(game: Game, registry: Registry) -> Game:
    """``game`` saved and loaded back: equal, at the same question, and saving the very
    same text again (no number, type or order changed on the way)."""
    text = game.to_json()
    loaded = load(text, registry=registry)
    assert loaded == game
    assert loaded.decision == game.decision
    assert loaded.to_json() == text
    return loaded


def play_checked(game: Game, registry: Registry, seed: int) -> int:
    """Play ``game`` to its end with answers drawn from ``seed``: at every decision it
    is saved and loaded back, and the loaded copy, given the same answer, stays equal
    to it. Returns the number of decisions."""
    rng = random.Random(seed)
    decisions = 0
    while (decision := game.decision) is not None:
        loaded = same_after_loading(game, registry)
        choice = rng.randrange(len(decision.options))
        game.answer_option(choice)
        loaded.answer_option(choice)
        assert loaded == game
        decisions += 1
    same_after_loading(game, registry)  # and once it is over
    return decisions


# Games of the engine, from any seed.

SEEDS = st.integers(-MAX_SEED, MAX_SEED)


@BOUNDED
@given(
    seed=SEEDS,
    families=st.integers(3, 5),
    sets=st.sampled_from(SETS),
    given_apart=st.booleans(),
    record=st.booleans(),
)
@example(seed=MAX_SEED, families=3, sets=("base",), given_apart=False, record=True)
@example(seed=-MAX_SEED, families=4, sets=("ablaze",), given_apart=True, record=True)
@example(seed=10**18, families=5, sets=("base", "ablaze"), given_apart=False, record=False)
@example(seed=0, families=3, sets=("base", "ablaze"), given_apart=True, record=True)
def test_a_game_from_any_seed_saves_and_loads_back_at_every_decision(
    seed: int, families: int, sets: tuple[str, ...], given_apart: bool, record: bool
) -> None:
    print(f"seed {seed}")
    config = GameConfig(families=COLOURS[:families], sets=sets, seed=0 if given_apart else seed)
    # A simulation gives each game's seed apart from the configuration they share.
    game = Game.new(config, registry=REGISTRY, record=record, seed=seed if given_apart else None)
    assert game.config.seed == seed
    assert play_checked(game, REGISTRY, seed) > 0


@BOUNDED
@given(seed=SEEDS, deal=SEEDS, steps=st.integers(0, 40))
@example(seed=1, deal=MAX_SEED, steps=10)
@example(seed=MAX_SEED, deal=-MAX_SEED, steps=30)
def test_a_determinised_game_saves_and_loads_back(seed: int, deal: int, steps: int) -> None:
    print(f"seed {seed}, deal {deal}")
    config = GameConfig(families=COLOURS[:4], sets=("base", "ablaze"), seed=seed)
    game = Game.new(config, registry=REGISTRY)
    rng = random.Random(seed)
    for _ in range(steps):
        decision = game.decision
        assert decision is not None
        game.answer_option(rng.randrange(len(decision.options)))
    decision = game.decision
    assert decision is not None
    guess = Game.determinise(game.observe(decision.family), deal, registry=REGISTRY)
    assert guess.config.seed == deal
    same_after_loading(guess, REGISTRY)


def test_a_seed_past_the_bound_is_refused_as_the_game_is_made() -> None:
    print("seed 0")
    base = GameConfig(seed=0)
    observation = Game.new(base, registry=REGISTRY).observe("red")
    for seed in (MAX_SEED + 1, -(MAX_SEED + 1), 10**30):
        said = f"seed must be a whole number within ±{MAX_SEED}"
        with pytest.raises(ConfigError, match=said):
            GameConfig(seed=seed).check()
        with pytest.raises(ConfigError, match=said):
            Game.new(base, registry=REGISTRY, seed=seed)
        with pytest.raises(ConfigError, match=said):
            Game.determinise(observation, seed, registry=REGISTRY)
        with pytest.raises(ConfigError, match=said):
            read_request({"families": 3, "seed": seed}, [], _no_bots)


def test_a_save_past_the_seed_bound_is_refused_when_read() -> None:
    print(f"seed {MAX_SEED}")
    data = json.loads(Game.new(GameConfig(seed=MAX_SEED), registry=REGISTRY).to_json())
    for seed, message in (
        (MAX_SEED + 1, f"config.seed must be a whole number from {-MAX_SEED} to {MAX_SEED}"),
        (-(MAX_SEED + 1), f"config.seed must be a whole number from {-MAX_SEED} to {MAX_SEED}"),
        (10**19, "a number of 20 digits (at most 19)"),
    ):
        data["config"]["seed"] = seed
        with pytest.raises(SaveError, match=re.escape(message)):
            load(json.dumps(data), registry=REGISTRY)


def test_the_longest_card_list_a_game_is_made_with_is_one_a_save_holds() -> None:
    print("seed 5")
    # A configuration names at most 100 cards; a reserve card joins the card it needs.
    longest = ("soldier",) * 98 + ("prince",)  # and the Twin: 100
    game = Game.new(GameConfig(cards=longest, seed=5), registry=REGISTRY)
    assert len(game.cards) == 100
    play_checked(game, REGISTRY, 5)
    with pytest.raises(ConfigError, match=r"a card list of 101 cards .* at most 100"):
        Game.new(GameConfig(cards=("soldier", *longest), seed=5), registry=REGISTRY)


# Games of the server: their seeds drawn as it draws them.


def _no_bots(kind: object, family: str) -> str:
    raise AssertionError(f"no bot was asked for, yet {family} has {kind!r}")


@pytest.mark.parametrize(
    ("body", "sets"),
    [
        ({"families": 3}, ("base",)),
        ({"families": 4, "sets": ["ablaze"]}, ("ablaze",)),
        ({"families": 5, "sets": ["base", "ablaze"]}, ("base", "ablaze")),
        ({"families": 3, "seed": MAX_SEED}, ("base",)),
        ({"families": 4, "seed": -MAX_SEED, "sets": ["base", "ablaze"]}, ("base", "ablaze")),
    ],
)
def test_a_game_the_server_makes_saves_and_loads_back_at_every_decision(
    body: dict[str, Any], sets: tuple[str, ...]
) -> None:
    drawn = "seed" not in body
    if drawn:
        # Drawn as the server draws a seed, from secrets.randbits(63): half of them have
        # 19 digits. The draw is the server's own; the seed is printed to replay it.
        with mock.patch.object(secrets, "randbits", wraps=secrets.randbits) as draw:
            request = read_request(body, [], _no_bots)
        draw.assert_called_once_with(63)
    else:
        request = read_request(body, [], _no_bots)
    seed = request.config.seed
    print(f"seed {seed}")
    assert request.config.sets == sets
    assert 0 <= seed <= MAX_SEED if drawn else seed == body["seed"]
    # The server keeps the request as JSON, and makes the game again from it.
    stored = Request.from_dict(json.loads(json.dumps(request.to_dict())))
    assert stored == request
    game = Game.new(stored.config, registry=REGISTRY)
    assert game.config.seed == seed
    assert play_checked(game, REGISTRY, seed) > 0


# Games of the command line: every save it writes, read back by it.


def _play(options: list[str], read: Callable[[str], str]) -> str:
    out = io.StringIO()
    args: argparse.Namespace = build_parser().parse_args(["play", "--no-plugins", *options])
    status = play_command(args, REGISTRY, read=read, out=out)
    assert status == 0, out.getvalue()
    return out.getvalue()


@contextlib.contextmanager
def _checked_saves(written: list[str]) -> Iterator[None]:
    """While it runs, every save the command writes is read back by it (and by the
    engine) as the very game it wrote. The seed of the first is printed: the command
    may have drawn it."""

    def save(game: Game, path: str) -> None:
        save_game(game, path)
        text = Path(path).read_text(encoding="utf-8")
        if not written:
            print(f"seed {game.config.seed} (saved by the command)")
        assert text == game.to_json()
        loaded = load_game(path, REGISTRY)
        assert loaded == game
        assert loaded.decision == game.decision
        assert loaded.to_json() == text
        written.append(text)

    with mock.patch("oriflamme.terminal.save_game", save):
        yield


def _typing(count: int | None) -> Callable[[str], str]:
    """A person who answers "1" ``count`` times (for ever if None), then leaves."""
    typed = [0]

    def read(_prompt: str) -> str:
        if count is not None and typed[0] >= count:
            raise EOFError
        typed[0] += 1
        return "1"

    return read


@settings(BOUNDED, max_examples=4)
@given(seed=st.integers(0, MAX_SEED), stop=st.integers(0, 12))
@example(seed=MAX_SEED, stop=5)
@example(seed=0, stop=0)
def test_a_game_on_the_command_line_saves_and_loads_back_at_every_answer(
    seed: int, stop: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    print(f"seed {seed}")
    save = tmp_path_factory.mktemp("play") / "game.json"
    setup = ["--families", "3", "--bots", "random"]
    written: list[str] = []
    with _checked_saves(written):
        left = _play([*setup, "--seed", str(seed), "--save", str(save)], _typing(stop))
        assert left.endswith(
            f"You left the game.\nThe game is saved in {save}. To go on with it: "
            f"oriflamme play --load {save} --save {save}\n"
        )
        assert f"seed {seed} (replay with --seed {seed})" in left
        before = len(written)
        ended = _play(["--load", str(save), "--save", str(save), *setup], _typing(None))
    assert "The game is over: " in ended
    assert len(written) > before > 0
    assert load(written[-1], registry=REGISTRY).over
    assert all(json.loads(text)["config"]["seed"] == seed for text in written)


def test_a_game_on_the_command_line_from_a_seed_it_draws_saves_and_loads_back(
    tmp_path: Path,
) -> None:
    save = tmp_path / "game.json"
    written: list[str] = []
    with _checked_saves(written):
        _play(["--families", "4", "--bots", "random", "--save", str(save)], _typing(None))
    seeds = {json.loads(text)["config"]["seed"] for text in written}
    assert len(seeds) == 1
    assert 0 <= seeds.pop() < 10**6  # drawn by the command (terminal.py)
    assert load(written[-1], registry=REGISTRY).over


# Values a plugin's ability passes to ask and then.

RECORD: list[tuple[str, tuple[Any, ...]]] = []


class AnyAnswer(DecisionKind):
    """A plugin's kind with the default check: exactly one of its options, whatever JSON
    value each is."""

    name = "any"


class Carrier(Ability):
    """Carries values through every kind of continuation a save holds: a task of an
    ``ask`` with one option (applied without asking), a task of ``then``, and the
    question the game then waits on, with its arguments and options."""

    def __init__(self) -> None:
        # Any JSON value: typed loosely, as a plugin's may be.
        self.single: Any = "only"
        self.single_args: tuple[object, ...] = ()
        self.then_args: tuple[object, ...] = ()
        self.ask_args: tuple[object, ...] = ()
        self.options: tuple[Any, ...] = ("a", "b")
        self.question: str | None = None
        self.labels: Mapping[object, str] | None = None
        self.gain = 0

    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), self.gain, card)
        # One option: a task, left beneath the question that the task of then() asks.
        game.ask(game.owner(card), "any", (self.single,), self.chosen, card, *self.single_args)
        game.then(self.asks, card, *self.then_args)

    def asks(self, game: Effects, card: CardId, *args: Any) -> None:
        RECORD.append(("asks", args))
        owner = game.owner(card)
        game.ask(
            owner,
            "any",
            self.options,
            self.answered,
            card,
            *self.ask_args,
            question=self.question,
            labels=self.labels,
        )

    def answered(self, game: Effects, card: CardId, *args: Any) -> None:
        RECORD.append(("answered", args))

    def chosen(self, game: Effects, card: CardId, *args: Any) -> None:
        RECORD.append(("chosen", args))


CARRIER = Carrier()


@pytest.fixture(scope="module")
def carried(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    """The built-in sets and the plugin 'probes', whose card's ability is :data:`CARRIER`,
    registered through the plugin hooks as an installed plugin's would be."""
    folder = tmp_path_factory.mktemp("probes")
    return registry_with({"probes": Probe(folder, CARRIER, (AnyAnswer(),))})


def carrying(registry: Registry, **values: Any) -> Game:
    """A game about to reveal the probe, which will carry ``values`` (Carrier's fields)."""
    fresh = Carrier()
    for name in vars(fresh):
        setattr(CARRIER, name, values.pop(name, getattr(fresh, name)))
    assert not values, f"no such field: {values}"
    RECORD.clear()
    return revealing(registry)


def nest(levels: int, value: object) -> object:
    """``value`` inside ``levels`` tuples."""
    for _ in range(levels):
        value = (value,)
    return value


def deepest(value: object, level: int = 0) -> int:
    """The level of the deepest part of ``value`` (the value itself is at ``level``)."""
    if isinstance(value, list | tuple) and value:
        return max(deepest(part, level + 1) for part in value)
    return level


def count(value: object) -> int:
    """The values ``value`` holds, itself and every container included."""
    if isinstance(value, list | tuple):
        return 1 + sum(count(part) for part in value)
    return 1


def within(value: object) -> bool:
    """Whether ``value`` is within the documented bounds of a continuation's arguments or
    an option (worked out here, apart from the engine's own check)."""
    return deepest(value) <= DEEPEST and count(value) <= MOST


def kept(value: Any) -> Any:
    """``value`` as the game keeps it: lists as tuples."""
    if isinstance(value, list | tuple):
        return tuple(kept(part) for part in value)
    return value


def shown(value: object) -> str:
    """``value`` written so that its types show: 1, 1.0 and True differ, as do 0.0 and
    -0.0, and a tuple from a list."""
    return repr(value)


WHOLE = st.integers(-MAX_SEED, MAX_SEED) | st.sampled_from(
    [MAX_SEED, -MAX_SEED, 10**12, -(10**12), 10**9 + 1, 10**18, -(10**18), 0]
)
TEXT = st.text(max_size=12) | st.sampled_from(["", "\x00", "\u2028", "\ud800", "é\udfffé"])
FINITE = st.floats(allow_nan=False, allow_infinity=False)
SCALARS = st.none() | st.booleans() | WHOLE | FINITE | TEXT


def _lists_of(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists of ``inner`` values, and pairs of them as tuples: the game keeps both as
    tuples, and must give back each as it keeps it."""
    return st.lists(inner, max_size=3) | st.tuples(inner, inner)


VALUES = st.recursive(SCALARS, _lists_of, max_leaves=12)
ARGUMENTS = st.lists(VALUES, max_size=4).map(tuple)
#: An option is an answer: true, false, a whole number, a word, or a list of any values.
OPTION = st.booleans() | WHOLE | TEXT | st.lists(VALUES, max_size=3) | st.tuples(VALUES, VALUES)


CARRIED = st.fixed_dictionaries(
    {
        "single": OPTION,
        "single_args": ARGUMENTS,
        "then_args": ARGUMENTS,
        "ask_args": ARGUMENTS,
        "options": st.lists(OPTION, min_size=2, max_size=4).map(tuple),
    }
)


@settings(BOUNDED, max_examples=30)
@given(values=CARRIED, seed=st.integers(0, 2**32))
@example(
    values={
        "single": -MAX_SEED,
        "single_args": (MAX_SEED,),
        "then_args": (10**12, -MAX_SEED, MAX_SEED),  # 10**12: once saved, then refused
        "ask_args": (MAX_SEED, [-MAX_SEED]),
        "options": (MAX_SEED, -MAX_SEED),
    },
    seed=1,
)
def test_every_value_ask_and_then_accept_saves_and_loads_back(
    carried: Registry, values: dict[str, Any], seed: int
) -> None:
    print(f"seed {seed}")
    single, options = values["single"], values["options"]
    ask_args, then_args = values["ask_args"], values["then_args"]
    task = (*values["single_args"], single)  # a one-option ask: its task holds the option
    assume(all(within(args) for args in (task, then_args, ask_args)))
    assume(all(within(option) for option in options))
    game = carrying(carried, **values)
    game.answer(True)  # the probe: its ability asks, and the game waits with work beneath
    assert [("asks", kept(then_args))] == RECORD
    decision = game.decision
    assert decision is not None
    assert (decision.kind, shown(decision.options)) == ("any", shown(kept(options)))
    loaded = same_after_loading(game, carried)
    choice = random.Random(seed).randrange(len(options))
    answered = []
    for one in (game, loaded):
        RECORD.clear()
        one.answer_option(choice)
        answered.append(shown(RECORD))
    expected = [
        ("answered", (*kept(ask_args), kept(options)[choice])),
        ("chosen", kept(task)),
    ]
    assert answered == [shown(expected), shown(expected)]
    assert loaded == game
    play_checked(game, carried, seed)  # and on to the end: the probe acts each round


def test_a_save_with_a_plugins_values_goes_to_a_file_and_back(
    carried: Registry, tmp_path: Path
) -> None:
    print("seed 11 (the probe's game)")
    texts = ("\ud800", "é\udfff", "\u2028", "x" * 5_000)  # a lone surrogate is no UTF-8
    game = carrying(carried, then_args=texts, ask_args=texts, options=texts)
    game.answer(True)
    path = tmp_path / "game.json"
    save_game(game, str(path))  # the command line's writer and reader
    loaded = load_game(str(path), carried)
    assert loaded == game
    assert loaded.to_json() == game.to_json()
    RECORD.clear()
    loaded.answer_option(0)
    assert RECORD[0] == ("answered", (*texts, texts[0]))


def _bound_cases() -> dict[str, dict[str, Any]]:
    numbers = tuple(range(MOST - 1))  # with their tuple: the most values
    return {
        "whole numbers at either end": {
            "single": -MAX_SEED,
            "single_args": (MAX_SEED,),
            "then_args": (MAX_SEED, -MAX_SEED),
            "ask_args": (-MAX_SEED,),
            "options": (MAX_SEED, -MAX_SEED),
        },
        "the deepest nesting": {
            "single": nest(DEEPEST - 1, 0),
            "then_args": (nest(DEEPEST - 1, 1),),
            "ask_args": (nest(DEEPEST - 1, ()),),
            "options": (nest(DEEPEST, "a"), nest(DEEPEST, "b")),
        },
        "the most values": {
            "single": 0,
            "single_args": numbers[:-1],
            "then_args": numbers,
            "ask_args": (numbers[:-1],),
            "options": (numbers, numbers[::-1]),
        },
        "the most options": {"options": tuple(range(MOST))},
        "the longest words": {
            "options": ("a", "b"),
            "question": "q" * LONGEST,
            "labels": {"a": "w" * LONGEST},
        },
    }


BOUNDS = _bound_cases()


def leaves(value: object) -> Iterator[object]:
    if isinstance(value, list | tuple):
        for part in value:
            yield from leaves(part)
    else:
        yield value


def extent(values: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """The deepest level, the most values, the largest whole number (either sign) of
    the continuations and options a :class:`Carrier` with ``values`` leaves, and how
    many options it offers."""
    options = values.get("options", ("a", "b"))
    parts = [
        (*values.get("single_args", ()), values.get("single", "only")),
        values.get("then_args", ()),
        values.get("ask_args", ()),
        *options,
    ]
    numbers = [abs(n) for n in leaves(parts) if type(n) is int]
    return max(map(deepest, parts)), max(map(count, parts)), max(numbers, default=0), len(options)


@pytest.mark.parametrize(
    ("case", "reaches"),
    [
        ("whole numbers at either end", (1, 3, MAX_SEED, 2)),
        ("the deepest nesting", (DEEPEST, DEEPEST + 1, 1, 2)),
        ("the most values", (2, MOST, MOST - 2, 2)),
        ("the most options", (1, 2, MOST - 1, MOST)),
        ("the longest words", (1, 2, 0, 2)),
    ],
)
def test_values_at_each_bound_save_and_load_back(
    carried: Registry, case: str, reaches: tuple[int, int, int, int]
) -> None:
    print("seed 11 (the probe's game), then seed 3")
    assert extent(BOUNDS[case]) == reaches  # each case is at its bound, not short of it
    game = carrying(carried, **BOUNDS[case])
    game.answer(True)
    decision = game.decision
    assert decision is not None
    assert decision.kind == "any"
    for option in (decision.options[0], decision.options[-1]):
        assert game.legal(json.loads(json.dumps(option)))  # answerable as JSON sends it
    same_after_loading(game, carried)
    play_checked(game, carried, 3)


#: One past each bound: what is given, and what the refusal says of the bound.
PAST: dict[str, tuple[dict[str, Any], str]] = {
    "a whole number too big for then": (
        {"then_args": (MAX_SEED + 1,)},
        f"the arguments of probe.asks cannot be saved: they hold {MAX_SEED + 1}: whole "
        f"numbers are within ±{MAX_SEED}",
    ),
    "a whole number too small for then": (
        {"then_args": (0, (-(MAX_SEED + 1),))},
        f"they hold {-(MAX_SEED + 1)}: whole numbers are within ±{MAX_SEED}",
    ),
    "a whole number too big for ask": (
        {"ask_args": (10**30,)},
        f"the arguments of probe.answered cannot be saved: they hold {10**30}: whole",
    ),
    "an option too big": (
        {"options": (MAX_SEED + 1, 0)},
        f"asked a question no game can save: the options of its any question hold "
        f"{MAX_SEED + 1}: whole numbers are within ±{MAX_SEED}",
    ),
    "a number of hundreds of digits": (
        {"then_args": (10**400,)},
        "they hold a whole number of 1329 bits: whole numbers are within",
    ),
    "arguments nested too deep": (
        {"then_args": (nest(DEEPEST, 1),)},
        f"they are too big or too deeply nested (at most {MOST} values, {DEEPEST} levels deep)",
    ),
    "an option nested too deep": (
        {"options": (nest(DEEPEST + 1, "a"), "b")},
        "the options of its any question are too big or too deeply nested",
    ),
    "too many arguments": (
        {"then_args": tuple(range(MOST))},
        f"they are too big or too deeply nested (at most {MOST} values",
    ),
    "an option that is None": (
        {"options": (None, "a")},
        "asked red a any question with option None: an option is true, false, a whole "
        "number, a word or a list (None and other numbers only inside a list)",
    ),
    "an option that is no whole number": (
        {"single": 0.5},
        "asked red a any question with option 0.5: an option is true, false",
    ),
    "too many options": (
        {"options": tuple(range(MOST + 1))},
        f"asked a question no game can save: {MOST + 1} options (at most {MOST})",
    ),
    "a one-option task too big": (
        {"single_args": tuple(range(MOST - 1))},
        "the arguments of probe.chosen cannot be saved: they are too big",
    ),
    "a question too long": (
        {"question": "q" * (LONGEST + 1)},
        f"worded its question in {LONGEST + 1} characters: a save holds at most {LONGEST}",
    ),
    "an option's words too long": (
        {"labels": {"b": "w" * (LONGEST + 1)}},
        f"worded an option in {LONGEST + 1} characters: a save holds at most {LONGEST}",
    ),
}


@pytest.mark.parametrize("case", PAST)
def test_a_value_one_past_a_bound_is_refused_as_it_is_given(carried: Registry, case: str) -> None:
    print("seed 11 (the probe's game)")
    values, said = PAST[case]
    game = carrying(carried, **values)
    before = game.to_json()
    with pytest.raises(AbilityError) as refusal:
        game.answer(True)
    text = str(refusal.value)
    assert text.startswith("plugin 'probes': the ability of 'probe'"), text
    assert said in text
    assert text.endswith("the game is as it was before this answer")
    assert game.to_json() == before  # taken back: the game is still one a save holds
    same_after_loading(game, carried)


@pytest.mark.parametrize(
    ("where", "value", "said"),
    [
        (("resume", 3, 0), MAX_SEED + 1, f"the saved resume[3] hold {MAX_SEED + 1}"),
        (("tasks", -1, 3, -1), -(MAX_SEED + 1), f"tasks[1][3] hold {-(MAX_SEED + 1)}"),
        (("pending", "options", 0), MAX_SEED + 1, f"pending.options[0] hold {MAX_SEED + 1}"),
        (("resume", 3, 0), nest(DEEPEST, 1), "resume[3] are too big or too deeply nested"),
        (("resume", 3), tuple(range(MOST)), "resume[3] are too big or too deeply nested"),
        (("pending", "question"), "q" * (LONGEST + 1), "pending.question must be a short"),
        (("pending", "options", 1), 1.5, "pending.options[1] is 1.5: an option is true, false"),
    ],
)
def test_a_save_one_past_a_bound_is_refused_when_read(
    carried: Registry, where: tuple[str | int, ...], value: object, said: str
) -> None:
    print("seed 11 (the probe's game)")
    values = BOUNDS["whole numbers at either end"]
    game = carrying(carried, **values, question="q")
    game.answer(True)
    data = json.loads(game.to_json())
    place = data
    for key in where[:-1]:
        place = place[key]
    place[where[-1]] = kept(value)
    with pytest.raises(SaveError, match=re.escape(said)):
        load(json.dumps(data), registry=carried)


def test_play_cannot_pass_what_a_save_holds(carried: Registry) -> None:
    print("seed 11 (the probe's game)")
    # Arguments past what a save keeps of one continuation are refused as they are
    # given, and the answer taken back (the save's whole size is then bounded).
    game = carrying(carried, single_args=("x" * MAX_VALUE_BYTES,))
    before = game.to_json()
    with pytest.raises(AbilityError, match=r"the arguments of probe\.chosen cannot be saved"):
        game.answer(True)
    assert game.to_json() == before
    # Influence stops at its bound (ruling P21): the game is still one a save holds.
    game = carrying(carried, gain=MOST_INFLUENCE)
    game.answer(True)
    assert max(game.scores.values()) == MOST_INFLUENCE
    same_after_loading(game, carried)


# A save written before the bounds were shared.

OLD_SAVE = Path(__file__).parent / "saves" / "seed-of-19-digits.json"


def test_a_save_whose_seed_only_the_old_reader_refused_loads() -> None:
    # Written by the engine as it was when saves were read with numbers of at most 18
    # digits: a game of 4 families, base and Ablaze, in round 2, at a Target question.
    text = OLD_SAVE.read_text(encoding="utf-8")
    assert f'"seed": {MAX_SEED},' in text
    print(f"seed {MAX_SEED}")
    # The built-in sets' version moves on; the save keeps the one it was written with.
    game = load(text, registry=REGISTRY, allow_other_versions=True)
    assert game.config.seed == MAX_SEED
    assert (game.round, game.phase) == (2, "resolution")
    decision = game.decision
    assert decision is not None
    assert (decision.family, decision.kind) == ("yellow", "target")
    saved, again = json.loads(text), json.loads(game.to_json())
    for data in (saved, again):
        data["rules"]["plugins"] = [plugin[:2] for plugin in data["rules"]["plugins"]]
    assert again == saved
    assert play_checked(game, REGISTRY, MAX_SEED) > 0
