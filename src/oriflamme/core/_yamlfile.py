"""YAML files with line numbers for error messages.

Data is read only with ``yaml.safe_load``. To say *where* a problem is, the same
text is also composed into PyYAML's node tree (``yaml.compose`` with the
SafeLoader builds nodes, never Python objects), and a path of keys is walked
through that tree to find its line.

The files come from anyone (scenarios, plugins' card files, whatever a server is
sent), so reading them is bounded. Each limit is far above the biggest real file
(about 3 KB and 411 tokens, lines of under 300 characters, 5 levels of nesting, no
aliases), and each is checked before the step that it protects: size and lines on
the bytes, depth and length on the token stream (PyYAML's composer recurses, and
scanning costs about 20 microseconds a token), aliases and integers on the node
tree, before any Python object is built.

Every string in a file (every key and value) is words a game may print: a control
character, a bidi override or isolate in one is refused with its line (see
:mod:`.words`), whatever escape wrote it (``"\\e"``, ``"\\x1b"``, ``"\\0"``). A
newline is allowed only in a text: never in a key, nor in a name or a title
(:data:`ONE_LINE`).
"""

from __future__ import annotations

import math
import os
import reprlib
import stat
from collections.abc import Mapping
from importlib.resources.abc import Traversable
from typing import Any, NamedTuple

import attrs
import yaml

from ._errors import OriflammeError
from ._shown import quote
from ._words import RULE, control_problem

Key = str | int

#: The largest file, in bytes (256 KiB); only one byte more is ever read.
MAX_BYTES = 256 * 1024

#: The longest line, in characters.
MAX_LINE = 4_000

#: The deepest nesting of mappings and sequences (the composer recurses per level).
MAX_DEPTH = 50

#: The most YAML tokens in one file (keys, values, brackets...): this bounds the
#: time spent reading a file to about a second.
MAX_TOKENS = 20_000

#: The most values (mappings, sequences and scalars) in one file, counting every
#: alias as a copy of what it names, so that a "billion laughs" file is refused.
MAX_NODES = 100_000

#: The most digits of an integer (Python refuses to print one of more than 4300).
MAX_INT_DIGITS = 18


#: The fields whose value is one line, and all inside it: a card's (and a scenario's)
#: name, its names in other languages, a set's title. Every key is one line too. (A
#: card key or a set name is checked for its own form, newlines and all.)
ONE_LINE = frozenset({"name", "names", "title"})


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxset = 4
_SHORT.maxlevel = 2


