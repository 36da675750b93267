"""Saving a game to JSON and loading it back, identical.

A save holds the configuration, the rules it was played with (sets, variants, plugins
and their versions), the card list and each card id's colour and key, the whole
position, where the rules are (the pending decision, its continuation, the task
stack) and the event log. It is omniscient: a save for the table, not a view for one
family. A continuation in a save may name only a registered ability's public method
or one of the engine's own steps.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .config import GameConfig
from .decisions import REVEAL_OPTIONS, Continuation, Decision, Placements
from .engine import STEPS
from .errors import OriflammeError, SaveError
from .events import event_from_dict, event_to_dict
from .identity import NO_CARD, Identity
from .rules import GameRules
from .state import PILES, State, logged

if TYPE_CHECKING:
    from .plugins import Registry

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
    return json.dumps(snapshot(state), ensure_ascii=False, indent=1)


def load(text: str, registry: Registry, *, allow_other_versions: bool = False) -> State:
    """Rebuild a game from :func:`dump`'s text; a bad or foreign save raises :class:`SaveError`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"not a saved game: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a saved game: the 'format' field is missing or wrong")
    if data.get("version") != VERSION:
        raise SaveError(
            f"saved game version {data.get('version')!r} is not supported "
            f"(this engine reads version {VERSION})"
        )
    try:
        return _rebuild(data, registry, allow_other_versions)
    except SaveError:
        raise
    except OriflammeError as exc:
        raise SaveError(f"the saved game cannot be played here: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SaveError(f"the saved game is damaged: {type(exc).__name__}: {exc}") from None


def _check_plugins(saved: list[list[str]], registry: Registry, allow_other_versions: bool) -> None:
    installed = {p.name: p for p in registry.plugins}
    for name, distribution, version in saved:
        label = f"{distribution} {version}" if distribution else "registered by hand"
        here = installed.get(name)
        if here is None:
            raise SaveError(
                f"this game was saved with plugin {name!r} ({label}), which is "
                "not installed here (or was left out)"
            )
        if here.version != version and not allow_other_versions:
            raise SaveError(
                f"this game was saved with plugin {name!r} version {version}; "
                f"version {here.version} is installed here. Its rules may have "
                "changed: load with allow_other_versions=True to try anyway"
            )


def _rebuild(data: dict[str, Any], registry: Registry, allow_other_versions: bool) -> State:
    saved_rules = data["rules"]
    _check_plugins(saved_rules["plugins"], registry, allow_other_versions)
    config = GameConfig.from_dict(data["config"])
    cards = tuple(data["cards"])
    rules = registry.rules(tuple(saved_rules["sets"]), dict(config.variants), extra=cards)
    for name, value in saved_rules["variants"].items():
        if name in rules.variants and rules.variants[name] != value:
            raise SaveError(
                f"variant {name!r} was {value!r} when this game was saved, and "
                f"is {rules.variants[name]!r} here"
            )
    identity = Identity(*zip(*data["identity"], strict=True)) if data["identity"] else None
    if identity is None:
        identity = Identity((), ())
    for key in set(identity.keys) | set(data["cards"]):
        if key not in rules.definitions:
            raise SaveError(f"card {key!r}: no installed set provides it")
    state = State.empty(
        rules,
        config,
        identity,
        cards=tuple(data["cards"]),
        direction=data["direction"],
        recording=bool(data["recording"]),
    )
    state.round = data["round"]
    state.phase = data["phase"]
    state.first = data["first"]
    state.placed = data["placed"]
    state.walk = data["walk"]
    state.acting = data["acting"]
    state.acting_gone = data["acting_gone"]
    state.revealing = data["revealing"]
    state.queue = tuple(tuple(stack) for stack in data["queue"])
    state.up = sum(1 << card for card in data["up"])
    state.set_cards(
        dict(data["tokens"]),
        dict(data["bribes"]),
        {card: identity.keys[card] for card in data["public"]},
    )
    for zone in PILES:
        piles = data[zone]
        if set(piles) != set(config.families):
            raise SaveError(f"the saved {zone} name other families than the game's")
        state.set_zone(zone, tuple(tuple(piles[f]) for f in config.families))
    influence = data["influence"]
    if set(influence) != set(config.families):
        raise SaveError("the saved Influence names other families than the game's")
    state.influence = state.by_seat(influence, 0)
    state.pending = _pending_from(data["pending"], rules)
    count = len(identity)
    resume = data["resume"]
    state.resume = _continuation(resume, rules, count) if resume is not None else None
    state.tasks = tuple(_continuation(task, rules, count) for task in data["tasks"])
    state.log = logged(event_from_dict(record) for record in data["log"])
    if not state.recording:
        state.log = None
    pending = state.pending
    if pending is not None and pending.kind not in ("place", "reveal") and state.resume is None:
        raise SaveError(f"the pending {pending.kind} decision has no continuation")
    if state.acting != NO_CARD and not 0 <= state.acting < count:
        raise SaveError(f"the acting card {state.acting} is not a card of this game")
    card = pending.card if pending is not None else None
    if card is not None and not (type(card) is int and 0 <= card < count):
        raise SaveError(f"the pending decision is about card {card!r}, not a card of this game")
    return state


def _pending_data(decision: Decision | None) -> dict[str, Any] | None:
    if decision is None:
        return None
    options: Any
    if isinstance(decision.options, Placements):
        options = {"cards": list(decision.options.cards), "ats": list(decision.options.ats)}
    else:
        options = [_listed(o) for o in decision.options]
    return {
        "family": decision.family,
        "kind": decision.kind,
        "card": decision.card,
        "options": options,
        "question": decision.question,
        "labels": list(decision.labels) if decision.labels is not None else None,
    }


def _pending_from(data: dict[str, Any] | None, rules: GameRules) -> Decision | None:
    if data is None:
        return None
    kind = data["kind"]
    if kind not in rules.kinds:
        raise SaveError(f"the saved game waits on a {kind!r} decision, which no plugin provides")
    options: Any
    if kind == "place":
        options = Placements(tuple(data["options"]["cards"]), tuple(data["options"]["ats"]))
    elif kind == "reveal":
        options = REVEAL_OPTIONS
    else:
        options = tuple(_tupled(o) for o in data["options"])
    labels = data.get("labels")
    return Decision(
        data["family"],
        kind,
        options,
        data["card"],
        data.get("question"),
        tuple(labels) if labels is not None else None,
    )


def _continuation(data: list[Any], rules: GameRules, cards: int) -> Continuation:
    key, name, card, args = data
    if not isinstance(name, str) or type(card) is not int or not 0 <= card < cards:
        raise SaveError(f"the saved continuation {data!r} does not name a card of this game")
    if key is None:
        if name not in STEPS:
            raise SaveError(f"the saved game continues with {name!r}, not a step of the engine")
    else:
        ability = rules.abilities.get(key)
        method = getattr(type(ability), name, None) if ability is not None else None
        if method is None or name.startswith("_") or not callable(method):
            raise SaveError(
                f"the saved game continues with {key}.{name}, which is not a method of a "
                "registered ability"
            )
    return (key, name, card, _tupled(args))


def _listed(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_listed(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value
