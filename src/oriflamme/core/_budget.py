"""What one answer may cost third-party code, so that a plugin can neither hang a
game nor wedge it: the bounds, and the code they bound.

Third-party code is every ability, reaction and event hook whose class or function
does not ship with ``oriflamme`` (:func:`third_party`). The engine calls it through
guards (:mod:`.guards`); the built-in cards are called directly and pay nothing.
Three kinds of runaway are stopped:

* **Engine steps**, :data:`MAX_STEPS` per answer: each turn of the engine's loop, each
  call into third-party code, and each question, task (``then``) and event that
  third-party code causes. This stops code that keeps calling the engine (a
  continuation that queues itself again, a hook that feeds its own event, a loop that
  keeps gaining Influence) and a damaged position on which the engine's own loop
  would never end. A legal answer of the built-in sets takes a dozen at most (11 over
  900 random games): their questions, tasks and events cost no step of their own.
* **Lines of third-party code**, :data:`MAX_LINES` per answer, counted while it runs
  (see :mod:`.guards`). This stops a loop that never calls the engine.
* **Memory**, :data:`~.guards.MAX_MEMORY` bytes more than the process held when the
  call of third-party code began, read by the same guard. This stops code that keeps
  growing what it holds (a list that doubles at each turn of a loop) long before the
  system would.

Past any bound the answer is refused and taken back whole, the game exactly as it
was, with an :class:`~oriflamme.AbilityError` that names the plugin and the bound.
:class:`OverBudget` is a ``BaseException``, like ``KeyboardInterrupt``, so that a
plugin's ``except Exception`` cannot swallow it; once a bound is passed, every
further engine step raises it again. The budget guards against mistakes, not against
hostile code: a plugin runs in the engine's process, with all of Python at hand.

A game's bounds are :attr:`Game.budget <oriflamme.Game.budget>`: a :class:`Budget`,
by default :data:`BUDGET`; a clone keeps its game's.
"""

from __future__ import annotations

from typing import NamedTuple

from ._rules import GameRules

#: Engine steps one answer may take (see the module's documentation).
MAX_STEPS = 10_000
#: Lines of third-party code one answer may run, when they can be counted.
MAX_LINES = 1_000_000


class Budget(NamedTuple):
    """The bounds of one answer: ``steps`` engine steps, ``lines`` lines of
    third-party code (each an int of at least 1)."""

    steps: int = MAX_STEPS
    lines: int = MAX_LINES


#: The bounds of every game unless it is given others.
BUDGET = Budget()


class OverBudget(BaseException):
    """An answer went past a bound of its :class:`Budget`. Never escapes a game: the
    answer is taken back and an :class:`~oriflamme.AbilityError` raised instead.

    The culprit is read from the traceback (the innermost third-party frame); when
    there is none, ``key`` is the card whose ability the engine was running (a task
    queued again and again), and ``culprit`` the third-party callable about to be
    called when the bound was passed.
    """

    def __init__(self, bound: str, key: str | None = None) -> None:
        super().__init__(bound)
        self.bound = bound
        self.key = key
        self.culprit: object = None


def steps_bound(budget: Budget) -> str:
    return (
        f"its budget of {budget.steps:,} engine steps for one answer (turns of the "
        "engine's loop, questions, tasks and events; see Game.budget)"
    )


def lines_bound(budget: Budget) -> str:
    return f"its budget of {budget.lines:,} lines of plugin code for one answer (see Game.budget)"


def checked_budget(budget: object) -> Budget:
    """``budget`` if it is a :class:`Budget` of whole positive bounds; a TypeError or
    ValueError saying what is expected otherwise."""
    if type(budget) is not Budget:
        raise TypeError(f"a game's budget is an oriflamme.Budget, not {type(budget).__name__}")
    for name, value in zip(Budget._fields, budget, strict=True):
        if type(value) is not int or value < 1:
            raise ValueError(f"Budget.{name} must be an int of at least 1, not {value!r}")
    return budget


#: The package whose code is the engine's own: anything else is third-party code.
_OWN_PACKAGE = __name__.split(".", 1)[0]


def third_party(code: object) -> bool:
    """Whether ``code`` (an ability, a hook function...) does not ship with oriflamme."""
    module = getattr(code, "__module__", None) or type(code).__module__
    return module.split(".", 1)[0] != _OWN_PACKAGE


def running_code(rules: GameRules, function: object) -> str:
    """Who ``function`` (third-party code the engine called) is, for an error:
    ``plugin 'p': the ability of 'key'``, or the plugins of an event hook."""
    owner = getattr(function, "__self__", None)
    key = rules.ability_keys.get(id(owner))
    if key is not None:
        return f"plugin {rules.ability_plugins.get(key, '?')!r}: the ability of {key!r}"
    if hasattr(function, "get_hookimpls"):  # the hook caller of some observers
        plugins = sorted(
            {i.plugin_name for i in function.get_hookimpls() if third_party(i.function)}
        )
        return f"plugin {', '.join(plugins)!r}: an event hook"
    return f"plugin code {getattr(function, '__qualname__', function)!r}"
