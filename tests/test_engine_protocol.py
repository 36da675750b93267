"""The engine protocol (docs/engine-protocol.md): ``oriflamme engine`` answers every
request as the page says, and ``oriflamme conformance --engine CMD`` runs the suite
against any program that speaks it, as it runs it in-process, surviving an engine
that dies, hangs or prints garbage; a toy engine in Node.js (tests/test_toy_engine.py)
proves it language-neutral.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from oriflamme import AbilityError, OriflammeError, Registry
from oriflamme.cli import main
from oriflamme.conformance import engines, find_scenarios, run_file, serve
from oriflamme.conformance.engines import LocalEngine
from oriflamme.conformance.expect import differences
from oriflamme.conformance.model import Step
from oriflamme.conformance.position import build_game, checked_position
from oriflamme.conformance.protocol import (
    ILLEGAL_ANSWER,
    MAX_LINE,
    EngineRefused,
    ProtocolError,
    decode,
    encode,
    load_state,
    printable,
    read_line,
    read_next,
    read_options,
    read_table,
)
from oriflamme.conformance.remote import MAX_BREAKS_IN_A_ROW, EngineBroken, RemoteEngine
from oriflamme.conformance.scenario import load_scenario, parse_scenario

from .conftest import ROOT, SHARED
from .test_conformance import BASE  # the same small scenario, run through an engine

PYTHON = shlex.quote(sys.executable)
OUR_ENGINE = f"{PYTHON} -m oriflamme engine --no-plugins"
SUITE = ROOT / "tests" / "conformance"
EXAMPLES = SHARED / "conformance" / "examples"


# The state of BASE as a load request carries it.
STATE: dict[str, Any] = {
    "round": 2,
    "phase": "resolution",
    "queue": ["blue.spy", {"card": "red.soldier", "up": True}],
    "hands": {"red": ["red.heir"], "blue": ["blue.heir"], "green": ["green.heir"]},
}
HELLO = {"id": 1, "op": "hello", "protocol": 1}


def load(ident: int = 2, **changes: Any) -> dict[str, Any]:
    request = {"id": ident, "op": "load", "sets": ["base"], "players": ["red", "blue", "green"]}
    request["state"] = STATE
    request.update(changes)
    return request


def talk(registry: Registry, *requests: dict[str, Any] | bytes) -> list[dict[str, Any]]:
    """Our engine's replies to ``requests`` (a bytes request is sent as it is)."""
    lines = b"".join(r if isinstance(r, bytes) else encode(r) for r in requests)
    replies = BytesIO()
    assert serve.serve(BytesIO(lines), replies, registry) == 0
    return [json.loads(line) for line in replies.getvalue().splitlines()]


# Our engine's side: every op, every error code.


def test_hello_names_the_protocol_and_the_engine(registry: Registry) -> None:
    [reply] = talk(registry, HELLO)
    assert reply["id"] == 1
    assert reply["ok"] is True
    assert reply["protocol"] == 1
    assert reply["engine"].startswith("oriflamme")


def test_a_game_is_loaded_asked_answered_and_read_back(registry: Registry) -> None:
    replies = talk(
        registry,
        HELLO,
        load(),
        {"id": 3, "op": "decision"},
        {"id": 4, "op": "answer", "family": "blue", "answer": {"reveal": False}},
        {"id": 5, "op": "decision"},
        {"id": 6, "op": "state"},
        {"id": 7, "op": "quit"},
        {"id": 8, "op": "state"},  # after quit: never read
    )
    assert [r["id"] for r in replies] == [1, 2, 3, 4, 5, 6, 7]
    assert all(r["ok"] for r in replies), replies
    assert replies[2]["next"] == {"blue": "reveal"}
    # The Soldier, face up, eliminates its neighbour the Spy (red gains 1), and round 3
    # starts with the next first player.
    assert replies[4]["next"] == {"blue": "place"}
    state = replies[5]["state"]
    assert state["round"] == 3
    assert state["phase"] == "placement"
    assert state["queue"] == [{"card": "red.soldier", "up": True}]
    assert state["eliminated"] == {"red": [], "blue": ["blue.spy"], "green": []}
    assert state["hands"] == {"red": ["red.heir"], "blue": ["blue.heir"], "green": ["green.heir"]}
    assert state["influence"] == {"red": 2, "blue": 1, "green": 1}
    assert set(state) == {"round", "phase", "influence", "queue", "hands", "set_aside"} | {
        "reserve",
        "discarded",
        "eliminated",
    }


