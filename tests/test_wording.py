"""The words of every question and answer a person reads: numbers agree with their
nouns, positions are counted from 1 as the table shows them, and each answer says what
it does. Refusals, read by programs, keep the notation's indices from 0."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from oriflamme import (
    COLOURS,
    Decision,
    Game,
    GameConfig,
    IllegalAnswer,
    Placement,
    Registry,
    RevealTokens,
)
from oriflamme.bots import RandomBot, bot_seed
from oriflamme.text import Words, answer_text, question_text

from .helpers import hand

KINDS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}
GAMES = 8  # per kind of game
#: The nouns the questions count.
NOUNS = ("token", "position", "card", "option", "Influence token")
#: "1 tokens": a count of one with a plural noun.
ONE_PLURAL = re.compile(rf"(?<![\d.])\b1 ({'|'.join(NOUNS)})s\b")
#: "2 token", "0 position": any other count with a singular noun.
MANY_SINGULAR = re.compile(rf"\b(0|[2-9]|\d\d+) ({'|'.join(NOUNS)})\b(?!s)")
POSITION = re.compile(r"\b[Pp]osition (\d+)\b")
#: Ordinals written out independently of the code under test.
ORDINALS = {2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th", 8: "8th", 9: "9th"}


def seeds(kind: str) -> range:
    start = {"base": 7100, "ablaze": 7200, "mixed": 7300}[kind]
    return range(start, start + GAMES)


def asked(registry: Registry, kind: str) -> Iterator[tuple[Game, Decision, list[str]]]:
    """Every decision of ``GAMES`` random games of ``kind``, as the family asked reads it:
    the game, the decision, then its question and each answer's words."""
    chosen = seeds(kind)
    print(f"{kind}: seeds {chosen.start} to {chosen.stop - 1}")
    for seed in chosen:
        families = COLOURS[: 3 + seed % 3]
        game = Game.new(
            GameConfig(families=families, sets=KINDS[kind], seed=seed), registry=registry
        )
        bots = {f: RandomBot(bot_seed(seed, seat)) for seat, f in enumerate(game.families)}
        decision = game.decision
        while decision is not None:
            seen = game.observe(decision.family)
            words = Words(seen, game.rules.definitions)
            rules = game.rules.kinds[decision.kind]
            texts = [question_text(rules, words, decision)]
            texts += [answer_text(rules, words, decision, o) for o in decision.options]
            yield game, decision, texts
            game.answer(bots[decision.family].choose(seen))
            decision = game.decision


def numbers_agree(text: str) -> None:
    assert not ONE_PLURAL.search(text), f"one with a plural noun: {text!r}"
    assert not MANY_SINGULAR.search(text), f"many with a singular noun: {text!r}"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_text_counts_as_people_do(registry: Registry, kind: str) -> None:
    kinds_seen: set[str] = set()
    for game, decision, texts in asked(registry, kind):
        kinds_seen.add(decision.kind)
        where = f"round {game.round}, {decision.family}'s {decision.kind}"
        # A Royal Decree's card may go to a new position after the last one.
        highest = len(game.observe().queue) + (decision.kind == "move")
        for text in texts:
            numbers_agree(text)
            for number in POSITION.findall(text):
                assert 1 <= int(number) <= highest, f"{where}: {text!r} (positions 1 to {highest})"
        answers = texts[1:]
        if decision.kind == "move":  # the question names the card it moves, and where it is
            seen = game.observe(decision.family)
            assert decision.subject is not None
            at = next(i for i, stack in enumerate(seen.queue) if decision.subject in stack)
            moved = Words(seen, game.rules.definitions).card(decision.subject)
            assert f" moves the card at position {at + 1}, {moved}: where to?" in texts[0], texts
        if decision.kind in ("target", "move"):
            for option, text in zip(decision.options, answers, strict=True):
                assert isinstance(option, int)
                if decision.kind == "target":
                    assert text.startswith(f"Position {option + 1}: "), f"{where}: {text!r}"
                else:
                    assert text == moved_to(game, decision, option), f"{where}: {text!r}"
        if decision.kind in ("place", "twin"):
            for option, text in zip(decision.options, answers, strict=True):
                spot = option.at if isinstance(option, Placement) else option
                if isinstance(spot, int):
                    assert f"on top of position {spot + 1}: " in text, f"{where}: {text!r}"
    expected = {"place", "reveal", "target"} | {
        "base": {"move"},
        "ablaze": {"twin", "choose"},
        "mixed": {"move", "twin", "choose"},
    }[kind]
    assert expected <= kinds_seen


