"""The OpenSpiel game ``python_oriflamme``: OpenSpiel's own checks (random play with
clones and serialisation), the deal's chance nodes, legal actions against the engine's
options, observations that show nothing a player may not see, ``str(state)`` that
shows public information only, resampling for search, and OpenSpiel's Python ISMCTS
bot playing it."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from oriflamme import Game, GameConfig, OriflammeError  # noqa: E402
from oriflamme.rl import openspiel, openspiel_play  # noqa: E402
from oriflamme.rl.actions import ActionSpace, card_pool  # noqa: E402
from oriflamme.rl.observations import Encoding  # noqa: E402
from oriflamme.rl.openspiel_information import information_string  # noqa: E402
from oriflamme.rl.openspiel_observer import observation_text  # noqa: E402
from oriflamme.rl.returns import returns  # noqa: E402

HOUSE_CARDS = "soldier,archer,lord,heir,soldier,archer,lord,heir,spy,jester"


@pytest.fixture
def house(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example plugin's Jester, registered by hand as its own tests do."""
    try:
        import oriflamme_house_rules  # noqa: PLC0415 - only where a test asks for it
    except ImportError:
        pytest.skip("the house-rules example plugin cannot be imported")
    monkeypatch.setitem(openspiel.PLUGINS, "house", oriflamme_house_rules)


