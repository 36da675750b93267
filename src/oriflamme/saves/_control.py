"""The control state of a game from outside: the question it waits on and the work
it holds waiting, checked against what the engine itself would have left there.

A saved game holds, besides the table (:mod:`.legality`), where the rules are: the
pending decision, the continuation its answer resumes, and the task stack. Each is
checked here: a question of a family, kind, card and options the rules would ask (a
placement's options recomputed from the hand and the queue; a reveal of the card
whose turn it is; a question of the kind, and for a choice the words, that the
continuation it resumes declares (``Ability.continuations``, any card's); a built-in
card's question of its owner, each answer once, each a place the queue has), and
continuations that name a method taking their arguments.
Then :mod:`.trial` plays the answers on copies.

Bounds (:mod:`.bounds`, the same ``ask`` and ``then`` check as they are given): at
most :data:`~.bounds.MAX_TASKS` (100) tasks waiting; a continuation's arguments and an
option nested at most :data:`~.bounds.MAX_ARGUMENT_DEPTH` (8) deep, at most
:data:`~.bounds.MAX_ARGUMENT_VALUES` (1,000) values, whole numbers within
±:data:`~.bounds.MAX_INT` (2**63 - 1), other numbers finite.
"""

from __future__ import annotations

import inspect
from types import MappingProxyType
from typing import Any

from ..core._bounds import MAX_TASKS, value_problem
from ..core._budget import third_party
from ..core._decisions import (
    ENGINE_KINDS,
    FIRST,
    LAST,
    REVEAL_OPTIONS,
    Continuation,
    Decision,
    Placements,
)
from ..core._effects import Effects
from ..core._errors import IllegalAnswer, PositionError
from ..core._identity import NO_CARD
from ..core._state import END, PLACEMENT, RESOLUTION, State
from ..core._words import RULE, control_problem


def _fail(message: str) -> PositionError:
    return PositionError(message)


def check_control(state: State) -> None:
    """Raise :class:`PositionError` if the question ``state`` waits on is not one the
    rules can ask there, or the work it holds waiting is not sound."""
    decision = state.pending
    _check_work(state)
    if decision is None:
        if state.phase != END:
            raise _fail("no question is asked, yet the game is not over")
        if state.tasks or state.resume is not None:
            raise _fail("the game is over, yet work is waiting")
        return
    if state.phase == END:
        raise _fail("the game is over, yet a question is asked")
    if decision.family not in state.seat:
        raise _fail(f"the question is for {decision.family!r}, not a family of the game")
    if decision.kind not in state.rules.kinds:
        raise _fail(f"the question is of kind {decision.kind!r}, which no plugin provides")
    # RULINGS R4: a question with one answer is never asked; it is applied.
    if len(decision.options) < 2:
        raise _fail(f"the {decision.kind} question has {len(decision.options)} answer(s) (R4)")
    if decision.labels is not None and len(decision.labels) != len(decision.options):
        raise _fail(f"the {decision.kind} question words {len(decision.labels)} options, not all")
    # Words a save carries are printed to people: held to what a plugin may ask.
    for words in (decision.question, *(decision.labels or ())):
        problem = control_problem(words) if words is not None else None
        if problem is not None:
            raise _fail(f"the {decision.kind} question's wording {problem}: expected {RULE}")
    subject = decision.subject
    if subject is not None and not any(subject in stack for stack in state.queue):
        raise _fail(f"the {decision.kind} question is about card {subject}, not in the queue")
    if decision.kind in ENGINE_KINDS:
        if decision.ability is not None or subject is not None:
            raise _fail(f"the {decision.kind} question is asked by no ability")
        if state.tasks or state.resume is not None:
            raise _fail(f"a {decision.kind} question is asked while an ability is at work")
        if decision.question is not None or decision.labels is not None:
            raise _fail(f"the {decision.kind} question is worded by no ability")
        _check_turn(state, decision)
        return
    resume = state.resume
    if state.phase != RESOLUTION or resume is None or resume[0] is None:
        raise _fail(f"a {decision.kind} question is asked outside an ability's turn")
    if decision.ability != resume[0]:
        raise _fail(f"the {decision.kind} question is asked by another ability than its own")
    card = decision.card
    if card is None or card != resume[2]:
        raise _fail(f"the {decision.kind} question is about another card than its ability's")
    # Only a card's turn runs an ability, which asks: the engine's own step ending the
    # turn waits at the bottom of the work (RULINGS R1). A plugin's event hook may also
    # queue its own abilities' work outside any card's turn; never a built-in card's,
    # whatever plugins are installed.
    hooked = bool(state.rules.observers) and third_party(state.rules.abilities.get(str(resume[0])))
    if not hooked and (
        state.acting == NO_CARD or not state.tasks or state.tasks[0] != _finish(state.acting)
    ):
        raise _fail(f"a {decision.kind} question is asked, yet no card's ability is at work")
    _check_options(state, decision, resume)


def _finish(card: int) -> Continuation:
    """The engine's own last step of a card's turn (engine.py, _activate)."""
    return (None, "finish", card, ())


def _check_work(state: State) -> None:
    """Each continuation names a method that takes its arguments; the engine's own step
    (finishing the acting card's turn) waits once at most, beneath the ability's work."""
    if len(state.tasks) > MAX_TASKS:
        raise _fail(f"{len(state.tasks)} tasks wait: at most {MAX_TASKS}")
    steps = [task for task in state.tasks if task[0] is None]
    if steps and (steps != [_finish(state.acting)] or state.acting == NO_CARD):
        raise _fail("the engine's own work waiting is not the end of the acting card's turn")
    for task in state.tasks:
        _check_continuation(state, task, answered=False)
    if state.resume is not None:
        _check_continuation(state, state.resume, answered=True)


