"""Our bots as OpenSpiel bots: seeded games in OpenSpiel's own ``evaluate_bots`` between
them, OpenSpiel's ISMCTS bot and its uniform random bot; answers chosen from the
player's own view only; the policies they state; a plugin's bot kind through the same
path."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]  # noqa: E402
from open_spiel.python.bots import uniform_random  # type: ignore[import-untyped]  # noqa: E402

from oriflamme import BotKind, ConfigError, Observation, Registry, hookimpl  # noqa: E402
from oriflamme.rl import openspiel  # noqa: E402
from oriflamme.rl.openspiel_bots import make_bot, openspiel_ismcts  # noqa: E402


def load(**params: Any) -> Any:
    return pyspiel.load_game("python_oriflamme", params)


def lineup(game: Any, names: list[str], seed: int) -> list[Any]:
    """A bot for every player: ours by their choice text, OpenSpiel's ISMCTS bot
    (``os-ismcts``) and uniform random bot (``os-random``), each seeded from ``seed``."""
    bots = []
    for player, name in enumerate(names):
        own = seed * 10 + player
        if name == "os-ismcts":
            bots.append(openspiel_ismcts(game, own, 5))
        elif name == "os-random":
            bots.append(uniform_random.UniformRandomBot(player, np.random.RandomState(own)))
        else:
            bots.append(make_bot(game, player, name, own))
    return bots


def check_outcome(game: Any, state: Any, found: list[float]) -> None:
    """``found`` is a finished game's outcome: 1 to a lone winner and -1 to the others,
    or 0 to each family sharing the win; the engine's winners agree."""
    players = game.num_players()
    assert state.is_terminal()
    assert found == state.returns()
    assert set(found) <= {-1.0, 0.0, 1.0}
    winners = [p for p, value in enumerate(found) if value >= 0]
    if found.count(1.0):
        assert winners == [found.index(1.0)]
        assert sum(found) == 1 - (players - 1)
    else:
        assert len(winners) >= 2
        assert sum(found) == -(players - len(winners))
    families = game.rules.families
    assert [families[p] for p in winners] == list(state.game.winners)


LINEUPS = [
    (4700, ["heuristic", "ismcts:iterations=6", "random"]),
    (4701, ["os-ismcts", "heuristic", "random"]),
    (4702, ["random", "os-random", "heuristic", "os-ismcts"]),
    (4703, ["heuristic", "random", "ismcts:iterations=4:playout=random", "os-random", "heuristic"]),
]


@pytest.mark.parametrize(("seed", "names"), LINEUPS)
def test_seeded_games_in_evaluate_bots_end_in_an_outcome_and_play_again_alike(
    seed: int, names: list[str]
) -> None:
    print(f"seed {seed}: {names}")
    game = load(families=len(names), sets="base+ablaze")
    state = game.new_initial_state()
    found = pyspiel.evaluate_bots(state, lineup(game, names, seed), seed)
    check_outcome(game, state, found)
    # The same seeds: the same deal, the same answers, the same game.
    again = game.new_initial_state()
    assert pyspiel.evaluate_bots(again, lineup(game, names, seed), seed) == found
    assert again.history() == state.history()
    # Another seed for the game alone: another deal.
    other = game.new_initial_state()
    pyspiel.evaluate_bots(other, lineup(game, names, seed), seed + 1)
    assert other.history()[:4] != state.history()[:4]


def test_a_game_started_past_the_deal_restarts_every_bot() -> None:
    """``evaluate_bots`` calls ``restart_at`` on every bot when the state has a history:
    OpenSpiel's ISMCTS bot has none of its own, and fails there; ours restart."""
    seed = 4710
    print(f"seed {seed}")
    game = load()
    dealt = game.new_initial_state()
    for byte in (7, 1, 4, 7):
        dealt.apply_action(byte)
    names = ["os-ismcts", "heuristic", "ismcts:iterations=4"]
    state = dealt.clone()
    check_outcome(game, state, pyspiel.evaluate_bots(state, lineup(game, names, seed), seed))
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    stock = ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(seed))
    bots = [stock, *lineup(game, names, seed)[1:]]
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        pyspiel.evaluate_bots(dealt.clone(), bots, seed)