def answer(ident: int, family: object, given: object) -> dict[str, Any]:
    return {"id": ident, "op": "answer", "family": family, "answer": given}


@pytest.mark.parametrize(
    ("request_", "code", "message"),
    [
        (b"garbage\n", "bad_request", "the request is not JSON: 'garbage'"),
        (b"[1, 2]\n", "bad_request", "the request is not a JSON object"),
        ({"op": "decision"}, "bad_request", "a request needs an integer 'id'"),
        ({"id": 3, "op": "dance"}, "unsupported", "no op 'dance': this engine knows hello, load"),
        ({"id": 3, "op": "hello", "protocol": 2}, "version", "speaks protocol 1, not 2"),
        (load(3, sets=["moon"]), "unsupported", "moon"),
        (load(3, variants={"no_such_rule": True}), "unsupported", "no_such_rule"),
        (load(3, state={"hands": {"red": ["red.dragon"]}}), "unknown_card", "no card 'dragon'"),
        (
            load(3, state={"queue": ["blue.spy", "blue.spy"]}),
            "illegal_position",
            "state.queue[1]: blue.spy is already at state.queue[0]",
        ),
        (
            load(3, state={"queue": [{"card": "blue.ambush", "up": True}]}),
            "illegal_position",
            "blue.ambush cannot be face up in the queue",
        ),
        (
            load(3, players=["red", "blue"], state={}),
            "illegal_position",
            "players: a game needs 3 to 5 families, not 2",
        ),
        (load(3, state=None, sets=None), "bad_request", "'sets' must be a non-empty list"),
        (load(3, state={"queue": "all"}), "bad_request", "state.queue: 'queue' must be a list"),
        (answer(3, "blue", {"target": "blue.dragon"}), "unknown_card", "blue.dragon"),
        (
            answer(3, "blue", {"target": "red.soldier"}),
            "illegal_answer",
            'blue: {"target": "red.soldier"} answers a target, but the game asks {blue: reveal}',
        ),
        (
            answer(3, "blue", {"place": "blue.heir", "at": "first"}),
            "illegal_answer",
            'blue: {"place": "blue.heir", "at": "first"} answers a place, but the game asks',
        ),
        (answer(3, "red", {"reveal": True}), "illegal_answer", "blue's turn to answer a reveal"),
        (answer(3, "blue", {"dance": True}), "bad_request", "answer: ['dance'] is not an answer"),
        (answer(3, "blue", {"reveal": "yes"}), "bad_request", "answer.reveal: 'reveal' must be"),
        (answer(3, "pink", {"reveal": True}), "bad_request", "'pink' is not one of the players"),
        (answer(3, ["blue"], {"reveal": True}), "bad_request", "'family' must be a family"),
    ],
)
def test_each_error_reply_names_its_code_and_the_problem(
    registry: Registry, request_: dict[str, Any] | bytes, code: str, message: str
) -> None:
    *_, reply = talk(registry, HELLO, load(), request_)
    assert reply["ok"] is False
    assert reply["error"]["code"] == code
    assert message in reply["error"]["message"], reply
    ident = request_.get("id") if isinstance(request_, dict) else None
    assert reply["id"] == ident


def _state(**changes: Any) -> dict[str, Any]:
    return {**STATE, **changes}


