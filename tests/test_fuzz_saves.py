"""Damaged saved games: refused with a SaveError, or loaded as a legal position that
plays on to its end; never another exception, never a hang.

The saves are real: taken at every kind of question of seeded random games (base,
Ablaze and both; 3 to 5 families), and at their end. Each input damages one of them
in one to four places, blindly (a value replaced by one of another type: null, a
bool, a float, NaN, a huge or negative number, a string, a list, an object, a deep
nesting; a key or an item removed or repeated) or knowingly (a card moved or copied
to another place, two families swapped, a number nudged, a card turned over, a token
or a Bribery token put down, the question's options, family or card changed, work
added). A save that loads is checked by this file's own reading of the rules
(:func:`illegal`, which shares no code with the engine's check), then played to its
end with random answers.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import random
from collections import Counter
from collections.abc import Callable
from importlib.resources import files
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme import Game, OriflammeError, Registry, SaveError

from .fuzzing import EXAMPLES, FUZZ, no_hang
from .helpers import new_game

REGISTRY = Registry(entry_points=False)
SETS = (("base",), ("ablaze",), ("base", "ablaze"))


def _card_data() -> dict[str, dict[str, Any]]:
    """Each built-in card's printed facts, read from the card files themselves."""
    found = {}
    for name in ("base", "ablaze"):
        text = (files("oriflamme") / "cards" / f"{name}.yaml").read_text(encoding="utf-8")
        for card in yaml.safe_load(text)["cards"]:
            found[card["key"]] = card
    return found


CARDS = _card_data()
CHARACTERS = {key for key, card in CARDS.items() if card["type"] == "character"}
RESERVE = {key for key, card in CARDS.items() if card.get("setup") == "reserve"}
KEEPS_TOKENS = {key for key, card in CARDS.items() if card.get("reveal_tokens") == "ability"}
HAND = 7  # RULINGS G2
ROUNDS = 6  # RULINGS G5


def _saves() -> list[dict[str, Any]]:
    """Saves of 24 seeded games: at the first question of each kind, at a random
    point, and at the end."""
    found = []
    for seed in range(24):
        game = new_game(REGISTRY, 9_000 + seed, 3 + seed % 3, sets=SETS[seed % 3])
        rng = random.Random(seed)
        kinds: set[str] = set()
        stop = rng.randrange(80)
        step = 0
        while (decision := game.decision) is not None:
            if decision.kind not in kinds or step == stop:
                kinds.add(decision.kind)
                found.append(json.loads(game.to_json()))
            game.answer_option(rng.randrange(len(decision.options)))
            step += 1
        found.append(json.loads(game.to_json()))
    return found


SAVES = _saves()
#: Written into the text in place of this marker: too deep for json.dumps to write.
DEEP = "<deep nesting>"
JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    float("nan"),
    float("inf"),
    10**30,
    -(10**30),
    10**9,
    7,
    99,
    "",
    "red",
    "first",
    "x" * 2_000,
    [],
    [0],
    [[0, 1]],
    {},
    {"kind": "gained"},
    DEEP,
    list(range(3_000)),
]
PILES = ("hands", "set_aside", "reserve", "discarded", "eliminated")