def walk(game: Any, seed: int) -> Any:
    """Every decision state of one random game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    while not state.is_terminal():
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("choice", ["random", "heuristic", "ismcts:iterations=4"])
def test_a_bot_answers_alike_in_every_deal_its_player_cannot_tell_apart(choice: str) -> None:
    seed = 4720
    print(f"seed {seed}")
    game = load(families=4, sets="ablaze")
    sampler = random.Random(seed).random
    for step, state in enumerate(walk(game, seed)):
        if step % 7:
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.game != state.game  # another deal of the hidden cards
        action = make_bot(game, player, choice, seed + step).step(state)
        assert action in state.legal_actions()
        assert make_bot(game, player, choice, seed + step).step(other) == action


def test_the_random_and_heuristic_bots_state_their_policy() -> None:
    seed = 4730
    print(f"seed {seed}")
    game = load(sets="base+ablaze")
    for step, state in enumerate(walk(game, seed)):
        player = state.current_player()
        legal = state.legal_actions()
        uniform = make_bot(game, player, "random", seed + step)
        assert uniform.provides_policy()
        chances = dict(uniform.get_policy(state))
        assert set(chances) == set(legal)
        assert sum(chances.values()) == pytest.approx(1.0)
        heuristic = make_bot(game, player, "heuristic", seed + step)
        assert heuristic.provides_policy()
        policy, action = heuristic.step_with_policy(state)
        assert {a for a, _ in policy} <= set(legal)
        assert sum(p for _, p in policy) == pytest.approx(1.0)
        assert dict(policy)[action] > 0
    search = make_bot(game, 0, "ismcts:iterations=2", seed)
    assert not search.provides_policy()
    with pytest.raises(ValueError, match=r"^the bot 'ismcts:iterations=2' provides no policy"):
        search.get_policy(state)


def test_a_bot_not_asked_returns_an_invalid_action() -> None:
    game = load()
    state = game.new_initial_state()
    bot = make_bot(game, 0, "heuristic", 1)
    assert bot.player_id() == 0
    assert bot.step(state) == pyspiel.INVALID_ACTION  # the deal's chance node
    for byte in (1, 2, 3, 4):
        state.apply_action(byte)
    others = [p for p in range(3) if p != state.current_player()]
    assert make_bot(game, others[0], "random", 1).step(state) == pyspiel.INVALID_ACTION


def test_bad_bots_are_refused_with_what_was_expected() -> None:
    game = load()
    with pytest.raises(ConfigError, match=r"^unknown bot 'nope' \(known bots: random, "):
        make_bot(game, 0, "nope", 1)
    with pytest.raises(ValueError, match=r"^player must be 0 to 2, not 3$"):
        make_bot(game, 3, "random", 1)
    with pytest.raises(TypeError, match=r"plays states of python_oriflamme, not State$"):
        make_bot(game, 0, "random", 1).step(pyspiel.load_game("kuhn_poker").new_initial_state())


class Picky:
    """A plugin's bot: any option, drawn from its generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> object:
        assert observation.decision is not None
        return self.rng.choice(observation.decision.options)


def picky(rng: random.Random, registry: Registry) -> Picky:
    return Picky(rng)


def test_a_plugins_bot_kind_plays_through_the_same_path(monkeypatch: pytest.MonkeyPatch) -> None:
    kind = BotKind("picky", "any option", picky)
    plugin = SimpleNamespace(register_bot_kinds=hookimpl(lambda: [kind]))
    monkeypatch.setitem(openspiel.PLUGINS, "pickers", plugin)
    # Parameters of no other test's game: the game's rules are made afresh, with the plugin.
    game = load(families=4, sets="ablaze", reward="score")
    assert "picky" in game.rules.registry.bot_kinds
    names = ["picky", "heuristic", "picky", "os-random"]
    seed = 4740
    print(f"seed {seed}")
    state = game.new_initial_state()
    found = pyspiel.evaluate_bots(state, lineup(game, names, seed), seed)
    assert state.is_terminal()
    scores = state.game.scores
    assert found == [scores[f] - max(s for g, s in scores.items() if g != f) for f in scores]
    assert pyspiel.evaluate_bots(game.new_initial_state(), lineup(game, names, seed), seed) == found