#: docs/engine-protocol.md, "Which code, exactly": each example of its table, with the
#: code the page gives it (after a hello and BASE's load: blue is asked a reveal).
DOCUMENTED: list[tuple[dict[str, Any], str]] = [
    *[
        ({"id": 3, "op": "hello", **protocol}, "version")
        for protocol in ({"protocol": 2}, {"protocol": True}, {"protocol": 1.0})
        + ({"protocol": "1"}, {"protocol": None}, {})
    ],
    *[
        (load(3, state=_state(**change)), "bad_request")
        for change in (
            {"bogus": 1},
            {"influence": {"red": -1}},
            {"influence": {"red": 1.5}},
            {"round": 9},
            {"phase": "end"},
            {"queue": [{"card": "blue.spy", "tokens": -1}]},
            {"queue": [{"card": "blue.spy", "up": "yes"}]},
            {"queue": ["red.heir.1"]},
            {"queue": [["blue.spy"]]},
            {"first_player": "purple"},
            {"influence": {"purple": 1}},
            {"resolving": 3},
            {"phase": "placement", "resolving": 0},
        )
    ],
    (load(3, sets=[]), "bad_request"),
    ({"id": 3, "op": "load", "sets": ["base"], "players": ["red", "blue", "green"]}, "bad_request"),
    (load(3, sets=["moon"]), "unsupported"),
    (load(3, variants={"no_such_rule": 1}), "unsupported"),
    (load(3, variants={"ambush_own_elimination": "weird"}), "unsupported"),
    (load(3, state=_state(queue=["red.dragon"])), "unknown_card"),
    *[
        (load(3, state=_state(**change)), "illegal_position")
        for change in (
            {"queue": ["blue.spy", "blue.spy"]},
            {"queue": ["purple.heir"]},
            {"hands": {"red": ["blue.heir"]}},
            {"queue": [{"card": "blue.ambush", "up": True}]},
            {"queue": [{"card": "red.soldier", "up": True, "tokens": 1}]},
            {"queue": [{"card": "red.soldier", "up": True, "owner": "blue"}]},
            {"influence": {"red": 10_001}},
            {"queue": [{"card": "blue.spy", "tokens": 101}]},
        )
    ],
    (load(3, players=["red", "blue"], state={}), "illegal_position"),
    (
        load(3, players=["red", "blue", "green", "pink", "black", "white"], state={}),
        "illegal_position",
    ),
    *[
        (answer(3, family, given), "bad_request")
        for family, given in (
            ("pink", {"reveal": True}),
            (["blue"], {"reveal": True}),
            ("blue", "reveal"),
            ("blue", {"reveal": True, "to": 1}),
            ("blue", {"target": "red.soldier", "extra": 1}),
            ("blue", {"reveal": "yes"}),
            ("blue", {"to": 1.0}),
            ("blue", {"target": 3}),
        )
    ],
    *[
        (answer(3, family, given), "illegal_answer")
        for family, given in (
            ("blue", {"to": -1}),
            ("blue", {"to": 99}),
            ("blue", {"target": "red.heir"}),
            ("red", {"reveal": True}),
        )
    ],
    *[
        (answer(3, "blue", given), "unknown_card")
        for given in (
            {"at": "middle"},
            {"target": "nobody"},
            {"target": "purple.lord"},
            {"place": "blue.dragon", "at": "first"},
            {"target": "blue.lord"},  # a card of the sets the loaded state never listed
        )
    ],
]


