"""What the lobby offers (``GET /api/installed``): the same facts as ``oriflamme
plugins`` and ``oriflamme cards``, so a house-rule card that is installed shows up
with no change to the server."""

from __future__ import annotations

from typing import Any

from oriflamme import COLOURS, Registry
from oriflamme.limits import MAX_FAMILIES, MIN_FAMILIES

from .players import bot_kinds


def installed(registry: Registry) -> dict[str, Any]:
    """Families, card sets with their cards, plugins, variants, bot kinds, problems."""
    provided = registry.provided
    plugins = registry.describe()
    sets = [
        {
            "name": name,
            "title": card_set.title,
            "plugin": card_set.plugin,
            "cards": [
                {
                    "key": card.key,
                    "name": card.name,
                    "type": card.type.value,
                    "text": card.text,
                    # In the other languages the card data gives (the lobby's language).
                    "names": dict(card.names),
                    "texts": dict(card.texts),
                }
                for card in card_set.cards
            ],
        }
        for name, card_set in sorted(provided.sets.items())
    ]
    variants = [
        {"plugin": plugin["name"], **variant}
        for plugin in plugins
        for variant in plugin["variants"]
    ]
    return {
        "families": list(COLOURS),
        "min_families": MIN_FAMILIES,
        "max_families": MAX_FAMILIES,
        "sets": sets,
        "plugins": plugins,
        "variants": variants,
        "bots": bot_kinds(registry),
        "problems": registry.problems,
    }
