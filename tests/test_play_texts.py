"""Card texts in other languages, the idle phrases, and ``c`` in ``oriflamme play``.

The card data gives each base card its French and Polish texts and some cards an
``idle`` phrase; ``play --language`` names and shows cards in a language, and ``c``
at any question shows the cards' texts without changing the game.
"""

from __future__ import annotations

import argparse
import io
import itertools
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from oriflamme import (
    COLOURS,
    Ability,
    CardDataError,
    CardSet,
    Effects,
    Game,
    GameConfig,
    Registry,
    hookimpl,
)
from oriflamme.arguments import build_parser
from oriflamme.bots import RandomBot, bot_seed
from oriflamme.cli import main
from oriflamme.events import (
    Activated,
    Event,
    Gained,
    GameEnded,
    Placed,
    Revealed,
    RoundEnded,
    TokenAdded,
)
from oriflamme.terminal import MAX_WRONG, TerminalGame, play_command
from oriflamme.text import Story, bot_text, sets_text, story_lines

from .helpers import one_card_set, played

CARD = """\
set: test
title: Test
cards:
  - key: knight
    name: Knight
    type: character
    text: Gain 1.
"""

# The phrases, by card: each is true of every way its card can do nothing (see
# test_an_idle_phrase_is_true_whenever_it_is_told).
IDLE = {
    "soldier": "eliminates nothing: no card is adjacent to it",
    "spy": "steals nothing",
    "heir": "gains nothing: another Heir is face up",
    "royal_decree": "moves nothing: no other card is in the queue",
    "cutthroat": "eliminates nothing: no card is adjacent to it",
    "apothecary": "eliminates nothing: no card but itself is next to another card of its family",
    "felon": "makes nobody lose Influence: no card beside it belongs to a family that has any",
    "impersonation": "eliminates nothing: no card is adjacent to it",
    "bribery": "bribes nothing: no face-up Character is alone in its position",
}


def load(extra: str) -> CardSet:
    return CardSet.from_yaml(CARD + extra, path="test.yaml")


def args_for(options: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", "--no-plugins", *options.split()])


def typing(lines: list[str], then: str = "1") -> Callable[[str], str]:
    """What a person types: ``lines``, then ``then`` for ever."""
    typed: Iterator[str] = iter(lines)

    def read(_prompt: str) -> str:
        return next(typed, then)

    return read


# The card data.


def test_texts_and_idle_are_read_and_whitespace_is_folded() -> None:
    card = load(
        "    texts:\n      fr: >-\n        Gagnez\n        1.\n      pt_br: Ganhe 1.\n"
        '    idle: "gains   nothing"\n'
    ).cards[0]
    assert card.texts == (("fr", "Gagnez 1."), ("pt_br", "Ganhe 1."))
    assert card.text_in("fr") == "Gagnez 1."
    assert card.text_in("pl") == "Gain 1."  # none in Polish: the English text
    assert card.text_in("en") == "Gain 1."
    assert card.idle == "gains nothing"
    bare = load("").cards[0]
    assert (bare.texts, bare.idle) == ((), None)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("    texts: [Gagnez 1.]\n", "test.yaml:8: card 'knight': 'texts' must map language"),
        ("    texts: {fr: 3}\n", "test.yaml:8: card 'knight': 'texts' must map language"),
        ("    texts: {fr: '  '}\n", "test.yaml:8: card 'knight': 'texts' must map language"),
        (
            "    texts:\n      fr: Gagnez 1.\n      en: Gain 1.\n",
            "test.yaml:10: card 'knight': 'texts': English is the card's own 'text'",
        ),
        (
            "    texts:\n      FR: Gagnez 1.\n",
            "test.yaml:9: card 'knight': 'texts': language code 'FR' must be a lowercase code",
        ),
        (
            "    names: {fr: Chevalier, 'fr ': Chevalier}\n",
            "test.yaml:8: card 'knight': 'names': language code 'fr ' must be",
        ),
        ("    idle: ''\n", "test.yaml:8: card 'knight': 'idle' must be a non-empty phrase"),
        ("    idle: [a]\n", "test.yaml:8: card 'knight': 'idle' must be a non-empty phrase"),
        ("    idle: gains nothing.\n", "test.yaml:8: card 'knight': 'idle' must not end with"),
    ],
)
def test_bad_texts_or_idle_are_named_with_file_and_line(extra: str, message: str) -> None:
    with pytest.raises(CardDataError) as error:
        load(extra)
    assert str(error.value).startswith(message), str(error.value)


