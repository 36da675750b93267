"""The guards through which the engine calls third-party code (see :mod:`.budget`):
each call one engine step, its lines counted and the memory it takes watched.

While third-party code runs, a tracer (:func:`sys.settrace`) counts the lines it
executes, in frames whose code is not the engine's own (nor pluggy's); in code that
jumps to itself (``while True: pass``), of which Python reports no lines, each
instruction counts as one; finalisers and the garbage collector's callbacks are not
traced (Python ignores what they raise). The tracer is installed only when no other
one is (a debugger, coverage): then only engine steps count.

The same tracer reads how much memory the process holds (its resident set, from
``/proc/self/statm``, else its peak from :func:`resource.getrusage`; where neither
can be read, memory is not bounded), at most once a millisecond of plugin code, so
that it costs next to nothing. Past :data:`MAX_MEMORY` more than at its first reading,
a millisecond in, the answer is over its budget. One line that takes all the memory
at once (``[0] * 10**10``) is not stopped, nor is memory other threads take meanwhile
told apart from the plugin's.

Code that catches ``BaseException`` and loops on without calling the engine escapes
the tracer (Python removes a tracer that raised): such code is not stopped, nor is
code stuck in one call into C.

The rules as the engine runs them (:func:`guarded_rules`) hold each third-party
ability and event hook behind a guard; the built-in ones as they are.
"""

from __future__ import annotations

import dis
import gc
import os
import sys
import time
from collections.abc import Callable, Mapping
from functools import lru_cache
from types import CodeType, FrameType, ModuleType
from typing import Any

import pluggy

from ._ability import Ability, reacts_to_elimination
from ._budget import OverBudget, lines_bound, third_party
from ._effects import Effects
from ._rules import CardAbility, GameRules

_resource: ModuleType | None
try:
    import resource as _resource
except ImportError:  # not on every system (Windows): the peak cannot be read there
    _resource = None

#: Bytes of memory one call of third-party code may add to what the process holds,
#: when they can be counted (see the module's documentation).
MAX_MEMORY = 256 * 1024 * 1024
#: Nanoseconds of third-party code between two readings of the memory held.
MEMORY_EVERY = 1_000_000


def memory_bound(bound: int) -> str:
    return f"its bound of {bound // (1024 * 1024):,} MiB more memory for one call of plugin code"


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


# The process's /proc/self/statm, opened once per process: reading it is then a single
# call that holds nothing open, so a plugin whose recursion stops in the middle of the
# reading (a RecursionError may come at any call) leaves no file behind to close.
_STATM: tuple[int, int] | None = None  # (the pid it was opened in, the descriptor or -1)


def _statm() -> int:
    global _STATM  # noqa: PLW0603 - one descriptor per process
    pid = os.getpid()
    if _STATM is None or _STATM[0] != pid:  # a forked child reads its own
        try:
            _STATM = (pid, os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC))
        except (OSError, AttributeError):
            _STATM = (pid, -1)
    return _STATM[1]


def held() -> int:
    """Bytes of memory the process holds now (its resident set), or its peak where
    that cannot be read; 0 if neither can."""
    statm = _statm()
    if statm >= 0:
        try:
            return int(os.pread(statm, 256, 0).split()[1]) * _PAGE
        except (OSError, ValueError, IndexError, AttributeError):
            pass
    if _resource is None:
        return 0
    try:
        peak: int = _resource.getrusage(_resource.RUSAGE_SELF).ru_maxrss
    except (OSError, ValueError):
        return 0
    return peak if sys.platform == "darwin" else peak * 1024  # bytes there, KiB elsewhere


# The files of the engine's own code, and pluggy's: never traced.
_OWN_FILES = tuple(
    os.path.dirname(os.path.abspath(path)) + os.sep
    for path in (sys.modules[__name__.split(".", 1)[0]].__file__ or "", pluggy.__file__ or "")
    if path
)


_COUNTED = frozenset({"line", "opcode"})
_clock = time.perf_counter_ns


class _Tracer:
    """Counts the lines of third-party code run in one answer, and watches the memory
    it takes (see the module)."""

    __slots__ = ("base", "due", "effects", "left", "local")

    def __init__(self, effects: Effects) -> None:
        self.effects = effects
        self.left = effects._lines
        self.local = self.line  # bound once: the tracer returns it for every frame
        self.due = _clock() + MEMORY_EVERY  # when memory is next read
        self.base = -1  # what the process held at the first reading

    def call(self, frame: FrameType, event: str, arg: object) -> Any:
        code = frame.f_code
        if code.co_filename.startswith(_OWN_FILES):
            return None  # the engine's own code, and pluggy's: not counted
        if code.co_name == "__del__" or code in _gc_callbacks():
            # Python ignores what these raise, and a tracer that raised is removed: the
            # bound passed in one of them would let the plugin's loop run on, untraced.
            return None
        if _spins(code):
            frame.f_trace_opcodes = True
        return self.local

    def line(self, frame: FrameType, event: str, arg: object) -> Any:
        if event in _COUNTED:
            self.left -= 1
            if self.left < 0:
                effects = self.effects
                effects._steps = 0  # sticky: the next engine step raises again
                raise OverBudget(lines_bound(effects.budget))
            if _clock() >= self.due:
                self.memory()
        return self.local

    def memory(self) -> None:
        """Read the memory held; past :data:`MAX_MEMORY` more than at the first
        reading, the answer is over its budget."""
        self.due = _clock() + MEMORY_EVERY
        now = held()
        if self.base < 0:
            self.base = now
        elif now - self.base > MAX_MEMORY:
            self.effects._steps = 0  # sticky, as for lines
            raise OverBudget(memory_bound(MAX_MEMORY))


