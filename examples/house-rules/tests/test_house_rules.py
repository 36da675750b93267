"""The house rules' own tests, written as a plugin author would, with oriflamme.testing."""

from __future__ import annotations

from pathlib import Path

import oriflamme_house_rules

from oriflamme.testing import game_at, scenario_tests

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
PLUGINS = {"house": oriflamme_house_rules}

test_scenarios = scenario_tests(SCENARIOS, plugins=PLUGINS)


def test_a_jester_alone_gains_nothing() -> None:
    game = game_at(
        {
            "round": 2,
            "phase": "resolution",
            "queue": [{"card": "red.jester", "up": True}],
            "hands": {
                "red": ["red.spy", "red.heir"],
                "blue": ["blue.spy", "blue.heir"],
                "green": ["green.spy", "green.heir"],
            },
        },
        sets=["base", "house"],
        plugins=PLUGINS,
    )
    position = game.position()
    assert position.influence == {"red": 1, "blue": 1, "green": 1}
    assert position.queue[0][0].up  # the Jester resolved, face up, and stays
    assert game.round == 3
