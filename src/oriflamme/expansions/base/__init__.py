"""The base game's ten cards, as a plugin.

It uses only the public hooks, exactly as a third-party set would: the card
data comes from ``cards/base.yaml`` and each ability is one small module here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable

from oriflamme import Ability, DecisionKind, Variant, hookimpl

from .ambush import OWN_ELIMINATION, Ambush
from .archer import Archer
from .assassination import Assassination
from .conspiracy import Conspiracy
from .heir import Heir
from .lord import Lord
from .royal_decree import MOVE_KIND, RoyalDecree
from .shapeshifter import Shapeshifter
from .soldier import Soldier
from .spy import Spy


@hookimpl
def register_card_sets() -> Sequence[Traversable]:
    return [files("oriflamme") / "cards" / "base.yaml"]


@hookimpl
def register_abilities() -> Mapping[str, Ability]:
    return {
        "archer": Archer(),
        "soldier": Soldier(),
        "spy": Spy(),
        "heir": Heir(),
        "assassination": Assassination(),
        "royal_decree": RoyalDecree(),
        "lord": Lord(),
        "shapeshifter": Shapeshifter(),
        "ambush": Ambush(),
        "conspiracy": Conspiracy(),
    }


@hookimpl
def register_variants() -> Sequence[Variant]:
    return [OWN_ELIMINATION]


@hookimpl
def register_decision_kinds() -> Sequence[DecisionKind]:
    return [MOVE_KIND]  # the Royal Decree's destination
