"""What a finished game is worth to each family, for a learning agent.

``outcome`` (the default): 1 to the winner, -1 to every other family; a shared win
(RULINGS G6) is worth 0 to the families sharing it, as a draw would be. ``score``: a
family's Influence minus the highest Influence among the others, so that a win by a
wide margin is worth more than a narrow one and a close loss costs little.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: The kinds of return there are, the default first.
RETURNS = ("outcome", "score")


def check_returns(kind: object) -> str:
    if kind not in RETURNS:
        raise ValueError(f"reward must be one of {', '.join(RETURNS)}, not {kind!r}")
    return str(kind)


def returns(kind: str, scores: Mapping[str, int], winners: Sequence[str]) -> dict[str, float]:
    """Each family's return, from the final ``scores`` and ``winners``."""
    if kind == "score":
        found = {}
        for family, score in scores.items():
            best_other = max(s for f, s in scores.items() if f != family)
            found[family] = float(score - best_other)
        return found
    check_returns(kind)
    if len(winners) > 1:
        return {family: 0.0 if family in winners else -1.0 for family in scores}
    return {family: 1.0 if family in winners else -1.0 for family in scores}
