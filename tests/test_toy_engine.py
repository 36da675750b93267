"""The toy engine in Node.js (tests/engines/toy_engine.js) passes exactly the
``placement`` part of the conformance suite, as its header says.

It is run as an engine author runs it: from an export of the suite
(``oriflamme conformance --export DIR``), the export's own copy of the toy, in the
export's folder. Every install carries the suite, the compiled wheel's too, so nothing
is skipped but where Node.js is missing. No randomness: nothing to seed.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PLACEMENT = "tests/conformance/placement"


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not on PATH: the toy engine in tests/engines is Node.js")
    return found


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export") / "suite"
    done = subprocess.run(
        [sys.executable, "-m", "oriflamme", "conformance", "--export", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return folder


def run_toy(node: str, exported: Path, path: str) -> tuple[int, list[str], str]:
    """``oriflamme conformance`` over ``path`` (relative to the export) against the
    export's toy, from the export's folder: its status, its lines, its stderr."""
    toy = f"{shlex.quote(node)} {shlex.quote(str(exported / 'tests/engines/toy_engine.js'))}"
    argv = ["-m", "oriflamme", "conformance", "--no-plugins", "--engine", toy, path]
    done = subprocess.run(
        [sys.executable, *argv],
        cwd=exported,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout.splitlines(), done.stderr


def passed(lines: list[str]) -> set[str]:
    """The files of the PASS lines of a run."""
    return {line.removeprefix("PASS ").split(": ", 1)[0] for line in lines if line[:5] == "PASS "}


def scenarios(exported: Path, path: str) -> set[str]:
    return {p.relative_to(exported).as_posix() for p in (exported / path).rglob("*.yaml")}


def test_the_toy_passes_every_placement_scenario(node: str, exported: Path) -> None:
    status, lines, err = run_toy(node, exported, PLACEMENT)
    placement = scenarios(exported, PLACEMENT)
    assert len(placement) >= 8
    assert passed(lines) == placement
    assert lines[-1] == f"{len(placement)} passed, 0 failed"
    assert (status, err) == (0, "")


def test_over_the_whole_suite_the_toy_passes_the_placement_scenarios_only(
    node: str, exported: Path
) -> None:
    """Every other scenario fails, and cleanly: the toy refuses what it does not play
    with `unsupported`, so it never breaks (no run stopped, nothing on stderr)."""
    status, lines, err = run_toy(node, exported, "tests/conformance")
    placement = scenarios(exported, PLACEMENT)
    assert passed(lines) == placement
    others = len(scenarios(exported, "tests/conformance")) - len(placement)
    assert lines[-1] == f"{len(placement)} passed, {others} failed"
    assert (status, err) == (1, "")


class Toy:
    """A conversation with the export's toy over the protocol, one request at a time."""

    def __init__(self, node: str, exported: Path) -> None:
        self.process = subprocess.Popen(
            [node, str(exported / "tests/engines/toy_engine.js")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.ids = 0

    def __enter__(self) -> Toy:
        return self

    def __exit__(self, *exc: object) -> None:
        # A failed assertion leaves the toy running: stop it, so that no process or
        # pipe outlives the test (an unclosed one is a ResourceWarning, an error here).
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None
        assert stdout is not None
        self.ids += 1
        stdin.write(json.dumps({"id": self.ids, **request}) + "\n")
        stdin.flush()
        reply: dict[str, Any] = json.loads(stdout.readline())
        assert reply["id"] == self.ids
        return reply

    def ok(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = self.ask(request)
        assert reply["ok"] is True, reply
        return reply

    def refused(self, request: dict[str, Any]) -> str:
        reply = self.ask(request)
        assert reply["ok"] is False, reply
        code: str = reply["error"]["code"]
        return code

    def game(self) -> tuple[Any, Any]:
        """The position and the pending decision: what a refusal must leave as it was."""
        return self.ok({"op": "state"})["state"], self.ok({"op": "decision"})["next"]

    def quit(self) -> int:
        self.ok({"op": "quit"})
        return self.process.wait(timeout=10)


def load(*, sets: tuple[str, ...] = ("base",), **state: Any) -> dict[str, Any]:
    players = ["red", "blue", "green"]
    return {"op": "load", "sets": list(sets), "players": players, "variants": {}, "state": state}


def place(family: str, card: str, at: str) -> dict[str, Any]:
    return {"op": "answer", "family": family, "answer": {"place": card, "at": at}}


def test_the_toy_refuses_what_no_scenario_can_send_and_changes_nothing(
    node: str, exported: Path
) -> None:
    """The refusals the scenario format cannot write (the runner first checks that a
    step's family is asked a question of the step's kind): another family's turn, an
    answer of another kind. And the placement that would start the resolution phase,
    refused as `unsupported`, the game as it was."""
    with Toy(node, exported) as toy:
        assert toy.ok({"op": "hello", "protocol": 1})["protocol"] == 1
        hands = {"red": ["red.spy"], "blue": ["blue.spy", "blue.heir"], "green": ["green.spy"]}
        toy.ok(load(round=2, first_player="blue", queue=["red.lord"], hands=hands))
        before = toy.game()
        assert before[1] == {"blue": "place"}
        for wrong in [
            place("red", "red.spy", "red.lord"),  # red's turn comes last
            {"op": "answer", "family": "blue", "answer": {"reveal": True}},
            {"op": "answer", "family": "blue", "answer": {"target": "red.lord"}},
        ]:
            assert toy.refused(wrong) == "illegal_answer", wrong
            assert toy.game() == before
        toy.ok(place("blue", "blue.spy", "first"))
        toy.ok(place("green", "green.spy", "last"))
        state, asked = toy.game()
        assert (state["queue"], asked) == (["blue.spy", "red.lord", "green.spy"], {"red": "place"})
        assert toy.refused(place("red", "red.spy", "red.lord")) == "unsupported"
        assert toy.game() == (state, asked)
        assert toy.refused(load(sets=("base", "ablaze"))) == "unsupported"
        assert toy.refused({"op": "decision"}) == "bad_request"  # a refused load leaves no game
        assert toy.refused(load(round=3, phase="resolution", queue=["red.lord"])) == "unsupported"
        assert toy.quit() == 0
