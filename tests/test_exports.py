"""The public modules' names: each lists what it re-exports twice, in its imports and
in ``__all__``, and the two lists must not drift apart in silence. A name imported
from the engine but left out of ``__all__`` is one a wildcard import and the API
reference miss; a name in ``__all__`` that is not imported fails only when someone
asks for it."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from types import ModuleType

import pytest

import oriflamme
import oriflamme.bots
import oriflamme.core

#: The engine's door and the public modules that open it.
PUBLIC = (
    "oriflamme",
    "oriflamme.core",
    "oriflamme.compiling",
    "oriflamme.events",
    "oriflamme.limits",
    "oriflamme.saves",
    "oriflamme.testing",
    "oriflamme.text",
    "oriflamme.yamlfile",
)

#: Names of the engine a public module imports for its own use, not to hand on.
USED_HERE = {
    "oriflamme.saves": {"Game", "GameConfig", "Position", "Registry", "game_of"},
    "oriflamme.testing": {"Game", "Registry"},
}


def _exported(module: ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    assert isinstance(names, list), f"{module.__name__} has no __all__ list"
    return names


@pytest.mark.parametrize("name", PUBLIC)
def test_every_name_of_all_resolves_once(name: str) -> None:
    module = importlib.import_module(name)
    exported = _exported(module)
    missing = [each for each in exported if not hasattr(module, each)]
    assert not missing, f"{name}.__all__ names what it does not hold: {missing}"
    twice = sorted({each for each in exported if exported.count(each) > 1})
    assert not twice, f"{name}.__all__ names {twice} more than once"


@pytest.mark.parametrize("name", PUBLIC)
def test_every_name_taken_from_the_engine_is_in_all(name: str) -> None:
    """A public name whose object is the engine's (``from .core import X`` or ``from
    oriflamme import X``) is exported, unless the module says it only uses it."""
    module = importlib.import_module(name)
    exported = set(_exported(module))
    core = oriflamme.core
    taken = {
        each
        for each, value in vars(module).items()
        if not each.startswith("_")
        and not isinstance(value, ModuleType)
        and each in core.__all__
        and value is getattr(core, each)
    }
    left_out = sorted(taken - exported - USED_HERE.get(name, set()))
    assert not left_out, f"{name} imports {left_out} from the engine but leaves them out of __all__"
    stale = sorted(USED_HERE.get(name, set()) - taken)
    assert not stale, f"USED_HERE names {stale} for {name}, which no longer imports them"


def test_the_door_exports_every_name_it_holds() -> None:
    """``oriflamme.core``'s namespace holds its private modules and what it re-exports:
    nothing else, so every public name in it is in its ``__all__``."""
    core = oriflamme.core
    public = {
        each
        for each, value in vars(core).items()
        if not each.startswith("_") and not isinstance(value, ModuleType)
    }
    assert public - {"annotations"} <= set(core.__all__), sorted(public - set(core.__all__))


def test_oriflamme_exports_only_the_engines_names() -> None:
    """What :mod:`oriflamme` exports is the engine's (object for object: below)."""
    core = oriflamme.core
    not_core = [each for each in oriflamme.__all__ if each not in core.__all__]
    assert not not_core, f"oriflamme.__all__ names what oriflamme.core does not export: {not_core}"


@pytest.mark.parametrize("name", [each for each in PUBLIC if each != "oriflamme.core"])
def test_a_name_shared_with_the_engine_is_the_same_object(name: str) -> None:
    """A public module's name that the engine also exports is the engine's own object,
    never a copy or a namesake."""
    module = importlib.import_module(name)
    core = oriflamme.core
    other = [
        each
        for each in _exported(module)
        if each in core.__all__ and getattr(module, each) is not getattr(core, each)
    ]
    assert not other, f"{name}'s {other} are not oriflamme.core's objects"


@pytest.mark.parametrize(
    ("reach", "pointer"),
    [
        (lambda: getattr(oriflamme, "Words"), "oriflamme.text.Naming"),  # noqa: B009
        (lambda: getattr(oriflamme.bots, "Table"), "oriflamme.bots.Reading"),  # noqa: B009
        (lambda: getattr(oriflamme.Registry(entry_points=False), "tables"), "Registry.provided"),  # noqa: B009
        (lambda: oriflamme.Game.from_json("{}"), "oriflamme.saves.load"),
        (lambda: oriflamme.Game.from_position(None), "oriflamme.saves.from_position"),
    ],
)
def test_an_old_name_says_where_it_went(reach: Callable[[], object], pointer: str) -> None:
    with pytest.raises(AttributeError, match=re.escape(pointer)) as refused:
        reach()
    assert "docs/migration.md" in str(refused.value)


def test_an_unknown_name_is_refused_as_python_refuses_one() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        _ = oriflamme.nothing  # type: ignore[attr-defined]
    assert not hasattr(oriflamme.Registry(entry_points=False), "tables")
