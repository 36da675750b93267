"""The end of the game: scores and the winner (RULINGS G6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import Actions


def final_scores(game: Actions) -> dict[str, int]:
    """Each family's Influence, in seat order. Tokens left on cards count for nothing."""
    return {family: game.influence[family] for family in game.families}


def cards_in_queue(game: Actions) -> dict[str, int]:
    """How many cards in the queue each family owns now, covered ones included."""
    counts = dict.fromkeys(game.families, 0)
    owner = game.owner
    for stack in game.queue:
        for card in stack:
            counts[owner(card)] += 1
    return counts


def winners(game: Actions) -> tuple[str, ...]:
    """The winning families: most Influence; tied, most cards in the queue; else shared."""
    best = max(game.influence[f] for f in game.families)
    tied = [f for f in game.families if game.influence[f] == best]
    if len(tied) == 1:
        return (tied[0],)
    counts = cards_in_queue(game)
    most = max(counts[f] for f in tied)
    return tuple(f for f in tied if counts[f] == most)
