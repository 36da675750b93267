"""The PettingZoo environment: PettingZoo's own API, seed and render tests for 3, 4 and
5 families, base, Ablaze, a mix and a card list with a house-rule card; and what it
shows each agent (its own view only), its rewards and its text."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
import oriflamme_house_rules
from gymnasium import spaces
from pettingzoo.test import api_test, render_test, seed_test  # type: ignore[import-untyped]

from oriflamme import Decision, Game, Placement, Registry
from oriflamme.rl.pettingzoo import env, raw_env
from oriflamme.rl.returns import returns

pytestmark = [
    # PettingZoo's test modules import pygame's resource helpers, which warn once.
    pytest.mark.filterwarnings("ignore:pkg_resources is deprecated:UserWarning"),
    # api_test warns of dict observations of any game it does not list by name.
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    # The agents are the families (red, blue...), as the engine names them.
    pytest.mark.filterwarnings("ignore:We recommend agents to be named:UserWarning"),
]

HOUSE_CARDS = ("soldier", "archer", "lord", "heir", "spy", "plot", "jester", "assassination")


def asked(game: Game) -> Decision:
    decision = game.decision
    assert decision is not None
    return decision


def random_step(game: raw_env, rng: random.Random) -> None:
    """One random legal answer, taken through its action."""
    decision = asked(game.game)
    option = rng.choice(decision.options)
    game.step(game.actions.encode(game.game.observe(decision.family), option))


def house_registry() -> Registry:
    registry = Registry(entry_points=False)
    registry.register(oriflamme_house_rules, "house")
    return registry


def kinds() -> list[tuple[str, dict[str, Any]]]:
    return [
        ("3 base", {"families": 3, "sets": ("base",)}),
        ("4 ablaze", {"families": 4, "sets": ("ablaze",)}),
        ("5 mixed", {"families": 5, "sets": ("base", "ablaze")}),
        ("3 house", {"families": 3, "cards": HOUSE_CARDS, "registry": house_registry()}),
    ]


@pytest.mark.parametrize(("name", "kwargs"), kinds(), ids=[name for name, _ in kinds()])
def test_pettingzoos_api_test(name: str, kwargs: dict[str, Any]) -> None:
    print(f"{name}: api_test resets with its own seeds (0 and none)")
    api_test(env(**kwargs), num_cycles=400)


@pytest.mark.parametrize(("name", "kwargs"), kinds(), ids=[name for name, _ in kinds()])
def test_pettingzoos_seed_test(name: str, kwargs: dict[str, Any]) -> None:
    print(f"{name}: seed_test resets with seed 42")
    seed_test(lambda: env(**kwargs), num_cycles=400)


@pytest.mark.parametrize(("name", "kwargs"), kinds(), ids=[name for name, _ in kinds()])
def test_pettingzoos_render_test(
    name: str, kwargs: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    seed = 4800
    print(f"{name}: render_test resets unseeded, after a reset with seed {seed}")

    def made(render_mode: str) -> Any:
        game = env(render_mode=render_mode, **kwargs)
        # render_test resets with no seed and samples actions from the spaces: the
        # deal is the next of this seed's sequence, and the samples are seeded too.
        game.reset(seed=seed)
        for number, agent in enumerate(game.possible_agents):
            game.action_space(agent).seed(seed + number)
        return game

    def a_view(text: str) -> bool:
        return bool(re.match(r"^[a-z]+'s view\n", text)) and (
            "\nLegal actions: " in text or "\nWinners: " in text
        )

    assert made("human").metadata["render_modes"] == ["human", "ansi"]
    capsys.readouterr()
    # human: render() prints and returns None; ansi: it returns the text.
    render_test(made, custom_tests={"ansi": a_view})
    printed = capsys.readouterr().out
    assert printed.count("'s view\n") >= 5  # human mode printed every render and step
    print(f"{name}: {printed.count(chr(10))} lines printed in human mode")


def test_action_texts_number_positions_and_name_cards_as_the_view_does() -> None:
    """Each legal action's text names its card as the view names the agent's own hand,
    and a position by the number the view's queue gives it (from 1)."""
    met: set[str] = set()
    for seed in range(4900, 4906):
        print(f"seed {seed}")
        game = raw_env(
            families=3 + seed % 3, sets=(("base",), ("ablaze",), ("base", "ablaze"))[seed % 3]
        )
        game.reset(seed=seed)
        rng = random.Random(seed)
        definitions = game.game.rules.definitions
        while not game.game.over:
            agent = game.agent_selection
            seen = game.game.observe(agent)
            text = game.render()
            assert text is not None
            lines = text.split("\n")
            hand = next(line for line in lines if line.startswith("Your hand: "))
            numbered = {int(line.split()[0]) for line in lines if re.match(r"^ {2,3}\d+  ", line)}
            assert numbered == set(range(1, len(seen.queue) + 1))
            for action in game.actions.legal(seen):
                words = game.actions.describe(action)
                assert f"{action} {words}" in text
                answer = game.actions.decode(seen, action)
                at: object = answer
                if isinstance(answer, Placement):
                    name = definitions[seen.own_keys[answer.card]].name
                    assert words.startswith(f"place {name} ")
                    assert name in hand.split(": ", 1)[1].split(", ")
                    at = answer.at
                found = re.search(r"position (\d+)", words)
                kind = asked(game.game).kind
                if kind in ("place", "twin", "target", "move") and type(at) is int:
                    met.add(kind)
                    assert found is not None
                    assert int(found[1]) == at + 1
                    # A Royal Decree may move a card past the last position, no further.
                    assert at + 1 in numbered or (kind == "move" and at == len(seen.queue))
                else:
                    assert found is None
            random_step(game, rng)
    assert met == {"place", "target", "move", "twin"}


