"""Questions and answers in words: how each kind of decision is put to a person.

A kind of decision (:class:`~oriflamme.DecisionKind`) checks answers; the sentences are
here. :func:`question_text` and :func:`answer_text` word a decision for the family
asked, through a :class:`Naming` (cards and positions as that family sees them, its
observation, and the game's card definitions). Positions are counted from 1, as the
table shows them, and every answer says what it does. In order:

* a kind whose class defines its own ``question`` / ``option`` methods (a plugin's)
  words itself, as it always did: ``question(decision, naming) -> str`` and
  ``option(decision, option, naming) -> str``;
* the kinds that ship with oriflamme are worded here, by name;
* any other question says the asker's ``question`` (else ``Your <card>: <help>``) and
  each option's label (the asker's ``labels``), else the option itself.

What comes from a plugin or a save is escaped (:func:`~oriflamme.text.escaped`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Protocol

from oriflamme import (
    Answer,
    At,
    CardDef,
    CardId,
    Decision,
    DecisionKind,
    Observation,
    Placement,
    RevealTokens,
)
from oriflamme.text import escaped

from ._languages import Templates, counted, ordinal, polish_form, spoken


class Naming(Protocol):
    """Names of things as one family sees them, handed to a kind's ``question`` and
    ``option`` (:class:`~oriflamme.text.Words` is one)."""

    @property
    def seen(self) -> Observation:
        """The observation the words are of: what they may tell (tokens, keys)."""
        ...

    @property
    def definitions(self) -> Mapping[str, CardDef]:
        """The game's cards by key (names, texts, what revealing one does with its
        tokens): the rules are public, as the rulebook is."""
        ...

    @property
    def language(self) -> str:
        """The language of card names and texts: ``en``, or a code the card data names."""
        ...

    def card(self, card: CardId | None) -> str:
        """A card: ``blue Soldier``, or ``a face-down card`` if the family may not know it."""
        ...

    def position(self, index: int) -> str:
        """The top card of the position at index ``index``, counted from 1 as the table
        shows it: index 2 is ``position 3: blue's face-down card``."""
        ...

    def spot(self, at: At) -> str:
        """A place in the queue: ``at the first end``, ``on top of position 2: ...``."""
        ...


def question_text(kind: DecisionKind, words: Naming, decision: Decision) -> str:
    """The question, in words (a plugin's or a save's, escaped)."""
    own: Callable[[Decision, Naming], str] | None = getattr(kind, "question", None)
    if own is not None:
        return escaped(own(decision, words))
    builtin = _QUESTIONS.get(kind.name) if _shipped(kind) else None
    if builtin is not None:
        return escaped(builtin(decision, words))
    return escaped(_question(kind, decision, words))


def answer_text(kind: DecisionKind, words: Naming, decision: Decision, answer: Answer) -> str:
    """One legal answer, in words (a plugin's labels or a save's, escaped)."""
    own: Callable[[Decision, Answer, Naming], str] | None = getattr(kind, "option", None)
    if own is not None:
        return escaped(own(decision, answer, words))
    builtin = _OPTIONS.get(kind.name) if _shipped(kind) else None
    if builtin is not None:
        return escaped(builtin(decision, answer, words))
    return escaped(_option(decision, answer))


def _shipped(kind: DecisionKind) -> bool:
    """Whether ``kind`` ships with oriflamme: a plugin's is never worded as one of ours."""
    return type(kind).__module__.split(".", 1)[0] == "oriflamme"


def _question(kind: DecisionKind, decision: Decision, words: Naming) -> str:
    """The asker's question, else the kind's ``help`` about the acting card."""
    if decision.question:
        return decision.question
    if decision.card is None:
        return kind.help
    return _say(words.language, "help", card=words.card(decision.card), help=kind.help)


def _option(decision: Decision, option: Answer) -> str:
    """The asker's label for ``option``, else the option itself."""
    label = _label(decision, option)
    return label if label is not None else str(option)


def _label(decision: Decision, option: Answer) -> str | None:
    if decision.labels is None:
        return None
    try:
        return decision.labels[list(decision.options).index(option)]
    except ValueError:
        return None


# The placement phase.


def _place_question(decision: Decision, words: Naming) -> str:
    return _say(words.language, "place")


def _place_option(decision: Decision, option: Answer, words: Naming) -> str:
    assert isinstance(option, Placement)
    return _say(
        words.language, "place.option", card=words.card(option.card), spot=words.spot(option.at)
    )


