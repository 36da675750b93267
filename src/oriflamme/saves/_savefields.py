"""The fields of a saved game, read by type.

A save is JSON anyone may have written. Each field is read as the type it must be
(a whole number is an int, never a bool, a float or NaN) and within its bounds, or
a :class:`SaveError` names the field by its path (``queue[2][0]``, ``influence.red``)
and what was expected. The bounds are :mod:`.bounds`'s, shared with what makes and
changes a game; those of the rules themselves are :mod:`.legality`'s.
"""

from __future__ import annotations

from typing import Any

from ..core._bounds import MAX_STRING, value_problem
from ..core._errors import SaveError
from ..core._identity import CardId
from ..core._shown import short as _short


def short(value: object) -> str:
    """``value`` for a message: cut short, and a list or an object only named."""
    return _short(value, named=(dict, list))


class Fields:
    """A JSON object of a save, read field by field: each value of the type expected,
    or a SaveError naming the field's path (``queue[2][0]``) and what was expected."""

    def __init__(self, data: object, path: str) -> None:
        if not isinstance(data, dict):
            raise SaveError(f"the saved {path or 'game'} must be an object, not {short(data)}")
        self.data: dict[str, Any] = data
        self.path = path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise SaveError(f"the saved game has no {self.at(key)!r}")
        return self.data[key]

    def fields(self, key: str) -> Fields:
        return Fields(self.get(key), self.at(key))

    def integer(self, key: str, low: int, high: int) -> int:
        return read_int(self.get(key), self.at(key), low, high)

    def string(self, key: str) -> str:
        return read_str(self.get(key), self.at(key))

    def boolean(self, key: str) -> bool:
        value = self.get(key)
        if type(value) is not bool:
            raise SaveError(f"the saved {self.at(key)} must be true or false, not {short(value)}")
        return value

    def items(self, key: str, most: int) -> list[Any]:
        return read_list(self.get(key), self.at(key), most)


def read_int(value: object, path: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise SaveError(
            f"the saved {path} must be a whole number from {low} to {high}, not {short(value)}"
        )
    return value


def read_str(value: object, path: str) -> str:
    if type(value) is not str or len(value) > MAX_STRING:
        raise SaveError(f"the saved {path} must be a short string, not {short(value)}")
    return value


def read_list(value: object, path: str, most: int) -> list[Any]:
    if type(value) is not list or len(value) > most:
        raise SaveError(f"the saved {path} must be a list of at most {most}, not {short(value)}")
    return value


def read_pair(value: object, path: str) -> tuple[Any, Any]:
    items = read_list(value, path, 2)
    if len(items) != 2:
        raise SaveError(f"the saved {path} must be a pair, not {short(value)}")
    return items[0], items[1]


def read_strings(value: object, path: str, most: int) -> tuple[str, ...]:
    return tuple(
        read_str(item, f"{path}[{i}]") for i, item in enumerate(read_list(value, path, most))
    )


def read_cards(value: object, path: str, count: int) -> tuple[CardId, ...]:
    items = read_list(value, path, max(count, 1))
    return tuple(read_int(item, f"{path}[{i}]", 0, count - 1) for i, item in enumerate(items))


def read_value(value: object, path: str) -> Any:
    """A JSON value made of tuples, as the engine keeps it, within the bounds of
    :func:`.bounds.value_problem` (those ``ask`` and ``then`` keep to)."""
    result = _tupled(value)
    problem = value_problem(result)
    if problem is not None:
        raise SaveError(f"the saved {path} {problem}")
    return result


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value
