"""Rules variants: named options of a game's configuration, declared by plugins."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from ._errors import ConfigError

VariantValue = str | bool | int


@attrs.frozen
class Variant:
    """A rules option: its ``name``, allowed ``values``, ``default`` and one line of help."""

    name: str
    values: tuple[VariantValue, ...]
    default: VariantValue
    help: str
    plugin: str = ""

    def __attrs_post_init__(self) -> None:
        if self.default not in self.values:
            raise ValueError(
                f"variant {self.name!r}: default {self.default!r} "
                f"is not one of its values {self.values!r}"
            )

    def parse(self, raw: object) -> VariantValue:
        """The value ``raw`` stands for: the value itself, or its text (``true``, ``revised``)."""
        for value in self.values:
            if type(raw) is type(value) and raw == value:
                return value
        if isinstance(raw, str):
            for value in self.values:
                if _text(value) == raw.strip().lower():
                    return value
        allowed = ", ".join(_text(v) for v in self.values)
        raise ConfigError(f"variant {self.name!r} cannot be {raw!r}: expected one of {allowed}")


def _text(value: VariantValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def resolve_variants(
    declared: Mapping[str, Variant], chosen: Mapping[str, object]
) -> dict[str, VariantValue]:
    """Every declared variant's value: the chosen one, checked, or its default."""
    unknown = sorted(set(chosen) - set(declared))
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise ConfigError(f"unknown variant {unknown[0]!r} (known variants: {known})")
    values = {name: variant.default for name, variant in declared.items()}
    for name, raw in chosen.items():
        values[name] = declared[name].parse(raw)
    return values
