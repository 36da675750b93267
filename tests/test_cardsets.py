"""Card data: the base set loads; a malformed file fails with its file, line and reason."""

from __future__ import annotations

from importlib.resources import files

import pytest

from oriflamme import CardDataError, CardSet, CardType, Registry, RevealTokens, languages

GOOD_CARD = """\
set: test
title: Test
cards:
  - key: knight
    name: Knight
    type: character
    text: Gain 1.
"""


def load(text: str) -> CardSet:
    return CardSet.from_yaml(text, path="test.yaml")


def test_base_set_has_the_ten_cards_with_their_names(registry: Registry) -> None:
    base = registry.sets["base"]
    assert base.keys == (
        "archer",
        "soldier",
        "spy",
        "heir",
        "assassination",
        "royal_decree",
        "lord",
        "shapeshifter",
        "ambush",
        "conspiracy",
    )
    cards = {card.key: card for card in base.cards}
    assert cards["shapeshifter"].name_in("fr") == "Changeforme"
    assert cards["shapeshifter"].name_in("pl") == "Impostor"
    assert cards["archer"].name_in("pl") == "Łucznik"
    assert cards["royal_decree"].name == "Royal Decree"
    intrigues = {k for k, c in cards.items() if c.type is CardType.INTRIGUE}
    assert intrigues == {"assassination", "royal_decree", "ambush", "conspiracy"}
    assert all(c.discard_after_use == (c.type is CardType.INTRIGUE) for c in cards.values())
    assert cards["conspiracy"].reveal_tokens is RevealTokens.DOUBLE
    assert cards["ambush"].reveal_tokens is RevealTokens.SUPPLY
    assert cards["soldier"].reveal_tokens is RevealTokens.GAIN


def test_card_yaml_is_read_with_safe_load_only() -> None:
    source = (files("oriflamme") / "core" / "_yamlfile.py").read_text(encoding="utf-8")
    assert "yaml.safe_load(" in source
    for unsafe in ("yaml.load(", "yaml.unsafe_load", "FullLoader", "UnsafeLoader", "eval("):
        assert unsafe not in source


def test_a_good_file_loads_into_frozen_cards() -> None:
    card = load(GOOD_CARD).cards[0]
    assert (card.key, card.name, card.type, card.set) == (
        "knight",
        "Knight",
        CardType.CHARACTER,
        "test",
    )
    assert card.source == "test.yaml:4"
    with pytest.raises(AttributeError):
        card.name = "Other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD_CARD.replace("    type: character\n", ""),
            "test.yaml:4: card 'knight' is missing required field 'type'",
        ),
        (
            GOOD_CARD.replace("type: character", "type: hero"),
            "test.yaml:6: card 'knight': type 'hero' is not one of: character, intrigue",
        ),
        (GOOD_CARD + "    power: 3\n", "test.yaml:8: unknown field 'power'"),
        (
            GOOD_CARD.replace("key: knight", "key: Knight"),
            "test.yaml:4: card key 'Knight' must be lowercase snake_case",
        ),
        (
            GOOD_CARD + GOOD_CARD.split("cards:\n")[1],
            "test.yaml:8: card key 'knight' is defined twice (first at test.yaml:4)",
        ),
        (
            GOOD_CARD.replace("type: character", "type: intrigue"),
            "test.yaml:6: card 'knight': an intrigue must have discard_after_use: true",
        ),
        (
            GOOD_CARD.replace("    text: Gain 1.\n", "    text: Gain 1.\n    text: Gain 2.\n"),
            "test.yaml:8: key 'text' is given twice (first at line 7)",
        ),
        (GOOD_CARD.replace("name: Knight", "name: [Knight"), "test.yaml:6: not valid YAML"),
        ("set: test\ntitle: Test\ncards: []\n", "test.yaml:3: 'cards' must be a non-empty list"),
        ("- a list\n", "test.yaml: a card set file must be a mapping"),
    ],
)
def test_a_malformed_file_names_file_line_and_problem(text: str, message: str) -> None:
    with pytest.raises(CardDataError) as error:
        load(text)
    assert str(error.value).startswith(message), str(error.value)


