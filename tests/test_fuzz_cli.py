"""The command line, fuzzed: whatever is typed, one clear line and an exit status.

Each command gets argument lists drawn from its real options with junk values (huge,
negative, non-ASCII and malformed numbers, unknown sets, cards, variants, bots and
plugins, over-long text) and junk tokens, and ``conformance`` gets paths to missing,
empty, non-UTF-8, endless, deeply nested and over-long files; ``play`` also gets junk
typed at its prompt. ``engine`` gets junk request lines, each of which must get its
one reply; ``conformance --engine`` gets commands that are empty, cannot be run, or
run a program that replies with junk; ``perft`` gets junk depths and paths. Every
command runs in this process through ``main(argv)``, its streams replaced, under
:func:`no_hang` (an engine under test runs in its own process). Only ``SystemExit``
with an int status may escape, nothing prints a traceback, a refusal is one line
naming the mistake, and no value out of bounds (an integer option, ``--seat`` past
the families, an unknown plugin, ``conformance`` with nothing to run) is accepted.

Broken pipes and Ctrl-C are tested on real processes, each bounded in time.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from oriflamme.cli import MAX_GAMES, MAX_JOBS, MAX_SEED, MAX_SIZE, main
from oriflamme.conformance import find_scenarios
from oriflamme.conformance.model import ZONES
from oriflamme.conformance.protocol import CODES, ENGINE_ERROR, MAX_LINE
from oriflamme.conformance.remote import MAX_BREAKS_IN_A_ROW
from oriflamme.conformance.serve import OPS
from oriflamme.limits import MAX_FAMILIES, MIN_FAMILIES
from oriflamme.perft import MAX_DEPTH

from .conftest import ROOT
from .fuzzing import FUZZ, no_hang

#: Seconds a real process may take in the tests below.
PROCESS_SECONDS = 60

#: The bounds of each integer option, as ``--help`` documents them.
BOUNDS = {
    "--families": (MIN_FAMILIES, MAX_FAMILIES),
    "--seat": (1, MAX_FAMILIES),
    "--seed": (0, MAX_SEED),
    "--games": (1, MAX_GAMES),
    "--jobs": (1, MAX_JOBS),
    "--size": (1, MAX_SIZE),
    "--depth": (1, MAX_DEPTH),
}
PLUGINS = {"base", "ablaze"}  # the built-in ones: the only ones with --no-plugins

# Valid numbers stay small (a run of games must stay short); the rest is out of
# bounds or not a number at all. Plain ASCII numbers are kept out of the free text
# for the same reason.
_PLAIN = re.compile(r"\s*[+-]?[0-9]+\s*")
NUMBERS = st.one_of(
    st.integers(-3, 6).map(str),
    st.sampled_from(
        ["0", "-0", "+2", " 3 ", "0003", "²", "٣", "٣٣", "3_000", "1e3", "0x10", "1.0", "", "nan"]
        + ["9" * 25, "9" * 5000, "-" + "9" * 5000, "0" * 50 + "4", "\x00", str(MAX_SEED)]
        + [str(MAX_SEED + 1), str(MAX_GAMES + 1), str(MAX_JOBS + 1), str(MAX_SIZE + 1)]
    ),
    st.text(max_size=6).filter(lambda text: not _PLAIN.fullmatch(text)),
)
NAMES = st.one_of(
    st.sampled_from(
        ["base", "ablaze", "base,ablaze", "nope", "", ",", "base,,", "archer,unicorn", "é"]
        + ["archer,prince,queen,trap,spy,heir,lord", "x" * 1001, "base\n"]
        + ["twin,archer,queen,trap,spy,heir,lord,soldier"]
    ),
    st.text(max_size=8),
)
VARIANTS = st.one_of(
    st.sampled_from(
        ["ambush_own_elimination=revised", "ambush_own_elimination=nope", "nope=1", "oops"]
        + ["ambush_own_elimination=", "=1", "a=b=c"]
    ),
    st.text(max_size=8),
)
WITHOUT = st.one_of(
    st.sampled_from(["base", "ablaze", "nope", "", "x" * 1001]), st.text(max_size=6)
)
# Bot choices: good ones that answer at once (a search would make a run of many games
# long), and every way one can be wrong.
BOTS = st.one_of(
    st.sampled_from(
        ["random", "heuristic", "random,random,random", "random,heuristic,heuristic"]
        + ["heuristic,random", "genius", "random,x", "", ":", "random:x=1", "é"]
        + ["ismcts:iterations=0", "ismcts:iterations", "ismcts:depth=3", "ismcts:seconds=nan"]
        + ["ismcts:playout=clever", "ismcts:iterations=" + "9" * 30]
    ),
    st.text(max_size=8),
)
JUNK = st.sampled_from(
    ["--", "-", "--nope", "-x", "--games=0", "--seat=²", "\udcff", "\x00", "é", "extra", "--help"]
)
FLAG = st.just("")  # an option that takes no value


def _options(*options: tuple[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
    def given_as(option: tuple[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
        name, values = option
        return st.just([name]) if values is FLAG else values.map(lambda value: [name, value])

    pair = st.sampled_from(options).flatmap(given_as)
    token = st.one_of(pair, pair, pair, JUNK.map(lambda junk: [junk]))
    return st.lists(token, max_size=6).map(lambda parts: [t for part in parts for t in part])


PLUGIN_OPTIONS = (("--no-plugins", FLAG), ("--without", WITHOUT))
GAME_OPTIONS = (
    ("--families", NUMBERS),
    ("--sets", NAMES),
    ("--size", NUMBERS),
    ("--cards", NAMES),
    ("--variant", VARIANTS),
    *PLUGIN_OPTIONS,
)
ARGUMENTS = {
    "play": _options(
        *GAME_OPTIONS,
        ("--seat", NUMBERS),
        ("--seed", NUMBERS),
        ("--bots", st.one_of(BOTS, st.just("ismcts:iterations=2"))),
    ),
    "simulate": _options(
        *GAME_OPTIONS,
        ("--games", NUMBERS),
        ("--seed", NUMBERS),
        ("--jobs", NUMBERS),
        ("--progress", st.sampled_from(["auto", "always", "never", "x"])),
        ("--bots", BOTS),
        ("--json", FLAG),
    ),
    "ladder": _options(
        *GAME_OPTIONS,
        ("--games", NUMBERS),
        ("--seed", NUMBERS),
        ("--jobs", NUMBERS),
        ("--progress", st.sampled_from(["auto", "always", "never", "x"])),
        ("--bots", BOTS),
        ("--matches", st.sampled_from(["rungs", "pairs", "all"])),
        ("--plot", st.sampled_from(["x.svg", "/no/such/folder/x.png", ""])),
        ("--json", FLAG),
    ),
    "bots": _options(("--json", FLAG), *PLUGIN_OPTIONS),
    "cards": _options(
        ("--sets", NAMES),
        ("--language", st.sampled_from(["en", "fr", "pl", "de"])),
        *PLUGIN_OPTIONS,
    ),
    "plugins": _options(("--json", FLAG), *PLUGIN_OPTIONS),
}


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Paths for ``conformance``: one good scenario, and every way a path can be bad."""
    base = tmp_path_factory.mktemp("cli")
    (base / "empty").mkdir()
    (base / "no-yaml").mkdir()
    (base / "no-yaml" / "notes.txt").write_text("not a scenario\n")
    (base / "latin1.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    (base / "deep.yaml").write_text("name: " + "[" * 5000 + "]" * 5000 + "\n")
    (base / "long.yaml").write_text("name: " + "x" * 200_000 + "\n")
    (base / "aliases.yaml").write_text(
        "a: &a [x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, n in zip("abcde", "bcdef", strict=True)
        )
    )
    (base / "mixed").mkdir()
    (base / "mixed" / "bad.yaml").write_bytes(b"\xff\xfe\x00")
    good = sorted((ROOT / "tests" / "conformance" / "base" / "cards").glob("*.yaml"))[0]
    (base / "mixed" / "good.yaml").write_bytes(good.read_bytes())
    found = [str(good), "/dev/zero", "/dev/null", str(base / "missing.yaml"), "\udcff.yaml"]
    return found + [
        str(base / name)
        for name in (
            "empty",
            "no-yaml",
            "latin1.yaml",
            "deep.yaml",
            "long.yaml",
            "aliases.yaml",
            "mixed",
        )
    ]


