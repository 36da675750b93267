"""Honest bots: no bot can use what its family cannot see.

At many decisions of seeded games, every kind of bot is asked twice with the same seed:
once in the real game, once in a game whose other families' unseen cards (their hands,
set-aside cards, face-down cards) are dealt again at random, consistently with what
the family asked has seen (:meth:`Game.determinise`). Its answer must not change. The
second deal differs from the real one at most decisions, so the test has something to
catch: a bot that read a hidden card anywhere would answer differently somewhere.
"""

from __future__ import annotations

import random

import pytest

from oriflamme import COLOURS, Game, GameConfig, Registry
from oriflamme.bots import make_bot

from .test_bots import QUICK
from .test_properties import KINDS

GAMES = 4  # per kind of game and bot, of 3, 4 and 5 families in turn
EVERY = 2  # a bot is asked at every other decision


def hidden(game: Game, family: str) -> dict[str, object]:
    """What ``family`` cannot see of ``game``: the others' hands and set-aside cards,
    and every card's key, as the referee sees them."""
    position = game.position()
    others = [f for f in game.families if f != family]
    return {
        "hands": {f: sorted(position.hands[f]) for f in others},
        "set_aside": {f: sorted(position.set_aside[f]) for f in others},
        "queue": [[entry.card for entry in stack] for stack in position.queue],
    }


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("bot", sorted(QUICK))
def test_a_bot_answers_the_same_whatever_the_unseen_cards(
    registry: Registry, bot: str, kind: str
) -> None:
    asked = differed = 0
    for number in range(GAMES):
        families = 3 + number % 3
        seed = 31_000 + 100 * list(KINDS).index(kind) + number
        print(f"seed={seed} bot={bot} families={families} sets={KINDS[kind]}")
        config = GameConfig(families=COLOURS[:families], sets=KINDS[kind], seed=seed)
        game = Game.new(config, registry=registry, record=False)
        drive = random.Random(seed)
        step = 0
        decision = game.decision
        while decision is not None:
            if step % EVERY == 0:
                family = decision.family
                seen = game.observe(family)
                other = Game.determinise(seen, seed * 1_000 + step, registry=registry)
                assert other.observe(family) == seen
                differed += hidden(other, family) != hidden(game, family)
                bot_seed = seed * 1_000 + step
                here = make_bot(QUICK[bot], registry=registry, seed=bot_seed).choose(seen)
                there = make_bot(QUICK[bot], registry=registry, seed=bot_seed).choose(
                    other.observe(family)
                )
                assert here == there, f"seed {seed}, decision {step}: {here!r} != {there!r}"
                asked += 1
            game.answer_option(int(drive.random() * len(decision.options)))
            step += 1
            decision = game.decision
    print(f"{asked} decisions asked twice, the unseen cards dealt otherwise at {differed}")
    assert asked >= 100
    assert differed >= asked // 2
