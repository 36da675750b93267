"""A value from outside, as a message shows it: an answer as its sender wrote it, cut
short and running none of its code, and how many of something there are.

Refusals (:class:`~oriflamme.IllegalAnswer`) and a plugin's errors repeat what they
were given. What they were given may be anything: huge, nested in itself, of a type
whose own ``__repr__`` or ``__eq__`` does what it likes. :func:`shown` writes it in a
bounded time without running any of it.

Values of known, plain types (JSON read from a save, a configuration's fields, a
word typed on a command line) are written by ``repr`` and cut short by the smaller
helpers here, which every message that quotes one uses: :func:`cut`, :func:`short`,
:func:`quote` and :func:`one_line`. They do not stand in for :func:`shown`: ``repr``
runs a value's own code, which an answer from a bot or a plugin must not be trusted
with. (A card file's value is written as YAML writes it: ``_yamlfile.show``.)
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import cast

from ._decisions import Placement

#: The most of an answer a refusal repeats: an answer can be any size.
SHOWN = 80
#: The largest whole number a refusal writes out (more digits than :data:`SHOWN`):
#: Python refuses to write one of more than 4,300 digits, and a long one takes long.
_WRITTEN_BITS = 4 * SHOWN
#: How deep into nested lists a refusal looks.
_SHOWN_DEPTH = 10
#: The most of a value an error names by :func:`short` (60 characters with the ``...``).
SHORT = 60
#: The most of a word from a person that :func:`quote` repeats (before its ``...``).
QUOTE = 40


def cut(text: str, most: int = SHORT) -> str:
    """``text`` if it is at most ``most`` characters long, else its start and ``...``
    (``most`` characters in all)."""
    return text if len(text) <= most else f"{text[: most - 3]}..."


def short(value: object, most: int = SHORT, *, named: tuple[type, ...] = ()) -> str:
    """``value`` as ``repr`` writes it, :func:`cut` to ``most`` characters; one of the
    types ``named`` (a list, a mapping: too long to be worth reading) only by its
    type's name."""
    return cut(type(value).__name__ if isinstance(value, named) else repr(value), most)


def quote(text: str, most: int = QUOTE) -> str:
    """``text`` quoted as ``repr`` quotes it, its first ``most`` characters only and
    then ``...``: the closing quote says where what was written stops."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def one_line(text: str, most: int) -> str:
    """``text`` on one line (each run of white space one space), :func:`cut` to
    ``most`` characters."""
    return cut(" ".join(text.split()), most)


def shown(answer: object) -> str:
    """``answer`` as the sender wrote it (as ``repr`` writes JSON values and a
    :class:`Placement`), cut short if it is long.

    However big or hostile the value, this takes a bounded time and runs none of its
    code: a whole number past :data:`SHOWN` digits is ``an int too long to show``;
    lists, tuples and dicts are written item by item only until :data:`SHOWN`
    characters are written (one that holds itself as ``[...]``); an object of another
    type is named by its type and address (``object.__repr__``), never by its own
    ``__repr__``.
    """
    parts: list[str] = []
    _write(answer, parts, [SHOWN + 1], 0, [])
    text = "".join(parts)
    return cut(text, SHOWN)


def _write(value: object, parts: list[str], left: list[int], depth: int, open_: list[int]) -> None:
    """Append ``value``'s words to ``parts`` until ``left[0]`` characters are spent."""
    if left[0] <= 0:
        return
    text: str | None = None
    if value is None or type(value) is bool:
        text = repr(value)
    elif isinstance(value, int):
        if int.bit_length(value) > _WRITTEN_BITS:
            text = f"an {'int' if type(value) is int else type(value).__name__} too long to show"
        else:
            text = int.__repr__(value)
    elif isinstance(value, float):
        text = float.__repr__(value)
    elif isinstance(value, str):
        text = str.__repr__(str.__getitem__(value, slice(0, SHOWN)))
    elif isinstance(value, bytes):
        text = bytes.__repr__(bytes.__getitem__(value, slice(0, SHOWN)))
    elif isinstance(value, list | tuple | dict | set | frozenset):
        _write_items(value, parts, left, depth, open_)
        return
    else:  # never the object's own code: it may be anything
        text = object.__repr__(value)
    parts.append(text)
    left[0] -= len(text)


Items = list[object] | tuple[object, ...] | dict[object, object] | set[object] | frozenset[object]


def _write_items(
    value: Items, parts: list[str], left: list[int], depth: int, open_: list[int]
) -> None:
    """A list, tuple, dict or set, item by item (each read as its base type reads it)."""
    opening, closing, names = _brackets(value)
    if isinstance(value, set | frozenset) and not value:
        _put("set()" if isinstance(value, set) else "frozenset()", parts, left)
        return
    if id(value) in open_ or depth >= _SHOWN_DEPTH:
        _put(f"{opening}...{closing}", parts, left)  # as repr writes a list inside itself
        return
    open_.append(id(value))
    _put(opening, parts, left)
    items = _first_items(value)
    for number, item in enumerate(items):
        if left[0] <= 0:
            break
        if number:
            _put(", ", parts, left)
        if number < len(names):
            _put(names[number], parts, left)
        if isinstance(value, dict):
            key, entry = cast(tuple[object, object], item)
            _write(key, parts, left, depth + 1, open_)
            _put(": ", parts, left)
            _write(entry, parts, left, depth + 1, open_)
        else:
            _write(item, parts, left, depth + 1, open_)
    if type(value) is tuple and len(items) == 1:
        _put(",", parts, left)
    _put(closing, parts, left)
    open_.pop()


def _put(text: str, parts: list[str], left: list[int]) -> None:
    parts.append(text)
    left[0] -= len(text)


def _brackets(value: Items) -> tuple[str, str, tuple[str, ...]]:
    """How ``repr`` opens and closes ``value``, and names its first items."""
    if type(value) is Placement:
        return "Placement(", ")", ("card=", "at=")
    if isinstance(value, list):
        return "[", "]", ()
    if isinstance(value, tuple):
        return "(", ")", ()
    if isinstance(value, frozenset):
        return "frozenset({", "})", ()
    return "{", "}", ()


def _first_items(value: Items) -> list[object]:
    """The first items of ``value`` that a refusal may show (a dict's as pairs), read
    by the base type's own methods: a subclass's code never runs, no key is hashed."""
    count = SHOWN // 2
    if isinstance(value, dict):
        members: Iterator[object] = iter(dict.items(value))
    elif isinstance(value, set):
        members = set.__iter__(value)
    elif isinstance(value, frozenset):
        members = frozenset.__iter__(value)
    elif isinstance(value, list):
        return list.__getitem__(value, slice(0, count))
    else:
        return list(tuple.__getitem__(value, slice(0, count)))
    return list(islice(members, count))


def indices(count: int, noun: str = "position") -> str:
    """How many ``noun`` and their indices from 0, for a refusal programs read:
    ``no positions``, ``1 position (0)``, ``3 positions (0 to 2)``."""
    if count <= 0:
        return f"no {noun}s"
    if count == 1:
        return f"1 {noun} (0)"
    return f"{count} {noun}s (0 to {count - 1})"