# A face-down card's turn (RULINGS R1).


def _reveal_question(decision: Decision, words: Naming) -> str:
    card = decision.card
    language = words.language
    tokens = words.seen.tokens_on(card) if card is not None else 0
    on_it = (
        _say(language, "reveal.on_it", tokens=counted(tokens, "token", language)) if tokens else ""
    )
    return _say(language, "reveal", card=words.card(card), on_it=on_it)


def _reveal_option(decision: Decision, option: Answer, words: Naming) -> str:
    card = decision.card
    language = words.language
    tokens = words.seen.tokens_on(card) if card is not None else 0
    if not option:
        # RULINGS R1: declining adds a token, which revealing later pays out.
        if not tokens:
            more = _say(language, "reveal.first_token")
        else:
            more = _say(language, "reveal.next_token", ordinal=ordinal(tokens + 1, language))
        return _say(language, "reveal.keep", more=more)
    return _say(language, "reveal.reveal", revealing=_revealing(words, card, tokens))


def _revealing(words: Naming, card: CardId | None, tokens: int) -> str:
    """What revealing ``card`` does with its ``tokens`` (RULINGS R2), then its ability."""
    key = words.seen.key(card) if card is not None else None
    definition = words.definitions.get(key) if key is not None else None
    mode = definition.reveal_tokens if definition is not None else None
    language = words.language
    on_it = counted(tokens, "token", language)
    if not tokens:
        return _say(language, "revealing.ability")
    if mode is RevealTokens.ABILITY:
        return _say(language, "revealing.spends", tokens=on_it)
    many = "one" if tokens == 1 else "many"
    if mode is RevealTokens.GAIN:
        paid = _say(language, "revealing.gain", tokens=on_it)
    elif mode is RevealTokens.DOUBLE:
        double = counted(2 * tokens, "influence", language)
        paid = _say(language, "revealing.double", tokens=on_it, double=double)
    elif mode is RevealTokens.SUPPLY:
        paid = _say(language, f"revealing.supply.{many}", tokens=on_it)
    else:  # words of a family that may not know the card: no more than its face tells
        paid = _say(language, f"revealing.as_it_says.{many}", tokens=on_it)
    return _say(language, "revealing.then", paid=paid)


# An ability chooses a card in the queue, named by its position.


def _target_question(decision: Decision, words: Naming) -> str:
    if decision.question:
        return decision.question
    return _say(words.language, "target", acting=_acting(decision, words))


def _target_option(decision: Decision, option: Answer, words: Naming) -> str:
    label = _label(decision, option)
    if label is not None:
        return label
    assert isinstance(option, int)
    return _capital(words.position(option))  # an answer begins with a capital


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _acting(decision: Decision, words: Naming) -> str:
    """``Your blue Archer: "<its text>"``: the acting card and the text of the ability
    that asks, which says what the chosen card is for. A Shapeshifter asks with the
    ability it copies, which the decision names (``Decision.ability``: public, as at
    the table, where everyone sees which card is copied)."""
    card = decision.card
    language = words.language
    acting = words.card(card)
    seen = words.seen
    key = seen.key(card) if card is not None else None
    if key is None:
        return _say(language, "acting.hidden", card=acting)
    ability = decision.ability
    definitions = words.definitions
    if ability is not None and ability != key and ability in definitions:
        name = definitions[ability].name_in(language)
        text = definitions[ability].text_in(language)
        article = "an" if name[:1] in "AEIOU" else "a"
        return _say(language, f"acting.copying.{article}", card=acting, name=name, text=text)
    return _say(language, "acting", card=acting, text=definitions[key].text_in(language))


# The Royal Decree's destination: the index the card will have once moved.


def _move_question(decision: Decision, words: Naming) -> str:
    language = words.language
    where = _index(words.seen, decision.subject)
    if decision.subject is None or where is None:  # a save from before subjects
        return _say(language, "move", card=words.card(decision.card))
    return _say(
        language,
        "move.subject",
        card=words.card(decision.card),
        position=where + 1,
        subject=words.card(decision.subject),
    )


