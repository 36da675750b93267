"""The command line, fuzzed: whatever is typed, one clear line and an exit status.

Each command gets argument lists drawn from its real options with junk values (huge,
negative, non-ASCII and malformed numbers, unknown sets, cards, variants, bots and
plugins, over-long text) and junk tokens, and ``conformance`` gets paths to missing,
empty, non-UTF-8, endless, deeply nested and over-long files; ``play`` also gets junk
typed at its prompt. Every command runs in this process through ``main(argv)``, its
streams replaced, under :func:`no_hang`. Only ``SystemExit`` with an int status may
escape, nothing prints a traceback, a refusal is one line naming the mistake, and no
value out of bounds (an integer option, ``--seat`` past the families, an unknown
plugin, ``conformance`` with nothing to run) is accepted.

Broken pipes and Ctrl-C are tested on real processes, each bounded in time.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oriflamme.cli import MAX_GAMES, MAX_JOBS, MAX_SEED, MAX_SIZE, main
from oriflamme.core.config import MAX_FAMILIES, MIN_FAMILIES

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
        assert re.fullmatch(r"You left the game\.|You win!|\w+ wins\.|Shared win: .*", last), last

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
            assert screen.readline().startswith(b"Oriflamme: 4 families")
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