def play(game: Any, seed: int) -> dict[str, float]:
    """Random legal actions to the end; the rewards each agent was last given."""
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        if terminated or truncated:
            final[agent] = reward
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(rng.choice(legal)))
    return final


@pytest.mark.parametrize("reward", ["outcome", "score"])
def test_rewards_come_at_the_end_and_follow_the_final_scores(reward: str) -> None:
    for seed in range(6):
        print(f"seed {seed}")
        game = env(families=3 + seed % 3, sets=("base", "ablaze")[seed % 2 :], reward=reward)
        game.reset(seed=seed)
        inner = game.unwrapped
        rewards_seen: list[float] = []
        rng = np.random.default_rng(seed)
        while not inner.game.over:
            observation, reward_now, *_ = game.last()
            rewards_seen.append(reward_now)
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert set(rewards_seen) == {0.0}
        finished = inner.game
        final = play(game, seed)
        assert final == returns(reward, finished.scores, finished.winners)
        assert game.agents == []
        if reward == "outcome":
            assert set(final.values()) <= {1.0, 0.0, -1.0}
            assert sum(value == 1.0 for value in final.values()) <= 1


def test_a_seeded_reset_deals_the_engines_game_of_that_seed() -> None:
    game = raw_env(families=4, sets=("ablaze",))
    game.reset(seed=7)
    assert game.game == Game.new(game.config, registry=game.registry, seed=7)
    game.reset()
    first = game.game
    game.reset(seed=7)
    game.reset()
    assert game.game == first  # unseeded resets follow a sequence drawn from the seed


def test_only_the_agent_asked_has_legal_actions_and_they_are_the_engines_options() -> None:
    game = raw_env(families=5, sets=("base", "ablaze"))
    for seed in range(4):
        print(f"seed {seed}")
        game.reset(seed=seed)
        rng = random.Random(seed)
        while not game.game.over:
            engine = game.game
            decision = asked(engine)
            assert game.agent_selection == decision.family
            for agent in game.agents:
                mask = game.observe(agent)["action_mask"]
                if agent == decision.family:
                    seen = engine.observe(agent)
                    wanted = {game.actions.encode(seen, option) for option in decision.options}
                    assert set(np.flatnonzero(mask)) == wanted
                else:
                    assert not mask.any()
            random_step(game, rng)