def run(argv: list[str], typed: str = "") -> tuple[int, str, str]:
    """``main(argv)`` with ``typed`` on stdin: its exit status, stdout and stderr."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(typed), out, err
    status: object
    try:
        with no_hang():
            try:
                status = main(argv)
            except SystemExit as exit:  # argparse's own exits
                status = exit.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    assert type(status) is int, f"exit with {status!r}"
    return status, out.getvalue(), err.getvalue()


def _valid(option: str, text: str) -> bool:
    low, high = BOUNDS[option]
    written = text.strip()
    if not written.isascii() or "_" in written:
        return False
    try:
        return low <= int(written) <= high
    except ValueError:
        return False


def _given(argv: list[str]) -> Iterator[tuple[str, str]]:
    """Each option given and the token after it."""
    for option, value in zip(argv, [*argv[1:], ""], strict=True):
        if option.startswith("--") and "=" not in option:
            yield option, value


def _last(argv: list[str], option: str, default: int) -> int:
    values = [value for name, value in _given(argv) if name == option]
    return int(values[-1]) if values else default


def check(argv: list[str], status: int, out: str, err: str) -> None:
    """What every run must show, and the mistakes it must have refused."""
    print(f"argv={argv!r} status={status}")
    assert "Traceback" not in err + out
    assert status in (0, 1, 2), err
    lines = [line for line in err.splitlines() if not line.startswith("oriflamme: warning:")]
    if status == 2:
        assert len(lines) == 1, err
        assert lines[0].startswith("oriflamme"), err
        assert ": error: " in lines[0], err
        assert len(lines[0]) < 1200
        return
    assert not any(": error: " in line for line in lines), err
    if "--help" in argv or "--" in argv:
        return  # help leaves before what follows it is read
    command = argv[0]
    for option, value in _given(argv):
        assert option not in BOUNDS or _valid(option, value), f"{option} {value!r} accepted"
        assert option != "--without" or value in PLUGINS, f"--without {value!r} accepted"
    if command == "play":
        seat, families = _last(argv, "--seat", 1), _last(argv, "--families", 4)
        assert seat <= families, "a seat past the families accepted"
    if command == "simulate":
        seed, games = _last(argv, "--seed", 0), _last(argv, "--games", 100)
        assert seed + games - 1 <= MAX_SEED, "a seed past the bound accepted"
        assert out.startswith(f"{games} games, ") or out.startswith("{"), out[:200]
    if command == "ladder":
        seed, games = _last(argv, "--seed", 0), _last(argv, "--games", 300)
        assert seed + games - 1 <= MAX_SEED, "a seed past the bound accepted"
        assert out.startswith("ladder: ") or out.startswith("{"), out[:200]


@pytest.mark.fuzz
@pytest.mark.parametrize("command", sorted(ARGUMENTS))
def test_every_command_takes_any_arguments(command: str) -> None:
    @FUZZ
    @given(ARGUMENTS[command])
    def attempt(tokens: list[str]) -> None:
        argv = [command, *tokens]
        check(argv, *run(argv))

    attempt()


GOOD = {
    "--families": st.integers(MIN_FAMILIES, MAX_FAMILIES),
    "--seat": st.integers(1, MIN_FAMILIES),
    "--seed": st.integers(0, 1000),
    "--games": st.integers(1, 3),
    "--jobs": st.integers(1, 2),
    "--size": st.integers(7, 20),
}
NUMBERED = {"play": ("--families", "--seat", "--seed"), "simulate": ("--games", "--jobs", "--seed")}


@pytest.mark.fuzz
@pytest.mark.parametrize("command", sorted(NUMBERED))
def test_one_number_out_of_bounds_among_good_options_is_refused(command: str) -> None:
    options = NUMBERED[command]

    def near(option: str) -> st.SearchStrategy[tuple[str, str]]:
        low, high = BOUNDS[option]
        past = [str(low - 1), str(high + 1), f" +{high + 1}", "0" * 30 + str(high + 1)]
        return st.tuples(st.just(option), st.one_of(st.sampled_from(past), NUMBERS))

    @FUZZ
    @given(
        st.fixed_dictionaries({o: GOOD[o] for o in options}),
        st.sampled_from(options).flatmap(near),
    )
    def attempt(good: dict[str, int], bad_value: tuple[str, str]) -> None:
        bad, value = bad_value
        argv = [command, "--no-plugins", "--sets", "base,ablaze", "--size", "12"]
        for option, number in good.items():
            argv += [option, str(number)]
        argv += [bad, value]
        status, out, err = run(argv)
        check(argv, status, out, err)
        if not _valid(bad, value):
            assert status == 2
            assert f"argument {bad}: " in err

    attempt()


@pytest.mark.fuzz
def test_conformance_takes_any_paths(paths: list[str]) -> None:
    @FUZZ
    @given(
        st.lists(st.sampled_from(paths), min_size=1, max_size=4),
        st.lists(st.sampled_from(["-q", "--no-plugins", "--without", "nope", "--"]), max_size=2),
    )
    def attempt(chosen: list[str], options: list[str]) -> None:
        argv = ["conformance", *options, *chosen]
        status, out, err = run(argv)
        check(argv, status, out, err)
        if status == 2 or "--" in options:
            return
        closing = re.fullmatch(r"(\d+) passed, (\d+) failed", out.splitlines()[-1])
        assert closing is not None, out[-300:]
        passed, failed = map(int, closing.groups())
        assert passed + failed > 0, "a run with nothing to run passed"
        assert (status == 1) == (failed > 0)
        assert out.count("\nFAIL ") + out.startswith("FAIL ") == failed

    attempt()


def test_conformance_with_nothing_to_run_names_the_paths(paths: list[str]) -> None:
    empty = [path for path in paths if path.endswith(("empty", "no-yaml"))]
    status, out, err = run(["conformance", *empty])
    assert status == 2
    assert out == ""
    assert err == f"oriflamme: error: no scenario found: no *.yaml file in {', '.join(empty)}\n"


# ``oriflamme engine``: junk request lines, each answered by its one reply line.

#: Any small JSON value.
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
#: A position a ``load`` request takes, for junk to be put into.
STATE: dict[str, Any] = {
    "round": 2,
    "phase": "resolution",
    "queue": ["blue.spy", {"card": "red.soldier", "up": True}],
    "hands": {"red": ["red.heir"], "blue": ["blue.heir"], "green": ["green.heir"]},
}
HELLO = b'{"id": 1, "op": "hello", "protocol": 1}'
LOAD = json.dumps(
    {"id": 2, "op": "load", "sets": ["base"], "players": ["red", "blue", "green"], "state": STATE}
).encode()


def _or_junk(*good: object) -> st.SearchStrategy[object]:
    return st.one_of(st.sampled_from(good), JSON)


REQUESTS = st.fixed_dictionaries(
    {"id": st.one_of(st.integers(-2, 9), JSON), "op": _or_junk(*OPS, "HELLO", "")},
    optional={
        "protocol": _or_junk(1, 0, 2, 1.0, True, "1"),
        "sets": _or_junk(["base"], ["ablaze"], ["base", "nope"], []),
        "players": _or_junk(["red", "blue", "green"], ["red"], ["red", "red", "blue"]),
        "variants": _or_junk({}, {"ambush_own_elimination": "revised"}, {"nope": 1}),
        "state": st.one_of(
            st.just(STATE),
            st.tuples(
                st.sampled_from(
                    [*STATE, "influence", "first_player", "resolving", "reserve", "nope"]
                ),
                JSON,
            ).map(lambda junk: {**STATE, junk[0]: junk[1]}),
            JSON,
        ),
        "family": _or_junk("red", "blue", "green", "purple"),
        "answer": _or_junk(
            {"reveal": True},
            {"reveal": "yes"},
            {"place": "red.heir", "at": "first"},
            {"target": "red.soldier"},
            {"reveal": True, "error": True},
        ),
    },
).map(lambda request: json.dumps(request).encode())
# The longest request line there may be (MAX_LINE bytes with its newline); and a longer one.
LONGEST = b'{"id": 5, "op": "nope"}'.ljust(MAX_LINE - 1)
LINES = st.one_of(
    REQUESTS,
    REQUESTS,
    st.sampled_from(
        [b"", b" ", b"\r", b"{", b"[]", b"null", b"1", b'"hello"', b"{}", b"\xff\xfe", b"\x00"]
        + [b'{"id": 1, "op": "hello", "protocol": NaN}', b'{"id": NaN, "op": "hello"}']
        + [b'{"id": 1.0, "op": "hello", "protocol": 1}', b'{"id": true, "op": "state"}']
        + [b'{"id": 3, "id": "x", "op": "state"}', b'{"id": 1' + b"0" * 5000 + b"}"]
        + [b"[" * 5000, b'{"a":' * 5000, b'{"id": 4, "op": "\xc3"}', LONGEST, b"x" * (MAX_LINE + 1)]
    ),
    st.binary(max_size=40).map(lambda line: line.replace(b"\n", b"")),
    JSON.map(lambda value: json.dumps(value).encode()),
)


def talk(argv: list[str], requests: bytes) -> tuple[int, bytes, str]:
    """``main(argv)`` with ``requests`` on a binary stdin, as ``engine`` reads it: its
    exit status, the bytes on its stdout, and its stderr."""
    saved = sys.stdin, sys.stdout, sys.stderr
    written = io.BytesIO()
    out, err = io.TextIOWrapper(written, encoding="utf-8"), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(requests), encoding="utf-8")
    sys.stdout, sys.stderr = out, err
    status: object
    try:
        with no_hang():
            try:
                status = main(argv)
            except SystemExit as exit:  # argparse's own exits
                status = exit.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    out.flush()
    assert type(status) is int, f"exit with {status!r}"
    return status, written.getvalue(), err.getvalue()


def _request_id(line: bytes) -> int | None:
    """The id the reply to ``line`` must name: None for a line that is no request."""
    if len(line) > MAX_LINE:
        return None
    try:
        request = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    ident = request.get("id") if isinstance(request, dict) else None
    return ident if type(ident) is int else None


@pytest.mark.fuzz
def test_engine_answers_every_line_of_junk_and_ends_with_its_input() -> None:
    @FUZZ
    @given(
        st.one_of(st.just([]), st.just(["--no-plugins"]), _options(*PLUGIN_OPTIONS)),
        st.sampled_from([[], [HELLO], [HELLO, LOAD]]),
        st.lists(LINES, max_size=8),
        st.booleans(),
    )
    def attempt(tokens: list[str], start: list[bytes], lines: list[bytes], ended: bool) -> None:
        argv = ["engine", *tokens]
        requests = b"\n".join([*start, *lines]) + b"\n" * ended
        status, out, err = talk(argv, requests)
        check(argv, status, out.decode("utf-8"), err)
        if status == 2 or "--help" in argv:
            return
        assert status == 0
        sent = requests.split(b"\n")
        if sent[-1] == b"":  # the input ends with a newline, or is empty
            sent.pop()
        assert out == b"" or out.endswith(b"\n")
        replies = [json.loads(reply) for reply in out.splitlines()]
        for line, reply in zip(sent, replies, strict=False):
            ident = _request_id(line)
            assert reply["id"] == ident, (line[:80], reply)
            assert type(reply["id"]) is type(ident), (line[:80], reply)  # 1, never true
            assert type(reply["ok"]) is bool
            if ident is None:  # junk: refused as junk
                assert reply["ok"] is False
                assert reply["error"]["code"] == "bad_request"
            if not reply["ok"]:
                code, message = reply["error"]["code"], reply["error"]["message"]
                assert code in CODES
                assert isinstance(message, str)
                assert message
                assert not (code == ENGINE_ERROR and message.startswith("internal error")), message
        if len(replies) < len(sent):  # a quit ends it; nothing else does, but its input's end
            assert replies
            assert replies[-1]["ok"] is True
            assert json.loads(sent[len(replies) - 1])["op"] == "quit"
        else:
            assert len(replies) == len(sent)

    attempt()


def test_oriflamme_engine_answers_junk_with_errors_and_ends_with_its_input() -> None:
    lines = [b"hello", b"\xff\xfe", b"{}", b'{"id": 7, "op": "state"}', b"[" * 5000, b'{"id": "x"}']
    run = subprocess.run(
        _oriflamme("engine", "--no-plugins"),
        input=b"\n".join(lines),  # the last line has no newline: the input just ends
        capture_output=True,
        timeout=PROCESS_SECONDS,
        check=False,
    )
    assert (run.returncode, run.stderr) == (0, b"")
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    assert [reply["ok"] for reply in replies] == [False] * len(lines)
    assert [reply["id"] for reply in replies] == [None, None, None, 7, None, None]


# ``conformance --engine CMD``: commands that cannot run, and programs that reply junk.

#: An engine that replies as it should (but plays no rules), except to the op its
#: first argument names (or "all"), to which it replies with the bytes its second
#: argument holds in hex, repeated as many times as its third says, ``"$id"`` made
#: the request's id. It ends with its input, or at ``quit``.
JUNK_ENGINE = f"""\
import json, sys
op_at, junk, times = sys.argv[1], bytes.fromhex(sys.argv[2]), int(sys.argv[3])
state = {json.dumps({"round": 1, "phase": "placement", "influence": {}, "queue": []})}
state.update({{zone: {{}} for zone in {list(ZONES)!r}}})
for line in sys.stdin.buffer:
    request = json.loads(line)
    ident, op = request["id"], request["op"]
    if op_at in (op, "all"):
        sys.stdout.buffer.write(junk.replace(b'"$id"', str(ident).encode()) * times + b"\\n")
    else:
        reply = {{"id": ident, "ok": True}}
        if op == "hello":
            reply.update(protocol=1, engine="junk")
        if op == "decision":
            reply["next"] = "end"
        if op == "state":
            reply["state"] = state
        sys.stdout.buffer.write(json.dumps(reply).encode() + b"\\n")
    sys.stdout.buffer.flush()
    if op == "quit":
        break
