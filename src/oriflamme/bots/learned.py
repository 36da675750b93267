"""The learned bot: the heuristic bot's scores, corrected by weights learned in play.

Every option of a decision gets a logit: the heuristic bot's own score for it (how far
below the best option's, times a learned weight, and a learned bonus for the best),
plus the learned weight of each of a few yes/no features that say what the option is:

- placing: the card's type and the round; the card's type and what the spot is (an
  end, a stack on our own card, beside one or two of the opponents' cards, beside our
  own, in danger, beside a stack or a likely Ambush or Trap);
- revealing (the option to reveal): the card's type and the round; the card's type and
  whether it is threatened, carries tokens or has an opponent's card beside it;
- choosing a target: the acting card's type, whose the target is (ours, the leader's,
  another opponent's) and whether it is face up; the target's type as far as we know it
  and whose it is.

Every figure comes from the family's own observation, read as the heuristic bot reads
it (:class:`~oriflamme.bots.reading.Reading`), so the bot is as honest as the heuristic
one. It plays the option with the highest logit, ties broken from its generator.

The weights were trained by ``python -m oriflamme.rl.train_policy`` (policy gradient
in games against heuristic bots; docs/research.md) and ship with the package in
``learned.bin``: a short header, then float32 numbers read with the standard library's
``array`` module, so that playing needs nothing but the standard library.
"""

from __future__ import annotations

import json
import random
import struct
import sys
from array import array
from collections.abc import Sequence
from importlib import resources
from typing import Final

from oriflamme import FIRST, LAST, Answer, At, Observation, OriflammeError, Placements

from .advice import advice_of
from .heuristic import HeuristicBot
from .play import pending
from .reading import Reading
from .spots import Spot

#: The first bytes of a weights file, then the length of its JSON header (uint32, little
#: endian), the header, and the weights as little-endian float32.
MAGIC: Final = b"ORIFLRN1"
#: The weights that ship with the package, beside this module.
WEIGHTS: Final = "learned.bin"
#: The features of a placement's spot (see :func:`spot_flags`).
SPOT_FLAGS: Final = (
    "first_end",
    "last_end",
    "stack",
    "beside_theirs",
    "beside_two_theirs",
    "beside_ours",
    "danger",
    "beside_stack",
    "beside_bait",
)
#: The features of a card about to be revealed (besides its type and the round).
REVEAL_FLAGS: Final = ("threatened", "tokens", "beside_theirs")
ROUNDS: Final = 6
#: Whose a target is: ours, the leading opponent's, another opponent's.
OWNERS: Final = 3
#: How far below the best option a heuristic score counts (a target the heuristic rules
#: out scores -9: it stays the worst without swamping the rest).
FLOOR: Final = -5.0


class WeightsError(OriflammeError):
    """A weights file that cannot be read."""


class Layout:
    """Where each feature's weight is, for weights learned over the card types ``keys``
    (a card of another type, or unseen, counts as one more type: ``unknown``)."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = tuple(keys)
        self.index = {key: number for number, key in enumerate(self.keys)}
        types = len(self.keys) + 1
        self.types = types
        at = 2  # 0: the heuristic score below the best; 1: the heuristic's best
        self.place_round = at
        at += types * ROUNDS
        self.place_spot = at
        at += types * len(SPOT_FLAGS)
        self.reveal_round = at
        at += types * ROUNDS
        self.reveal_flags = at
        at += types * len(REVEAL_FLAGS)
        self.target_acting = at
        at += types * OWNERS * 2
        self.target_key = at
        at += types * OWNERS
        self.size = at

    def type_of(self, key: str) -> int:
        return self.index.get(key, self.types - 1)

    def names(self) -> list[str]:
        """What every weight is for, in order (for reading the weights)."""
        types = (*self.keys, "unknown")
        names = ["heuristic_below_best", "heuristic_best"]
        names += [f"place.{k}.round={r + 1}" for k in types for r in range(ROUNDS)]
        names += [f"place.{k}.{flag}" for k in types for flag in SPOT_FLAGS]
        names += [f"reveal.{k}.round={r + 1}" for k in types for r in range(ROUNDS)]
        names += [f"reveal.{k}.{flag}" for k in types for flag in REVEAL_FLAGS]
        owners = ("ours", "leader", "other")
        names += [f"target.by.{k}.{o}.{u}" for k in types for o in owners for u in ("down", "up")]
        names += [f"target.{k}.{o}" for k in types for o in owners]
        assert len(names) == self.size
        return names


def spot_flags(spot: Spot, at: At) -> list[int]:
    """The numbers (in :data:`SPOT_FLAGS`) of the features a placement's spot has."""
    flags = []
    if at == FIRST:
        flags.append(0)
    elif at == LAST:
        flags.append(1)
    elif spot.covers is not None:
        flags.append(2)
    if spot.theirs >= 1:
        flags.append(3)
    if spot.theirs >= 2:
        flags.append(4)
    if spot.ours >= 1:
        flags.append(5)
    if spot.danger > 0:
        flags.append(6)
    if spot.stacks:
        flags.append(7)
    if spot.their_bait > 0.3:
        flags.append(8)
    return flags


