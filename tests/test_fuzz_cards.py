"""Damaged card files and hooks that return anything: a plugin loads whole, sane, or
is left out and named; the other plugins and the games go on (``pytest -m fuzz``).

The real card files (``src/oriflamme/cards/*.yaml``) are damaged the ways files get
damaged or made up: bytes flipped, cut short, bytes that are not UTF-8, very long
lines, deep nesting, aliases, values of the wrong type. Each damaged file is the card
set of a third-party plugin registered beside another plugin. Every input is drawn
from hypothesis's derandomized seed (see :mod:`tests.fuzzing`).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oriflamme import (
    Ability,
    BotKind,
    BotSetting,
    CardSet,
    CardType,
    DecisionKind,
    Game,
    GameConfig,
    OriflammeError,
    PluginError,
    Registry,
    RevealTokens,
    Setup,
    Variant,
    hookimpl,
)
from oriflamme.bots import play_out
from oriflamme.core._cardsets import is_key
from oriflamme.limits import MAX_VARIANT_INT

from .fuzzing import FUZZ, no_hang
from .helpers import random_bots

CARD_FILES = {
    name: (files("oriflamme") / "cards" / name).read_bytes()
    for name in ("base.yaml", "ablaze.yaml")
}

FINE = Variant("fine_option", (False, True), False, "A harmless option.")

#: Values of the wrong type, as YAML writes them.
WRONG_VALUES = [
    "null",
    "~",
    "[]",
    "[a, [b]]",
    "{}",
    "{a: 1}",
    "'a string'",
    '"archer\\n"',
    ".nan",
    "-.inf",
    "true",
    "no",
    "0",
    "-7",
    "1.5",
    "123456789012345678901234567890",
    "2001-12-14",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!python/object:os.system x",
    "&a x",
    "*a",
    "|\n  text",
]

#: YAML escapes of characters a terminal obeys: ESC, NUL, BEL, CSI, NEL, DEL, a line
#: separator, a bidi override and isolate, and a newline (allowed in a text only).
ESCAPES = ["\\e", "\\0", "\\a", "\\x9b", "\\N", "\\x7f", "\\L", "\\u202e", "\\u2066", "\\n"]

#: What no word of a loaded card set holds (its texts are made one line when read).
RAW = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

NOT_UTF8 = [b"\xff", b"\xfe", b"\xc3", b"\xe9", b"\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def _at(data: bytes, fraction: float) -> int:
    return int(fraction * len(data))


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _value_line(data: bytes, fraction: float) -> int:
    """The index of a ``key: value`` line near ``fraction`` of the file."""
    lines = _lines(data)
    found = [
        i for i, line in enumerate(lines) if b": " in line and not line.lstrip().startswith(b"#")
    ]
    return found[int(fraction * len(found)) % len(found)] if found else 0


Damage = Callable[[bytes], bytes]


@st.composite
def damages(draw: st.DrawFn) -> Damage:
    """One way a file gets damaged, as a function of its bytes."""
    kind = draw(
        st.sampled_from(
            [
                "flip",
                "truncate",
                "not_utf8",
                "long_line",
                "nesting",
                "aliases",
                "recursive_alias",
                "wrong_value",
                "duplicate_line",
                "drop_line",
                "control",
                "escape",
            ]
        )
    )
    where = draw(st.floats(0, 1, exclude_max=True))
    if kind == "flip":
        bit = draw(st.integers(0, 7))

        def flip(data: bytes) -> bytes:
            if not data:
                return data
            i = _at(data, where)
            return data[:i] + bytes([data[i] ^ (1 << bit)]) + data[i + 1 :]

        return flip
    if kind == "truncate":
        return lambda data: data[: _at(data, where)]
    if kind == "not_utf8":
        bad = draw(st.sampled_from(NOT_UTF8))
        return lambda data: data[: _at(data, where)] + bad + data[_at(data, where) :]
    if kind == "long_line":
        length = draw(st.sampled_from([3_999, 4_001, 20_000, 300_000]))
        filler = draw(st.sampled_from([b"x", b" ", b"#", b"\xc3\xa9"]))
        return lambda data: data[: _at(data, where)] + filler * length + data[_at(data, where) :]
    if kind == "nesting":
        depth = draw(st.integers(1, 2_000))
        style = draw(st.sampled_from(["flow_list", "flow_map", "block", "unclosed"]))
        if style == "flow_list":
            value = b"[" * depth + b"]" * depth
        elif style == "flow_map":
            value = b"{a: " * depth + b"1" + b"}" * depth
        elif style == "unclosed":
            value = b"[" * depth
        else:
            value = b"".join(b"\n" + b"  " * (i + 3) + b"- " for i in range(min(depth, 300))) + b"x"
        return _replacing_value(where, value)
    if kind == "aliases":
        width = draw(st.integers(2, 12))
        levels = draw(st.integers(1, 12))
        laughs = [b"l0: &l0 [lol]"]
        laughs += [
            b"l%d: &l%d [" % (i, i) + b", ".join([b"*l%d" % (i - 1)] * width) + b"]"
            for i in range(1, levels)
        ]
        prefix = b"\n".join(laughs) + b"\n"
        return lambda data: prefix + data
    if kind == "recursive_alias":
        return _replacing_value(
            where, draw(st.sampled_from([b"&r [*r]", b"&r {a: *r}", b"*nowhere"]))
        )
    if kind == "wrong_value":
        return _replacing_value(where, draw(st.sampled_from(WRONG_VALUES)).encode())
    if kind == "escape":  # a character a terminal obeys, written as a YAML escape
        escape = draw(st.sampled_from(ESCAPES))
        return _replacing_value(where, b'"Arch' + escape.encode() + b'er"')
    if kind == "duplicate_line":

        def duplicate(data: bytes) -> bytes:
            lines = _lines(data)
            i = _value_line(data, where)
            return b"\n".join([*lines[: i + 1], lines[i], *lines[i + 1 :]])

        return duplicate
    if kind == "drop_line":

        def drop(data: bytes) -> bytes:
            lines = _lines(data)
            i = _value_line(data, where)
            return b"\n".join(lines[:i] + lines[i + 1 :])

        return drop
    control = draw(
        st.sampled_from([b"\x00", b"\x1b", b"\t", b"\r", b"\xef\xbb\xbf", b"\x85", b"\xe2\x80\xa8"])
    )
    return lambda data: data[: _at(data, where)] + control + data[_at(data, where) :]


def _replacing_value(where: float, value: bytes) -> Damage:
    def replace(data: bytes) -> bytes:
        lines = _lines(data)
        i = _value_line(data, where)
        key = lines[i].split(b": ", 1)[0]
        lines[i] = key + b": " + value
        return b"\n".join(lines)

    return replace


#: An ability that does nothing for each card the undamaged files hold: a card no
#: plugin gives an ability leaves its plugin out (a damaged key does).
DOING_NOTHING = {key: Ability() for key in Registry(entry_points=False).cards}


def registry_with_card_file(path: Path) -> Registry:
    """A plugin 'fuzzed' whose card set is ``path``, and a plugin 'other' beside it."""
    registry = Registry(builtins=False, entry_points=False)
    fuzzed = SimpleNamespace(
        register_card_sets=hookimpl(lambda: [path]),
        register_abilities=hookimpl(lambda: DOING_NOTHING),
    )
    registry.register(fuzzed, "fuzzed")
    registry.register(SimpleNamespace(register_variants=hookimpl(lambda: [FINE])), "other")
    return registry


def assert_sane(card_set: CardSet, path: Path) -> None:
    """What a loaded set promises the engine: every field of the type it is read as."""
    assert is_key(card_set.name)
    assert type(card_set.title) is str
    assert card_set.title.strip()
    assert card_set.cards
    assert len(set(card_set.keys)) == len(card_set.keys)
    for card in card_set.cards:
        assert is_key(card.key), card.key
        assert type(card.name) is str
        assert card.name.strip()
        assert type(card.text) is str
        assert card.text.strip()
        assert type(card.type) is CardType
        assert type(card.reveal_tokens) is RevealTokens
        assert type(card.setup) is Setup
        assert type(card.discard_after_use) is bool
        assert card.type is CardType.CHARACTER or card.discard_after_use
        assert card.requires is None or is_key(card.requires)
        assert all(type(k) is str and type(v) is str for k, v in card.names)
        assert card.source.startswith(f"{path}:")
        # Words a terminal would obey are refused, whatever escape wrote them.
        words = [card.name, card.text, card.idle or "", *dict(card.names + card.texts).values()]
        for word in [card_set.title, *words]:
            assert RAW.search(word) is None, f"{card.key}: {word!r}"


def play(registry: Registry, sets: tuple[str, ...], seed: int) -> None:
    """A game of ``sets``, played out by random bots, if the sets can make one."""
    try:
        game = Game.new(GameConfig(sets=sets, seed=seed), registry=registry)
    except OriflammeError:
        return  # too few cards, a Twin with no Prince...: refused plainly
    play_out(game, random_bots(game, seed))


@pytest.mark.fuzz
@FUZZ
@given(
    name=st.sampled_from(sorted(CARD_FILES)),
    damage=st.lists(damages(), min_size=1, max_size=3),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_damaged_card_file_is_loaded_sane_or_its_plugin_is_left_out(
    folder: Path, name: str, damage: list[Damage], seed: int
) -> None:
    print(f"seed={seed}")
    data = CARD_FILES[name]
    for each in damage:
        data = each(data)
    path = folder / name
    path.write_bytes(data)
    registry = registry_with_card_file(path)
    with no_hang():
        problems = registry.problems
        plugins = {p.name for p in registry.plugins}
        assert "other" in plugins
        assert registry.variants["fine_option"].plugin == "other"
        if problems:
            assert len(problems) == 1, problems
            assert problems[0].startswith(f"plugin 'fuzzed' was left out: {path}"), problems
            assert "fuzzed" not in plugins
            assert not registry.sets
            return
        assert "fuzzed" in plugins
        (card_set,) = registry.sets.values()
        assert_sane(card_set, path)
        play(registry, (card_set.name,), seed)


def test_the_undamaged_card_files_load(folder: Path) -> None:
    for name, data in CARD_FILES.items():
        path = folder / f"undamaged-{name}"
        path.write_bytes(data)
        registry = registry_with_card_file(path)
        assert registry.problems == []
        (card_set,) = registry.sets.values()
        assert_sane(card_set, path)


# Hook return values: anything at all, of the right type now and then.

_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["heir", "spy", "place", "fine_option", "nope\n", "Loud", "", "a" * 50]),
    st.binary(max_size=4),
    st.builds(Ability),
    st.builds(Path, st.sampled_from(["/nonexistent.yaml", "/", "/dev/null"])),
)


def _junk_kind(name: object, help_text: object, private: object) -> DecisionKind:
    kind: Any = type(
        "Junk", (DecisionKind,), {"name": name, "help": help_text, "private_options": private}
    )
    made: DecisionKind = kind()
    return made


def _junk_variant(name: object, values: object, default: object, help_text: object) -> Variant:
    """A Variant whose fields are whatever (as a plugin could make by mutating one)."""
    variant = Variant.__new__(Variant)
    for field, value in (
        ("name", name),
        ("values", values),
        ("default", default),
        ("help", help_text),
        ("plugin", ""),
    ):
        object.__setattr__(variant, field, value)
    return variant


def _junk_setting(name: object, kind: object, default: object, choices: object) -> BotSetting:
    """A BotSetting whose fields are whatever (attrs checks no types)."""
    return BotSetting(name, kind, default, "Loudness.", choices)  # type: ignore[arg-type]


def _junk_bot(name: object, help_text: object, make: object, settings: object) -> BotKind:
    """A BotKind whose fields are whatever."""
    return BotKind(name, help_text, make, settings)  # type: ignore[arg-type]


def _quiet(rng: object, registry: object) -> None:
    return None


class Raises:
    """Not a value: the hook raises ``error`` instead of returning (``sys.exit()`` too)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"Raises({self.error!r})"


