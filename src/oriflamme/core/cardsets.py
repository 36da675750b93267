"""Card definitions and the card-set YAML files that hold them.

A card set file is a mapping with ``set`` (the set's name), ``title`` and
``cards``, a list of card mappings. Behaviour that is better stated as data than
as code lives here too: how revealing the card pays out its tokens, whether it
is discarded after use, where it waits at setup.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum, StrEnum
from typing import Any, TypeVar

import attrs

from .errors import CardDataError
from .yamlfile import YamlDocument, parse_yaml

_E = TypeVar("_E", bound=Enum)

KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")


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

    @property
    def is_character(self) -> bool:
        return self.type is CardType.CHARACTER

    def name_in(self, language: str) -> str:
        """The card's name in ``language`` (``en``, ``fr``, ``pl``...), English if unknown."""
        return dict(self.names).get(language, self.name)

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
            raise CardDataError(f"{here}: a card must be a mapping, not {type(data).__name__}")
        unknown = sorted(set(data) - _CARD_FIELDS)
        if unknown:
            raise fail(
                f"unknown field {unknown[0]!r} (expected one of {', '.join(sorted(_CARD_FIELDS))})",
                unknown[0],
            )
        for required in ("key", "name", "type", "text"):
            if required not in data:
                raise CardDataError(f"{here}: card is missing required field {required!r}")
        key = data["key"]
        if not isinstance(key, str) or not KEY_PATTERN.match(key):
            raise fail(f"card key {key!r} must be lowercase snake_case", "key")
        label = f"card {key!r}"
        for text_field in ("name", "text"):
            if not isinstance(data[text_field], str) or not data[text_field].strip():
                raise fail(f"{label}: {text_field!r} must be a non-empty string", text_field)
        names = data.get("names", {})
        if not isinstance(names, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in names.items()
        ):
            raise fail(f"{label}: 'names' must map language codes to names", "names")
        discard = data.get("discard_after_use", False)
        if not isinstance(discard, bool):
            raise fail(f"{label}: 'discard_after_use' must be true or false", "discard_after_use")
        card = cls(
            key=key,
            name=data["name"],
            type=_enum(CardType, data["type"], fail, label, "type"),
            text=" ".join(data["text"].split()),
            set=set_name,
            names=tuple(sorted(names.items())),
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
        "reveal_tokens",
        "discard_after_use",
        "setup",
        "requires",
    }
)


def _requires(value: object, fail: Any, label: str) -> str | None:
    if value is not None and not (isinstance(value, str) and KEY_PATTERN.match(value)):
        raise fail(f"{label}: 'requires' must be a card key, not {value!r}", "requires")
    return value


def _enum(kind: type[_E], value: object, fail: Any, label: str, field: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(member.value) for member in kind)
        raise fail(f"{label}: {field} {value!r} is not one of: {allowed}", field) from None


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
    def from_yaml(cls, text: str, *, path: str, plugin: str = "") -> CardSet:
        """Parse a set file; a malformed or inconsistent file raises :class:`CardDataError`."""
        doc = parse_yaml(text, path, CardDataError)
        data = doc.data
        if not isinstance(data, Mapping):
            raise CardDataError(
                f"{path}: a card set file must be a mapping with 'set', 'title' and 'cards'"
            )
        unknown = sorted(set(data) - {"set", "title", "cards"})
        if unknown:
            raise CardDataError(
                f"{doc.where(unknown[0])}: unknown key {unknown[0]!r} "
                "(expected 'set', 'title' and 'cards')"
            )
        name = data.get("set")
        if not isinstance(name, str) or not KEY_PATTERN.match(name):
            raise CardDataError(f"{doc.where('set')}: 'set' must be a lowercase name, not {name!r}")
        cards_data = data.get("cards")
        if not isinstance(cards_data, list) or not cards_data:
            raise CardDataError(f"{doc.where('cards')}: 'cards' must be a non-empty list")
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
        title = data.get("title", name)
        if not isinstance(title, str):
            raise CardDataError(f"{doc.where('title')}: 'title' must be a string")
        return cls(name=name, title=title, cards=tuple(cards), source=path, plugin=plugin)
