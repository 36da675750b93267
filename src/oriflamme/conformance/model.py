"""What a checked scenario holds, and the words of its format (docs/scenarios.md).

:mod:`.scenario` reads a file into these; :mod:`.position`, :mod:`.expect` and
:mod:`.runner` use them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from oriflamme import PILES, OriflammeError
from oriflamme.saves import LABEL
from oriflamme.yamlfile import YamlDocument


class ScenarioError(OriflammeError):
    """A scenario file that is not valid YAML or breaks the format."""


CARD_ID = LABEL  # a card id in a scenario is a card's label in the engine
SET_PATTERN = re.compile(r"[a-z][a-z0-9_]*")
MAX_COPY_DIGITS = 3  # a family holds a few copies of a card, never a thousand
TOP_KEYS = {"name", "source", "sets", "players", "variants", "state", "play", "expect"}
ZONES = PILES  # the per-family zones: hands, set_aside, reserve, discarded, eliminated
STATE_KEYS = {"round", "phase", "first_player", "influence", "queue", *ZONES, "resolving"}
EXPECT_KEYS = {"influence", "queue", *ZONES, "round", "phase", "next", "winner"}
PHASES = ("placement", "resolution")
CARD_KEYS = {"card", "up", "tokens", "owner"}
# The keys of an answer, and the decision kind they make (docs/scenarios.md, `play`).
ANSWER_FORMS: dict[frozenset[str], str] = {
    frozenset({"place", "at"}): "place",
    frozenset({"reveal"}): "reveal",
    frozenset({"target"}): "target",
    frozenset({"to"}): "move",
    frozenset({"at"}): "twin",
    frozenset({"choose"}): "choose",
}

Where = tuple[str | int, ...]


@attrs.frozen
class CardEntry:
    """One card of a queue entry: face, tokens and Bribery owner (None: no token)."""

    card: str
    up: bool = False
    tokens: int = 0
    owner: str | None = None


@attrs.frozen
class Step:
    """One step of ``play``: ``family`` answers a ``kind`` decision with ``answer``."""

    number: int  # 1-based, as a person counts steps
    family: str
    kind: str
    answer: Mapping[str, Any]
    error: bool
    where: str


@attrs.frozen
class Scenario:
    """A checked scenario. ``state`` and ``expect`` hold the keys the file gives,
    each value of its checked type (zones as tuples of card ids)."""

    path: str
    name: str
    source: str | None
    sets: tuple[str, ...]
    players: tuple[str, ...]
    variants: Mapping[str, Any]
    state: Mapping[str, Any]
    queue: tuple[tuple[CardEntry, ...], ...]
    steps: tuple[Step, ...]
    expect: Mapping[str, Any]
    expect_queue: tuple[tuple[CardEntry, ...], ...] | None
    doc: YamlDocument = attrs.field(repr=False, eq=False)