def test_every_base_and_ablaze_card_has_french_and_polish_texts(registry: Registry) -> None:
    base = registry.sets["base"].cards
    assert all({code for code, _ in card.texts} == {"fr", "pl"} for card in base)
    texts = {card.key: dict(card.texts) for card in base}
    assert texts["archer"]["fr"] == "Éliminez la première ou la dernière carte de la File."
    assert texts["soldier"]["pl"] == "Zlikwiduj sąsiadującą kartę."
    assert texts["heir"]["fr"].endswith("gagnez 2 points d'Influence.")
    ablaze = registry.sets["ablaze"].cards
    assert all({code for code, _ in card.texts} == {"fr", "pl"} for card in ablaze)


def test_the_idle_phrases_are_those_of_the_cards_that_can_do_nothing(registry: Registry) -> None:
    assert {key: card.idle for key, card in registry.cards.items() if card.idle} == IDLE


class _Witness:
    """A plugin that, at each card's turn, notes whether its idle phrase would be true."""

    def __init__(self) -> None:
        self.truths: list[tuple[str, bool]] = []

    def true(self, game: Effects, card: int) -> bool:
        key = game.key(card)
        queue = game.queue
        own = game.index(card)
        beside = game.adjacent(own)
        if key in ("soldier", "cutthroat", "impersonation"):
            return not beside
        if key == "heir":
            return any(t != card and game.is_up(t) and game.key(t) == key for t in game.tops())
        if key == "royal_decree":
            return len(queue) == 1
        if key == "apothecary":
            family = game.owner(card)
            friends = {
                i for i in range(len(queue)) if i != own and game.owner(queue[i][-1]) == family
            }
            return not any(
                i != own and friends.intersection(game.adjacent(i)) for i in range(len(queue))
            )
        if key == "felon":
            return all(game.influence_of(game.owner(game.top(i))) == 0 for i in beside)
        if key == "bribery":
            return not any(
                len(s) == 1 and game.is_up(s[0]) and game.is_character(s[0]) for s in queue
            )
        return True  # the Spy: "steals nothing" is all it says

    def card_activated(self, game: Effects, event: Activated) -> None:
        self.truths.append((game.key(event.card), self.true(game, event.card)))


def _idle(events: tuple[Event, ...], index: int) -> bool:
    """Whether the turn that the Activated event at ``index`` starts did nothing: what
    comes next starts another turn or ends the round (the story's reading)."""
    following = events[index + 1] if index + 1 < len(events) else None
    if isinstance(following, Gained):  # the tokens of the next card's reveal
        after = events[index + 2] if index + 2 < len(events) else None
        return isinstance(after, Revealed) and after.card == following.card
    return isinstance(
        following, Activated | TokenAdded | Revealed | RoundEnded | GameEnded | Placed
    )


