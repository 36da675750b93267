"""What a plugin's author is told when the plugin is wrong: each message names the
plugin, the card (by its key and family, never by its opaque id), the file and line
of the plugin's code, what was expected, and the game's seed.

The mistakes are those an author makes writing a first card: a misspelt hook, a card
whose ability is registered under another key, an ability that raises (in a helper
module of the plugin, or through the standard library), a continuation that cannot
take the answer.
"""

from __future__ import annotations

import importlib
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from oriflamme import (
    Ability,
    AbilityError,
    CardId,
    Effects,
    Game,
    GameConfig,
    Placement,
    PluginError,
    Registry,
    hookimpl,
)
from oriflamme.testing import registry_with

from .helpers import one_card_set
from .test_budget import Probe, revealing
from .test_failures import fake_distribution

HERE = Path(__file__)


def seed_of(error: BaseException) -> int:
    """The game's seed, as the error's note gives it; never in its message, which a
    player may be shown (the seed tells every family's hidden cards)."""
    (note,) = getattr(error, "__notes__", [])
    found = re.fullmatch(
        r"the game's seed: (\d+) \(the same configuration and seed deal it again\)", note
    )
    assert found is not None, note
    assert "seed" not in str(error), str(error)
    return int(found[1])


def line_of(code: str, path: Path = HERE) -> str:
    """``file:line`` of the one line of ``path`` that holds ``code``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    (number,) = [i for i, line in enumerate(lines, 1) if line.strip() == code]
    return f"{path}:{number}"


# A misspelt hook.


@hookimpl
def register_ability() -> dict[str, Ability]:  # the mistake: register_abilities
    return {"probe": Ability()}


def test_a_misspelt_hook_is_an_error_naming_the_plugin_and_the_hook_meant() -> None:
    plugin = SimpleNamespace(register_ability=register_ability)
    with pytest.raises(PluginError) as error:
        registry_with({"heralds": plugin})
    path, line = line_of(
        "def register_ability() -> dict[str, Ability]:  # the mistake: register_abilities"
    ).rsplit(":", 1)
    where = f"{path}:{int(line) - 1}"  # a decorated function's first line: its decorator
    assert str(error.value) == (
        f"plugin 'heralds': 'register_ability' ({where}) is marked with oriflamme.hookimpl "
        "but is no hook of oriflamme; did you mean 'register_abilities'?"
    )


def test_a_hook_name_like_no_hook_lists_the_hooks() -> None:
    plugin = SimpleNamespace(when_it_rains=hookimpl(lambda: None))
    with pytest.raises(PluginError) as error:
        registry_with({"weather": plugin})
    message = str(error.value)
    assert message.startswith("plugin 'weather': 'when_it_rains' ("), message
    assert "did you mean" not in message
    hooks = message.split("is no hook of oriflamme; the hooks: ", 1)[1].split(", ")
    assert {"register_abilities", "register_card_sets", "game_ended"} <= set(hooks), message


def test_a_hook_named_by_specname_is_accepted(tmp_path: Path) -> None:
    # pluggy's specname: the function's own name is free.
    plugin = SimpleNamespace(
        sets=hookimpl(specname="register_card_sets")(
            lambda: [one_card_set(tmp_path, "mimes", "mime")]
        ),
        abilities=hookimpl(specname="register_abilities")(lambda: {"mime": Ability()}),
    )
    registry = registry_with({"mimes": plugin})
    assert registry.problems == []
    assert "mime" in registry.abilities


def test_a_plugin_registered_with_a_misspelt_hook_is_not_registered() -> None:
    registry = Registry(entry_points=False)
    with pytest.raises(PluginError, match="did you mean 'register_abilities'"):
        registry.register(SimpleNamespace(register_ability=register_ability), "heralds")
    assert "heralds" not in {p.name for p in registry.plugins}
    assert {"base", "ablaze"} <= {p.name for p in registry.plugins}


def test_an_installed_plugin_with_a_misspelt_hook_is_left_out_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What `oriflamme plugins` shows and every command warns of; the others load.
    source = """\
        from oriflamme import hookimpl

        @hookimpl
        def register_ability():
            return {}
        """
    fake_distribution(
        tmp_path, "heralds", "0.1", entry="heralds", module="misspelt_heralds", source=source
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry()
    where = f"{tmp_path / 'misspelt_heralds.py'}:3"
    assert registry.problems == [
        "plugin 'heralds' (misspelt_heralds) failed to load: "
        f"'register_ability' ({where}) is marked with oriflamme.hookimpl but is no hook of "
        "oriflamme; did you mean 'register_abilities'?"
    ]
    assert {"base", "ablaze"} <= {p.name for p in registry.plugins}


# A card no plugin gives an ability.


def test_a_card_without_an_ability_is_an_error_naming_the_card_and_its_file(
    tmp_path: Path,
) -> None:
    sheet = one_card_set(tmp_path, "heralds", "herald")
    plugin = SimpleNamespace(
        register_card_sets=hookimpl(lambda: [sheet]),
        register_abilities=hookimpl(lambda: {"harold": Ability()}),  # misspelt key
    )
    registry = registry_with({"heralds": plugin})
    config = GameConfig(seed=4, sets=("base", "heralds"))
    with pytest.raises(PluginError) as error:
        Game.new(config, registry=registry)
    assert str(error.value) == (
        f"plugin 'heralds': {sheet}:4: card 'herald' has no ability: no plugin's "
        "register_abilities gives one for 'herald' (an ability is given for 'harold', "
        "which no set has: a misspelling?); a card that does nothing is given an "
        "oriflamme.Ability() all the same"
    )


def test_a_card_without_an_ability_and_no_near_miss_is_named_all_the_same(
    tmp_path: Path,
) -> None:
    """No ability given for any card of no set: no misspelling to suggest."""
    sheet = one_card_set(tmp_path, "heralds", "herald")
    plugin = SimpleNamespace(register_card_sets=hookimpl(lambda: [sheet]))
    registry = registry_with({"heralds": plugin})
    with pytest.raises(PluginError) as error:
        Game.new(GameConfig(seed=4, sets=("base", "heralds")), registry=registry)
    assert str(error.value) == (
        f"plugin 'heralds': {sheet}:4: card 'herald' has no ability: no plugin's "
        "register_abilities gives one for 'herald'; a card that does nothing is given an "
        "oriflamme.Ability() all the same"
    )


def test_a_card_that_does_nothing_on_purpose_is_given_an_ability(tmp_path: Path) -> None:
    sheet = one_card_set(tmp_path, "mimes", "mime")
    plugin = SimpleNamespace(
        register_card_sets=hookimpl(lambda: [sheet]),
        register_abilities=hookimpl(lambda: {"mime": Ability()}),
    )
    game = Game.new(
        GameConfig(seed=4, sets=("base", "mimes")), registry=registry_with({"m": plugin})
    )
    assert game.decision is not None


# An ability that raises.


RAISES = 'counts["heralds"] += 1'
PARSES = 'int("three")'
LATE = 'raise RuntimeError("the heralds are late")'


class Raises(Ability):
    """Raises a KeyError of its own when it acts."""

    def activate(self, game: Effects, card: CardId) -> None:
        counts: dict[str, int] = {}
        counts["heralds"] += 1


class ParsesBadly(Ability):
    """Hands the standard library something it refuses: the error is raised there."""

    def activate(self, game: Effects, card: CardId) -> None:
        int("three")


def test_an_ability_that_raises_names_plugin_key_family_file_line_and_seed(
    tmp_path: Path,
) -> None:
    game = revealing(registry_with({"probes": Probe(tmp_path, Raises())}))
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    assert str(error.value) == (
        "plugin 'probes': the ability of 'probe' (red's 'probe' acting) raised KeyError: "
        f"'heralds' at {line_of(RAISES)}, answering red's reveal "
        "decision with True; the game is as it was before this answer"
    )
    assert seed_of(error.value) == 11
    assert game.snapshot() == before


def test_an_error_raised_in_the_standard_library_is_placed_at_the_plugin_line(
    tmp_path: Path,
) -> None:
    game = revealing(registry_with({"probes": Probe(tmp_path, ParsesBadly())}))
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    message = str(error.value)
    assert (
        "raised ValueError: invalid literal for int() with base 10: 'three' at "
        f"{line_of(PARSES)}, " in message
    )


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A plugin package on disk, ``oriflamme_jugglers``: its ability in one module
    calls a helper in another, which raises."""
    root = tmp_path / "src" / "oriflamme_jugglers"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text(
        textwrap.dedent(
            """
            from importlib.resources import files

            from oriflamme import hookimpl

            from .juggler import Juggler


            @hookimpl
            def register_card_sets():
                return [files("oriflamme_jugglers") / "jugglers.yaml"]


            @hookimpl
            def register_abilities():
                return {"juggler": Juggler()}
            """
        ),
        encoding="utf-8",
    )
    (root / "jugglers.yaml").write_text(
        "set: jugglers\ntitle: Jugglers\ncards:\n  - key: juggler\n    name: Juggler\n"
        "    type: character\n    text: Gain 1 per ball.\n",
        encoding="utf-8",
    )
    (root / "juggler.py").write_text(
        textwrap.dedent(
            """
            from oriflamme import Ability

            from .balls import count


            class Juggler(Ability):
                def activate(self, game, card):
                    game.gain(game.owner(card), count(game), card)
            """
        ),
        encoding="utf-8",
    )
    (root / "balls.py").write_text(
        textwrap.dedent(
            """
            def count(game):
                return len(game.queue) // (game.round - game.round)
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    yield root
    for name in [n for n in sys.modules if n.startswith("oriflamme_jugglers")]:
        del sys.modules[name]


def refused_on_its_way(game: Game) -> AbilityError:
    """The refusal met revealing every card (the first option of anything else)."""
    while game.decision is not None:
        decision = game.decision
        try:
            game.answer(True if decision.kind == "reveal" else decision.options[0])
        except AbilityError as error:
            return error
    raise AssertionError("the game ended with no refusal")


def test_the_line_named_is_the_last_one_inside_the_plugin_package(package: Path) -> None:
    module = importlib.import_module("oriflamme_jugglers")
    registry = registry_with({"jugglers": module})
    cards = ("juggler", "heir", "lord", "spy", "soldier", "archer", "conspiracy")
    config = GameConfig(seed=23, first_player="blue", sets=("base", "jugglers"), cards=cards)
    game = Game.new(config, registry=registry)
    while game.decision is not None and game.decision.kind == "place":
        decision = game.decision
        seen = game.observe(decision.family)
        own = [
            p
            for p in decision.options
            if isinstance(p, Placement) and seen.key(p.card) == "juggler"
        ]
        game.answer(own[0] if own else decision.options[0])
    error = refused_on_its_way(game)
    message = str(error)
    family = re.search(r"\((\w+)'s 'juggler' acting\)", message)
    assert family is not None, message
    balls = line_of("return len(game.queue) // (game.round - game.round)", package / "balls.py")
    assert message.startswith(
        f"plugin 'jugglers': the ability of 'juggler' ({family[1]}'s 'juggler' acting) raised "
        f"ZeroDivisionError: integer division or modulo by zero at {balls}, answering "
    ), message
    assert message.endswith("; the game is as it was before this answer"), message
    assert seed_of(error) == 23


def test_a_hook_that_raises_as_the_game_starts_is_named_with_its_line() -> None:
    def game_started(game: Effects, event: object) -> None:
        raise RuntimeError("the heralds are late")

    registry = registry_with({"heralds": SimpleNamespace(game_started=hookimpl(game_started))})
    with pytest.raises(AbilityError) as error:
        Game.new(GameConfig(seed=9), registry=registry)
    message = str(error.value)
    assert message.startswith("plugin 'heralds' failed observing game_started "), message
    assert message.endswith(
        f"RuntimeError: the heralds are late (at {line_of(LATE)}), "
        "playing on to the game's first question; the game was not made"
    ), message
    assert seed_of(error.value) == 9


# A continuation with the wrong signature.


GIVES = {
    "hit": "game.ask_target(card, list(range(len(game.queue))), self.hit)",
    "later": "game.then(self.later, card, 3)",
}


class AsksWithNoRoomForTheAnswer(Ability):
    """Asks its owner a target, to continue with a method that takes no answer."""

    def activate(self, game: Effects, card: CardId) -> None:
        game.ask_target(card, list(range(len(game.queue))), self.hit)

    def hit(self, game: Effects, card: CardId) -> None:
        pass


class QueuesWithOneArgumentTooMany(Ability):
    """Queues a task with an argument its method does not take."""

    def activate(self, game: Effects, card: CardId) -> None:
        game.then(self.later, card, 3)

    def later(self, game: Effects, card: CardId) -> None:
        pass


@pytest.mark.parametrize(
    ("ability", "method", "called"),
    [
        (AsksWithNoRoomForTheAnswer(), "hit", "hit(game, card, answer)"),
        (QueuesWithOneArgumentTooMany(), "later", "later(game, card, arg1)"),
    ],
)
def test_a_continuation_that_cannot_take_its_arguments_is_the_plugins_fault(
    tmp_path: Path, ability: Ability, method: str, called: str
) -> None:
    game = revealing(registry_with({"probes": Probe(tmp_path, ability)}))
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    message = str(error.value)
    qualname = f"{type(ability).__name__}.{method}"
    defined = line_of(f"def {method}(self, game: Effects, card: CardId) -> None:")
    assert message.startswith(
        "plugin 'probes': the ability of 'probe' (red's 'probe' acting) continues with "
        f"{qualname} ({defined}), which takes (self, game, card), but will be "
        f"called as {called}: expected def {method}(self, {called[len(method) + 1 : -1]})"
    ), message
    assert "the engine raised" not in message
    # And the plugin's line that gave it.
    asked = line_of(GIVES[method])
    assert f"(at {asked}), answering" in message, message
    assert message.endswith(
        "answering red's reveal decision with True; the game is as it was before this answer"
    ), message
    assert game.snapshot() == before