def test_an_agent_sees_only_its_own_view() -> None:
    """What an agent is shown is the same for every deal that agrees with what it has
    seen: another family's hand, set-aside or face-down cards change nothing."""
    for seed in range(6):
        print(f"seed {seed}")
        game = raw_env(
            families=3 + seed % 3, sets=(("base",), ("ablaze",), ("base", "ablaze"))[seed % 3]
        )
        game.reset(seed=seed)
        rng = random.Random(seed)
        step = differed = 0
        while not game.game.over:
            engine = game.game
            if step % 5 == 0:
                for agent in game.agents:
                    shown = game.observe(agent)
                    game.agent_selection, acting = agent, game.agent_selection
                    text = game.render()
                    for other_deal in range(2):
                        other = Game.determinise(
                            engine.observe(agent), seed * 100 + other_deal, registry=game.registry
                        )
                        differed += other != engine
                        twin = raw_env(
                            families=game.config.families,
                            sets=game.config.sets,
                            registry=game.registry,
                        )
                        twin.reset_to(other)
                        twin.agent_selection = agent
                        assert np.array_equal(
                            twin.observe(agent)["observation"], shown["observation"]
                        )
                        assert np.array_equal(
                            twin.observe(agent)["action_mask"], shown["action_mask"]
                        )
                        assert twin.render() == text
                    game.agent_selection = acting
            random_step(game, rng)
            step += 1
        assert differed  # the other deals did deal other hidden cards: the test has teeth


def test_an_illegal_action_ends_the_game_with_a_penalty_and_leaves_it_unchanged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = env(families=3)
    game.reset(seed=3)
    agent = game.agent_selection
    observation, *_ = game.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = game.unwrapped.game.clone()
    game.step(illegal)
    assert "Illegal move made" in caplog.text
    assert game.unwrapped.game == before
    assert game.rewards[agent] == -1
    assert all(game.terminations.values())
    with pytest.raises(Exception, match="not legal now"):
        game.unwrapped.actions.decode(game.unwrapped.game.observe(agent), illegal)


def test_render_shows_the_agents_view_and_its_legal_actions() -> None:
    game = raw_env(families=3, render_mode="ansi")
    game.reset(seed=11)
    text = game.render()
    assert text is not None
    agent = game.agent_selection
    assert text.startswith(f"{agent}'s view")
    assert "Your hand: " in text
    assert "Legal actions: " in text
    seen = game.game.observe(agent)
    names = {game.game.rules.definitions[seen.own_keys[card]].name for card in seen.hand}
    assert all(name in text for name in names)


def test_the_observation_slots_are_named_and_the_spaces_hold_every_observation() -> None:
    game = raw_env(families=4, sets=("base", "ablaze"))
    assert len(game.encoding.names()) == game.encoding.size
    assert len(set(game.encoding.names())) == game.encoding.size
    game.reset(seed=5)
    rng = random.Random(5)
    while not game.game.over:
        for agent in game.agents:
            assert game.observation_space(agent).contains(game.observe(agent))
        random_step(game, rng)


@pytest.mark.parametrize(
    ("sets", "actions", "slots"),
    [(("base",), 562, 1366), (("ablaze",), 604, 1423), (("base", "ablaze"), 1024, 1993)],
)
def test_spaces_cover_every_card_list_a_mix_may_draw(
    sets: tuple[str, ...], actions: int, slots: int
) -> None:
    game = raw_env(families=3, sets=sets, registry=Registry(entry_points=False))
    for seed in range(10):
        game.reset(seed=seed)
        assert set(game.game.cards) <= set(game.actions.cards)
    # The sizes docs/research.md gives.
    assert game.action_space("red") == spaces.Discrete(actions)
    assert game.observation_spaces["red"]["observation"].shape == (slots,)


def test_bad_settings_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="families must be 3 to 5, not 6"):
        raw_env(families=6)
    with pytest.raises(ValueError, match="reward must be one of outcome, score, not 'points'"):
        raw_env(reward="points")
    with pytest.raises(Exception, match="unknown card set 'nope'"):
        raw_env(sets=("nope",))