@pytest.mark.parametrize(("request_", "code"), DOCUMENTED)
def test_each_example_of_the_page_gets_the_code_it_documents(
    registry: Registry, request_: dict[str, Any], code: str
) -> None:
    *_, reply = talk(registry, HELLO, load(), request_)
    assert reply["ok"] is False, reply
    assert reply["error"]["code"] == code, reply
    page = (ROOT / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    table = page.split("### Which code, exactly", 1)[1].split("\n### ", 1)[0]
    assert f"| `{code}` |" in table


def test_nothing_but_hello_before_hello_and_no_game_before_load(registry: Registry) -> None:
    replies = talk(registry, {"id": 1, "op": "state"}, HELLO, {"id": 2, "op": "decision"})
    assert [r["ok"] for r in replies] == [False, True, False]
    assert replies[0]["error"] == {"code": "bad_request", "message": "say hello first (protocol 1)"}
    assert replies[2]["error"]["message"] == "no position is loaded: send load first"


def test_a_refused_load_leaves_no_game(registry: Registry) -> None:
    replies = talk(registry, HELLO, load(), load(3, sets=["moon"]), {"id": 4, "op": "state"})
    assert replies[3]["error"]["message"] == "no position is loaded: send load first"


def test_an_illegal_answer_leaves_the_game_unchanged(registry: Registry) -> None:
    look = ({"id": 10, "op": "state"}, {"id": 11, "op": "decision"})
    replies = talk(
        registry,
        HELLO,
        load(),
        *look,
        answer(3, "blue", {"target": "red.soldier"}),
        answer(4, "green", {"reveal": True}),
        *look,
        answer(5, "blue", {"reveal": True}),
    )
    before, after = replies[2:4], replies[6:8]
    assert [r["error"]["code"] for r in replies[4:6]] == [ILLEGAL_ANSWER, ILLEGAL_ANSWER]
    assert before == after
    assert replies[8] == {"id": 5, "ok": True}  # the same decision, answered


def test_an_engine_failure_is_an_engine_error(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(game: object, step: Step) -> object:
        raise AbilityError("the plugin 'x' raised ValueError")

    monkeypatch.setattr(engines, "engine_answer", broken)
    *_, reply = talk(registry, HELLO, load(), answer(3, "blue", {"reveal": True}))
    assert reply["error"] == {"code": "engine_error", "message": "the plugin 'x' raised ValueError"}

    def bug(game: object, step: Step) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr(engines, "engine_answer", bug)
    *_, reply = talk(registry, HELLO, load(), answer(3, "blue", {"reveal": True}))
    assert reply["error"] == {
        "code": "engine_error",
        "message": "internal error: RuntimeError: a bug",
    }


def test_an_overlong_request_is_refused_and_the_engine_reads_on(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(serve, "MAX_LINE", 100)
    replies = talk(registry, b"[" * 350 + b"\n", HELLO)
    assert replies[0]["error"] == {
        "code": "bad_request",
        "message": "a request line is at most 100 bytes, newline included",
    }
    assert replies[1]["ok"] is True
    assert len(replies) == 2


@pytest.mark.parametrize(("size", "ok"), [(MAX_LINE, True), (MAX_LINE + 1, False)])
def test_both_ends_take_a_line_of_max_line_bytes_newline_included_and_no_more(
    registry: Registry, size: int, ok: bool
) -> None:
    line = encode(HELLO)
    line = line[:-2] + b" " * (size - len(line)) + b"}\n"
    assert len(line) == size
    assert (talk(registry, line)[0]["ok"] is True) is ok
    stream = BytesIO(line + encode(HELLO))
    assert read_line(stream) == (line if ok else None)
    stream = BytesIO(line + encode(HELLO))
    read_line(stream, skip=True)
    assert read_line(stream) == encode(HELLO)


def test_an_answer_marked_error_is_an_answer_the_mark_ignored(registry: Registry) -> None:
    request = answer(3, "blue", {"reveal": True, "error": True})
    assert talk(registry, HELLO, load(), request)[-1] == {"id": 3, "ok": True}


def test_an_answer_after_the_end_is_an_illegal_answer(registry: Registry) -> None:
    state = {**STATE, "round": 6, "queue": []}  # the last round resolved: the game is over
    assert (
        talk(registry, HELLO, load(state=state), {"id": 3, "op": "decision"})[-1]["next"] == "end"
    )
    reply = talk(registry, HELLO, load(state=state), answer(3, "blue", {"reveal": True}))[-1]
    assert reply["error"] == {
        "code": "illegal_answer",
        "message": 'blue: {"reveal": true}: the game is over, no answer is asked',
    }


def test_oriflamme_engine_speaks_on_stdout_only_protocol_lines() -> None:
    requests = encode(HELLO) + encode(load()) + encode({"id": 3, "op": "decision"})
    run = subprocess.run(
        [sys.executable, "-m", "oriflamme", "engine", "--no-plugins"],
        input=requests,  # its input ends: the engine ends, as after quit
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["ok"] for r in replies] == [True, True, True]
    assert replies[2]["next"] == {"blue": "reveal"}
    assert run.stderr == b""


# The runner's side: the whole suite, through our engine in another process.


def test_the_suite_through_oriflamme_engine_prints_what_it_prints_in_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    paths = [str(SUITE)] + ([str(EXAMPLES)] if EXAMPLES.is_dir() else [])
    assert main(["conformance", "--no-plugins", *paths]) == 0
    in_process = capsys.readouterr().out
    assert main(["conformance", "--no-plugins", "--engine", OUR_ENGINE, *paths]) == 0
    out, err = capsys.readouterr()
    assert out == in_process
    assert err == ""
    assert out.endswith(f"{len(find_scenarios(paths))} passed, 0 failed\n")


class _RefusesAfterChanging(LocalEngine):
    """An engine that applies an answer, then says it refused it."""

    def answer(self, step: Step) -> None:
        super().answer(step)
        raise EngineRefused(ILLEGAL_ANSWER, "no")

    def fingerprint(self) -> object:
        return (self.table(), self.decision())  # what a remote engine is compared by


def test_a_refusal_that_changed_the_game_fails(tmp_path: Path, registry: Registry) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(
        BASE.replace("expect:", "play:\n  - blue: {reveal: true, error: true}\nexpect:")
    )
    result = run_file(path, registry, _RefusesAfterChanging(registry))
    assert result.problems == (f"step 1 ({path}:13): the refused answer changed the game",)


GOOD_STATE: dict[str, Any] = {
    "round": 1,
    "phase": "placement",
    "influence": {"red": 1},
    "queue": ["red.spy", [{"card": "blue.lord", "up": True}, "red.heir"]],
    **{zone: {} for zone in ("hands", "set_aside", "reserve", "discarded", "eliminated")},
}


def test_a_load_carries_every_default_the_twin_s_reserve_included(registry: Registry) -> None:
    """docs/engine-protocol.md, load: the runner sends every key and family, with the
    format's defaults applied; red's Twin is named (in the queue), the others wait in
    their reserve."""
    scenario = parse_scenario(
        """name: defaults
sets: [ablaze]
players: [red, blue, green]
state:
  round: 2
  phase: resolution
  queue: [red.prince, {card: red.twin, up: true}]
  influence: {blue: 3}
""",
        "defaults.yaml",
    )
    position, config = checked_position(scenario, registry)
    state = load_state(position, scenario.players, config.first_player or "red")
    assert state == {
        "round": 2,
        "phase": "resolution",
        "first_player": "red",
        "influence": {"red": 1, "blue": 3, "green": 1},
        "queue": ["red.prince", {"card": "red.twin", "up": True}],
        "hands": {"red": [], "blue": [], "green": []},
        "set_aside": {"red": [], "blue": [], "green": []},
        "reserve": {"red": [], "blue": ["blue.twin"], "green": ["green.twin"]},
        "discarded": {"red": [], "blue": [], "green": []},
        "eliminated": {"red": [], "blue": [], "green": []},
        "resolving": 0,
    }


#: docs/engine-protocol.md, "state": a scenario expecting red's Spy and, on top of
#: blue's Lord, red's Heir, that blue's Queen is bribed by blue itself, and no card in
#: red's hand.
READ_BACK = parse_scenario(
    """name: read back
sets: [base, ablaze]
players: [red, blue, green]
state: {}
expect:
  queue:
    - red.spy
    - [{card: blue.lord, up: true}, red.heir]
    - {card: blue.queen, up: true, owner: blue}
  hands: {red: []}
  eliminated: {green: [green.heir, green.spy]}
""",
    "read-back.yaml",
)


@pytest.mark.parametrize(
    "change",
    [
        {},
        {  # every key of a card, written out, and null for no owner
            "queue": [
                {"card": "red.spy", "up": False, "tokens": 0, "owner": None},
                [
                    {"card": "blue.lord", "up": True, "tokens": 0},
                    {"card": "red.heir", "up": False},
                ],
                {"card": "blue.queen", "up": True, "tokens": 0, "owner": "blue"},
            ]
        },
        {"hands": {"red": [], "blue": []}},  # an empty family given, or left out
        {"eliminated": {"green": ["green.spy", "green.heir"], "red": []}},  # any order
        {"extra": {"anything": 1}},  # a key the runner does not know
    ],
)
def test_a_state_reply_may_be_written_long(change: dict[str, Any]) -> None:
    state = {
        **GOOD_STATE,
        "queue": ["red.spy", [{"card": "blue.lord", "up": True}, "red.heir"]]
        + [{"card": "blue.queen", "up": True, "owner": "blue"}],
        "eliminated": {"green": ["green.heir", "green.spy"]},
        **change,
    }
    assert differences(READ_BACK, read_table(state), {"blue": "place"}) == []


def test_an_owner_on_a_card_no_bribery_token_lies_on_reads_as_bribed() -> None:
    """docs/engine-protocol.md: ``owner`` exactly when a Bribery token lies on the card;
    red's own Spy with ``owner: red`` is a Spy red bribed, which the scenario does not
    expect."""
    state = {
        **GOOD_STATE,
        "queue": [
            {"card": "red.spy", "owner": "red"},
            [{"card": "blue.lord", "up": True}, "red.heir"],
            {"card": "blue.queen", "up": True, "owner": "blue"},
        ],
        "eliminated": {"green": ["green.heir", "green.spy"]},
    }
    [problem] = differences(READ_BACK, read_table(state), {"blue": "place"})
    assert problem.startswith("queue: expected")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"round": True}, "state 'round' must be an integer, not true"),
        ({"phase": None}, "state 'phase' must be text, not null"),
        ({"influence": {"red": "1"}}, "state 'influence' of red must be an integer, not '1'"),
        ({"queue": {"red.spy": 1}}, "state 'queue' must be a list, not a mapping"),
        ({"queue": [{"up": True}]}, "a queue card must be a card id or an object with 'card'"),
        ({"queue": [{"card": "red.spy", "tokens": 1.5}]}, "queue card red.spy: 'up' must be"),
        ({"hands": {"red": "red.spy"}}, "state 'hands' of red must be a list of card ids"),
        ({"winner": "red"}, "state 'winner' must be a list of families, not 'red'"),
    ],
)
def test_a_state_reply_is_read_strictly(change: dict[str, Any], message: str) -> None:
    table = read_table(GOOD_STATE)
    assert table.queue[1][0].up
    assert table.winners is None
    with pytest.raises(ProtocolError, match=re.escape(message)):
        read_table({**GOOD_STATE, **change})


