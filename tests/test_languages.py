"""Every sentence a player reads is in each language the project speaks.

Each module of ``oriflamme.text`` keeps its sentences as templates by key and language:
every key has one in every language, with the same fields. Seeded games are then
played and worded in French and Polish, and no English sentence leaks into them: no
word that only the English templates use appears, whatever the cards, the number of
families or the question.
"""

from __future__ import annotations

import io
import re
import string
from collections.abc import Callable, Iterator

import pytest

import oriflamme.text  # noqa: F401  (every module's table is made on import)
from oriflamme import COLOURS, Game, GameConfig, Registry
from oriflamme.bots import RandomBot, bot_seed
from oriflamme.terminal import TerminalGame
from oriflamme.text import Words, answer_text, colour, question_text, table
from oriflamme.text._languages import LANGUAGES, TABLES, counted, elided, fields, ordinal

#: How the last line of a game begins, in each language.
ENDED = {"fr": "La partie est terminée : ", "pl": "Koniec gry: "}
SETS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}
WORD = re.compile(r"[^\W\d_]{4,}")


def test_every_sentence_is_in_every_language_with_the_same_fields() -> None:
    assert {table.name for table in TABLES} >= {"questions", "table", "terminal", "story"}
    for templates in TABLES:
        for key, by_language in templates.table.items():
            where = f"{templates.name} {key!r}"
            assert set(by_language) == set(LANGUAGES), where
            english = fields(by_language["en"])
            for language, template in by_language.items():
                assert template.strip(), f"{where} in {language}"
                assert fields(template) == english, f"{where} in {language}: {template!r}"


def english_only(registry: Registry) -> set[str]:
    """The words (of 4 letters or more) the English templates use and no French or
    Polish template, nor any card's name in any language, does: a sign of English."""
    words: dict[str, set[str]] = {language: set() for language in LANGUAGES}
    for templates in TABLES:
        for by_language in templates.table.values():
            for language, template in by_language.items():
                literal = "".join(text for text, *_ in string.Formatter().parse(template))
                words[language] |= {w.casefold() for w in WORD.findall(literal)}
    names = {
        w.casefold()
        for card in registry.cards.values()
        for name in (card.name, *(name for _, name in card.names))
        for w in WORD.findall(name)
    }
    found = words["en"] - words["fr"] - words["pl"] - names
    assert {"your", "round", "hand", "turn", "wins"} <= found
    return found


#: A card's text, quoted in a question or listed by c: the card data's (English where
#: it has none in the language), not a sentence of ours.
CARD_TEXT = re.compile(r"«[^»]*»|„[^”]*”|^  c \d+ .*$", re.MULTILINE)


def leaks(text: str, english: set[str]) -> list[str]:
    """The English words of ``text``, but for the cards' texts."""
    ours = CARD_TEXT.sub("", text)
    return sorted({w for w in WORD.findall(ours) if w.casefold() in english})


def games(registry: Registry) -> Iterator[tuple[str, Game]]:
    """Seeded games of each set (3, 4 and 5 families), played by random bots; each game
    is yielded at every question."""
    for kind, sets in SETS.items():
        # Seeds 10 and 11 reveal a Plot with tokens on it: its choice is asked.
        for seed in (*range(8), 10, 11) if kind == "ablaze" else range(8):
            families = COLOURS[: 3 + seed % 3]
            print(f"{kind}: seed {seed}, {len(families)} families")
            config = GameConfig(families=families, sets=sets, seed=seed)
            game = Game.new(config, registry=registry)
            bots = {f: RandomBot(bot_seed(seed, seat)) for seat, f in enumerate(families)}
            while (decision := game.decision) is not None:
                yield f"{kind} seed {seed}", game
                game.answer(bots[decision.family].choose(game.observe(decision.family)))
            yield f"{kind} seed {seed}", game


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_no_english_sentence_in_a_table_or_a_question(registry: Registry, language: str) -> None:
    english = english_only(registry)
    kinds: set[str] = set()
    for where, game in games(registry):
        decision = game.decision
        for family in (*game.families, None):
            seen = game.observe(family)
            text = table(seen, game.rules, language=language)
            if decision is not None and decision.family == family:
                kinds.add(decision.kind)
                words = Words(seen, game.rules.definitions, language)
                kind = game.rules.kinds[decision.kind]
                text += "\n" + question_text(kind, words, decision)
                text += "".join(
                    "\n" + answer_text(kind, words, decision, o) for o in decision.options
                )
            assert not leaks(text, english), f"{where}, {family}: {leaks(text, english)}\n{text}"
    assert kinds >= {"place", "reveal", "target", "move", "twin", "choose"}, kinds