"""
JUNK_REPLIES = st.one_of(
    st.sampled_from(
        [b"", b" ", b"hello there", b"\xff\xfe", b"[]", b"null", b"{}", b"[", b"\x00"]
        + [b'{"id": "$id"}', b'{"id": "$id", "ok": "yes"}', b'{"id": "$id", "ok": false}']
        + [b'{"id": "$id", "ok": false, "error": {"code": 1}}', b'{"id": 99, "ok": true}']
        + [b'{"id": "$id", "ok": true, "protocol": 1}{"id": "$id", "ok": true}']
        + [b'{"id": "$id", "ok": true}\n{"id": "$id", "ok": true}']
    ),
    st.binary(max_size=30),
    st.fixed_dictionaries(
        {"id": st.one_of(st.just("$id"), JSON), "ok": _or_junk(True, False)},
        optional={
            "protocol": _or_junk(1),
            "engine": JSON,
            "next": _or_junk("end", {"red": "place"}, {"red": "place", "blue": "reveal"}),
            "state": _or_junk({**STATE, "influence": {}, **{zone: {} for zone in ZONES}}),
            "error": _or_junk({"code": "illegal_answer", "message": "no"}, {"code": "x"}),
        },
    ).map(lambda reply: json.dumps(reply).encode()),
)


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Programs for ``--engine``: the junk engine's command (to be given its
    arguments), and files that are not programs that can run."""
    base = tmp_path_factory.mktemp("engines")
    (base / "junk_engine.py").write_text(JUNK_ENGINE, encoding="utf-8")
    (base / "not-executable").write_text("#!/bin/sh\n", encoding="utf-8")
    for name, text in (("no-interpreter", b"#!/no/such/interpreter\n"), ("binary", b"\x7fELF\0")):
        (base / name).write_bytes(text)
        (base / name).chmod(0o755)
    python = f"{shlex.quote(sys.executable)} -I -S"  # no site: it starts in milliseconds
    return {
        "junk": f"{python} {shlex.quote(str(base / 'junk_engine.py'))}",
        "folder": str(base),
        **{name: str(base / name) for name in ("not-executable", "no-interpreter", "binary")},
        "exits": f"{python} -c pass",
    }