@pytest.mark.parametrize("sets", [("base",), ("ablaze",)])
def test_an_idle_phrase_is_true_whenever_it_is_told(sets: tuple[str, ...]) -> None:
    witness = _Witness()
    registry = Registry(entry_points=False)

    def card_activated(game: Effects, event: Activated) -> None:
        witness.card_activated(game, event)

    registry.register(SimpleNamespace(card_activated=hookimpl(card_activated)), "idle_witness")
    told = dict.fromkeys(IDLE, 0)
    for seed in range(40):
        print(f"seed {seed}, sets {sets}")
        witness.truths.clear()
        config = GameConfig(families=COLOURS[:3], sets=sets, seed=seed)
        game = Game.new(config, registry=registry)
        story = Story(game.rules.definitions)
        bots = {f: RandomBot(bot_seed(seed, seat)) for seat, f in enumerate(game.families)}
        lines: list[str] = []
        while not game.over:
            family = game.decision.family if game.decision else ""
            game.answer(bots[family].choose(game.observe(family)), family=family)
            lines += story.read(game.observe("red"))
        events = game.events
        turns = [i for i, event in enumerate(events) if isinstance(event, Activated)]
        assert len(turns) == len(witness.truths), f"seed {seed}"
        for index, (key, true) in zip(turns, witness.truths, strict=True):
            if key in IDLE and _idle(events, index):
                told[key] += 1
                assert true, f"seed {seed}: {key} did nothing, yet {IDLE[key]!r} is false"
        definitions = game.rules.definitions
        for line in lines:  # each phrase is told of a card that has it
            keys = [key for key, phrase in IDLE.items() if line.endswith(f" {phrase}.")]
            if keys:
                names = [definitions[key].name for key in keys if key in definitions]
                assert any(f" {name} (position" in line for name in names), line
    assert sum(told.values()) > 20  # the games did put the phrases to the test


# Card texts in play.


def test_c_lists_the_cards_texts_in_french_and_asks_again(registry: Registry) -> None:
    print("seed 3")
    out = io.StringIO()
    # A card is found by its name without accents or capitals: "heritier", "HÉRITIER".
    read = typing(["c", "c 1", "c Soldat", "archer", "c heritier", "HÉRITIER", "q"])
    args = args_for("--families 3 --seed 3 --language fr --bots random")
    assert play_command(args, registry, read=read, out=out) == 0
    text = out.getvalue()
    assert "c montre les textes des cartes" in text.splitlines()[3]
    assert "  c 1  Archer : Éliminez la première ou la dernière carte de la File." in text
    assert "  c 2  Soldat : Éliminez une carte adjacente." in text
    assert text.count("Archer : Éliminez la première") == 3  # c, c 1 and its name
    assert text.count("Soldat : Éliminez une carte adjacente.") == 2
    assert text.count("  c 4  Héritier : ") == 3  # c, and its name twice
    assert "Changeforme : Copiez la capacité d'une carte révélée adjacente." in text
    assert "(textes en anglais" not in text  # every base card has a French text
    assert "Tapez un numéro" not in text  # looking is not a wrong answer
    assert text.count("Quelle carte allez-vous placer, face cachée ?") == 7  # asked again
    assert "Votre main :" in text


def test_polish_names_and_texts(registry: Registry) -> None:
    print("seed 4")
    out = io.StringIO()
    read = typing(["c łucznik", "c 6", "c lucznik", "ŻOŁNIERZ", "q"])
    args = args_for("--families 3 --seed 4 --language pl --bots random")
    assert play_command(args, registry, read=read, out=out) == 0
    text = out.getvalue()
    assert text.count("  c 1  Łucznik: Zlikwiduj pierwszą albo ostatnią kartę w Kolejce.") == 2
    assert "  c 2  Żołnierz: Zlikwiduj sąsiadującą kartę." in text  # ł is no l with an accent
    assert (
        "  c 6  Królewski Dekret: Przenieś i umieść kartę w dowolnym miejscu w Kolejce, "
        "za wyjątkiem umieszczenia jej na innej karcie. Odrzuć Królewski Dekret."
    ) in text
    assert "Karty: Łucznik, Żołnierz, Szpieg, Dziedzic" in text
    assert "Którą kartę kładziesz, zakrytą?" in text
    assert "Opuszczasz grę." in text