class Features:
    """The heuristic bot's score and the learned features of every option of a decision."""

    def __init__(self, layout: Layout, heuristic: HeuristicBot) -> None:
        self.layout = layout
        self.heuristic = heuristic

    def reading(self, observation: Observation) -> Reading:
        """The table as the heuristic bot reads it."""
        heuristic = self.heuristic
        table = Reading(observation, heuristic.advice)
        # The heuristic bot's odds of unseen cards, kept from reading to reading.
        pools = heuristic._known_pools
        if pools is None:
            pools = heuristic._known_pools = {}
        table._known_pools = pools
        return table

    def logits(self, observation: Observation, weights: Sequence[float]) -> list[float]:
        """What :func:`logits` makes of :meth:`read`, the same numbers (a test checks
        it), sooner: a placement's logits are summed card by card and spot by spot, not
        option by option (a placement is most of a game's options)."""
        decision = pending(observation)
        options = decision.options
        if decision.kind != "place" or not isinstance(options, Placements):
            return logits(weights, *self.read(observation))
        table = self.reading(observation)
        heuristic = self.heuristic
        layout = self.layout
        rounds = min(max(table.round, 1), ROUNDS) - 1
        spots = [heuristic.spot(table, at) for at in options.ats]
        flags = [spot_flags(s, at) for s, at in zip(spots, options.ats, strict=True)]
        scores: list[float] = []
        learned: list[float] = []
        for card in options.cards:
            key = table.seen.key(card) or ""
            now = heuristic.priority(table, key)
            type_at = layout.type_of(key)
            by_round = weights[layout.place_round + type_at * ROUNDS + rounds]
            by_spot = layout.place_spot + type_at * len(SPOT_FLAGS)
            for place, spot_features in zip(spots, flags, strict=True):
                scores.append(now + heuristic.fit(table, key, place))
                value = by_round
                for f in spot_features:
                    value += weights[by_spot + f]
                learned.append(value)
        top = max(scores)
        below = weights[0]
        best = weights[1]
        found = []
        for score, value in zip(scores, learned, strict=True):
            gap = score - top
            logit = below * (gap if gap > FLOOR else FLOOR)
            if gap >= -1e-9:
                logit += best
            found.append(logit + value)
        return found

    def read(self, observation: Observation) -> tuple[list[float], list[list[int]]]:
        """Each option's heuristic score and feature numbers, in the options' order."""
        decision = pending(observation)
        table = self.reading(observation)
        kind = decision.kind
        options = decision.options
        rounds = min(max(table.round, 1), ROUNDS) - 1
        if kind == "place" and isinstance(options, Placements):
            return self.placements(table, options, rounds)
        if kind == "reveal" and decision.card is not None:
            return self.reveal(table, table.position_of(decision.card), options, rounds)
        key = decision.ability
        if key is None:
            return [1.0] + [0.0] * (len(options) - 1), [[] for _ in options]
        if kind == "target":
            acting_card = decision.card
            acting = table.position_of(acting_card) if acting_card is not None else None
            return self.targets(table, key, acting, options)
        told = advice_of(table, key)
        return [told.answer(table, decision, option) for option in options], [[] for _ in options]

    def placements(
        self, table: Reading, options: Placements, rounds: int
    ) -> tuple[list[float], list[list[int]]]:
        heuristic = self.heuristic
        layout = self.layout
        spots = [heuristic.spot(table, at) for at in options.ats]
        flags = [spot_flags(s, at) for s, at in zip(spots, options.ats, strict=True)]
        scores: list[float] = []
        features: list[list[int]] = []
        for card in options.cards:
            key = table.seen.key(card) or ""
            now = heuristic.priority(table, key)
            type_at = layout.type_of(key)
            by_round = layout.place_round + type_at * ROUNDS + rounds
            by_spot = layout.place_spot + type_at * len(SPOT_FLAGS)
            for place, spot_features in zip(spots, flags, strict=True):
                scores.append(now + heuristic.fit(table, key, place))
                features.append([by_round] + [by_spot + f for f in spot_features])
        return scores, features

    def reveal(
        self,
        table: Reading,
        position: int | None,
        options: tuple[Answer, ...] | Placements,
        rounds: int,
    ) -> tuple[list[float], list[list[int]]]:
        layout = self.layout
        reveal = self.heuristic.reveal(table, position)
        scores = [1.0 if option is reveal else 0.0 for option in options]
        found: list[int] = []
        if position is not None:
            type_at = layout.type_of(table.keys[position])
            found.append(layout.reveal_round + type_at * ROUNDS + rounds)
            base = layout.reveal_flags + type_at * len(REVEAL_FLAGS)
            if table.threat(position) > 0:
                found.append(base)
            if table.tokens(position) > 0:
                found.append(base + 1)
            if any(not table.mine(i) for i in table.adjacent(position)):
                found.append(base + 2)
        return scores, [found if option is True else [] for option in options]

    def targets(
        self, table: Reading, key: str, acting: int | None, options: tuple[Answer, ...] | Placements
    ) -> tuple[list[float], list[list[int]]]:
        layout = self.layout
        scores: list[float] = []
        features: list[list[int]] = []
        by = layout.target_acting + layout.type_of(key) * OWNERS * 2
        for option in options:
            if type(option) is not int:
                scores.append(-9.0)  # as the heuristic bot scores an answer not a position
                features.append([])
                continue
            scores.append(self.heuristic.target(table, key, acting, option))
            if not 0 <= option < table.size:
                features.append([])
                continue
            owner = table.owners[option]
            whose = 0 if owner == table.me else 1 if owner == table.leader else 2
            target_type = layout.type_of(table.keys[option])
            features.append(
                [
                    by + whose * 2 + int(table.up[option]),
                    layout.target_key + target_type * OWNERS + whose,
                ]
            )
        return scores, features


