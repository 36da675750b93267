"""The pending question tells no family a secret: a property over many random games.

A decision names the ability that asks (``Decision.ability``: the acting card's key,
or for a Shapeshifter the key of the card it copies) and the other card it is about
(``Decision.subject``: the card a Royal Decree moves). Every family's observation and
the spectator's holds the decision, and ``Decision.to_dict()`` is what a web page is
sent. The rule: a family never learns the key of another family's hidden card (face
down in the queue, in hand, set aside).

Games of the base set, of Ablaze and of both, with 3 to 5 families (RULINGS G1: two
families are refused) and random and heuristic bots, are played until every kind of
question an ability asks (``target``, ``move``, ``twin``, ``choose``) and Shapeshifter
copies have been met many times. At each question, for every family and the
spectator:

- the ability, if any, is the key of the acting card as the observer sees it, or, for
  a Shapeshifter the observer sees, the key of a face-up card beside it (the copied
  card); the engine's own ``place`` and ``reveal`` name none;
- the subject, if any, is a card in the queue;
- the observer is asked what the game asks, only another family's private options
  hidden; its JSON names no card key (nor card name in its words) but those
  ``observation.key()`` gives for the cards the question is about, and no card id
  that is neither in the queue nor known to it;
- the observation pickled and unpickled is equal and gives the same decision, and its
  pickle names no ability of a card the observer may not know (the continuation the
  answer resumes and the tasks waiting are in it).

Every random choice flows from one seed drawn from the system and printed (set
``ORIFLAMME_SECRETS_SEED`` to replay a run); each failure names its game's seed,
which :func:`replay` plays alone.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import re
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from oriflamme import COLOURS, Decision, Game, GameConfig, Observation, Registry
from oriflamme.bots import Bot, HeuristicBot, RandomBot
from oriflamme.limits import MAX_FAMILIES, MIN_FAMILIES

SETS = (("base",), ("ablaze",), ("base", "ablaze"))
#: The questions the engine asks itself: no ability asks them.
ENGINE_KINDS = frozenset({"place", "reveal"})
#: The questions abilities ask, each of which the games must meet.
ABILITY_KINDS = ("target", "move", "twin", "choose")
SHAPESHIFTER = "shapeshifter"
COPIES = "shapeshifter copies"
#: Games are played until each kind (and Shapeshifter copies) is met this often...
WANTED = 40
#: ... and at least this many games, at most this many or for this long.
MIN_GAMES = 600
MAX_GAMES = 4000
BUDGET = 40.0  # seconds
#: What a test demands of each kind at the least: it cannot pass on no questions.
AT_LEAST = 5
#: An engine question (place, reveal) is pickled one time in this many; every
#: question an ability asks is pickled for every observer.
PICKLE_EVERY = 25
#: The problems a failure shows, at most.
SHOWN = 8


def master_seed() -> int:
    given = os.environ.get("ORIFLAMME_SECRETS_SEED")
    seed = int(given) if given else random.SystemRandom().randrange(2**63)
    print(f"seed {seed}")
    return seed


# The checks: each returns what is wrong, or None.


def adjacent_tops(observation: Observation, card: int) -> tuple[int, ...]:
    """The top cards beside the position ``card`` is in (RULINGS R7), () if it is not
    in the queue."""
    queue = observation.queue
    for index, stack in enumerate(queue):
        if card in stack:
            return tuple(queue[i][-1] for i in (index - 1, index + 1) if 0 <= i < len(queue))
    return ()


def copied_keys(observation: Observation, card: int) -> set[str]:
    """The keys ``card`` may copy as the observer sees it: those of the face-up cards
    beside it, if the observer sees it is a Shapeshifter (else none)."""
    if observation.key(card) != SHAPESHIFTER:
        return set()
    return {
        key
        for top in adjacent_tops(observation, card)
        if observation.is_up(top) and (key := observation.key(top)) is not None
    }


def ability_problem(observation: Observation, key: str | None, card: int | None) -> str | None:
    """What is wrong with ability ``key`` asking with ``card`` acting, for ``observation``'s
    family: None if the key is the acting card's as the observer sees it, or the key of
    a face-up card a Shapeshifter it sees may be copying."""
    if key is None:
        return None
    if card is None:
        return f"ability {key!r} asks with no acting card"
    seen = observation.key(card)
    if seen == key or key in copied_keys(observation, card):
        return None
    return (
        f"ability {key!r} asks with card {card} acting, which the observer sees as "
        f"{seen!r} (face {'up' if observation.is_up(card) else 'down or away'})"
    )


def decision_ability_problem(observation: Observation, decision: Decision) -> str | None:
    if (decision.ability is None) != (decision.kind in ENGINE_KINDS):
        return f"a {decision.kind} question names ability {decision.ability!r}"
    return ability_problem(observation, decision.ability, decision.card)


def subject_problem(observation: Observation, decision: Decision) -> str | None:
    subject = decision.subject
    if subject is None:
        if decision.kind == "move":
            return "a Royal Decree's move names no subject"
        return None
    if not any(subject in stack for stack in observation.queue):
        return f"subject {subject} is not a card in the queue"
    if subject == decision.card:
        return f"subject {subject} is the acting card itself"
    return None


def told_problem(observation: Observation, full: Decision) -> str | None:
    """Whether the observer is asked the game's question: the same, or, for a family
    not asked, with private options hidden (the placement's hand)."""
    seen = observation.decision
    if seen is None:
        return "the observer is told of no question"
    if seen == full:
        return None
    hidden = full._replace(options=(), question=None, labels=None)
    if observation.family != full.family and seen == hidden:
        if full.kind not in ENGINE_KINDS:
            return f"the options of a {full.kind} question are hidden"
        return None
    return f"the observer is told {seen!r}, the game asks {full!r}"


def strings(value: object, *, top: bool = True) -> Iterator[tuple[str, str]]:
    """Every string in JSON data, with the name of the field it is under; at the top,
    a decision's ``family`` and ``kind`` are left out (a kind may share a card's key:
    the Prince's ``twin``)."""
    if isinstance(value, str):
        yield "", value
    elif isinstance(value, Mapping):
        for name, item in value.items():
            if top and name in ("family", "kind"):
                continue
            yield from ((name, text) for _, text in strings(item, top=False))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item, top=False)