def test_a_card_with_no_text_in_the_language_is_shown_in_english_and_the_list_says_so(
    tmp_path: Path,
) -> None:
    print("seed 2")
    sheet = one_card_set(tmp_path, "odd", "mime", text="Does nothing at all.")
    registry = Registry(entry_points=False)
    registry.register(
        SimpleNamespace(
            register_card_sets=hookimpl(lambda: [sheet]),
            register_abilities=hookimpl(lambda: {"mime": Ability()}),
        ),
        "odd",
    )
    out = io.StringIO()
    args = args_for(
        "--families 3 --seed 2 --language fr --bots random --cards "
        + ("archer,soldier,spy,heir,queen,felon,mime")
    )
    assert play_command(args, registry, read=typing(["c", "mime", "q"]), out=out) == 0
    text = out.getvalue()
    assert "  c 1  Archer : Éliminez la première ou la dernière carte de la File." in text
    assert "  c 5  Reine : Gagnez 2 points d'Influence. Si un adversaire élimine la Reine" in text
    assert "  c 7  Mime : Does nothing at all." in text
    assert (
        text.count(
            "(textes en anglais pour Mime : les données des cartes n'en ont pas en français)"
        )
        == 1
    )
    assert (
        text.count("(textes en anglais : les données des cartes n'en ont pas en français)") == 1
    )  # c mime


def test_english_is_the_default_and_says_nothing_of_languages(registry: Registry) -> None:
    print("seed 1")
    out = io.StringIO()
    assert play_command(args_for("--seed 1"), registry, read=typing(["c", "q"]), out=out) == 0
    text = out.getvalue()
    assert "  c 1  Archer: Eliminate the first or last card from the Queue." in text
    assert "(texts in" not in text


def test_a_bad_card_lookup_says_so_and_is_not_a_wrong_answer(registry: Registry) -> None:
    print("seed 6")
    out = io.StringIO()
    read = typing(["c 11", "c 0", "c dragon", "dragon", "q"])
    assert play_command(args_for("--seed 6"), registry, read=read, out=out) == 0
    text = out.getvalue()
    assert text.count("c N shows card N, from 1 to 10; c lists them.") == 2
    assert "No card of this game is called 'dragon'; c lists them." in text
    assert text.count("Please type a number from 1 to 7, c for the cards' texts") == 1  # dragon


def _played(registry: Registry, seed: int, typed: list[str]) -> tuple[Game, list[str]]:
    """A game red plays by ``typed`` (then leaves), and the game as each read found it."""
    game = Game.new(GameConfig(families=COLOURS[:3], seed=seed), registry=registry)
    script = iter(typed)
    seen: list[str] = []

    def read(_prompt: str) -> str:
        seen.append(game.to_json())
        return next(script, "q")

    def bot(seat: int) -> Callable[[Game], RandomBot]:
        return lambda played: RandomBot(bot_seed(seed, seat) + len(played.events))

    bots = {family: bot(seat) for seat, family in enumerate(game.families) if family != "red"}
    terminal = TerminalGame(game, "red", bots, read, io.StringIO(), language="fr")
    assert terminal.run() == 0
    return game, seen


def test_looking_at_the_cards_changes_nothing_in_the_game(registry: Registry) -> None:
    answers = ["1", "2", "1", "1", "2", "1", "1", "1", "2", "1", "1", "1"]
    looks = ["c", "c 2", "espion", "c héritier", "c 10"]
    for seed in range(4):
        print(f"seed {seed}")
        plain, _ = _played(registry, seed, answers)
        typed = [line for answer in answers for line in (*looks, answer)]
        looked, seen = _played(registry, seed, typed)
        assert looked.to_json() == plain.to_json(), f"seed {seed}"
        for question in range(len(answers)):  # each look found the game as it was
            at = question * (len(looks) + 1)
            assert len(set(seen[at : at + len(looks) + 1])) == 1, f"seed {seed}"
        assert len(set(seen)) > len(answers) // 2  # and the answers did change it


def test_endless_lookups_end_the_game(registry: Registry) -> None:
    print("seed 5")
    out = io.StringIO()
    assert play_command(args_for("--seed 5"), registry, read=typing([], "c 1"), out=out) == 1
    text = out.getvalue()
    assert f"{10 * MAX_WRONG} lines in a row answered nothing: game over." in text


def test_an_unknown_language_is_one_line_naming_those_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "--no-plugins", "--language", "de"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "oriflamme: error: --language 'de': the card data has no such language "
        "(languages: en, fr, pl)\n"
    )