def dealt(game: Any, rng: random.Random) -> Any:
    """A new state past the deal's chance nodes, their outcomes drawn from ``rng``."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    return state


def walk(game: Any, seed: int) -> Iterator[Any]:
    """Every decision state of one random game, then its terminal state."""
    rng = random.Random(seed)
    state = dealt(game, rng)
    while not state.is_terminal():
        yield state
        state.apply_action(rng.choice(state.legal_actions()))
    yield state


@pytest.mark.parametrize(
    "params",
    [
        {"families": 3, "sets": "base"},
        {"families": 4, "sets": "ablaze", "reward": "score"},
        {"families": 5, "sets": "base,ablaze"},
        {
            "families": 3,
            "sets": "base+ablaze",
            "size": 12,
            "variants": "ambush_own_elimination=revised",
        },
    ],
)
def test_openspiel_random_simulations_with_serialisation(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_oriflamme", params)
    # pyspiel's own check: clones, legal-action masks, serialise and load back, bounds.
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.usefixtures("house")
def test_an_explicit_card_list_with_a_house_rule_card() -> None:
    game = pyspiel.load_game("python_oriflamme", {"cards": HOUSE_CARDS})
    assert "jester" in game.rules.space.cards
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    played = []
    for seed in range(3):
        *_, end = walk(game, 4000 + seed)
        where = end.game.position()
        played += [e.card for stack in where.queue for e in stack]
        for pile in (where.discarded, where.eliminated):
            played += [card for cards in pile.values() for card in cards]
    assert any(label.endswith(".jester") for label in played)


def test_the_game_loads_by_its_string_and_describes_itself() -> None:
    game = pyspiel.load_game("python_oriflamme(families=4,sets=ablaze)")
    kind = game.get_type()
    assert kind.short_name == "python_oriflamme"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.num_players() == 4
    config = GameConfig(families=("red", "blue", "green", "yellow"), sets=("ablaze",))
    space = ActionSpace(card_pool(config, game.rules.registry))
    assert game.num_distinct_actions() == space.size
    assert game.observation_tensor_shape() == [Encoding(space.cards).size]
    assert game.information_state_tensor_shape() == [Encoding(space.cards).size + space.size]
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_chance_outcomes() == 256
    # Lists keep "+", so that the game's string loads it again.
    mixed = pyspiel.load_game("python_oriflamme", {"sets": "base, ablaze", "families": 5})
    assert str(mixed) == str(pyspiel.load_game(str(mixed)))
    assert mixed.get_parameters()["sets"] == "base+ablaze"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"families": 6}, r"^families must be 3 to 5$"),
        ({"families": 2}, r"^families must be 3 to 5$"),
        ({"reward": "money"}, r"^reward must be one of outcome, score, not 'money'$"),
        ({"sets": "nope"}, r"^unknown card set 'nope'"),
        ({"variants": "x"}, r"^a variant is written name:value, not 'x'$"),
    ],
)
def test_bad_parameters_are_refused_at_load(params: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, OriflammeError), match=message):
        pyspiel.load_game("python_oriflamme", params)


def test_the_deal_is_four_bytes_of_the_seed_and_shows_nothing() -> None:
    game = pyspiel.load_game("python_oriflamme(families=4)")
    state = game.new_initial_state()
    outcomes = (7, 0, 200, 3)
    for drawn, byte in enumerate(outcomes):
        assert state.is_chance_node()
        chances = state.chance_outcomes()
        assert [a for a, _ in chances] == list(range(256))
        assert sum(p for _, p in chances) == pytest.approx(1.0)
        for player in range(4):
            # Nothing of the outcomes drawn: the same as for any other outcomes.
            assert state.observation_string(player) == f"dealing: {drawn} drawn"
            assert state.information_state_string(player) == f"dealing: {drawn} drawn"
            assert not np.any(state.observation_tensor(player))
            assert not np.any(state.information_state_tensor(player))
        state.apply_action(byte)
    seed = 7 + 200 * 256**2 + 3 * 256**3
    expected = Game.new(game.rules.config, registry=game.rules.registry, seed=seed)
    assert state.game == expected
    assert not state.is_chance_node()
    assert expected.decision is not None
    assert state.current_player() == expected.families.index(expected.decision.family)


@pytest.mark.parametrize("number", range(4))
def test_legal_actions_are_the_engines_options(number: int) -> None:
    seed = 4100 + number
    print(f"seed {seed}")
    params = [{}, {"sets": "ablaze", "families": 4}, {"sets": "base,ablaze", "families": 5}][
        number % 3
    ]
    game = pyspiel.load_game("python_oriflamme", params)
    space = game.rules.space
    for state in walk(game, seed):
        if state.is_terminal():
            break
        engine = state.game
        decision = engine.decision
        player = state.current_player()
        assert game.rules.families[player] == decision.family
        seen = engine.observe(decision.family)
        legal = state.legal_actions()
        assert legal == [a for a, ok in enumerate(space.mask(seen)) if ok]
        assert {space.encode(seen, option) for option in decision.options} == set(legal)
        assert all(space.decode(seen, action) in decision.options for action in legal)
        for other in range(game.num_players()):
            if other != player:
                assert state.legal_actions(other) == []


def test_action_strings_word_the_action_and_read_back_as_it() -> None:
    seed = 4150
    print(f"seed {seed}")
    game = pyspiel.load_game("python_oriflamme", {"families": 5, "sets": "base+ablaze"})
    space = game.rules.space
    read_back = 0
    for state in walk(game, seed):
        if state.is_terminal():
            break
        player = state.current_player()
        seen = state.observation_of(player)
        for action in state.legal_actions():
            text = state.action_to_string(player, action)
            assert text == space.describe(action)
            assert state.string_to_action(player, text) == action
            read_back += 1
            # Positions from 1, as the views number the queue; cards by their names.
            answer = space.decode(seen, action)
            if text.startswith("target position "):
                assert text == f"target position {answer + 1}"
            if text.startswith("place ") and not text.startswith("place the Twin"):
                definitions = state.game.rules.definitions
                assert text.startswith(f"place {definitions[seen.key(answer.card)].name} ")
    print(f"{read_back} legal actions read back from their strings")
    assert read_back > 100


@pytest.mark.parametrize("reward", ["outcome", "score"])
def test_returns_are_those_of_returns_py(reward: str) -> None:
    game = pyspiel.load_game("python_oriflamme", {"reward": reward, "families": 4})
    for seed in range(4200, 4203):
        print(f"seed {seed}")
        for end in walk(game, seed):
            if not end.is_terminal():
                assert end.returns() == [0.0] * 4
        engine = end.game
        found = returns(reward, engine.scores, engine.winners)
        assert end.returns() == [found[f] for f in engine.families]
        assert all(game.min_utility() <= r <= game.max_utility() for r in end.returns())


def views(state: Any, player: int) -> tuple[Any, ...]:
    return (
        state.observation_string(player),
        state.information_state_string(player),
        list(state.observation_tensor(player)),
        list(state.information_state_tensor(player)),
    )


@pytest.mark.parametrize("params", [{}, {"families": 5, "sets": "ablaze"}])
def test_a_players_views_are_the_same_in_every_deal_it_cannot_tell_apart(
    params: dict[str, Any],
) -> None:
    seed = 4300
    print(f"seed {seed}")
    game = pyspiel.load_game("python_oriflamme", params)
    rng = random.Random(seed)
    differed = 0
    for step, state in enumerate(walk(game, seed)):
        if step % 7 or state.is_terminal():
            continue
        for player in range(game.num_players()):
            # The other deal: every card the player has not seen dealt afresh.
            other = state.resample_from_infostate(player, rng.random)
            assert views(other, player) == views(state, player)
            assert other.legal_actions(player) == state.legal_actions(player)
            # Where the deals differ, another player's views do: they hold its cards.
            if other.game.position() != state.game.position():
                differed += 1
                assert any(
                    views(other, p) != views(state, p)
                    for p in range(game.num_players())
                    if p != player
                )
    assert differed > 5


def full_information(state: Any, player: int) -> str:
    """The information state written out in full: canonical JSON of the player's whole
    observation (its log included) and its own actions, what the string abbreviates."""
    data = {
        "observation": state.observation_of(player).to_dict(),
        "own_actions": list(state.own_actions(player)),
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize(
    "params", [{"families": 3}, {"families": 4, "sets": "ablaze"}, {"families": 5}]
)
def test_the_information_state_string_tells_apart_exactly_what_the_player_can(
    params: dict[str, Any],
) -> None:
    """Over every state of seeded games and of deals resampled from each player's
    information, the string and the full information determine each other: equal
    informations give one string (resampled deals share it), and any difference the
    player can see (its own hand, a card revealed, an action of its own) shows."""
    seed = 4350 + params["families"]
    print(f"seed {seed}")
    game = pyspiel.load_game("python_oriflamme", params)
    rng = random.Random(seed)
    to_string: dict[str, str] = {}
    to_full: dict[str, str] = {}
    shared = 0
    for _ in range(2):
        for state in walk(game, rng.randrange(2**32)):
            players = range(game.num_players())
            # Each player's deal redealt: the same information for that player, other
            # hidden cards (another's hand among them) for the others.
            states = [state, *(state.resample_from_infostate(p, rng.random) for p in players)]
            for one in states:
                for player in players:
                    text = one.information_state_string(player)
                    full = full_information(one, player)
                    shared += full in to_string
                    assert to_string.setdefault(full, text) == text
                    assert to_full.setdefault(text, full) == full
    print(f"{len(to_string)} informations, {shared} met again")
    assert shared > 100
    assert len(to_string) > 300


def test_the_information_state_string_differs_with_the_players_own_hand_and_actions() -> None:
    seed = 4360
    print(f"seed {seed}")
    game = pyspiel.load_game("python_oriflamme", {"families": 4})
    rng = random.Random(seed)
    state = dealt(game, rng)
    player = state.current_player()
    other = (player + 1) % 4
    mine = state.information_state_string(player)
    hands = 0
    for _ in range(10):
        # The other's information kept, this player's hand and set-aside cards dealt again.
        redealt = state.resample_from_infostate(other, rng.random)
        assert redealt.information_state_string(other) == state.information_state_string(other)
        if hand_keys(redealt, player) != hand_keys(state, player):
            hands += 1
            assert redealt.information_state_string(player) != mine
    assert hands >= 5
    seen = state.observation_of(player)
    assert information_string(seen, [1, 2]) != information_string(seen, [12])
    assert information_string(seen, [3]) != information_string(seen, [])


def hand_keys(state: Any, player: int) -> list[str]:
    seen = state.observation_of(player)
    return sorted(seen.key(card) for card in seen.hand)


#: The longest information-state string of a game of five families, in bytes. The log
#: takes about 10 bytes an event and the rest of the string under 1 kB, so 4 kB holds
#: some 300 events: half again the 212 of the longest of 40 seeded random games of five
#: families (base and Ablaze), whose longest string was 2,926 bytes (its JSON 16,324).
LONGEST = 4096


@pytest.mark.parametrize("sets", ["base", "ablaze"])
def test_the_information_state_string_is_compact(sets: str) -> None:
    seed = 4370
    print(f"seed {seed}")
    game = pyspiel.load_game("python_oriflamme", {"families": 5, "sets": sets})
    longest = 0
    for end in walk(game, seed):
        for player in range(5):
            size = len(end.information_state_string(player).encode())
            # Each datum once, by position: under half the JSON's size.
            assert size * 2 < len(full_information(end, player).encode())
            longest = max(longest, size)
    print(f"longest: {longest} bytes")
    assert longest < LONGEST


def test_str_is_the_spectators_view_the_same_in_every_deal_that_agrees_on_it() -> None:
    seed = 4700
    print(f"seed {seed}")
    game = pyspiel.load_game("python_oriflamme", {"families": 4, "sets": "base+ablaze"})
    families = game.rules.families
    state = game.new_initial_state()
    for drawn, byte in enumerate((9, 250, 0, 31)):
        assert str(state) == f"dealing: {drawn} of 4 drawn"  # not the outcomes
        state.apply_action(byte)
    rng = random.Random(seed)
    differed = hidden_seen = 0
    for state in walk(game, seed):
        text = str(state)
        spectator = state.game.observe(None)
        assert text == observation_text(spectator)
        # Each family's view dealt out afresh (Game.determinise): every card it has not
        # seen changes, the others' hands among them, and the text does not.
        for player in range(len(families)):
            other = state.resample_from_infostate(player, rng.random)
            assert str(other) == text
            differed += other.game.position() != state.game.position()
        # It names no card a spectator has not seen face up, so no card of a hidden hand.
        public = {spectator.key(card) for stack in spectator.queue for card in stack}
        for pile in (spectator.reserve, spectator.discarded, spectator.eliminated):
            public |= {spectator.key(card) for cards in pile.values() for card in cards}
        named = set(re.findall(r"[a-z_]+", text)) & set(game.rules.space.cards)
        assert named <= public
        hidden = {key for family in families for key in own_keys(state, family)} - public
        hidden_seen += bool(hidden)
        assert not hidden & named
    assert differed > 20
    assert hidden_seen > 10


def own_keys(state: Any, family: str) -> set[str | None]:
    """The card types of ``family``'s hand and set-aside cards."""
    seen = state.game.observe(family)
    return {seen.key(card) for card in seen.hand + seen.set_aside}