def show(value: object) -> str:
    """``value`` as YAML would write it, cut short, for a message that quotes what
    it refuses (a list or a mapping says that it is one).

    Not :func:`._shown.short`: a card file's author reads ``null`` and ``true`` as
    written, and a few items of a list rather than its type's name."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else ("-.inf" if value < 0 else ".inf")
    if isinstance(value, list):
        return f"a list {_SHORT.repr(value)}"
    if isinstance(value, Mapping):
        return f"a mapping {_SHORT.repr(dict(value))}"
    return _SHORT.repr(value)


def read_text(source: str | os.PathLike[str] | Traversable, error: type[OriflammeError]) -> str:
    """The UTF-8 text of the file at ``source``, at most :data:`MAX_BYTES` long.

    Every problem raises ``error`` with a message that starts with the path: a file
    that cannot be read, is too big (only ``MAX_BYTES + 1`` bytes are ever read, so a
    device that never ends is refused too), is not UTF-8 (naming the line and column
    of the first bad byte) or has a line longer than :data:`MAX_LINE` characters.
    """
    path = os.fspath(source) if isinstance(source, (str, os.PathLike)) else str(source)
    try:
        if isinstance(source, (str, os.PathLike)):
            # A pipe or a socket would block the open until someone writes to it.
            if stat.S_ISFIFO(os.stat(source).st_mode) or stat.S_ISSOCK(os.stat(source).st_mode):
                raise error(f"{path}: cannot read: a pipe or a socket, not a file")
            with open(source, "rb") as stream:
                data = stream.read(MAX_BYTES + 1)
        else:
            with source.open("rb") as stream:
                data = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise error(f"{path}: too big: more than {MAX_BYTES} bytes (at most {MAX_BYTES})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise error(
            f"{path}:{line}: not UTF-8 text: byte 0x{data[exc.start]:02x} "
            f"at column {column} (byte {exc.start} of the file)"
        ) from None
    check_lines(text, path, error)
    return text


def check_lines(text: str, path: str, error: type[OriflammeError]) -> None:
    """Refuse text longer than :data:`MAX_BYTES` characters or a line longer than
    :data:`MAX_LINE`, naming the line."""
    if len(text) > MAX_BYTES:
        raise error(f"{path}: too big: {len(text)} characters (at most {MAX_BYTES})")
    if len(text) <= MAX_LINE:
        return
    start = 0
    number = 1
    while start <= len(text):
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        if end - start > MAX_LINE:
            raise error(
                f"{path}:{number}: line too long: {end - start} characters (at most {MAX_LINE})"
            )
        start = end + 1
        number += 1


@attrs.frozen
class YamlDocument:
    """A parsed YAML file: its data, and where each part of it came from."""

    path: str
    data: Any
    root: yaml.Node | None = attrs.field(repr=False)

    def line(self, *keys: Key) -> int | None:
        """The 1-based line of the node at ``keys`` (or of its deepest existing parent)."""
        node = self.root
        if node is None:
            return None
        found = node.start_mark.line + 1
        for key in keys:
            child = _child(node, key)
            if child is None:
                break
            node = child
            found = node.start_mark.line + 1
        return found

    def where(self, *keys: Key) -> str:
        """``path:line`` for the node at ``keys``, for error messages."""
        line = self.line(*keys)
        return f"{self.path}:{line}" if line is not None else self.path


def _child(node: yaml.Node, key: Key) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == str(key):
                found: yaml.Node = v
                return found
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
        item: yaml.Node = node.value[key]
        return item
    return None


_OPEN = (
    yaml.BlockSequenceStartToken,
    yaml.BlockMappingStartToken,
    yaml.FlowSequenceStartToken,
    yaml.FlowMappingStartToken,
)
_CLOSE = (yaml.BlockEndToken, yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)
_INT = "tag:yaml.org,2002:int"
# Scalars that any text builds: no need to build them to know. `<<` (merge) is not
# a value but an order to merge a mapping, built with it.
_ALWAYS_BUILT = frozenset(f"tag:yaml.org,2002:{name}" for name in ("str", "null", "bool", "merge"))


def _check_tokens(text: str, path: str, error: type[OriflammeError]) -> None:
    # A sequence inside a mapping at the same indentation opens no token, so the
    # nodes nest at most twice as deep as counted here: still far from the
    # composer's recursion limit.
    depth = 0
    for count, token in enumerate(yaml.scan(text, Loader=yaml.SafeLoader), 1):
        if count > MAX_TOKENS:
            raise error(
                f"{path}:{token.start_mark.line + 1}: too long: more than {MAX_TOKENS} "
                "YAML tokens (keys, values, brackets...)"
            )
        if isinstance(token, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                raise error(
                    f"{path}:{token.start_mark.line + 1}: nested too deeply: more than "
                    f"{MAX_DEPTH} levels of mappings and lists"
                )
        elif isinstance(token, _CLOSE):
            depth -= 1


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_nodes(root: yaml.Node, path: str, error: type[OriflammeError]) -> None:
    """Check every node once: no alias inside itself, a bounded size once aliases
    are expanded, scalars that can be built, and no key given twice."""
    # An alias is the very node it names, so the tree is a graph: sizes are
    # memoised by node, and a node met again while its children are being
    # walked contains itself.
    size: dict[int, int] = {}
    open_nodes: set[int] = set()
    builder = yaml.SafeLoader("")
    # Each node with where it is, for a message about its words: the card it belongs
    # to (the mapping with a 'key'), its field, and whether it is a key itself.
    stack: list[tuple[yaml.Node, bool, _Place]] = [(root, False, _TOP)]
    while stack:
        node, walked, place = stack.pop()
        key = id(node)
        if walked:
            open_nodes.discard(key)
            total = 1 + sum(size[id(child)] for child in _children(node))
            if total > MAX_NODES:
                raise error(
                    f"{path}:{node.start_mark.line + 1}: too many values: more than "
                    f"{MAX_NODES}, counting each alias as a copy of what it names"
                )
            size[key] = total
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise error(
                f"{path}:{node.start_mark.line + 1}: this value contains itself "
                "through an alias: a recursive alias cannot be read"
            )
        open_nodes.add(key)
        stack.append((node, True, place))
        if isinstance(node, yaml.ScalarNode):
            _check_scalar(node, builder, path, error)
            _check_words(node, place, path, error)
        elif isinstance(node, yaml.MappingNode):
            _check_unique_keys(node, path, error)
        stack.extend((child, False, within) for child, within in reversed(_placed(node, place)))


class _Place(NamedTuple):
    """Where a node is, for a message: the card (``card 'archer'``), the field
    (``names.fr``), whether the node is a mapping's key, and whether it is one line."""

    card: str
    field: str
    is_key: bool
    one_line: bool


