"""Reading a scenario file and checking it against the format (docs/scenarios.md).

This module knows the file's shape: which keys exist, what each holds, how a
card, a stack and an answer are written. Whether the position it describes is a
legal one is for :mod:`.position` to say.

Every value is checked for its exact type before it is used (``true`` is not an
integer, ``1.0`` is not a queue index), so that a file of any shape gets one
:class:`ScenarioError` naming its line and what was expected. In ``state`` a zone,
a family's cards or the queue given as ``null`` is empty; in ``expect`` every key
given must hold a value, since an empty expectation would check nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oriflamme import FAMILY_PATTERN
from oriflamme.yamlfile import YamlDocument, parse_yaml, read_text, show

from .model import (
    ANSWER_FORMS,
    CARD_ID,
    CARD_KEYS,
    EXPECT_KEYS,
    MAX_COPY_DIGITS,
    PHASES,
    SET_PATTERN,
    STATE_KEYS,
    TOP_KEYS,
    ZONES,
    CardEntry,
    Scenario,
    ScenarioError,
    Step,
    Where,
)


def load_scenario(path: str | Path) -> Scenario:
    """Read and check one scenario file; any problem raises :class:`ScenarioError`.

    The file is read within the limits of :mod:`oriflamme.yamlfile` (size,
    line length, nesting, aliases, integers).
    """
    return parse_scenario(read_text(path, ScenarioError), str(path))


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    """Check one scenario given as text (``path`` names it in messages)."""
    return _Reader(parse_yaml(text, path, ScenarioError)).scenario()


def check_scenario(doc: YamlDocument) -> Scenario:
    """Check a scenario already read into ``doc`` (one sent as JSON, say): as a file is
    checked, each message naming ``doc.where`` of the value at fault."""
    return _Reader(doc).scenario()


#: The JSON type of each answer key, and how it is said: all an error step must match.
SHAPES: dict[str, tuple[type, str]] = {
    "place": (str, "a card id"),
    "at": (str, "a card id, first or last"),
    "reveal": (bool, "true or false"),
    "target": (str, "a card id"),
    "to": (int, "an integer (a queue index)"),
    "choose": (str, "an option name"),
}


def check_step(doc: YamlDocument, family: object, answer: object, players: tuple[str, ...]) -> Step:
    """Check one step, ``family`` answering ``answer``, for its shape only (as a step of
    ``play`` marked ``error`` is checked): what its values name is the engine's to judge.
    ``doc.where`` names its values as ``play``, 0, the family, then the answer's keys."""
    return _Reader(doc).steps([{family: answer}], players, shape_only=True)[0]