def _containers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every list and object inside ``value``."""
    found = []
    if isinstance(value, dict):
        found.append(path)
        for key, item in value.items():
            found += _containers(item, (*path, key))
    elif isinstance(value, list):
        found.append(path)
        for index, item in enumerate(value):
            found += _containers(item, (*path, index))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _places(save: dict[str, Any]) -> list[list[int]]:
    """Every list of cards on the table: the queue's stacks, then each family's zones."""
    places = [stack for stack in save["queue"] if isinstance(stack, list)]
    for zone in PILES:
        if isinstance(save.get(zone), dict):
            places += [cards for cards in save[zone].values() if isinstance(cards, list)]
    return places


def _blind(save: dict[str, Any], draw: st.DrawFn) -> None:
    """Damage any list or object of the save: replace, remove or repeat an item."""
    where = _at(save, draw(st.sampled_from(_containers(save))))
    keys = list(where) if isinstance(where, dict) else list(range(len(where)))
    if not keys:
        return
    key = draw(st.sampled_from(keys))
    how = draw(st.sampled_from(["replace", "remove", "repeat", "nudge"]))
    if how == "replace":
        # A copy: JUNK's lists and objects are shared by every example, never damaged.
        where[key] = copy.deepcopy(draw(st.sampled_from(JUNK)))
    elif how == "remove":
        del where[key]
    elif how == "repeat" and isinstance(where, list):
        where.insert(key, copy.deepcopy(where[key]))  # a copy, damaged on its own
    elif how == "nudge" and type(where[key]) is int:
        where[key] += draw(st.sampled_from([-2, -1, 1, 2, 30]))


def _knowing(save: dict[str, Any], draw: st.DrawFn) -> None:
    """Damage that knows what a save holds: each leaves a save of the right types."""
    how = draw(st.sampled_from(sorted(KNOWING)))
    KNOWING[how](save, draw)


def _move_card(save: dict[str, Any], draw: st.DrawFn, *, copy: bool = False) -> None:
    places = [cards for cards in _places(save) if cards]
    source = draw(st.sampled_from(places))
    card = source[draw(st.integers(0, len(source) - 1))]
    if not copy:
        source.remove(card)
    targets = _places(save)
    if draw(st.booleans()) or not targets:
        save["queue"].insert(draw(st.integers(0, len(save["queue"]))), [card])
    else:
        target = draw(st.sampled_from(targets))
        target.insert(draw(st.integers(0, len(target))), card)
    save["queue"] = [stack for stack in save["queue"] if stack]


def _swap_families(save: dict[str, Any], draw: st.DrawFn) -> None:
    families = save["config"]["families"]
    i, j = draw(st.permutations(range(len(families))))[:2]
    where = draw(st.sampled_from(["config", "zones", "influence", "pending", "identity"]))
    if where == "config":
        families[i], families[j] = families[j], families[i]
    elif where == "zones":
        for zone in PILES:
            pile = save[zone]
            pile[families[i]], pile[families[j]] = pile[families[j]], pile[families[i]]
    elif where == "influence" or (where == "pending" and not save["pending"]):
        save["influence"][families[i]] = save["influence"][families[j]] + 1
    elif where == "pending":
        save["pending"]["family"] = families[j]
    else:
        swap = {families[i]: families[j], families[j]: families[i]}
        save["identity"] = [[swap.get(c, c), k] for c, k in save["identity"]]


def _number(save: dict[str, Any], draw: st.DrawFn) -> None:
    field = draw(st.sampled_from(["round", "first", "placed", "walk", "acting", "revealing"]))
    save[field] += draw(st.sampled_from([-7, -1, 1, 2, 5]))


def _phase(save: dict[str, Any], draw: st.DrawFn) -> None:
    save["phase"] = draw(st.sampled_from(["placement", "resolution", "end"]))
    if draw(st.booleans()):
        save["round"] = draw(st.integers(1, ROUNDS))


def _card_ids(save: dict[str, Any]) -> st.SearchStrategy[int]:
    return st.integers(0, len(save["identity"]) - 1)


def _turn(save: dict[str, Any], draw: st.DrawFn) -> None:
    field = draw(st.sampled_from(["up", "public"]))
    card = draw(_card_ids(save))
    cards = save[field]
    cards.remove(card) if card in cards else cards.append(card)


def _tokens(save: dict[str, Any], draw: st.DrawFn) -> None:
    card = draw(_card_ids(save))
    if draw(st.booleans()):
        save["tokens"].append([card, draw(st.integers(1, 5))])
    else:
        save["bribes"].append([card, draw(st.sampled_from(save["config"]["families"]))])


def _question(save: dict[str, Any], draw: st.DrawFn) -> None:
    pending = save["pending"]
    if pending is None:
        save["pending"] = {"family": "red", "kind": "target", "card": 0, "options": [0, 1]}
        save["pending"] |= {"question": None, "labels": None}
        return
    how = draw(st.sampled_from(["option", "one option", "card", "kind", "labels", "family"]))
    options = pending["options"]
    if how == "option" and isinstance(options, list) and options:
        options[draw(st.integers(0, len(options) - 1))] = draw(st.sampled_from([-1, 0, 5, 30]))
    elif how == "option":
        options["ats"].append(draw(st.sampled_from([0, 5, "last"])))
    elif how == "one option" and isinstance(options, list):
        del options[1:]
    elif how == "one option":
        del options["cards"][1:]
    elif how == "card":
        pending["card"] = draw(st.one_of(st.none(), _card_ids(save)))
    elif how == "kind":
        pending["kind"] = draw(st.sampled_from(["place", "reveal", "target", "move", "choose"]))
    elif how == "labels":
        pending["labels"] = ["a"] * draw(st.integers(0, 3))
    else:
        pending["family"] = draw(st.sampled_from(save["config"]["families"]))


def _work(save: dict[str, Any], draw: st.DrawFn) -> None:
    card = draw(_card_ids(save))
    task = draw(
        st.sampled_from(
            [
                [None, "finish", card, []],
                ["archer", "shoot", card, [draw(st.integers(-1, 9))]],
                ["plot", "spend", card, [draw(st.sampled_from(["red", "nobody"])), 3]],
                ["royal_decree", "move", card, [card, 0]],
                ["soldier", "strike", card, []],
            ]
        )
    )
    if draw(st.booleans()):
        save["tasks"].insert(draw(st.integers(0, len(save["tasks"]))), task)
    else:
        save["resume"] = task


KNOWING = {
    "move card": _move_card,
    "copy card": lambda save, draw: _move_card(save, draw, copy=True),
    "swap families": _swap_families,
    "number": _number,
    "phase": _phase,
    "turn over": _turn,
    "tokens": _tokens,
    "question": _question,
    "work": _work,
}


@st.composite
def damaged(draw: st.DrawFn) -> str:
    save = json.loads(json.dumps(SAVES[draw(st.integers(0, len(SAVES) - 1))]))
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            _blind(save, draw)
        else:
            # An earlier damage may have left nothing of the kind this one needs.
            with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError, IndexError):
                _knowing(save, draw)
    return json.dumps(save, allow_nan=True).replace(json.dumps(DEEP), "[" * 5_000 + "]" * 5_000)


def illegal(save: dict[str, Any]) -> str | None:
    """What this file reads as breaking the rules in a loaded game's snapshot, if anything.

    Written from the rulebooks (RULINGS G1 to G7, R1 to R8, the Ablaze rulings) and
    the save's format; it shares no code with the engine's own check."""
    families = save["config"]["families"]
    count = len(save["identity"])
    keys = [key for _, key in save["identity"]]
    colours = [colour for colour, _ in save["identity"]]
    if not 3 <= len(families) <= 5 or len(set(families)) != len(families):
        return "families"
    if any(colour not in families for colour in colours) or any(k not in CARDS for k in keys):
        return "identity"
    where: Counter[int] = Counter()
    for stack in save["queue"]:
        if not stack:
            return "an empty position"
        where.update(stack)
    for zone in PILES:
        if set(save[zone]) != set(families):
            return f"{zone} of other families"
        for family, cards in save[zone].items():
            where.update(cards)
            if any(colours[card] != family for card in cards):
                return f"another family's card in {family}'s {zone}"
            wrong = any((keys[card] in RESERVE) != (zone == "reserve") for card in cards)
            if wrong and zone not in ("discarded", "eliminated"):
                return f"a card in the wrong {zone}"
    if sorted(where) != list(range(count)) or max(where.values(), default=1) != 1:
        return "a card in two places or none"
    in_queue = {card for stack in save["queue"] for card in stack}
    up = set(save["up"])
    acting, pending = save["acting"], save["pending"]
    if not up <= in_queue:
        return "a face-up card outside the queue"
    if any(keys[card] not in CHARACTERS and card != acting for card in up):
        return "a face-up Intrigue that is not acting"
    if any(keys[card] in RESERVE and card not in up for card in in_queue):
        return "a face-down Twin"
    shown = up | {c for zone in PILES[2:] for cards in save[zone].values() for c in cards}
    if set(save["public"]) != shown:
        return "public keys other than the cards shown"
    for card, tokens in save["tokens"]:
        if (
            card not in in_queue
            or not tokens >= 1
            or (card in up and keys[card] not in KEEPS_TOKENS)
        ):
            return "tokens where none can lie"
    bribers = [family for _, family in save["bribes"]]
    if len(set(bribers)) != len(bribers) or not set(bribers) <= set(families):
        return "Bribery tokens"
    if any(card not in up or keys[card] not in CHARACTERS for card, _ in save["bribes"]):
        return "a Bribery token off a face-up Character"
    if any(type(v) is not int or v < 0 for v in save["influence"].values()):
        return "Influence below 0"
    round_, phase = save["round"], save["phase"]
    if not 1 <= round_ <= ROUNDS or phase not in ("placement", "resolution", "end"):
        return "round or phase"
    for stack in save["queue"]:
        if round_ == 1 and any(keys[card] not in RESERVE for card in stack[1:]):
            return "a stack in round 1"
        if any(keys[a] == "prince" and keys[b] == "twin" for a, b in itertools.pairwise(stack)):
            return "a Twin on a Prince"
    n = len(families)
    for seat, family in enumerate(families):
        placed = phase != "placement" or (seat - save["first"]) % n < save["placed"]
        if len(save["hands"][family]) > HAND - round_ + (0 if placed else 1):
            return "a hand too big for the round"
    if (pending is None) != (phase == "end") or (phase == "end" and round_ != ROUNDS):
        return "over, or not"
    if phase == "end":
        return "work left at the end" if save["tasks"] or save["resume"] else None
    return _illegal_question(save, pending, families, keys, up)


def _owner(save: dict[str, Any], card: int) -> str:
    bribed: dict[int, str] = dict(save["bribes"])
    owner: str = bribed.get(card) or save["identity"][card][0]
    return owner


def _illegal_question(
    save: dict[str, Any],
    pending: dict[str, Any],
    families: list[str],
    keys: list[str],
    up: set[int],
) -> str | None:
    queue, walk, acting = save["queue"], save["walk"], save["acting"]
    kind, options, card = pending["kind"], pending["options"], pending["card"]
    if pending["family"] not in families:
        return "a question for no family"
    if save["phase"] == "placement":
        family = families[(save["first"] + save["placed"]) % len(families)]
        spots: list[Any] = ["first", "last"] if queue else ["first"]
        if queue and save["round"] > 1:
            spots += [i for i, stack in enumerate(queue) if _owner(save, stack[-1]) == family]
        hand = save["hands"][family]
        if (kind, pending["family"], walk, acting) != ("place", family, 0, -1) or save["tasks"]:
            return "a placement out of turn"
        if options != {"cards": hand, "ats": spots} or len(hand) * len(spots) < 2:
            return "placements other than the hand and queue allow"
        return None
    if save["placed"] != len(families) or acting == -1 or walk > len(queue):
        return "a resolution phase out of step"
    if kind == "reveal":
        top = queue[walk][-1] if walk < len(queue) else None
        if card != top or card != acting or card in up or pending["family"] != _owner(save, card):
            return "a reveal out of turn"
        return "work during a reveal" if save["tasks"] or save["resume"] else None
    resume = save["resume"]
    if resume is None or resume[2] != card or [None, "finish", acting, []] not in save["tasks"]:
        return "an ability's question with no ability at work"
    if pending["family"] != _owner(save, card) or len(set(map(repr, options))) < 2:
        return "an ability's question of the wrong family, or with one answer"
    if pending["labels"] is not None and len(pending["labels"]) != len(options):
        return "words for other options"
    positions = {
        "target": range(len(queue)),
        "move": range(len(queue) + 1),
        "twin": ["first", "last", *range(len(queue))],
        "choose": ["gain", "repeat"],
    }[kind]
    if any(option not in positions or type(option) is bool for option in options):
        return f"{kind} options that are not in the queue"
    if not save["acting_gone"] and walk >= len(queue):
        return "the acting position is past the queue"
    return None


def play_on(game: Game, seed: int) -> None:
    """Random answers to the end; each answer's game read again by :func:`illegal`."""
    rng = random.Random(seed)
    for _ in range(2_000):
        decision = game.decision
        if decision is None:
            return
        game.answer_option(rng.randrange(len(decision.options)))
        assert illegal(game.snapshot()) is None, "play led to a state the rules forbid"
    pytest.fail("a loaded game did not end in 2,000 answers")


