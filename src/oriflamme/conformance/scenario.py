"""Reading a scenario file and checking it against the format (FORMAT.md).

This module knows the file's shape: which keys exist, what each holds, how a
card, a stack and an answer are written. Whether the position it describes is a
legal one is for :mod:`.position` to say.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from ..core.config import FAMILY_PATTERN
from ..core.errors import OriflammeError
from ..core.position import LABEL
from ..core.state import PILES
from ..core.yamlfile import YamlDocument, parse_yaml


class ScenarioError(OriflammeError):
    """A scenario file that is not valid YAML or breaks the format."""


CARD_ID = LABEL  # a card id in a scenario is a card's label in the engine
TOP_KEYS = {"name", "source", "sets", "players", "variants", "state", "play", "expect"}
ZONES = PILES  # the per-family zones: hands, set_aside, reserve, discarded, eliminated
STATE_KEYS = {"round", "phase", "first_player", "influence", "queue", *ZONES, "resolving"}
EXPECT_KEYS = {"influence", "queue", *ZONES, "round", "phase", "next", "winner"}
PHASES = ("placement", "resolution")
CARD_KEYS = {"card", "up", "tokens", "owner"}
# The keys of an answer, and the decision kind they make (FORMAT.md, `play`).
ANSWER_FORMS: dict[frozenset[str], str] = {
    frozenset({"place", "at"}): "place",
    frozenset({"reveal"}): "reveal",
    frozenset({"target"}): "target",
    frozenset({"to"}): "move",
    frozenset({"at"}): "twin",
    frozenset({"choose"}): "choose",
}


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


def load_scenario(path: str | Path) -> Scenario:
    """Read and check one scenario file; any problem raises :class:`ScenarioError`."""
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read: {exc.strerror}") from None
    return parse_scenario(text, path)


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    """Check one scenario given as text (``path`` names it in messages)."""
    return _Reader(parse_yaml(text, path, ScenarioError)).scenario()


class _Reader:
    def __init__(self, doc: YamlDocument) -> None:
        self.doc = doc

    def fail(self, where: tuple[str | int, ...], message: str) -> ScenarioError:
        return ScenarioError(f"{self.doc.where(*where)}: {message}")

    def mapping(
        self, value: object, where: tuple[str | int, ...], allowed: set[str], what: str
    ) -> Mapping[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise self.fail(where, f"{what} must be a mapping, not {type(value).__name__}")
        unknown = sorted(str(k) for k in value if k not in allowed)
        if unknown:
            raise self.fail(
                (*where, unknown[0]),
                f"unknown key {unknown[0]!r} in {what} (expected: {', '.join(sorted(allowed))})",
            )
        return value

    def scenario(self) -> Scenario:
        data = self.doc.data
        if not isinstance(data, Mapping):
            raise self.fail((), "a scenario must be a mapping with name, sets, players and state")
        top = self.mapping(data, (), TOP_KEYS, "the scenario")
        for required in ("name", "sets", "players", "state"):
            if required not in top:
                raise self.fail((), f"missing required key {required!r}")
        name = top["name"]
        if not isinstance(name, str) or not name.strip() or "\n" in name.strip():
            raise self.fail(("name",), "'name' must be one line of text")
        source = top.get("source")
        if source is not None and not isinstance(source, str):
            raise self.fail(("source",), "'source' must be text")
        sets = self.names(top["sets"], ("sets",), "sets", r"^[a-z][a-z0-9_]*$")
        players = self.names(top["players"], ("players",), "players", FAMILY_PATTERN.pattern)
        variants = self.mapping(
            top.get("variants"), ("variants",), set(top.get("variants") or {}), "variants"
        )
        state = self.mapping(top["state"], ("state",), STATE_KEYS, "state")
        expect = self.mapping(top.get("expect"), ("expect",), EXPECT_KEYS, "expect")
        queue = self.queue(state.get("queue"), ("state", "queue"))
        expect_queue = (
            self.queue(expect["queue"], ("expect", "queue")) if "queue" in expect else None
        )
        self.check_state(state, players)
        self.check_expect(expect, players)
        return Scenario(
            path=self.doc.path,
            name=name.strip(),
            source=source,
            sets=sets,
            players=players,
            variants=dict(variants),
            state=state,
            queue=queue,
            steps=self.steps(top.get("play"), players),
            expect=expect,
            expect_queue=expect_queue,
            doc=self.doc,
        )

    def names(
        self, value: object, where: tuple[str | int, ...], what: str, pattern: str
    ) -> tuple[str, ...]:
        if not isinstance(value, list) or not value:
            raise self.fail(where, f"'{what}' must be a non-empty list")
        for index, item in enumerate(value):
            if not isinstance(item, str) or not re.match(pattern, item):
                raise self.fail((*where, index), f"{item!r} is not a valid name in '{what}'")
        if len(set(value)) != len(value):
            raise self.fail(where, f"'{what}' names the same entry twice")
        return tuple(value)

    def card_id(self, value: object, where: tuple[str | int, ...]) -> str:
        match = CARD_ID.match(value) if isinstance(value, str) else None
        if match is None or not isinstance(value, str):
            raise self.fail(
                where, f"{value!r} is not a card id like 'red.soldier' or 'red.soldier.2'"
            )
        if match.group(3) == "1":
            raise self.fail(where, f"{value!r}: the first copy of a card has no number")
        return value

    def card(self, value: object, where: tuple[str | int, ...]) -> CardEntry:
        if isinstance(value, str):
            return CardEntry(self.card_id(value, where))
        entry = self.mapping(value, where, CARD_KEYS, "a queue card")
        if "card" not in entry:
            raise self.fail(where, "a queue card written as a mapping needs 'card'")
        up = entry.get("up", False)
        tokens = entry.get("tokens", 0)
        owner = entry.get("owner")
        if not isinstance(up, bool):
            raise self.fail((*where, "up"), f"'up' must be true or false, not {up!r}")
        if type(tokens) is not int or tokens < 0:
            raise self.fail((*where, "tokens"), f"'tokens' must be an integer >= 0, not {tokens!r}")
        if owner is not None and not (isinstance(owner, str) and FAMILY_PATTERN.match(owner)):
            raise self.fail((*where, "owner"), f"'owner' must be a family, not {owner!r}")
        return CardEntry(self.card_id(entry["card"], (*where, "card")), up, tokens, owner)

    def queue(
        self, value: object, where: tuple[str | int, ...]
    ) -> tuple[tuple[CardEntry, ...], ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(where, "'queue' must be a list of cards and stacks")
        stacks = []
        for index, entry in enumerate(value):
            here = (*where, index)
            if isinstance(entry, list):
                if len(entry) < 2:
                    raise self.fail(here, "a stack is a list of two or more cards, bottom first")
                stacks.append(tuple(self.card(c, (*here, i)) for i, c in enumerate(entry)))
            else:
                stacks.append((self.card(entry, here),))
        return tuple(stacks)

    def families_map(
        self, value: object, where: tuple[str | int, ...], players: tuple[str, ...]
    ) -> Mapping[str, Any]:
        mapping = self.mapping(value, where, set(players), "'" + str(where[-1]) + "'")
        return mapping

    def check_state(self, state: Mapping[str, Any], players: tuple[str, ...]) -> None:
        where: tuple[str | int, ...] = ("state",)
        round_ = state.get("round", 1)
        if type(round_) is not int or not 1 <= round_ <= 6:
            raise self.fail((*where, "round"), f"'round' must be 1 to 6, not {round_!r}")
        phase = state.get("phase", "placement")
        if phase not in PHASES:
            raise self.fail(
                (*where, "phase"), f"'phase' must be placement or resolution, not {phase!r}"
            )
        first = state.get("first_player", players[0])
        if first not in players:
            raise self.fail(
                (*where, "first_player"), f"first_player {first!r} is not one of the players"
            )
        influence = self.families_map(state.get("influence"), (*where, "influence"), players)
        for family, amount in influence.items():
            if type(amount) is not int or amount < 0:
                raise self.fail(
                    (*where, "influence", family),
                    f"{family}'s Influence must be an integer >= 0, not {amount!r}",
                )
        for zone in ZONES:
            self.zone(state.get(zone), (*where, zone), players)
        if "resolving" in state:
            resolving = state["resolving"]
            if phase != "resolution":
                raise self.fail(
                    (*where, "resolving"), "'resolving' is only for the resolution phase"
                )
            length = len(state.get("queue") or [])
            if type(resolving) is not int or not 0 <= resolving <= length:
                raise self.fail(
                    (*where, "resolving"),
                    f"'resolving' must be a queue index from 0 to {length}, not {resolving!r}",
                )

    def zone(
        self, value: object, where: tuple[str | int, ...], players: tuple[str, ...]
    ) -> dict[str, tuple[str, ...]]:
        mapping = self.families_map(value, where, players)
        zone: dict[str, tuple[str, ...]] = {}
        for family, listed in mapping.items():
            cards = [] if listed is None else listed
            if not isinstance(cards, list):
                raise self.fail((*where, family), f"{family}'s cards must be a list of card ids")
            zone[family] = tuple(self.card_id(c, (*where, family, i)) for i, c in enumerate(cards))
        return zone

    def check_expect(self, expect: Mapping[str, Any], players: tuple[str, ...]) -> None:
        where: tuple[str | int, ...] = ("expect",)
        for family, amount in self.families_map(
            expect.get("influence"), (*where, "influence"), players
        ).items():
            if type(amount) is not int:
                raise self.fail((*where, "influence", family), "Influence must be an integer")
        for zone in ZONES:
            self.zone(expect.get(zone), (*where, zone), players)
        if "round" in expect and (type(expect["round"]) is not int):
            raise self.fail((*where, "round"), "'round' must be an integer")
        if "phase" in expect and expect["phase"] not in PHASES:
            raise self.fail((*where, "phase"), "'phase' must be placement or resolution")
        if "next" in expect:
            nxt = expect["next"]
            if nxt != "end":
                ask = self.mapping(nxt, (*where, "next"), set(players), "'next'")
                if len(ask) != 1 or next(iter(ask.values())) not in ANSWER_FORMS.values():
                    raise self.fail(
                        (*where, "next"),
                        "'next' must be 'end' or one "
                        "family and a decision kind, like {blue: reveal}",
                    )
        if "winner" in expect:
            winner = expect["winner"]
            winners = winner if isinstance(winner, list) else [winner]
            if not winners or any(w not in players for w in winners):
                raise self.fail(
                    (*where, "winner"),
                    "'winner' must be a family, or a list of families, of the players",
                )

    def steps(self, value: object, players: tuple[str, ...]) -> tuple[Step, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(("play",), "'play' must be a list of steps")
        steps = []
        for index, item in enumerate(value):
            here: tuple[str | int, ...] = ("play", index)
            if not isinstance(item, Mapping) or len(item) != 1:
                raise self.fail(
                    here, "a step is one family and its answer, like '- red: {reveal: true}'"
                )
            family, answer = next(iter(item.items()))
            if family not in players:
                raise self.fail(here, f"{family!r} is not one of the players")
            if not isinstance(answer, Mapping):
                raise self.fail(here, f"{family}'s answer must be a mapping like {{reveal: true}}")
            error = answer.get("error", False)
            if not isinstance(error, bool):
                raise self.fail((*here, family, "error"), "'error' must be true or false")
            keys = frozenset(k for k in answer if k != "error")
            kind = ANSWER_FORMS.get(keys)
            if kind is None:
                raise self.fail(
                    (*here, family),
                    f"{sorted(keys)} is not an answer: expected "
                    "place+at, reveal, target, to, at or choose",
                )
            self.check_answer(kind, answer, (*here, family))
            steps.append(
                Step(
                    index + 1,
                    family,
                    kind,
                    {k: v for k, v in answer.items() if k != "error"},
                    error,
                    self.doc.where(*here),
                )
            )
        return tuple(steps)

    def check_answer(
        self, kind: str, answer: Mapping[str, Any], where: tuple[str | int, ...]
    ) -> None:
        if kind == "place":
            self.card_id(answer["place"], (*where, "place"))
        if kind in ("place", "twin"):
            at = answer["at"]
            if at not in ("first", "last"):
                self.card_id(at, (*where, "at"))
        elif kind == "reveal" and not isinstance(answer["reveal"], bool):
            raise self.fail((*where, "reveal"), "'reveal' must be true or false")
        elif kind == "target":
            self.card_id(answer["target"], (*where, "target"))
        elif kind == "move" and type(answer["to"]) is not int:
            raise self.fail((*where, "to"), "'to' must be a queue index")
        elif kind == "choose" and not isinstance(answer["choose"], str):
            raise self.fail((*where, "choose"), "'choose' must be an option name")
