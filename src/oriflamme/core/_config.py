"""A game's configuration: who plays, with which cards, from which seed, by which rules."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ._bounds import check_seed
from ._errors import ConfigError
from ._shown import short

FAMILY_PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,31}")  # whole names only: fullmatch
#: The families' colours in the boxes, in the order a new game seats them.
COLOURS = ("red", "blue", "green", "yellow", "black")
MIN_FAMILIES, MAX_FAMILIES = 3, 5  # RULINGS G1
DIRECTIONS = ("rightward", "leftward")
#: The most sets, cards in a list and variants a configuration names (and cards in a
#: game's list), and the largest ``size``: far above any real game's. A seed's bound is
#: :data:`.bounds.MAX_SEED`'s.
MAX_NAMES = 100
MAX_SIZE = 100
#: The fields of :meth:`GameConfig.to_dict`, and those it may leave out.
FIELDS = ("families", "sets", "cards", "size", "seed", "first_player", "direction", "variants")
OPTIONAL = frozenset({"cards", "size", "first_player", "direction", "variants"})


def _tuple(value: Iterable[str] | str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Iterable) or isinstance(value, Mapping):
        raise ConfigError(f"a list of names is expected, not {short(value)}")
    return tuple(value)


def _pairs(value: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    try:
        pairs = dict(value)  # a mapping, or the pairs a configuration keeps
    except (TypeError, ValueError):
        raise ConfigError(f"variants map names to values, not {short(value)}") from None
    if not all(type(name) is str for name in pairs):
        raise ConfigError(f"variant names are strings, not {short(list(pairs))}")
    return tuple(sorted(pairs.items()))


@attrs.frozen
class GameConfig:
    """What a new game is made of.

    ``families`` in seat order (clockwise); ``sets`` whose cards each family holds:
    one set's whole family, or ``size`` card types (default 10) drawn from several
    sets; or ``cards``, an explicit card list; ``seed`` for every random choice of
    setup; ``first_player`` and ``direction`` (``rightward`` or ``leftward``: which
    way the Resolution Direction tile points, for display only, RULINGS G3) are
    drawn from the seed when None; ``variants`` by name.
    """

    families: tuple[str, ...] = attrs.field(default=COLOURS[:3], converter=_tuple)
    sets: tuple[str, ...] = attrs.field(default=("base",), converter=_tuple)
    cards: tuple[str, ...] | None = attrs.field(
        default=None, converter=attrs.converters.optional(_tuple)
    )
    size: int | None = None
    seed: int = 0
    first_player: str | None = None
    direction: str | None = None
    variants: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_pairs)

    def check(self) -> None:
        """Raise :class:`ConfigError` naming the first thing that cannot make a game."""
        count = len(self.families)
        if not MIN_FAMILIES <= count <= MAX_FAMILIES:
            raise ConfigError(
                f"a game needs {MIN_FAMILIES} to {MAX_FAMILIES} families, not {count} (RULINGS G1)"
            )
        for family in self.families:
            if not isinstance(family, str) or not FAMILY_PATTERN.fullmatch(family):
                raise ConfigError(
                    f"family name {short(family)} must be a lowercase word like 'red' or 'house_2'"
                )
        if len(set(self.families)) != count:
            raise ConfigError(f"family names must differ: {', '.join(self.families)}")
        for field, names in (("sets", self.sets), ("cards", self.cards or ())):
            if len(names) > MAX_NAMES or not all(type(name) is str for name in names):
                raise ConfigError(f"{field} must be at most {MAX_NAMES} names, not {names!r:.60}")
        if self.size is not None and (type(self.size) is not int or not 1 <= self.size <= MAX_SIZE):
            raise ConfigError(
                f"size must be a whole number from 1 to {MAX_SIZE}, not {self.size!r}"
            )
        if self.first_player is not None and self.first_player not in self.families:
            raise ConfigError(
                f"first player {short(self.first_player)} is not one of the "
                f"families ({', '.join(self.families)})"
            )
        if self.direction is not None and self.direction not in DIRECTIONS:
            raise ConfigError(
                f"direction {short(self.direction)} must be one of {', '.join(DIRECTIONS)}"
            )
        check_seed(self.seed)
        if len(self.variants) > MAX_NAMES:
            raise ConfigError(f"at most {MAX_NAMES} variants, not {len(self.variants)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "families": list(self.families),
            "sets": list(self.sets),
            "cards": list(self.cards) if self.cards is not None else None,
            "size": self.size,
            "seed": self.seed,
            "first_player": self.first_player,
            "direction": self.direction,
            "variants": dict(self.variants),
        }

    @classmethod
    def from_dict(cls, data: object) -> GameConfig:
        """The configuration :meth:`to_dict` wrote (as JSON would bring it back): each
        field of its exact type (a whole number is never a bool or a float), no field
        unknown, then :meth:`check`. Anything else raises :class:`ConfigError`."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"a configuration is an object, not {short(data)}")
        for name in data:
            if name not in FIELDS:
                raise ConfigError(f"a configuration has no field {short(name)}")
        for name in FIELDS:
            if name not in data and name not in OPTIONAL:
                raise ConfigError(f"the configuration has no {name!r}")
        for name in ("families", "sets", "cards"):
            value = data.get(name)
            if name == "cards" and value is None:
                continue
            if not isinstance(value, list | tuple) or not all(type(v) is str for v in value):
                raise ConfigError(f"the configuration's {name} must be a list of names")
        for name in ("size", "seed"):
            value = data.get(name)
            if type(value) is not int and not (name == "size" and value is None):
                raise ConfigError(f"the configuration's {name} must be a whole number")
        for name in ("first_player", "direction"):
            if data.get(name) is not None and type(data.get(name)) is not str:
                raise ConfigError(f"the configuration's {name} must be a name or null")
        variants = data.get("variants", {})
        if not isinstance(variants, Mapping) or not all(
            type(name) is str and (value is None or type(value) in (str, int, bool))
            for name, value in variants.items()
        ):
            raise ConfigError("the configuration's variants must map names to plain values")
        config = cls(
            families=data["families"],
            sets=data["sets"],
            cards=data.get("cards"),
            size=data.get("size"),
            seed=data["seed"],
            first_player=data.get("first_player"),
            direction=data.get("direction"),
            variants=variants,
        )
        config.check()
        return config