@pytest.mark.fuzz
@settings(FUZZ, max_examples=5 * EXAMPLES)  # most are refused in microseconds
@given(text=damaged(), seed=st.integers(0, 2**16))
def test_a_damaged_save_is_refused_or_is_a_legal_game(text: str, seed: int) -> None:
    with no_hang():
        try:
            game = Game.from_json(text, registry=REGISTRY)
        except SaveError as refused:
            message = str(refused)
        except OriflammeError as error:
            pytest.fail(f"refused with {type(error).__name__}, not SaveError: {error}")
        else:
            message = ""
        if message:
            assert "\n" not in message, f"a refusal of more than one line: {message}"
            return
        problem = illegal(game.snapshot())
        assert problem is None, f"loaded a game the rules forbid: {problem}"
        play_on(game, seed)


@pytest.mark.parametrize("index", range(0, len(SAVES), 7))
def test_an_undamaged_save_loads_and_plays_on(index: int) -> None:
    game = Game.from_json(json.dumps(SAVES[index]), registry=REGISTRY)
    assert illegal(game.snapshot()) is None
    play_on(game, index)
    assert game.over


def test_the_saves_hold_every_kind_of_question_and_the_end() -> None:
    kinds = Counter(save["pending"]["kind"] if save["pending"] else None for save in SAVES)
    assert set(kinds) == {"place", "reveal", "target", "move", "twin", "choose", None}


