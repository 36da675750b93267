"""What the lobby offers (``GET /api/installed``): the same facts as ``oriflamme
plugins`` and ``oriflamme cards``, so a house-rule card that is installed shows up
with no change to the server."""

from __future__ import annotations

from typing import Any

from oriflamme import COLOURS, Registry
from oriflamme.limits import MAX_FAMILIES, MIN_FAMILIES

from ..bots.levels import DEFAULT_LEVEL
from .limits import Limits
from .players import DEFAULT_LIMITS, bot_kinds, bot_levels


def installed(registry: Registry, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """Families, card sets with their cards, plugins, variants, bot levels (those the
    server's ``limits`` allow) and kinds, problems."""
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
    levels = bot_levels(registry, limits)
    kinds = bot_kinds(registry)
    offered = [level["name"] for level in levels]
    default = DEFAULT_LEVEL if DEFAULT_LEVEL in offered else (offered or kinds)[0]
    return {
        "families": list(COLOURS),
        "min_families": MIN_FAMILIES,
        "max_families": MAX_FAMILIES,
        "sets": sets,
        "plugins": plugins,
        "variants": variants,
        "levels": levels,
        "bots": kinds,
        # What the lobby first gives a bot's seat: the default level, if the caps allow it.
        "default_bot": default,
        "problems": registry.problems,
    }
