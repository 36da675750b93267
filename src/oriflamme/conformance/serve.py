"""``oriflamme engine``: this project's engine, speaking docs/engine-protocol.md on
stdin and stdout.

Each request line gets exactly one reply line, whatever it holds: a request that is
not JSON, too long, or names what the engine does not know gets an error reply with
its code, and the engine reads on. Only the end of stdin or ``quit`` ends it. A
position is checked as a scenario's is (:mod:`.scenario`, :mod:`.position`), each
message naming the request's field at fault, like ``state.queue[1]``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
from typing import Any, BinaryIO

import attrs

from oriflamme import ConfigError, OriflammeError, PositionError, Registry
from oriflamme.saves import LABEL
from oriflamme.yamlfile import Key, YamlDocument, show

from .engines import LocalEngine
from .model import ZONES, Scenario, ScenarioError, Step
from .position import build_game
from .protocol import (
    BAD_REQUEST,
    ENGINE_ERROR,
    ILLEGAL_ANSWER,
    ILLEGAL_POSITION,
    MAX_LINE,
    PROTOCOL_VERSION,
    UNKNOWN_CARD,
    UNSUPPORTED,
    VERSION,
    EngineRefused,
    Next,
    ProtocolError,
    decode,
    encode,
    error_reply,
    read_line,
    table_json,
)
from .scenario import check_scenario, check_step

OPS = ("hello", "load", "decision", "answer", "state", "options", "quit")


@attrs.frozen
class RequestDocument(YamlDocument):
    """A request's data, its values named by their path in the request
    (``state.queue[1]``) where a file's would be named by their line."""

    def where(self, *keys: Key) -> str:
        if keys[:1] == ("play",):  # a step is play[0].<family>; here it is the answer
            keys = ("answer", *keys[3:])
        path = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in keys)
        return path.lstrip(".") or "the request"


def engine_name() -> str:
    try:
        return f"oriflamme {importlib.metadata.version('oriflamme')}"
    except importlib.metadata.PackageNotFoundError:  # run from a source tree
        return "oriflamme"


