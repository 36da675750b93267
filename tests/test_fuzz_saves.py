"""Damaged saved games: refused with a SaveError, or loaded as a legal game that plays
on legally to its end; never another exception, never a hang. With only the built-in
sets, and with the example house-rules plugin installed.

The saves are real: taken at every kind of question of seeded random games (base,
Ablaze and both; 3 to 5 families; with the house rules, base and the house set with
their variants), and at their end. Each input damages one of them in one to four
places, blindly (a value replaced by one of another type: null, a bool, a float, NaN,
a huge or negative number, a string, a list, an object, a deep nesting; a key or an
item removed or repeated) or knowingly (a card moved or copied to another place, two
families swapped, a number nudged, a card turned over, a token or a Bribery token put
down, a card's key changed, a key of the card list repeated or changed, the
question's options, family or card changed, work added). A save that loads is read by
the independent checker of :mod:`tests.invariants` (which shares no code with the
engine's check), determinised for every family, then played to its end with random
answers, every state read again by the checker.

:func:`outcome` is the whole probe; ``benchmarks/fuzz_saves.py`` runs it many times
and counts, with a seed of its own (see ``make fuzz`` for the long pytest run).
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import oriflamme_house_rules
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme import Game, GameConfig, OriflammeError, Registry, SaveError
from oriflamme.saves import load
from oriflamme.testing import registry_with

from .fuzzing import EXAMPLES, FUZZ, no_hang
from .helpers import new_game
from .invariants import PILES, ROUNDS, broken

BUILT_IN = Registry(entry_points=False)
HOUSE = registry_with({"house": oriflamme_house_rules})
REGISTRIES = {"built-in": BUILT_IN, "house": HOUSE}
SETS = (("base",), ("ablaze",), ("base", "ablaze"))

_T = TypeVar("_T")


class Pick(Protocol):
    """Where a damage's choices come from: hypothesis in the tests, a seeded
    ``random.Random`` in the long run's script."""

    def item(self, items: Sequence[_T]) -> _T: ...

    def integer(self, low: int, high: int) -> int: ...

    def boolean(self) -> bool: ...


class Drawn:
    """Choices drawn by hypothesis."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def item(self, items: Sequence[_T]) -> _T:
        return self.draw(st.sampled_from(items))

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def boolean(self) -> bool:
        return self.draw(st.booleans())


class Seeded:
    """Choices drawn from a seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def item(self, items: Sequence[_T]) -> _T:
        return items[self.rng.randrange(len(items))]

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def boolean(self) -> bool:
        return self.rng.random() < 0.5


