"""YAML read safely (``yaml.safe_load`` rules, bounded in size and depth) with the line
of every value kept, so an error names the file, the line and what was expected: the
reader of card files, and of scenario files for the conformance runner."""

from .core import Key, YamlDocument, parse_yaml, read_text, show

__all__ = ["Key", "YamlDocument", "parse_yaml", "read_text", "show"]
