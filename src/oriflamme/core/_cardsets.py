"""Card definitions and the card-set YAML files that hold them.

A card set file is a mapping with ``set`` (the set's name), ``title`` and
``cards``, a list of card mappings. Every field is checked for its type and form
before a card is made: a file from an installed plugin is no more trusted than any
other, and what is wrong is named with its file and line. Reading one is bounded as
:mod:`.yamlfile` says (size, line length, nesting, aliases, integers).

Behaviour that is better stated as data than as code lives here too: how revealing
the card pays out its tokens, whether it is discarded after use, where it waits at
setup.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping
from enum import Enum, StrEnum
from importlib.resources.abc import Traversable
from typing import Any, TypeGuard, TypeVar

import attrs

from ._errors import CardDataError, OriflammeError, PluginError
from ._yamlfile import YamlDocument, parse_yaml, read_text, show

_E = TypeVar("_E", bound=Enum)

#: The longest card key or set name: it is typed, and printed in every label (red.key).
MAX_KEY = 40

#: A card key or set name: lowercase snake_case, at most :data:`MAX_KEY` characters.
#: ``\Z``, not ``$``, which would let a trailing newline through ("archer\n").
KEY_PATTERN = re.compile(rf"[a-z][a-z0-9_]{{0,{MAX_KEY - 1}}}\Z")

#: What :data:`KEY_PATTERN` accepts, in words, for messages.
KEY_RULE = f"lowercase snake_case (a-z, 0-9, _), at most {MAX_KEY} characters"

#: A language code of ``names``, ``texts`` and ``idles``: ``fr``, ``pl``, ``pt_br``. It
#: is typed (``--language``), so it is kept to lowercase letters; English is the card's
#: own ``name``, ``text`` and ``idle``, never a code here.
LANGUAGE_PATTERN = re.compile(r"[a-z]{2,3}(?:_[a-z0-9]{2,8})?\Z")


def is_key(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a card key or set name (see :data:`KEY_PATTERN`)."""
    return type(value) is str and KEY_PATTERN.match(value) is not None


def _names(keys: Any) -> list[Any]:
    """``keys`` of a mapping read from YAML, in a stable order whatever their types."""
    return sorted(keys, key=lambda key: (type(key).__name__, str(key)))


def _spelled(key: object) -> str:
    """A key read from YAML as it is most likely written (``null``, ``true``, ``3``),
    to find its line."""
    return key if isinstance(key, str) else show(key)


class CardType(StrEnum):
    """The two kinds of card: a Character stays face up; an Intrigue is discarded."""

    CHARACTER = "character"
    INTRIGUE = "intrigue"


class RevealTokens(StrEnum):
    """What happens to the tokens on a card when its owner reveals it (RULINGS R2)."""

    GAIN = "gain"  # the owner gains them: the usual case
    DOUBLE = "double"  # the owner gains twice as many: Conspiracy
    SUPPLY = "supply"  # they go back to the supply: Ambush, Trap
    ABILITY = "ability"  # they stay for the ability to use: Plot


class Setup(StrEnum):
    """Where the card starts: shuffled with the family's cards, or in its reserve."""

    SHUFFLED = "shuffled"
    RESERVE = "reserve"  # Ablaze's Twin waits face up beside its family