def _house_game(index: int, seed: int) -> Game:
    """Game ``index`` with the house rules installed: base alone, or cards drawn from
    base, the house set (the Jester) and Ablaze, with the house variants on or off."""
    rng = random.Random(seed)
    sets = (("base",), ("base", "house"), ("base", "ablaze", "house"))[index % 3]
    variants = {"generous_heir": rng.random() < 0.5, "bounty": rng.random() < 0.5}
    families = ("red", "blue", "green", "yellow", "black")[: 3 + index // 3 % 3]
    size = (None, 10, 14)[index % 3]
    config = GameConfig(families=families, sets=sets, size=size, seed=seed, variants=variants)
    return Game.new(config, registry=HOUSE)


#: The kinds of question the base and Ablaze sets ask, and None: the game's end.
EVERY_KIND = {"place", "reveal", "target", "move", "twin", "choose", None}


def _saves(name: str) -> list[dict[str, Any]]:
    """Saves of at least 24 seeded games (more, up to 160, until every kind of question
    is among them: with the house rules' two cards beside Ablaze's, a Plot and its
    ``choose`` question come in one game in thirty or so): at the first question of
    each kind, at a random point, and at the end."""
    found: list[dict[str, Any]] = []
    seen: set[str | None] = set()
    for index in range(160):
        if index >= 24 and seen >= EVERY_KIND:
            break
        # Drawn as the server draws a game's seed: 63 bits, up to 19 digits.
        seed = random.Random(f"saves/{index}").getrandbits(63)
        if name == "house":
            game = _house_game(index, seed)
        else:
            game = new_game(BUILT_IN, seed, 3 + index % 3, sets=SETS[index % 3])
        rng = random.Random(index)
        kinds: set[str] = set()
        stop = rng.randrange(80)
        step = 0
        while (decision := game.decision) is not None:
            if decision.kind not in kinds or step == stop:
                kinds.add(decision.kind)
                seen.add(decision.kind)
                found.append(json.loads(game.to_json()))
            game.answer_option(rng.randrange(len(decision.options)))
            step += 1
        found.append(json.loads(game.to_json()))
        seen.add(None)
    return found


SAVES = {name: _saves(name) for name in REGISTRIES}
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
    10**9,
    7,
    99,
    "",
    "red",
    "first",
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


def _places(save: dict[str, Any]) -> list[list[int]]:
    """Every list of cards on the table: the queue's stacks, then each family's zones."""
    places = [stack for stack in save["queue"] if isinstance(stack, list)]
    for zone in PILES:
        if isinstance(save.get(zone), dict):
            places += [cards for cards in save[zone].values() if isinstance(cards, list)]
    return places


def _blind(save: dict[str, Any], pick: Pick) -> None:
    """Damage any list or object of the save: replace, remove or repeat an item."""
    where = _at(save, pick.item(_containers(save)))
    keys = list(where) if isinstance(where, dict) else list(range(len(where)))
    if not keys:
        return
    key = pick.item(keys)
    how = pick.item(["replace", "remove", "repeat", "nudge"])
    if how == "replace":
        # A copy: JUNK's lists and objects are shared by every example, never damaged.
        where[key] = copy.deepcopy(pick.item(JUNK))
    elif how == "remove":
        del where[key]
    elif how == "repeat" and isinstance(where, list):
        where.insert(key, copy.deepcopy(where[key]))  # a copy, damaged on its own
    elif how == "nudge" and type(where[key]) is int:
        where[key] += pick.item([-2, -1, 1, 2, 30])


def _move_card(save: dict[str, Any], pick: Pick, *, copied: bool = False) -> None:
    places = [cards for cards in _places(save) if cards]
    source = pick.item(places)
    card = source[pick.integer(0, len(source) - 1)]
    if not copied:
        source.remove(card)
    targets = _places(save)
    if pick.boolean() or not targets:
        save["queue"].insert(pick.integer(0, len(save["queue"])), [card])
    else:
        target = pick.item(targets)
        target.insert(pick.integer(0, len(target)), card)
    save["queue"] = [stack for stack in save["queue"] if stack]


def _swap_families(save: dict[str, Any], pick: Pick) -> None:
    families = save["config"]["families"]
    i = pick.integer(0, len(families) - 1)
    j = (i + pick.integer(1, len(families) - 1)) % len(families)
    where = pick.item(["config", "zones", "influence", "pending", "identity"])
    if where == "config":
        families[i], families[j] = families[j], families[i]
    elif where == "zones":
        for zone in PILES:
            pile = save[zone]
            pile[families[i]], pile[families[j]] = pile[families[j]], pile[families[i]]
    elif where == "influence" or (where == "pending" and not save["pending"]):
        save["influence"][families[i]] = save["influence"][families[j]] + 1
    elif where == "pending":
        save["pending"]["family"] = families[j]
    else:
        swap = {families[i]: families[j], families[j]: families[i]}
        save["identity"] = [[swap.get(c, c), k] for c, k in save["identity"]]


def _number(save: dict[str, Any], pick: Pick) -> None:
    field = pick.item(["round", "first", "placed", "walk", "acting", "revealing"])
    save[field] += pick.item([-7, -1, 1, 2, 5])


def _phase(save: dict[str, Any], pick: Pick) -> None:
    save["phase"] = pick.item(["placement", "resolution", "end"])
    if pick.boolean():
        save["round"] = pick.integer(1, ROUNDS)


def _card_id(save: dict[str, Any], pick: Pick) -> int:
    return pick.integer(0, len(save["identity"]) - 1)


def _turn(save: dict[str, Any], pick: Pick) -> None:
    field = pick.item(["up", "public"])
    card = _card_id(save, pick)
    cards = save[field]
    cards.remove(card) if card in cards else cards.append(card)


def _tokens(save: dict[str, Any], pick: Pick) -> None:
    card = _card_id(save, pick)
    if pick.boolean():
        save["tokens"].append([card, pick.integer(1, 5)])
    else:
        save["bribes"].append([card, pick.item(save["config"]["families"])])


def _key(save: dict[str, Any], pick: Pick) -> None:
    """A card's key changed to another key of the list (RULINGS G1)."""
    card = _card_id(save, pick)
    save["identity"][card][1] = pick.item(save["cards"])


def _card_list(save: dict[str, Any], pick: Pick) -> None:
    """A key of the card list repeated, removed or changed; or the configuration's."""
    cards = save["cards"]
    how = pick.item(["repeat", "remove", "change", "config", "size"])
    if how == "repeat":
        cards.insert(pick.integer(0, len(cards)), pick.item(cards))
    elif how == "remove":
        del cards[pick.integer(0, len(cards) - 1)]
    elif how == "change":
        cards[pick.integer(0, len(cards) - 1)] = pick.item(["archer", "jester", "twin", "plot"])
    elif how == "config":
        save["config"]["cards"] = list(cards) if pick.boolean() else [*cards, pick.item(cards)]
    else:
        save["config"]["size"] = pick.item([None, 7, 9, 10, 11])


def _question(save: dict[str, Any], pick: Pick) -> None:
    pending = save["pending"]
    if pending is None:
        save["pending"] = {"family": "red", "kind": "target", "card": 0, "options": [0, 1]}
        save["pending"] |= {"question": None, "labels": None}
        return
    how = pick.item(["option", "one option", "card", "kind", "labels", "family"])
    options = pending["options"]
    if how == "option" and isinstance(options, list) and options:
        options[pick.integer(0, len(options) - 1)] = pick.item([-1, 0, 5, 30])
    elif how == "option":
        options["ats"].append(pick.item([0, 5, "last"]))
    elif how == "one option" and isinstance(options, list):
        del options[1:]
    elif how == "one option":
        del options["cards"][1:]
    elif how == "card":
        pending["card"] = None if pick.boolean() else _card_id(save, pick)
    elif how == "kind":
        pending["kind"] = pick.item(["place", "reveal", "target", "move", "choose"])
    elif how == "labels":
        pending["labels"] = ["a"] * pick.integer(0, 3)
    else:
        pending["family"] = pick.item(save["config"]["families"])


def _work(save: dict[str, Any], pick: Pick) -> None:
    card = _card_id(save, pick)
    families = save["config"]["families"]
    task = pick.item(
        [
            [None, "finish", card, []],
            ["archer", "shoot", card, [pick.integer(-1, 9)]],
            ["plot", "spend", card, [pick.item(["red", "nobody"]), 3]],
            ["royal_decree", "move", card, [card, 0]],
            ["soldier", "strike", card, []],
        ]
    )
    if save["resume"] is not None and pick.boolean():
        # The saved continuation's arguments damaged in place: a family where a card
        # is expected (a Royal Decree's move saved with ``["red"]``), a card nudged.
        arguments = save["resume"][3]
        save["resume"][3] = (
            [pick.item(families)]
            if pick.boolean() or not arguments
            else [
                argument + pick.item([-1, 1, 3]) if type(argument) is int else argument
                for argument in arguments
            ]
        )
    elif pick.boolean():
        save["tasks"].insert(pick.integer(0, len(save["tasks"])), task)
    else:
        save["resume"] = task


KNOWING: dict[str, Callable[[dict[str, Any], Pick], None]] = {
    "move card": _move_card,
    "copy card": lambda save, pick: _move_card(save, pick, copied=True),
    "swap families": _swap_families,
    "number": _number,
    "phase": _phase,
    "turn over": _turn,
    "tokens": _tokens,
    "key": _key,
    "card list": _card_list,
    "question": _question,
    "work": _work,
}


def damage(save: dict[str, Any], pick: Pick) -> str:
    """A copy of ``save`` damaged in one to four places, as JSON text."""
    save = json.loads(json.dumps(save))
    for _ in range(pick.integer(1, 4)):
        if pick.boolean():
            _blind(save, pick)
        else:
            # An earlier damage may have left nothing of the kind this one needs.
            with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError, IndexError):
                KNOWING[pick.item(sorted(KNOWING))](save, pick)
    return json.dumps(save, allow_nan=True).replace(json.dumps(DEEP), "[" * 5_000 + "]" * 5_000)