@pytest.mark.parametrize("given", [None, "over", {}, {"red": "place", "blue": "place"}, {"red": 1}])
def test_a_decision_reply_is_end_or_one_family_and_kind(given: object) -> None:
    assert read_next("end") == "end"
    assert read_next({"red": "place"}) == {"red": "place"}
    with pytest.raises(ProtocolError, match="'next' must be \"end\" or one family"):
        read_next(given)


# Engines that break the protocol: each fails its scenario in one line, is stopped and
# reaped, and starts again for the next one.

FAKE = """\
import json, sys, time
mode = sys.argv[1]
if mode == "exits":
    sys.exit(0)
for line in sys.stdin:
    request = json.loads(line)
    ident, op = request["id"], request["op"]
    if op == "hello":
        if mode == "old":
            error = {"code": "version", "message": "I speak protocol 0"}
            print(json.dumps({"id": ident, "ok": False, "error": error}), flush=True)
            continue
        protocol = True if mode == "bool" else 1
        print(json.dumps({"id": ident, "ok": True, "protocol": protocol}), flush=True)
    elif mode in ("escapes", "odd-code"):
        code = "nope" if mode == "odd-code" else "engine_error"
        error = {"code": code, "message": "\x1b[31mred\u202e"}
        print(json.dumps({"id": ident, "ok": False, "error": error}), flush=True)
    elif mode == "nan":
        print('{"id": %d, "ok": true, "next": NaN}' % ident, flush=True)
    elif mode == "garbage":
        print("hello there", flush=True)
    elif mode == "dies":
        print("Traceback (most recent call last):\\nValueError: boom", file=sys.stderr)
        sys.exit(3)
    elif mode == "hangs":
        time.sleep(60)
    elif mode == "long":
        print("x" * 2000, flush=True)
    elif mode == "wrong-id":
        print(json.dumps({"id": 99, "ok": True}), flush=True)
    elif op == "state":  # mode "bad-state"
        print(json.dumps({"id": ident, "ok": True, "state": {"round": "two"}}), flush=True)
    else:
        print(json.dumps({"id": ident, "ok": True, "next": "end"}), flush=True)
"""


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> str:
    script = tmp_path_factory.mktemp("engines") / "fake.py"
    script.write_text(FAKE, encoding="utf-8")
    return f"{PYTHON} {shlex.quote(str(script))}"


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "a.yaml"
    path.write_text(BASE, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("garbage", "its reply to load is not JSON: 'hello there'"),
        (
            "dies",
            "it exited with status 3 before replying to load; its stderr says: 'ValueError: boom'",
        ),
        ("hangs", "no reply to load within 0.5 s"),
        ("long", "its reply to load is longer than 1000 bytes"),
        ("wrong-id", "bad reply to load: its reply has id 99, not 2"),
        ("nan", 'its reply to load is not JSON: \'{"id": 2, "ok": true, "next": NaN}\''),
        (
            "odd-code",
            "bad reply to load: its error reply's code 'nope' is none of bad_request, version, "
            "unsupported, unknown_card, illegal_position, illegal_answer, engine_error",
        ),
    ],
)
def test_a_broken_engine_fails_its_scenario_in_one_line_and_starts_again(
    registry: Registry, fake: str, scenario: Path, mode: str, reason: str
) -> None:
    # Only the requests under test wait 0.5 s: a Python just started may be slow to hello.
    with RemoteEngine(f"{fake} {mode}", timeout=0.5, max_line=1000) as engine:
        assert engine.hello_timeout == 10.0
        for breaks in (1, 2):  # the second scenario starts it again, and it breaks again
            process = engine._process
            assert process is not None
            result = run_file(scenario, registry, engine)
            assert not result.passed
            assert result.problems == (f"loading the starting position: {engine.label}: {reason}",)
            assert process.returncode is not None  # reaped
            assert engine.breaks == breaks
            if breaks == 1:
                engine.start()
    assert engine._process is None


