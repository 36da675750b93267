"""Helpers for testing rules and plugins with pytest.

A plugin package tests itself with its own scenario files::

    # tests/test_scenarios.py
    from pathlib import Path
    from oriflamme.testing import scenario_tests
    import my_rules

    test_scenarios = scenario_tests(Path(__file__).parent.parent / "scenarios",
                                    plugins={"my_rules": my_rules})

and builds games at a position to test an ability directly::

    game = game_at({"round": 2, "phase": "resolution", "queue": [...]},
                   sets=["base", "mine"], plugins={"my_rules": my_rules})

Positions and scenarios are written in the conformance format (docs/scenarios.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from oriflamme import Game, Registry

from .conformance.position import build_game
from .conformance.runner import ScenarioResult, find_scenarios, run_file
from .conformance.scenario import load_scenario, parse_scenario

__all__ = ["game_at", "game_from_scenario", "registry_with", "run_scenarios", "scenario_tests"]


def registry_with(
    plugins: Mapping[str, object] | None = None, *, entry_points: bool = False
) -> Registry:
    """The built-in sets plus ``plugins`` (name -> module or object), and no installed
    plugin unless ``entry_points``: a test sees exactly the rules it names."""
    registry = Registry(entry_points=entry_points, exclude=plugins or ())
    for name, plugin in (plugins or {}).items():
        registry.register(plugin, name)
    return registry


def game_from_scenario(path: str | Path, registry: Registry | None = None) -> Game:
    """The game at a scenario file's starting position, at its first decision."""
    return build_game(load_scenario(path), registry if registry is not None else registry_with())


def game_at(
    state: Mapping[str, Any],
    *,
    sets: Sequence[str] = ("base",),
    players: Sequence[str] = ("red", "blue", "green"),
    variants: Mapping[str, Any] | None = None,
    plugins: Mapping[str, object] | None = None,
    registry: Registry | None = None,
) -> Game:
    """The game at ``state`` (a scenario's ``state:`` mapping), at its first decision."""
    text = yaml.safe_dump(
        {
            "name": "a position",
            "sets": list(sets),
            "players": list(players),
            "variants": dict(variants or {}),
            "state": dict(state),
        }
    )
    registry = registry if registry is not None else registry_with(plugins)
    return build_game(parse_scenario(text, "<position>"), registry)


def run_scenarios(folder: str | Path, registry: Registry | None = None) -> list[ScenarioResult]:
    """Run every scenario under ``folder``; the results, in file order."""
    registry = registry if registry is not None else registry_with()
    return [run_file(path, registry) for path in find_scenarios([folder])]


def scenario_tests(
    folder: str | Path, *, plugins: Mapping[str, object] | None = None, entry_points: bool = False
) -> Callable[[Path], None]:
    """A pytest test with one case per scenario file under ``folder``.

    Assign it to a name starting with ``test_`` in a test module. Each case runs
    one file with the built-in sets and ``plugins`` (or, with ``entry_points``,
    every installed plugin) and fails with the runner's report.
    """
    import pytest  # noqa: PLC0415 - pytest is a test-time dependency, not a runtime one

    files = find_scenarios([folder])
    registry = registry_with(plugins, entry_points=entry_points)

    @pytest.mark.parametrize("path", files, ids=[p.name for p in files])
    def test_scenario(path: Path) -> None:
        result = run_file(path, registry)
        assert result.passed, result.report()

    return test_scenario