@attrs.frozen
class CardDef:
    """One card type, as printed; the same for every family."""

    key: str
    name: str
    type: CardType
    text: str
    set: str
    names: tuple[tuple[str, str], ...] = ()
    reveal_tokens: RevealTokens = RevealTokens.GAIN
    discard_after_use: bool = False
    setup: Setup = Setup.SHUFFLED
    requires: str | None = None  # a card that must be in the card list with this one
    source: str = ""
    # Last, so that code giving the fields above by position still works.
    texts: tuple[tuple[str, str], ...] = ()  # the text in other languages, by code
    # What its ability did when its turn did nothing at all, to follow "green's Heir ".
    idle: str | None = None
    idles: tuple[tuple[str, str], ...] = ()  # the idle phrase in other languages, by code

    @property
    def is_character(self) -> bool:
        return self.type is CardType.CHARACTER

    def name_in(self, language: str) -> str:
        """The card's name in ``language`` (``en``, ``fr``, ``pl``...), English if unknown."""
        return dict(self.names).get(language, self.name)

    def text_in(self, language: str) -> str:
        """The card's text in ``language``, English if the card data has none in it."""
        return dict(self.texts).get(language, self.text)

    def idle_in(self, language: str) -> str | None:
        """The card's idle phrase in ``language``, English if the card data has none in
        it; None if the card has none at all (then nothing more precise than "does
        nothing" is true of it)."""
        return dict(self.idles).get(language, self.idle)

    @classmethod
    def from_mapping(
        cls,
        data: Mapping[str, Any],
        *,
        set_name: str,
        doc: YamlDocument,
        where: tuple[str | int, ...],
    ) -> CardDef:
        """Build a card from one entry of a set file, or name what is wrong and where."""
        here = doc.where(*where)

        def fail(message: str, *field: str) -> CardDataError:
            return CardDataError(f"{doc.where(*where, *field)}: {message}")

        if not isinstance(data, Mapping):
            raise CardDataError(f"{here}: a card must be a mapping, not {show(data)}")
        unknown = _names(set(data) - _CARD_FIELDS)
        if unknown:
            raise fail(
                f"unknown field {show(unknown[0])} "
                f"(expected one of {', '.join(sorted(_CARD_FIELDS))})",
                _spelled(unknown[0]),
            )
        for required in ("key", "name", "type", "text"):
            if required not in data:
                # Named by its key when it has one, so that the card is found at once.
                known = data.get("key")
                named = f"card {known!r}" if isinstance(known, str) and is_key(known) else "card"
                raise CardDataError(f"{here}: {named} is missing required field {required!r}")
        key = data["key"]
        if not is_key(key):
            raise fail(f"card key {show(key)} must be {KEY_RULE}", "key")
        label = f"card {key!r}"
        for text_field in ("name", "text"):
            value = data[text_field]
            if type(value) is not str or not value.strip():
                raise fail(
                    f"{label}: {text_field!r} must be a non-empty string, not {show(value)}",
                    text_field,
                )
        names = _translations(data, "names", "{fr: Archer, pl: Łucznik}", fail, label)
        texts = _translations(data, "texts", "{fr: Éliminez ..., pl: Zlikwiduj ...}", fail, label)
        idle = data.get("idle")
        if idle is not None and (type(idle) is not str or not idle.strip()):
            raise fail(f"{label}: 'idle' must be a non-empty phrase, not {show(idle)}", "idle")
        if idle is not None and idle.rstrip().endswith("."):
            # The line it ends adds the full stop: "green's Heir gains nothing: ...".
            raise fail(f"{label}: 'idle' must not end with a full stop: {show(idle)}", "idle")
        idles = _translations(
            data, "idles", "{fr: ne fait rien, pl: nic nie robi}", fail, label, english="idle"
        )
        if idles and idle is None:
            # A story in English would say only "does nothing" where another language
            # says why: the English phrase comes first, the others translate it.
            raise fail(f"{label}: 'idles' translates 'idle', which the card lacks", "idles")
        for code, phrase in idles:
            if phrase.endswith("."):
                raise fail(
                    f"{label}: 'idles': {code}: the phrase must not end with a full stop: "
                    f"{show(phrase)}",
                    "idles",
                    code,
                )
        discard = data.get("discard_after_use", False)
        if type(discard) is not bool:
            raise fail(
                f"{label}: 'discard_after_use' must be true or false, not {show(discard)}",
                "discard_after_use",
            )
        card = cls(
            # Interned: compiled, a key met in play is then the very string the rules'
            # code names it with, and compares by identity.
            key=sys.intern(key),
            name=data["name"],
            type=_enum(CardType, data["type"], fail, label, "type"),
            text=" ".join(data["text"].split()),
            set=set_name,
            names=names,
            texts=texts,
            idle=" ".join(idle.split()) if idle is not None else None,
            idles=idles,
            reveal_tokens=_enum(
                RevealTokens, data.get("reveal_tokens", "gain"), fail, label, "reveal_tokens"
            ),
            discard_after_use=discard,
            setup=_enum(Setup, data.get("setup", "shuffled"), fail, label, "setup"),
            requires=_requires(data.get("requires"), fail, label),
            source=here,
        )
        # An Intrigue that stayed face up in the queue would break every rule that
        # reads "face up" as "a Character": say so at load time, not mid-game.
        if card.type is CardType.INTRIGUE and not card.discard_after_use:
            raise fail(f"{label}: an intrigue must have discard_after_use: true", "type")
        return card


_CARD_FIELDS = frozenset(
    {
        "key",
        "name",
        "names",
        "type",
        "text",
        "texts",
        "idle",
        "idles",
        "reveal_tokens",
        "discard_after_use",
        "setup",
        "requires",
    }
)


def languages(cards: Iterable[CardDef]) -> tuple[str, ...]:
    """``en`` and every language code ``cards`` name (in ``names``, ``texts`` or ``idles``)."""
    codes = {code for card in cards for code, _ in (*card.names, *card.texts, *card.idles)}
    return ("en", *sorted(codes))


