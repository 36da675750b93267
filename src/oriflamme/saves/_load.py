"""Loading a game saved by core's ``dump`` (``Game.to_json``), identical, or refusing it.

A save is checked as fully as a position set up by hand: every field of its type and
within bounds (the message names the field), then the game it describes against the
rules (:mod:`._legality`), then its answers are tried on copies (:mod:`._trial`). The
card list and what the game may hold are derived from its configuration and the rules,
whatever plugins are installed, never from what the save says of itself.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from ..core._bounds import (
    MAX_ARGUMENT_VALUES,
    MAX_DIGITS,
    MAX_EVENTS,
    MAX_INFLUENCE,
    MAX_SEED,
    MAX_TASKS,
    MAX_TEXT,
    MAX_TOKENS,
    OPTION_TYPES,
    OPTION_WORDS,
)
from ..core._cardlist import DEFAULT_SIZE, card_list
from ..core._cardsets import Setup
from ..core._config import MAX_FAMILIES, MAX_NAMES, MAX_SIZE, GameConfig
from ..core._decisions import ENGINE_KINDS, REVEAL_OPTIONS, Continuation, Decision, Placements
from ..core._engine import STEPS
from ..core._errors import OriflammeError, PositionError, SaveError
from ..core._events import event_from_dict
from ..core._identity import NO_CARD, CardId, Identity
from ..core._plugins import Registry
from ..core._rules import GameRules
from ..core._saves import FORMAT, VERSION
from ..core._state import LAST_ROUND, PILES, State, logged
from ._legality import check_state
from ._savefields import (
    Fields,
    read_cards,
    read_int,
    read_list,
    read_pair,
    read_str,
    read_strings,
    read_value,
    short,
)
from ._trial import try_answers


def load(text: str, registry: Registry, *, allow_other_versions: bool = False) -> State:
    """Rebuild a game from core's ``dump``'s text; a bad or foreign save raises :class:`SaveError`.

    A save is checked as fully as a position set up by hand: every field of its type
    and within bounds (the message names the field), then the game it describes
    against the rules (:mod:`.legality`). A save that loads can be played on.
    """
    if not isinstance(text, str):
        raise SaveError(f"a saved game is JSON text, not a {type(text).__name__}")
    if len(text) > MAX_TEXT:  # characters: no more than the bytes dump counts
        raise SaveError(f"not a saved game: {len(text)} characters (at most {MAX_TEXT})")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise SaveError(f"not a saved game: line {exc.lineno}: {exc.msg}") from None
    except SaveError:
        raise
    except (RecursionError, ValueError) as exc:
        raise SaveError(f"not a saved game: {type(exc).__name__}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a saved game: the 'format' field is missing or wrong")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise SaveError(
            f"saved game version {short(data.get('version'))} is not supported "
            f"(this engine reads version {VERSION})"
        )
    try:
        state = _rebuild(Fields(data, ""), registry, allow_other_versions)
        check_state(state)
        try_answers(state, registry.loadable)
    except SaveError:
        raise
    except PositionError as exc:
        raise SaveError(f"the saved game breaks a rule of the game: {exc}") from None
    except OriflammeError as exc:
        raise SaveError(f"the saved game cannot be played here: {exc}") from None
    return state


def _no_constant(name: str) -> Any:
    raise SaveError(f"not a saved game: {name} is not a number a save holds")


def _bounded_int(digits: str) -> int:
    # Refused before int() converts it: a number of thousands of digits costs time.
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise SaveError(
            f"not a saved game: a number of {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})"
        )
    return int(digits)


def _check_plugins(saved: list[Any], registry: Registry, allow_other_versions: bool) -> None:
    installed = {p.name: p for p in registry.plugins}
    for i, entry in enumerate(saved):
        plugin = read_strings(entry, f"rules.plugins[{i}]", 3)
        if len(plugin) != 3:
            raise SaveError(f"the saved rules.plugins[{i}] must be [name, distribution, version]")
        name, distribution, version = plugin
        label = f"{distribution} {version}" if distribution else "registered by hand"
        here = installed.get(name)
        if here is None:
            raise SaveError(
                f"this game was saved with plugin {name!r} ({label}), which is "
                "not installed here (or was left out)"
            )
        if here.version != version and not allow_other_versions:
            raise SaveError(
                f"this game was saved with plugin {name!r} version {version}; "
                f"version {here.version} is installed here. Its rules may have "
                "changed: load with allow_other_versions=True to try anyway"
            )


def _config(fields: Fields) -> GameConfig:
    size = fields.get("size")
    cards = fields.get("cards")
    first = fields.get("first_player")
    direction = fields.get("direction")
    variants = fields.get("variants")
    if not isinstance(variants, dict) or len(variants) > MAX_NAMES:
        raise SaveError(f"the saved config.variants must be an object, not {short(variants)}")
    for name, value in variants.items():
        if type(value) not in (str, int, bool) and value is not None:
            raise SaveError(f"the saved variant {name!r} is {short(value)}: a plain value")
    config = GameConfig(
        families=read_strings(fields.get("families"), "config.families", MAX_FAMILIES),
        sets=read_strings(fields.get("sets"), "config.sets", MAX_NAMES),
        cards=read_strings(cards, "config.cards", MAX_NAMES) if cards is not None else None,
        size=read_int(size, "config.size", 1, MAX_SIZE) if size is not None else None,
        seed=fields.integer("seed", -MAX_SEED, MAX_SEED),
        first_player=read_str(first, "config.first_player") if first is not None else None,
        direction=read_str(direction, "config.direction") if direction is not None else None,
        variants=variants,
    )
    config.check()
    return config


def _rebuild(data: Fields, registry: Registry, allow_other_versions: bool) -> State:
    saved_rules = data.fields("rules")
    _check_plugins(saved_rules.items("plugins", 100), registry, allow_other_versions)
    config = _config(data.fields("config"))
    families = config.families
    cards = read_strings(data.get("cards"), "cards", MAX_NAMES)
    sets = read_strings(saved_rules.get("sets"), "rules.sets", MAX_NAMES)
    if sets != config.sets:
        raise SaveError("the saved rules.sets must be the sets of config.sets")
    rules = registry.rules(sets, dict(config.variants), extra=cards)
    _check_card_list(config, cards, registry)
    saved_variants = saved_rules.fields("variants")
    for name, value in saved_variants.data.items():
        if name in rules.variants and rules.variants[name] != value:
            raise SaveError(
                f"variant {name!r} was {short(value)} when this game was saved, and "
                f"is {rules.variants[name]!r} here"
            )
    pairs = data.items("identity", MAX_NAMES * len(families))
    colours = []
    keys = []
    for i, pair in enumerate(pairs):
        colour, key = read_pair(pair, f"identity[{i}]")
        colour = read_str(colour, f"identity[{i}][0]")
        key = read_str(key, f"identity[{i}][1]")
        colours.append(colour)
        keys.append(key)
    identity = Identity(colours, keys)
    count = len(identity)
    for key in set(identity.keys) | set(cards):
        if key not in rules.definitions:
            raise SaveError(f"card {key!r}: no installed set provides it")
    direction = data.string("direction")
    if direction not in ("rightward", "leftward"):
        raise SaveError(f"the saved direction must be rightward or leftward, not {direction!r}")
    state = State.empty(
        rules,
        config,
        identity,
        cards=cards,
        direction=direction,
        recording=data.boolean("recording"),
    )
    _lay(state, data)
    resume = data.get("resume")
    state.resume = _continuation(resume, "resume", rules, count) if resume is not None else None
    state.pending = _pending_from(data.get("pending"), rules, count, state.resume)
    tasks = data.items("tasks", MAX_TASKS)
    state.tasks = tuple(_continuation(t, f"tasks[{i}]", rules, count) for i, t in enumerate(tasks))
    log = data.items("log", MAX_EVENTS)
    state.log = logged(
        event_from_dict(record, cards=count, families=families, where=f"the saved log[{i}]")
        for i, record in enumerate(log)
    )
    if not state.recording:
        state.log = None
    return state


def _check_card_list(config: GameConfig, cards: tuple[str, ...], registry: Registry) -> None:
    """The saved card list is the one ``config`` makes (RULINGS G1, G2, see
    :mod:`.cardlist`): a set's cards, the configured list, or a draw of ``size`` (10
    by default) different cards of the sets, in set order; each with the reserve card
    that joins it (A-Twin). A draw is not made again (a game may be dealt from a
    generator of the caller's): the list must be one the draw can give."""
    drawn = config.cards is None and (len(config.sets) > 1 or config.size is not None)
    if not drawn:
        expected = registry.card_list(config, random.Random(0))  # nothing is drawn
        source = "config.cards" if config.cards is not None else f"set {config.sets[0]}'s list"
    else:
        pool = [
            key
            for name in config.sets
            for key in registry.sets[name].keys
            if registry.cards[key].setup is Setup.SHUFFLED
        ]
        chosen = [key for key in cards if key in pool]
        wanted = DEFAULT_SIZE if config.size is None else config.size
        source = f"a draw of {wanted} different cards of the sets {', '.join(config.sets)}"
        if len(chosen) != wanted or len(set(chosen)) != wanted:
            raise SaveError(
                f"the saved card list holds {len(chosen)} cards of the sets to shuffle, "
                f"{len(set(chosen))} of them different: it is {source}"
            )
        drawn_keys = [key for key in pool if key in chosen]
        expected = card_list(
            registry.sets, registry.cards, config.sets, drawn_keys, size=None, rng=random.Random(0)
        )
    if cards == expected:
        return
    saved, wanted_counts = Counter(cards), Counter(expected)
    for key in sorted(saved.keys() | wanted_counts.keys()):
        if saved[key] != wanted_counts[key]:
            raise SaveError(
                f"the saved card list names {key!r} {_times(saved[key])}, where {source} "
                f"names it {_times(wanted_counts[key])}: a game's card list is the one its "
                "configuration makes (RULINGS G1, G2)"
            )
    raise SaveError(f"the saved cards are not in the order of {source}")


def _times(number: int) -> str:
    return {0: "not at all", 1: "once", 2: "twice"}.get(number, f"{number} times")


def _lay(state: State, data: Fields) -> None:
    """The table and the walk, from the save onto ``state``."""
    families = state.families
    count = len(state.identity)
    identity = state.identity
    state.round = data.integer("round", 1, LAST_ROUND)
    state.phase = data.string("phase")
    state.first = data.integer("first", 0, len(families) - 1)
    state.placed = data.integer("placed", 0, len(families))
    queue = data.items("queue", count)
    state.queue = tuple(read_cards(stack, f"queue[{i}]", count) for i, stack in enumerate(queue))
    state.walk = data.integer("walk", 0, len(state.queue))
    state.acting = data.integer("acting", NO_CARD, count - 1)
    state.acting_gone = data.boolean("acting_gone")
    state.revealing = data.integer("revealing", NO_CARD, count - 1)
    state.up = sum(1 << card for card in set(read_cards(data.get("up"), "up", count)))
    tokens: dict[CardId, int] = {}
    for i, pair in enumerate(data.items("tokens", count)):
        card, n = read_pair(pair, f"tokens[{i}]")
        tokens[read_int(card, f"tokens[{i}][0]", 0, count - 1)] = read_int(
            n, f"tokens[{i}][1]", 1, MAX_TOKENS
        )
    bribes: dict[CardId, str] = {}
    for i, pair in enumerate(data.items("bribes", count)):
        card, family = read_pair(pair, f"bribes[{i}]")
        bribes[read_int(card, f"bribes[{i}][0]", 0, count - 1)] = read_str(
            family, f"bribes[{i}][1]"
        )
    public = read_cards(data.get("public"), "public", count)
    state.set_cards(tokens, bribes, {card: identity.keys[card] for card in public})
    for zone in PILES:
        piles = data.fields(zone)
        if set(piles.data) != set(families):
            raise SaveError(f"the saved {zone} name other families than the game's")
        state.set_zone(
            zone, tuple(read_cards(piles.get(f), f"{zone}.{f}", count) for f in families)
        )
    influence = data.fields("influence")
    if set(influence.data) != set(families):
        raise SaveError("the saved Influence names other families than the game's")
    state.influence = tuple(influence.integer(f, 0, MAX_INFLUENCE) for f in families)


def _pending_from(
    data: object, rules: GameRules, count: int, resume: Continuation | None
) -> Decision | None:
    """The saved pending decision; the ability asking it is the key of the continuation
    its answer resumes (``resume``), the engine's own questions none."""
    if data is None:
        return None
    fields = Fields(data, "pending")
    kind = fields.string("kind")
    if kind not in rules.kinds:
        raise SaveError(f"the saved game waits on a {kind!r} decision, which no plugin provides")
    options: Any
    if kind == "place":
        placements = fields.fields("options")
        hand = read_cards(placements.get("cards"), "pending.options.cards", count)
        ats = placements.items("ats", count + 2)
        for i, at in enumerate(ats):
            if at not in ("first", "last"):
                read_int(at, f"pending.options.ats[{i}]", 0, count)
        options = Placements(hand, tuple(ats))
    elif kind == "reveal":
        options = REVEAL_OPTIONS
        if fields.get("options") != list(options) or any(
            type(o) is not bool for o in fields.get("options")
        ):
            raise SaveError("the saved pending.options of a reveal must be [true, false]")
    else:
        options = tuple(
            read_value(o, f"pending.options[{i}]")
            for i, o in enumerate(fields.items("options", MAX_ARGUMENT_VALUES))
        )
        for i, option in enumerate(options):
            if not isinstance(option, OPTION_TYPES):
                raise SaveError(
                    f"the saved pending.options[{i}] is {short(option)}: {OPTION_WORDS}"
                )
    labels = fields.data.get("labels")
    question = fields.data.get("question")
    card = fields.get("card")
    subject = fields.data.get("subject")  # written only when there is one
    return Decision(
        fields.string("family"),
        kind,
        options,
        read_int(card, "pending.card", 0, count - 1) if card is not None else None,
        read_str(question, "pending.question") if question is not None else None,
        read_strings(labels, "pending.labels", len(options)) if labels is not None else None,
        resume[0] if resume is not None and kind not in ENGINE_KINDS else None,
        read_int(subject, "pending.subject", 0, count - 1) if subject is not None else None,
    )


def _continuation(data: object, path: str, rules: GameRules, count: int) -> Continuation:
    parts = read_list(data, path, 4)
    if len(parts) != 4:
        raise SaveError(f"the saved {path} must be [ability, step, card, arguments]")
    key, name, card, args = parts
    name = read_str(name, f"{path}[1]")
    card = read_int(card, f"{path}[2]", 0, count - 1)
    if key is None:
        if name not in STEPS:
            raise SaveError(f"the saved game continues with {name!r}, not a step of the engine")
    else:
        ability = rules.abilities.get(key) if type(key) is str else None
        method = getattr(type(ability), name, None) if ability is not None else None
        if method is None or name.startswith("_") or not callable(method):
            raise SaveError(
                f"the saved game continues with {key if type(key) is str else short(key)}.{name}, "
                "which is not a method "
                "of a registered ability"
            )
    arguments = read_value(read_list(args, f"{path}[3]", MAX_ARGUMENT_VALUES), f"{path}[3]")
    return (key, name, card, arguments)
