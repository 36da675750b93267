"""The languages the project's sentences are written in, and how a sentence is looked up.

The project speaks English (``en``), French (``fr``) and Polish (``pl``). Each module
of :mod:`oriflamme.text` keeps its sentences in a :class:`Templates` table: a key per
sentence, and for each key one template per language, filled with :meth:`str.format`
fields (never evaluated: a field is a name, a value is only ever inserted). Every key
has a template in every language, with the same fields (a test checks it).

What the card data gives (card names and texts, in ``names`` and ``texts``) is in
whatever languages the card data names; what it lacks is in English. So is every
sentence asked in a language the project does not speak (a plugin's card data may
name ``de``: its cards' names are German, the sentences around them English), and
whatever a plugin words itself (a decision kind's ``question`` and ``option``, a
``help`` or the labels of a question): a plugin without words in a language reads in
English there.

French and Polish nouns have a gender and Polish ones a case, while card names are
given only as they are printed (the nominative). The sentences are built so that they
stay right whatever the card: a card is named as a label (``Soldat (Bleu)``,
``Żołnierz (Niebieski)``), a pronoun stands for the word ``carte`` / ``karta`` and not
for the card's name, and Polish says what a card does in the present tense, which has
no gender; a card a verb acts on is ``kartę „Dziedzic”`` (the word for card declined,
the name quoted beside it). A family is named by its colour, written as a player's
name is in the rulebooks (``Bleu``, ``Niebieski``); Polish declines the colours where
a sentence needs it (``karta Czerwonego``, ``kradnie Niebieskiemu``:
:data:`COLOUR_CASES`), and the few card names it needs in another case are listed
(:data:`CARD_GENITIVES`), any other being quoted. French elides ``de``, ``le``, ``la``
and ``que`` before a name that begins with a vowel (``d'Archer``): :class:`Templates`
does it as it fills a French sentence. The person is ``vous`` in French and ``ty`` in
Polish throughout.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Mapping

#: The languages the sentences are written in: English first, the fallback.
LANGUAGES = ("en", "fr", "pl")

#: A language's name, in each language: what a message about a language says.
LANGUAGE_NAMES: Mapping[str, Mapping[str, str]] = {
    "en": {"en": "English", "fr": "French", "pl": "Polish"},
    "fr": {"en": "anglais", "fr": "français", "pl": "polonais"},
    "pl": {"en": "angielski", "fr": "francuski", "pl": "polski"},
}

#: The families' colours (``oriflamme.COLOURS``) as each language names a player.
COLOUR_NAMES: Mapping[str, Mapping[str, str]] = {
    "fr": {"red": "Rouge", "blue": "Bleu", "green": "Vert", "yellow": "Jaune", "black": "Noir"},
    "pl": {
        "red": "Czerwony",
        "blue": "Niebieski",
        "green": "Zielony",
        "yellow": "Żółty",
        "black": "Czarny",
    },
}

#: The colours in the other cases a language declines a name in (Polish: ``karta
#: Niebieskiego``, ``kradnie Niebieskiemu``); a case not here is the nominative.
COLOUR_CASES: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "pl": {
        "genitive": {
            "red": "Czerwonego",
            "blue": "Niebieskiego",
            "green": "Zielonego",
            "yellow": "Żółtego",
            "black": "Czarnego",
        },
        "dative": {
            "red": "Czerwonemu",
            "blue": "Niebieskiemu",
            "green": "Zielonemu",
            "yellow": "Żółtemu",
            "black": "Czarnemu",
        },
    },
}

#: Card names in the genitive, by language, for the few sentences that need one
#: (Polish ``żeton Przekupstwa``): a name not here is quoted instead (``żeton „X”``).
CARD_GENITIVES: Mapping[str, Mapping[str, str]] = {"pl": {"Przekupstwo": "Przekupstwa"}}

#: Nouns that are counted, by language: the forms a count takes (see :func:`counted`).
NOUNS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "token": {
        "en": ("token", "tokens"),
        "fr": ("jeton", "jetons"),
        "pl": ("żeton", "żetony", "żetonów"),
    },
    "card": {"en": ("card", "cards"), "fr": ("carte", "cartes"), "pl": ("karta", "karty", "kart")},
    "influence": {
        "en": ("Influence", "Influence"),
        "fr": ("point d'Influence", "points d'Influence"),
        "pl": ("punkt Wpływu", "punkty Wpływu", "punktów Wpływu"),
    },
    "family": {
        "en": ("family", "families"),
        "fr": ("famille", "familles"),
        "pl": ("ród", "rody", "rodów"),
    },
}


def spoken(language: str) -> str:
    """``language`` if the project's sentences are written in it, else ``en``."""
    return language if language in LANGUAGES else "en"


def colour(family: str, language: str, case: str = "nominative") -> str:
    """``family`` as ``language`` names it: ``Bleu`` for ``blue`` in French; in ``case``
    where the language declines it (``Niebieskiego``, the Polish genitive), else in the
    nominative. A family that is no colour (a save's own name, say) keeps its name."""
    declined = COLOUR_CASES.get(language, {}).get(case, {}).get(family)
    return declined if declined is not None else COLOUR_NAMES.get(language, {}).get(family, family)


def card_genitive(name: str, language: str) -> str:
    """The card name ``name`` (in ``language``) as its genitive: ``Przekupstwa`` for
    ``Przekupstwo`` in Polish; a name the language declines but we do not know is quoted
    (``„X”``); a language without cases says it as it is."""
    if language not in CARD_GENITIVES:
        return name
    return CARD_GENITIVES[language].get(name, f"„{name}”")


