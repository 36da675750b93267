"""Saying which plugin's code failed, when an answer had to be taken back.

Every message names the plugin and the card: the innermost third-party code in the
traceback (its chain of causes included) is the culprit, an ability's method (its
card key, and the card acting) or an event hook (its plugin, and the card acting
when it ran). An error that already names its plugin keeps its words; one raised
where the engine cannot see who called (a continuation that is no method of an
ability, a question asked by a hook, a recursion that ran out in the engine's own
code) is told whose code it was.
"""

from __future__ import annotations

from types import FrameType
from typing import Any, NamedTuple

from ._ability import Ability
from ._budget import OverBudget, third_party
from ._decisions import Decision
from ._errors import PluginError
from ._rules import GameRules
from ._shown import shown

#: How a message that names no plugin begins (see :meth:`GameRules.hook_plugin`).
_UNKNOWN = "plugin '?'"


class Culprit(NamedTuple):
    """The third-party code to blame: ``plugin``, and the ability ``key`` (None for an
    event hook) and the ``card`` acting (None if unknown)."""

    plugin: str
    key: str | None
    card: int | None

    def __str__(self) -> str:
        acting = f" (card {self.card} acting)" if self.card is not None else ""
        if self.key is None:
            return f"plugin {self.plugin!r}: an event hook{acting}"
        return f"plugin {self.plugin!r}: the ability of {self.key!r}{acting}"


def blame(rules: GameRules, error: BaseException, decision: Decision, answer: Any) -> str:
    """One message: who failed (plugin, card, ability), how, and that nothing changed."""
    answered = f"answering {decision.family}'s {decision.kind} decision with {shown(answer)}"
    after = "the game is as it was before this answer"
    culprit = culprit_of(rules, error)
    if isinstance(error, PluginError):  # it says what went wrong; it may not say who
        return f"{named(str(error), culprit)}, {answered}; {after}"
    what = f"{type(error).__name__}: {error}"
    if culprit is None:
        return f"the engine raised {what}, {answered}; {after}"
    return f"{culprit} raised {what}, {answered}; {after}"


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
        if message.startswith(ability) and not message.startswith(" (card", len(ability)):
            return f"{ability}{_acting(culprit)}{message[len(ability) :]}"
    if message.startswith("plugin "):
        return message
    return f"{culprit}: {message}"


def _acting(culprit: Culprit) -> str:
    return f" (card {culprit.card} acting)" if culprit.card is not None else ""


def overrun(rules: GameRules, error: OverBudget) -> str:
    """Whose code went over the answer's budget (see :mod:`.budget`), and which bound."""
    culprit = culprit_of(rules, error)
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


def culprit_of(rules: GameRules, error: BaseException) -> Culprit | None:
    """The innermost third-party code in ``error``'s traceback and its causes': an
    ability's method or an event hook; None if there is none."""
    found: Culprit | None = None
    card: int | None = None  # the card acting, as the innermost ability saw it
    keys = rules.ability_keys
    hooks = rules.hook_plugins
    for frame in _frames(error):
        plugin = hooks.get(frame.f_code)
        if plugin is not None:
            found = Culprit(plugin, None, card)
            continue
        owner = frame.f_locals.get("self")
        if isinstance(owner, Ability) and id(owner) in keys:
            key = keys[id(owner)]
            acting = frame.f_locals.get("card")
            card = acting if type(acting) is int else None
            found = Culprit(rules.ability_plugins.get(key, "?"), key, card)
    return found


def _frames(error: BaseException) -> list[FrameType]:
    """The frames of ``error``'s traceback, outermost first, then those of what it was
    raised from (deeper: where the first one was caught), and so on."""
    frames: list[FrameType] = []
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        trace = current.__traceback__
        while trace is not None:
            frames.append(trace.tb_frame)
            trace = trace.tb_next
        current = current.__cause__ or current.__context__
    return frames
