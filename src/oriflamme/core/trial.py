"""Trying the answers of a game read from outside (a save) on copies before it is played.

:mod:`.legality` and :mod:`.control` check the state as it stands. What they cannot
see is whether the work it holds waiting (an ability's continuation and the tasks
under it, with their arguments) does what the rules can do: a Plot's spending saved
for another family than its owner's is a well-formed continuation that asks a family
about a card it does not own. So every answer offered is played on a copy, and each
question that follows while the saved card's turn goes on is answered every way, up to
:data:`MAX_TRIAL` answers in all (breadth first); each state reached must pass
:func:`~.legality.check_state`.

Only in a game of the built-in sets: third-party code is not run on a state from
outside (it may do more than change the game); in play, an answer it cannot apply is
refused and taken back (see game.py).
"""

from __future__ import annotations

from collections import deque

from .control import BUILT_IN
from .decisions import Decision
from .engine import Engine
from .errors import PositionError
from .legality import check_state
from .state import State

#: The most answers played on copies: a card's turn asks a few questions of a few
#: options each; a Plot with many tokens asks more, and its first ones are tried.
MAX_TRIAL = 200


def try_answers(state: State) -> None:
    """Raise :class:`PositionError` naming the answers after which the game ``state``
    describes breaks a rule, or fails."""
    if state.pending is None or any(by != BUILT_IN for _, by, _ in state.rules.plugins):
        return
    waiting = state.tasks[:1]  # the bottom task stays until the saved turn is over
    todo: deque[tuple[State, Decision, tuple[object, ...]]] = deque()
    todo.append((state, state.pending, ()))
    played = 0
    while todo and played < MAX_TRIAL:
        before, decision, path = todo.popleft()
        for option in decision.options:
            played += 1
            trial = before.clone()
            answers = (*path, option)
            try:
                Engine(trial, trial.rules).apply(decision, option)
                check_state(trial)
            except Exception as exc:
                what = "a state the rules forbid" if isinstance(exc, PositionError) else "a failure"
                raise PositionError(
                    f"answering {_answers(state.pending, answers)} leads to {what} "
                    f"({type(exc).__name__}: {_short(str(exc))})"
                ) from None
            following = trial.pending
            if following is not None and waiting and trial.tasks[:1] == waiting:
                todo.append((trial, following, answers))
            if played >= MAX_TRIAL:
                return


def _answers(first: Decision | None, answers: tuple[object, ...]) -> str:
    kind = first.kind if first is not None else "?"
    shown = ", then ".join(_short(repr(answer)) for answer in answers)
    return f"its {kind} decision with {shown}"


def _short(value: str) -> str:
    return value if len(value) <= 60 else f"{value[:57]}..."
