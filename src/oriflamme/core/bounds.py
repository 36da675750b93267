"""What a game may hold: each bound defined once, for what makes or changes a game and
for what reads one back.

Whatever the engine writes, it reads back. A game is made (a configuration, a seed the
server draws), changed (a plugin's ability passes values to ``ask`` and ``then``) and
saved; a save is read back by :mod:`.saves`, :mod:`.savefields` and :mod:`.control`.
Each side takes its bounds from here, so that the writer refuses at once, naming the
bound, what the reader would refuse later.

* Whole numbers: :data:`MAX_INT` either side of 0 anywhere in a game (its seed, a
  variant's value, a number in a continuation's arguments or an option), so at most
  :data:`MAX_DIGITS` digits in a save.
* A continuation's arguments and an option (:func:`value_problem`): JSON values, nested
  at most :data:`MAX_ARGUMENT_DEPTH` deep, :data:`MAX_ARGUMENT_VALUES` values in all;
  an option is an answer (:data:`OPTION_TYPES`), at most :data:`MAX_ARGUMENT_VALUES` of
  them a question; at most :data:`MAX_TASKS` continuations waiting.
* Text the game keeps (a question, an option's words): :data:`MAX_STRING` characters.
* The table: :data:`MAX_INFLUENCE` Influence a family, :data:`MAX_TOKENS` tokens a card.
* The save as a whole: :data:`MAX_TEXT` bytes of UTF-8, :data:`MAX_EVENTS` events.

What cannot be checked as one value is given (a game's whole size, its log, the
Influence plugins' abilities add up to) is checked when the game is saved: such a
game is refused then, never written to be refused when read.

A configuration's own bounds (families, names, size) are :mod:`.config`'s, read by
``GameConfig.check`` on both sides.
"""

from __future__ import annotations

import math
from typing import Final

from .errors import ConfigError

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

#: What an option is at its top level: an answer (``decisions.Answer``), which the engine
#: compares and keeps by its type; a list (a tuple) may hold any JSON value.
OPTION_TYPES: Final = (bool, int, str, tuple)
OPTION_WORDS: Final = "an option is true, false, a whole number, a word or a list"

#: The longest name, question or option's words a game keeps.
MAX_STRING: Final = 1_000

#: The most Influence a family may hold: far above any game (the rules give a few
#: points a turn), low enough that no sum of them is ever a problem.
MAX_INFLUENCE: Final = 10_000
#: The most tokens on one card (one a round, or a few from an ability).
MAX_TOKENS: Final = 100

#: The largest save, in bytes of UTF-8 (so in characters too): a whole game's log is
#: a few hundred KB.
MAX_TEXT: Final = 16 * 1024 * 1024
#: The most events in a save's log: a game has a few hundred.
MAX_EVENTS: Final = 100_000

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
    finite other numbers, and tuples of them, at most :data:`MAX_ARGUMENT_DEPTH` deep
    and :data:`MAX_ARGUMENT_VALUES` values in all."""
    seen = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_ARGUMENT_VALUES or depth > MAX_ARGUMENT_DEPTH:
            return (
                f"are too big or too deeply nested (at most {MAX_ARGUMENT_VALUES} values, "
                f"{MAX_ARGUMENT_DEPTH} levels deep)"
            )
        if isinstance(item, tuple):
            stack.extend((part, depth + 1) for part in item)
        elif type(item) is int:
            if not -MAX_INT <= item <= MAX_INT:
                return f"hold {_number(item)}: whole numbers are {INT_RANGE}"
        elif type(item) is float:
            if not math.isfinite(item):
                return f"hold {item}: numbers are finite"
        elif item is not None and type(item) not in (str, bool):
            return f"hold a {type(item).__name__}: JSON values only"
    return None


def _number(value: object) -> str:
    """``value`` for a message: a whole number of hundreds of digits by its size only
    (Python refuses to write one of more than 4,300)."""
    if type(value) is int and value.bit_length() > 100:
        return f"a whole number of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."