@pytest.mark.parametrize("language", ["fr", "pl"])
@pytest.mark.parametrize("kind", sorted(SETS))
def test_a_whole_game_in_the_terminal_reads_in_its_language(
    registry: Registry, language: str, kind: str
) -> None:
    english = english_only(registry)
    for seed, count in ((21, 3), (22, 5)):
        print(f"{kind}: seed {seed}, {count} families, in {language}")
        config = GameConfig(families=COLOURS[:count], sets=SETS[kind], seed=seed)
        game = Game.new(config, registry=registry)
        bots = {f: (lambda g, s=seat: RandomBot(s)) for seat, f in enumerate(game.families)}
        out = io.StringIO()
        typed = ["c", "zzz", "c 99", "c xyzzy", "1", "b"]  # then always the first answer
        player = TerminalGame(game, "red", bots, typing(typed), out, language=language)
        assert player.run() == 0
        assert game.over
        text = out.getvalue()  # the story of the game too
        assert not leaks(text, english), leaks(text, english)
        assert text.splitlines()[-1].startswith(ENDED[language]), text.splitlines()[-1]


def typing(lines: list[str]) -> Callable[[str], str]:
    queue = iter(lines)
    return lambda _prompt: next(queue, "1")


def test_counts_and_ordinals_agree_in_each_language() -> None:
    assert [counted(n, "token", "en") for n in (0, 1, 2)] == ["0 tokens", "1 token", "2 tokens"]
    assert [counted(n, "token", "fr") for n in (0, 1, 2)] == ["0 jeton", "1 jeton", "2 jetons"]
    polish = [counted(n, "token", "pl") for n in (1, 2, 4, 5, 12, 13, 21, 22, 25, 104, 112)]
    assert polish == [
        "1 żeton",
        "2 żetony",
        "4 żetony",
        "5 żetonów",
        "12 żetonów",
        "13 żetonów",
        "21 żetonów",
        "22 żetony",
        "25 żetonów",
        "104 żetony",
        "112 żetonów",
    ]
    assert counted(3, "token", "de") == "3 tokens"  # a language we do not speak: English
    assert [ordinal(n, "en") for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
    ]
    assert [ordinal(n, "fr") for n in (1, 2, 3)] == ["1er", "2e", "3e"]
    assert [ordinal(n, "pl") for n in (1, 2, 10, 11)] == ["pierwszy", "drugi", "dziesiąty", "11."]


def test_a_bribed_card_names_its_colour_and_its_owner_in_each_language(
    registry: Registry,
) -> None:
    """A bribed card's label says whose card it is and who owns it now, each once:
    ``Reine de Rouge (face visible), désormais à Bleu par corruption``."""
    genitive = {
        "red": "Czerwonego",
        "blue": "Niebieskiego",
        "green": "Zielonego",
        "yellow": "Żółtego",
        "black": "Czarnego",
    }
    found = 0
    for seed in range(40):
        config = GameConfig(families=COLOURS[:4], sets=("ablaze",), seed=seed)
        game = Game.new(config, registry=registry)
        bots = {f: RandomBot(bot_seed(seed, seat)) for seat, f in enumerate(game.families)}
        while (decision := game.decision) is not None and not found:
            seen = game.observe(None)
            for stack in seen.queue:
                card = stack[-1]
                owner, printed = seen.owner(card), seen.colours[card]
                if owner == printed or seen.key(card) is None:
                    continue
                print(f"seed {seed}: {printed}'s card {card} owned by {owner}")
                key = seen.key(card)
                assert key is not None
                named = {
                    language: Words(seen, game.rules.definitions, language).queue_card(card)
                    for language in LANGUAGES
                }
                name = {lang: game.rules.definitions[key].name_in(lang) for lang in LANGUAGES}
                assert named["en"].startswith(f"{owner}'s {name['en']} (face up")
                assert named["en"].endswith(f", bribed, {printed}'s card)")
                fr_owner, fr_printed = colour(owner, "fr"), colour(printed, "fr")
                assert named["fr"].startswith(f"{name['fr']} de {fr_printed} (face visible")
                assert named["fr"].endswith(f"), désormais à {fr_owner} par corruption")
                assert named["pl"].startswith(f"{name['pl']} (karta odkryta")
                assert named["pl"].endswith(
                    f"): karta {genitive[printed]} przekupiona przez {genitive[owner]}"
                )
                found += 1
            game.answer(bots[decision.family].choose(game.observe(decision.family)))
        if found:
            break
    assert found