def moved_to(game: Game, decision: Decision, to: int) -> str:
    """Where a Royal Decree's answer ``to`` puts the card it moves, in words: between
    the two positions it will lie between once moved, named as the table numbers them
    now (the moved card lifted: a lone one leaves its position, a covering one uncovers
    the card under it), or at an end of the queue."""
    seen = game.observe(decision.family)
    assert decision.subject is not None
    names = Words(seen, game.rules.definitions)
    stays = [
        (index + 1, names.card(rest[-1]))
        for index, stack in enumerate(seen.queue)
        if (rest := [card for card in stack if card != decision.subject])
    ]
    if to == 0:
        return "At the first end of the queue, before position {} ({})".format(*stays[0])
    if to == len(stays):
        return "At the last end of the queue, after position {} ({})".format(*stays[-1])
    (before, first), (after, second) = stays[to - 1], stays[to]
    return f"Between position {before} ({first}) and position {after} ({second})"


def ordinal(number: int) -> str:
    return ORDINALS.get(number, f"{number}th")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_reveal_answer_names_its_outcome(registry: Registry, kind: str) -> None:
    modes: set[RevealTokens] = set()
    for game, decision, texts in asked(registry, kind):
        if decision.kind != "reveal":
            continue
        assert decision.options == (True, False)
        question, reveal, keep = texts
        card = decision.card
        assert card is not None
        seen = game.observe(decision.family)
        tokens = seen.tokens_on(card)
        key = seen.key(card)
        assert key is not None  # its own card
        assert game.rules.definitions[key].name in question
        assert question.endswith("is next: reveal it, or keep it face down?")
        mode = game.rules.reveal_tokens[key]
        assert reveal.startswith("Reveal it (")
        assert "apply its ability" in reveal
        assert keep.startswith("Keep it face down (it gets ")
        if not tokens:
            assert reveal == "Reveal it (apply its ability)"
            assert keep == "Keep it face down (it gets 1 token)"
            continue
        modes.add(mode)
        assert f"{tokens} token" in question
        assert keep == f"Keep it face down (it gets a {ordinal(tokens + 1)} token)", keep
        its = f"its {tokens} token{'s' * (tokens != 1)}"
        outcome = {
            RevealTokens.GAIN: f"gain {its}, then",
            RevealTokens.DOUBLE: f"gain twice {its}: {2 * tokens} Influence, then",
            RevealTokens.SUPPLY: f"{its} {'goes' if tokens == 1 else 'go'} back to the supply",
            RevealTokens.ABILITY: f"apply its ability, which spends {its}",
        }[mode]
        assert outcome in reveal, f"{key} with {tokens}: {reveal!r}"
    # Every way of paying out tokens was read at least once (the sets between them).
    expected = {RevealTokens.GAIN} | {
        "base": {RevealTokens.DOUBLE, RevealTokens.SUPPLY},
        "ablaze": {RevealTokens.SUPPLY, RevealTokens.ABILITY},
        "mixed": {RevealTokens.SUPPLY},
    }[kind]
    assert expected <= modes


def test_an_acting_card_asks_with_its_text(registry: Registry) -> None:
    """A target question quotes the ability that asks: what the chosen card is for."""
    quoted = 0
    for game, decision, texts in asked(registry, "mixed"):
        if decision.kind != "target" or decision.question is not None:
            continue
        card = decision.card
        assert card is not None
        key = game.observe(decision.family).key(card)
        assert key is not None
        question = texts[0]
        assert question.startswith(f"Your {game.observe().colours[card]} ")
        assert question.endswith(" Which card?")
        texts_of = {d.text for d in game.rules.definitions.values()}
        assert any(f'"{text}"' in question for text in texts_of), question
        quoted += 1
    assert quoted > 0


def test_refusals_count_from_0_and_agree_in_number(registry: Registry) -> None:
    seed = 7400
    print(f"seed={seed}")
    game = Game.new(GameConfig(seed=seed, first_player="red"), registry=registry)
    game.answer(Placement(hand(game, "red")[0], "first"))
    blue = hand(game, "blue")[0]
    with pytest.raises(
        IllegalAnswer, match=r"there is no position 3: the queue has 1 position \(0\)$"
    ):
        game.answer(Placement(blue, 3))
    game.answer(Placement(blue, "last"))
    with pytest.raises(IllegalAnswer, match=r"the queue has 2 positions \(0 to 1\)$"):
        game.answer(Placement(hand(game, "green")[0], 2))
    game.answer(Placement(hand(game, "green")[0], "first"))
    assert game.decision is not None
    assert game.decision.kind == "reveal"
    with pytest.raises(IllegalAnswer, match=r"\(the decision has 2 options \(0 to 1\)\)$"):
        game.answer_option(2)
