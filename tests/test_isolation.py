"""Nothing handed out changes another game (issue 22, failure 4).

Every game of a registry shares one rules table per choice of sets and variants (card
definitions, decision kinds, variants, abilities), and bots read it through their
observations, abilities through ``game.rules``. A *vandal* walks everything it can
reach from what it is handed (every public attribute, every mapping's keys and values,
every item of a sequence or set, recursively) and tries every way of writing to each:
setting and deleting attributes, setting and deleting items, and the mutating methods
of lists, dicts and sets. None may take (but on the per-call copies noted where they
are made); a game played by vandals plays exactly as one played by honest bots on a
fresh registry, and so do the games that follow it.

Where the walk stops: values that cannot change (strings, numbers, enum members), and
code (classes, functions, modules, anything callable, and, but in the compiled build
where the built-in sets' are read-only, a plugin's ability and decision-kind objects:
a plugin's code, which the rules table names as a module names its functions).
"""

from __future__ import annotations

import enum
import operator
import re
import types
from collections.abc import Callable, Iterator, Mapping, MutableMapping, MutableSequence, MutableSet
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from oriflamme import (
    COLOURS,
    Ability,
    AbilityError,
    Answer,
    Budget,
    CardId,
    DecisionKind,
    Effects,
    Game,
    GameConfig,
    GameRules,
    Observation,
    Placement,
    Registry,
    hookimpl,
)
from oriflamme.bots import RandomBot, bot_seed
from oriflamme.core._guards import guarded_rules
from oriflamme.saves import load
from oriflamme.testing import registry_with

from .helpers import card_id, one_card_set
from .test_observations import COMPILED

#: What a vandal writes: a value no rule of the game could read as it reads the value
#: it replaces, so that a write that took would show in the play.
JUNK = ("vandal",)

#: The game seeds and sets of the games played by vandals.
GAMES = ((7, ("base",), 3), (31, ("ablaze",), 4), (2024, ("base", "ablaze"), 5))

#: The mutating methods of lists, dicts and sets, with arguments to call them with.
MUTATORS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("append", (JUNK,)),
    ("extend", ((JUNK,),)),
    ("insert", (0, JUNK)),
    ("add", (JUNK,)),
    ("update", ({JUNK: JUNK},)),
    ("setdefault", (JUNK, JUNK)),
    ("pop", ()),
    ("popitem", ()),
    ("discard", (JUNK,)),
    ("remove", (JUNK,)),
    ("sort", ()),
    ("reverse", ()),
    ("clear", ()),
)
MUTABLE = (MutableMapping, MutableSequence, MutableSet)

_ATOMS = (str, bytes, int, float, complex, type(None), enum.Enum, range)
_CODE = (type, types.ModuleType, types.CodeType)
_PLUGIN_CODE = (Ability, DecisionKind)


def opaque(value: object, plugin_code: bool) -> bool:
    """Whether the walk stops at ``value`` (see the module's text); ``plugin_code``:
    also at an ability or a decision kind."""
    if plugin_code and isinstance(value, _PLUGIN_CODE):
        return True
    return isinstance(value, _ATOMS + _CODE) or callable(value)


def public(value: object) -> list[str]:
    return sorted(name for name in dir(value) if not name.startswith("_"))


def parts(value: object) -> Iterator[tuple[str, object]]:
    """What ``value`` holds, each with the step of its path."""
    if isinstance(value, Mapping):
        for key, item in list(value.items()):
            yield f"[{key!r}] (key)", key
            yield f"[{key!r}]", item
    elif isinstance(value, tuple | list | set | frozenset):
        for index, item in enumerate(value):
            yield f"[{index}]", item
    for name in public(value):
        try:
            found = getattr(value, name)
        except Exception:  # a property that does not apply now
            continue
        yield f".{name}", found


def tried(write: Callable[[], object]) -> bool:
    """Whether ``write`` took (it raised nothing)."""
    try:
        write()
    except Exception:
        return False
    return True


