"""Trying the answers of a game read from outside (a save) on copies before it is played.

:mod:`.legality` and :mod:`.control` check the state as it stands. What they cannot
see is whether the work it holds waiting (an ability's continuation and the tasks
under it, with their arguments) does what the rules can do: a Plot's spending saved
for another family than its owner's, or a Royal Decree's move saved with a family
where a card should be, is a well-formed continuation that cannot be played. So every
answer offered is played on a copy, and each question that follows while the saved
card's turn goes on is answered every way, up to :data:`MAX_TRIAL` answers in all
(breadth first); each state reached must pass :func:`~.legality.check_state`.

Whatever plugins are installed, the answers are tried: the engine runs on the copies
as it does in play, third-party abilities and event hooks guarded by the budget of an
answer (:mod:`.budget`), so a plugin's code that fails or runs away on a copy refuses
the save, never the game later. One thing is not run blind: a plugin's own
continuation, which the save hands arguments of its choosing. A save waiting on one
(its question, or a task it queued) is tried only if its plugin declares, with the
``loadable_saves`` hook, that its continuations may be tried on copies (they check
their arguments and change nothing but the game); otherwise it is refused.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Collection

from ..core._budget import third_party
from ..core._decisions import Continuation, Decision
from ..core._engine import Engine
from ..core._errors import PositionError, SaveError
from ..core._guards import guarded_rules
from ..core._shown import cut, short
from ..core._state import State
from ._legality import check_state

#: The most answers played on copies: a card's turn asks a few questions of a few
#: options each; a Plot with many tokens asks more, and its first ones are tried.
MAX_TRIAL = 200


def try_answers(state: State, loadable: Collection[str] = ()) -> None:
    """Raise :class:`PositionError` naming the answers after which the game ``state``
    describes breaks a rule, or fails; :class:`SaveError` if it waits on work of a
    plugin that is not among ``loadable`` (the plugins that declare it may be tried)."""
    if state.pending is None:
        return
    # Without a plugin's continuation waiting, plugin code runs on a legal state with
    # the engine's own arguments: if it fails, it is the plugin's failure, the same as
    # in the game that was saved, and the answer is refused in play as it is here.
    # A plugin's continuation is handed the save's arguments: its failure is the save's.
    excused = not _check_declared(state, loadable)
    rules = guarded_rules(state.rules)  # as a game runs them: plugin code on a budget
    waiting = state.tasks[:1]  # the bottom task stays until the saved turn is over
    todo: deque[tuple[State, Decision, tuple[object, ...]]] = deque()
    todo.append((state, state.pending, ()))
    played = 0
    tried = refused = 0  # answers to the saved question, and those plugin code refuses
    while todo and played < MAX_TRIAL:
        before, decision, path = todo.popleft()
        for option in decision.options:
            played += 1
            tried += not path
            trial = before.clone()
            answers = (*path, option)
            try:
                Engine(trial, rules).apply(decision, option)
                check_state(trial)
            except Exception as exc:
                if excused and not isinstance(exc, PositionError) and _in_plugin_code(exc):
                    refused += not path
                    continue
                what = "a state the rules forbid" if isinstance(exc, PositionError) else "a failure"
                raise PositionError(
                    f"answering {_answers(state.pending, answers)} leads to {what} "
                    f"({type(exc).__name__}: {cut(str(exc))})"
                ) from None
            following = trial.pending
            if following is not None and waiting and trial.tasks[:1] == waiting:
                todo.append((trial, following, answers))
            if played >= MAX_TRIAL:
                break
        if not path and refused == tried:
            raise PositionError(
                f"every answer to its {state.pending.kind} decision fails in plugin code: "
                "the game cannot be played on"
            )


def _in_plugin_code(error: BaseException) -> bool:
    """Whether third-party code was running when ``error`` was raised (or the error it
    was raised from, or while handling): a frame of a module that is neither
    oriflamme's, pluggy's nor Python's own."""
    seen: set[int] = set()
    found: BaseException | None = error
    while found is not None and id(found) not in seen:
        seen.add(id(found))
        trace = found.__traceback__
        while trace is not None:
            # A compiled module's entries have no module name: the engine's own, compiled
            # (a plugin compiled alike is not told apart, and its failure refuses the save).
            module = trace.tb_frame.f_globals.get("__name__")
            top = module.split(".", 1)[0] if type(module) is str else ""
            if top and top not in _OWN and top not in sys.stdlib_module_names:
                return True
            trace = trace.tb_next
        found = found.__cause__ or found.__context__
    return False


#: The packages whose frames are the engine's own.
_OWN = frozenset({__name__.split(".", 1)[0], "pluggy"})


def _check_declared(state: State, loadable: Collection[str]) -> bool:
    """Each continuation waiting that is a plugin's is one its plugin lets be tried;
    whether there is one."""
    rules = state.rules
    work: tuple[Continuation, ...] = state.tasks
    if state.resume is not None:
        work = (*work, state.resume)
    found = False
    for key, name, _, _ in work:
        if key is None or not third_party(rules.abilities.get(key)):
            continue  # the engine's own step, or a built-in card's method
        found = True
        plugin = rules.ability_plugins.get(key, "?")
        if plugin not in loadable:
            raise SaveError(
                f"the saved game waits on {key}.{name}, work of plugin {plugin!r}, which "
                "does not declare that its work may be tried before a loaded game is "
                "played (its loadable_saves hook, see docs/plugins.md): it cannot be "
                "loaded at this point"
            )
    return found


def _answers(first: Decision | None, answers: tuple[object, ...]) -> str:
    kind = first.kind if first is not None else "?"
    shown = ", then ".join(short(answer) for answer in answers)
    return f"its {kind} decision with {shown}"
