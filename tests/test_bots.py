"""Every bot kind plays legal answers only, and is reproducible from its seed."""

from __future__ import annotations

import random

import pytest

from oriflamme import COLOURS, Game, GameConfig, Registry
from oriflamme.bots import bot_kinds, make_bot

from .test_properties import KINDS

#: Each built-in kind, as a search small enough for tests.
QUICK = {
    "random": "random",
    "heuristic": "heuristic",
    "learned": "learned",
    "ismcts": "ismcts:iterations=8",
}


def test_every_built_in_kind_is_tested() -> None:
    assert set(QUICK) == set(bot_kinds())


def play_checked(registry: Registry, config: GameConfig, choice: str, seed: int) -> list[object]:
    """A game of ``config`` from ``seed``, every seat played by ``choice``; every answer
    checked to be one of the options offered; the answers, in order."""
    rng = random.Random(seed)
    game = Game.new(config, registry=registry, record=False, seed=seed, rng=rng)
    bots = {family: make_bot(choice, registry=registry, seed=rng) for family in game.families}
    answers: list[object] = []
    decision = game.decision
    while decision is not None:
        answer = bots[decision.family].choose(game.observe(decision.family))
        assert answer in decision.options, f"seed {seed}: {answer!r} not among the options"
        game.answer(answer)
        answers.append(answer)
        decision = game.decision
    assert game.over
    return answers


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("families", [3, 4, 5])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_quick_bots_answer_legally(registry: Registry, bot: str, families: int, kind: str) -> None:
    config = GameConfig(families=COLOURS[:families], sets=KINDS[kind])
    for seed in range(20):
        print(f"seed={seed} bot={bot} families={families} sets={KINDS[kind]}")
        play_checked(registry, config, bot, 7_000 + seed)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_ismcts_answers_legally(registry: Registry, kind: str) -> None:
    for families in (3, 5):
        config = GameConfig(families=COLOURS[:families], sets=KINDS[kind])
        seed = 8_000 + families
        print(f"seed={seed} families={families} sets={KINDS[kind]}")
        play_checked(registry, config, QUICK["ismcts"], seed)


@pytest.mark.parametrize("bot", sorted(QUICK))
def test_the_same_seed_plays_the_same_game(registry: Registry, bot: str) -> None:
    config = GameConfig(sets=("base", "ablaze"))
    seed = 9_001
    print(f"seed={seed} bot={bot}")
    first = play_checked(registry, config, QUICK[bot], seed)
    assert play_checked(registry, config, QUICK[bot], seed) == first


@pytest.mark.parametrize("bot", sorted(QUICK))
def test_a_bot_draws_only_from_its_own_generator(registry: Registry, bot: str) -> None:
    seed = 4
    print(f"seed={seed} bot={bot}")
    game = Game.new(GameConfig(seed=seed, sets=("ablaze",)), registry=registry, record=False)
    answers = []
    for global_seed in (1, 2):
        random.seed(global_seed)  # the global generator is never read
        copy = game.clone()
        made = make_bot(QUICK[bot], registry=registry, seed=5)
        played = []
        for _ in range(30):
            decision = copy.decision
            assert decision is not None
            answer = made.choose(copy.observe(decision.family))
            copy.answer(answer)
            played.append(answer)
        answers.append(played)
    assert answers[0] == answers[1]
