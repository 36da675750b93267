"""Checking a scenario's ``expect`` against the game: one difference per key that differs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..core.game import Game
from ..core.position import Position
from .model import ZONES, CardEntry, Scenario


def describe_queue(stacks: Any) -> list[Any]:
    """A queue in the scenario notation, for messages: bare ids, mappings and lists."""
    out: list[Any] = []
    for stack in stacks:
        cards = [_card_text(entry) for entry in stack]
        out.append(cards[0] if len(cards) == 1 else cards)
    return out


def _card_text(entry: CardEntry) -> Any:
    if not entry.up and not entry.tokens and entry.owner is None:
        return entry.card
    data: dict[str, Any] = {"card": entry.card}
    if entry.up:
        data["up"] = True
    if entry.tokens:
        data["tokens"] = entry.tokens
    if entry.owner is not None:
        data["owner"] = entry.owner
    return data


def actual_queue(position: Position) -> tuple[tuple[CardEntry, ...], ...]:
    return tuple(
        tuple(CardEntry(c.card, c.up, c.tokens, c.owner) for c in stack) for stack in position.queue
    )


def actual_next(game: Game) -> Any:
    decision = game.decision
    return "end" if decision is None else {decision.family: decision.kind}


def differences(scenario: Scenario, game: Game) -> list[str]:
    """Each expected key that does not hold, as 'key: expected X, actual Y'."""
    expect = scenario.expect
    found: list[str] = []
    position = game.position()

    def differ(key: str, expected: Any, actual: Any) -> None:
        found.append(f"{key}: expected {expected!r}, actual {actual!r}")

    if "influence" in expect:
        wanted: Mapping[str, int] = expect["influence"]
        actual = {f: position.influence[f] for f in wanted}
        if actual != dict(wanted):
            differ("influence", dict(wanted), actual)
    if scenario.expect_queue is not None:
        real = actual_queue(position)
        if real != scenario.expect_queue:
            differ("queue", describe_queue(scenario.expect_queue), describe_queue(real))
    for zone in ZONES:
        if zone in expect:
            wanted_zone = {f: list(cards or ()) for f, cards in expect[zone].items()}
            actual_zone = {f: list(position.zone(zone)[f]) for f in wanted_zone}
            # docs/rulings.md P9: zones are compared as collections; order is no rule.
            if any(Counter(wanted_zone[f]) != Counter(actual_zone[f]) for f in wanted_zone):
                differ(zone, wanted_zone, actual_zone)
    if "round" in expect and expect["round"] != game.round:
        differ("round", expect["round"], game.round)
    if "phase" in expect and expect["phase"] != game.phase:
        differ("phase", expect["phase"], game.phase)
    if "next" in expect:
        wanted_next = expect["next"]
        real_next = actual_next(game)
        if wanted_next != real_next:
            differ("next", wanted_next, real_next)
    if "winner" in expect:
        winner = expect["winner"]
        wanted_winners = sorted(winner if isinstance(winner, list) else [winner])
        if not game.over:
            differ("winner", wanted_winners, "the game is not over")
        elif sorted(game.winners) != wanted_winners:
            differ("winner", wanted_winners, sorted(game.winners))
    return found