STOPPED = re.compile(
    rf'oriflamme: error: engine ".*" broke {MAX_BREAKS_IN_A_ROW} scenarios in a row: '
    r"the run stops after (\d+) of (\d+) scenarios"
)


@pytest.mark.slow
@pytest.mark.fuzz
def test_conformance_takes_any_engine(paths: list[str], engines: dict[str, str]) -> None:
    good, mixed = paths[0], next(path for path in paths if path.endswith("mixed"))
    chosen_from = [good, mixed, *(p for p in paths if p.endswith(("empty", "missing.yaml")))]
    odd = ["", " ", "\t\n", "'unclosed", '"', "\\", "\x00", "a\x00b", "é", "\udcff", "x" * 1001]
    odd += ["/no/such/engine", "no-such-engine-oriflamme --x", "true", "false", "cat", "yes"]
    odd += [engines[name] for name in ("folder", "not-executable", "no-interpreter", "binary")]
    odd += [engines["exits"]]

    def junk_engine(parts: tuple[str, bytes, int]) -> str:
        op, junk, times = parts
        return f"{engines['junk']} {op} {shlex.quote(junk.hex())} {times}"

    junk_engines = st.tuples(
        st.sampled_from(
            ["load", "load", "decision", "state", "answer", "quit", "hello", "all", "never"]
        ),
        JUNK_REPLIES,
        st.sampled_from([1, 1, 1, 2, 5000, MAX_LINE + 1]),
    ).map(junk_engine)
    commands = st.one_of(
        st.sampled_from(odd),
        junk_engines,
        junk_engines,
        junk_engines,
        st.text(max_size=8).map(lambda text: "/no/such/folder/" + text),
    )

    @FUZZ
    @given(
        commands,
        st.one_of(
            st.lists(st.sampled_from([good, good, mixed]), min_size=4, max_size=6),
            st.lists(st.sampled_from(chosen_from), min_size=1, max_size=3),
        ),
        st.lists(st.sampled_from(["-q", "--no-plugins"]), max_size=2),
    )
    def attempt(command: str, chosen: list[str], options: list[str]) -> None:
        argv = ["conformance", *options, "--engine", command, *chosen]
        status, out, err = run(argv)
        stops = [STOPPED.fullmatch(line) for line in err.splitlines()]
        stopped = [stop for stop in stops if stop is not None]
        rest = "".join(line for line in err.splitlines(True) if not STOPPED.fullmatch(line[:-1]))
        check(argv, status, out, rest)  # with the line that stops the run left out
        assert "internal error" not in out, out
        if status == 2:  # nothing is run before the engine has started
            assert out == ""
            return
        closing = re.fullmatch(r"(\d+) passed, (\d+) failed", out.splitlines()[-1])
        assert closing is not None, out[-300:]
        passed, failed = map(int, closing.groups())
        assert (status == 1) == (failed > 0)
        if stopped:
            assert len(stopped) == 1
            ran, scenarios = map(int, stopped[0].groups())
            assert passed + failed == ran < scenarios
            assert failed >= MAX_BREAKS_IN_A_ROW
        else:
            assert passed + failed == len(find_scenarios(chosen))

    attempt()