def _translations(
    data: Mapping[str, Any],
    field: str,
    example: str,
    fail: Any,
    label: str,
    *,
    english: str | None = None,
) -> tuple[tuple[str, str], ...]:
    """``names``, ``texts`` or ``idles``: language codes mapped to non-empty strings,
    sorted; ``english`` is the field that holds the English one (default: ``field``
    without its final s)."""
    english = english or field[:-1]
    value = data.get(field, {})
    if not isinstance(value, Mapping) or not all(
        type(k) is str and type(v) is str and v.strip() for k, v in value.items()
    ):
        what = f"{field} ({example})" if field != "idles" else f"idle phrases ({example})"
        raise fail(
            f"{label}: {field!r} must map language codes to {what}, not {show(value)}",
            field,
        )
    for code in value:
        if code == "en":
            raise fail(
                f"{label}: {field!r}: English is the card's own "
                f"{english!r}, not a language code of {field!r}",
                field,
                code,
            )
        if not LANGUAGE_PATTERN.match(code):
            raise fail(
                f"{label}: {field!r}: language code {show(code)} must be a lowercase "
                "code like fr, pl or pt_br",
                field,
                code,
            )
    return tuple(sorted((k, " ".join(v.split())) for k, v in value.items()))


def _requires(value: object, fail: Any, label: str) -> str | None:
    if value is None:
        return None
    if not is_key(value):
        raise fail(f"{label}: 'requires' must be a card key, not {show(value)}", "requires")
    return value


def _enum(kind: type[_E], value: object, fail: Any, label: str, field: str) -> _E:
    for member in kind:
        if type(value) is str and member.value == value:
            return member
    allowed = ", ".join(str(member.value) for member in kind)
    raise fail(f"{label}: {field} {show(value)} is not one of: {allowed}", field)


@attrs.frozen
class CardSet:
    """A named set of cards, loaded from one YAML file."""

    name: str
    title: str
    cards: tuple[CardDef, ...]
    source: str
    plugin: str = ""
    keys: tuple[str, ...] = attrs.field(init=False)  # the card keys, in file order

    @keys.default
    def _keys(self) -> tuple[str, ...]:
        return tuple(card.key for card in self.cards)

    @classmethod
    def read(cls, source: object, *, plugin: str) -> CardSet:
        """The set in the file at ``source``, which a plugin's ``register_card_sets``
        returned; anything wrong with it (not a path, a file too big, not UTF-8, a line
        too long, malformed or inconsistent) raises :class:`PluginError` naming the file
        (and the line where there is one). The bounds are :mod:`.yamlfile`'s."""
        # A str is refused: relative to the working directory, it would name another
        # file depending on where a command is run.
        if not isinstance(source, os.PathLike | Traversable):
            raise PluginError(
                "register_card_sets must return paths to card-set files (a pathlib.Path or "
                f"importlib.resources.files(...) / 'name.yaml'), not {show(source)}"
            )
        try:
            text = read_text(source, CardDataError)
            return cls.from_yaml(text, path=str(source), plugin=plugin)
        except OriflammeError as exc:
            raise PluginError(str(exc)) from None
        except Exception as exc:  # a Traversable of someone's making may fail its own way
            raise PluginError(f"{source}: cannot read: {type(exc).__name__}: {exc}") from None

    @classmethod
    def from_yaml(cls, text: str, *, path: str, plugin: str = "") -> CardSet:
        """Parse a set file; a malformed or inconsistent file raises :class:`CardDataError`."""
        doc = parse_yaml(text, path, CardDataError)
        data = doc.data
        if not isinstance(data, Mapping):
            raise CardDataError(
                f"{path}: a card set file must be a mapping with 'set', 'title' and 'cards'"
            )
        unknown = _names(set(data) - {"set", "title", "cards"})
        if unknown:
            raise CardDataError(
                f"{doc.where(_spelled(unknown[0]))}: unknown key {show(unknown[0])} "
                "(expected 'set', 'title' and 'cards')"
            )
        name = data.get("set")
        if not is_key(name):
            raise CardDataError(f"{doc.where('set')}: 'set' must be {KEY_RULE}, not {show(name)}")
        title = data.get("title", name)
        if type(title) is not str or not title.strip():
            raise CardDataError(
                f"{doc.where('title')}: 'title' must be a non-empty string, not {show(title)}"
            )
        cards_data = data.get("cards")
        if type(cards_data) is not list or not cards_data:
            raise CardDataError(
                f"{doc.where('cards')}: 'cards' must be a non-empty list of cards, "
                f"not {show(cards_data)}"
            )
        cards: list[CardDef] = []
        seen: dict[str, str] = {}
        for index, entry in enumerate(cards_data):
            card = CardDef.from_mapping(entry, set_name=name, doc=doc, where=("cards", index))
            if card.key in seen:
                raise CardDataError(
                    f"{card.source}: card key {card.key!r} is defined twice "
                    f"(first at {seen[card.key]})"
                )
            seen[card.key] = card.source
            cards.append(card)
        return cls(name=name, title=title, cards=tuple(cards), source=path, plugin=plugin)