def _check_turn(state: State, decision: Decision) -> None:
    """A placement or a reveal is asked of the family whose turn it is, as the engine would."""
    if decision.kind == "place":
        count = len(state.families)
        seat = (state.first + state.placed) % count
        expected = state.families[seat]
        if state.phase != PLACEMENT or state.placed >= count or decision.family != expected:
            raise _fail(f"{decision.family} is asked to place, but it is not its turn (G4)")
        options = decision.options
        spots = Effects(state, state.rules).spots(expected)
        if (
            not isinstance(options, Placements)
            or decision.card is not None
            or options != Placements(state.hands[seat], spots)
        ):
            raise _fail(f"{expected} is offered other placements than its hand and the queue allow")
        return
    card = decision.card
    queue = state.queue
    if (
        state.phase != RESOLUTION
        or state.walk >= len(queue)
        or card != queue[state.walk][-1]
        or card != state.acting
        or state.up >> card & 1
        or decision.family != state.owner(card)
        or decision.options != REVEAL_OPTIONS
    ):
        raise _fail(
            "a reveal is asked, but not of the owner of the face-down card whose turn it is"
        )


def _places(kind: str, length: int, words: tuple[str, ...]) -> tuple[object, ...]:
    """The answers a built-in kind can offer with a queue of ``length`` positions:
    a position's top card, an index once moved, a place for the Twin; for a choice,
    the ``words`` its continuation declares."""
    if kind == "target":
        return tuple(range(length))
    if kind == "move":
        return tuple(range(length + 1))
    if kind == "twin":
        return (FIRST, LAST, *range(length))
    return words


def _check_options(state: State, decision: Decision, resume: Continuation) -> None:
    """An ability's question offers answers its kind accepts; a built-in card's, as
    the rules would: of its owner, each answer once, each one the queue has."""
    options = decision.options
    if not isinstance(options, tuple):
        raise _fail(f"the {decision.kind} question offers placements: only the engine does")
    kind = state.rules.kinds[decision.kind]
    game = Effects(state, state.rules)
    for option in options:
        check_value(option, f"an option of the {decision.kind} question")
        try:
            kind.check(game, decision, option)
        except IllegalAnswer:
            raise _fail(
                f"the {decision.kind} question offers {option!r}, which its kind refuses"
            ) from None
    key, method, card, _ = resume
    ability = state.rules.abilities.get(str(key))
    # What its continuation answers, as the ability's class declares it (Ability.
    # continuations): the question of a kind, of words, it asks.
    declared = _declared(ability, str(method))
    expected = declared[0] if declared is not None else "target"
    words = declared[1:] if declared is not None else ()
    if third_party(ability):
        # A plugin's continuation is held to what it declares, and no more.
        if declared is None:
            return
        if decision.kind != expected:
            raise _fail(f"{key}.{method} resumes a {decision.kind} question, which it never asks")
        if words and any(type(option) is not str or option not in words for option in options):
            raise _fail(f"the {decision.kind} question offers a word {key}.{method} never offers")
        return
    # What follows is what the built-in cards ask: checked by their code, wherever the
    # plugin that registered them says it comes from.
    if decision.kind != expected:
        raise _fail(f"{key}.{method} resumes a {decision.kind} question, which it never asks")
    if decision.family != state.owner(card):
        raise _fail(f"{decision.family} is asked for a card it does not own (R3)")
    if len({(type(option), option) for option in options}) != len(options):
        raise _fail(f"the {decision.kind} question offers an answer twice (R4)")
    places = _places(decision.kind, len(state.queue), words)
    if any(type(option) not in (int, str) or option not in places for option in options):
        raise _fail(f"the {decision.kind} question offers a place the queue does not have")


def _declared(ability: object, method: str) -> tuple[str, ...] | None:
    """What ``method`` of ``ability`` answers, as its class declares it (``(kind,)``, or
    ``("choose", *words)``), or None: not declared, or not as a plain dict of tuples of
    words (a plugin's mapping is read, never called)."""
    declarations = getattr(type(ability), "continuations", None)
    if type(declarations) not in (dict, MappingProxyType):
        return None
    declared = declarations.get(method)  # type: ignore[union-attr]
    if type(declared) is not tuple or not declared:
        return None
    if any(type(word) is not str for word in declared):
        return None
    return declared


def _check_continuation(state: State, task: Continuation, *, answered: bool) -> None:
    """A continuation is about a card of the game, and its method takes its arguments
    (and the answer, for the one a question resumes)."""
    key, name, card, args = task
    if type(card) is not int or not 0 <= card < len(state.identity):
        raise _fail(f"the continuation {name!r} is about {card!r}, not a card of this game")
    check_value(args, f"the arguments of {name!r}")
    if key is None:
        return
    ability = state.rules.abilities.get(key)
    method = getattr(type(ability), name, None) if ability is not None else None
    if not callable(method) or name.startswith("_"):
        raise _fail(f"the continuation {key}.{name} is not a method of a registered ability")
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):
        return  # a callable that tells nothing of its parameters: tried in play
    answer = ("answer",) if answered else ()
    try:
        signature.bind(ability, "game", card, *args, *answer)
    except TypeError:
        raise _fail(
            f"{key}.{name} is continued with {len(args)} argument(s)"
            f"{' and an answer' if answered else ''}, which it does not take"
        ) from None


def check_value(value: Any, what: str) -> None:
    """A value a save holds (:func:`.bounds.value_problem`), or :class:`PositionError`."""
    problem = value_problem(value)
    if problem is not None:
        raise _fail(f"{what} {problem}")