# ``perft``: junk depths and paths.

PERFT = ROOT / "tests" / "perft"
#: Positions every count of which, to MAX_DEPTH, takes a fraction of a second.
QUICK = [
    str(PERFT / "positions" / f"{name}.yaml") for name in ("base-round6-end", "base-tiny-placement")
]
COUNTS: dict[str, dict[int, int]] = yaml.safe_load((PERFT / "counts.yaml").read_text("utf-8"))


@pytest.mark.fuzz
def test_perft_takes_any_depth_and_path(paths: list[str], tmp_path: Path) -> None:
    over = tmp_path / "over.yaml"
    over.write_text(
        "name: over\nsets: [base]\nplayers: [red, blue, green]\n"
        "state: {round: 6, phase: resolution}\n",
        encoding="utf-8",
    )
    # Every path but the conformance scenario, whose deep counts would take hours.
    chosen_from = [*QUICK, *QUICK, str(over), str(PERFT / "counts.yaml"), *paths[1:]]
    depths = st.one_of(st.integers(-1, MAX_DEPTH + 1).map(str), NUMBERS)
    quick = st.sampled_from(QUICK).map(lambda path: [path])
    good_depth = st.integers(1, MAX_DEPTH).map(lambda depth: ["--depth", str(depth)])

    @FUZZ
    @given(
        # Mostly a path and a depth that can be counted, so that most runs count.
        st.one_of(*[quick] * 3, st.lists(st.sampled_from(chosen_from), max_size=2)),
        st.one_of(*[good_depth] * 3, _options(("--depth", depths))),
        st.one_of(
            st.sampled_from([[], ["--divide"], ["--no-plugins"]]),
            _options(("--divide", FLAG), *PLUGIN_OPTIONS),
        ),
    )
    def attempt(chosen: list[str], depth: list[str], options: list[str]) -> None:
        argv = ["perft", *chosen, *depth, *options]
        status, out, err = run(argv)
        check(argv, status, out, err)
        if status == 2 or "--help" in argv or "--" in argv:
            return
        assert status == 0
        counted, path = _last(argv, "--depth", 0), Path(chosen[0])
        lines = out.splitlines()
        if "--divide" in argv:
            total = int(lines[-1].removeprefix("total: "))
            assert sum(int(line.rsplit(": ", 1)[1]) for line in lines[:-1]) == total
        else:
            [line] = lines
            total = int(line)
        assert total == COUNTS[path.stem][counted]
        assert f"perft depth {counted}: {total:,} sequences in " in err

    attempt()