class _Reader:
    def __init__(self, doc: YamlDocument) -> None:
        self.doc = doc

    def fail(self, where: Where, message: str) -> ScenarioError:
        return ScenarioError(f"{self.doc.where(*where)}: {message}")

    def mapping(
        self, value: object, where: Where, allowed: set[str] | None, what: str, *, empty: bool
    ) -> Mapping[str, Any]:
        # None allows any name; null stands for an empty mapping where ``empty``.
        if value is None and empty:
            return {}
        if not isinstance(value, Mapping):
            raise self.fail(where, f"{what} must be a mapping, not {show(value)}")
        for key in value:
            if not isinstance(key, str) or (allowed is not None and key not in allowed):
                expected = ", ".join(sorted(allowed)) if allowed is not None else "names"
                raise self.fail(
                    (*where, str(key)),
                    f"unknown key {show(key)} in {what} (expected: {expected})",
                )
        return value

    def integer(self, value: object, where: Where, what: str, low: int, high: int | None) -> int:
        if type(value) is not int or value < low or (high is not None and value > high):
            wanted = (
                f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"
            )
            raise self.fail(where, f"{what} must be {wanted}, not {show(value)}")
        return value

    def scenario(self) -> Scenario:
        data = self.doc.data
        if not isinstance(data, Mapping):
            raise self.fail((), "a scenario must be a mapping with name, sets, players and state")
        top = self.mapping(data, (), TOP_KEYS, "the scenario", empty=False)
        for required in ("name", "sets", "players", "state"):
            if required not in top:
                raise self.fail((), f"missing required key {required!r}")
        name = top["name"]
        if not isinstance(name, str) or not name.strip() or "\n" in name.strip():
            raise self.fail(("name",), f"'name' must be one line of text, not {show(name)}")
        source = top.get("source")
        if source is not None and not isinstance(source, str):
            raise self.fail(("source",), f"'source' must be text, not {show(source)}")
        sets = self.names(top["sets"], ("sets",), "sets", SET_PATTERN)
        players = self.names(top["players"], ("players",), "players", FAMILY_PATTERN)
        variants = self.variants(top.get("variants"))
        raw_state = self.mapping(top["state"], ("state",), STATE_KEYS, "state", empty=True)
        raw_expect = self.mapping(top.get("expect"), ("expect",), EXPECT_KEYS, "expect", empty=True)
        queue = self.queue(raw_state.get("queue"), ("state", "queue"), empty=True)
        expect_queue = (
            self.queue(raw_expect["queue"], ("expect", "queue"), empty=False)
            if "queue" in raw_expect
            else None
        )
        state = self.state(raw_state, players, len(queue))
        expect = self.expect(raw_expect, players)
        return Scenario(
            path=self.doc.path,
            name=name.strip(),
            source=source,
            sets=sets,
            players=players,
            variants=variants,
            state=state,
            queue=queue,
            steps=self.steps(top.get("play"), players),
            expect=expect,
            expect_queue=expect_queue,
            doc=self.doc,
        )

    def names(
        self, value: object, where: Where, what: str, pattern: re.Pattern[str]
    ) -> tuple[str, ...]:
        if not isinstance(value, list) or not value:
            raise self.fail(where, f"'{what}' must be a non-empty list, not {show(value)}")
        for index, item in enumerate(value):
            # fullmatch: a pattern's `$` would let "red\n" through
            if not isinstance(item, str) or not pattern.fullmatch(item):
                raise self.fail(
                    (*where, index),
                    f"{show(item)} is not a valid name in '{what}' (a lowercase word)",
                )
        if len(set(value)) != len(value):
            raise self.fail(where, f"'{what}' names the same entry twice")
        return tuple(value)

    def variants(self, value: object) -> dict[str, Any]:
        variants = dict(self.mapping(value, ("variants",), None, "'variants'", empty=True))
        for name, chosen in variants.items():
            # Variant values are words, true/false or integers (core/variants.py).
            if type(chosen) not in (str, bool, int):
                raise self.fail(
                    ("variants", name),
                    f"variant {name!r} must be a word, true/false or an integer, "
                    f"not {show(chosen)}",
                )
        return variants

    def card_id(self, value: object, where: Where) -> str:
        match = CARD_ID.fullmatch(value) if isinstance(value, str) else None
        if match is None or not isinstance(value, str):
            raise self.fail(
                where, f"{show(value)} is not a card id like 'red.soldier' or 'red.soldier.2'"
            )
        if match.group(3) == "1":
            raise self.fail(where, f"{value!r}: the first copy of a card has no number")
        if match.group(3) is not None and len(match.group(3)) > MAX_COPY_DIGITS:
            raise self.fail(
                where, f"{show(value)}: a copy number has at most {MAX_COPY_DIGITS} digits"
            )
        return value

    def card(self, value: object, where: Where) -> CardEntry:
        if isinstance(value, str):
            return CardEntry(self.card_id(value, where))
        if isinstance(value, list):
            raise self.fail(where, "a stack cannot hold a stack: a card is an id or a mapping")
        entry = self.mapping(value, where, CARD_KEYS, "a queue card", empty=False)
        if "card" not in entry:
            raise self.fail(where, "a queue card written as a mapping needs 'card'")
        up = entry.get("up", False)
        owner = entry.get("owner")
        if not isinstance(up, bool):
            raise self.fail((*where, "up"), f"'up' must be true or false, not {show(up)}")
        tokens = self.integer(entry.get("tokens", 0), (*where, "tokens"), "'tokens'", 0, None)
        if owner is not None and not (isinstance(owner, str) and FAMILY_PATTERN.fullmatch(owner)):
            raise self.fail((*where, "owner"), f"'owner' must be a family, not {show(owner)}")
        return CardEntry(self.card_id(entry["card"], (*where, "card")), up, tokens, owner)

    def queue(
        self, value: object, where: Where, *, empty: bool
    ) -> tuple[tuple[CardEntry, ...], ...]:
        if value is None and empty:
            return ()
        if not isinstance(value, list):
            raise self.fail(where, f"'queue' must be a list of cards and stacks, not {show(value)}")
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

    def influence(
        self, value: object, where: Where, players: tuple[str, ...], *, empty: bool
    ) -> dict[str, int]:
        given = self.mapping(value, where, set(players), "'influence'", empty=empty)
        # RULINGS G7: Influence never goes below 0.
        return {
            family: self.integer(amount, (*where, family), f"{family}'s Influence", 0, None)
            for family, amount in given.items()
        }

    def zone(
        self, value: object, where: Where, players: tuple[str, ...], *, empty: bool
    ) -> dict[str, tuple[str, ...]]:
        mapping = self.mapping(value, where, set(players), f"'{where[-1]}'", empty=empty)
        zone: dict[str, tuple[str, ...]] = {}
        for family, listed in mapping.items():
            cards = [] if listed is None and empty else listed
            if not isinstance(cards, list):
                raise self.fail(
                    (*where, family),
                    f"{family}'s cards must be a list of card ids, not {show(cards)}",
                )
            zone[family] = tuple(self.card_id(c, (*where, family, i)) for i, c in enumerate(cards))
        return zone

    def section(
        self, given: Mapping[str, Any], where: Where, players: tuple[str, ...], *, empty: bool
    ) -> dict[str, Any]:
        """The keys that ``state`` and ``expect`` share, each checked for its type."""
        out: dict[str, Any] = {}
        for key in ("round", "phase", "influence", *ZONES):
            here, value = (*where, key), given.get(key)
            if key not in given:
                continue
            if key == "round":
                out[key] = self.integer(value, here, "'round'", 1, 6)
            elif key == "phase":
                if not isinstance(value, str) or value not in PHASES:
                    raise self.fail(
                        here, f"'phase' must be placement or resolution, not {show(value)}"
                    )
                out[key] = value
            elif key == "influence":
                out[key] = self.influence(value, here, players, empty=empty)
            else:
                out[key] = self.zone(value, here, players, empty=empty)
        return out

    def state(
        self, given: Mapping[str, Any], players: tuple[str, ...], length: int
    ) -> dict[str, Any]:
        where: Where = ("state",)
        state = self.section(given, where, players, empty=True)
        if "first_player" in given:
            first = given["first_player"]
            if not isinstance(first, str) or first not in players:
                raise self.fail(
                    (*where, "first_player"),
                    f"first_player must be one of the players, not {show(first)}",
                )
            state["first_player"] = first
        if "resolving" in given:
            if state.get("phase", "placement") != "resolution":
                raise self.fail(
                    (*where, "resolving"), "'resolving' is only for the resolution phase"
                )
            state["resolving"] = self.integer(
                given["resolving"], (*where, "resolving"), "'resolving' (a queue index)", 0, length
            )
        return state

    def expect(self, given: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
        where: Where = ("expect",)
        expect = self.section(given, where, players, empty=False)
        if "next" in given:
            expect["next"] = self.next(given["next"], (*where, "next"), players)
        if "winner" in given:
            winner = given["winner"]
            winners = winner if isinstance(winner, list) else [winner]
            if not winners or any(not isinstance(w, str) or w not in players for w in winners):
                raise self.fail(
                    (*where, "winner"),
                    "'winner' must be a family, or a list of families, of the players, "
                    f"not {show(winner)}",
                )
            expect["winner"] = winner
        return expect

    def next(self, value: object, where: Where, players: tuple[str, ...]) -> str | dict[str, str]:
        if value == "end":
            return "end"
        if isinstance(value, Mapping) and len(value) == 1:
            family, kind = next(iter(value.items()))
            if family in players and isinstance(kind, str) and kind in ANSWER_FORMS.values():
                return {family: kind}
        raise self.fail(
            where,
            "'next' must be 'end' or one family and a decision kind, like {blue: reveal}, "
            f"not {show(value)}",
        )

    def steps(
        self, value: object, players: tuple[str, ...], *, shape_only: bool = False
    ) -> tuple[Step, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(("play",), f"'play' must be a list of steps, not {show(value)}")
        steps = []
        for index, item in enumerate(value):
            here: Where = ("play", index)
            if not isinstance(item, Mapping) or len(item) != 1:
                raise self.fail(
                    here, "a step is one family and its answer, like '- red: {reveal: true}'"
                )
            family, answer = next(iter(item.items()))
            if not isinstance(family, str) or family not in players:
                raise self.fail(here, f"{show(family)} is not one of the players")
            if not isinstance(answer, Mapping):
                raise self.fail(
                    here,
                    f"{family}'s answer must be a mapping like {{reveal: true}}, "
                    f"not {show(answer)}",
                )
            error = answer.get("error", False)
            if not isinstance(error, bool):
                raise self.fail((*here, family, "error"), "'error' must be true or false")
            keys = frozenset(str(k) for k in answer if k != "error")
            kind = ANSWER_FORMS.get(keys) if all(isinstance(k, str) for k in answer) else None
            if kind is None:
                raise self.fail(
                    (*here, family),
                    f"{sorted(keys)} is not an answer: expected "
                    "place+at, reveal, target, to, at or choose",
                )
            self.check_answer(kind, answer, (*here, family), shape_only=error or shape_only)
            given = {k: v for k, v in answer.items() if k != "error"}
            steps.append(Step(index + 1, family, kind, given, error, self.doc.where(*here)))
        return tuple(steps)

    def answer_shape(self, answer: Mapping[str, Any], where: Where) -> None:
        """Each value of ``answer`` of the JSON type its key takes."""
        for key, value in answer.items():
            if key == "error":
                continue
            wanted = SHAPES[key]
            # A bool is no queue index, though Python counts it an int.
            fits = type(value) is int if key == "to" else isinstance(value, wanted[0])
            if not fits:
                raise self.fail((*where, key), f"'{key}' must be {wanted[1]}, not {show(value)}")

    def check_answer(
        self, kind: str, answer: Mapping[str, Any], where: Where, *, shape_only: bool = False
    ) -> None:
        if shape_only:
            # A step the engine must refuse needs only the decision's shape: its value
            # may be anything a hostile client could send (to: -1, a card in no zone),
            # and it is the engine's to refuse, not the file's.
            self.answer_shape(answer, where)
            return
        if kind == "place":
            self.card_id(answer["place"], (*where, "place"))
        if kind in ("place", "twin"):
            at = answer["at"]
            if at not in ("first", "last"):
                self.card_id(at, (*where, "at"))
        elif kind == "reveal" and not isinstance(answer["reveal"], bool):
            raise self.fail(
                (*where, "reveal"), f"'reveal' must be true or false, not {show(answer['reveal'])}"
            )
        elif kind == "target":
            self.card_id(answer["target"], (*where, "target"))
        elif kind == "move":
            self.integer(answer["to"], (*where, "to"), "'to' (a queue index)", 0, None)
        elif kind == "choose" and not isinstance(answer["choose"], str):
            chosen = answer["choose"]
            # YAML 1.1 reads yes, no, on, off (and true, false) as booleans: the
            # author meant the word, which must be quoted to stay one.
            hint = (
                f"; YAML reads an unquoted yes, no, on or off as {show(chosen)}: quote the "
                'word, as in {choose: "yes"}'
                if isinstance(chosen, bool)
                else ""
            )
            raise self.fail(
                (*where, "choose"), f"'choose' must be an option name, not {show(chosen)}{hint}"
            )