def _move_option(decision: Decision, option: Answer, words: Naming) -> str:
    assert isinstance(option, int)
    language = words.language
    seen = words.seen
    subject = decision.subject
    where = _index(seen, subject)
    if subject is None or where is None:
        # docs/scenarios.md: the index the card has once moved, the Decree still in place.
        return _say(language, "move.option", position=option + 1)
    # The queue once the card is lifted, each stack as (its position on the table
    # now, the card on top then): the card goes between two of them, or at an end.
    # A card alone leaves a gap that closes; a card on a stack uncovers the one under.
    lifted: list[tuple[int, CardId]] = []
    for index, stack in enumerate(seen.queue):
        rest = [card for card in stack if card != subject]
        if rest:
            lifted.append((index + 1, rest[-1]))
    if not lifted:
        return _say(language, "move.option", position=option + 1)
    if option <= 0:
        first, card = lifted[0]
        return _say(language, "move.first", position=first, card=words.card(card))
    if option >= len(lifted):
        last, card = lifted[-1]
        return _say(language, "move.last", position=last, card=words.card(card))
    (before, card_before), (after, card_after) = lifted[option - 1], lifted[option]
    return _say(
        language,
        "move.between",
        before=before,
        card_before=words.card(card_before),
        after=after,
        card_after=words.card(card_after),
    )


def _index(seen: Observation, card: CardId | None) -> int | None:
    """The index of the stack ``card`` is in, if it is in the queue."""
    for index, stack in enumerate(seen.queue):
        if card is not None and card in stack:
            return index
    return None


# The Prince places its Twin: as ``at`` in a placement.


def _twin(words: Naming) -> str:
    """The Twin's name in the words' language (the card data's, else ``Twin``)."""
    twin = words.definitions.get("twin")
    return twin.name_in(words.language) if twin is not None else "Twin"


def _twin_question(decision: Decision, words: Naming) -> str:
    return _say(words.language, "twin", card=words.card(decision.card), twin=_twin(words))


def _twin_option(decision: Decision, option: Answer, words: Naming) -> str:
    assert isinstance(option, str | int)
    return _say(words.language, "twin.option", twin=_twin(words), spot=words.spot(option))


# A choice among named options; the asker words them (``labels``). The Plot's own
# choice (gain a token or spend it to repeat) is worded here in every language, from
# the decision's facts: the ability asking is the Plot's, its options are the Plot's,
# and the one number its question holds is how many tokens are left (the Plot ships
# with oriflamme, so its question is ours: no other words of it are read).

#: The Plot's key and the options of its choice, in order.
_PLOT, _PLOT_OPTIONS = "plot", ("gain", "repeat")
_NUMBER = re.compile(r"\d+")


def _plot_left(decision: Decision) -> int | None:
    """How many tokens the Plot asking ``decision`` (of the shipped ``choose`` kind) has
    left, if it is the Plot's."""
    if decision.ability != _PLOT or tuple(decision.options) != _PLOT_OPTIONS:
        return None
    numbers = _NUMBER.findall(decision.question or "")
    return int(numbers[0]) if len(numbers) == 1 else None


def _plot_question(left: int, words: Naming) -> str:
    language = words.language
    plot = words.definitions.get(_PLOT)
    name = plot.name_in(language) if plot is not None else "Plot"
    tokens = counted(left, "token", language)
    if spoken(language) == "pl":
        # Polish says where with the card's name declined, and "left" agrees with the count.
        name = _POLISH_ON_PLOT.get(name, f"twojej karcie „{name}”")
        tokens = f"{('został', 'zostały', 'zostało')[polish_form(left)]} {tokens}"
    return _say(language, "plot.one" if left == 1 else "plot.many", plot=name, tokens=tokens)


#: "On your Plot", in Polish, for the Plot's name in the card data.
_POLISH_ON_PLOT = {"Knowanie": "twoim Knowaniu"}


def _choose_question(decision: Decision, words: Naming) -> str:
    language = words.language
    left = _plot_left(decision)
    if left is not None:
        return _plot_question(left, words)
    if decision.question:
        return decision.question
    return _say(language, "choose", card=words.card(decision.card))


def _choose_option(decision: Decision, option: Answer, words: Naming) -> str:
    if _plot_left(decision) is not None:
        return _say(words.language, f"plot.{option}")
    return _option(decision, option)


#: The questions of the kinds that ship with oriflamme, by the kind's name.
_QUESTIONS: dict[str, Callable[[Decision, Naming], str]] = {
    "place": _place_question,
    "reveal": _reveal_question,
    "target": _target_question,
    "move": _move_question,
    "twin": _twin_question,
    "choose": _choose_question,
}
#: Their answers, by the kind's name.
_OPTIONS: dict[str, Callable[[Decision, Answer, Naming], str]] = {
    "place": _place_option,
    "reveal": _reveal_option,
    "target": _target_option,
    "move": _move_option,
    "twin": _twin_option,
    "choose": _choose_option,
}

