"""Saving a game to JSON and loading it back, identical.

A save holds the configuration, the rules it was played with (sets, card list,
variants, plugins and their versions), the whole position, the pending decision
with its continuation, the task stack and the event log. It is omniscient: it
is a save for the table, not a view for one family.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .config import GameConfig
from .decisions import REVEAL_OPTIONS, Continuation, Decision, Placement, Placements
from .errors import OriflammeError, SaveError
from .state import PILES

if TYPE_CHECKING:
    from .game import Game
    from .plugins import Registry

FORMAT = "oriflamme-save"
VERSION = 1


def snapshot(game: Game) -> dict[str, Any]:
    """The game as plain, JSON-ready data."""
    rules = game.rules
    return {
        "format": FORMAT,
        "version": VERSION,
        "config": game.config.to_dict(),
        "rules": {
            "sets": list(rules.sets),
            "cards": list(rules.cards),
            "variants": dict(rules.variants),
            "plugins": [list(p) for p in rules.plugins],
        },
        "cards": sorted(game.key_of),
        "direction": game.direction,
        "round": game.round,
        "phase": game.phase,
        "first": game.first,
        "placed": game.placed,
        "walk": game.walk,
        "acting": game.acting,
        "acting_gone": game.acting_gone,
        "revealing": game.revealing,
        "queue": [list(stack) for stack in game.queue],
        "up": sorted(game.up),
        "tokens": dict(sorted(game.tokens.items())),
        "bribes": dict(sorted(game.bribes.items())),
        **{zone: {f: list(cards) for f, cards in game.pile(zone).items()} for zone in PILES},
        "influence": dict(game.influence),
        "pending": _pending_data(game.pending, game.resume),
        "tasks": [_listed(task) for task in game.tasks],
        "log": [_listed(record) for record in game.log],
    }


def dump(game: Game) -> str:
    return json.dumps(snapshot(game), ensure_ascii=False, indent=1)


def load(
    cls: type[Game], text: str, registry: Registry, *, allow_other_versions: bool = False
) -> Game:
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
        return _rebuild(cls, data, registry, allow_other_versions)
    except SaveError:
        raise
    except OriflammeError as exc:
        raise SaveError(f"the saved game cannot be played here: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
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


def _rebuild(
    cls: type[Game], data: dict[str, Any], registry: Registry, allow_other_versions: bool
) -> Game:
    saved_rules = data["rules"]
    _check_plugins(saved_rules["plugins"], registry, allow_other_versions)
    config = GameConfig.from_dict(data["config"])
    rules = registry.rules(saved_rules["cards"], saved_rules["sets"], dict(config.variants))
    for name, value in saved_rules["variants"].items():
        if name in rules.variants and rules.variants[name] != value:
            raise SaveError(
                f"variant {name!r} was {value!r} when this game was saved, and "
                f"is {rules.variants[name]!r} here"
            )
    game = cls.blank(rules, config, direction=data["direction"])
    for card in data["cards"]:
        family, key = card.split(".")[:2]
        game.family_of[card] = family
        game.key_of[card] = key
        if key not in rules.definitions:
            raise SaveError(f"card {card}: no installed set provides {key!r}")
    game.round = data["round"]
    game.phase = data["phase"]
    game.first = data["first"]
    game.placed = data["placed"]
    game.walk = data["walk"]
    game.acting = data["acting"]
    game.acting_gone = data["acting_gone"]
    game.revealing = data["revealing"]
    game.queue = [tuple(stack) for stack in data["queue"]]
    game.up = set(data["up"])
    game.tokens = dict(data["tokens"])
    game.bribes = dict(data["bribes"])
    for zone in PILES:
        setattr(game, zone, {f: tuple(cards) for f, cards in data[zone].items()})
    game.influence = dict(data["influence"])
    game.pending, game.resume = _pending_from(data["pending"], rules.abilities)
    game.tasks = [_task_from(task, rules.abilities) for task in data["tasks"]]
    game.log = [_tupled(record) for record in data["log"]]
    return game


def _pending_data(decision: Decision | None, resume: Continuation | None) -> dict[str, Any] | None:
    if decision is None:
        return None
    options: Any
    if isinstance(decision.options, Placements):
        options = {"cards": list(decision.options.cards), "ats": list(decision.options.ats)}
    else:
        options = list(decision.options)
    return {
        "family": decision.family,
        "kind": decision.kind,
        "card": decision.card,
        "options": options,
        "then": _listed(resume) if resume else None,
    }


def _pending_from(
    data: dict[str, Any] | None, abilities: Any
) -> tuple[Decision | None, Continuation | None]:
    if data is None:
        return None, None
    kind = data["kind"]
    options: Any
    if kind == "place":
        options = Placements(tuple(data["options"]["cards"]), tuple(data["options"]["ats"]))
    elif kind == "reveal":
        options = REVEAL_OPTIONS
    else:
        options = tuple(Placement(*o) if isinstance(o, list) else o for o in data["options"])
    then = _task_from(data["then"], abilities) if data["then"] is not None else None
    return Decision(data["family"], kind, options, data["card"]), then


def _task_from(data: list[Any], abilities: Any) -> Any:
    key, name, card, args = data
    if key is not None and (key not in abilities or not hasattr(abilities[key], name)):
        raise SaveError(
            f"the saved game waits on {key}.{name}, which the installed plugins do not provide"
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
