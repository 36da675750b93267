"""What a continuation may carry: values that survive a save and a clone unchanged,
within the bounds a save is read back with (:func:`.bounds.value_problem`)."""

from __future__ import annotations

import math
from typing import Any

from ._bounds import MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_VALUES, MAX_INT, value_problem
from ._errors import PluginError
from ._shown import shown

_SCALARS = (str, bool, type(None))
#: What value_problem says of values past its bounds.
TOO_BIG = (
    f"are too big or too deeply nested (at most {MAX_ARGUMENT_VALUES} values, "
    f"{MAX_ARGUMENT_DEPTH} levels deep)"
)


def saveable(values: tuple[Any, ...], key: str, method: str) -> tuple[Any, ...]:
    """``values`` (the arguments of ability ``key``'s ``method``) as immutable, JSON-ready
    data; a :class:`PluginError` naming the first that is not (a set, an object...), or
    the bound they pass (a whole number past 2**63 - 1, too many, too deeply nested)."""
    # The common case, checked here at no cost: a few card ids, families, counts.
    # The arguments' tuple counts as one value (see .bounds).
    if len(values) < MAX_ARGUMENT_VALUES:
        for value in values:
            if type(value) is int:
                if not -MAX_INT <= value <= MAX_INT:
                    break
            elif type(value) not in _SCALARS:
                break
        else:
            return values
    what = f"the arguments of {key}.{method}"
    left = [MAX_ARGUMENT_VALUES]  # copied no further than a save holds: see _frozen
    frozen = tuple(_frozen(value, what, 1, left) for value in values)
    problem = value_problem(frozen)
    if problem is not None:
        raise PluginError(f"{what} cannot be saved: they {problem}")
    return frozen


def _frozen(value: Any, what: str, depth: int, left: list[int]) -> Any:
    # ``left[0]``: the values a save still holds. A list that holds one big list many
    # times over is refused once past it, never copied whole: that could take all the
    # memory there is.
    left[0] -= 1
    if left[0] < 0:
        raise PluginError(f"{what} cannot be saved: they {TOO_BIG}")
    if type(value) in _SCALARS or type(value) is int:
        return value
    if type(value) is float and math.isfinite(value):
        return value
    if type(value) in (tuple, list):
        if depth > MAX_ARGUMENT_DEPTH:
            return value  # too deep to save: value_problem says so, and nothing recurses further
        return tuple(_frozen(item, what, depth + 1, left) for item in value)
    raise PluginError(
        f"{what} must be saveable (None, booleans, numbers, strings, and lists or "
        f"tuples of them), not {type(value).__name__} {shown(value)}"
    )