class _Terminal(io.StringIO):
    """What the game writes to, read back: a terminal (``isatty``) or a file."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("tty", [True, False])
def test_a_terminal_is_told_that_a_bot_is_thinking_and_a_file_is_not(
    registry: Registry, tty: bool
) -> None:
    seed = random.Random(f"thinking/{tty}").getrandbits(63)  # as the server draws them
    print(f"seed {seed}")
    game = Game.new(GameConfig(families=COLOURS[:3], seed=seed), registry=registry)
    out = _Terminal(tty)
    chosen: list[str] = []

    def bot(family: str) -> Callable[[Game], RandomBot]:
        def make(played: Game) -> RandomBot:
            # When the bot is made, its notice is out and not yet wiped: what a
            # terminal shows of the last line, after the last wipe.
            chosen.append(out.getvalue().rsplit("\n", 1)[-1].rsplit("\r\x1b[K", 1)[-1])
            return RandomBot(seed + len(played.events))

        return make

    bots = {family: bot(family) for family in game.families if family != "red"}
    terminal = TerminalGame(game, "red", bots, typing([], then="1"), out)
    assert terminal.run() == 0
    assert len(chosen) > 10
    text = out.getvalue()
    if tty:
        assert all(line.endswith(" is thinking…") for line in chosen), chosen[:3]
        assert {line.removesuffix(" is thinking…") for line in chosen} == {"blue", "green"}
        # Each notice is wiped before anything else is written.
        assert text.count("is thinking…") == len(chosen) == text.count("\r\x1b[K")
        for line in text.split("\n"):
            assert "thinking" not in line.rsplit("\r\x1b[K", 1)[-1]
    else:
        assert "thinking" not in text
        assert "\x1b" not in text
        assert all(line == "" or "thinking" not in line for line in chosen)


def _placing_the_third_card(registry: Registry, seed: int) -> str:
    """What `play` shows a person who places the third card listed whenever there are
    three or more, and answers 1 to anything else."""
    out = io.StringIO()

    def read(_prompt: str) -> str:
        question, _, options = out.getvalue().rpartition("?\n")
        asked = question.rsplit("\n", 1)[-1]
        return "3" if asked.startswith("Which card") and "  3) " in options else "1"

    args = args_for(f"--families 4 --seed {seed} --bots random --sets base,ablaze")
    assert play_command(args, registry, read=read, out=out) == 0
    return out.getvalue()


def test_the_cards_to_place_are_listed_in_the_order_of_the_hand(registry: Registry) -> None:
    """The choices of a card to place read in the order the hand line shows it: typing a
    card's place in the hand picks that card."""
    for _ in range(3):
        seed = random.SystemRandom().randrange(10**6)  # as `play` draws one
        print(f"seed {seed}")
        text = _placing_the_third_card(registry, seed)
        asked = text.split("Which card will you place, face down?\n")
        assert len(asked) > 6, seed
        picked = 0
        for before, block in itertools.pairwise(asked):
            hand = [line for line in before.splitlines() if line.startswith("Your hand: ")][-1]
            cards = hand.removeprefix("Your hand: ").split(", ")
            listed = []
            for line in block.splitlines():
                if not line.startswith("  ") or ") " not in line:
                    break
                listed.append(line.split(") ", 1)[1])
            assert listed == cards, seed
            placed = [line for line in block.splitlines() if line.startswith("Where will your ")]
            if len(cards) >= 3 and placed:
                assert placed[0] == f"Where will your {cards[2]} go?", seed
                picked += 1
        print(f"{len(asked) - 1} placements, {picked} asked where the third card goes")
        assert picked, seed


def test_ctrl_c_while_a_bot_thinks_leaves_as_at_a_prompt(registry: Registry) -> None:
    print("seed 5")
    game = Game.new(GameConfig(families=COLOURS[:3], seed=5), registry=registry)

    class Interrupted:
        def choose(self, observation: object) -> object:
            raise KeyboardInterrupt

    bots = {family: (lambda _game: Interrupted()) for family in game.families if family != "red"}
    out = io.StringIO()
    asked = []

    def read(_prompt: str) -> str:
        asked.append(game.to_json())
        return "1"

    terminal = TerminalGame(game, "red", bots, read, out)  # type: ignore[arg-type]
    before = None if game.decision is None else game.decision.family
    assert terminal.run() == 0
    assert out.getvalue().endswith("\nYou left the game.\n")
    # The bot never answered: it is still its turn.
    assert game.decision is not None
    assert game.decision.family != "red"
    print(f"first asked: {before}, answers typed: {len(asked)}")