def test_french_elides_de_before_every_card_name_that_begins_with_a_vowel(
    registry: Registry,
) -> None:
    """Every French sentence with ``de``, ``le``, ``la`` or ``que`` before a field reads
    ``d'Archer``, ``d'Héritier`` and ``de Soldat`` whatever card's name fills it."""
    names = {card.name_in("fr") for card in registry.cards.values()}
    vowel = {name for name in names if name[:1] in "AEIOUÉH"}
    assert {"Archer", "Assassinat", "Embuscade", "Héritier", "Imposture", "Apothicaire"} <= vowel
    unelided = re.compile(r"\b(de|le|la|que) [AEIOUÉH]", re.IGNORECASE)
    checked = 0
    for templates in TABLES:
        for key, by_language in templates.table.items():
            if not re.search(r"\b(de|le|la|que) \{", by_language["fr"], re.IGNORECASE):
                continue
            for name in names:
                filled = templates("fr", key, **dict.fromkeys(fields(by_language["fr"]), name))
                assert not unelided.search(filled), f"{templates.name} {key!r}: {filled!r}"
                if name in vowel:
                    assert f"d'{name}" in filled, f"{templates.name} {key!r}: {filled!r}"
                    checked += 1
                else:
                    assert f"de {name}" in filled, f"{templates.name} {key!r}: {filled!r}"
    assert checked > 0
    assert elided("de", "Archer") == "d'Archer"
    assert elided("De", "Héritier") == "D'Héritier"
    assert elided("que", "une carte") == "qu'une carte"
    assert elided("le", "héros") == "le héros"  # an aspirated h
    assert elided("de", "Soldat") == "de Soldat"
    assert elided("à", "Archer") == "à Archer"


def test_the_plots_choice_is_worded_from_its_facts_and_others_keep_their_words(
    registry: Registry,
) -> None:
    """The Plot's question says how many tokens are left on it in each language; a
    choice another ability asks keeps the asker's words (English, for a plugin's)."""
    for seed in (10, 11):
        print(f"ablaze: seed {seed}")
        families = COLOURS[: 3 + seed % 3]
        game = Game.new(
            GameConfig(families=families, sets=("ablaze",), seed=seed), registry=registry
        )
        bots = {f: RandomBot(bot_seed(seed, seat)) for seat, f in enumerate(families)}
        while (decision := game.decision) is not None and decision.kind != "choose":
            game.answer(bots[decision.family].choose(game.observe(decision.family)))
        if decision is not None:
            break
    assert decision is not None
    seen = game.observe(decision.family)
    kind = game.rules.kinds["choose"]
    left = int(re.findall(r"\d+", decision.question or "")[0])
    print(f"{left} tokens left: {decision.question}")
    asked = {
        language: question_text(kind, Words(seen, game.rules.definitions, language), decision)
        for language in LANGUAGES
    }
    assert asked["en"] == decision.question
    if left == 1:
        assert asked["fr"] == (
            "Il reste 1 jeton sur votre Machination : le gagner, ou le dépenser pour répéter "
            "l'effet ?"
        )
        assert (
            asked["pl"] == "Na twoim Knowaniu został 1 żeton: zdobyć go czy wydać, by "
            "powtórzyć efekt?"
        )
    else:
        assert asked["fr"].startswith(f"Il reste {left} jetons sur votre Machination. ")
        assert asked["pl"].startswith(f"Na twoim Knowaniu {('zostały', 'zostało')[left > 4]} ")
    repeat = answer_text(kind, Words(seen, game.rules.definitions, "fr"), decision, "repeat")
    assert "l'un de vos personnages révélés agit de nouveau" in repeat
    repeat = answer_text(kind, Words(seen, game.rules.definitions, "pl"), decision, "repeat")
    assert "ujawnionych Postaci" in repeat
    # The same choice asked by another ability: its own words, in every language.
    other = decision._replace(
        ability="mine", question="Pick 2 of these?", labels=("Take it", "Leave it")
    )
    for language in LANGUAGES:
        words = Words(seen, game.rules.definitions, language)
        assert question_text(kind, words, other) == "Pick 2 of these?"
        assert answer_text(kind, words, other, "gain") == "Take it"
    # Five tokens left: the words agree with the count.
    five = decision._replace(question=(decision.question or "").replace("1 token ", "5 tokens "))
    words = Words(seen, game.rules.definitions, "pl")
    assert question_text(kind, words, five).startswith("Na twoim Knowaniu zostało 5 żetonów. ")
    words = Words(seen, game.rules.definitions, "fr")
    assert question_text(kind, words, five).startswith("Il reste 5 jetons sur votre Machination. ")
