"""Determinisation: from one family's observation and a seed, a complete game that
agrees with everything that family has seen, its unseen cards dealt at random: every
consistent deal can come out, and nothing else."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest

from oriflamme import ConfigError, Game, Observation, Placements, Registry
from oriflamme.core._determinise import _Draws
from oriflamme.saves import load

from .helpers import new_game, play_until
from .test_properties import FAMILIES, KINDS, seeds

GAMES = 15  # per family count and kind of game
#: A deal of one family's cards as another family could imagine it: the key of each of
#: its cards that family cannot see (by id, in id order), and the ids in its hand.
Deal = tuple[tuple[str, ...], tuple[int, ...]]


def unknown_ids(observation: Observation, family: str) -> tuple[int, ...]:
    """The cards of ``family`` whose keys ``observation`` does not show."""
    colours = observation.colours
    return tuple(
        c for c in range(len(colours)) if colours[c] == family and not observation.knows(c)
    )


def out_of_play(observation: Observation, family: str) -> tuple[int, ...]:
    """``family``'s cards in hand or set aside, as far as the observation tells: its
    cards nowhere in sight."""
    seen = {card for stack in observation.queue for card in stack}
    for zone in (observation.reserve, observation.discarded, observation.eliminated):
        seen.update(card for cards in zone.values() for card in cards)
    colours = observation.colours
    return tuple(c for c in range(len(colours)) if colours[c] == family and c not in seen)


def unseen_keys(observation: Observation, family: str) -> Counter[str]:
    """The keys of ``family``'s card list that none of its known cards accounts for."""
    keys = Counter(observation.cards)
    colours = observation.colours
    keys.subtract(
        key
        for c in range(len(colours))
        if colours[c] == family and (key := observation.key(c)) is not None
    )
    return keys


def deal_of(sample: Game, observation: Observation, family: str) -> Deal:
    """How ``sample`` dealt ``family``'s cards that ``observation`` cannot see."""
    position = sample.position()
    keys = {card: label.split(".")[1] for label, card in position.ids.items()}
    hand = tuple(sorted(position.ids[label] for label in position.hands[family]))
    return tuple(keys[c] for c in unknown_ids(observation, family)), hand


def consistent(observation: Observation, family: str, deal: Deal) -> bool:
    """Whether ``deal`` agrees with everything the observation shows of ``family``."""
    keys, hand = deal
    size = observation.hand_sizes[family]
    return (
        Counter(keys) == +unseen_keys(observation, family)
        and len(hand) == size
        and set(hand) <= set(out_of_play(observation, family))
    )


def every_deal(observation: Observation, family: str) -> set[Deal]:
    """Every deal of ``family``'s unseen cards the observation allows."""
    keys = list(unseen_keys(observation, family).elements())
    size = observation.hand_sizes[family]
    hands = list(itertools.combinations(out_of_play(observation, family), size))
    return {(order, hand) for order in set(itertools.permutations(keys)) for hand in hands}


def deal_count(observation: Observation, family: str) -> int:
    """How many deals :func:`every_deal` would list, computed without listing them."""
    keys = +unseen_keys(observation, family)
    orders = math.factorial(sum(keys.values()))
    for count in keys.values():
        orders //= math.factorial(count)
    hidden = len(out_of_play(observation, family))
    return orders * math.comb(hidden, observation.hand_sizes[family])


def others(observation: Observation) -> list[str]:
    return [f for f in observation.families if f != observation.family]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("families", FAMILIES)
def test_a_sample_agrees_with_its_observation_and_plays_to_the_end(
    registry: Registry, families: int, kind: str
) -> None:
    chosen = seeds(families, kind, GAMES)
    print(f"{families} families, {kind}: seeds {chosen.start} to {chosen.stop - 1}")
    varied = 0
    for seed in chosen:
        rng = random.Random(seed)
        game = new_game(registry, seed, families, sets=KINDS[kind])
        step = 0
        for stop in sorted(rng.sample(range(140), 2)):
            play_until(game, stop - step, seed + stop)
            step = stop
            labels = sorted(game.position().cards())
            for family in game.families:
                where = f"seed {seed}, step {stop}, {family}"
                observation = game.observe(family)
                samples = [
                    Game.determinise(observation, seed + i, registry=registry) for i in range(8)
                ]
                for sample in samples:
                    assert sample.observe(family) == observation, where
                    assert sorted(sample.position().cards()) == labels, where
                    for other in others(observation):
                        deal = deal_of(sample, observation, other)
                        assert consistent(observation, other, deal), f"{where}: {other} {deal}"
                deals = [[deal_of(s, observation, g) for g in others(observation)] for s in samples]
                sample = samples[0]
                if any(deal_count(observation, g) > 1 for g in others(observation)):
                    assert any(d != deals[0] for d in deals[1:]), f"{where}: 8 equal samples"
                    varied += 1
                play_until(sample, 2000, seed + stop)
                assert sample.over, f"{where}: the sample did not end"
                assert sample.winners, where
    assert varied, "no observation left anything to deal"


