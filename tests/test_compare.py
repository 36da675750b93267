"""Finding where two engines differ (docs/engine-protocol.md, "Finding where two engines
differ"; docs/perft.md, ``--engine``).

``oriflamme conformance --compare CMD`` finds each deliberate mistake of
tests/rule_mutations.py below, served through the protocol by tests/mutant_engine.py,
within a bounded number of games, and writes a scenario that fails on the mistaken
engine and passes here; against our own engine as another program it finds nothing.
``oriflamme perft --engine CMD`` names the first branch whose counts differ. Every
seed is drawn as a user's would be (the whole range) and printed.
"""

from __future__ import annotations

import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from oriflamme import Registry
from oriflamme.cli import main
from oriflamme.conformance import RemoteEngine, run_file
from oriflamme.conformance.compare import flow, word
from oriflamme.installed import form
from oriflamme.limits import MAX_SEED

from .conftest import ROOT
from .rule_mutations import MUTATIONS
from .test_engine_protocol import FAKE

PYTHON = shlex.quote(sys.executable)
OURS = f"{PYTHON} -m oriflamme engine --no-plugins"
MUTANT = ROOT / "tests" / "mutant_engine.py"
POSITIONS = ROOT / "tests" / "perft" / "positions"

#: The mistakes are patches of Python methods, which a compiled engine never calls.
pure = pytest.mark.skipif(
    form() != "pure Python",
    reason="the compiled engine's methods cannot be patched with mistakes: run in pure Python",
)


def mutant(name: str) -> str:
    return f"{PYTHON} {shlex.quote(str(MUTANT))} {name} --no-plugins"


def user_seed(games: int) -> int:
    """A first seed as ``--compare`` draws one when none is given, printed."""
    seed = random.SystemRandom().randrange(MAX_SEED - games + 2)
    print(f"--seed {seed}")
    return seed


def compare_argv(command: str, games: int, seed: int, out: Path, *options: str) -> list[str]:
    argv = ["conformance", "--no-plugins", "--compare", command, "--games", str(games)]
    return [*argv, "--seed", str(seed), "--out", str(out), "--progress", "never", *options]


def compare(
    capsys: pytest.CaptureFixture[str],
    command: str,
    games: int,
    seed: int,
    out: Path,
    *options: str,
) -> tuple[int, str, str]:
    """``oriflamme conformance --compare``'s status, stdout and stderr, in this process
    (one process: forking a test's process is asking for trouble)."""
    printed = capsys.readouterr().out  # the seed: printed again below, with the run's
    status = main([*compare_argv(command, games, seed, out, "--jobs", "1", *options)])
    out_text, err_text = capsys.readouterr()
    print(printed + out_text, err_text)
    return status, out_text, err_text


#: The mistakes looked for, with the sets their games are dealt from: base and Ablaze
#: rulings, the walk, placement, the round's end, abilities, and each way a difference
#: shows (a position, a decision, an answer offered or not offered).
FOUND = {
    "gone-position-skips-the-next": "base,ablaze",
    "uncovered-card-turns-face-down": "base,ablaze",
    "placement-goes-anticlockwise": "base",
    "first-player-tile-stays": "base",
    "game-ends-after-round-5": "base",
    "decree-may-move-itself": "base",
    "assassination-cannot-target-itself": "base",
    "spy-picks-any-top-card": "base",
    "plot-discarded-after-its-first-activation": "ablaze",
    "bribery-on-top-of-a-stack": "ablaze",
    "trap-attacker-stays": "ablaze",
    "schemer-never-discarded": "ablaze",
    "impersonation-puts-nothing-in": "ablaze",
    "cutthroat-sweeps-face-down-cards": "ablaze",
}
#: Games each is given: each is found in the first few, nearly always the first.
GAMES = 100
DIFFERENCE = re.compile(
    r"difference in game (\d+) of \d+ \(seed (\d+)\), after \d+ of its answers "
    r"\(([\d,]+) answers compared in all\)"
)