def test_the_independent_reading_finds_what_it_looks_for() -> None:
    """Each damage below breaks a rule; :func:`illegal` must see it (else a fuzz test
    that relies on it could not fail)."""
    save = next(s for s in SAVES if s["pending"] and s["pending"]["kind"] == "target")
    assert illegal(save) is None
    red = save["config"]["families"][0]
    breaks: list[Callable[[dict[str, Any]], object]] = [
        lambda s: s["queue"].append([s["hands"][red][0]]),
        lambda s: s["influence"].update({red: -1}),
        lambda s: s.update(round=7),
        lambda s: s["up"].append(s["hands"][red][0]),
        lambda s: s["public"].append(s["hands"][red][0]),
        lambda s: s["hands"][red].extend(s["set_aside"][red]),
        lambda s: s["pending"].update(family=s["config"]["families"][1]),
        lambda s: s["pending"]["options"].append(len(s["queue"])),
        lambda s: s.update(tasks=[]),
    ]
    for damage in breaks:
        broken = json.loads(json.dumps(save))
        damage(broken)
        assert illegal(broken) is not None


@pytest.mark.parametrize("seed", range(12))
def test_a_save_at_every_decision_of_a_real_game_loads(seed: int) -> None:
    """The checks refuse no state the rules reach (a damaged save's refusal means
    something only if an undamaged one is never refused)."""
    print(f"seed {seed}")
    game = new_game(REGISTRY, 50_000 + seed, 3 + seed % 3, sets=SETS[seed % 3])
    rng = random.Random(seed)
    while (decision := game.decision) is not None:
        copy = Game.from_json(game.to_json(), registry=REGISTRY)
        assert copy.decision == decision
        game.answer_option(rng.randrange(len(decision.options)))