def test_an_engine_s_words_are_printed_escaped(
    registry: Registry, fake: str, scenario: Path
) -> None:
    with RemoteEngine(f"{fake} escapes") as engine:
        result = run_file(scenario, registry, engine)
    assert result.problems == (
        "the engine refused the starting position: engine_error: \\x1b[31mred\\u202e",
    )
    assert printable("a\tb \x07") == "a\\tb \\x07"


# A Node.js engine that throws writes the error, its stack, then Node's version: the
# runner quotes the error.
CRASHES = """\
const readline = require("readline");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  if (request.op === "hello") {
    process.stdout.write(JSON.stringify({ id: request.id, ok: true, protocol: 1 }) + "\\n");
  } else {
    const hand = undefined;
    hand.push(1);
  }
});
"""


def test_a_node_engine_that_throws_is_quoted_by_its_error_not_its_version(
    registry: Registry, scenario: Path, tmp_path: Path
) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH")
    script = tmp_path / "crashes.js"
    script.write_text(CRASHES, encoding="utf-8")
    with RemoteEngine(f"{shlex.quote(node)} {shlex.quote(str(script))}") as engine:
        result = run_file(scenario, registry, engine)
    [problem] = result.problems
    assert problem.startswith(f"loading the starting position: {engine.label}: it exited with")
    assert problem.endswith(
        "before replying to load; its stderr says: "
        "\"TypeError: Cannot read properties of undefined (reading 'push')\""
    ), problem