TYPED = st.one_of(
    st.integers(0, 9).map(str),
    st.sampled_from(["q", "b", "back", "", "²", "٣", "9" * 5000, "-1", "1.0", " 2 ", "\ufffd"]),
    st.text(max_size=5),
)


@pytest.mark.fuzz
def test_play_takes_anything_typed() -> None:
    @FUZZ
    @given(
        st.integers(0, 2**32),
        st.sampled_from(["3", "4", "5"]),
        st.sampled_from(["base", "ablaze", "base,ablaze"]),
        st.lists(TYPED, max_size=40),
    )
    def attempt(seed: int, families: str, sets: str, typed: list[str]) -> None:
        argv = ["play", "--seed", str(seed), "--families", families, "--sets", sets]
        status, out, err = run([*argv, "--no-plugins"], "\n".join(typed))
        check(argv, status, out, err)
        assert status == 0
        assert err == ""
        last = out.rstrip().splitlines()[-1]
        ended = r"The game is over: .*\. (You win|\w+ wins|.* share the win)\."
        assert re.fullmatch(rf"You left the game\.|{ended}", last), last

    attempt()


def _oriflamme(*args: str) -> list[str]:
    return [sys.executable, "-m", "oriflamme", *args]


@pytest.mark.parametrize(
    "argv",
    [
        ["plugins", "--json"],
        ["simulate", "--games", "3", "--jobs", "1", "--no-plugins"],
        ["cards"],
        ["conformance", str(ROOT / "tests" / "conformance" / "base" / "cards")],
    ],
)
def test_a_reader_that_stops_at_once_is_no_error(argv: list[str]) -> None:
    reading, writing = os.pipe()
    os.close(reading)  # the reader is gone before the first line is written
    with subprocess.Popen(_oriflamme(*argv), stdout=writing, stderr=subprocess.PIPE) as process:
        os.close(writing)
        _, err = process.communicate(timeout=PROCESS_SECONDS)
    assert err == b""
    assert process.returncode == 141


def test_a_reader_that_stops_after_a_line_is_no_error() -> None:
    argv = _oriflamme("play", "--seed", "3", "--no-plugins")
    reading, writing = os.pipe()
    with subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=writing, stderr=subprocess.PIPE
    ) as process:
        os.close(writing)
        with os.fdopen(reading, "rb") as screen:
            assert screen.readline().startswith(b"Oriflamme: 3 families")
        # The game waits for an answer; its next screen goes to a closed pipe.
        _, err = process.communicate(b"1\n" * 400, timeout=PROCESS_SECONDS)
    assert err == b""
    assert process.returncode == 141


def test_ctrl_c_stops_a_simulation_on_many_processes_quietly() -> None:
    argv = _oriflamme("simulate", "--games", str(10**6), "--jobs", "2", "--no-plugins")
    # Ctrl-C as a terminal delivers it, even when these tests run as a background job,
    # whose commands inherit SIGINT ignored: a handled signal is default after exec.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    with process:
        time.sleep(2)  # the workers are playing by now
        os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C reaches every process of the group
        out, err = process.communicate(timeout=PROCESS_SECONDS)
    assert (process.returncode, out, err) == (130, b"", b"")