def logits(
    weights: Sequence[float], scores: Sequence[float], features: Sequence[Sequence[int]]
) -> list[float]:
    """Each option's logit: its heuristic score below the best (never below
    :data:`FLOOR`), a bonus for the best, and the weights of its features."""
    top = max(scores)
    below = weights[0]
    best = weights[1]
    found = []
    for score, numbers in zip(scores, features, strict=True):
        gap = score - top
        value = below * (gap if gap > FLOOR else FLOOR)
        if gap >= -1e-9:
            value += best
        for number in numbers:
            value += weights[number]
        found.append(value)
    return found


class Weights:
    """Learned weights and the layout they fit."""

    def __init__(self, layout: Layout, values: Sequence[float], about: dict[str, object]) -> None:
        if len(values) != layout.size:
            raise WeightsError(f"{len(values)} weights for a layout of {layout.size}")
        self.layout = layout
        self.values = list(values)
        self.about = about

    def dump(self) -> bytes:
        """The file's bytes: :data:`MAGIC`, the header's length, the header, the weights."""
        header = json.dumps(
            {"keys": list(self.layout.keys), "size": self.layout.size, "about": self.about},
            sort_keys=True,
        ).encode()
        numbers = array("f", self.values)
        if sys.byteorder != "little":
            numbers.byteswap()
        return MAGIC + struct.pack("<I", len(header)) + header + numbers.tobytes()

    @classmethod
    def load(cls, data: bytes, name: str = WEIGHTS) -> Weights:
        """Weights from a file's bytes (``name`` names it in a refusal)."""
        if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
            raise WeightsError(f"{name}: not a weights file (it must begin with {MAGIC!r})")
        at = len(MAGIC)
        (length,) = struct.unpack_from("<I", data, at)
        at += 4
        try:
            header = json.loads(data[at : at + length])
            keys = header["keys"]
            size = header["size"]
            about = header.get("about", {})
        except (ValueError, KeyError, TypeError) as exc:
            raise WeightsError(f"{name}: its header cannot be read ({exc})") from exc
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise WeightsError(f"{name}: its header's keys must be a list of card keys")
        layout = Layout(keys)
        body = data[at + length :]
        if size != layout.size or len(body) != 4 * layout.size:
            raise WeightsError(
                f"{name}: expected {layout.size} float32 weights, found {len(body) // 4}"
            )
        numbers = array("f")
        numbers.frombytes(body)
        if sys.byteorder != "little":
            numbers.byteswap()
        return cls(layout, numbers.tolist(), about if isinstance(about, dict) else {})


_SHIPPED: list[Weights] = []


def shipped() -> Weights:
    """The weights that ship with the package (read once)."""
    if not _SHIPPED:
        data = resources.files(__package__ or "oriflamme.bots").joinpath(WEIGHTS).read_bytes()
        _SHIPPED.append(Weights.load(data))
    return _SHIPPED[0]


class LearnedBot:
    """Plays the option with the highest logit (see the module's text), from its
    family's observation only; ties are broken at random, from ``seed`` or the generator
    given. ``weights``: the shipped ones unless given."""

    def __init__(
        self, seed: int | random.Random | None = None, *, weights: Weights | None = None
    ) -> None:
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self._random = rng.random
        self.weights = weights if weights is not None else shipped()
        self._values = self.weights.values
        self.features = Features(self.weights.layout, HeuristicBot(rng))

    def scores(self, observation: Observation) -> list[float]:
        """A logit for each option of the pending decision: the bot plays the highest."""
        return self.features.logits(observation, self._values)

    def choose(self, observation: Observation) -> Answer:
        options = pending(observation).options
        if len(options) == 1:
            return options[0]
        found = self.scores(observation)
        top = max(found)
        best = [i for i, value in enumerate(found) if value >= top - 1e-9]
        # One draw per decision, tie or not, as the heuristic bot does: with the
        # features' weights at 0 the two play the same games from the same seed.
        return options[best[int(self._random() * len(best))]]