@pytest.mark.parametrize(
    ("language", "setup", "bots"),
    [
        (
            "fr",
            "4 familles, jeu de base + extension Ablaze, graine 5",
            "Bots : Bleu (ISMCTS:iterations=3), Vert (heuristique), Jaune (au hasard)",
        ),
        (
            "pl",
            "4 rody, zestawy: podstawowy, Ablaze, ziarno 5",
            "Boty: Niebieski (ISMCTS:iterations=3), Zielony (heurystyczny), Żółty (losowy)",
        ),
        (
            "en",
            "4 families, sets base,ablaze, seed 5",
            "Bots: blue (ismcts:iterations=3), green (heuristic), yellow (random)",
        ),
    ],
)
def test_the_sets_and_bots_are_named_in_the_language(
    registry: Registry, language: str, setup: str, bots: str
) -> None:
    print("seed 5")
    out = io.StringIO()
    args = args_for(
        f"--families 4 --seed 5 --sets base,ablaze --language {language} "
        "--bots ismcts:iterations=3,heuristic,random"
    )
    assert play_command(args, registry, read=typing(["q"]), out=out) == 0
    first, second = out.getvalue().splitlines()[:2]
    assert setup in first
    assert second == bots


def test_a_plugin_set_or_bot_kind_keeps_its_title_or_name() -> None:
    sets = [("base", "Oriflamme"), ("test", "Test Cards")]
    assert sets_text(sets, "fr") == "jeu de base + Test Cards"
    assert sets_text(sets, "pl") == "podstawowy, Test Cards"
    assert sets_text(sets, "en") == "base,test"
    assert bot_text("mine", ":depth=2", plugin=True, language="fr") == "mine:depth=2"
    assert bot_text("random", "", plugin=True, language="pl") == "random"  # a plugin's own
    assert bot_text("random", "", plugin=False, language="pl") == "losowy"


@pytest.mark.parametrize(
    ("language", "typed", "found", "refused"),
    [
        (
            "fr",
            ["c coupe jarret", "C COUPEJARRET", "c Coupe\u2019jarret", "c dragon", "q"],
            "Coupe-jarret : ",
            "Aucune carte de cette partie ne s'appelle « dragon » ; c les liste toutes.",
        ),
        (
            "pl",
            ["c krolewski-dekret", "c KRÓLEWSKIDEKRET", "c królewski  dekret", "c smok", "q"],
            "Królewski Dekret: ",
            "Żadna karta tej gry nie nazywa się „smok”; c wypisuje wszystkie.",
        ),
    ],
)
def test_a_card_is_found_whatever_its_hyphens_and_spaces_and_a_refusal_quotes_as_the_language(
    registry: Registry, language: str, typed: list[str], found: str, refused: str
) -> None:
    print("seed 2")  # a game with the Cutthroat and the Royal Decree
    out = io.StringIO()
    args = args_for(f"--seed 2 --sets base,ablaze --language {language}")
    assert play_command(args, registry, read=typing(typed), out=out) == 0
    text = out.getvalue()
    assert len(re.findall(rf"^  c +\d+ +{found}", text, re.MULTILINE)) == 3, text
    assert refused in text


def test_a_card_put_in_the_queue_reads_as_placed_in_french(registry: Registry) -> None:
    """``Prince (Jaune, position 2) place Jumeau (Jaune) face visible en queue de la File
    (position 10)``: one verb, no commas around ``face visible``."""
    placed = 0
    for seed in range(20):
        game = played(registry, seed, 4, sets=("ablaze",))
        for line in story_lines(game.observe("red"), game.rules.definitions, "fr"):
            assert " met " not in line, (seed, line)
            if re.match(r".+ place .+ face visible (en|pour|sur) ", line):
                placed += 1
    print(f"seeds 0 to 19: {placed} cards put in face up")
    assert placed > 0
