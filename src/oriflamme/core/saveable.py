"""What a continuation may carry: values that survive a save and a clone unchanged."""

from __future__ import annotations

import math
from typing import Any

from .errors import PluginError

_SCALARS = (str, int, bool, type(None))


def saveable(values: tuple[Any, ...], key: str, method: str) -> tuple[Any, ...]:
    """``values`` (the arguments of ability ``key``'s ``method``) as immutable, JSON-ready
    data; a :class:`PluginError` naming the first that is not (a set, an object...)."""
    for value in values:
        if type(value) not in _SCALARS:
            what = f"the arguments of {key}.{method}"
            return tuple(_frozen(value, what) for value in values)
    return values  # the common case: card ids, families, counts


def _frozen(value: Any, what: str) -> Any:
    if type(value) in _SCALARS:
        return value
    if type(value) is float and math.isfinite(value):
        return value
    if type(value) in (tuple, list):
        return tuple(_frozen(item, what) for item in value)
    raise PluginError(
        f"{what} must be saveable (None, booleans, numbers, strings, and lists or "
        f"tuples of them), not {type(value).__name__} {value!r}"
    )