class Vandal:
    """Writes to everything it can reach; ``landed`` lists the writes that took.

    What it has walked it keeps (so that no id is reused while it remembers it) and
    does not walk again: a write refused once is refused again.
    """

    def __init__(self, *, abilities: bool = False) -> None:
        """``abilities``: walk into abilities and decision kinds too (compiled, those of
        the built-in sets are read-only: their classes are compiled with them)."""
        self.plugin_code = not abilities
        self.landed: list[str] = []
        self.reached: set[str] = set()  # the paths it walked, for the test to check
        self.writes = 0
        self._seen: dict[int, object] = {}

    def ruin(self, root: object, path: str) -> None:
        stack = [(path, root)]
        while stack:
            where, value = stack.pop()
            if opaque(value, self.plugin_code) or id(value) in self._seen:
                continue
            self._seen[id(value)] = value
            self.reached.add(where)
            stack.extend((where + step, part) for step, part in parts(value))
            self._write(value, where)

    @property
    def values(self) -> int:
        """How many values it walked."""
        return len(self._seen)

    def walked(self, value: object) -> bool:
        """Whether the walk reached ``value`` (by whatever path)."""
        return self._seen.get(id(value)) is value

    def _write(self, value: Any, where: str) -> None:
        names = public(value)
        attempts: list[tuple[str, Callable[[], object]]] = []
        for name in [*names, "vandal"]:
            attempts.append((f"{where}.{name} = {JUNK}", partial(setattr, value, name, JUNK)))
        for name in names:
            attempts.append((f"del {where}.{name}", partial(delattr, value, name)))
        kind = type(value)
        if hasattr(kind, "__setitem__") or hasattr(kind, "__delitem__"):
            keys: list[Any] = list(value) if isinstance(value, Mapping) else [0, -1]
            for key in [*keys, JUNK]:
                attempts.append(
                    (f"{where}[{key!r}] = ...", partial(operator.setitem, value, key, JUNK))
                )
                attempts.append((f"del {where}[{key!r}]", partial(operator.delitem, value, key)))
        if isinstance(value, MUTABLE):
            for method, arguments in MUTATORS:
                if hasattr(value, method):
                    attempts.append(
                        (f"{where}.{method}(...)", partial(getattr(value, method), *arguments))
                    )
        for shown, write in attempts:
            self.writes += 1
            if tried(write):
                self.landed.append(shown)


class VandalBot:
    """A random bot that, as it answers, writes to everything its observation reaches.

    It chooses first: an observation is a copy made for this one call, whose own
    fields only the compiled build makes read-only (see ``own_fields``), and a bot
    that spoils its own copy before reading it only fools itself.
    """

    def __init__(self, seed: int, vandal: Vandal, registry: Registry) -> None:
        self.honest = RandomBot(seed)
        self.vandal = vandal
        self.registry = registry

    def choose(self, observation: Observation) -> Answer:
        answer = self.honest.choose(observation)
        # The rules, as a bot that searches makes them from its registry.
        seen = observation
        rules = self.registry.rules(seen.sets, dict(seen.variants), extra=seen.cards)
        self.vandal.ruin(observation, "observation")
        self.vandal.ruin(rules, "rules")
        return answer


def own_fields(landed: list[str], root: str) -> list[str]:
    """The writes of ``landed`` to ``root``'s own attributes, none deeper."""
    return [p for p in landed if re.fullmatch(rf"(del )?{root}\.\w+( = .*)?", p)]


def config(seed: int, sets: tuple[str, ...], families: int) -> GameConfig:
    return GameConfig(families=COLOURS[:families], sets=sets, seed=seed)


#: Games are saved and loaded back at the first question after this many answers
#: that is not a placement or a reveal: the loaded game hands out a decision, where
#: the rules are and its log, all made again from a save's JSON.
RELOAD = 20


