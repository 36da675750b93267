"""Checking an answer against the pending decision, and saying why it is refused.

Nothing here changes the game: an answer is checked in full before it is applied,
so a refused answer leaves the game exactly as it was. Messages speak to the
family that answered and never name another family's hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .decisions import FIRST, LAST, Answer, At, Decision, Placement
from .errors import IllegalAnswer

if TYPE_CHECKING:
    from .round import Round


def check_answer(game: Round, decision: Decision, answer: object) -> Answer:
    """The answer in its canonical form, or :class:`IllegalAnswer` saying what is wrong."""
    kind = decision.kind
    if kind == "place":
        return _check_place(game, decision, answer)
    if kind == "reveal":
        if type(answer) is not bool:
            raise _refuse(decision, f"a reveal is answered True or False, not {answer!r}")
        return answer
    if kind in ("target", "move"):
        if type(answer) is not int:
            raise _refuse(decision, f"a {kind} is answered with a queue index, not {answer!r}")
        if answer not in decision.options:
            raise _refuse(
                decision,
                f"{kind} {answer} is not allowed; the legal answers are {_list(decision.options)}",
            )
        return answer
    if kind == "twin":
        at = _spot(game, decision, answer)
        if at not in decision.options:
            raise _refuse(
                decision,
                f"the Twin cannot go at {at!r}; the legal places are {_list(decision.options)}",
            )
        return at
    if not isinstance(answer, str) or answer not in decision.options:
        raise _refuse(decision, f"{answer!r} is not one of the options {_list(decision.options)}")
    return answer


def _refuse(decision: Decision, why: str) -> IllegalAnswer:
    # docs/rulings.md P4: the message speaks to the family that answered.
    about = f" for {decision.card}" if decision.card else ""
    return IllegalAnswer(f"{decision.family} must answer a {decision.kind} decision{about}: {why}")


def _list(options: Sequence[Answer]) -> str:
    return ", ".join(repr(o) for o in options)


def _spot(game: Round, decision: Decision, at: object) -> At:
    if at in (FIRST, LAST):
        return FIRST if not game.queue else str(at)
    if type(at) is not int:
        raise _refuse(
            decision, f"a place in the queue is 'first', 'last' or a position index, not {at!r}"
        )
    if not 0 <= at < len(game.queue):
        raise _refuse(
            decision,
            f"there is no position {at}: the queue has "
            f"{len(game.queue)} positions (0 to {len(game.queue) - 1})",
        )
    return at


def _check_place(game: Round, decision: Decision, answer: object) -> Placement:
    if not (isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[0], str)):
        raise _refuse(decision, f"a placement is answered Placement(card, at), not {answer!r}")
    family = decision.family
    card = answer[0]
    at = _spot(game, decision, answer[1])
    placement = Placement(card, at)
    if placement in decision.options:
        return placement
    hand = game.hands[family]
    if card not in hand:
        raise _refuse(
            decision,
            f"{card} is not in {family}'s hand (the hand holds {', '.join(hand) or 'nothing'})",
        )
    assert isinstance(at, int)  # the ends are always legal
    if game.round < 2:
        raise _refuse(decision, "cards may be stacked only from round 2 on (RULINGS G4)")
    raise _refuse(
        decision,
        f"the top card of position {at} belongs to {game.owner(game.top(at))}: "
        "a family may stack only on a card it owns (RULINGS G4)",
    )
