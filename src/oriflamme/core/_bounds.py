"""What a game may hold: each bound defined once, for what makes or changes a game and
for what reads one back.

Whatever the engine writes, it reads back. A game is made (a configuration, a seed the
server draws), changed (a plugin's ability passes values to ``ask`` and ``then``) and
saved; a save is read back by :mod:`oriflamme.saves`.
Each side takes its bounds from here, so that the writer refuses at once, naming the
bound, what the reader would refuse later.

* Whole numbers: :data:`MAX_INT` either side of 0 anywhere in a game (its seed, a
  variant's value, a number in a continuation's arguments or an option), so at most
  :data:`MAX_DIGITS` digits in a save.
* A continuation's arguments and an option (:func:`value_problem`): JSON values, nested
  at most :data:`MAX_ARGUMENT_DEPTH` deep, :data:`MAX_ARGUMENT_VALUES` values in all,
  :data:`MAX_VALUE_BYTES` bytes of a save; an option is an answer
  (:data:`OPTION_TYPES`), at most :data:`MAX_ARGUMENT_VALUES` of them a question, and
  a question takes at most :data:`MAX_QUESTION_BYTES` (:func:`question_problem`); at
  most :data:`MAX_TASKS` continuations waiting.
* Text the game keeps (a question, an option's words): :data:`MAX_STRING` characters.
* The table: :data:`MAX_INFLUENCE` Influence a family, :data:`MAX_TOKENS` tokens a card.
* The save as a whole: :data:`MAX_EVENTS` events, :data:`MAX_TEXT` bytes of UTF-8.

Play keeps to each of them (docs/limits.md, "Bounds in play"): the engine never passes
a bound a save or a position is read with. Influence and tokens stop at their bound
(docs/rulings.md P21, P22), and so does the log (:data:`MAX_EVENTS`); what a plugin
hands over past its bound is refused as it is handed over. :data:`MAX_TEXT` is room
for the largest game those bounds allow, so no game play makes is too big to save.

A configuration's own bounds (families, names, size) are :mod:`.config`'s, read by
``GameConfig.check`` on both sides.
"""

from __future__ import annotations

import json
import math
from typing import Final

from ._errors import ConfigError
from ._shown import short

#: The largest whole number, either side of 0, a game holds: what a JSON reader in
#: another language keeps in 64 bits. The server draws seeds below it
#: (``secrets.randbits(63)``).
MAX_INT: Final = 2**63 - 1
#: The largest seed, either side of 0.
MAX_SEED: Final = MAX_INT
#: The most digits of a number in a save: those of :data:`MAX_INT` (19). The reader
#: refuses longer numbers before converting them.
MAX_DIGITS: Final = len(str(MAX_INT))

#: The most continuations waiting at once: abilities nest a few deep.
MAX_TASKS: Final = 100
#: How deep a continuation's arguments or an option may nest, and how many values
#: they may hold (the arguments' tuple counts as one).
MAX_ARGUMENT_DEPTH: Final = 8
MAX_ARGUMENT_VALUES: Final = 1_000
#: The most bytes of a save a continuation's arguments, or one option, take (as
#: :func:`value_bytes` counts them): room for the most values, each a whole number of
#: 19 digits (40 KB as counted), or a few long words. With :data:`MAX_TASKS` of them
#: waiting, they take at most 6.3 MiB of a save.
MAX_VALUE_BYTES: Final = 64 * 1024
#: The most bytes of a save one question takes: its options, the question and each
#: option's words (:func:`question_problem`). The most options, each a list of numbers,
#: or a few hundred options each worded in a paragraph, fit.
MAX_QUESTION_BYTES: Final = 1024 * 1024

#: What an option is at its top level: an answer (``decisions.Answer``), which the engine
#: compares and keeps by its type; a list (a tuple) may hold any JSON value.
OPTION_TYPES: Final = (bool, int, str, tuple)
OPTION_WORDS: Final = "an option is true, false, a whole number, a word or a list"

#: The longest name, question, option's words or continuation's method name a game keeps.
MAX_STRING: Final = 1_000

#: The most Influence a family may hold: far above any game (the rules give a few
#: points a turn), low enough that no sum of them is ever a problem. Play stops there:
#: a family at the bound gains no more (docs/rulings.md P21).
MAX_INFLUENCE: Final = 10_000
#: The most tokens on one card (one a round, or a few from an ability). Play stops
#: there: a card at the bound kept face down takes no more (docs/rulings.md P22).
MAX_TOKENS: Final = 100