def played(registry: Registry, game_config: GameConfig, vandal: Vandal | None = None) -> Game:
    """A whole game of ``game_config``, random bots seeded from its seed, vandals if a
    ``vandal`` is given; saved and loaded back once on the way (see :data:`RELOAD`)."""
    game = Game.new(game_config, registry=registry)
    seed = game_config.seed
    bots = {
        family: VandalBot(bot_seed(seed, seat), vandal, registry)
        if vandal is not None
        else RandomBot(bot_seed(seed, seat))
        for seat, family in enumerate(game.families)
    }
    answers = 0
    reloaded = False
    decision = game.decision
    while decision is not None:
        if not reloaded and answers >= RELOAD and decision.kind not in ("place", "reveal"):
            game = load(game.to_json(), registry=registry)
            reloaded = True
        game.answer(bots[decision.family].choose(game.observe(decision.family)))
        answers += 1
        decision = game.decision
    assert reloaded, f"seed {seed}: no question to save and load the game at"
    return game


#: A rules table's values, compared as they are (the rest hold code: compared by kind).
VALUES = (
    "sets",
    "definitions",
    "kinds",
    "variants",
    "plugins",
    "ability_plugins",
    "hook_plugins",
    "discard_after_use",
    "characters",
    "reveal_tokens",
    "shuffled",
    "tokens_gained",
    "tokens_doubled",
    "tokens_kept",
)


def table(rules: GameRules) -> dict[str, Any]:
    """Everything a rules table holds, as plain values to compare."""
    found: dict[str, Any] = {
        name: dict(value) if isinstance(value, Mapping) else value
        for name in VALUES
        for value in [getattr(rules, name)]
    }
    found["abilities"] = {key: type(a) for key, a in rules.abilities.items()}
    found["reactions"] = sorted(rules.reactions)
    found["observers"] = sorted(kind.__name__ for kind in rules.observers)
    found["ability_keys"] = sorted(rules.ability_keys.values())
    return found


def same_play(game: Game, clean: Game) -> None:
    """``game`` played exactly as ``clean``: every event, the scores, the whole table."""
    assert game.events == clean.events
    assert game.scores == clean.scores
    assert game == clean
    assert table(game.rules) == table(clean.rules)


def test_the_rules_table_refuses_every_write(registry: Registry) -> None:
    """The writes of the issue: each raises, and the table is as it was."""
    game = Game.new(GameConfig(seed=5), registry=registry)
    rules = game.rules
    before = table(rules)
    tables: Any = rules  # as a bot holds it: typed or not, it may try
    with pytest.raises(AttributeError, match="cannot be changed"):
        tables.variants = {"ambush_own_elimination": "revised"}
    with pytest.raises(AttributeError, match="cannot be changed"):
        tables.definitions = {}
    with pytest.raises(AttributeError, match="cannot be changed"):
        del tables.kinds
    with pytest.raises(TypeError):
        tables.variants["ambush_own_elimination"] = "revised"
    with pytest.raises(TypeError):
        del tables.definitions["archer"]
    with pytest.raises(AttributeError):
        tables.definitions["archer"].name = "Bowman"
    assert table(rules) == before
    handed: tuple[Any, ...] = (registry.cards, registry.sets, registry.variants, registry.abilities)
    for mapping in handed:
        with pytest.raises(TypeError):
            mapping["vandal"] = JUNK
        with pytest.raises(AttributeError):
            mapping.clear()