_RAISES = st.sampled_from(
    [SystemExit(3), SystemExit(None), RuntimeError("boom"), RecursionError(), TypeError("odd")]
).map(Raises)

_ITEMS = st.one_of(
    _JUNK,
    _RAISES,
    st.builds(_junk_kind, _JUNK, _JUNK, _JUNK),
    st.builds(
        _junk_variant, _JUNK, st.one_of(_JUNK, st.lists(_JUNK, max_size=3).map(tuple)), _JUNK, _JUNK
    ),
    st.builds(Variant, st.just("loud"), st.just((False, True)), st.booleans(), st.just("Shout.")),
)

JUNK = st.recursive(
    _ITEMS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(
            st.one_of(st.text(max_size=8), st.sampled_from(["heir", "spy", "x"]), st.integers()),
            inner,
            max_size=4,
        ),
        st.frozensets(st.one_of(st.integers(), st.text(max_size=4)), max_size=3),
        st.lists(inner, max_size=3).map(iter),
    ),
    max_leaves=8,
)

# Values one field away from right, so that some plugins are kept and checked.
_NAMES = st.sampled_from(["pick", "loud", "place", "Loud", "a" * 41, "pick\n", 3, None])
_VALUES = st.sampled_from(
    [(False, True), (1, 2), ("first", "second"), (1.5, 2.5), (), ["a", "b"], "ab", (10**19,)]
)
_DEFAULTS = st.sampled_from([False, True, 1, "first", "a", 1.5, 10**19, None])
NEAR = st.one_of(
    st.lists(
        st.builds(_junk_variant, _NAMES, _VALUES, _DEFAULTS, st.sampled_from(["Shout.", None])),
        max_size=3,
    ),
    st.lists(
        st.builds(
            _junk_kind,
            _NAMES,
            st.sampled_from(["pick one", None]),
            st.sampled_from([True, False, "yes", 1]),
        ),
        max_size=3,
    ),
    st.dictionaries(
        st.sampled_from(["heir", "spy", "prince", "nope", "Heir", 3]),
        st.one_of(st.builds(Ability), st.sampled_from([None, "strong", Ability])),
        max_size=3,
    ),
    st.lists(
        st.builds(
            _junk_bot,
            st.sampled_from(["echo", "ismcts", "Echo", 3, None]),
            st.sampled_from(["answers", None]),
            st.sampled_from([_quiet, "make", None]),
            st.one_of(
                st.sampled_from([(), [], None, "loud"]),
                st.lists(
                    st.builds(
                        _junk_setting,
                        st.sampled_from(["loud", "Loud", 3]),
                        st.sampled_from([int, float, str, list, None]),
                        st.sampled_from([1, 1.5, "calm", None, True, [1]]),
                        st.sampled_from([(), ("calm",), ("",), ["calm"], None]),
                    ),
                    max_size=2,
                ).map(tuple),
            ),
        ),
        max_size=2,
    ),
)