@st.composite
def damaged(draw: st.DrawFn, name: str) -> str:
    saves = SAVES[name]
    pick = Drawn(draw)
    return damage(saves[pick.integer(0, len(saves) - 1)], pick)


#: What :func:`outcome` may say of a damaged save: all is well.
FINE = ("refused", "loaded")


def outcome(text: str, seed: int, registry: Registry) -> str:
    """What becomes of the save ``text``: ``refused`` (a SaveError, in one line),
    ``loaded`` (a legal game that determinises and plays on legally to its end), or
    what went wrong: ``illegal state accepted: ...``, ``played into an illegal state:
    ...``, ``refused with ...``, ``determinised: ...``, ``failed in play: ...``."""
    try:
        game = load(text, registry=registry)
    except SaveError as refused:
        if "\n" in str(refused):
            return f"refused in more than one line: {refused}"
        return "refused"
    except OriflammeError as error:
        return f"refused with {type(error).__name__}, not SaveError: {error}"
    problem = broken(game.snapshot())
    if problem is not None:
        return f"illegal state accepted: {problem}"
    for family in game.families:
        try:
            Game.determinise(game.observe(family), seed, registry=registry)
        except OriflammeError as error:
            return f"determinised for {family}: {type(error).__name__}: {error}"
    return play_on(game, seed)