@pytest.mark.parametrize(("seed", "sets", "families"), GAMES)
def test_a_bot_that_writes_to_everything_changes_no_game(
    seed: int, sets: tuple[str, ...], families: int
) -> None:
    print(f"seed {seed}: {families} families, sets {', '.join(sets)}")
    registry = Registry(entry_points=False)  # its own: the vandals ruin what they can of it
    vandal = Vandal(abilities=COMPILED)
    ruined = played(registry, config(seed, sets, families), vandal)
    fresh = Registry(entry_points=False)
    clean = played(fresh, config(seed, sets, families))
    # The walk reached the shared rules table the bots made from their registry (as a
    # search makes them: the observation holds none) and what it holds, and the rest.
    seen = ruined.observe(None)
    rules = registry.rules(seen.sets, dict(seen.variants), extra=seen.cards)
    assert table(rules) == table(ruined.rules)
    for value in (rules, rules.variants, rules.definitions, rules.kinds, rules.sets):
        assert vandal.walked(value)
    assert all(vandal.walked(card) for card in rules.definitions.values())
    assert any(p.startswith("observation.log") for p in vandal.reached)
    assert any(p.startswith("observation.decision.options") for p in vandal.reached)
    assert any(p.startswith("observation.influence") for p in vandal.reached)
    own = own_fields(vandal.landed, "observation")
    print(
        f"{vandal.writes} writes tried on {vandal.values} values; {len(vandal.landed)} took, "
        f"{len(own)} of them to an observation's own fields"
    )
    # Nothing took but, in pure Python, the observations' own fields: each a copy
    # made for one call (compiled, they refuse too; tests/test_observations.py).
    assert [p for p in vandal.landed if p not in own] == []
    assert own == [] or not COMPILED
    # The vandals' own game played as honest bots play it, on rules never changed...
    same_play(ruined, clean)
    # ... and so does every later game of their registry, with the same and other seeds.
    for later_seed in (seed, seed + 1):
        later = config(later_seed, sets, families)
        same_play(played(registry, later), played(fresh, later))


def test_what_a_registry_hands_out_refuses_every_write() -> None:
    """A bot is made with its game's registry: its tables of sets, cards, variants and
    bot kinds, and the rules it builds, are read-only too."""
    registry = Registry(entry_points=False)
    vandal = Vandal(abilities=COMPILED)
    for name in ("provided", "sets", "cards", "abilities", "variants", "bot_kinds", "plugins"):
        vandal.ruin(getattr(registry, name), f"registry.{name}")
    vandal.ruin(registry.rules(("base", "ablaze"), {}), "registry.rules(...)")
    tables = registry.provided
    for value in (tables, tables.cards, tables.variants, tables.contributions["base"]):
        assert vandal.walked(value)
    assert vandal.landed == []
    game_config = config(12, ("base", "ablaze"), 3)
    same_play(played(registry, game_config), played(Registry(entry_points=False), game_config))


class VandalAbility(Ability):
    """Armed, writes to the rules it is handed (the issue's writes, then everything it
    can reach from its ``game``) and raises: its answer must be refused. It disarms
    itself as it does (a test's ability, this one keeps state): later, it does nothing,
    as on a registry where it never ran."""

    def __init__(self, vandal: Vandal, *, armed: bool) -> None:
        self.vandal = vandal
        self.armed = armed

    def activate(self, game: Effects, card: CardId) -> None:
        if not self.armed:
            return
        self.armed = False
        rules = game.rules
        vandal = self.vandal
        # The writes first, as it wrote them, then everything else.
        tables: Any = rules
        for shown, write in (
            ("game.rules.variants = {}", partial(setattr, tables, "variants", {})),
            ("game.rules.definitions = {}", partial(setattr, tables, "definitions", {})),
            (
                "game.rules.variants[...] = 'revised'",
                partial(operator.setitem, tables.variants, "ambush_own_elimination", "revised"),
            ),
        ):
            if tried(write):
                vandal.landed.append(shown)
        vandal.ruin(game, "game")
        raise RuntimeError("the vandal is done")


class Vandals:
    """The test plugin 'vandals': one card, ``vandal``, with the ability it is given."""

    def __init__(self, folder: Path, ability: Ability) -> None:
        self.folder = folder
        self.ability = ability

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [one_card_set(self.folder, "vandals", "vandal")]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"vandal": self.ability}


#: Seven cards, all dealt in hand; with the Ambush, whose variant the vandal writes.
CARDS = ("vandal", "ambush", "heir", "lord", "spy", "soldier", "conspiracy")


def plugin_config(seed: int) -> GameConfig:
    return GameConfig(seed=seed, first_player="red", sets=("base", "vandals"), cards=CARDS)


