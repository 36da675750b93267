"""Checking a scenario's ``expect`` against an engine's position: one difference per
key that differs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .model import ZONES, Scenario
from .protocol import Next, Table, queue_json


def differences(scenario: Scenario, table: Table, asked: Next) -> list[str]:
    """Each expected key that does not hold, as 'key: expected X, actual Y'.

    ``table`` is the position the engine gives back, and ``asked`` its pending decision.
    """
    expect = scenario.expect
    found: list[str] = []

    def differ(key: str, expected: Any, actual: Any) -> None:
        found.append(f"{key}: expected {expected!r}, actual {actual!r}")

    if "influence" in expect:
        wanted: Mapping[str, int] = expect["influence"]
        actual = {f: table.influence.get(f) for f in wanted}
        if actual != dict(wanted):
            differ("influence", dict(wanted), actual)
    if scenario.expect_queue is not None and table.queue != scenario.expect_queue:
        differ("queue", queue_json(scenario.expect_queue), queue_json(table.queue))
    for zone in ZONES:
        if zone in expect:
            wanted_zone = {f: list(cards or ()) for f, cards in expect[zone].items()}
            actual_zone = {f: list(table.zones[zone].get(f, ())) for f in wanted_zone}
            # docs/rulings.md P9: zones are compared as collections; order is no rule.
            if any(Counter(wanted_zone[f]) != Counter(actual_zone[f]) for f in wanted_zone):
                differ(zone, wanted_zone, actual_zone)
    if "round" in expect and expect["round"] != table.round:
        differ("round", expect["round"], table.round)
    if "phase" in expect and expect["phase"] != table.phase:
        differ("phase", expect["phase"], table.phase)
    if "next" in expect and expect["next"] != asked:
        differ("next", expect["next"], asked)
    if "winner" in expect:
        winner = expect["winner"]
        wanted_winners = sorted(winner if isinstance(winner, list) else [winner])
        if asked != "end":
            differ("winner", wanted_winners, "the game is not over")
        elif table.winners is None:
            differ("winner", wanted_winners, "the engine names no winner")
        elif sorted(table.winners) != wanted_winners:
            differ("winner", wanted_winners, sorted(table.winners))
    return found