def language_name(code: str, language: str) -> str:
    """The name of the language ``code`` in ``language`` (``code`` itself if unknown)."""
    return LANGUAGE_NAMES[spoken(language)].get(code, code)


def counted(count: int, noun: str, language: str = "en") -> str:
    """``count`` ``noun`` (a key of :data:`NOUNS`, or an English noun) in ``language``,
    the noun agreeing: ``1 token``, ``2 tokens``; ``0 jeton``, ``2 jetons``; ``1 żeton``,
    ``3 żetony``, ``5 żetonów``, ``22 żetony``."""
    forms = NOUNS.get(noun, {}).get(spoken(language))
    if forms is None:  # an English noun we have no table for
        return f"{count} {noun}{'s' * (count != 1)}"
    if len(forms) == 2:
        many = count != 1 if spoken(language) == "en" else count > 1
        return f"{count} {forms[many]}"
    return f"{count} {forms[polish_form(count)]}"


def polish_form(count: int) -> int:
    """Which of a Polish word's three forms agrees with ``count``: 1; 2-4, 22-24... (not
    12-14); all the others (``1 żeton``, ``3 żetony``, ``5 żetonów``; ``został``,
    ``zostały``, ``zostało``)."""
    if count == 1:
        return 0
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return 1
    return 2


#: Polish ordinals in words, agreeing with a masculine noun (``drugi żeton``).
_POLISH_ORDINALS = (
    "pierwszy",
    "drugi",
    "trzeci",
    "czwarty",
    "piąty",
    "szósty",
    "siódmy",
    "ósmy",
    "dziewiąty",
    "dziesiąty",
)


def ordinal(number: int, language: str = "en") -> str:
    """``1st``, ``2nd``, ``11th``; ``1er``, ``2e``; ``pierwszy``, ``drugi`` (Polish,
    agreeing with a masculine noun such as ``żeton``; ``11.`` from the eleventh)."""
    language = spoken(language)
    if language == "fr":
        return "1er" if number == 1 else f"{number}e"
    if language == "pl":
        if 1 <= number <= len(_POLISH_ORDINALS):
            return _POLISH_ORDINALS[number - 1]
        return f"{number}."
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(number % 10, 'th')}"


#: French words that drop their vowel before one (``de Archer`` is ``d'Archer``).
ELIDING = {"de": "d'", "le": "l'", "la": "l'", "que": "qu'"}
#: Words whose h is aspirated, which take no elision (``le héros``); any other h is mute
#: (``l'Héritier``).
_ASPIRATED = ("hache", "hallebard", "harpie", "hasard", "haut", "héraut", "héros", "hibou")
_ELIDING_FIELD = re.compile(r"\b(de|le|la|que) \{(\w+)\}", re.IGNORECASE)


def elides(following: str) -> bool:
    """Whether a French ``de``, ``le``, ``la`` or ``que`` before ``following`` drops its
    vowel: before a vowel or a mute h (``Archer``, ``Héritier``, ``une carte``)."""
    word = following.split(" ", 1)[0].casefold()
    first = unicodedata.normalize("NFKD", word[:1])[:1]
    if first == "h":
        return not word.startswith(_ASPIRATED)
    return first in ("a", "e", "i", "o", "u", "y", "œ", "æ")


def elided(word: str, following: str) -> str:
    """``word`` then ``following`` in French: ``d'Archer``, ``de Soldat``, ``qu'une``
    (``word`` a key of :data:`ELIDING`, in any case; any other word is left whole)."""
    short = ELIDING.get(word.casefold())
    if short is None or not elides(following):
        return f"{word} {following}"
    return f"{word[:1]}{short[1:]}{following}"


def _elide(template: str, values: Mapping[str, object]) -> str:
    """``template`` with ``de {card}`` written ``d'{card}`` where the card's words begin
    with a vowel: a French name is inserted as it is printed, whatever comes before."""

    def shorten(found: re.Match[str]) -> str:
        word, name = found.group(1), found.group(2)
        value = values.get(name)
        if value is None or not elides(str(value)):
            return found.group(0)
        return f"{word[:1]}{ELIDING[word.casefold()][1:]}{{{name}}}"

    return _ELIDING_FIELD.sub(shorten, template)


def fields(template: str) -> set[str]:
    """The names of ``template``'s fields: ``{"card", "where"}`` for ``"Put {card} {where}"``."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


class Templates:
    """One module's sentences: for each key, a template per language.

    ``table`` maps a key to its templates by language code; every table is kept in
    :data:`TABLES` (the test that every key is in every language reads them there).
    """

    def __init__(self, name: str, table: Mapping[str, Mapping[str, str]]) -> None:
        self.name = name
        self.table = table
        TABLES.append(self)

    def __call__(self, language: str, key: str, /, **values: object) -> str:
        """The sentence ``key`` in ``language`` (English if the project does not speak
        it), its fields filled with ``values`` (in French, a ``de`` before a field whose
        value begins with a vowel elided: ``d'Archer``)."""
        language = spoken(language)
        template = self.table[key][language]
        if language == "fr":
            template = _elide(template, values)
        return template.format(**values)

    def words(self, key: str) -> tuple[str, ...]:
        """The sentence ``key`` in every language, unfilled."""
        return tuple(self.table[key][language] for language in LANGUAGES)


#: Every module's table of sentences.
TABLES: list[Templates] = []