@pytest.mark.parametrize("seed", [11, 40])
def test_an_ability_that_writes_to_the_rules_and_raises_changes_no_game(
    seed: int, tmp_path: Path
) -> None:
    print(f"seed {seed}, later games seeds {seed + 1} and {seed + 2}")
    vandal = Vandal()
    registry = registry_with({"vandals": Vandals(tmp_path, VandalAbility(vandal, armed=True))})
    fresh = registry_with({"vandals": Vandals(tmp_path, VandalAbility(Vandal(), armed=False))})
    game = Game.new(plugin_config(seed), registry=registry)
    # Walking everything is a lot of plugin code: room for it, so that it ends by raising.
    game.budget = Budget(lines=100_000_000)
    game.answer(Placement(card_id(game, "red.vandal"), "first"))
    for family in ("blue", "green"):
        game.answer(Placement(card_id(game, f"{family}.heir"), "last"))
    before = game.snapshot()
    with pytest.raises(AbilityError, match="the vandal is done"):
        game.answer(True)  # red reveals its vandal
    assert game.snapshot() == before
    # An ability is handed the rules as the engine runs them: plugin code guarded.
    rules = guarded_rules(game.rules)
    assert rules is not game.rules
    for value in (rules, rules.variants, rules.definitions, rules.kinds):
        assert vandal.walked(value)
    print(f"{vandal.writes} writes tried on {vandal.values} values; {len(vandal.landed)} took")
    # What took, if anything, is the ability's own engine's attributes (its ``game``
    # object, made for its game alone): nothing it reaches through them, the rules
    # above all.
    assert [p for p in vandal.landed if p not in own_fields(vandal.landed, "game")] == []
    # Later games of the registry play as games of a registry the vandal never ran in.
    for later_seed in (seed + 1, seed + 2):
        later = plugin_config(later_seed)
        same_play(played(registry, later), played(fresh, later))
    assert dict(registry.rules(("base", "vandals"), {}).variants) == {
        "ambush_own_elimination": "first_edition"
    }


class Swapper(Ability):
    """Sets its ``game``'s rules to another table (another variant) and its budget,
    then raises if ``raises``."""

    def __init__(self, other: GameRules, *, raises: bool) -> None:
        self.other = other
        self.raises = raises

    def activate(self, game: Effects, card: CardId) -> None:
        swapped: Any = game
        swapped.rules = self.other
        swapped.budget = Budget(steps=1)
        if self.raises:
            raise RuntimeError("the swapper is done")


@pytest.mark.parametrize("raises", [True, False])
def test_what_an_ability_sets_on_its_game_is_undone(raises: bool, tmp_path: Path) -> None:
    print("seed 11")
    base = registry_with({"vandals": Vandals(tmp_path, Ability())})
    other = base.rules(("base", "vandals"), {"ambush_own_elimination": "revised"})
    registry = registry_with({"vandals": Vandals(tmp_path, Swapper(other, raises=raises))})
    game = Game.new(plugin_config(11), registry=registry)
    rules, budget = game.rules, game.budget
    game.answer(Placement(card_id(game, "red.vandal"), "first"))
    for family in ("blue", "green"):
        game.answer(Placement(card_id(game, f"{family}.heir"), "last"))
    if raises:
        with pytest.raises(AbilityError, match="the swapper is done"):
            game.answer(True)
    else:
        game.answer(True)
    assert game.rules is rules
    assert game.budget == budget
    assert dict(game.rules.variants) == {"ambush_own_elimination": "first_edition"}
    # And it plays on by its own rules (after a refusal, red keeps it face down).
    if raises:
        game.answer(False)
    assert game.rules is rules
    assert game.decision is not None


def test_the_built_in_kinds_refuse_every_write(registry: Registry) -> None:
    game = Game.new(config(5, ("base", "ablaze"), 3), registry=registry)
    kinds: list[DecisionKind] = list(game.rules.kinds.values())
    for kind in kinds:
        with pytest.raises(AttributeError):
            kind.private_options = not kind.private_options  # type: ignore[misc]
        with pytest.raises(AttributeError):
            del kind.name
    assert game.rules.kinds["place"].private_options
