"""What every whole game the rules reach holds, read from its save alone.

An independent reading of the rules for the fuzz tests: it shares no code with the
engine's own check (``oriflamme.core._legality``, ``oriflamme.saves._control``), reads
the game as the plain JSON of its save (``Game.snapshot()``) and the cards' printed
facts from the card YAML files themselves, and is written from the rulebooks and
RULINGS.md (the ruling each invariant follows is cited). :func:`broken` names the first
invariant a save breaks, or returns None; a fuzz test asserts that no save the engine
loads, and no state a loaded save plays into, breaks one.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter
from collections.abc import Iterable
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

import yaml

HAND = 7  # RULINGS G2: 7 cards in hand, the rest set aside
ROUNDS = 6  # RULINGS G5
DRAWN = 10  # RULINGS G1, G2: a mix draws ten card types unless told another size
PILES = ("hands", "set_aside", "reserve", "discarded", "eliminated")
SHOWN = ("reserve", "discarded", "eliminated")  # RULINGS G2 (the Twin waits face up), R5
TAKES_SET_ASIDE = "impersonation"  # RULINGS A-Impersonation: "... or set-aside cards"
BRIBERY = "bribery"  # RULINGS A-Bribery: the card that puts its family's token


def _card_files() -> list[Traversable]:
    """The built-in sets' files, and the example plugin's where it can be imported."""
    found = [files("oriflamme") / "cards" / f"{name}.yaml" for name in ("base", "ablaze")]
    # The example plugin's source may not be on the path (a wheel tested on its own).
    with contextlib.suppress(ModuleNotFoundError):
        found.append(files("oriflamme_house_rules") / "house.yaml")
    return found


def _read_sets() -> tuple[dict[str, list[str]], dict[str, dict[str, Any]]]:
    sets: dict[str, list[str]] = {}
    cards: dict[str, dict[str, Any]] = {}
    for path in _card_files():
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        sets[data["set"]] = [card["key"] for card in data["cards"]]
        for card in data["cards"]:
            cards[card["key"]] = card
    return sets, cards


SETS, CARDS = _read_sets()
CHARACTERS = {key for key, card in CARDS.items() if card["type"] == "character"}
RESERVE = {key for key, card in CARDS.items() if card.get("setup") == "reserve"}
KEEPS_TOKENS = {key for key, card in CARDS.items() if card.get("reveal_tokens") == "ability"}


def broken(save: dict[str, Any]) -> str | None:
    """The first invariant of the rules ``save`` (a snapshot's JSON) breaks, or None."""
    for check in (_families, _card_list, _deal, _places, _hands, _faces, _tokens, _bribes):
        problem = check(save)
        if problem is not None:
            return problem
    return _progress(save)


def _families(save: dict[str, Any]) -> str | None:
    families = save["config"]["families"]
    if not 3 <= len(families) <= 5 or len(set(families)) != len(families):
        return "3 to 5 families, each once (RULINGS G1)"
    if set(save["influence"]) != set(families):
        return "Influence of other families"
    if any(type(value) is not int or value < 0 for value in save["influence"].values()):
        return "Influence below 0 (RULINGS G7)"
    return None


def _partners(keys: Iterable[str]) -> list[str]:
    """The reserve cards that join a list holding the card each needs (RULINGS G2, A-Twin)."""
    listed = set(keys)
    return [key for key in RESERVE if CARDS[key].get("requires") in listed and key not in listed]


def _card_list(save: dict[str, Any]) -> str | None:
    """The list is the one the configuration makes (RULINGS G1, G2)."""
    config, cards = save["config"], save["cards"]
    if any(key not in CARDS for key in cards):
        return "a card of the list that no set provides"
    if config["cards"] is not None:
        head = config["cards"]
    elif len(config["sets"]) == 1 and config["size"] is None:
        head = SETS[config["sets"][0]]
    else:
        pool = [k for name in config["sets"] for k in SETS[name] if k not in RESERVE]
        head = [key for key in cards if key not in RESERVE]
        wanted = DRAWN if config["size"] is None else config["size"]
        if len(head) != wanted or len(set(head)) != wanted or not set(head) <= set(pool):
            return "a drawn list of other than its size in different cards of its sets"
        if head != [key for key in pool if key in head]:
            return "a drawn list out of its sets' order"
    tail = cards[len(head) :]
    if cards[: len(head)] != list(head) or sorted(tail) != sorted(_partners(head)):
        return "a card list other than its configuration makes (RULINGS G1, G2)"
    if sum(1 for key in cards if key not in RESERVE) < HAND:
        return "a list that deals fewer than 7 cards (RULINGS G2)"
    return None


def _deal(save: dict[str, Any]) -> str | None:
    """Each family holds the list once, in its own block of ids (RULINGS G1, G2)."""
    families, cards, identity = save["config"]["families"], save["cards"], save["identity"]
    size = len(cards)
    if len(identity) != size * len(families):
        return "other than one copy of the list per family (RULINGS G1)"
    for seat, family in enumerate(families):
        block = identity[seat * size : (seat + 1) * size]
        if any(colour != family for colour, _ in block):
            return "ids not dealt family by family"
        if Counter(key for _, key in block) != Counter(cards):
            return f"{family} holds other keys than its card list (RULINGS G1)"
    return None


def _places(save: dict[str, Any]) -> str | None:
    """Each card in one place; zones hold their own family's cards (RULINGS G1, G2)."""
    families = save["config"]["families"]
    colours = [colour for colour, _ in save["identity"]]
    keys = [key for _, key in save["identity"]]
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
                return f"a card in the wrong {zone} (RULINGS G2, A-Twin)"
    if sorted(where) != list(range(len(keys))) or max(where.values(), default=1) != 1:
        return "a card in two places or none"
    return None


def _hands(save: dict[str, Any]) -> str | None:
    """Hands as the placements left them (RULINGS G2, G4); the set-aside cards as
    dealt, less what an Impersonation took (A-Impersonation)."""
    families, cards = save["config"]["families"], save["cards"]
    n, round_, phase = len(families), save["round"], save["phase"]
    if not isinstance(round_, int) or not 1 <= round_ <= ROUNDS:
        return "a round that does not exist (RULINGS G5)"
    dealt = sum(1 for key in cards if key not in RESERVE) - HAND
    for seat, family in enumerate(families):
        placed = phase != "placement" or (seat - save["first"]) % n < save["placed"]
        if len(save["hands"][family]) != HAND - (round_ - 1) - placed:
            return f"{family}'s hand is not the cards its placements left (RULINGS G2, G4)"
        aside = len(save["set_aside"][family])
        if aside > dealt or (TAKES_SET_ASIDE not in cards and aside != dealt):
            return f"{family}'s set-aside cards are not as dealt (RULINGS G2)"
    return None


def _faces(save: dict[str, Any]) -> str | None:
    keys = [key for _, key in save["identity"]]
    in_queue = {card for stack in save["queue"] for card in stack}
    up = set(save["up"])
    if not up <= in_queue:
        return "a face-up card outside the queue"
    if any(keys[card] not in CHARACTERS and card != save["acting"] for card in up):
        return "a face-up Intrigue that is not acting (RULINGS R2)"
    if any(keys[card] in RESERVE and card not in up for card in in_queue):
        return "a face-down Twin (RULINGS A-Prince)"
    shown = up | {c for zone in SHOWN for cards in save[zone].values() for c in cards}
    if set(save["public"]) != shown:
        return "public keys other than the cards shown (RULINGS R2, R5)"
    for stack in save["queue"]:
        if save["round"] == 1 and any(keys[card] not in RESERVE for card in stack[1:]):
            return "a stack in round 1 (RULINGS G4)"
        if any(keys[a] == "prince" and keys[b] == "twin" for a, b in itertools.pairwise(stack)):
            return "a Twin on a Prince (RULINGS A-Prince)"
    if save["round"] == 1 and save["phase"] == "placement":
        gone = [c for zone in ("discarded", "eliminated") for cs in save[zone].values() for c in cs]
        if up or save["tokens"] or gone:
            return "a card resolved before round 1's resolution (RULINGS G4, R1)"
    return None


def _tokens(save: dict[str, Any]) -> str | None:
    keys = [key for _, key in save["identity"]]
    in_queue = {card for stack in save["queue"] for card in stack}
    for card, tokens in save["tokens"]:
        face_up = card in save["up"]
        if card not in in_queue or tokens < 1 or (face_up and keys[card] not in KEEPS_TOKENS):
            return "tokens where none can lie (RULINGS R1, R2)"
    return None


def _bribes(save: dict[str, Any]) -> str | None:
    """A family's token lies on face-up Characters, put by the Briberies it played,
    each discarded at once (RULINGS A-Bribery)."""
    families = save["config"]["families"]
    identity = save["identity"]
    in_queue = {card for stack in save["queue"] for card in stack}
    tokens: Counter[str] = Counter()
    for card, family in save["bribes"]:
        if family not in families:
            return "a Bribery token of no family"
        if card not in in_queue or card not in save["up"] or identity[card][1] not in CHARACTERS:
            return "a Bribery token off a face-up Character in the queue (RULINGS A-Bribery)"
        tokens[family] += 1
    for family, number in tokens.items():
        played = sum(1 for card in save["discarded"][family] if identity[card][1] == BRIBERY)
        if number > played:
            return f"{family}'s Bribery token put without playing a Bribery (RULINGS A-Bribery)"
    return None


def _progress(save: dict[str, Any]) -> str | None:
    families, pending, phase = save["config"]["families"], save["pending"], save["phase"]
    if phase not in ("placement", "resolution", "end"):
        return "a phase that does not exist"
    if (pending is None) != (phase == "end") or (phase == "end" and save["round"] != ROUNDS):
        return "over, or not (RULINGS G5)"
    if phase == "end":
        return "work left at the end" if save["tasks"] or save["resume"] else None
    return _question(save, pending, families)


def _owner(save: dict[str, Any], card: int) -> str:
    """RULINGS R3: a Bribery token's family owns the card."""
    bribed: dict[int, str] = dict(save["bribes"])
    owner: str = bribed.get(card) or save["identity"][card][0]
    return owner


def _question(save: dict[str, Any], pending: dict[str, Any], families: list[str]) -> str | None:
    """The question the rules would ask there (RULINGS G4, R1, R3, R4)."""
    queue, walk, acting = save["queue"], save["walk"], save["acting"]
    kind, options, card = pending["kind"], pending["options"], pending["card"]
    up = set(save["up"])
    if pending["family"] not in families:
        return "a question for no family"
    if save["phase"] == "placement":
        family = families[(save["first"] + save["placed"]) % len(families)]
        spots: list[Any] = ["first", "last"] if queue else ["first"]
        if queue and save["round"] > 1:
            spots += [i for i, stack in enumerate(queue) if _owner(save, stack[-1]) == family]
        hand = save["hands"][family]
        if (kind, pending["family"], walk, acting) != ("place", family, 0, -1) or save["tasks"]:
            return "a placement out of turn (RULINGS G4)"
        if options != {"cards": hand, "ats": spots} or len(hand) * len(spots) < 2:
            return "placements other than the hand and queue allow (RULINGS G4, R4)"
        return None
    if save["placed"] != len(families) or acting == -1 or walk > len(queue):
        return "a resolution phase out of step (RULINGS R1)"
    if kind == "reveal":
        top = queue[walk][-1] if walk < len(queue) else None
        if card != top or card != acting or card in up or pending["family"] != _owner(save, card):
            return "a reveal out of turn (RULINGS R1)"
        return "work during a reveal" if save["tasks"] or save["resume"] else None
    resume = save["resume"]
    if resume is None or resume[2] != card or [None, "finish", acting, []] not in save["tasks"]:
        return "an ability's question with no ability at work (RULINGS R1)"
    if pending["family"] != _owner(save, card) or len(set(map(repr, options))) < 2:
        return "an ability's question of the wrong family, or with one answer (RULINGS R3, R4)"
    if pending["labels"] is not None and len(pending["labels"]) != len(options):
        return "words for other options"
    positions = {
        "target": range(len(queue)),
        "move": range(len(queue) + 1),
        "twin": ["first", "last", *range(len(queue))],
        "choose": ["gain", "repeat"],
    }.get(kind)
    if positions is None:
        return f"a question of a kind no card asks: {kind}"
    if any(option not in positions or type(option) is bool for option in options):
        return f"{kind} options that are not in the queue"
    if not save["acting_gone"] and walk >= len(queue):
        return "the acting position is past the queue (RULINGS R8)"
    return None
