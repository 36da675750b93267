"""The ``conformance`` and ``cards`` commands."""

from __future__ import annotations

import argparse

from .conformance import run_paths
from .core.plugins import Registry


def conformance_command(args: argparse.Namespace, registry: Registry) -> int:
    passed = failed = 0
    for result in run_paths(args.paths, registry):
        if result.passed:
            passed += 1
            if not args.quiet:
                print(result.line())
        else:
            failed += 1
            print(result.report())
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def cards_command(args: argparse.Namespace, registry: Registry) -> int:
    sets = registry.sets
    names = args.sets or tuple(sorted(sets))
    registry.set_cards(names)  # an unknown set is reported here, in one line
    for name in names:
        card_set = sets[name]
        print(f"{card_set.title} (set {name}, plugin {card_set.plugin})")
        for card in card_set.cards:
            ability = "" if card.key in registry.abilities else "  [no ability implemented]"
            print(
                f"  {card.key:<14} {card.name_in(args.language):<20} {card.type.value:<9} "
                f"{card.text}{ability}"
            )
    return 0