def test_a_reply_or_an_echo_shows_bytes_escaped_once() -> None:
    with pytest.raises(ProtocolError) as refused:
        decode(b"\xff\n")
    assert str(refused.value) == "not UTF-8 text: '\\xff'"
    with pytest.raises(ProtocolError, match="not JSON"):
        decode(b'{"id": Infinity}', strict=True)
    assert decode(b'{"id": 1}', strict=True) == {"id": 1}


def test_a_bad_state_reply_fails_the_scenario_but_keeps_the_engine(
    registry: Registry, fake: str, scenario: Path
) -> None:
    with RemoteEngine(f"{fake} bad-state") as engine:
        result = run_file(scenario, registry, engine)
        assert result.problems == (
            f"reading the position after the last step: {engine.label}: its reply to state: "
            "the state has no 'phase'",
        )
        assert engine.breaks == 0


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("old", "it refused the hello of protocol 1: version: I speak protocol 0"),
        ("exits", "it exited with status 0 before replying to hello"),
        ("bool", "its hello names protocol true, not 1"),
    ],
)
def test_an_engine_that_fails_its_hello_is_refused(fake: str, mode: str, reason: str) -> None:
    engine = RemoteEngine(f"{fake} {mode}")
    with pytest.raises(EngineBroken) as refused:
        engine.start()
    assert str(refused.value) == f"{engine.label}: {reason}"
    assert engine._process is None


def test_an_engine_that_cannot_start_is_a_mistake_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["conformance", "--no-plugins", "--engine", "/no/such/engine", str(SUITE)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        'oriflamme: error: engine "/no/such/engine": cannot start it: No such file or directory\n'
    )
    assert main(["conformance", "--engine", "'unclosed", str(SUITE)]) == 2
    assert capsys.readouterr().err == (
        'oriflamme: error: --engine "\'unclosed": No closing quotation\n'
    )


