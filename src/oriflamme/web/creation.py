"""Reading a request to create a game (``POST /api/games``) into a :class:`Request`.

Every field is checked for its exact JSON type; anything wrong raises
:class:`~oriflamme.ConfigError` naming the field and what was expected. What the
engine checks (families, sets, cards, variants) it checks itself, when the game is made.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from oriflamme import COLOURS, ConfigError, GameConfig
from oriflamme.limits import MAX_FAMILIES, MAX_NAMES, MIN_FAMILIES
from oriflamme.text import quote

FIELDS = (
    "families",
    "sets",
    "size",
    "cards",
    "variants",
    "seed",
    "without",
    "bots",
    "first_player",
)


@attrs.frozen
class Request:
    """A game to create: its configuration (seed drawn if none was given), the plugins
    left out, and the bot kind of each family that is not a person's."""

    config: GameConfig
    without: tuple[str, ...]
    bots: Mapping[str, str]

    def to_dict(self) -> dict[str, Any]:
        """As stored with the game (never sent to anyone: it holds the seed)."""
        return {
            "config": self.config.to_dict(),
            "without": list(self.without),
            "bots": dict(self.bots),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Request:
        return cls(GameConfig.from_dict(data["config"]), tuple(data["without"]), data["bots"])


def read_request(
    body: object,
    optional_plugins: list[str],
    check_bot: Callable[[object, str], str],
) -> Request:
    """The request ``body`` (parsed JSON) asks for. ``optional_plugins`` are those
    ``without`` may name; ``check_bot(kind, family)`` returns a known bot kind or raises."""
    if not isinstance(body, dict):
        raise ConfigError(f"the request must be a JSON object, not {_kind(body)}")
    for name in body:
        if name not in FIELDS:
            raise ConfigError(f"unknown field {quote(str(name))} (known: {', '.join(FIELDS)})")
    if "families" not in body:
        raise ConfigError("families is required: a count (3 to 5) or a list of family names")
    families = _families(body["families"])
    sets = _names(body, "sets", ["base"])
    cards = _names(body, "cards", None)
    size = _whole(body, "size", None)
    seed = _whole(body, "seed", None)
    if seed is None:
        seed = secrets.randbits(63)  # never sent: a client could predict the deal
    variants = body.get("variants", {})
    if variants is None:
        variants = {}
    if not isinstance(variants, dict) or not all(
        type(value) in (str, int, bool) for value in variants.values()
    ):
        raise ConfigError(
            "variants must be an object of variant names to words, numbers or true/false"
        )
    without = _names(body, "without", []) or []
    for name in without:
        if name not in optional_plugins:
            known = ", ".join(optional_plugins) or "none is installed"
            raise ConfigError(
                f"without: {quote(name)} is not a plugin that can be left out ({known})"
            )
    first = body.get("first_player")
    if first is not None and (type(first) is not str or first not in families):
        raise ConfigError(
            f"first_player must be one of the families ({', '.join(families)}) or null"
        )
    bots = body.get("bots", {})
    if bots is None:
        bots = {}
    if not isinstance(bots, dict):
        raise ConfigError("bots must be an object of family names to bot kinds")
    for family in bots:
        if family not in families:
            raise ConfigError(
                f"bots: {quote(str(family))} is not a family of this game ({', '.join(families)})"
            )
    config = GameConfig(
        families=tuple(families),
        sets=tuple(sets or ()),
        cards=tuple(cards) if cards is not None else None,
        size=size,
        seed=seed,
        first_player=first,
        variants=variants,
    )
    config.check()
    chosen = {family: check_bot(kind, family) for family, kind in bots.items()}
    return Request(config, tuple(dict.fromkeys(without)), chosen)


def _families(value: object) -> list[str]:
    if type(value) is int:
        if not MIN_FAMILIES <= value <= MAX_FAMILIES:
            raise ConfigError(
                f"families: a game needs {MIN_FAMILIES} to {MAX_FAMILIES}, not {value}"
            )
        return list(COLOURS[:value])
    if not isinstance(value, list) or not all(type(name) is str for name in value):
        raise ConfigError("families must be a count (3 to 5) or a list of family names")
    if not MIN_FAMILIES <= len(value) <= MAX_FAMILIES:
        raise ConfigError(
            f"families: a game needs {MIN_FAMILIES} to {MAX_FAMILIES}, not {len(value)}"
        )
    return value


def _names(body: Mapping[str, Any], field: str, default: list[str] | None) -> list[str] | None:
    value = body.get(field, default)
    if value is None:
        return default
    if (
        not isinstance(value, list)
        or len(value) > MAX_NAMES
        or not all(type(name) is str for name in value)
    ):
        raise ConfigError(f"{field} must be a list of at most {MAX_NAMES} names, or null")
    return value


def _whole(body: Mapping[str, Any], field: str, default: int | None) -> int | None:
    value = body.get(field, default)
    if value is not None and type(value) is not int:
        raise ConfigError(f"{field} must be a whole number or null, not {_kind(value)}")
    return value


def _kind(value: object) -> str:
    names = {
        dict: "an object",
        list: "a list",
        str: "a text",
        bool: "true/false",
        float: "a number",
    }
    return "null" if value is None else names.get(type(value), "a number")
