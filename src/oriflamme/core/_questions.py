"""A third-party ability's question, checked before the game waits on it.

The built-in cards ask as the rules say. A plugin's ability may ask anything, and a
question that no answer can match (a kind the engine asks itself, a family that is
not in the game, options of a type the kind refuses) would leave a game nobody can
play on. So such a question is refused at once, inside the answer being applied:
the answer is taken back and the error names the plugin. So is a question, or a
task, a save could not hold (see :mod:`.bounds`): options or words past its bounds, a
task about no card of the game, one more task than a save holds. And so are words a
game could not print (:mod:`.words`): a question or a label that holds a control
character, a newline or a bidi override. And so is a continuation that cannot take
the arguments it will be called with: it would fail only when the answer comes, in
the engine's own code, where it would look like the engine's fault.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, cast

from ._board import Board
from ._bounds import (
    MAX_ARGUMENT_DEPTH,
    MAX_ARGUMENT_VALUES,
    MAX_STRING,
    MAX_TASKS,
    OPTION_TYPES,
    OPTION_WORDS,
    value_problem,
)
from ._budget import running_code
from ._decisions import ENGINE_KINDS, Answer, Decision
from ._errors import IllegalAnswer, PluginError
from ._identity import CardId
from ._rules import GameRules
from ._shown import indices, shown
from ._state import RESOLUTION, State
from ._words import RULE, control_problem


def checked_options(
    game: Board,
    who: str,
    *,
    family: object,
    kind: str,
    options: object,
    card: object,
    question: object,
    labels: object,
    subject: object = None,
) -> tuple[Answer, ...]:
    """The ``options`` of a question ``who`` (a plugin's ability) asks, as the game
    keeps them (lists as tuples); a :class:`PluginError` saying what is wrong.

    ``game`` is the asking game's :class:`~oriflamme.Effects`, which the kind checks
    each option with (read here as the table it is: the Effects ask through here)."""
    s = game._state
    if kind in ENGINE_KINDS:
        raise PluginError(
            f"{who} asked a {kind!r} question: the engine asks those itself (the "
            "placement phase, a face-down card's turn); an ability asks target or a "
            "kind a plugin registers (the built-in sets' move, twin and choose among them)"
        )
    if type(family) is not str or family not in s.seat:
        raise PluginError(
            f"{who} asked {shown(family)} a {kind} question: the families of the game "
            f"are {', '.join(s.families)}"
        )
    about = _card(s, card, f"{who} asked a {kind} question about")
    other: CardId | None = None
    if subject is not None:
        other = _card(s, subject, f"{who} asked a {kind} question whose subject is")
        if not any(other in stack for stack in s.queue):
            raise PluginError(
                f"{who} asked a {kind} question whose subject is card {other}, which is "
                "not in the queue: the subject is a card in the queue, or None"
            )
    if s.phase != RESOLUTION:
        raise PluginError(
            f"{who} asked a {kind} question in the {s.phase} phase: abilities ask while a "
            "card acts, in the resolution phase (RULINGS R1)"
        )
    if type(options) is not tuple and type(options) is not list:
        raise PluginError(
            f"{who} asked a {kind} question with options {shown(options)}: a list or "
            "tuple of answers is expected"
        )
    if question is not None and type(question) is not str:
        raise PluginError(f"{who} worded its question as {shown(question)}: a str is expected")
    if labels is not None and not isinstance(labels, Mapping):
        raise PluginError(f"{who} labelled its options with {shown(labels)}: a mapping is expected")
    # Each option as a save holds it, and reads it back (saves.py, control.py).
    if len(options) > MAX_ARGUMENT_VALUES:
        raise PluginError(
            f"{who} asked a question no game can save: {len(options)} options "
            f"(at most {MAX_ARGUMENT_VALUES})"
        )
    chosen: tuple[Any, ...] = tuple(_option(option, who, kind) for option in options)
    for option in chosen:
        problem = value_problem(option)
        if problem is not None:
            raise PluginError(
                f"{who} asked a question no game can save: the options of its {kind} "
                f"question {problem}"
            )
        if not isinstance(option, OPTION_TYPES):
            raise PluginError(
                f"{who} asked {family} a {kind} question with option {shown(option)}: "
                f"{OPTION_WORDS} (None and other numbers only inside a list)"
            )
    if not chosen:
        return chosen  # RULINGS R4: nothing to choose, nothing happens
    if question is not None:
        _check_words(
            question, f"{who} worded its question", f"its {kind} question about card {about}"
        )
    worded = _labels(chosen, labels, who, f"an option of its {kind} question about card {about}")
    decision = Decision(family, kind, chosen, about, question, worded, None, other)
    rules = game.rules.kinds[kind]
    for option in chosen:
        try:
            rules.check(game, decision, option)
        except IllegalAnswer as refusal:
            raise PluginError(
                f"{who} asked {family} a {kind} question with option {shown(option)}, "
                f"which no answer can match ({refusal})"
            ) from None
    return chosen


def check_task(state: State, who: str, card: object) -> None:
    """A task ``who`` (a plugin's ability) queues with ``then``: about a card of the
    game, and one more than a save may hold is a :class:`PluginError`."""
    _card(state, card, f"{who} queued a task about")
    if len(state.tasks) >= MAX_TASKS:
        raise PluginError(
            f"{who} queued a task while {len(state.tasks)} wait: at most "
            f"{MAX_TASKS} may wait at once (abilities nest a few deep)"
        )


def check_continuation(who: str, method: Callable[..., Any], names: tuple[str, ...]) -> None:
    """A :class:`PluginError` if the continuation ``method`` (a bound method) that
    ``who`` gives cannot be called with positional arguments named ``names`` (``game``,
    ``card``, then the rest), as the engine will call it: naming the method, its file
    and line, what it takes and what is expected. A signature that cannot be read (a
    method of compiled code) is not checked."""
    function = getattr(method, "__func__", method)
    signature = _signature(function)
    if signature is None:
        return
    try:
        signature.bind(None, *names)  # ``self`` first
    except TypeError:
        pass
    else:
        return
    name = getattr(function, "__name__", "?")
    qualname = getattr(function, "__qualname__", name)
    code = getattr(function, "__code__", None)
    where = f" ({code.co_filename}:{code.co_firstlineno})" if code is not None else ""
    parameters = [p.replace(annotation=p.empty) for p in signature.parameters.values()]
    takes = signature.replace(parameters=parameters, return_annotation=signature.empty)
    raise PluginError(
        f"{who} continues with {qualname}{where}, which takes {takes}, but will be "
        f"called as {name}({', '.join(names)}): expected def {name}(self, "
        f"{', '.join(names)})"
    )


#: Signatures read, by function: a continuation is given at every question.
_SIGNATURES: dict[Callable[..., Any], inspect.Signature | None] = {}


def _signature(function: Callable[..., Any]) -> inspect.Signature | None:
    if function in _SIGNATURES:
        return _SIGNATURES[function]
    try:
        signature: inspect.Signature | None = inspect.signature(function)
    except (TypeError, ValueError):
        signature = None
    if len(_SIGNATURES) >= 1024:
        _SIGNATURES.clear()  # bounded: the continuations of a few plugins at a time
    _SIGNATURES[function] = signature
    return signature


def continuation_names(count: int, *, answer: bool) -> tuple[str, ...]:
    """How the engine calls a continuation given ``count`` arguments: ``game``,
    ``card``, an argument for each (``arg1``...), and ``answer`` after a question."""
    return ("game", "card", *(f"arg{i}" for i in range(1, count + 1))) + (
        ("answer",) if answer else ()
    )


def _card(state: State, card: object, what: str) -> CardId:
    count = len(state.identity)
    if type(card) is not int or not 0 <= card < count:
        raise PluginError(
            f"{what} card {shown(card)}: a card id of the game is expected (the game has "
            f"{indices(count, 'card id')})"
        )
    return card


def _check_words(text: str, worded: str, what: str) -> None:
    """Refuse words a save could not hold or a game could not print; ``worded``
    (``plugin 'p': the ability of 'k' worded its question``) did it, of ``what``."""
    if len(text) > MAX_STRING:
        raise PluginError(f"{worded} in {len(text)} characters: a save holds at most {MAX_STRING}")
    problem = control_problem(text)
    if problem is not None:
        raise PluginError(
            f"{worded} ({what}) in words that {problem}: words are one line of {RULE}"
        )


def _labels(
    options: tuple[Any, ...], labels: object, who: str, what: str
) -> tuple[str, ...] | None:
    """The words of each option (:func:`words`), each checked as a question is."""
    if labels is None:
        return None
    given = cast(Mapping[Any, object], labels)
    worded: list[str] = []
    for option in options:
        label = given.get(option, None)
        if label is None:
            label = str(option)  # an option without words is shown as it is
        elif type(label) is not str:
            raise PluginError(
                f"{who} labelled {what} with {shown(label)}: words (a str) are expected"
            )
        _check_words(label, f"{who} worded an option", what)
        worded.append(label)
    return tuple(worded)


class _TooBig(Exception):
    """An option holds more values than a save does: it is not copied any further."""


def _option(option: object, who: str, kind: str) -> object:
    """``option`` as the game keeps it (:func:`_tupled`), or a :class:`PluginError` as
    soon as it holds more values than a save does (copying it whole could take all
    the memory there is: a list may hold the same big list many times over)."""
    try:
        return _tupled(option, 0, [MAX_ARGUMENT_VALUES])
    except _TooBig:
        raise PluginError(
            f"{who} asked a question no game can save: an option of its {kind} question "
            f"holds more than {MAX_ARGUMENT_VALUES} values (at most {MAX_ARGUMENT_VALUES}, "
            f"{MAX_ARGUMENT_DEPTH} levels deep)"
        ) from None


def _tupled(value: object, depth: int, left: list[int]) -> object:
    """``value`` with its lists as tuples, as the game keeps an option, down to one
    level past the deepest a save holds (what is left deeper is refused as too deep);
    ``left[0]``: how many more values it may hold."""
    left[0] -= 1
    if left[0] < 0:
        raise _TooBig
    if isinstance(value, list | tuple) and depth <= MAX_ARGUMENT_DEPTH:
        return tuple(_tupled(item, depth + 1, left) for item in value)
    return value


def asker(rules: GameRules, running: object, key: str) -> str:
    """Who asks or queues, for an error: ``plugin 'p': the ability of 'key'``, or the
    third-party code ``running`` (when it continues with a built-in card's method)."""
    if running is not None:
        # The code that runs asked, whichever ability's method it continues with (its
        # own, a built-in card's, another plugin's), or an event hook did.
        return running_code(rules, running)
    return f"plugin {rules.ability_plugins.get(key, '?')!r}: the ability of {key!r}"


def words(options: tuple[Any, ...], labels: object) -> tuple[str, ...] | None:
    """The words of each option, from the asker's ``labels`` (an option without one is
    shown as it is)."""
    if labels is None:
        return None
    return tuple(str(cast(Mapping[Any, object], labels).get(option, option)) for option in options)