def test_an_engine_that_breaks_every_scenario_stops_the_run(
    tmp_path: Path, fake: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in "abcde":
        (tmp_path / f"{name}.yaml").write_text(BASE, encoding="utf-8")
    argv = ["conformance", "--no-plugins", "--quiet", "--engine", f"{fake} dies", str(tmp_path)]
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out.count("FAIL ") == MAX_BREAKS_IN_A_ROW
    assert out.endswith(f"0 passed, {MAX_BREAKS_IN_A_ROW} failed\n")
    assert err == (
        f"oriflamme: error: {RemoteEngine(f'{fake} dies').label} broke {MAX_BREAKS_IN_A_ROW} "
        f"scenarios in a row: the run stops after {MAX_BREAKS_IN_A_ROW} of 5 scenarios\n"
    )


# The optional op `options`: the legal answers, each in the notation of an answer.


def test_options_lists_the_legal_answers_as_the_page_shows(registry: Registry) -> None:
    options = {"id": 3, "op": "options"}
    *_, reply = talk(registry, HELLO, load(), options)
    # The page's example: blue is asked to reveal its Spy.
    assert reply == {"id": 3, "ok": True, "options": [{"reveal": True}, {"reveal": False}]}
    page = (ROOT / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    section = page.split("### `options`", 1)[1].split("\n### ", 1)[0]
    assert json.dumps(reply, separators=(", ", ": ")) in section
    # Before any load, as decision is; and [] once the game is over.
    assert talk(registry, HELLO, options)[-1]["error"] == {
        "code": "bad_request",
        "message": "no position is loaded: send load first",
    }
    over = {**STATE, "round": 6, "queue": []}
    assert talk(registry, HELLO, load(state=over), options)[-1] == {
        "id": 3,
        "ok": True,
        "options": [],
    }


def test_options_writes_the_one_place_of_an_empty_queue_first(registry: Registry) -> None:
    state = {"round": 2, "hands": {"red": ["red.heir", "red.spy"]}}
    *_, reply = talk(registry, HELLO, load(state=state), {"id": 3, "op": "options"})
    assert reply["options"] == [
        {"place": "red.heir", "at": "first"},
        {"place": "red.spy", "at": "first"},
    ]


def candidates(table: Any, family: str, kind: str) -> list[dict[str, Any]]:
    """Every answer of ``kind`` the notation could hold at ``table`` (docs/perft.md,
    "Reproducing the counts with another engine"), legal or not."""
    tops = [stack[-1].card for stack in table.queue]
    spots = ["first", "last", *tops]
    if kind == "place":
        return [{"place": c, "at": at} for c in table.zones["hands"][family] for at in spots]
    if kind == "reveal":
        return [{"reveal": True}, {"reveal": False}]
    if kind == "target":
        return [{"target": card} for card in tops]
    if kind == "move":
        return [{"to": index} for index in range(len(table.queue) + 1)]
    if kind == "twin":
        return [{"at": at} for at in spots]
    return [{"choose": "gain"}, {"choose": "repeat"}]


def test_options_are_exactly_the_answers_the_engine_accepts(registry: Registry) -> None:
    """At the first decision of each scenario of the suite, each answer the notation
    could hold is accepted if and only if it is listed (an empty queue's ``last`` being
    its ``first``)."""
    checked = 0
    for path in find_scenarios([SUITE]):
        scenario = load_scenario(path)
        try:
            game = build_game(scenario, registry)
        except OriflammeError:
            continue  # a scenario of a position that must be refused
        engine = LocalEngine(registry, game)
        asked = engine.decision()
        if not isinstance(asked, dict):
            continue
        ((family, kind),) = asked.items()
        listed = [json.dumps(option, sort_keys=True) for option in engine.options()]
        assert len(set(listed)) == len(listed) >= 2, path
        table = engine.table()
        accepted = set()
        for given in candidates(table, family, kind):
            trial = LocalEngine(registry, game.clone())
            try:
                trial.answer(Step(1, family, kind, given, False, ""))
            except EngineRefused:
                continue
            # In an empty queue, last is first: the one place, written first.
            empty = not table.queue and given.get("at") == "last"
            accepted.add(json.dumps({**given, "at": "first"} if empty else given, sort_keys=True))
        assert accepted == set(listed), path
        checked += 1
    assert checked >= 50


@pytest.mark.parametrize(
    "options",
    [
        {"reveal": True},
        [{"reveal": "yes"}],
        [{"to": "3"}],
        [{"to": True}],
        [{"target": "red.spy", "to": 1}],
        [{"dance": True}],
        ["red.spy"],
    ],
)
def test_an_options_reply_out_of_the_notation_breaks_the_protocol(options: object) -> None:
    with pytest.raises(ProtocolError, match="options"):
        read_options(options)
    assert read_options([{"place": "red.spy", "at": "first"}, {"to": 0}]) == (
        {"place": "red.spy", "at": "first"},
        {"to": 0},
    )


def test_a_remote_engine_lists_the_options_an_engine_without_them_refuses(
    registry: Registry, fake: str
) -> None:
    position, config = checked_position(parse_scenario(BASE), registry)
    setup = engines.Setup(("base",), ("red", "blue", "green"), {}, position, config)
    with RemoteEngine(OUR_ENGINE) as engine:
        engine.load(setup)
        assert engine.options() == ({"reveal": True}, {"reveal": False})
    with RemoteEngine(f"{fake} escapes") as engine, pytest.raises(EngineRefused):
        engine.options()
