"""Property tests: seeded random playouts of 3, 4 and 5 families, for the base set,
Ablaze, and card lists drawn from both.

At every step: every card is in exactly one place, Influence is never negative,
tokens lie only on face-down cards in the queue and Bribery tokens only on face-up
ones, and every offered answer is legal and applies. At random steps of every game,
answers of the wrong shape or type, or from another family, are refused and change
nothing. Per game: it ends after round 6 with one card in each hand and winners that
hold the top score; the same seed gives the same game; a save reloaded mid-game
equals the game and plays on identically.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import cast

import pytest

from oriflamme import Decision, Game, IllegalAnswer, Placement, Placements, Registry
from oriflamme.bots import play_out
from oriflamme.saves import load

from .helpers import new_game, random_bots

#: The three kinds of game: the base set, Ablaze, and 10 card types drawn from both.
KINDS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}
FAMILIES = (3, 4, 5)
GAMES = 30  # per family count and kind of game: 270 games for each property
#: Every game asks at least 18 placements: the first refusal check comes before that.
FIRST_REFUSAL_BEFORE = 18


def seeds(families: int, kind: str, count: int) -> range:
    """``count`` seeds of their own for each family count and kind of game."""
    start = 100_000 * families + 10_000 * list(KINDS).index(kind)
    return range(start, start + count)


def check_table(game: Game, labels: list[str], where: str) -> None:
    """The invariants of every position, read from the referee's and a spectator's view."""
    position = game.position()
    cards = position.cards()
    assert sorted(cards) == labels, f"{where}: {Counter(cards) - Counter(labels)} extra"
    assert min(position.influence.values()) >= 0, f"{where}: {position.influence}"
    ids = position.ids
    face_up: set[int] = set()
    face_down: set[int] = set()
    for stack in position.queue:
        for entry in stack:
            (face_up if entry.up else face_down).add(ids[entry.card])
            assert entry.tokens >= 0, f"{where}: {entry}"
            assert not (entry.tokens and entry.up), f"{where}: tokens on face-up {entry}"
            assert entry.owner is None or entry.up, f"{where}: Bribery on face-down {entry}"
            assert entry.owner is None or entry.owner in game.families, f"{where}: {entry}"
    spectator = game.observe(None)
    assert set(spectator.tokens) <= face_down, f"{where}: tokens off the queue's face-down cards"
    assert all(count > 0 for count in spectator.tokens.values()), f"{where}: {spectator.tokens}"
    assert set(spectator.bribes) <= face_up, f"{where}: Bribery tokens off face-up cards"
    up = {card for card in range(len(spectator.colours)) if spectator.is_up(card)}
    assert up == face_up, f"{where}: face-up cards outside the queue"


def check_options(game: Game, decision: Decision, where: str) -> None:
    """Every offered answer is legal, and applies (to a clone) without error."""
    for option in decision.options:
        assert game.legal(option), f"{where}: offered answer {option!r} is not legal"
        game.clone().answer(option)


def placement(card: object, at: object) -> Placement:
    """A placement of anything: wrong types included, on purpose."""
    return Placement(cast(int, card), cast("str | int", at))


def wrong_answers(game: Game, decision: Decision) -> list[object]:
    """Answers the pending decision must refuse: wrong shapes, wrong types, wrong values."""
    length = len(game.observe(None).queue)
    answers: list[object] = [None, 3.5, "nonsense", (), [0, 1, 2], {"card": 0, "where": "last"}]
    options = decision.options
    if isinstance(options, Placements):
        card = options.cards[0]
        outsider = next(c for c in range(len(game.observe(None).colours)) if c not in options.cards)
        answers += [
            Placement(outsider, "first"),  # a card not in hand
            [outsider, "last"],
            {"card": outsider, "at": "first"},
            Placement(card, length),  # a position past the end
            Placement(card, length + 2),
            [card, length],
            Placement(card, -1),
            Placement(card, "middle"),
            [card],  # JSON lists and dicts of the wrong shape
            [card, "first", "last"],
            {"card": card},
            {"card": card, "at": "first", "face": "up"},
            placement(str(card), "first"),
            placement(float(card), "first"),  # a float or a bool card
            [float(card), "first"],
            {"card": float(card), "at": "first"},
        ]
        if card in (0, 1):
            answers.append(Placement(bool(card), "first"))
        for spot in range(length):
            if spot not in options.ats:  # stacking on another family's card, or in round 1
                answers.append(Placement(card, spot))
        # A float or a bool ``at``, equal to a spot the family may stack on if it has one.
        answers += [Placement(card, True), Placement(card, False), [card, True], [card, False]]
        for spot in [at for at in options.ats if isinstance(at, int)] or [0]:
            answers += [placement(card, float(spot)), [card, float(spot)]]
    elif decision.kind == "reveal":
        answers += [1, 0, "true", [True], {"reveal": True}]
    elif decision.kind == "choose":
        answers += ["maybe", 1, True, [options[0]], str(options[0]).upper()]
    else:  # target, move, twin: a queue index (a twin also an end)
        numbers = [o for o in options if isinstance(o, int)]
        answers += [True, False, -1, length + 5, "middle", [options[0]]]
        answers += [float(n) for n in numbers] + [str(n) for n in numbers]
        answers += [n for n in range(-1, length + 2) if n not in options]
    return answers


def check_refusals(game: Game, decision: Decision, where: str) -> int:
    """Every wrong answer is refused and changes nothing; the number of answers tried."""
    before = game.snapshot()
    tried = 0
    for answer in wrong_answers(game, decision):
        assert not game.legal(answer), f"{where}: {answer!r} is legal for a {decision.kind}"
        try:
            game.answer(answer)
        except IllegalAnswer:
            tried += 1
        else:
            pytest.fail(f"{where}: {answer!r} was accepted for a {decision.kind} decision")
    for other in game.families:
        if other != decision.family:
            with pytest.raises(IllegalAnswer, match=f"not {other}'s"):
                game.answer(decision.options[0], family=other)
            tried += 1
    count = len(decision.options)
    for number in (-1, count, count + 3, 1.0, True, "0", None):
        with pytest.raises(IllegalAnswer, match="does not exist"):
            game.answer_option(number)
        tried += 1
    assert game.snapshot() == before, f"{where}: a refused answer changed the game"
    return tried


def check_end(game: Game, where: str) -> None:
    """Over after round 6, one card left in each hand, winners by RULINGS G6."""
    assert game.over, where
    assert (game.round, game.phase, game.decision) == (6, "end", None), where
    position = game.position()
    assert all(len(hand) == 1 for hand in position.hands.values()), f"{where}: {position.hands}"
    scores = game.scores
    top = max(scores.values())
    tied = [f for f in game.families if scores[f] == top]
    in_queue = Counter(
        entry.owner or entry.card.split(".")[0] for stack in position.queue for entry in stack
    )
    most = max(in_queue[f] for f in tied)
    assert game.winners, where
    assert game.winners == tuple(f for f in tied if in_queue[f] == most), f"{where}: {scores}"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("families", FAMILIES)
def test_random_playouts_keep_every_invariant(registry: Registry, families: int, kind: str) -> None:
    chosen = seeds(families, kind, GAMES)
    print(f"{families} families, {kind}: seeds {chosen.start} to {chosen.stop - 1}")
    refused = 0
    for seed in chosen:
        game = new_game(registry, seed, families, sets=KINDS[kind])
        labels = sorted(game.position().cards())
        assert len(set(labels)) == len(labels), f"seed {seed}: two cards share a label"
        rng = random.Random(seed)
        first_refusal = rng.randrange(FIRST_REFUSAL_BEFORE)
        bots = random_bots(game, seed)
        step = 0
        checked = 0
        while (decision := game.decision) is not None:
            where = f"seed {seed}, step {step}, round {game.round}"
            check_table(game, labels, where)
            check_options(game, decision, where)
            if step == first_refusal or rng.random() < 0.05:
                refused += check_refusals(game, decision, where)
                checked += 1
            game.answer(bots[decision.family].choose(game.observe(decision.family)))
            step += 1
        assert checked, f"seed {seed}: no refusal was tried"
        check_table(game, labels, f"seed {seed}, at the end")
        check_end(game, f"seed {seed}")
    print(f"{refused} wrong answers refused")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("families", FAMILIES)
def test_the_same_seed_gives_the_same_game(registry: Registry, families: int, kind: str) -> None:
    chosen = seeds(families, kind, GAMES)
    print(f"{families} families, {kind}: seeds {chosen.start} to {chosen.stop - 1}")
    finals = set()
    for seed in chosen:
        first = new_game(registry, seed, families, sets=KINDS[kind])
        second = new_game(registry, seed, families, sets=KINDS[kind])
        assert first == second, f"seed {seed}: dealt differently"
        play_out(first, random_bots(first, seed))
        play_out(second, random_bots(second, seed))
        assert first == second, f"seed {seed}: played differently"
        assert first.events == second.events, f"seed {seed}"
        finals.add(repr(first.events))
    assert len(finals) == len(chosen), "two seeds played the same game"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("families", FAMILIES)
def test_a_game_reloaded_mid_game_plays_on_identically(
    registry: Registry, families: int, kind: str
) -> None:
    chosen = seeds(families, kind, GAMES)
    print(f"{families} families, {kind}: seeds {chosen.start} to {chosen.stop - 1}")
    for seed in chosen:
        game = new_game(registry, seed, families, sets=KINDS[kind])
        bots = random_bots(game, seed)
        stop = random.Random(seed).randrange(1, 80)
        for _ in range(stop):
            decision = game.decision
            if decision is None:
                break
            game.answer(bots[decision.family].choose(game.observe(decision.family)))
        where = f"seed {seed}, stopped after {stop} answers"
        copy = load(game.to_json(), registry=registry)
        assert copy == game, where
        assert copy.decision == game.decision, where
        assert copy.events == game.events, where
        for family in (None, *game.families):
            assert copy.observe(family) == game.observe(family), f"{where}: {family}"
        play_out(game, random_bots(game, seed + 1))
        play_out(copy, random_bots(copy, seed + 1))
        assert copy == game, f"{where}: the reloaded game played on differently"
        assert copy.winners == game.winners, where