_TOP = _Place("", "", False, False)


def _placed(node: yaml.Node, place: _Place) -> list[tuple[yaml.Node, _Place]]:
    """The children of ``node``, each with where it is."""
    if isinstance(node, yaml.SequenceNode):
        return [(child, place._replace(is_key=False)) for child in node.value]
    if not isinstance(node, yaml.MappingNode):
        return []
    card, field = place.card, place.field
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == "key" and isinstance(v, yaml.ScalarNode):
            card = f"card {show(v.value)}"  # repr: whatever it holds is shown escaped
            field = ""  # the card's own fields are named from it
    placed: list[tuple[yaml.Node, _Place]] = []
    for k, v in node.value:
        name = k.value if isinstance(k, yaml.ScalarNode) else "?"
        inner = f"{field}.{name}" if field else name
        one_line = place.one_line or name in ONE_LINE
        placed.append((k, _Place(card, inner, True, True)))
        placed.append((v, _Place(card, inner, False, one_line)))
    return placed


def _check_words(
    node: yaml.ScalarNode, place: _Place, path: str, error: type[OriflammeError]
) -> None:
    """Refuse a string that holds a character a game may not print (see :mod:`.words`)."""
    problem = control_problem(node.value, newlines=not place.one_line)
    if problem is None:
        return
    field = show(place.field) if place.field else ""
    what = f"the key {field}" if place.is_key else f"{field or 'a value'}"
    where = f"{place.card}: " if place.card else ""
    expected = f"one line of {RULE}" if place.one_line else f"{RULE} (a newline is allowed)"
    raise error(
        f"{path}:{node.start_mark.line + 1}: {where}{what} {problem}: "
        f"{'a key' if place.is_key else 'it'} must be {expected}"
    )


def _check_scalar(
    node: yaml.ScalarNode, builder: yaml.SafeLoader, path: str, error: type[OriflammeError]
) -> None:
    line = node.start_mark.line + 1
    if node.tag == _INT:
        digits = node.value.replace("_", "").lstrip("+-")
        if len(digits) > MAX_INT_DIGITS:
            raise error(
                f"{path}:{line}: integer too long: {len(digits)} digits (at most {MAX_INT_DIGITS})"
            )
    if node.tag in _ALWAYS_BUILT:
        return
    # Build the scalar alone, so that a value PyYAML cannot build (a date
    # 2001-13-45, `!!int ""`, an unknown tag) is named with its line.
    try:
        builder.construct_object(node, deep=True)
    except yaml.MarkedYAMLError as exc:
        raise error(f"{path}:{line}: not valid YAML: {exc.problem or exc}") from None
    except Exception as exc:  # PyYAML's builders raise whatever int() or date() raise
        raise error(f"{path}:{line}: cannot read {quote(node.value)}: {exc}") from None


def _check_unique_keys(node: yaml.MappingNode, path: str, error: type[OriflammeError]) -> None:
    # PyYAML keeps the last of two equal keys without a word; a rules file that
    # says a thing twice is a mistake worth naming.
    seen: dict[str, int] = {}
    for k, _ in node.value:
        if isinstance(k, yaml.ScalarNode):
            line = k.start_mark.line + 1
            if k.value in seen:
                raise error(
                    f"{path}:{line}: key {quote(k.value)} is given twice "
                    f"(first at line {seen[k.value]})"
                )
            seen[k.value] = line


def parse_yaml(text: str, path: str, error: type[OriflammeError]) -> YamlDocument:
    """Parse ``text`` (read from ``path``) within the limits above.

    A syntax error, or a file past a limit, becomes ``error`` with its line.
    """
    check_lines(text, path, error)
    try:
        _check_tokens(text, path, error)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        if root is not None:
            _check_nodes(root, path, error)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise error(f"{path}{line}: not valid YAML: {exc.problem or exc}") from None
    except yaml.reader.ReaderError as exc:
        number = text.count("\n", 0, exc.position) + 1
        raise error(
            f"{path}:{number}: not valid YAML: character {chr(exc.character)!r} "
            "is not allowed in a YAML file"
        ) from None
    except yaml.YAMLError as exc:
        raise error(f"{path}: not valid YAML: {exc}") from None
    except (ValueError, TypeError, IndexError, KeyError, OverflowError, RecursionError) as exc:
        # What PyYAML's builders raise on a value they cannot build: the checks
        # above should have named it with its line first.
        raise error(f"{path}: not valid YAML: {type(exc).__name__}: {exc}") from None
    return YamlDocument(path=path, data=data, root=root)