WRONG_TYPES = ["null", "[a, b]", "{a: 1}", ".nan", "true", "123456789012345678", "''"]


@pytest.mark.parametrize("value", WRONG_TYPES)
@pytest.mark.parametrize(
    ("field", "line", "expected"),
    [
        ("set", 1, "'set' must be lowercase snake_case"),
        ("title", 2, "'title' must be a non-empty string"),
        ("cards", 3, "'cards' must be a non-empty list of cards"),
        ("key", 4, "card key"),
        ("name", 5, "card 'knight': 'name' must be a non-empty string"),
        ("type", 6, "card 'knight': type"),
        ("text", 7, "card 'knight': 'text' must be a non-empty string"),
    ],
)
def test_a_field_of_the_wrong_type_is_named_with_its_line(
    field: str, line: int, expected: str, value: str
) -> None:
    text = "".join(
        f"{head}{field}: {value}\n" if rest.startswith(f"{field}:") else f"{head}{rest}\n"
        for head, rest in (
            (each[: len(each) - len(each.lstrip(" -"))], each.lstrip(" -"))
            for each in GOOD_CARD.splitlines()
        )
    )
    if field == "cards":
        text = text.split("\n  - key")[0] + "\n"
        if value.startswith("["):  # a list, but of what is not a card
            line, expected = 3, "a card must be a mapping, not 'a'"
    with pytest.raises(CardDataError) as error:
        load(text)
    message = str(error.value)
    assert message.startswith(f"test.yaml:{line}: {expected}"), message


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("    names: [Chevalier]\n", "test.yaml:8: card 'knight': 'names' must map language"),
        ("    names: {fr: 3}\n", "test.yaml:8: card 'knight': 'names' must map language"),
        ("    names: {fr: ''}\n", "test.yaml:8: card 'knight': 'names' must map language"),
        ("    discard_after_use: 'yes'\n", "test.yaml:8: card 'knight': 'discard_after_use'"),
        ("    discard_after_use: 1\n", "test.yaml:8: card 'knight': 'discard_after_use'"),
        ("    reveal_tokens: [gain]\n", "test.yaml:8: card 'knight': reveal_tokens a list"),
        ("    setup: {reserve: 1}\n", "test.yaml:8: card 'knight': setup a mapping"),
        ("    requires: 3\n", "test.yaml:8: card 'knight': 'requires' must be a card key, not 3"),
        ('    requires: "prince\\n"\n', "test.yaml:8: card 'knight': 'requires' must be"),
        ("    3: x\n", "test.yaml:8: unknown field 3"),
        ("    3: x\n    z: y\n", "test.yaml:8: unknown field 3"),
        ("    null: x\n", "test.yaml:8: unknown field null"),
    ],
)
def test_an_optional_field_of_the_wrong_type_is_refused(extra: str, message: str) -> None:
    with pytest.raises(CardDataError) as error:
        load(GOOD_CARD + extra)
    assert str(error.value).startswith(message), str(error.value)


@pytest.mark.parametrize(
    "key", ['"archer\\n"', '"archer "', "Archer", "a" * 41, "_archer", '"ar-cher"', "'1st'"]
)
def test_a_card_key_or_set_name_must_be_exactly_a_key(key: str) -> None:
    with pytest.raises(CardDataError, match=r"test.yaml:4: card key .* must be lowercase"):
        load(GOOD_CARD.replace("key: knight", f"key: {key}"))
    with pytest.raises(CardDataError, match=r"test.yaml:1: 'set' must be lowercase"):
        load(GOOD_CARD.replace("set: test", f"set: {key}"))
    assert load(GOOD_CARD.replace("key: knight", "key: " + "a" * 40)).keys == ("a" * 40,)


def test_a_mapping_of_mixed_keys_is_refused_by_its_first_unknown_key() -> None:
    with pytest.raises(CardDataError, match=r"test.yaml:8: unknown key 1 \(expected"):
        load(GOOD_CARD + "1: a\nz: b\n")


