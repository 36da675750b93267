"""Judging a Royal Decree's move: how the queue's dangers change when one card moves.

A face-up Soldier or Cutthroat must eliminate one of its neighbours, and an Archer the
card at an end: a card beside an opponent's killer is in danger, one beside our own
killer is a target. A move is worth the change in that balance, seen from our side.
"""

from __future__ import annotations

from typing import Final

from .advice import stake
from .reading import ENDS, NEIGHBOURS, Reading

#: The moved card in an order of positions.
MOVED: Final = -1
#: What is left of a stack whose top card moved (its next card, which we may not know).
LEFT: Final = -2


def order_after(table: Reading, target: int, to: int) -> list[int]:
    """The positions, in queue order, once the top card at ``target`` moves to index
    ``to`` (the index it has once moved, RULINGS B-Royal Decree)."""
    order = list(range(table.size))
    if table.heights[target] == 1:
        order.remove(target)  # a lone card leaves its position: the gap closes
    else:
        order[target] = LEFT
    order.insert(max(0, min(to, len(order))), MOVED)
    return order


def balance(table: Reading, order: list[int], target: int) -> float:
    """Our side of the dangers of ``order``: our killers' targets count for us, our
    cards beside an opponent's killer count against us."""
    total = 0.0
    last = len(order) - 1
    for place, entry in enumerate(order):
        owner, key, up = _card(table, entry, target)
        if not up:
            continue
        threatens = table.threatens(key)
        if threatens not in (NEIGHBOURS, ENDS):
            continue
        if threatens == ENDS:
            victims = [order[0], order[last]]
        else:
            victims = [order[n] for n in (place - 1, place + 1) if 0 <= n <= last]
        share = 1.0 / max(len(victims), 1)
        for victim in victims:
            victim_owner = _card(table, victim, target)[0]
            value = _stake(table, victim, target) * share
            if owner == table.me and victim_owner != table.me:
                total += table.weight(victim_owner) * value * 0.5
            elif owner != table.me and victim_owner == table.me:
                total -= value
    return total


def move_value(table: Reading, target: int, to: int) -> float:
    before = table._balance
    if before is None:  # the queue as it is: the same for every move of one reading
        before = table._balance = balance(table, list(range(table.size)), -3)
    return balance(table, order_after(table, target, to), target) - before


def best_move(table: Reading, target: int, decree: int | None) -> float:
    """The best a Decree can do moving the top card at ``target``."""
    values = [move_value(table, target, to) for to in destinations(table, target, decree)]
    return max(values) if values else 0.0


def destinations(table: Reading, target: int, decree: int | None) -> list[int]:
    """RULINGS B-Royal Decree and docs/rulings.md P2: a lone card cannot go back to
    the index it had."""
    alone = table.heights[target] == 1
    count = table.size - 1 if alone else table.size
    return [to for to in range(count + 1) if not (alone and to == target)]


def _card(table: Reading, entry: int, target: int) -> tuple[str, str, bool]:
    """(owner, key, face up) of an entry of an order."""
    if entry == MOVED:
        entry = target
    elif entry == LEFT:
        stack = table.seen.queue[target]
        card = stack[-2]
        return table.seen.owner(card), table.seen.key(card) or "", table.seen.is_up(card)
    return table.owners[entry], table.keys[entry], table.up[entry]


def _stake(table: Reading, entry: int, target: int) -> float:
    if entry == LEFT:
        return 1.0  # the card under a moved one: we may not know what it is
    return stake(table, target if entry == MOVED else entry)
