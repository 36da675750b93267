"""Choosing a game's card list: the card types every family holds in its own colour.

Three ways (RULINGS G1, G2): a named set (its whole family of cards); a mix of
sets, from which ``size`` card types are drawn at random from the seed; or an
explicit list of card keys. A card that waits in the reserve (the Twin) is never
drawn: it joins the list whenever the card it needs (the Prince) is in it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ._cardsets import CardDef, CardSet, Setup
from ._errors import ConfigError

DEFAULT_SIZE = 10  # a family of the base game or of Ablaze
HAND = 7  # RULINGS G2: the list must deal 7 cards in hand


def card_list(
    sets: Mapping[str, CardSet],
    cards: Mapping[str, CardDef],
    chosen_sets: Sequence[str],
    explicit: Sequence[str] | None,
    *,
    size: int | None,
    rng: random.Random,
) -> tuple[str, ...]:
    """The card list of a new game; an impossible choice raises :class:`ConfigError`.

    ``chosen_sets`` must be known sets (the registry checks them first).
    """
    if explicit is not None:
        keys = list(explicit)
        for key in keys:
            if key not in cards:
                raise ConfigError(
                    f"unknown card {key!r} (no installed set provides it; "
                    "`oriflamme cards` lists them)"
                )
    elif len(chosen_sets) == 1 and size is None:
        keys = list(sets[chosen_sets[0]].keys)
    else:
        pool = [
            key
            for name in chosen_sets
            for key in sets[name].keys
            if cards[key].setup is Setup.SHUFFLED
        ]
        wanted = DEFAULT_SIZE if size is None else size
        if wanted < HAND:
            raise ConfigError(f"a card list needs at least {HAND} card types, not {wanted}")
        if wanted > len(pool):
            raise ConfigError(
                f"the sets {', '.join(chosen_sets)} have {len(pool)} card types "
                f"to draw from, fewer than {wanted}"
            )
        drawn = set(rng.sample(pool, wanted))
        keys = [key for key in pool if key in drawn]  # in set order: easier to read
    return _with_partners(keys, cards)


def _with_partners(keys: list[str], cards: Mapping[str, CardDef]) -> tuple[str, ...]:
    listed = set(keys)
    for key in list(keys):
        needed = cards[key].requires
        if needed is not None and needed not in listed:
            raise ConfigError(f"card {key!r} needs {needed!r} in the card list")
    # A reserve card joins whenever the card it needs is listed (RULINGS G2, A-Twin).
    for key, card in cards.items():
        if card.setup is Setup.RESERVE and card.requires in listed and key not in listed:
            keys.append(key)
    shuffled = sum(1 for key in keys if cards[key].setup is Setup.SHUFFLED)
    if shuffled < HAND:
        raise ConfigError(
            f"a card list needs at least {HAND} cards to shuffle and deal, not {shuffled}"
        )
    return tuple(keys)
