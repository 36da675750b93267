"""Saying which plugin's code failed, when an answer had to be taken back.

Every message names the plugin and the card: the innermost third-party code in the
traceback (its chain of causes included) is the culprit, an ability's method (its
card key, and the card acting, by its key and family) or an event hook (its plugin,
and the card acting when it ran). The plugin's code is placed too: the file and line
of the last frame of the traceback inside the plugin's package. The game's seed, with
which its author plays the game again, is a note of the error (:func:`seed_note`),
shown with its traceback, never in its message: a player may be shown that, and the
seed tells the deal. An error that already names its plugin keeps its words; one
raised where the engine cannot see who called (a continuation that is no method of
an ability, a question asked by a hook, a recursion that ran out in the engine's own
code) is told whose code it was.
"""

from __future__ import annotations

import os
import sys
from types import FrameType
from typing import Any, NamedTuple

from ._ability import Ability
from ._budget import OverBudget, third_party
from ._decisions import Decision
from ._errors import PluginError
from ._rules import GameRules
from ._shown import shown
from ._state import State

#: How a message that names no plugin begins (see :meth:`GameRules.hook_plugin`).
_UNKNOWN = "plugin '?'"


class Culprit(NamedTuple):
    """The third-party code to blame: ``plugin``, and the ability ``key`` (None for an
    event hook) and the ``card`` acting (None if unknown); ``acting`` names that card
    (``red's 'spy'``) where the game is known, ``where`` is the file and line of the
    innermost frame of the plugin's code (None if none is in the traceback)."""

    plugin: str
    key: str | None
    card: int | None
    acting: str | None = None
    where: str | None = None

    def __str__(self) -> str:
        if self.key is None:
            return f"plugin {self.plugin!r}: an event hook{_acting(self)}"
        return f"plugin {self.plugin!r}: the ability of {self.key!r}{_acting(self)}"


def blame(
    rules: GameRules,
    error: BaseException,
    decision: Decision | None,
    answer: Any,
    state: State | None = None,
) -> str:
    """One message: who failed (plugin, card, ability), how, where in its code, and
    that nothing changed. ``state`` is the game as it was before the answer (it names
    the card acting); no ``decision``: the game was playing on to its first question.
    The seed is not in it (see :func:`seed_note`)."""
    if decision is None:
        answered = "playing on to the game's first question"
        after = "the game was not made"
    else:
        answered = f"answering {decision.family}'s {decision.kind} decision with {shown(answer)}"
        after = "the game is as it was before this answer"
    culprit = culprit_of(rules, error, state)
    # The plugin's line: what raised, or what did what the engine refused.
    where = culprit.where if culprit is not None else None
    if isinstance(error, PluginError):  # it says what went wrong; it may not say who
        at = f" (at {where})" if where is not None else ""
        return f"{named(str(error), culprit)}{at}, {answered}; {after}"
    at = f" at {where}" if where is not None else ""
    what = f"{type(error).__name__}: {error}"
    if culprit is None:
        return f"the engine raised {what}, {answered}; {after}"
    return f"{culprit} raised {what}{at}, {answered}; {after}"


def seed_note(state: State) -> str:
    """The game's seed, for its author to play the game again: a note added to the error
    (shown with its traceback, under pytest say), never in its message, which a player
    may be shown: the seed tells the whole deal, every family's hidden cards."""
    return f"the game's seed: {state.seed} (the same configuration and seed deal it again)"


def named(message: str, culprit: Culprit | None) -> str:
    """``message`` naming its culprit: as it is if it names a plugin already, else
    with the culprit put first (or in place of ``plugin '?'``)."""
    if culprit is None:
        return message
    if message.startswith(_UNKNOWN):
        return f"plugin {culprit.plugin!r}{_acting(culprit)}{message[len(_UNKNOWN) :]}"
    if culprit.key is not None and culprit.card is not None:
        # "plugin 'p': the ability of 'key' asked..." names the card acting too.
        ability = f"plugin {culprit.plugin!r}: the ability of {culprit.key!r}"
        if message.startswith(ability) and not message.startswith(" (", len(ability)):
            return f"{ability}{_acting(culprit)}{message[len(ability) :]}"
    if message.startswith("plugin "):
        return message
    return f"{culprit}: {message}"


def _acting(culprit: Culprit) -> str:
    if culprit.acting is not None:
        return f" ({culprit.acting} acting)"
    return f" (card {culprit.card} acting)" if culprit.card is not None else ""


