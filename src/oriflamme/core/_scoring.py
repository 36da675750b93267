"""The end of the game: scores and the winner (RULINGS G6)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ._identity import CardId
from ._state import State


def final_scores(state: State) -> dict[str, int]:
    """Each family's Influence, in seat order. Tokens left on cards count for nothing."""
    return state.by_family(state.influence)


def winners(state: State) -> tuple[str, ...]:
    """The winning families of ``state``'s table (see :func:`rank`)."""
    return rank(state.families, final_scores(state), state.queue, state.owner)


def rank(
    families: Sequence[str],
    influence: Mapping[str, int],
    queue: Sequence[Sequence[CardId]],
    owner: Callable[[CardId], str],
) -> tuple[str, ...]:
    """The winning families: most Influence; tied, most cards in the queue (every card,
    covered ones included, counted by current owner); still tied, the win is shared."""
    best = max(influence[f] for f in families)
    tied = [f for f in families if influence[f] == best]
    if len(tied) == 1:
        return (tied[0],)
    counts = dict.fromkeys(families, 0)
    for stack in queue:
        for card in stack:
            counts[owner(card)] += 1
    most = max(counts[f] for f in tied)
    return tuple(f for f in tied if counts[f] == most)