def _gc_callbacks() -> frozenset[object]:
    """The code of the garbage collector's callbacks (a test runner's, say)."""
    return frozenset(getattr(callback, "__code__", None) for callback in gc.callbacks)


@lru_cache(maxsize=4096)
def _spins(code: CodeType) -> bool:
    """Whether ``code`` jumps to itself (``while True: pass``): Python reports no line
    for such a loop, so its instructions are counted instead (one line each)."""
    return any(
        instruction.opcode in _JUMPS and instruction.argval == instruction.offset
        for instruction in dis.get_instructions(code)
    )


_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


def run_guarded(game: Effects, function: Callable[..., Any], /, *args: Any, **kw: Any) -> Any:
    """Call third-party ``function`` as one engine step, its lines counted; what it returns."""
    try:
        game._step()
    except OverBudget as exc:
        exc.culprit = function  # passed before its code ran: no frame of it to blame
        raise
    # What runs is third-party code, whatever it calls: a question it asks (through a
    # built-in card's method too) is checked, and the error names it.
    running = game._running
    game._running = function
    try:
        if sys.gettrace() is not None:  # already counting, or a debugger's or coverage's
            return function(*args, **kw)
        tracer = _Tracer(game)
        sys.settrace(tracer.call)
        try:
            return function(*args, **kw)
        finally:
            sys.settrace(None)
            game._lines = tracer.left
    finally:
        game._running = running


class GuardedAbility(Ability):
    """A third-party ability as the engine calls it: each call guarded, continuations
    (looked up by name) included."""

    def __init__(self, inner: CardAbility) -> None:
        self._inner = inner

    def activate(self, game: Effects, card: int, *args: Any) -> None:
        run_guarded(game, self._inner.activate, game, card, *args)

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("_"):  # continuations are public; never guess at the rest
            raise AttributeError(name)
        method = getattr(self._inner, name)

        def guarded(game: Effects, card: int, *args: Any) -> None:
            run_guarded(game, method, game, card, *args)

        return guarded


class GuardedReaction(GuardedAbility):
    """A third-party ability that reacts to its own elimination."""

    def eliminated(self, game: Effects, card: int, by: int | None, owner: str) -> None:
        run_guarded(game, self._inner.eliminated, game, card, by, owner)


class GuardedHook:
    """The observers of one kind of event, some of them third-party, guarded."""

    def __init__(self, caller: Callable[..., Any]) -> None:
        self._caller = caller

    def __call__(self, *, game: Effects, event: object) -> None:
        run_guarded(game, self._caller, game=game, event=event)


def _guarded_ability(ability: CardAbility) -> CardAbility:
    if not third_party(ability):
        return ability
    if reacts_to_elimination(ability):
        return GuardedReaction(ability)
    return GuardedAbility(ability)


def _guarded_hook(caller: Any) -> Any:
    impls = caller.get_hookimpls() if hasattr(caller, "get_hookimpls") else ()
    if all(not third_party(impl.function) for impl in impls):
        return caller
    return GuardedHook(caller)


#: Rules already guarded, by the id of the rules (kept with them: ids are reused).
_GUARDED: dict[int, tuple[GameRules, GameRules]] = {}
_GUARDED_SIZE = 256


def guarded_rules(rules: GameRules) -> GameRules:
    """The rules as the engine runs them: ``rules`` itself when every ability and hook
    ships with oriflamme, else a copy whose third-party abilities and hooks are
    guarded. Everything else (the keys that name continuations included) is shared."""
    found = _GUARDED.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    abilities = {key: _guarded_ability(ability) for key, ability in rules.abilities.items()}
    observers = {kind: _guarded_hook(caller) for kind, caller in rules.observers.items()}
    guarded = rules
    if _changed(abilities, rules.abilities) or _changed(observers, rules.observers):
        guarded = GameRules(
            sets=rules.sets,
            definitions=rules.definitions,
            abilities=abilities,
            inert=rules.inert,
            reacting=rules.reactions,
            kinds=rules.kinds,
            variants=rules.variants,
            observers=observers,
            hook_plugins=rules.hook_plugins,
            plugins=rules.plugins,
            ability_plugins=rules.ability_plugins,
            # Continuations name the plugin's own ability objects, not their guards.
            ability_keys=rules.ability_keys,
        )
    if len(_GUARDED) >= _GUARDED_SIZE:
        _GUARDED.pop(next(iter(_GUARDED)))  # keep it bounded
    _GUARDED[id(rules)] = (rules, guarded)
    return guarded


def _changed(new: Mapping[Any, object], old: Mapping[Any, object]) -> bool:
    return any(value is not old[key] for key, value in new.items())