def play_on(game: Game, seed: int) -> str:
    """Random answers from ``seed`` to the end, each state read again by the checker."""
    rng = random.Random(seed)
    for step in range(2_000):
        decision = game.decision
        if decision is None:
            return "loaded"
        try:
            game.answer_option(rng.randrange(len(decision.options)))
        except OriflammeError as error:
            return f"failed in play at answer {step}: {type(error).__name__}: {error}"
        problem = broken(game.snapshot())
        if problem is not None:
            return f"played into an illegal state at answer {step}: {problem}"
    return "did not end in 2,000 answers"


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_damaged_save_is_refused_or_is_a_legal_game(name: str) -> None:
    registry = REGISTRIES[name]

    @settings(FUZZ, max_examples=5 * EXAMPLES)  # most are refused in microseconds
    @given(text=damaged(name), seed=st.integers(0, 2**63 - 1))
    def check(text: str, seed: int) -> None:
        with no_hang():
            result = outcome(text, seed, registry)
        assert result in FINE, f"play seed {seed}: {result}"

    check()


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_an_undamaged_save_loads_and_plays_on(name: str) -> None:
    for index in range(0, len(SAVES[name]), 7):
        print(f"save {index}, play seed {index}")
        assert outcome(json.dumps(SAVES[name][index]), index, REGISTRIES[name]) == "loaded"


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_the_saves_hold_every_kind_of_question_and_the_end(name: str) -> None:
    kinds = Counter(save["pending"]["kind"] if save["pending"] else None for save in SAVES[name])
    assert set(kinds) == EVERY_KIND
    if name == "house":
        assert any("jester" in save["cards"] for save in SAVES[name])


def _kind(save: dict[str, Any], kind: str) -> bool:
    return save["pending"] is not None and save["pending"]["kind"] == kind


def test_the_independent_reading_finds_what_it_looks_for() -> None:
    """Each damage below breaks a rule; :func:`broken` must see it (else a fuzz test
    that relies on it could not fail)."""
    save = next(s for s in SAVES["built-in"] if _kind(s, "target"))
    assert broken(save) is None
    red, blue = save["config"]["families"][:2]
    other = next(key for key in save["cards"] if key != save["identity"][0][1])
    breaks: list[Callable[[dict[str, Any]], object]] = [
        lambda s: s["queue"].append([s["hands"][red][0]]),
        lambda s: s["influence"].update({red: -1}),
        lambda s: s.update(round=7),
        lambda s: s["up"].append(s["hands"][red][0]),
        lambda s: s["public"].append(s["hands"][red][0]),
        lambda s: s["hands"][red].extend(s["set_aside"][red]),
        lambda s: s["pending"].update(family=blue),
        lambda s: s["pending"]["options"].append(len(s["queue"])),
        lambda s: s.update(tasks=[]),
        # RULINGS G1: a key repeated in the card list; a card's key changed.
        lambda s: s["cards"].append(s["cards"][0]),
        lambda s: s["identity"][0].__setitem__(1, other),
        # RULINGS G2, G4: a hand card moved to the set-aside pile.
        lambda s: s["set_aside"][blue].append(s["hands"][blue].pop()),
        # RULINGS A-Bribery: a token of a family whose Bribery is not played.
        lambda s: s["bribes"].append([s["up"][0], red]),
    ]
    for number, damage_it in enumerate(breaks):
        damaged_save = json.loads(json.dumps(save))
        damage_it(damaged_save)
        assert broken(damaged_save) is not None, f"damage {number} is not seen"


@pytest.mark.parametrize("seed", range(12))
def test_a_save_at_every_decision_of_a_real_game_loads(seed: int) -> None:
    """The checks refuse no state the rules reach (a damaged save's refusal means
    something only if an undamaged one is never refused), with the house rules too."""
    print(f"seed {seed}")
    game_seed = random.Random(f"every decision/{seed}").getrandbits(63)
    print(f"game seed {game_seed}")
    if seed % 2:
        game, registry = _house_game(seed, game_seed), HOUSE
    else:
        game = new_game(BUILT_IN, game_seed, 3 + seed % 3, sets=SETS[seed % 3])
        registry = BUILT_IN
    rng = random.Random(seed)
    while (decision := game.decision) is not None:
        text = game.to_json()
        assert broken(json.loads(text)) is None
        copy_ = load(text, registry=registry)
        assert copy_.decision == decision
        game.answer_option(rng.randrange(len(decision.options)))