def named_keys(text: str, names: Mapping[str, re.Pattern[str]]) -> set[str]:
    """The card keys ``text`` is, or names as a word (by key or printed name)."""
    if text in names:
        return {text}
    return {key for key, pattern in names.items() if pattern.search(text)}


def card_patterns(game: Game) -> dict[str, re.Pattern[str]]:
    """A word pattern for every card key of the game's rules: its key or its name."""
    return {
        key: re.compile(
            rf"\b(?:{re.escape(key)}|{re.escape(card.name)})\b".replace("_", "[_ ]"),
            re.IGNORECASE,
        )
        for key, card in game.rules.definitions.items()
    }


def json_problem(
    observation: Observation, names: Mapping[str, re.Pattern[str]], decision: Decision
) -> str | None:
    """What the JSON of ``decision`` tells ``observation``'s family that it may not
    know: a card key (or name) that is not one ``observation.key()`` gives for a card
    the question is about (its card, its subject, the face-up cards a Shapeshifter
    acting may copy), or a card id neither in the queue nor known to it."""
    data = decision.to_dict()
    if json.loads(json.dumps(data)) != data:
        return f"the decision's data is not JSON: {data!r}"
    about = [card for card in (decision.card, decision.subject) if card is not None]
    given = {key for card in about if (key := observation.key(card)) is not None}
    if decision.card is not None:
        given |= copied_keys(observation, decision.card)
    for where, text in strings(data):
        told = named_keys(text, names) - given
        if told:
            return f"its {where!r} names {sorted(told)} in {text!r}; the observer is given {given}"
    queued = {card for stack in observation.queue for card in stack}
    for card in about:
        if card not in queued and not observation.knows(card):
            return f"it names card {card}, neither in the queue nor known to the observer"
    options = data["options"]
    if decision.kind == "place":
        if observation.family != decision.family:
            if options:
                return "another family's placements are shown"
        elif any(card not in observation.hand for card, _ in options):
            return "a placement names a card not in the family's hand"
    return None


