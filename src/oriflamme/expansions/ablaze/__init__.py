"""Oriflamme: Ablaze's eleven cards, as a plugin.

Like the base set, it uses only the public hooks: the card data comes from
``cards/ablaze.yaml`` and each ability is one small module here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable

from oriflamme import Ability, DecisionKind, hookimpl

from .apothecary import Apothecary
from .bribery import Bribery
from .cutthroat import Cutthroat
from .felon import Felon
from .impersonation import Impersonation
from .plot import CHOOSE_KIND, Plot
from .prince import TWIN_KIND, Prince
from .queen import Queen
from .schemer import Schemer
from .trap import Trap
from .twin import Twin


@hookimpl
def register_card_sets() -> Sequence[Traversable]:
    return [files("oriflamme") / "cards" / "ablaze.yaml"]


@hookimpl
def register_abilities() -> Mapping[str, Ability]:
    return {
        "prince": Prince(),
        "twin": Twin(),
        "queen": Queen(),
        "cutthroat": Cutthroat(),
        "apothecary": Apothecary(),
        "felon": Felon(),
        "schemer": Schemer(),
        "impersonation": Impersonation(),
        "plot": Plot(),
        "trap": Trap(),
        "bribery": Bribery(),
    }


@hookimpl
def register_decision_kinds() -> Sequence[DecisionKind]:
    return [TWIN_KIND, CHOOSE_KIND]  # where the Prince puts the Twin; the Plot's tokens