class Session:
    """One engine's conversation: the handshake, then the game loaded last."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.greeted = False
        self.engine: LocalEngine | None = None
        self.players: tuple[str, ...] = ()

    def handle(self, line: bytes) -> tuple[dict[str, Any], bool]:
        """The reply to one request line, and whether the conversation is over."""
        try:
            request = decode(line)
        except ProtocolError as exc:
            return error_reply(None, BAD_REQUEST, f"the request is {exc}"), False
        ident = request.get("id")
        if type(ident) is not int:
            return error_reply(None, BAD_REQUEST, "a request needs an integer 'id'"), False
        op = request.get("op")
        try:
            fields = self.perform(op, request)
        except EngineRefused as refused:
            return error_reply(ident, refused.code, refused.message), False
        except Exception as exc:  # the last net: every request gets its reply
            message = f"internal error: {type(exc).__name__}: {exc}"
            return error_reply(ident, ENGINE_ERROR, message), False
        return {"id": ident, "ok": True, **fields}, op == "quit"

    def perform(self, op: object, request: dict[str, Any]) -> dict[str, Any]:
        if op == "hello":
            return self.hello(request.get("protocol"))
        if op not in OPS:
            raise EngineRefused(
                UNSUPPORTED, f"no op {show(op)}: this engine knows {', '.join(OPS)}"
            )
        if not self.greeted:
            raise EngineRefused(BAD_REQUEST, f"say hello first (protocol {PROTOCOL_VERSION})")
        if op == "quit":
            return {}
        if op == "load":
            self.load(request)
            return {}
        engine = self.engine
        if engine is None:
            raise EngineRefused(BAD_REQUEST, "no position is loaded: send load first")
        if op == "decision":
            return {"next": engine.decision()}
        if op == "state":
            return {"state": table_json(engine.table())}
        if op == "options":
            return {"options": list(engine.options())}
        family = request.get("family")
        if not isinstance(family, str):
            raise EngineRefused(BAD_REQUEST, f"'family' must be a family, not {show(family)}")
        try:
            step = check_step(
                RequestDocument("", None, None), family, request.get("answer"), self.players
            )
        except ScenarioError as exc:
            raise EngineRefused(BAD_REQUEST, str(exc)) from None
        asked = engine.decision()
        try:
            engine.answer(step)
        except EngineRefused as refused:
            raise EngineRefused(refused.code, _refusal(step, asked, refused)) from None
        return {}

    def hello(self, protocol: object) -> dict[str, Any]:
        if protocol != PROTOCOL_VERSION or type(protocol) is not int:
            raise EngineRefused(
                VERSION, f"this engine speaks protocol {PROTOCOL_VERSION}, not {show(protocol)}"
            )
        self.greeted = True
        return {"protocol": PROTOCOL_VERSION, "engine": engine_name()}

    def load(self, request: dict[str, Any]) -> None:
        self.engine = None  # a refused position leaves no game behind
        data = {"name": "load", "variants": {}}
        data.update(
            {
                key: request[key]
                for key in ("sets", "players", "variants", "state")
                if key in request
            }
        )
        try:
            scenario = check_scenario(RequestDocument("", data, None))
        except ScenarioError as exc:
            raise EngineRefused(BAD_REQUEST, str(exc)) from None
        try:
            rules = self.registry.rules(scenario.sets, {})
            self.registry.rules(scenario.sets, scenario.variants)
        except ConfigError as exc:
            raise EngineRefused(UNSUPPORTED, str(exc)) from None
        for card in _cards(scenario):
            match = LABEL.match(card)
            if match is not None and match.group(2) not in rules.definitions:
                raise EngineRefused(
                    UNKNOWN_CARD,
                    f"{card}: no card {match.group(2)!r} in the sets {', '.join(scenario.sets)}",
                )
        try:
            game = build_game(scenario, self.registry)
        except PositionError as exc:
            raise EngineRefused(ILLEGAL_POSITION, str(exc)) from None
        except OriflammeError as exc:
            raise EngineRefused(ENGINE_ERROR, str(exc)) from None
        self.engine = LocalEngine(self.registry, game)
        self.players = scenario.players


def _refusal(step: Step, asked: Next, refused: EngineRefused) -> str:
    """The message of a refused answer, in the notation (docs/rulings.md P4: the answer
    as sent, and what was expected): the rules word an answer of the wrong kind in their
    own terms, an internal card index among them. An "error" key is the scenario's
    marker, never sent, and ignored as any unknown key is."""
    if refused.code != ILLEGAL_ANSWER:
        return refused.message
    sent = json.dumps(dict(step.answer), separators=(", ", ": "))
    if asked == "end":
        return f"{step.family}: {sent}: the game is over, no answer is asked"
    if isinstance(asked, dict) and step.kind not in asked.values():
        ((whom, kind),) = asked.items()
        return f"{step.family}: {sent} answers a {step.kind}, but the game asks {{{whom}: {kind}}}"
    return refused.message


def _cards(scenario: Scenario) -> list[str]:
    cards = [entry.card for stack in scenario.queue for entry in stack]
    for zone in ZONES:
        for listed in scenario.state.get(zone, {}).values():
            cards.extend(listed)
    return cards


def serve(requests: BinaryIO, replies: BinaryIO, registry: Registry) -> int:
    """Answer ``requests`` line by line until their end or ``quit``; 0."""
    session = Session(registry)
    while True:
        line = read_line(requests, MAX_LINE, skip=True)
        if line == b"":
            return 0
        if line is None:
            message = f"a request line is at most {MAX_LINE} bytes, newline included"
            reply, done = error_reply(None, BAD_REQUEST, message), False
        else:
            reply, done = session.handle(line)
        replies.write(encode(reply))
        replies.flush()
        if done:
            return 0


def engine_command(args: argparse.Namespace, registry: Registry) -> int:
    """``oriflamme engine``: serve the protocol on stdin and stdout."""
    return serve(sys.stdin.buffer, sys.stdout.buffer, registry)