def acting_card(state: State, card: int, *, hidden: bool) -> str | None:
    """The card acting as an author knows it: its family and key (``red's 'spy'``), or
    only its family while it is face down (``red's face-down card``), if ``hidden``
    (an event hook's card: an ability's card is known to act by its key already)."""
    keys = state.identity.keys
    if not 0 <= card < len(keys):
        return None
    family = state.owner(card)
    if hidden and not state.up >> card & 1:
        return f"{family}'s face-down card"
    return f"{family}'s {keys[card]!r}"


def overrun(rules: GameRules, error: OverBudget, state: State | None = None) -> str:
    """Whose code went over the answer's budget (see :mod:`.budget`), and which bound;
    ``state``, the game, names the card acting."""
    culprit = culprit_of(rules, error, state)
    if culprit is None and error.key is not None:
        implemented = rules.abilities.get(error.key)
        if implemented is not None and third_party(implemented):
            culprit = Culprit(rules.ability_plugins.get(error.key, "?"), error.key, None)
    called = error.culprit
    if culprit is None and called is not None:
        owner = id(getattr(called, "__self__", None))
        if owner in rules.ability_keys:
            key = rules.ability_keys[owner]
            culprit = Culprit(rules.ability_plugins.get(key, "?"), key, None)
        elif hasattr(called, "get_hookimpls"):  # the hook caller of some observers
            plugins = sorted(
                {i.plugin_name for i in called.get_hookimpls() if third_party(i.function)}
            )
            return f"plugin {', '.join(plugins)!r}: an event hook went over {error.bound}"
    if culprit is None:
        return f"the engine went over {error.bound}: the position cannot be played on"
    if culprit.key is None:  # a hook: the card acting, after the bound
        return f"plugin {culprit.plugin!r}: an event hook went over {error.bound}{_acting(culprit)}"
    return f"{culprit} went over {error.bound}"


def culprit_of(
    rules: GameRules, error: BaseException, state: State | None = None
) -> Culprit | None:
    """The innermost third-party code in ``error``'s traceback and its causes': an
    ability's method or an event hook; None if there is none. ``state`` (the game
    before the answer) names the card acting."""
    found: Culprit | None = None
    card: int | None = None  # the card acting, as the innermost ability saw it
    code: object = None  # the culprit's own code: what its package is found from
    keys = rules.ability_keys
    hooks = rules.hook_plugins
    frames = _frames(error)
    for frame, _ in frames:
        plugin = hooks.get(frame.f_code)
        if plugin is not None:
            found = Culprit(plugin, None, card)
            code = frame.f_code
            continue
        owner = frame.f_locals.get("self")
        if isinstance(owner, Ability) and id(owner) in keys:
            key = keys[id(owner)]
            acting = frame.f_locals.get("card")
            card = acting if type(acting) is int else None
            found = Culprit(rules.ability_plugins.get(key, "?"), key, card)
            code = type(owner)
    if found is None:
        return None
    where = _where(frames, code)
    named_card = None
    if state is not None and found.card is not None:
        named_card = acting_card(state, found.card, hidden=found.key is None)
    return found._replace(acting=named_card, where=where)


def _where(frames: list[tuple[FrameType, int]], code: object) -> str | None:
    """``file:line`` of the innermost of ``frames`` in the package of ``code`` (an
    ability's class or a hook's code): where the plugin's own code failed."""
    filename = getattr(code, "co_filename", None)
    if filename is None:  # a class: its module's file
        module = sys.modules.get(getattr(code, "__module__", ""))
        filename = getattr(module, "__file__", None)
    if not isinstance(filename, str):
        return None
    root = _package_of(filename)
    for frame, line in reversed(frames):
        inner = frame.f_code.co_filename
        if inner == root or (root.endswith(os.sep) and inner.startswith(root)):
            return f"{inner}:{line}"
    return None


def _package_of(filename: str) -> str:
    """The folder of the top package the file ``filename`` is in (ending with a
    separator), or the file itself if it is in no package."""
    folder = os.path.dirname(filename)
    if not os.path.exists(os.path.join(folder, "__init__.py")):
        return filename
    while os.path.exists(os.path.join(os.path.dirname(folder), "__init__.py")):
        folder = os.path.dirname(folder)
    return folder + os.sep


def _frames(error: BaseException) -> list[tuple[FrameType, int]]:
    """The frames of ``error``'s traceback, each with the line it was at, outermost
    first, then those of what it was raised from (deeper: where the first one was
    caught), and so on."""
    frames: list[tuple[FrameType, int]] = []
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        trace = current.__traceback__
        while trace is not None:
            frames.append((trace.tb_frame, trace.tb_lineno))
            trace = trace.tb_next
        current = current.__cause__ or current.__context__
    return frames
