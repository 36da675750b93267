"""What a person chose on the command line, as a game configuration."""

from __future__ import annotations

import argparse

from oriflamme import COLOURS, GameConfig, Registry


def game_config(args: argparse.Namespace, registry: Registry, seed: int) -> GameConfig:
    """The configuration for ``--families``, ``--sets``/``--size``/``--cards``, ``--variant``.

    With ``--cards``, the sets recorded are those that provide the cards.
    """
    sets: tuple[str, ...] = args.sets
    if args.cards is not None:
        known = registry.cards
        sets = tuple(dict.fromkeys(known[key].set for key in args.cards if key in known)) or sets
    config = GameConfig(
        families=COLOURS[: args.families],
        sets=sets,
        cards=args.cards,
        size=args.size,
        seed=seed,
        variants=dict(args.variant),
    )
    config.check()
    return config


def describe_cards(config: GameConfig, cards: tuple[str, ...]) -> str:
    """One line naming the card list: the list itself, or how each game draws one."""
    if config.cards is None and (len(config.sets) > 1 or config.size is not None):
        return (
            f"each game draws {config.size or 10} card types from {', '.join(config.sets)} (seeded)"
        )
    return "cards: " + ", ".join(cards)
