"""Saving a game to JSON, which ``oriflamme.saves.load`` reads back, identical.

A save holds the configuration, the rules it was played with (sets, variants, plugins
and their versions), the card list and each card id's colour and key, the whole
position, where the rules are (the pending decision, its continuation, the task
stack) and the event log. It is omniscient: a save for the table, not a view for one
family. A continuation in a save may name only a registered ability's public method
or one of the engine's own steps.

Whatever :func:`dump` writes, ``oriflamme.saves.load`` reads back: both keep to :mod:`.bounds`, and
so does play (``ask`` and ``then`` refuse a value no save holds, as it is given). A
game that has grown past what a save holds (:data:`~.bounds.MAX_TEXT`,
:data:`~.bounds.MAX_EVENTS`, and :data:`~.bounds.MAX_INFLUENCE`, which a plugin's
ability may pass in play), or whose table breaks a rule of the game (plugin code may
take a card out of a hand), is refused by :func:`dump`, never written to be refused
when read.

What a loaded game may hold is derived from its card list and the rules, whatever
plugins are installed: the list is the one its configuration makes, and the game is
held to ``oriflamme.saves.check_state``; then its answers are tried on copies
(``oriflamme.saves``' ``_trial``), a plugin's own work waiting in it only if the
plugin declares it may be (the ``loadable_saves`` hook). Reading and checking a save
is ``oriflamme.saves``' job; this module only writes.
"""

from __future__ import annotations

import json
from typing import Any

from ._bounds import MAX_EVENTS, MAX_INFLUENCE, MAX_TEXT
from ._decisions import Decision, Placements
from ._errors import PositionError, SaveError
from ._events import event_to_dict
from ._legality import check_position
from ._state import PILES, State

FORMAT = "oriflamme-save"
VERSION = 2


def snapshot(state: State) -> dict[str, Any]:
    """The game as plain, JSON-ready data."""
    rules = state.rules
    identity = state.identity
    return {
        "format": FORMAT,
        "version": VERSION,
        "config": {**state.config.to_dict(), "seed": state.seed},
        "rules": {
            "sets": list(rules.sets),
            "variants": dict(rules.variants),
            "plugins": [list(p) for p in rules.plugins],
        },
        "cards": list(state.cards),
        "identity": [[c, k] for c, k in zip(identity.colours, identity.keys, strict=True)],
        "direction": state.direction,
        "recording": state.recording,
        "round": state.round,
        "phase": state.phase,
        "first": state.first,
        "placed": state.placed,
        "walk": state.walk,
        "acting": state.acting,
        "acting_gone": state.acting_gone,
        "revealing": state.revealing,
        "queue": [list(stack) for stack in state.queue],
        "up": [card for card in range(len(identity)) if state.up >> card & 1],
        "tokens": [[card, n] for card, n in state.tokens],
        "bribes": [[card, f] for card, f in enumerate(state.bribes) if f],
        **{
            zone: {f: list(cards) for f, cards in state.by_family(state.zone(zone)).items()}
            for zone in PILES
        },
        "influence": state.by_family(state.influence),
        "public": [card for card, key in enumerate(state.public) if key],
        "pending": _pending_data(state.pending),
        "resume": _listed(state.resume) if state.resume is not None else None,
        "tasks": [_listed(task) for task in state.tasks],
        "log": [event_to_dict(event) for event in state.events()],
    }


def dump(state: State) -> str:
    """The save of ``state``: JSON text that ``oriflamme.saves.load`` reads back, or a
    :class:`SaveError` if the game has grown past what a save holds."""
    data = snapshot(state)
    most = max(state.influence)
    if most > MAX_INFLUENCE:  # a plugin may give that much in play; no save holds it
        raise SaveError(
            f"this game cannot be saved: a family holds {most} Influence "
            f"(a save holds at most {MAX_INFLUENCE})"
        )
    if len(data["log"]) > MAX_EVENTS:
        raise SaveError(
            f"this game cannot be saved: its log holds {len(data['log'])} events "
            f"(a save holds at most {MAX_EVENTS})"
        )
    try:
        # What load refuses is never written: a game whose table no rule can reach
        # (plugin code may get there: a card taken out of a hand, say) is not saved.
        check_position(state, whole=True)
    except PositionError as exc:
        raise SaveError(f"this game cannot be saved: it breaks a rule of the game: {exc}") from None
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if text.isascii():
        size = len(text)
    else:
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:
            # A lone surrogate in a plugin's text cannot be UTF-8: written as an escape,
            # it is read back the same, and the save can go to a file.
            text = json.dumps(data, ensure_ascii=True, indent=1)
            size = len(text)
    if size > MAX_TEXT:
        raise SaveError(
            f"this game cannot be saved: its save would be {size} bytes "
            f"(a save holds at most {MAX_TEXT})"
        )
    return text


def _pending_data(decision: Decision | None) -> dict[str, Any] | None:
    if decision is None:
        return None
    options: Any
    if isinstance(decision.options, Placements):
        options = {"cards": list(decision.options.cards), "ats": list(decision.options.ats)}
    else:
        options = [_listed(o) for o in decision.options]
    found = {
        "family": decision.family,
        "kind": decision.kind,
        "card": decision.card,
        "options": options,
        "question": decision.question,
        "labels": list(decision.labels) if decision.labels is not None else None,
    }
    # The asking ability is the continuation's (``resume``), read back from there; the
    # other card the question is about is written only when there is one.
    if decision.subject is not None:
        found["subject"] = decision.subject
    return found


def _listed(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_listed(v) for v in value]
    return value
