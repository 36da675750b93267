"""What a player of :mod:`.openspiel`'s game sees: its OpenSpiel observer and texts.

Both kinds of observer read one family's own :class:`~oriflamme.Observation` and
nothing else, so neither shows another family's hidden cards, nor the deal's chance
outcomes. Before the deal (at its chance nodes) the tensors are all 0 and the strings
say only how many of the deal's outcomes are drawn, which every player knows.

* the **observation** (``perfect_recall`` False): the tensor ``observation`` is
  :class:`~.observations.Encoding`'s vector; the string is :func:`observation_text`,
  a compact text of the same observation (the current table, not the log);
* the **information state** (``perfect_recall`` True): the string is
  :mod:`.openspiel_information`'s compact text of the observation (with the whole
  public event log, the family's own hand and set-aside cards) and of the player's own
  actions so far, in order: the log records what answers did, not the answers, so the
  actions are added, and the string has perfect recall. (A state made by
  ``resample_from_infostate`` for one player keeps that player's actions only: the
  others' strings there start their actions afresh.)
  The tensor is the observation vector followed by ``own_actions``: how many times the
  player took each action. It is closer to perfect recall than the observation, not
  equal to it: counts forget the order and the round of the actions, and the vector
  holds no log (what was eliminated and discarded stays in the piles; who gained
  Influence when does not).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from oriflamme import Observation

from .observations import Encoding

if TYPE_CHECKING:
    from oriflamme import CardId


class Observable(Protocol):
    """What the observer reads of a state (the game's state class provides it)."""

    def observation_of(self, player: int) -> Observation | None:
        """The player's own observation; None before the deal."""

    def own_actions(self, player: int) -> Sequence[int]:
        """The player's own actions so far, in order."""

    def deal_drawn(self) -> int:
        """How many of the deal's chance outcomes are drawn."""

    def information_text(self, player: int) -> str:
        """The information-state string (:mod:`.openspiel_information`)."""


class OriflammeObserver:
    """An OpenSpiel Python observer: ``tensor`` and its named views ``dict``, filled by
    :meth:`set_from`; :meth:`string_from` for the string."""

    def __init__(self, encoding: Encoding, num_actions: int, *, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        pieces = [("observation", encoding.size)]
        if perfect_recall:
            pieces.append(("own_actions", num_actions))
        self.tensor: npt.NDArray[np.float32] = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: Observable, player: int) -> None:
        self.tensor.fill(0.0)
        seen = state.observation_of(player)
        if seen is None:
            return
        self.encoding.array(seen, self.dict["observation"])
        if self.perfect_recall:
            actions = state.own_actions(player)
            if actions:
                counts = self.dict["own_actions"]
                counts[:] = np.bincount(np.asarray(actions, np.intp), minlength=counts.size)

    def string_from(self, state: Observable, player: int) -> str:
        seen = state.observation_of(player)
        if seen is None:
            return f"dealing: {state.deal_drawn()} drawn"
        if not self.perfect_recall:
            return observation_text(seen)
        return state.information_text(player)


def observation_text(seen: Observation) -> str:
    """One family's observation as compact text, one line a part: what the vector holds;
    a spectator's (``family`` None) has no lines of its own hand and set-aside cards.

    A card the family knows shows its key, one it does not shows ``?``; a queue card
    reads ``colour:key:up`` (or ``down``), then ``+n`` tokens, ``/n`` cards under it,
    ``@owner`` when a Bribery token makes another family its owner, ``!`` acting,
    ``*`` being revealed, ``<`` the card the question is about.
    """
    decision = seen.decision
    asked = f"{decision.family} {decision.kind}" if decision is not None else "nobody"
    who = seen.family or "spectator"
    lines = [
        f"{who} round {seen.round} {seen.phase} first {seen.first_player} asked {asked}",
        "influence " + _by_family(seen.influence),
        "in hand " + _by_family(seen.hand_sizes),
        "set aside " + _by_family(seen.set_aside_sizes),
    ]
    if seen.family is not None:
        lines += ["hand " + _keys(seen, seen.hand), "aside " + _keys(seen, seen.set_aside)]
    piles = (
        ("reserve", seen.reserve),
        ("discarded", seen.discarded),
        ("eliminated", seen.eliminated),
    )
    for name, zone in piles:
        lines.append(name + " " + " ".join(f"{f}:{_keys(seen, cs)}" for f, cs in zone.items()))
    tokens = seen.tokens
    about = decision.card if decision is not None else None
    cards = []
    for stack in seen.queue:
        card = stack[-1]
        up = "up" if seen.is_up(card) else "down"
        text = f"{seen.colours[card]}:{seen.key(card) or '?'}:{up}"
        text += f"+{tokens[card]}" if tokens.get(card) else ""
        text += f"/{len(stack) - 1}" if len(stack) > 1 else ""
        text += f"@{seen.owner(card)}" if seen.owner(card) != seen.colours[card] else ""
        text += "!" if card == seen.acting else ""
        text += "*" if card == seen.revealing else ""
        text += "<" if card == about else ""
        cards.append(text)
    lines.append("queue " + " ".join(cards))
    return "\n".join(lines)


def _by_family(values: Mapping[str, int]) -> str:
    return " ".join(f"{family}:{value}" for family, value in values.items())


def _keys(seen: Observation, cards: Sequence[CardId]) -> str:
    # Sorted: a hand's order tells nothing the vector holds.
    return ",".join(sorted(seen.key(card) or "?" for card in cards)) or "-"
