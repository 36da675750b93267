"""Damaged scenario files, run through the runner: one clean failure each, never more.

The real scenarios of ``tests/conformance`` are damaged the way files get damaged,
by accident or on purpose: bytes flipped, cut or inserted (non-UTF-8 ones too),
lines made very long, values nested deep, aliases that contain themselves or expand
exponentially, huge integers, and values replaced by values of another type. Each
damaged file must fail with a reason the checks give (never the runner's "internal
error" net), in time, and a damaged file that still passes must describe a position
the rules allow. The unit tests below pin each limit of ``core/_yamlfile.py``.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from importlib.resources import files
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from oriflamme import CardDataError, Registry
from oriflamme.conformance import find_scenarios, load_scenario, run_file
from oriflamme.conformance.model import ScenarioError
from oriflamme.conformance.position import build_game
from oriflamme.conformance.runner import INTERNAL
from oriflamme.core import _yamlfile as yamlfile
from oriflamme.yamlfile import parse_yaml, read_text

from .conftest import ROOT
from .fuzzing import FUZZ, no_hang

FILES = find_scenarios([ROOT / "tests" / "conformance"])
ORIGINALS = {path: path.read_bytes() for path in FILES}

# Values of every YAML type, written as YAML, to put where another type is expected.
WRONG_VALUES = (
    "null",
    "~",
    "[]",
    "[1, [2]]",
    "{}",
    "{a: 1}",
    "text",
    "'red.soldier\\n'",
    '"archer\\n"',
    ".nan",
    ".inf",
    "-.inf",
    "true",
    "false",
    "1.0",
    "-1",
    "0",
    "7",
    "999999999999999999",
    "9" * 40,
    "1:2:3:4:5:6:7:8:9:10:11:12",
    "0x" + "f" * 30,
    "2001-01-01",
    "2001-13-45",
    "!!binary aGk=",
    "!!set {a}",
    "!!int ''",
    "!foo bar",
    "&r [*r]",
    "*nowhere",
    "'" + "x" * 100 + "'",
)
NON_UTF8 = (b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80\x80")


def _run(path: Path, data: bytes, registry: Registry, scratch: Path) -> None:
    """Run ``data`` as the scenario ``path`` and check that it failed cleanly or is valid."""
    target = scratch / path.name
    target.write_bytes(data)
    with no_hang():
        result = run_file(target, registry)
    report = result.report()
    assert not any(INTERNAL in problem for problem in result.problems), report
    assert all("\n" not in problem for problem in result.problems), report
    if result.name == "(unreadable scenario)":
        assert result.problems[0].startswith(str(target)), report  # it names the file
    if result.passed:
        _assert_legal(target, registry)


def _assert_legal(path: Path, registry: Registry) -> None:
    # A damaged file that passes was read and played: its start must break no rule.
    scenario = load_scenario(path)
    position = build_game(scenario, registry).position()
    cards = Counter(position.cards())
    assert all(count == 1 for count in cards.values()), cards
    assert all(type(v) is int and v >= 0 for v in position.influence.values())
    assert 1 <= position.round <= 6


@st.composite
def byte_damage(draw: st.DrawFn) -> tuple[Path, bytes]:
    path = draw(st.sampled_from(FILES))
    data = bytearray(ORIGINALS[path])
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(("flip", "delete", "truncate", "insert", "non-utf8")))
        at = draw(st.integers(0, len(data)))
        if how == "flip" and at < len(data):
            data[at] ^= draw(st.integers(1, 255))
        elif how == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif how == "truncate":
            del data[at:]
        elif how == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            data[at:at] = draw(st.sampled_from(NON_UTF8))
    return path, bytes(data)


def _nodes(text: str) -> list[yaml.Node]:
    """Every node of a file, keys included, in file order."""
    found: list[yaml.Node] = []
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    assert root is not None
    stack = [root]
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in reversed(node.value) for part in reversed(pair))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return found


# The root is left out: a file replaced whole by one value says little.
NODES = {path: _nodes(data.decode("utf-8"))[1:] for path, data in ORIGINALS.items()}


def _replace(text: str, node: yaml.Node, value: str) -> str:
    start, end = node.start_mark.index, node.end_mark.index
    return text[:start] + value + text[end:]


def _laughs(levels: int, width: int) -> str:
    parts = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        parts.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    return "{" + ", ".join(parts) + "}"


@st.composite
def text_damage(draw: st.DrawFn) -> tuple[Path, bytes]:
    path = draw(st.sampled_from(FILES))
    text = ORIGINALS[path].decode("utf-8")
    node = draw(st.sampled_from(NODES[path]))
    how = draw(
        st.sampled_from(("long line", "deep", "deep block", "recursive", "laughs", "huge int"))
    )
    if how == "long line":
        size = draw(st.sampled_from((yamlfile.MAX_LINE - 50, yamlfile.MAX_LINE + 1, 300_000)))
        value = "x" * size
    elif how == "deep":
        depth = draw(st.sampled_from((yamlfile.MAX_DEPTH - 5, yamlfile.MAX_DEPTH + 1, 1000)))
        value = "[" * depth + "]" * depth
    elif how == "deep block":
        depth = draw(st.integers(40, 400))
        indent = node.start_mark.column
        value = "\n".join(" " * (indent + 2 * i) + "- " for i in range(depth)) + "x"
        value = "\n" + value
    elif how == "recursive":
        value = draw(st.sampled_from(("&r [*r]", "&r {a: *r}", "&r {<<: *r}", "&r [[[*r]]]")))
    elif how == "laughs":
        value = _laughs(draw(st.integers(2, 9)), draw(st.integers(2, 10)))
    else:
        value = "9" * draw(st.sampled_from((18, 19, 25, 400, 3000)))
    return path, _replace(text, node, value).encode("utf-8")


@st.composite
def wrong_types(draw: st.DrawFn) -> tuple[Path, bytes]:
    path = draw(st.sampled_from(FILES))
    text = ORIGINALS[path].decode("utf-8")
    nodes = NODES[path]
    # Replace from the end, so that the spans of the earlier nodes still hold.
    chosen = sorted(
        draw(st.sets(st.sampled_from(range(len(nodes))), min_size=1, max_size=3)),
        key=lambda i: nodes[i].start_mark.index,
        reverse=True,
    )
    last = len(text) + 1
    for index in chosen:
        node = nodes[index]
        if node.end_mark.index > last:
            continue  # inside a value already replaced
        text = _replace(text, node, draw(st.sampled_from(WRONG_VALUES)))
        last = node.start_mark.index
    return path, text.encode("utf-8")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("damaged")


@pytest.mark.fuzz
@FUZZ
@given(damaged=byte_damage())
def test_damaged_bytes_fail_cleanly(
    registry: Registry, scratch: Path, damaged: tuple[Path, bytes]
) -> None:
    _run(*damaged, registry, scratch)


@pytest.mark.fuzz
@FUZZ
@given(damaged=text_damage())
def test_long_deep_aliased_or_huge_values_fail_cleanly(
    registry: Registry, scratch: Path, damaged: tuple[Path, bytes]
) -> None:
    _run(*damaged, registry, scratch)


@pytest.mark.fuzz
@FUZZ
@given(damaged=wrong_types())
def test_values_of_the_wrong_type_fail_cleanly(
    registry: Registry, scratch: Path, damaged: tuple[Path, bytes]
) -> None:
    _run(*damaged, registry, scratch)


# The limits of core/_yamlfile.py, one by one.


def _refused(text: str) -> str:
    with no_hang(5), pytest.raises(ScenarioError) as caught:
        parse_yaml(text, "f.yaml", ScenarioError)
    return str(caught.value)


def test_a_file_of_the_largest_size_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    line = "# " + "x" * 97 + "\n"
    body = line * (yamlfile.MAX_BYTES // len(line))
    path.write_text(body + "#" * (yamlfile.MAX_BYTES - len(body)), encoding="utf-8")
    assert len(read_text(path, ScenarioError)) == yamlfile.MAX_BYTES
    with path.open("a", encoding="utf-8") as stream:
        stream.write("#")
    with pytest.raises(ScenarioError, match=rf"^{path}: too big: more than 262144 bytes"):
        read_text(path, ScenarioError)


def test_an_endless_device_is_refused_after_one_byte_too_many() -> None:
    with no_hang(5), pytest.raises(CardDataError, match=r"^/dev/zero: too big"):
        read_text("/dev/zero", CardDataError)


def test_bytes_that_are_not_utf8_are_named_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes("name: ok\nsource: caf\xe9\n".encode("latin-1"))
    with pytest.raises(ScenarioError) as caught:
        read_text(path, ScenarioError)
    assert str(caught.value) == (
        f"{path}:2: not UTF-8 text: byte 0xe9 at column 12 (byte 20 of the file)"
    )


def test_a_line_too_long_is_named(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text("a: 1\nb: " + "x" * yamlfile.MAX_LINE + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=rf"^{path}:2: line too long: 4003 characters"):
        read_text(path, ScenarioError)
    assert _refused("a: 1\nb: " + "x" * yamlfile.MAX_LINE).startswith("f.yaml:2: line too long")
    assert parse_yaml("b: " + "x" * (yamlfile.MAX_LINE - 3), "f", ScenarioError).data["b"]


@pytest.mark.parametrize("name", ["missing.yaml", "."])
def test_a_file_that_cannot_be_read_names_its_path(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    with pytest.raises(ScenarioError, match=rf"^{path}: cannot read: "):
        read_text(path, ScenarioError)


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    with no_hang(5), pytest.raises(ScenarioError, match="a pipe or a socket, not a file"):
        read_text(path, ScenarioError)


def test_a_packaged_file_is_read_through_its_traversable() -> None:
    text = read_text(files("oriflamme") / "cards" / "base.yaml", CardDataError)
    assert "archer" in text


@pytest.mark.parametrize(
    ("depth", "block"), [(yamlfile.MAX_DEPTH, False), (yamlfile.MAX_DEPTH, True)]
)
def test_nesting_up_to_the_limit_is_read_and_one_more_level_is_refused(
    depth: int, block: bool
) -> None:
    def nested(levels: int) -> str:
        if block:
            return "".join("  " * i + "- \n" for i in range(levels - 1)) + "  " * levels + "- x\n"
        return "[" * levels + "]" * levels

    parse_yaml(nested(depth), "f.yaml", ScenarioError)
    message = _refused(nested(depth + 1))
    assert "nested too deeply: more than 50 levels" in message
    assert message.startswith("f.yaml:")


def test_a_thousand_levels_are_refused_not_a_recursion_error() -> None:
    assert "nested too deeply" in _refused("a: " + "[" * 1000 + "]" * 1000)
    assert "nested too deeply" in _refused("a: " + "{a: " * 700 + "}" * 700)


@pytest.mark.parametrize(
    "text", ["r: &r [*r]", "r: &r {a: *r}", "a: &a {<<: *a}", "x:\n  y: &y\n    - [1, *y]"]
)
def test_a_recursive_alias_is_refused(text: str) -> None:
    assert "contains itself through an alias" in _refused(text)


def test_an_exponential_alias_is_refused_fast_and_counted_as_expanded() -> None:
    laughs = "\n".join(
        f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}" if i else "lol"] * 10) + "]" for i in range(12)
    )
    message = _refused(laughs)
    assert "too many values: more than 100000, counting each alias as a copy" in message
    # Just under the limit: 2**16 values through 16 levels of aliases, read at once,
    # each node visited once (the duplicate-key check included).
    pairs = "\n".join(
        f"m{i}: &m{i} {{a: {f'*m{i - 1}' if i else 1}, b: {f'*m{i - 1}' if i else 2}}}"
        for i in range(13)
    )
    with no_hang(2):
        parse_yaml(pairs, "f.yaml", ScenarioError)


def test_merge_keys_still_merge() -> None:
    data = parse_yaml("a: &a {x: 1}\nb: {<<: *a, y: 2}", "f", ScenarioError).data
    assert data == {"a": {"x": 1}, "b": {"x": 1, "y": 2}}


def test_too_many_tokens_are_refused_before_composing() -> None:
    items = "\n".join(f"- {i}" for i in range(yamlfile.MAX_TOKENS))
    with no_hang(5):
        message = _refused(items)
    assert "too long: more than 20000 YAML tokens" in message


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("9" * 18, True),
        ("-" + "9" * 18, True),
        ("99_999_999_999_999_999_999", False),
        ("9" * 19, False),
        ("0x" + "f" * 17, False),
        (":".join(["59"] * 10), False),
    ],
)
def test_integers_are_bounded(value: str, ok: bool) -> None:
    text = f"a: 1\nb: {value}\n"
    if ok:
        assert parse_yaml(text, "f", ScenarioError).data["b"] == int(value)
    else:
        assert _refused(text).startswith("f.yaml:2: integer too long")


def test_an_integer_of_thousands_of_digits_is_refused() -> None:
    # Past 4300 digits Python's int() raises ValueError; 4000 is the longest line.
    assert _refused("a: 1\nb: " + "9" * 3990).startswith("f.yaml:2: integer too long: 3990")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2001-13-45", "f.yaml:2: cannot read '2001-13-45': month must be in 1..12"),
        ("!!int ''", "f.yaml:2: cannot read ''"),
        ("!!float x", "f.yaml:2: cannot read 'x'"),
        ("!!binary a", "f.yaml:2: not valid YAML: failed to decode base64"),
        ("!foo bar", "f.yaml:2: not valid YAML: could not determine a constructor"),
        ("'\x00'", "f.yaml:2: not valid YAML: character '\\x00' is not allowed"),
    ],
)
def test_a_value_pyyaml_cannot_build_is_named_by_line(value: str, message: str) -> None:
    assert _refused(f"a: 1\nb: {value}\n").startswith(message)


def test_a_key_given_twice_is_named() -> None:
    assert _refused("a: 1\nb: 2\na: 3") == "f.yaml:3: key 'a' is given twice (first at line 1)"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, "null"),
        (True, "true"),
        (math.nan, ".nan"),
        (-math.inf, "-.inf"),
        ([1, [2, [3, [4]]]], "a list [1, [2, [...]]]"),
        ({"a": 1}, "a mapping {'a': 1}"),
        ("x" * 200, "'" + "x" * 27 + "..." + "x" * 28 + "'"),
    ],
)
def test_values_are_shown_as_yaml_writes_them_and_cut_short(value: object, shown: str) -> None:
    assert yamlfile.show(value) == shown
