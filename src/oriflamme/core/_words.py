"""Words are data: the characters a game's words may hold, and how words are shown.

Words reach a game from many hands: card files (:mod:`.yamlfile`), a plugin's
questions and labels (:mod:`.questions`), a save, the network. Printed as they are,
some characters are orders to the terminal, not words: ESC starts a sequence that
clears the screen, colours the text or sets the window's title; NUL, BEL, a carriage
return and the C1 controls (CSI is one) do the like; a bidi override or isolate
reorders what is shown, so that it reads otherwise than it is. So:

* :func:`control_problem` says what keeps a word out of a game: a control character
  (C0, DEL, C1), a line or paragraph separator, a bidi embedding, override or
  isolate (U+202A to U+202E, U+2066 to U+2069) or a lone surrogate (no UTF-8 can
  hold it). A newline is allowed only where a text may run over several lines.
* :func:`escaped` is what the terminal prints of a word it did not check itself:
  each such character written as Python writes it in a string (``\\x1b``,
  ``\\u202e``), so that it shows and does nothing. A word that passes
  :func:`control_problem` is printed unchanged.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

# The characters refused, as a character class (without the newline, added where a
# text may not hold one). Tab is a control character too: a word never needs one.
_REFUSED: Final = (
    "\x00-\x09\x0b-\x1f"  # C0, all but the newline
    "\x7f-\x9f"  # DEL and C1
    "\u2028\u2029"  # line and paragraph separators: a terminal breaks the line
    "\u202a-\u202e"  # bidi embeddings and overrides
    "\u2066-\u2069"  # bidi isolates
    "\ud800-\udfff"  # lone surrogates
)
_ANY: Final = re.compile(f"[{_REFUSED}\n]")
_BUT_NEWLINES: Final = re.compile(f"[{_REFUSED}]")

#: What a word may hold, in words, for messages.
RULE: Final = (
    "printable text: no control character (C0, DEL, C1), no line separator, no bidi "
    "override or isolate"
)

# The common control characters by their usual names (Unicode gives them none).
_NAMES: Final = {
    "\x00": "NUL",
    "\x07": "BEL",
    "\x08": "BS",
    "\t": "TAB",
    "\n": "newline",
    "\r": "CR",
    "\x1b": "ESC",
    "\x7f": "DEL",
    "\x85": "NEL",
    "\x9b": "CSI",
    "\x9d": "OSC",
}


def control_problem(text: str, *, newlines: bool = False) -> str | None:
    """What keeps ``text`` out of a game, said of it ("holds ESC (U+001B) at
    character 3"), or None if it may be kept; ``newlines``: whether it may run over
    several lines. Only the first such character is named."""
    found = (_BUT_NEWLINES if newlines else _ANY).search(text)
    if found is None:
        return None
    return f"holds {character(found.group())} at character {found.start() + 1}"


def character(char: str) -> str:
    """``char`` by name and code point, for a message: ``ESC (U+001B)``."""
    code = f"U+{ord(char):04X}"
    name = _NAMES.get(char) or unicodedata.name(char, "")
    if name:
        return f"{name} ({code})"
    kind = "a lone surrogate" if 0xD800 <= ord(char) <= 0xDFFF else "a control character"
    return f"{kind} ({code})"


def escaped(text: str, *, newlines: bool = False) -> str:
    """``text`` safe to print: each character :func:`control_problem` refuses written
    as Python writes it in a string (``\\x1b``); ``newlines`` kept if allowed."""
    pattern = _BUT_NEWLINES if newlines else _ANY
    if pattern.search(text) is None:
        return text  # nearly always: one scan, no copy
    return pattern.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    return repr(found.group())[1:-1]  # as repr writes it: \x1b, \n, \u202e