HOOKS = [
    "register_card_sets",
    "register_abilities",
    "register_variants",
    "register_decision_kinds",
    "replace_abilities",
    "register_bot_kinds",
]


@pytest.mark.fuzz
@FUZZ
@given(hook=st.sampled_from(HOOKS), value=st.one_of(JUNK, NEAR), seed=st.integers(0, 2**32 - 1))
def test_a_hook_returning_anything_leaves_its_plugin_out_or_in_sane(
    hook: str, value: object, seed: int
) -> None:
    print(f"seed={seed} hook={hook} value={value!r:.200}")

    def returns(**arguments: object) -> object:
        if isinstance(value, Raises):
            raise value.error
        return value

    registry = Registry(entry_points=False)
    registry.register(SimpleNamespace(**{hook: hookimpl(specname=hook)(returns)}), "odd")
    registry.register(SimpleNamespace(register_variants=hookimpl(lambda: [FINE])), "other")
    with no_hang():
        conflict = ""
        try:
            problems = registry.problems
        except PluginError as error:
            conflict = str(error)
        if conflict:
            # Claiming a built-in card's ability is no wrong type but a conflict, an
            # error naming both plugins by design (see oriflamme.core._provided).
            assert hook == "register_abilities"
            assert re.search(r"is provided by both plugin '(base|ablaze)' and 'odd'", conflict)
            return
        plugins = {p.name for p in registry.plugins}
        assert {"ablaze", "base", "other"} <= plugins, problems
        if problems:
            assert len(problems) == 1, problems
            # Named by the hook, or by the file it returned (all absolute paths here).
            assert problems[0].startswith(
                (
                    f"plugin 'odd' was left out: {hook}",
                    f"plugin 'odd' was left out: failed in hook {hook}: ",
                    "plugin 'odd' was left out: /",
                )
            ), problems
            assert not isinstance(value, Raises) or "failed in hook" in problems[0]
            assert "odd" not in plugins
        else:
            assert "odd" in plugins
            for key, ability in registry.abilities.items():
                assert is_key(key)
                assert isinstance(ability, Ability)
            for variant in registry.variants.values():
                assert is_key(variant.name)
                assert type(variant.help) is str
                assert type(variant.values) is tuple
                for each in variant.values:
                    assert type(each) in (bool, int, str)
                    assert type(each) is not int or abs(each) <= MAX_VARIANT_INT
                assert any(
                    type(v) is type(variant.default) and v == variant.default
                    for v in variant.values
                )
            for name, kind in registry.provided.kinds.items():
                assert is_key(name)
                assert name == kind.name
                assert type(kind.help) is str
                assert type(kind.private_options) is bool
            for name, bot in registry.bot_kinds.items():
                assert is_key(name)
                assert name == bot.name
                assert callable(bot.make)
                assert all(type(s.help) is str for s in bot.settings)
        registry.describe()
        play(registry, ("base",), seed)
        play(registry, ("ablaze",), seed)