def test_every_card_has_french_and_polish_names_texts_and_idle_phrases(
    registry: Registry,
) -> None:
    for name in ("base", "ablaze"):
        for card in registry.sets[name].cards:
            assert {code for code, _ in card.names} == {"fr", "pl"}, card.key
            assert {code for code, _ in card.texts} == {"fr", "pl"}, card.key
            # An idle phrase in English is one in French and Polish too, and only then.
            codes = {code for code, _ in card.idles}
            assert codes == ({"fr", "pl"} if card.idle else set()), card.key
    cards = registry.cards
    assert cards["queen"].name_in("fr") == "Reine"
    assert cards["queen"].name_in("pl") == "Królowa"
    assert cards["plot"].text_in("pl").startswith("Odrzuć Knowanie.")
    assert cards["trap"].text_in("fr").startswith("Défaussez tous les points d'Influence")
    # No Ablaze card takes a name a base card has, in any language: a player says them.
    for code in ("en", "fr", "pl"):
        names = [card.name_in(code) for card in cards.values()]
        assert len(names) == len(set(names)), code
    assert cards["soldier"].idle_in("fr") == "n'élimine rien : aucune carte ne lui est adjacente"
    assert (cards["felon"].idle_in("pl") or "").startswith("nikomu nie odbiera Wpływu")
    assert cards["spy"].idle_in("de") == "steals nothing"  # no German: the English phrase
    assert cards["spy"].idle_in("en") == "steals nothing"
    assert cards["archer"].idle_in("fr") is None  # no phrase in any language


def test_idles_are_read_folded_and_fall_back_to_english() -> None:
    card = load(
        GOOD_CARD
        + '    idle: "gains nothing"\n'
        + "    idles:\n      fr: >-\n        ne gagne\n        rien\n      pt_br: não ganha nada\n"
    ).cards[0]
    assert card.idles == (("fr", "ne gagne rien"), ("pt_br", "não ganha nada"))
    assert card.idle_in("fr") == "ne gagne rien"
    assert card.idle_in("pl") == "gains nothing"
    assert card.idle_in("en") == "gains nothing"
    assert languages([card]) == ("en", "fr", "pt_br")
    bare = load(GOOD_CARD).cards[0]
    assert (bare.idles, bare.idle_in("fr")) == ((), None)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            '    idle: "gains nothing"\n    idles: [ne gagne rien]\n',
            "test.yaml:9: card 'knight': 'idles' must map language codes to idle phrases",
        ),
        (
            '    idle: "gains nothing"\n    idles: {fr: 3}\n',
            "test.yaml:9: card 'knight': 'idles' must map language codes to idle phrases",
        ),
        (
            "    idle: \"gains nothing\"\n    idles: {fr: ' '}\n",
            "test.yaml:9: card 'knight': 'idles' must map language codes to idle phrases",
        ),
        (
            '    idle: "gains nothing"\n    idles: {en: gains nothing}\n',
            "test.yaml:9: card 'knight': 'idles': English is the card's own 'idle', "
            "not a language code of 'idles'",
        ),
        (
            '    idle: "gains nothing"\n    idles: {FR: ne gagne rien}\n',
            "test.yaml:9: card 'knight': 'idles': language code 'FR' must be a lowercase code",
        ),
        (
            '    idle: "gains nothing"\n    idles: {fr: ne gagne rien.}\n',
            "test.yaml:9: card 'knight': 'idles': fr: the phrase must not end with a full stop",
        ),
        (
            "    idles: {fr: ne gagne rien}\n",
            "test.yaml:8: card 'knight': 'idles' translates 'idle', which the card lacks",
        ),
    ],
)
def test_bad_idles_are_named_with_file_line_and_what_is_expected(extra: str, message: str) -> None:
    with pytest.raises(CardDataError) as error:
        load(GOOD_CARD + extra)
    assert str(error.value).startswith(message), str(error.value)
