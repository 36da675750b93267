"""YAML files with line numbers for error messages.

Data is read only with ``yaml.safe_load``. To say *where* a problem is, the same
text is also composed into PyYAML's node tree (``yaml.compose`` with the
SafeLoader builds nodes, never Python objects), and a path of keys is walked
through that tree to find its line.
"""

from __future__ import annotations

from typing import Any

import attrs
import yaml

from .errors import OriflammeError

Key = str | int


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


def _check_unique_keys(node: yaml.Node, path: str, error: type[OriflammeError]) -> None:
    # PyYAML keeps the last of two equal keys without a word; a rules file that
    # says a thing twice is a mistake worth naming.
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                line = k.start_mark.line + 1
                if k.value in seen:
                    raise error(
                        f"{path}:{line}: key {k.value!r} is given twice "
                        f"(first at line {seen[k.value]})"
                    )
                seen[k.value] = line
            _check_unique_keys(v, path, error)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _check_unique_keys(item, path, error)


def parse_yaml(text: str, path: str, error: type[OriflammeError]) -> YamlDocument:
    """Parse ``text`` (read from ``path``); a syntax error becomes ``error`` with its line."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise error(f"{path}{line}: not valid YAML: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise error(f"{path}: not valid YAML: {exc}") from None
    if root is not None:
        _check_unique_keys(root, path, error)
    return YamlDocument(path=path, data=data, root=root)
