"""Saying which plugin's code failed, when an answer had to be taken back."""

from __future__ import annotations

from typing import Any

from .ability import Ability
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
