"""Determinisation: from one family's observation and a seed, a complete game that
agrees with everything that family has seen, for search (ISMCTS) and for analysis.

The other families' cards whose keys the family cannot know (in hand, set aside, face
down in the queue) are dealt at random among those places, from what each family's
card list leaves once its known cards are taken out: every deal consistent with the
observation can come out, and only those. The sample's observation for that family
equals the one it was made from.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Mapping
from typing import Any, Final

from ._bounds import check_seed
from ._compiling import i64
from ._config import GameConfig
from ._decisions import Decision, Placements
from ._effects import Effects
from ._errors import OriflammeError
from ._identity import NO_CARD, CardId, Identity
from ._observation import Observation
from ._rules import GameRules
from ._state import State, Zone


class DeterminiseError(OriflammeError):
    """An observation that no complete game of its card list can agree with."""


def determinise(
    observation: Observation, seed: int, rules: GameRules, *, recording: bool = True
) -> State:
    """A state that ``observation`` could be of, its unseen cards dealt from ``seed``,
    played by ``rules`` (those of the observation's sets, variants and cards)."""
    rng = _Draws(seed)
    keys, hands, set_aside = _deal_unseen(observation, rng)
    check_seed(seed)  # where State.empty would check it, the game's config checking its own
    state = State.empty(
        rules,
        _config(observation),
        Identity(observation.colours, keys),
        cards=observation.cards,
        direction=observation.direction,
        recording=recording,
    )
    # The config is shared by the samples of one table: the seed is each sample's own
    # (saves and Game.config read it from here).
    state.seed = seed
    state.queue = observation.queue
    state.up = observation._up
    state.tokens = observation._tokens
    state.bribes = observation._bribes
    state.set_zone("hands", hands)
    state.set_zone("set_aside", set_aside)
    state.reserve = observation._reserve
    state.discarded = observation._discarded
    state.eliminated = observation._eliminated
    state.influence = observation._influence
    state.public = observation._public
    state.round = observation.round
    state.phase = observation.phase
    state.first = observation._first
    state.placed = observation.placed
    state.walk = observation.walk
    state.acting = NO_CARD if observation.acting is None else observation.acting
    state.acting_gone = observation.acting_gone
    state.revealing = NO_CARD if observation.revealing is None else observation.revealing
    state.resume, state.tasks = observation._resume, observation._tasks
    state.log = observation.log if recording else None
    state.pending = _pending(observation.decision, state)
    return state


# The configuration of the last table determinised (a search samples one table many
# times over), with the variants it was made from: a rules table's own, which never
# change, so that the same object means the same values. One entry, replaced whole.
_last_config: Final[list[tuple[object, tuple[object, ...], GameConfig]]] = []


def _config(observation: Observation) -> GameConfig:
    """The configuration of a game ``observation`` could be of (its seed aside)."""
    variants = observation.variants
    table: tuple[object, ...] = (
        observation.families,
        observation.sets,
        observation.cards,
        observation.first_player,
        observation.direction,
    )
    last = _last_config
    if last:
        entry = last[0]
        if entry[0] is variants and entry[1] == table:
            return entry[2]
    config = GameConfig(
        families=observation.families,
        sets=observation.sets,
        cards=observation.cards,
        seed=0,
        first_player=observation.first_player,
        direction=observation.direction,
        variants=dict(variants),
    )
    if last:
        last[0] = (variants, table, config)
    else:
        last.append((variants, table, config))
    return config


def _deal_unseen(observation: Observation, rng: _Draws) -> tuple[list[str], Zone, Zone]:
    """Every card id's key, and each family's hand and set-aside cards (by seat), the
    cards the observing family cannot see dealt at random."""
    colours = observation.colours
    me = observation.family
    own: Mapping[CardId, str] = observation.own_keys
    keys: list[str] = list(observation._public)
    count = len(keys)
    # A family knows the keys of its own cards (Observation.key), and no others.
    for card, key in own.items():
        if 0 <= card < count and not keys[card] and colours[card] == me:
            keys[card] = key or ""
    # Each card id: whether it is out of play (in a hand or set aside, as far as can be seen).
    out = [True] * count
    for stack in observation.queue:
        for card in stack:
            if 0 <= card < count:
                out[card] = False
    for zone in (observation._reserve, observation._discarded, observation._eliminated):
        for cards in zone:
            for card in cards:
                if 0 <= card < count:
                    out[card] = False
    listed = _sorted_cards(observation.cards)
    hands: list[tuple[CardId, ...]] = []
    set_aside: list[tuple[CardId, ...]] = []
    for seat, family in enumerate(observation.families):
        if family == me:
            hands.append(observation.hand)
            set_aside.append(observation.set_aside)
        else:
            hidden = _deal_family(observation, family, keys, listed, out, rng=rng)
            in_hand = observation._hand_counts[seat]
            aside = observation._set_aside_counts[seat]
            if len(hidden) != in_hand + aside:
                raise DeterminiseError(
                    f"{family} has {len(hidden)} cards out of play, not the "
                    f"{in_hand + aside} its hand and set-aside cards count"
                )
            hand = hidden[:in_hand]
            hand.sort()
            rest = hidden[in_hand:]
            rest.sort()
            hands.append(tuple(hand))
            set_aside.append(tuple(rest))
    return keys, tuple(hands), tuple(set_aside)


def _deal_family(
    observation: Observation,
    family: str,
    keys: list[str],
    listed: tuple[str, ...],
    out: list[bool],
    *,
    rng: _Draws,
) -> list[CardId]:
    """Deal the keys ``family``'s card list (``listed``, sorted) leaves once its known
    cards are out to its cards of unknown key (into ``keys``); return its cards ``out``
    of play (in hand or set aside), shuffled."""
    colours = observation.colours
    ids: list[CardId] = []
    unknown: list[CardId] = []
    known: dict[str, int] = {}
    for card in range(len(keys)):
        if colours[card] == family:
            ids.append(card)
            key = keys[card]
            if key:
                known[key] = known.get(key, 0) + 1
            else:
                unknown.append(card)
    # The list less the known keys, one for each: still in order.
    left: list[str] = []
    for key in listed:
        taken = known.get(key, 0)
        if taken:
            known[key] = taken - 1
        else:
            left.append(key)
    short = False  # a known key the list has too few of
    for taken in known.values():
        if taken:
            short = True
    if short or len(left) != len(unknown):
        raise DeterminiseError(
            f"{family}'s known cards do not fit its card list "
            f"({len(unknown)} unseen cards, {len(left)} keys left to deal)"
        )
    rng.shuffle(left)
    for number in range(len(unknown)):  # as many keys as cards: checked above
        keys[unknown[number]] = left[number]
    # Which unseen ids are in hand and which set aside is not seen either.
    hidden = [card for card in ids if out[card]]
    rng.shuffle(hidden)
    return hidden


# The last card list dealt from, sorted (a search deals from one list many times over).
_last_sorted: Final[list[tuple[tuple[str, ...], tuple[str, ...]]]] = []


def _sorted_cards(cards: tuple[str, ...]) -> tuple[str, ...]:
    """``cards``, sorted."""
    last = _last_sorted
    if last:
        entry = last[0]
        if entry[0] is cards:
            return entry[1]
    found = tuple(sorted(cards))
    if last:
        last[0] = (cards, found)
    else:
        last.append((cards, found))
    return found


class _Draws:
    """Draws from a Mersenne Twister seeded as ``random.Random(seed)`` seeds it, exactly
    as ``Random.shuffle`` makes them, at a fraction of the cost: the generator's 32-bit
    words are fetched many at once (``getrandbits(32 * n)`` holds them in the order it
    made them, the first one lowest), and each index is drawn as
    ``Random._randbelow`` draws it from a word of its own. What is fetched and not used
    is never read: the generator serves one deal."""

    def __init__(self, seed: int) -> None:
        # The generator under random.Random, seeded by the same code, without the
        # interpreted layer over it. A seed of another type (refused once dealt) is
        # seeded as random.Random seeds it.
        self._rng: _random.Random = (
            _random.Random(seed) if type(seed) is int else random.Random(seed)
        )
        self._words = b""
        self._at: i64 = 0

    def below(self, limit: i64) -> i64:
        """A whole number from 0 to ``limit`` - 1 (``limit`` at most 2**32), as
        ``Random._randbelow_with_getrandbits(limit)`` draws it: the top
        ``limit.bit_length()`` bits of a word (``getrandbits``), drawn again while too
        large."""
        bits: i64 = 0
        rest = limit
        while rest:
            bits += 1
            rest >>= 1
        shift = 32 - bits
        while True:
            at = self._at
            words = self._words
            if at >= len(words):
                words = self._rng.getrandbits(32 * _FETCHED).to_bytes(4 * _FETCHED, "little")
                self._words = words
                at = 0
            self._at = at + 4
            word = (
                i64(words[at])
                | i64(words[at + 1]) << 8
                | i64(words[at + 2]) << 16
                | i64(words[at + 3]) << 24
            )
            drawn = word >> shift
            if drawn < limit:
                return drawn

    def shuffle(self, items: list[Any]) -> None:
        """``random.Random.shuffle(items)``, draw for draw (Fisher-Yates)."""
        i: i64 = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1


#: Words fetched at once: about what dealing two families of ten cards takes.
_FETCHED: Final = 64


def _pending(decision: Decision | None, state: State) -> Decision | None:
    """The pending decision; another family's placement is rebuilt from its dealt hand."""
    if decision is None or decision.options:
        return decision
    if decision.kind != "place":
        raise DeterminiseError(
            f"{decision.family}'s {decision.kind} decision hides its options: "
            "it cannot be rebuilt from this observation"
        )
    family = decision.family
    spots = Effects(state, state.rules).spots(family)
    return Decision(family, "place", Placements(state.hands[state.seat[family]], spots))
