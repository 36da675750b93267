"""Play never passes a bound a save or a position is read with (docs/limits.md, "Bounds
in play"): Influence and tokens stop at theirs (docs/rulings.md P21, P22), the log keeps
its first MAX_EVENTS events, a plugin's values past theirs are refused as they are
handed over, and MAX_TEXT is room for the largest game those bounds allow.

Games are set up at the table's bounds from seeded games of the built-in cards: a game
is played to the start of a placement phase, and its save, with every family's
Influence at or just under MAX_INFLUENCE and every face-down card in the queue carrying
MAX_TOKENS or one less, is read back as any save is. Each is played to its end with
seeded answers; after every answer it saves and loads back equal, its position reads,
the engine protocol's ``state`` reply is made, and no value is past its bound.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from oriflamme import (
    COLOURS,
    Ability,
    AbilityError,
    CardId,
    Decision,
    Effects,
    Game,
    GameConfig,
    GameRules,
    Placement,
    Position,
    PositionError,
    Registry,
    hookimpl,
    saves,
)
from oriflamme.conformance import serve
from oriflamme.conformance.engines import LocalEngine
from oriflamme.conformance.protocol import encode, read_table, table_json
from oriflamme.core._budget import MAX_STEPS
from oriflamme.core._identity import Identity
from oriflamme.core._state import State, logged
from oriflamme.events import (
    EVENT_TYPES,
    Event,
    Gained,
    GameEnded,
    GameStarted,
    Revealed,
    TokenAdded,
    event_to_dict,
)
from oriflamme.limits import (
    MAX_ARGUMENT_DEPTH,
    MAX_EVENTS,
    MAX_INFLUENCE,
    MAX_INT,
    MAX_KEY,
    MAX_NAMES,
    MAX_QUESTION_BYTES,
    MAX_SIZE,
    MAX_STRING,
    MAX_TASKS,
    MAX_TEXT,
    MAX_TOKENS,
    MAX_VALUE_BYTES,
    MAX_VARIANT_TEXT,
    question_bytes,
    question_problem,
    value_bytes,
    value_problem,
)
from oriflamme.saves import snapshot
from oriflamme.testing import game_at, registry_with

from .helpers import card_id, one_card_set

REGISTRY = Registry(entry_points=False)
SETS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}
#: Card lists with every kind of card whose tokens or ability gains: a Conspiracy
#: doubles its tokens, an Heir and a Lord gain, a Plot spends its tokens, a Bribery
#: takes a card, a Queen, a Schemer, a Prince gain, a Spy and a Trap steal.
CARDS = {
    "base": (
        "conspiracy",
        "heir",
        "lord",
        "spy",
        "soldier",
        "archer",
        "ambush",
        "royal_decree",
        "assassination",
        "shapeshifter",
    ),
    "ablaze": (
        "plot",
        "bribery",
        "queen",
        "schemer",
        "prince",
        "felon",
        "trap",
        "cutthroat",
        "apothecary",
        "impersonation",
    ),
    "mixed": (
        "conspiracy",
        "heir",
        "lord",
        "plot",
        "bribery",
        "queen",
        "spy",
        "prince",
        "trap",
        "royal_decree",
    ),
}
SEEDS = (1, 19, 2024)


# The table's bounds, in seeded games.


def at_the_bounds(kind: str, families: int, seed: int) -> Game | None:
    """A game of ``kind`` played at random from ``seed`` into round 2 to 5, to its first
    question with a face-down card in the queue, saved, and read back with the table at
    its bounds: each family's Influence at MAX_INFLUENCE or a little under, each
    face-down card in the queue (covered ones too) carrying MAX_TOKENS or one less.
    None if the game ends first."""
    config = GameConfig(families=COLOURS[:families], sets=SETS[kind], cards=CARDS[kind], seed=seed)
    game = Game.new(config, registry=REGISTRY)
    rng = random.Random(seed)
    start = 2 + seed % 4
    while (decision := game.decision) is not None:
        queue = game.position().queue
        if game.round >= start and any(not e.up for stack in queue for e in stack):
            break
        game.answer_option(rng.randrange(len(decision.options)))
    else:
        return None
    data = json.loads(game.to_json())
    for family in data["influence"]:
        data["influence"][family] = MAX_INFLUENCE - rng.choice((0, 0, 1, 3))
    face_up = set(data["up"])
    data["tokens"] = [
        [card, MAX_TOKENS - rng.choice((0, 0, 1))]
        for card in sorted(card for stack in data["queue"] for card in stack)
        if card not in face_up
    ]
    return saves.load(json.dumps(data), registry=REGISTRY)


def keeps_its_bounds(game: Game) -> None:
    """Saved, read back, looked at as a referee and as the engine protocol does: every
    value within its bound, and the game equal once loaded."""
    loaded = saves.load(game.to_json(), registry=REGISTRY)
    assert loaded == game
    position = game.position()  # its own checks: tokens 0 to MAX_TOKENS on each card
    assert all(0 <= n <= MAX_INFLUENCE for n in position.influence.values()), position.influence
    assert all(e.tokens <= MAX_TOKENS for stack in position.queue for e in stack)
    assert len(game.events) <= MAX_EVENTS
    state = table_json(LocalEngine(REGISTRY, game).table())  # the protocol's state reply
    assert read_table(json.loads(json.dumps(state))).influence == position.influence


def capped(game: Game, before: Position, events: tuple[Event, ...]) -> Iterator[str]:
    """Which bound each of ``events`` (one answer's, from the position ``before``) met:
    a card kept face down at MAX_TOKENS, or a reveal that gained less than its tokens
    would have given."""
    rules = game.rules
    labels = {card: label for label, card in before.ids.items()}
    tokens = {e.card: e.tokens for stack in before.queue for e in stack}
    for event in events:
        if isinstance(event, TokenAdded) and tokens.get(labels[event.card]) == MAX_TOKENS:
            assert event.tokens == MAX_TOKENS
            yield "tokens"
        elif isinstance(event, Revealed):
            key = labels[event.card].split(".")[1]
            full = event.tokens * (
                1 if key in rules.tokens_gained else 2 if key in rules.tokens_doubled else 0
            )
            if event.gained < full:
                yield "influence"


@pytest.mark.parametrize("kind", sorted(SETS))
def test_games_set_up_at_the_bounds_keep_to_them(kind: str) -> None:
    met = {"tokens": 0, "influence": 0}
    for families in (3, 4, 5):
        for seed in SEEDS:
            print(f"seed {seed}, {families} families, {kind}")
            game = at_the_bounds(kind, families, seed)
            if game is None:
                continue  # every card face up to the end: nothing at the bounds
            keeps_its_bounds(game)
            rng = random.Random(seed)
            while (decision := game.decision) is not None:
                before, logged_before = game.position(), len(game.events)
                game.answer_option(rng.randrange(len(decision.options)))
                for bound in capped(game, before, game.events[logged_before:]):
                    met[bound] += 1
                keeps_its_bounds(game)
    print(f"bounds met: {met}")
    # The games went where the bounds are, or they would prove nothing.
    assert met["tokens"] > 0
    assert met["influence"] > 0


# The failures issue 22 measured, one by one.


def placed(cards: tuple[str, ...], order: tuple[str, ...]) -> Game:
    """A game (seed 11, red first) whose families have placed ``order`` (one label
    each, in turn) in round 1: at red's first reveal."""
    config = GameConfig(seed=11, first_player="red", cards=cards)
    game = Game.new(config, registry=REGISTRY)
    for label in order:
        game.answer(Placement(card_id(game, label), "last"))
    return game


def changed(game: Game, influence: dict[str, int], tokens: dict[str, int]) -> Game:
    """``game``'s save with ``influence`` and ``tokens`` (by label) set, read back."""
    data = json.loads(game.to_json())
    data["influence"].update(influence)
    ids = {label: card_id(game, label) for label in tokens}
    kept = {card: n for card, n in data["tokens"] if card not in ids.values()}
    kept.update({ids[label]: n for label, n in tokens.items()})
    data["tokens"] = sorted([card, n] for card, n in kept.items())
    return saves.load(json.dumps(data), registry=REGISTRY)


BASE = ("heir", "lord", "conspiracy", "spy", "soldier", "archer", "ambush")


def test_an_heir_revealed_at_the_most_influence_gains_nothing_and_the_game_saves() -> None:
    print("seed 11")
    # The case: Influence 10,000 and an Heir, 10,002 before P21.
    game = changed(placed(BASE, ("red.heir", "blue.lord", "green.spy")), {"red": MAX_INFLUENCE}, {})
    assert game.decision == Decision("red", "reveal", (True, False), card_id(game, "red.heir"))
    logged_before = len(game.events)
    game.answer(True)
    assert game.scores["red"] == MAX_INFLUENCE
    news = game.events[logged_before:]
    assert [e for e in news if isinstance(e, Gained)] == []  # nothing was gained
    assert [e.gained for e in news if isinstance(e, Revealed)] == [0]
    keeps_its_bounds(game)


def test_a_conspiracy_doubling_past_the_bound_gains_what_is_left() -> None:
    print("seed 11")
    game = changed(
        placed(BASE, ("red.conspiracy", "blue.lord", "green.spy")),
        {"red": MAX_INFLUENCE - 150},
        {"red.conspiracy": MAX_TOKENS},
    )
    logged_before = len(game.events)
    game.answer(True)  # 2 x 100 tokens would be 200
    assert game.scores["red"] == MAX_INFLUENCE
    news = game.events[logged_before:]
    gained = [e for e in news if isinstance(e, Gained)]
    revealed = [e for e in news if isinstance(e, Revealed)]
    # The reveal says what its tokens gave, as the gain does (a story pairs them).
    assert [(e.family, e.amount) for e in gained] == [("red", 150)]
    assert [(e.tokens, e.gained) for e in revealed] == [(MAX_TOKENS, 150)]
    keeps_its_bounds(game)


def test_a_lord_kept_face_down_at_the_most_tokens_takes_no_more() -> None:
    print("seed 11")
    game = changed(
        placed(BASE, ("red.lord", "blue.heir", "green.spy")),
        {},
        {"red.lord": MAX_TOKENS},
    )
    game.answer(False)
    lord = game.position().queue[0][0]
    assert (lord.card, lord.up, lord.tokens) == ("red.lord", False, MAX_TOKENS)
    assert game.events[-1] == TokenAdded(card_id(game, "red.lord"), "red", 0, MAX_TOKENS)
    assert game.decision is not None
    assert game.decision.family == "blue"
    keeps_its_bounds(game)


def test_the_engine_protocol_reads_the_state_at_the_bounds() -> None:
    print("seed 0 (no randomness)")
    # The case: a face-down Lord with 100 tokens kept face down; then an Heir
    # revealed at 10,000 Influence.
    load = {
        "id": 2,
        "op": "load",
        "sets": ["base"],
        "players": ["red", "blue", "green"],
        "state": {
            "round": 3,
            "phase": "resolution",
            "influence": {"blue": MAX_INFLUENCE},
            "queue": [{"card": "red.lord", "tokens": MAX_TOKENS}, "blue.heir"],
            "hands": {"red": ["red.spy"], "blue": ["blue.spy"], "green": ["green.spy"]},
        },
    }
    requests = [
        {"id": 1, "op": "hello", "protocol": 1},
        load,
        {"id": 3, "op": "answer", "family": "red", "answer": {"reveal": False}},
        {"id": 4, "op": "state"},
        {"id": 5, "op": "answer", "family": "blue", "answer": {"reveal": True}},
        {"id": 6, "op": "state"},
    ]
    replies = BytesIO()
    assert serve.serve(BytesIO(b"".join(map(encode, requests))), replies, REGISTRY) == 0
    answers = [json.loads(line) for line in replies.getvalue().splitlines()]
    assert [r["ok"] for r in answers] == [True] * 6, answers
    assert answers[3]["state"]["queue"][0] == {"card": "red.lord", "tokens": MAX_TOKENS}
    assert answers[5]["state"]["influence"]["blue"] == MAX_INFLUENCE


# A plugin's code at the bounds.


class Gauge(Ability):
    """The card ``gauge``: its ability does what ``run`` says (see the tests)."""

    def __init__(self) -> None:
        self.run: Any = None

    def activate(self, game: Effects, card: CardId) -> None:
        self.run(self, game, card)

    def rest(self, game: Effects, card: CardId, *values: object) -> None:
        """Continued with, after what the ability handed over."""


class Gauges:
    """The test plugin 'gauges': one card, ``gauge``, with a :class:`Gauge`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ability = Gauge()

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [one_card_set(self.folder, "gauges", "gauge")]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"gauge": self.ability}


def gauged(folder: Path, run: Any) -> tuple[Game, Registry]:
    """A game (seed 11) whose next answer is red revealing its gauge, which runs
    ``run``; and the registry it was made with."""
    plugin = Gauges(folder)
    plugin.ability.run = run
    registry = registry_with({"gauges": plugin})
    cards = ("gauge", "heir", "lord", "spy", "soldier", "archer", "conspiracy")
    config = GameConfig(seed=11, first_player="red", sets=("base", "gauges"), cards=cards)
    game = Game.new(config, registry=registry)
    for label in ("red.gauge", "blue.heir", "green.heir"):
        game.answer(Placement(card_id(game, label), "last"))
    return game, registry


def refused(gauge: tuple[Game, Registry], *said: str) -> None:
    """Revealing the gauge is refused, saying each of ``said``, and changes nothing."""
    game, _ = gauge
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    for part in said:
        assert part in str(error.value)
    assert game.snapshot() == before


def test_a_plugin_gains_at_most_up_to_the_bound(tmp_path: Path) -> None:
    print("seed 11")

    def floods(gauge: Gauge, game: Effects, card: CardId) -> None:
        assert game.gain("red", 10**30, card) == MAX_INFLUENCE - 1  # red had 1
        assert game.gain("red", 1, card) == 0

    game, registry = gauged(tmp_path, floods)
    logged_before = len(game.events)
    game.answer(True)
    assert game.scores["red"] == MAX_INFLUENCE
    gains = [e for e in game.events[logged_before:] if isinstance(e, Gained)]
    assert [(e.family, e.amount) for e in gains] == [("red", MAX_INFLUENCE - 1)]
    assert saves.load(game.to_json(), registry=registry) == game


def gains_without_end(gauge: Gauge, game: Effects, card: CardId) -> None:
    game.gain("red", MAX_INFLUENCE, card)  # at the bound from now on
    while True:
        game.gain("red", 1, card)


def steals_without_end(gauge: Gauge, game: Effects, card: CardId) -> None:
    game.gain("red", MAX_INFLUENCE, card)  # blue has 1 to take, red no room for it
    while True:
        game.steal("red", "blue", 1, card)


@pytest.mark.parametrize("run", [gains_without_end, steals_without_end])
def test_a_plugin_at_the_bound_that_goes_on_without_end_is_stopped(
    tmp_path: Path, run: Any
) -> None:
    print("seed 11")
    # Past the bound a gain changes nothing and logs nothing, yet it is a step of the
    # answer's budget: the loop is stopped by it, as it was before the bound.
    refused(gauged(tmp_path, run), "plugin 'gauges'", f"budget of {MAX_STEPS:,} engine steps")


def test_what_a_plugin_hands_over_past_a_save_s_bounds_is_refused(tmp_path: Path) -> None:
    print("seed 11")
    within = tuple("a" * 1_000 for _ in range(60))  # 60 KB: a save holds it
    assert value_bytes(within) <= MAX_VALUE_BYTES
    past = (*within, "a" * 5_000)

    def hands(values: tuple[str, ...]) -> Any:
        return lambda gauge, game, card: game.then(gauge.rest, card, *values)

    def asks(values: tuple[str, ...]) -> Any:
        return lambda gauge, game, card: game.ask(
            "red", "choose", ("a", "b"), gauge.rest, card, *values
        )

    for run in (hands(within), asks(within)):
        game, _ = gauged(tmp_path, run)
        game.answer(True)
        assert len(game.to_json().encode()) <= MAX_TEXT
    said = f"they take more of a save than it holds (at most {MAX_VALUE_BYTES:,} bytes)"
    for run in (hands(past), asks(past)):
        refused(gauged(tmp_path, run), "plugin 'gauges'", "arguments of gauge.rest", said)


def test_a_question_past_a_save_s_bound_is_refused(tmp_path: Path) -> None:
    print("seed 11")
    options = tuple(f"o{i}" for i in range(1_000))  # the most options

    def worded(label: str) -> Any:
        def asks(gauge: Gauge, game: Effects, card: CardId) -> None:
            words = dict.fromkeys(options, label)
            game.ask("red", "choose", options, gauge.rest, card, question="q", labels=words)

        return asks

    # 1,000 options worded in 1,000 characters each (the longest words): a save holds it.
    game, _ = gauged(tmp_path, worded("w" * MAX_STRING))
    game.answer(True)
    pending = game.decision
    assert pending is not None
    assert len(pending.options) == 1_000
    assert question_problem(tuple(pending.options), pending.question, pending.labels) is None
    assert len(game.to_json().encode()) <= MAX_TEXT
    # The same words, each character one a save escapes in 6 bytes: 6 MB, refused.
    refused(gauged(tmp_path, worded("\u00e9" * MAX_STRING)), f"(at most {MAX_QUESTION_BYTES:,})")


def test_a_continuation_whose_name_no_save_holds_is_refused(tmp_path: Path) -> None:
    print("seed 11")
    name = "m" * (MAX_STRING + 1)

    def rest(gauge: Gauge, game: Effects, card: CardId) -> None:
        """A public method whose name is longer than a save holds."""

    rest.__name__ = name
    setattr(Gauge, name, rest)
    try:
        gauge = gauged(tmp_path, lambda g, game, card: game.then(getattr(g, name), card))
        refused(gauge, "plugin 'gauges'", f"{MAX_STRING + 1:,} characters: a save holds at most")
    finally:
        delattr(Gauge, name)


# The log: it keeps its first MAX_EVENTS events.


def test_a_game_whose_log_is_full_plays_on_and_saves() -> None:
    print("seed 3")
    game = Game.new(GameConfig(seed=3), registry=REGISTRY)
    rng = random.Random(3)
    while (decision := game.decision) is not None and decision.kind != "reveal":
        game.answer_option(rng.randrange(len(decision.options)))
    data = json.loads(game.to_json())
    filler = {"kind": "round_ended", "round": 1}
    first, rest = data["log"][:1], data["log"][1:]
    data["log"] = [*first, *[filler] * (MAX_EVENTS - 1 - len(rest)), *rest]
    full = saves.load(json.dumps(data), registry=REGISTRY)
    kept = full.events
    assert len(kept) == MAX_EVENTS
    while (decision := full.decision) is not None and full.round < 3:
        full.answer_option(rng.randrange(len(decision.options)))
        assert full.events == kept  # play goes on; nothing more is logged
    assert full.round == 3
    assert saves.load(full.to_json(), registry=REGISTRY) == full


# MAX_TEXT: room for the largest game the other bounds allow.


def largest_event(kind: type[Any], families: tuple[str, ...], keys: tuple[str, ...]) -> Any:
    """The longest event of ``kind`` a game of ``families`` and ``keys`` logs in play:
    its cards the last of 500, its numbers MAX_INFLUENCE (amounts stop there; tokens,
    places in the queue and rounds are smaller), its family the longest name."""
    values: list[Any] = []
    for name in kind._fields[:-1]:
        annotation = kind.__annotations__[name]
        wanted = str(getattr(annotation, "__forward_arg__", annotation))
        values.append(
            {
                "CardId": 499,
                "CardId | None": 499,
                "int": MAX_INFLUENCE,
                "bool": False,
                "str": "eliminated" if name == "pile" else families[0],
                "tuple[str, ...]": keys if name == "cards" else families,
                "tuple[tuple[str, int], ...]": tuple((f, MAX_INFLUENCE) for f in families),
            }[wanted]
        )
    return kind(*values)


def test_the_largest_game_play_can_make_is_one_a_save_holds() -> None:
    print("seed 0 (no randomness)")
    # Every part of a save at its largest: five names of 32 characters, 100 card keys
    # and set names of MAX_KEY characters, 100 variants and 100 plugins worded in the
    # character a save writes widest (12 bytes escaped), 500 cards in the queue, each
    # with its tokens and a Bribery token; a question at MAX_QUESTION_BYTES, MAX_TASKS
    # continuations and the one answered next at MAX_VALUE_BYTES each; MAX_EVENTS
    # events, all but the first and last of the longest kind.
    widest = "\U0001f600"
    families = tuple((colour + "_" + "x" * 32)[:32] for colour in COLOURS)
    keys = tuple((f"k{i}_" + "x" * MAX_KEY)[:MAX_KEY] for i in range(MAX_NAMES))
    variants = tuple((key, widest * MAX_VARIANT_TEXT) for key in keys)
    config = GameConfig(
        families=families,
        sets=keys,
        cards=keys,
        size=MAX_SIZE,
        seed=-MAX_INT,
        first_player=families[-1],
        direction="rightward",
        variants=variants,
    )
    config.check()
    rules = GameRules(
        sets=keys,
        definitions={},
        abilities={},
        inert=Ability(),
        reacting=(),
        kinds={},
        variants=dict(variants),
        plugins=tuple((widest * MAX_STRING,) * 3 for _ in range(100)),
    )
    identity = Identity([f for f in families for _ in keys], [k for _ in families for k in keys])
    state = State.empty(rules, config, identity, cards=keys, direction="rightward")
    cards = range(len(identity))
    state.queue = tuple((card,) for card in cards)
    state.up = (1 << len(identity)) - 1
    state.set_cards(
        dict.fromkeys(cards, MAX_TOKENS),
        dict.fromkeys(cards, families[0]),
        {card: identity.keys[card] for card in cards},
    )
    state.influence = (MAX_INFLUENCE,) * len(families)
    state.round, state.phase, state.first, state.placed = 6, "resolution", 4, 5
    state.walk = state.acting = state.revealing = len(identity) - 1
    # A question at its bound: the most options, the longest question, and words that
    # fill what is left (words in ASCII: a byte a character, as the bound counts them).
    options = tuple(range(1_000))
    question = "q" * MAX_STRING
    room = MAX_QUESTION_BYTES - question_bytes(options, question, None)
    per_label = question_bytes((), None, ("",)) - question_bytes((), None, ())  # its line
    each = min(room // len(options) - per_label, MAX_STRING)
    labels = tuple("w" * each for _ in options)
    assert question_problem(options, question, labels) is None
    assert question_bytes(options, question, labels) > 0.99 * MAX_QUESTION_BYTES
    state.pending = Decision(families[0], widest * MAX_STRING, options, 0, question, labels)
    args = tuple("a" * 1_000 for _ in range(64))
    assert value_problem(args) is None
    assert value_bytes(args) > 0.99 * MAX_VALUE_BYTES
    work = (keys[0], widest * MAX_STRING, len(identity) - 1, args)
    state.resume = work
    state.tasks = (work,) * MAX_TASKS
    sizes = {}
    for kind_ in EVENT_TYPES.values():
        event = largest_event(kind_, families, keys)
        sizes[kind_] = len(json.dumps([event_to_dict(event)], indent=1))
    longest = max((k for k in sizes if k not in (GameStarted, GameEnded)), key=sizes.__getitem__)
    print(f"the longest event: {longest.__name__}, {sizes[longest]} bytes")
    one = largest_event(longest, families, keys)
    state.log = logged(
        [
            largest_event(GameStarted, families, keys),
            *[one] * (MAX_EVENTS - 2),
            largest_event(GameEnded, families, keys),
        ]
    )
    # What saves.dump writes: UTF-8 JSON, or all of it escaped where a text holds a lone
    # surrogate. (Measured here, not through dump, which first holds the table to the
    # rules: this one, every card face up and bribed, keeps none of them.)
    data = snapshot(state)
    written = len(json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))
    escaped = len(json.dumps(data, ensure_ascii=True, indent=1))
    print(f"the largest save: {written:,} bytes, {escaped:,} escaped; MAX_TEXT {MAX_TEXT:,}")
    assert max(written, escaped) <= MAX_TEXT


# value_bytes: never less than what a value takes in a save.


def random_text(rng: random.Random) -> str:
    alphabet = ("a", "Z", " ", '"', "\\", "\x00", "\n", "\x7f", "\u00e9", "\u2028", "\ud800")
    wide = ("\U0001f600", "\u4e2d")
    return "".join(rng.choice(alphabet + wide) for _ in range(rng.randrange(0, 40)))


def random_value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth < MAX_ARGUMENT_DEPTH and roll < 0.3:
        return tuple(random_value(rng, depth + 1) for _ in range(rng.randrange(0, 5)))
    return rng.choice(
        (
            None,
            True,
            False,
            rng.randrange(-MAX_INT, MAX_INT + 1),
            rng.choice((MAX_INT, -MAX_INT, 0)),
            rng.uniform(-1.0, 1.0) * 1e308,
            rng.choice((5e-324, -2.2250738585072014e-308, 1.7976931348623157e308)),
            random_text(rng),
        )
    )


def listed(value: Any) -> Any:
    return [listed(v) for v in value] if isinstance(value, tuple) else value


@pytest.mark.parametrize("seed", [5, 22, 1_000_003])
def test_value_bytes_is_at_least_what_a_save_writes(seed: int) -> None:
    print(f"seed {seed}")
    rng = random.Random(seed)
    for _ in range(300):
        args = tuple(random_value(rng, 1) for _ in range(rng.randrange(0, 6)))
        assert value_problem(args) is None
        bound = value_bytes(args)
        for ascii_only in (False, True):
            # Where a save nests arguments deepest: a task's, in the list of tasks.
            def size(value: Any, ascii_only: bool = ascii_only) -> int:
                text = json.dumps(
                    {"tasks": [["k", "n", 0, value]]}, indent=1, ensure_ascii=ascii_only
                )
                return len(text.encode("utf-8", "surrogatepass"))

            assert size(listed(args)) - size([]) <= bound, args


def test_the_bounds_a_position_is_set_up_with_are_those_of_play() -> None:
    print("seed 0 (no randomness)")
    # A position at the bounds sets up; one past them is refused, naming the bound.
    game = game_at(
        {
            "round": 2,
            "phase": "resolution",
            "influence": {"red": MAX_INFLUENCE},
            "queue": [{"card": "red.lord", "tokens": MAX_TOKENS}],
            "hands": {"red": ["red.spy"], "blue": ["blue.spy"], "green": ["green.spy"]},
        }
    )
    assert game.position().influence["red"] == MAX_INFLUENCE
    for state, said in (
        ({"queue": [{"card": "red.lord", "tokens": MAX_TOKENS + 1}]}, f"0 to {MAX_TOKENS}"),
        ({"influence": {"red": MAX_INFLUENCE + 1}}, f"{MAX_INFLUENCE}"),
    ):
        with pytest.raises(PositionError, match=said):
            game_at({"round": 2, "phase": "resolution", **state})
