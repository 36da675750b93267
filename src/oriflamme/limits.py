"""The bounds the engine keeps (docs/limits.md): how many families, how long a name,
how much Influence, how large a save, a question or a continuation's arguments.

A value past one of them is refused with an error naming the bound, never cut short
in silence; :func:`value_problem` and :func:`question_problem` say what a plugin's
value or question would be refused for before it is handed over.
"""

from .core import (
    MAX_ARGUMENT_DEPTH,
    MAX_EVENTS,
    MAX_FAMILIES,
    MAX_INFLUENCE,
    MAX_INT,
    MAX_KEY,
    MAX_NAMES,
    MAX_QUESTION_BYTES,
    MAX_SEED,
    MAX_SIZE,
    MAX_STRING,
    MAX_TASKS,
    MAX_TEXT,
    MAX_TOKENS,
    MAX_VALUE_BYTES,
    MAX_VARIANT_INT,
    MAX_VARIANT_TEXT,
    MIN_FAMILIES,
    question_bytes,
    question_problem,
    value_bytes,
    value_problem,
)

__all__ = [
    "MAX_ARGUMENT_DEPTH",
    "MAX_EVENTS",
    "MAX_FAMILIES",
    "MAX_INFLUENCE",
    "MAX_INT",
    "MAX_KEY",
    "MAX_NAMES",
    "MAX_QUESTION_BYTES",
    "MAX_SEED",
    "MAX_SIZE",
    "MAX_STRING",
    "MAX_TASKS",
    "MAX_TEXT",
    "MAX_TOKENS",
    "MAX_VALUE_BYTES",
    "MAX_VARIANT_INT",
    "MAX_VARIANT_TEXT",
    "MIN_FAMILIES",
    "question_bytes",
    "question_problem",
    "value_bytes",
    "value_problem",
]