def test_the_mistakes_looked_for_are_mutations_of_base_and_ablaze() -> None:
    rulings = {mutation.name: mutation.ruling for mutation in MUTATIONS}
    assert set(FOUND) <= set(rulings)
    assert len(FOUND) >= 10
    assert len({rulings[name] for name in FOUND}) >= 10
    assert set(FOUND.values()) >= {"base", "ablaze"}


@pure
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FOUND))
def test_compare_finds_the_mistake_and_writes_a_scenario_that_shows_it(
    name: str, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = user_seed(GAMES)
    status, out, _ = compare(capsys, mutant(name), GAMES, seed, tmp_path, "--sets", FOUND[name])
    assert status == 1, out
    found = DIFFERENCE.search(out)
    assert found is not None, out
    with capsys.disabled():
        print(f"\n{name}: found in game {found[1]}, after {found[3]} answers", end="")
    [path] = tmp_path.glob("difference-*.yaml")
    assert path.name == f"difference-{found[2]}.yaml"
    assert f"wrote {path} (" in out
    assert run_file(path, registry).passed  # `oriflamme conformance FILE` passes
    with RemoteEngine(mutant(name)) as engine:
        result = run_file(path, registry, engine)
    assert not result.passed, "the scenario passes on the mistaken engine"
    # What the run printed is how the file fails there.
    assert all(f"  {line}" in out for line in result.problems)


@pytest.mark.slow
def test_compare_finds_no_difference_with_our_own_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = 12
    seed = user_seed(games)
    status, out, err = compare(capsys, OURS, games, seed, tmp_path)
    assert status == 0, out
    label = RemoteEngine(OURS).label
    assert out.startswith(f"comparing oriflamme with {label}: {games} games, seeds {seed} to ")
    assert f"to {seed + games - 1}; their legal answers compared too\n" in out
    assert re.search(rf"no difference: {games} games and [\d,]+ answers compared in ", out)
    assert err == ""
    assert not list(tmp_path.iterdir())


def test_a_written_value_reads_back_as_itself() -> None:
    assert word("red.soldier.2") == "red.soldier.2"
    assert word("no") == '"no"'  # YAML 1.1 would read a bare no as false
    assert flow({"no": ["red.spy", {"card": "blue.lord", "up": True}], "to": 3}) == (
        '{"no": [red.spy, {card: blue.lord, up: true}], to: 3}'
    )


@pure
@pytest.mark.slow
def test_what_is_found_does_not_depend_on_the_number_of_processes(tmp_path: Path) -> None:
    """Game i has seed SEED+i whichever process plays it, and the difference reported
    is the earliest game's: two processes report what one does."""
    seed = user_seed(60)
    found = []
    for jobs in ("1", "2"):
        argv = compare_argv(mutant("spy-picks-any-top-card"), 60, seed, tmp_path / jobs)
        run = subprocess.run(
            [sys.executable, "-m", "oriflamme", *argv, "--sets", "base", "--jobs", jobs],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        print(run.stdout, run.stderr)
        assert run.returncode == 1, run.stderr
        difference = DIFFERENCE.search(run.stdout)
        assert difference is not None
        found.append(difference[0])
    assert found[0] == found[1]


NO_OPTIONS = """\
import sys
from oriflamme import Registry
from oriflamme.conformance import serve
serve.OPS = tuple(op for op in serve.OPS if op != "options")
sys.exit(serve.serve(sys.stdin.buffer, sys.stdout.buffer, Registry(entry_points=False)))
"""


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Our engine without the optional op, and engines that break the protocol."""
    folder = tmp_path_factory.mktemp("engines")
    (folder / "no_options.py").write_text(NO_OPTIONS, encoding="utf-8")
    (folder / "fake.py").write_text(FAKE, encoding="utf-8")
    return {
        "no options": f"{PYTHON} {shlex.quote(str(folder / 'no_options.py'))}",
        "fake": f"{PYTHON} {shlex.quote(str(folder / 'fake.py'))}",
    }


def test_an_engine_without_options_is_compared_on_decisions_and_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engines: dict[str, str]
) -> None:
    seed = user_seed(3)
    status, out, _ = compare(capsys, engines["no options"], 3, seed, tmp_path)
    assert status == 0, out
    assert "; it lists no legal answers (options: unsupported)\n" in out
    assert re.search(r"no difference: 3 games and [\d,]+ answers compared", out)


@pytest.mark.parametrize(
    "broken",
    [
        ("dies", "it exited with status 3 before replying to load"),
        ("garbage", "its reply to load is not JSON: 'hello there'"),
    ],
)
def test_an_engine_that_breaks_is_a_difference_shown_by_a_scenario(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    engines: dict[str, str],
    registry: Registry,
    broken: tuple[str, str],
) -> None:
    mode, what = broken
    seed = user_seed(5)
    status, out, err = compare(capsys, f"{engines['fake']} {mode}", 5, seed, tmp_path)
    assert status == 1, out
    assert err == ""  # no traceback
    assert f"difference in game 1 of 5 (seed {seed}), after 0 of its answers" in out
    assert "the engine fails to load a position of round 1's placement phase" in out
    assert what in out
    [path] = tmp_path.glob("*.yaml")
    assert f"wrote {path} (0 steps, from the loaded position)" in out
    assert run_file(path, registry).passed


def test_mistakes_in_what_was_asked_are_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = str(user_seed(1))
    for argv, said in [
        (["--compare", "/no/such/engine"], 'engine "/no/such/engine": cannot start it'),
        (["--compare", OURS, str(tmp_path)], "--compare CMD plays games of its own"),
        (["--compare", OURS, "--sets", "moon"], "moon"),
        (["--compare", OURS, "--seed", str(MAX_SEED), "--games", "2"], "the last game's seed"),
        (["--compare", OURS, "--families", "6"], "a game has 3 to 5 families, not 6"),
    ]:
        try:
            status = main(["conformance", "--no-plugins", "--seed", seed, *argv])
        except SystemExit as exited:  # argparse's own exit, as for any bad option
            status = int(str(exited.code))
        out, err = capsys.readouterr()
        assert status == 2, (argv, out, err)
        assert err.count("\n") == 1
        assert said in err
        assert "Traceback" not in err


# perft --engine: the first branch whose counts differ, one ply at a time.


@pure
def test_perft_names_the_first_branch_whose_counts_differ(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = POSITIONS / "base-decree-on-a-stack.yaml"
    engine = mutant("decree-may-move-itself")
    assert main(["perft", str(path), "--depth", "3", "--engine", engine, "--no-plugins"]) == 1
    out = capsys.readouterr().out
    label = RemoteEngine(engine).label
    assert out == (
        f"depth 3: oriflamme 13, {label} 18\n"
        "red: {reveal: true}: oriflamme 9, the engine 14\n"
        "  red: {target: red.royal_decree}: the engine 5, oriflamme does not offer it\n"
        "the first branch whose counts differ: red: {reveal: true}; "
        "red: {target: red.royal_decree}\n"
    )


def test_perft_agrees_with_our_own_engine_and_needs_options(
    capsys: pytest.CaptureFixture[str], engines: dict[str, str]
) -> None:
    path = str(POSITIONS / "base-royal-decree.yaml")
    assert main(["perft", path, "--depth", "4", "--engine", OURS, "--no-plugins"]) == 0
    out = capsys.readouterr().out
    label = RemoteEngine(OURS).label
    assert out == f"depth 4: oriflamme 66, {label} 66\nevery count agrees: 2 first answers\n"
    engine = engines["no options"]
    assert main(["perft", path, "--depth", "2", "--engine", engine, "--no-plugins"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"oriflamme: error: {RemoteEngine(engine).label} does not list the legal answers (the "
        "protocol's options op, docs/engine-protocol.md), which perft --engine counts\n"
    )