#: The sentences of questions and answers, in each language.
_say = Templates(
    "questions",
    {
        "help": {
            "en": "Your {card}: {help}",
            "fr": "Votre carte {card} : {help}",
            "pl": "Twoja karta {card}: {help}",
        },
        "place": {
            "en": "Place a card from your hand, face down: which card, and where?",
            "fr": "Placez une carte de votre main, face cachée : laquelle, et où ?",
            "pl": "Połóż kartę z ręki, zakrytą: którą i gdzie?",
        },
        "place.option": {
            "en": "Put your {card} {spot}",
            "fr": "Placez votre carte {card} {spot}",
            "pl": "Połóż swoją kartę {card} {spot}",
        },
        "reveal": {
            "en": "Your {card}{on_it} is next: reveal it, or keep it face down?",
            "fr": "Votre carte {card}{on_it} est la suivante : la révéler, ou la laisser "
            "face cachée ?",
            "pl": "Twoja karta {card}{on_it} jest następna: ujawnić ją czy pozostawić zakrytą?",
        },
        "reveal.on_it": {
            "en": ", with {tokens} on it,",
            "fr": ", avec {tokens} dessus,",
            "pl": " (na niej: {tokens})",
        },
        "reveal.keep": {
            "en": "Keep it face down (it gets {more})",
            "fr": "La laisser face cachée (elle reçoit {more})",
            "pl": "Pozostaw ją zakrytą (dostaje {more})",
        },
        "reveal.first_token": {"en": "1 token", "fr": "1 jeton", "pl": "1 żeton"},
        "reveal.next_token": {
            "en": "a {ordinal} token",
            "fr": "un {ordinal} jeton",
            "pl": "{ordinal} żeton",
        },
        "reveal.reveal": {
            "en": "Reveal it ({revealing})",
            "fr": "La révéler ({revealing})",
            "pl": "Ujawnij ją ({revealing})",
        },
        "revealing.ability": {
            "en": "apply its ability",
            "fr": "appliquer sa capacité",
            "pl": "aktywuj jej zdolność",
        },
        "revealing.spends": {
            "en": "apply its ability, which spends its {tokens}",
            "fr": "appliquer sa capacité, qui utilise les jetons posés dessus : {tokens}",
            "pl": "aktywuj jej zdolność, która zużywa leżące na niej żetony: {tokens}",
        },
        "revealing.gain": {
            "en": "gain its {tokens}",
            "fr": "gagner les jetons posés dessus : {tokens}",
            "pl": "otrzymaj leżące na niej żetony: {tokens}",
        },
        "revealing.double": {
            "en": "gain twice its {tokens}: {double}",
            "fr": "gagner le double des jetons posés dessus ({tokens}) : {double}",
            "pl": "otrzymaj podwójnie leżące na niej żetony ({tokens}): {double}",
        },
        "revealing.supply.one": {
            "en": "its {tokens} goes back to the supply",
            "fr": "les jetons posés dessus ({tokens}) retournent à la réserve",
            "pl": "leżące na niej żetony ({tokens}) wracają do zasobów ogólnych",
        },
        "revealing.supply.many": {
            "en": "its {tokens} go back to the supply",
            "fr": "les jetons posés dessus ({tokens}) retournent à la réserve",
            "pl": "leżące na niej żetony ({tokens}) wracają do zasobów ogólnych",
        },
        "revealing.as_it_says.one": {
            "en": "its {tokens} goes as the card says",
            "fr": "les jetons posés dessus ({tokens}) vont où la carte le dit",
            "pl": "leżące na niej żetony ({tokens}) idą tam, gdzie mówi karta",
        },
        "revealing.as_it_says.many": {
            "en": "its {tokens} go as the card says",
            "fr": "les jetons posés dessus ({tokens}) vont où la carte le dit",
            "pl": "leżące na niej żetony ({tokens}) idą tam, gdzie mówi karta",
        },
        "revealing.then": {
            "en": "{paid}, then apply its ability",
            "fr": "{paid}, puis appliquer sa capacité",
            "pl": "{paid}, potem aktywuj jej zdolność",
        },
        "target": {
            "en": "{acting} Which card?",
            "fr": "{acting} Quelle carte ?",
            "pl": "{acting} Która karta?",
        },
        "acting": {
            "en": 'Your {card}: "{text}"',
            "fr": "Votre carte {card} : « {text} »",
            "pl": "Twoja karta {card}: „{text}”",
        },
        "acting.hidden": {
            "en": "Your {card}:",
            "fr": "Votre carte {card} :",
            "pl": "Twoja karta {card}:",
        },
        "acting.copying.a": {
            "en": 'Your {card}, copying a {name}: "{text}"',
            "fr": "Votre carte {card}, qui copie la carte {name} : « {text} »",
            "pl": "Twoja karta {card}, kopiująca kartę {name}: „{text}”",
        },
        "acting.copying.an": {
            "en": 'Your {card}, copying an {name}: "{text}"',
            "fr": "Votre carte {card}, qui copie la carte {name} : « {text} »",
            "pl": "Twoja karta {card}, kopiująca kartę {name}: „{text}”",
        },
        "move": {
            "en": "Your {card} moves the card you chose: where to?",
            "fr": "Votre carte {card} déplace la carte choisie : où ?",
            "pl": "Twoja karta {card} przesuwa wybraną kartę: dokąd?",
        },
        "move.subject": {
            "en": "Your {card} moves the card at position {position}, {subject}: where to?",
            "fr": "Votre carte {card} déplace la carte en position {position}, {subject} : "
            "où la mettre ?",
            "pl": "Twoja karta {card} przesuwa kartę z pozycji {position}, {subject}: dokąd?",
        },
        "move.option": {
            "en": "Move it so that it becomes position {position}",
            "fr": "La déplacer pour qu'elle devienne la position {position}",
            "pl": "Przesuń ją tak, by stała się pozycją {position}",
        },
        "move.first": {
            "en": "At the first end of the queue, before position {position} ({card})",
            "fr": "En tête de la File, avant la position {position}, {card}",
            "pl": "Na początek Kolejki, przed pozycją {position}, {card}",
        },
        "move.last": {
            "en": "At the last end of the queue, after position {position} ({card})",
            "fr": "En queue de la File, après la position {position}, {card}",
            "pl": "Na koniec Kolejki, za pozycją {position}, {card}",
        },
        "move.between": {
            "en": "Between position {before} ({card_before}) and position {after} ({card_after})",
            "fr": "Entre la position {before}, {card_before}, et la position {after}, {card_after}",
            "pl": "Między pozycją {before}, {card_before}, a pozycją {after}, {card_after}",
        },
        "twin": {
            "en": "Your {card} places your {twin}, face up: where?",
            "fr": "Votre carte {card} place votre carte {twin}, face visible : où ?",
            "pl": "Twoja karta {card} kładzie twoją kartę {twin}, odkrytą: gdzie?",
        },
        "twin.option": {
            "en": "Put the {twin} {spot}",
            "fr": "Placez la carte {twin} {spot}",
            "pl": "Połóż kartę {twin} {spot}",
        },
        "choose": {
            "en": "Your {card} chooses one of these:",
            "fr": "Votre carte {card} choisit l'une de ces options :",
            "pl": "Twoja karta {card} wybiera jedną z tych opcji:",
        },
        "plot.one": {
            "en": "Your {plot} has {tokens} left. The next one: gain it, or spend it to repeat?",
            "fr": "Il reste {tokens} sur votre {plot} : le gagner, ou le dépenser pour répéter "
            "l'effet ?",
            "pl": "Na {plot} {tokens}: zdobyć go czy wydać, by powtórzyć efekt?",
        },
        "plot.many": {
            "en": "Your {plot} has {tokens} left. The next one: gain it, or spend it to repeat?",
            "fr": "Il reste {tokens} sur votre {plot}. Le suivant : le gagner, ou le dépenser "
            "pour répéter l'effet ?",
            "pl": "Na {plot} {tokens}. Następny: zdobyć go czy wydać, by powtórzyć efekt?",
        },
        "plot.gain": {
            "en": "Gain: take 1 Influence for this token",
            "fr": "Gagner : prenez 1 point d'Influence pour ce jeton",
            "pl": "Zdobądź: weź 1 punkt Wpływu za ten żeton",
        },
        "plot.repeat": {
            "en": "Repeat: this token goes back to the supply, and a face-up Character of "
            "yours acts again",
            "fr": "Répéter : ce jeton retourne à la réserve, et l'un de vos personnages "
            "révélés agit de nouveau",
            "pl": "Powtórz: ten żeton wraca do zasobów ogólnych, a jedna z twoich ujawnionych "
            "Postaci działa ponownie",
        },
    },
)