def late_position(registry: Registry, first_seed: int) -> tuple[int, Game, str, str]:
    """A game in the resolution phase of round 6 where, for some family, another family's
    unseen cards are few: its seed, the game, the family and the other family."""
    for seed in range(first_seed, first_seed + 50):
        game = new_game(registry, seed, 3)
        rng = random.Random(seed)
        while (decision := game.decision) is not None:
            if game.round == 6 and game.phase == "resolution":
                for family in game.families:
                    observation = game.observe(family)
                    for other in others(observation):
                        if deal_count(observation, other) <= 100:
                            return seed, game, family, other
            game.answer_option(int(rng.random() * len(decision.options)))
    raise AssertionError("no late position with few unseen cards")


def test_every_consistent_deal_comes_out_and_nothing_else(registry: Registry) -> None:
    first_seed = 7100
    seed, game, family, other = late_position(registry, first_seed)
    observation = game.observe(family)
    expected = every_deal(observation, other)
    print(f"seed {seed}, round {game.round}: {family} imagines {len(expected)} deals of {other}")
    assert len(expected) == deal_count(observation, other)
    assert 1 < len(expected) <= 100
    samples = 25 * len(expected)  # a given deal is missed with probability e**-25
    found: dict[str, Counter[Deal]] = {g: Counter() for g in others(observation)}
    for sample_seed in range(samples):
        sample = Game.determinise(observation, sample_seed, registry=registry)
        for g, deals in found.items():
            deals[deal_of(sample, observation, g)] += 1
    assert set(found[other]) == expected, f"missing {expected - set(found[other])}"
    for g, deals in found.items():
        inconsistent = [d for d in deals if not consistent(observation, g, d)]
        assert not inconsistent, f"{g}: {inconsistent}"


def test_a_sample_at_another_familys_placement_deals_its_options(registry: Registry) -> None:
    chosen = seeds(4, "mixed", 20)
    print(f"seeds {chosen.start} to {chosen.stop - 1}")
    checked = 0
    for seed in chosen:
        game = new_game(registry, seed, 4, sets=KINDS["mixed"])
        rng = random.Random(seed)
        while (decision := game.decision) is not None:
            if decision.kind == "place" and rng.random() < 0.2:
                check_placement_sample(game, registry, seed)
                checked += 1
            game.answer_option(int(rng.random() * len(decision.options)))
    assert checked >= len(chosen)


def check_placement_sample(game: Game, registry: Registry, seed: int) -> None:
    decision = game.decision
    assert decision is not None
    asked = decision.family
    options = decision.options
    assert isinstance(options, Placements)
    for family in game.families:
        where = f"seed {seed}, round {game.round}: {asked} places, seen by {family}"
        observation = game.observe(family)
        sample = Game.determinise(observation, seed + len(game.events), registry=registry)
        if family == asked:
            assert sample.decision == decision, where  # its own hand, unchanged
            continue
        assert observation.decision is not None
        assert observation.decision.options == (), where
        dealt = sample.decision
        assert dealt is not None
        assert (dealt.family, dealt.kind) == (asked, "place"), where
        assert isinstance(dealt.options, Placements), where
        assert dealt.options.cards == sample.observe(asked).hand, where
        assert dealt.options.ats == options.ats, where  # the spots are public
        assert len(dealt.options.cards) == len(options.cards), where
        assert sample.observe(family) == observation, where
        for option in dealt.options:
            sample.clone().answer(option)


def test_the_unseen_cards_are_shuffled_as_random_shuffle_shuffles() -> None:
    # Determinisation shuffles with its own copy of Random.shuffle, fed words fetched
    # many at once: draw for draw the same, whatever the lengths and however many
    # shuffles share one generator (past one fetch of words).
    for seed in [*range(300), 2**62 - 1, 2**63 - 1, -5]:
        draws = _Draws(seed)
        reference = random.Random(seed)
        for length in (0, 1, 2, 10, 7, 33, 100, 3, 64, 10):
            mine = list(range(length))
            theirs = list(range(length))
            draws.shuffle(mine)
            reference.shuffle(theirs)
            assert mine == theirs, f"seed {seed}, {length} items"


def test_each_sample_keeps_its_own_seed(registry: Registry) -> None:
    game = new_game(registry, 3)
    play_until(game, 20, 3)
    observation = game.observe(game.families[0])
    for seed in (5, 2**40, 6, 0):
        sample = Game.determinise(observation, seed, registry=registry)
        assert sample.config.seed == seed
        assert json.loads(sample.to_json())["config"]["seed"] == seed
        assert load(sample.to_json(), registry=registry) == sample
    with pytest.raises(ConfigError, match="seed must be"):
        Game.determinise(observation, 2**63, registry=registry)
