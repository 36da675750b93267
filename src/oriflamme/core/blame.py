"""Saying which plugin's code failed, when an answer had to be taken back."""

from __future__ import annotations

from typing import Any

from .ability import Ability
from .budget import OverBudget, third_party
from .decisions import Decision
from .errors import PluginError
from .rules import GameRules


def blame(rules: GameRules, error: BaseException, decision: Decision, answer: Any) -> str:
    """One message: who failed (plugin, card, ability), how, and that nothing changed."""
    answered = f"answering {decision.family}'s {decision.kind} decision with {answer!r}"
    after = "the game is as it was before this answer"
    if isinstance(error, PluginError):  # already names the plugin (an observer, ask...)
        return f"{error}, {answered}; {after}"
    culprit = _ability_frame(rules, error)
    what = f"{type(error).__name__}: {error}"
    if culprit is None:
        return f"the engine raised {what}, {answered}; {after}"
    key, card = culprit
    plugin = rules.ability_plugins.get(key, "?")
    acting = f" (card {card} acting)" if card is not None else ""
    return f"plugin {plugin!r}: the ability of {key!r}{acting} raised {what}, {answered}; {after}"


def overrun(rules: GameRules, error: OverBudget) -> str:
    """Whose code went over the answer's budget (see :mod:`.budget`), and which bound."""
    ability = _ability_frame(rules, error)
    hook = rules.hook_plugin(error)
    if hook != "?" and _hook_innermost(rules, error):
        return f"plugin {hook!r}: an event hook went over {error.bound}"
    if ability is None and error.key is not None:
        implemented = rules.abilities.get(error.key)
        if implemented is not None and third_party(implemented):
            ability = (error.key, None)
    culprit = error.culprit
    if ability is None and culprit is not None:
        owner = id(getattr(culprit, "__self__", None))
        if owner in rules.ability_keys:
            ability = (rules.ability_keys[owner], None)
        elif hasattr(culprit, "get_hookimpls"):  # the hook caller of some observers
            plugins = sorted(
                {i.plugin_name for i in culprit.get_hookimpls() if third_party(i.function)}
            )
            return f"plugin {', '.join(plugins)!r}: an event hook went over {error.bound}"
    if ability is None:
        return f"the engine went over {error.bound}: the position cannot be played on"
    key, card = ability
    plugin = rules.ability_plugins.get(key, "?")
    acting = f" (card {card} acting)" if card is not None else ""
    return f"plugin {plugin!r}: the ability of {key!r}{acting} went over {error.bound}"


def _ability_frame(rules: GameRules, error: BaseException) -> tuple[str, int | None] | None:
    """The key and acting card of the innermost ability method in the traceback."""
    found = None
    keys = rules.ability_keys
    trace = error.__traceback__
    while trace is not None:
        local = trace.tb_frame.f_locals
        owner = local.get("self")
        if isinstance(owner, Ability) and id(owner) in keys:
            card = local.get("card")
            found = (keys[id(owner)], card if isinstance(card, int) else None)
        trace = trace.tb_next
    return found


def _hook_innermost(rules: GameRules, error: BaseException) -> bool:
    """Whether an event hook's frame is deeper in the traceback than any ability's."""
    hook = False
    keys = rules.ability_keys
    trace = error.__traceback__
    while trace is not None:
        frame = trace.tb_frame
        if frame.f_code in rules.hook_plugins:
            hook = True
        else:
            owner = frame.f_locals.get("self")
            if isinstance(owner, Ability) and id(owner) in keys:
                hook = False
        trace = trace.tb_next
    return hook
