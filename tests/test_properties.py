"""Property tests: seeded random playouts, hundreds of games for each family count.

Checked at every step: every offered answer is legal and applies without error;
every card is in exactly one place; Influence is never negative; tokens lie only on
face-down cards in the queue and Bribery tokens only on face-up ones; a refused
answer changes nothing; no view shows another family's hidden card. Checked per
game: it ends after round 6 with one card left in each hand; the same seed gives
the same game; a saved and reloaded game plays on identically.
"""

from __future__ import annotations

import functools
import json
import random

import pytest

from oriflamme import Game, IllegalAnswer, Placement, Registry
from oriflamme.bots import RandomBot, play_out

from .helpers import all_cards, new_game, random_bots
from .test_views import hidden_from

GAMES = 200  # per family count and kind of game
# The three kinds of game: the base set, Ablaze, and a mix drawn from both.
KINDS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}


def illegal_answers(game: Game) -> list[object]:
    """Answers the pending decision must refuse, of the right shape and of the wrong one."""
    decision = game.decision
    assert decision is not None
    answers: list[object] = ["nonsense", None, 3.5]
    if decision.kind == "place":
        outsider = next(c for c in game.key_of if c not in game.hands[decision.family])
        answers += [
            Placement(outsider, "first"),
            Placement(game.hands[decision.family][0], len(game.queue) + 3),
        ]
    elif decision.kind in ("target", "move"):
        answers += [-1, len(game.queue) + 5, True]
    elif decision.kind == "reveal":
        answers += [1, 0, "true"]
    elif decision.kind == "twin":
        answers += ["middle", len(game.queue) + 2]
    elif decision.kind == "choose":
        answers += ["maybe", 1]
    return answers


def check_step(game: Game, everyone: list[str], rng: random.Random, seed: int) -> None:
    where = f"seed {seed}, round {game.round}"
    cards = all_cards(game)
    assert sorted(cards) == everyone, f"{where}: a card is missing or in two places"
    assert min(game.influence.values()) >= 0, f"{where}: negative Influence"
    in_queue = {card for stack in game.queue for card in stack}
    tokened = set(game.tokens)
    assert tokened <= in_queue - game.up, f"{where}: tokens on {tokened - (in_queue - game.up)}"
    assert game.up <= in_queue, f"{where}: face-up cards outside the queue"
    bribed = set(game.bribes)
    assert bribed <= game.up, f"{where}: Bribery tokens on {bribed - game.up}"
    decision = game.decision
    if decision is None:
        return
    for option in decision.options:  # every offered answer is legal and applies
        assert game.legal(option), f"{where}: offered answer {option!r} is refused"
        game.clone().answer(option)
    if rng.random() < 0.2:  # a refused answer changes nothing
        before = game.snapshot()
        for answer in illegal_answers(game):
            with pytest.raises(IllegalAnswer):
                game.answer(answer)
        assert game.snapshot() == before, f"{where}: a refused answer changed the game"
    if rng.random() < 0.1:  # no view shows another family's hidden card
        for family in game.families:
            text = json.dumps(game.view(family).to_dict())
            leaked = [c for c in hidden_from(game, family) if f'"{c}"' in text]
            assert not leaked, f"{where}: {family}'s view shows {leaked}"


def _check_after(
    game: Game, _answer: object, *, everyone: list[str], rng: random.Random, seed: int
) -> None:
    check_step(game, everyone, rng, seed)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("families", [3, 4, 5])
def test_random_playouts_keep_every_invariant(registry: Registry, families: int, kind: str) -> None:
    base_seed = 1000 * families
    print(f"{kind}: seeds {base_seed} to {base_seed + GAMES - 1}")
    for seed in range(base_seed, base_seed + GAMES):
        game = new_game(registry, seed, families, sets=KINDS[kind])
        everyone = sorted(all_cards(game))
        rng = random.Random(seed)
        check_step(game, everyone, rng, seed)
        play_out(
            game,
            random_bots(game, seed),
            on_answer=functools.partial(_check_after, everyone=everyone, rng=rng, seed=seed),
        )
        assert game.over, f"seed {seed}"
        assert game.round == 6, f"seed {seed}"
        assert all(len(hand) == 1 for hand in game.hands.values()), f"seed {seed}"
        assert game.winners, f"seed {seed}"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("families", [3, 4, 5])
def test_the_same_seed_gives_the_same_game(registry: Registry, families: int, kind: str) -> None:
    for seed in range(50):
        print(f"{kind}: seed={seed}")
        first = new_game(registry, seed, families, sets=KINDS[kind])
        second = new_game(registry, seed, families, sets=KINDS[kind])
        play_out(first, random_bots(first, seed))
        play_out(second, random_bots(second, seed))
        assert first == second, f"seed {seed}"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("families", [3, 4, 5])
def test_a_reloaded_game_continues_identically(
    registry: Registry, families: int, kind: str
) -> None:
    for seed in range(100):
        print(f"{kind}: seed={seed}")
        game = new_game(registry, seed, families, sets=KINDS[kind])
        rng = random.Random(seed)
        stop = rng.randrange(10, 60)
        bots = random_bots(game, seed)
        for _ in range(stop):
            decision = game.decision
            if decision is None:
                break
            game.answer(bots[decision.family].choose(game.view(decision.family), decision))
        copy = Game.from_json(game.to_json(), registry=registry)
        assert copy == game, f"seed {seed}"
        play_out(game, {f: RandomBot(seed + i) for i, f in enumerate(game.families)})
        play_out(copy, {f: RandomBot(seed + i) for i, f in enumerate(copy.families)})
        assert copy == game, f"seed {seed}: the reloaded game played differently"
