"""The Oracle, as a plugin: a card set, its ability and its own kind of question."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable

from oriflamme import Ability, DecisionKind, hookimpl

from .oracle import OMEN_KIND, Oracle


@hookimpl
def register_card_sets() -> Sequence[Traversable]:
    return [files("oriflamme_oracle") / "oracle.yaml"]


@hookimpl
def register_abilities() -> Mapping[str, Ability]:
    return {"oracle": Oracle()}


@hookimpl
def register_decision_kinds() -> Sequence[DecisionKind]:
    return [OMEN_KIND]


@hookimpl
def loadable_saves() -> bool:
    # Oracle.read checks its arguments and changes the game through its verbs only.
    return True