def test_resampling_is_deterministic_given_the_sampler_and_keeps_only_own_actions() -> None:
    game = pyspiel.load_game("python_oriflamme")
    rng = random.Random(4400)
    state = dealt(game, rng)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    first = state.resample_from_infostate(player, random.Random(1).random)
    again = state.resample_from_infostate(player, random.Random(1).random)
    assert first.game == again.game
    assert first.own_actions(player) == state.own_actions(player) != []
    assert all(first.own_actions(p) == [] for p in range(3) if p != player)
    assert first.history() == []  # the real deal's outcomes are not carried over
    # It plays on to the end like any state.
    while not first.is_terminal():
        first.apply_action(rng.choice(first.legal_actions()))


def test_clones_are_independent_and_serialised_states_play_on_alike() -> None:
    game = pyspiel.load_game("python_oriflamme(families=4)")
    rng = random.Random(4500)
    state = dealt(game, rng)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    before = state.game.clone()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.game == before != clone.game
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        assert loaded.legal_actions() == state.legal_actions()
        state.apply_action(action)
        loaded.apply_action(action)
        assert loaded.game == state.game
        assert str(loaded) == str(state)
    assert loaded.returns() == state.returns()


def test_the_python_ismcts_bot_finishes_games_against_random_bots() -> None:
    seed = 4600
    print(f"seed {seed}")
    played = openspiel_play.play_ismcts_vs_random(3, seed, 20)
    assert [p.seat for p in played] == [0, 1, 2]
    for game in played:
        assert game.decisions > 5
        assert game.returns.count(1.0) <= 1
        assert set(game.returns) <= {1.0, 0.0, -1.0}
        assert game.returns.count(1.0) + game.returns.count(0.0) >= 1
    # Every choice flows from the seed: the same games again.
    again = openspiel_play.play_ismcts_vs_random(1, seed, 20)
    assert again[0].returns == played[0].returns