def continuations(value: object) -> Iterator[tuple[str | None, str, int]]:
    """The continuations in an observation's pickled fields: (ability key or None,
    method name, acting card, arguments), found by their shape wherever they are."""
    if isinstance(value, Decision):
        return
    if isinstance(value, tuple):
        if (
            len(value) == 4
            and (value[0] is None or type(value[0]) is str)
            and type(value[1]) is str
            and type(value[2]) is int
            and type(value[3]) is tuple
        ):
            yield value[0], value[1], value[2]
            return
        for item in value:
            yield from continuations(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from continuations(item)


def pickled_fields(observation: Observation) -> Mapping[str, Any]:
    reduced = observation.__reduce__()
    fields: Mapping[str, Any] = reduced[1][1]
    return fields


def pickle_problem(observation: Observation) -> str | None:
    back = pickle.loads(pickle.dumps(observation))
    if back != observation:
        return "the observation comes back from its pickle unequal"
    if back.decision != observation.decision:
        return f"its decision comes back as {back.decision!r}"
    if (
        back.decision is not None
        and observation.decision is not None
        and back.decision.to_dict() != observation.decision.to_dict()
    ):
        return "its decision's data comes back changed"
    return None


def work_problem(observation: Observation) -> tuple[int, str | None]:
    """How many continuations the observation's pickle holds, and what is wrong with
    the first that names an ability the observer may not know."""
    found = 0
    for key, method, card in continuations(pickled_fields(observation)):
        found += 1
        problem = ability_problem(observation, key, card)
        if problem is not None:
            return found, f"its pickle holds continuation {key}.{method}: {problem}"
    return found, None


# The games.


def make_game(registry: Registry, seed: int) -> tuple[Game, dict[str, Bot], dict[int, str]]:
    """The game of ``seed``: its sets, families, bots and deal all flow from it. With
    every card's key (omniscient: for counting only, never for judging)."""
    rng = random.Random(seed)
    sets = SETS[rng.randrange(len(SETS))]
    families = COLOURS[: rng.randint(MIN_FAMILIES, MAX_FAMILIES)]
    record = rng.random() < 0.5
    config = GameConfig(families=families, sets=sets)
    game = Game.new(config, registry=registry, seed=seed, rng=rng, record=record)
    bots: dict[str, Bot] = {
        family: HeuristicBot(rng) if rng.random() < 0.5 else RandomBot(rng)
        for family in game.families
    }
    truth: dict[int, str] = {}
    for family in game.families:
        truth.update(game.observe(family).own_keys)
    return game, bots, truth


@dataclass
class Sweep:
    """What the games met and what the checks found."""

    seed: int
    games: int = 0
    seconds: float = 0.0
    asked: Counter[str] = field(default_factory=Counter)  # questions by kind (and copies)
    checked: Counter[str] = field(default_factory=Counter)  # observations by check
    problems: dict[str, list[str]] = field(default_factory=dict)

    def fail(self, check: str, where: str, problem: str) -> None:
        self.problems.setdefault(check, []).append(f"{where}: {problem}")

    def found(self, check: str) -> list[str]:
        return self.problems.get(check, [])

    def enough(self) -> bool:
        return all(self.asked[kind] >= WANTED for kind in (*ABILITY_KINDS, COPIES))


def check_question(
    sweep: Sweep,
    game: Game,
    truth: Mapping[int, str],
    names: Mapping[str, re.Pattern[str]],
    where: str,
) -> None:
    full = game.decision
    assert full is not None
    sweep.asked[full.kind] += 1
    if full.card is not None:
        if full.ability not in (None, truth[full.card]):
            sweep.asked[COPIES] += 1
        if truth[full.card] == SHAPESHIFTER:
            sweep.asked["asked with a shapeshifter acting"] += 1
    if full.subject is not None:
        sweep.asked["with a subject"] += 1
    pickled = full.kind not in ENGINE_KINDS or sweep.asked[full.kind] % PICKLE_EVERY == 0
    for observer in (None, *game.families):
        observation = game.observe(observer)
        decision = observation.decision
        found: dict[str, str | None] = {"told": told_problem(observation, full)}
        if decision is not None:
            found["ability"] = decision_ability_problem(observation, decision)
            found["subject"] = subject_problem(observation, decision)
            found["json"] = json_problem(observation, names, decision)
        if pickled:
            found["pickle"] = pickle_problem(observation)
            held, found["pickled work"] = work_problem(observation)
            sweep.asked["continuations pickled"] += held
        seen = f"{where}, {observer or 'the spectator'} sees {full.kind} of {full.family}"
        for check, problem in found.items():
            sweep.checked[check] += 1
            if problem is not None:
                sweep.fail(check, seen, problem)


def play(sweep: Sweep, registry: Registry, seed: int) -> None:
    game, bots, truth = make_game(registry, seed)
    names = card_patterns(game)
    answered = 0
    while (decision := game.decision) is not None:
        check_question(sweep, game, truth, names, f"game seed {seed}, question {answered}")
        game.answer(bots[decision.family].choose(game.observe(decision.family)))
        answered += 1


def replay(seed: int, registry: Registry | None = None) -> Sweep:
    """One game, from its seed (as a failure names it), checked as the sweep checks."""
    sweep = Sweep(seed)
    play(sweep, registry or Registry(entry_points=False), seed)
    sweep.games = 1
    return sweep


@pytest.fixture(scope="module")
def sweep(registry: Registry) -> Sweep:
    found = Sweep(master_seed())
    seeds = random.Random(found.seed)
    start = time.monotonic()
    while found.games < MAX_GAMES and (found.games < MIN_GAMES or not found.enough()):
        if time.monotonic() - start > BUDGET:
            break
        play(found, registry, seeds.randrange(2**63))
        found.games += 1
    found.seconds = time.monotonic() - start
    print(
        f"{found.games} games in {found.seconds:.1f} s; questions: {dict(found.asked)}; "
        f"observations checked: {dict(found.checked)}; "
        f"problems: { {check: len(seen) for check, seen in found.problems.items()} }"
    )
    return found


def shown(sweep: Sweep, check: str) -> str:
    found = sweep.found(check)
    more = f"\n... and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return f"run seed {sweep.seed}:\n" + "\n".join(found[:SHOWN]) + more


# The tests.


def test_every_kind_of_question_was_asked_several_times(sweep: Sweep) -> None:
    for kind in (*ABILITY_KINDS, COPIES, *ENGINE_KINDS):
        assert sweep.asked[kind] >= AT_LEAST, (
            f"only {sweep.asked[kind]} {kind} in {sweep.games} games (seed {sweep.seed})"
        )
    assert sweep.asked["with a subject"] >= AT_LEAST
    for check in ("told", "ability", "subject", "json", "pickle", "pickled work"):
        assert sweep.checked[check] >= AT_LEAST * len(ABILITY_KINDS), check


def test_the_asking_ability_is_one_the_observer_may_know(sweep: Sweep) -> None:
    assert not sweep.found("ability"), shown(sweep, "ability")


def test_the_subject_is_a_card_in_the_queue(sweep: Sweep) -> None:
    assert not sweep.found("subject"), shown(sweep, "subject")


def test_every_observer_is_asked_what_the_game_asks(sweep: Sweep) -> None:
    assert not sweep.found("told"), shown(sweep, "told")


def test_the_json_names_no_key_the_observer_cannot_know(sweep: Sweep) -> None:
    assert not sweep.found("json"), shown(sweep, "json")


def test_an_observation_comes_back_from_its_pickle_equal(sweep: Sweep) -> None:
    assert not sweep.found("pickle"), shown(sweep, "pickle")


def test_a_pickled_observation_names_no_hidden_ability(sweep: Sweep) -> None:
    assert sweep.asked["continuations pickled"] >= AT_LEAST, "no continuation was found"
    assert not sweep.found("pickled work"), shown(sweep, "pickled work")


def test_the_checks_find_a_planted_secret(registry: Registry) -> None:
    """The checks are not blind: a question naming the key of another family's
    face-down card (as its ability or in its words), or naming a card of that family's
    hand as its subject, is caught."""
    seed = master_seed()
    game, bots, truth = make_game(registry, seed)
    while (decision := game.decision) is not None and decision.kind != "reveal":
        game.answer(bots[decision.family].choose(game.observe(decision.family)))
    assert decision is not None, f"no card was revealed (seed {seed})"
    card = decision.card
    assert card is not None
    secret = truth[card]
    other = next(family for family in game.families if family != decision.family)
    for observer in (None, other):
        observation = game.observe(observer)
        assert observation.key(card) is None
        planted = decision._replace(ability=secret)
        assert decision_ability_problem(observation, planted) is not None
        assert json_problem(observation, card_patterns(game), planted) is not None
        worded = decision._replace(question=f"Reveal your {secret}?")
        assert json_problem(observation, card_patterns(game), worded) is not None
        # The asked family's card in hand, named as the subject, is caught too.
        in_hand = game.observe(decision.family).hand[0]
        moved = decision._replace(subject=in_hand)
        assert subject_problem(observation, moved) is not None
        assert json_problem(observation, card_patterns(game), moved) is not None
    # The family asked knows its own card: the same words tell it nothing new.
    observation = game.observe(decision.family)
    worded = decision._replace(question=f"Reveal your {secret}?")
    assert json_problem(observation, card_patterns(game), worded) is None
