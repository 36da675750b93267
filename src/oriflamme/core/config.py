"""A game's configuration: who plays, with which cards, from which seed, by which rules."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from .errors import ConfigError

FAMILY_PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,31}")  # whole names only: fullmatch
#: The families' colours in the boxes, in the order a new game seats them.
COLOURS = ("red", "blue", "green", "yellow", "black")
MIN_FAMILIES, MAX_FAMILIES = 3, 5  # RULINGS G1
DIRECTIONS = ("rightward", "leftward")


def _tuple(value: Sequence[str] | str) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _pairs(value: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(dict(value).items()))


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
                    f"family name {family!r} must be a lowercase word like 'red' or 'house_2'"
                )
        if len(set(self.families)) != count:
            raise ConfigError(f"family names must differ: {', '.join(self.families)}")
        if self.first_player is not None and self.first_player not in self.families:
            raise ConfigError(
                f"first player {self.first_player!r} is not one of the "
                f"families ({', '.join(self.families)})"
            )
        if self.direction is not None and self.direction not in DIRECTIONS:
            raise ConfigError(
                f"direction {self.direction!r} must be one of {', '.join(DIRECTIONS)}"
            )
        if type(self.seed) is not int:
            raise ConfigError(f"seed must be an integer, not {self.seed!r}")

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
    def from_dict(cls, data: Mapping[str, Any]) -> GameConfig:
        return cls(
            families=data["families"],
            sets=data["sets"],
            cards=data.get("cards"),
            size=data.get("size"),
            seed=data["seed"],
            first_player=data.get("first_player"),
            direction=data.get("direction"),
            variants=data.get("variants", {}),
        )