#: The most events in a save's log: a game has a few hundred, and each Plot set up
#: with a hundred tokens a few hundred more. Only an ability that asks without
#: end gets near it: the log keeps its first MAX_EVENTS events, and play goes on
#: unlogged (docs/limits.md).
MAX_EVENTS: Final = 100_000
#: The largest save, in bytes of UTF-8 (so in characters too): room for the largest
#: game the other bounds allow, so that play never makes a game too big to save
#: (tests/test_bounds_in_play.py builds one and measures it: 25 MB, 29 MB with every
#: character escaped). An event takes at most 157 bytes (100,000 of them: 15 MiB), a
#: question and the work waiting at most 7.3 MiB (:data:`MAX_QUESTION_BYTES`,
#: :data:`MAX_VALUE_BYTES`), the table, the card list and the rules (500 cards, 100
#: variants, 100 plugins) a few MiB at most. A whole game of the built-in cards takes
#: 10 to 25 KB.
MAX_TEXT: Final = 32 * 1024 * 1024

#: The words for :data:`MAX_INT`'s range, in messages.
INT_RANGE: Final = f"within ±{MAX_INT} (2**{MAX_INT.bit_length()} - 1)"


def check_seed(seed: object) -> None:
    """Raise :class:`ConfigError` unless ``seed`` is a seed a game may have (and a save hold)."""
    if type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED:
        raise ConfigError(f"seed must be a whole number {INT_RANGE}, not {_number(seed)}")


def value_problem(value: object) -> str | None:
    """What keeps ``value`` (a continuation's arguments, an option, as the game keeps
    them: lists as tuples) out of a save, said of it in the plural ("hold 1.5..."), or
    None if a save holds it: None, booleans, strings, whole numbers :data:`INT_RANGE`,
    finite other numbers, and tuples of them, at most :data:`MAX_ARGUMENT_DEPTH` deep,
    :data:`MAX_ARGUMENT_VALUES` values and :data:`MAX_VALUE_BYTES` bytes in all."""
    seen = 0
    size = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_ARGUMENT_VALUES or depth > MAX_ARGUMENT_DEPTH:
            return (
                f"are too big or too deeply nested (at most {MAX_ARGUMENT_VALUES} values, "
                f"{MAX_ARGUMENT_DEPTH} levels deep)"
            )
        size += _LINE
        if isinstance(item, tuple):
            size += _CONTAINER
            stack.extend((part, depth + 1) for part in item)
        elif type(item) is int:
            if not -MAX_INT <= item <= MAX_INT:
                return f"hold {_number(item)}: whole numbers are {INT_RANGE}"
            size += _SCALAR
        elif type(item) is float:
            if not math.isfinite(item):
                return f"hold {item}: numbers are finite"
            size += _SCALAR
        elif type(item) is str:
            size += text_bytes(item)
        elif item is None or type(item) is bool:
            size += _SCALAR
        else:
            return f"hold a {type(item).__name__}: JSON values only"
        if size > MAX_VALUE_BYTES:
            return f"take more of a save than it holds (at most {MAX_VALUE_BYTES:,} bytes)"
    return None


# What a value takes in a save, at most (value_bytes). Each value is on a line of its
# own: its indentation (a save nests an argument at most 13 levels deep, at one space
# a level), a comma and a newline. A list adds its brackets, the closing one on a line
# of its own. A number within MAX_INT is at most 20 characters, a float's at most 24,
# and true, false and null fewer.
_LINE = 16
_CONTAINER = 1 + _LINE
_SCALAR = 24


def value_bytes(value: object) -> int:
    """How many bytes of a save ``value`` (a value :func:`value_problem` accepts: a
    continuation's arguments, an option) takes at most, wherever the save holds it."""
    size = 0
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        size += _LINE
        if isinstance(item, tuple):
            size += _CONTAINER
            stack.extend(item)
        elif type(item) is str:
            size += text_bytes(item)
        else:
            size += _SCALAR
    return size


def text_bytes(text: str) -> int:
    """How many bytes of a save ``text`` takes at most, quotes included: what JSON
    writes with every character outside printable ASCII escaped (the form a save takes
    when a text holds a lone surrogate; no character takes more in UTF-8)."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return len(text) + 2
    return len(json.dumps(text))


def question_bytes(
    options: tuple[object, ...], question: str | None, words: tuple[str, ...] | None
) -> int:
    """How many bytes of a save a question takes at most: its options (as the game
    keeps them), the question and each option's words."""
    size = _LINE + (text_bytes(question) if question is not None else _SCALAR)
    for option in options:
        size += value_bytes(option)
    for said in words or ():
        size += _LINE + text_bytes(said)
    return size


def question_problem(
    options: tuple[object, ...], question: str | None, words: tuple[str, ...] | None
) -> str | None:
    """What keeps a question out of a save, said of it ("takes..."), or None if a save
    holds it: at most :data:`MAX_QUESTION_BYTES` (:func:`question_bytes`)."""
    size = question_bytes(options, question, words)
    if size > MAX_QUESTION_BYTES:
        return (
            f"takes {size:,} bytes of a save with its options and words (at most "
            f"{MAX_QUESTION_BYTES:,})"
        )
    return None


def _number(value: object) -> str:
    """``value`` for a message: a whole number of hundreds of digits by its size only
    (Python refuses to write one of more than 4,300)."""
    if type(value) is int and value.bit_length() > 100:
        return f"a whole number of {value.bit_length()} bits"
    return short(value)
