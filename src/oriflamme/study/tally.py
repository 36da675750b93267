"""What finished games add up to, per card type and per seat: whole numbers only, so
that totals are sums over games, the same in whatever order or process they were added
(the definitions are in :mod:`oriflamme.study`).

A game is read from its event log (it must be played with ``record=True``) and from
each family's own observation at the end: which card id is which (a family knows its
own cards) and what is left in each hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from oriflamme import Game
from oriflamme.events import Eliminated, Gained, GameStarted, Lost, Placed, Revealed, Stolen

#: A win's worth, in whole units: an outright win is SHARE, a win shared by k families
#: SHARE // k each. 60 is divisible by every number of winners a game can have (1 to 5),
#: so shares add up exactly, in any order.
SHARE = 60

#: The moments of a card whose family's results are counted (see :mod:`oriflamme.study`).
GROUPS = ("placed", "revealed", "kept_back", "set_aside")

#: The counters kept for each card type, in this order.
CARD_FIELDS = (
    "games",
    "copies",
    "dealt",
    "set_aside",
    "kept_back",
    "placed",
    "put_face_up",
    "revealed",
    *(f"{group}_{what}" for group in GROUPS for what in ("wins", "shared_wins", "share")),
    "eliminated",
    "eliminated_face_down",
    "eliminations",
    "token_gain",
    "token_gain_squares",
    "ability_gain",
    "ability_gain_squares",
    "ability_gain_others",
    "ability_loss",
    "ability_loss_others",
)
_AT = {name: number for number, name in enumerate(CARD_FIELDS)}

#: The counters kept for each seat and for each place in the turn order.
SEAT_FIELDS = ("wins", "shared_wins", "share", "score")


def _zeros(count: int) -> list[int]:
    return [0] * count


@attrs.define
class Tally:
    """The totals of a run of games of one configuration and one choice of bots.

    ``cards`` maps each card type met to its counters (:data:`CARD_FIELDS`, in order);
    ``seats`` holds the counters (:data:`SEAT_FIELDS`) of each seat in the order of the
    configuration's families, ``turns`` those of each place in round 1's turn order
    (0: the first player).
    """

    families: tuple[str, ...]
    games: int = 0
    decisions: int = 0
    shared_games: int = 0  # games whose win was shared (a tie, RULINGS G6)
    cards: dict[str, list[int]] = attrs.field(factory=dict)
    seats: list[list[int]] = attrs.field(factory=list)
    turns: list[list[int]] = attrs.field(factory=list)

    def __attrs_post_init__(self) -> None:
        count = len(self.families)
        self.seats = self.seats or [_zeros(len(SEAT_FIELDS)) for _ in range(count)]
        self.turns = self.turns or [_zeros(len(SEAT_FIELDS)) for _ in range(count)]

    def card(self, key: str) -> dict[str, int]:
        """The counters of card type ``key``, by name (zeros if it was never met)."""
        return dict(zip(CARD_FIELDS, self.cards.get(key, _zeros(len(CARD_FIELDS))), strict=True))

    def merge(self, other: Tally) -> None:
        """Add ``other``'s totals (of the same families) to these."""
        if other.families != self.families:
            raise ValueError(f"cannot add totals of {other.families} to those of {self.families}")
        self.games += other.games
        self.decisions += other.decisions
        self.shared_games += other.shared_games
        for key, values in other.cards.items():
            mine = self.cards.setdefault(key, _zeros(len(CARD_FIELDS)))
            for number, value in enumerate(values):
                mine[number] += value
        for own, theirs in ((self.seats, other.seats), (self.turns, other.turns)):
            for row, add in zip(own, theirs, strict=True):
                for number, value in enumerate(add):
                    row[number] += value

    def add(self, game: Game, decisions: int) -> None:
        """Add one finished game, played with ``record=True``, whose bots answered
        ``decisions`` decisions."""
        families = game.families
        if families != self.families:
            raise ValueError(f"a game of {families} in totals of {self.families}")
        winners = game.winners
        events = game.events
        if not events:
            raise ValueError("the game kept no event log: play it with record=True")
        self.games += 1
        self.decisions += decisions
        self.shared_games += len(winners) > 1
        # Each family's result: (outright win, shared win, share of the win).
        results = {
            f: (
                int(winners == (f,)),
                int(f in winners and len(winners) > 1),
                SHARE // len(winners) if f in winners else 0,
            )
            for f in families
        }
        scores = game.scores
        first = 0
        started = events[0]
        if isinstance(started, GameStarted):
            first = families.index(started.first_player)
        for seat, family in enumerate(families):
            outright, shared, share = results[family]
            for row in (self.seats[seat], self.turns[(seat - first) % len(families)]):
                row[0] += outright
                row[1] += shared
                row[2] += share
                row[3] += scores[family]
        _add_cards(self, game, _walk(events), results)

    def to_dict(self) -> dict[str, Any]:
        """The totals as JSON-ready data (what a Ray task sends back)."""
        return {
            "families": list(self.families),
            "games": self.games,
            "decisions": self.decisions,
            "shared_games": self.shared_games,
            # By key: the order cards were first met in depends on how games were shared
            # out, and the same totals should be the same file.
            "cards": {
                key: dict(zip(CARD_FIELDS, row, strict=True))
                for key, row in sorted(self.cards.items())
            },
            "seats": [dict(zip(SEAT_FIELDS, row, strict=True)) for row in self.seats],
            "turns": [dict(zip(SEAT_FIELDS, row, strict=True)) for row in self.turns],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tally:
        """The totals :meth:`to_dict` wrote."""
        return cls(
            families=tuple(data["families"]),
            games=data["games"],
            decisions=data["decisions"],
            shared_games=data["shared_games"],
            cards={key: [row[name] for name in CARD_FIELDS] for key, row in data["cards"].items()},
            seats=[[row[name] for name in SEAT_FIELDS] for row in data["seats"]],
            turns=[[row[name] for name in SEAT_FIELDS] for row in data["turns"]],
        )


@attrs.define
class _Walked:
    """What one game's event log says about its cards, by card id."""

    placed: dict[int, set[str]] = attrs.field(factory=dict)  # the families that put it in
    from_hand: set[int] = attrs.field(factory=set)  # ... face down, from the hand
    face_up: set[int] = attrs.field(factory=set)  # ... face up, by an ability
    revealed: set[int] = attrs.field(factory=set)
    eliminated: set[int] = attrs.field(factory=set)
    eliminated_face_down: set[int] = attrs.field(factory=set)
    eliminations: Counter[int] = attrs.field(factory=Counter)
    token_gain: Counter[int] = attrs.field(factory=Counter)
    # Influence moved because of a card, by whether the family was the card's own
    # (its printed colour), filled in by _add_cards, which knows the colours.
    gain: Counter[int] = attrs.field(factory=Counter)
    gain_others: Counter[int] = attrs.field(factory=Counter)
    loss: Counter[int] = attrs.field(factory=Counter)
    loss_others: Counter[int] = attrs.field(factory=Counter)
    # Every Influence movement that names a card: (family, amount, card), a loss
    # negative; a reveal's gain is among them, and its token gain (1 per token) is
    # also in ``tokens``.
    moves: list[tuple[str, int, int]] = attrs.field(factory=list)
    tokens: list[tuple[str, int, int]] = attrs.field(factory=list)


def _walk(events: Iterable[object]) -> _Walked:
    """What ``events`` say about the cards of their game, by card id."""
    walked = _Walked()
    moves = walked.moves
    for event in events:
        if isinstance(event, Placed):
            walked.placed.setdefault(event.card, set()).add(event.family)
            (walked.face_up if event.face_up else walked.from_hand).add(event.card)
        elif isinstance(event, Revealed):
            walked.revealed.add(event.card)
            # Revealing a card gains 1 per token on it (RULINGS R2): that is its token
            # gain. What a reveal gains beyond that is the card's ability (a Conspiracy
            # doubles its tokens): it stays in the ability's Influence.
            tokens = min(event.gained, event.tokens)
            if tokens:
                walked.token_gain[event.card] += tokens
                walked.tokens.append((event.family, tokens, event.card))
        elif isinstance(event, Eliminated):
            walked.eliminated.add(event.card)
            if event.face_down:
                walked.eliminated_face_down.add(event.card)
            if event.by is not None:
                walked.eliminations[event.by] += 1
        elif isinstance(event, Gained):
            if event.card is not None:
                moves.append((event.family, event.amount, event.card))
        elif isinstance(event, Lost):
            if event.card is not None:
                moves.append((event.family, -event.amount, event.card))
        elif isinstance(event, Stolen) and event.card is not None:
            moves.append((event.thief, event.amount, event.card))
            moves.append((event.victim, -event.amount, event.card))
    return walked


def _add_cards(
    tally: Tally,
    game: Game,
    walked: _Walked,
    results: Mapping[str, tuple[int, int, int]],
) -> None:
    # Each family sees its own cards' keys and its hand: together, every card.
    keys: dict[int, str] = {}
    colour: dict[int, str] = {}
    kept: set[int] = set()
    for family in game.families:
        seen = game.observe(family)
        for card, key in seen.own_keys.items():
            keys[card] = key
            colour[card] = family
        kept.update(seen.hand)
    for family, amount, card in walked.moves:
        own = family == colour.get(card)
        if amount >= 0:
            (walked.gain if own else walked.gain_others)[card] += amount
        else:
            (walked.loss if own else walked.loss_others)[card] -= amount
    # A reveal's gain came as a gain event naming the card: its token gain (1 per
    # token) is not the ability's; the rest (a Conspiracy's double) is.
    for family, amount, card in walked.tokens:
        (walked.gain if family == colour.get(card) else walked.gain_others)[card] -= amount
    shuffled = game.rules.shuffled
    at = _AT
    for key in set(game.cards):
        tally.cards.setdefault(key, _zeros(len(CARD_FIELDS)))[at["games"]] += 1
    for card, key in keys.items():
        row = tally.cards.setdefault(key, _zeros(len(CARD_FIELDS)))
        family = colour[card]
        outright, shared, share = results[family]
        # Only a card placed by its own family counts as placed: the family whose
        # results the row counts is the card's.
        placed = family in walked.placed.get(card, ())
        in_hand = card in kept or card in walked.from_hand
        moments = {
            "placed": placed,
            "revealed": card in walked.revealed,
            "kept_back": card in kept,
            "set_aside": key in shuffled and not in_hand,
        }
        row[at["copies"]] += 1
        row[at["dealt"]] += key in shuffled and in_hand
        row[at["put_face_up"]] += card in walked.face_up
        for group, member in moments.items():
            if member:
                row[at[group]] += 1
                row[at[f"{group}_wins"]] += outright
                row[at[f"{group}_shared_wins"]] += shared
                row[at[f"{group}_share"]] += share
        row[at["eliminated"]] += card in walked.eliminated
        row[at["eliminated_face_down"]] += card in walked.eliminated_face_down
        row[at["eliminations"]] += walked.eliminations[card]
        tokens = walked.token_gain[card]
        row[at["token_gain"]] += tokens
        row[at["token_gain_squares"]] += tokens * tokens
        gain = walked.gain[card]
        row[at["ability_gain"]] += gain
        row[at["ability_gain_squares"]] += gain * gain
        row[at["ability_gain_others"]] += walked.gain_others[card]
        row[at["ability_loss"]] += walked.loss[card]
        row[at["ability_loss_others"]] += walked.loss_others[card]
