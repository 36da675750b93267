"""Running scenarios: set up, play the steps, check the expectations, report.

A failing scenario reports its name and file, the step it reached, and expected
against actual for each key that differs, like a perft "divide". One bad file
never stops a run: whatever goes wrong with it is its failure, in one line.

A scenario runs against an :class:`~.engines.Engine`: by default this project's, in
this process; or any engine that speaks docs/engine-protocol.md
(:class:`~.remote.RemoteEngine`). The file's own checks (its format, and whether
its position is one the rules can reach) are the runner's, the same for every
engine, so that a broken file is reported alike whichever engine is under test.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import attrs

from oriflamme import OriflammeError, Registry
from oriflamme.text import cut

from .engines import Engine, LocalEngine, Setup, engine_answer
from .expect import differences
from .model import Scenario, Step
from .position import build_game, checked_position
from .protocol import ENGINE_ERROR, REFUSALS, EngineRefused, printable
from .scenario import load_scenario

__all__ = [
    "ScenarioResult",
    "StepFailed",
    "engine_answer",
    "find_scenarios",
    "play_step",
    "run_file",
    "run_paths",
]


@attrs.frozen
class ScenarioResult:
    path: str
    name: str
    passed: bool
    problems: tuple[str, ...] = ()

    def line(self) -> str:
        status = "PASS" if self.passed else "FAIL"
        return f"{status} {self.path}: {self.name}"

    def report(self) -> str:
        """One line if it passed; with every problem, indented, if it failed."""
        return "\n".join([self.line(), *(f"    {p}" for p in self.problems)])


class StepFailed(Exception):
    """A step that could not be played: not the question asked, or refused; the message
    names the step and its line."""


def find_scenarios(paths: Iterable[str | Path]) -> list[Path]:
    """Every ``*.yaml`` file under ``paths`` (files given directly are kept), sorted."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
        elif path.exists():
            found.append(path)
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return found


def run_paths(
    paths: Iterable[str | Path], registry: Registry, engine: Engine | None = None
) -> Iterator[ScenarioResult]:
    for path in find_scenarios(paths):
        yield run_file(path, registry, engine)


#: The longest reason given for a failure, in characters (a plugin's error may be long).
MAX_REASON = 500

#: How an error that no check foresaw is reported: a bug to fix, never a verdict on the file.
INTERNAL = "internal error"


def _one_line(text: str) -> str:
    """``text`` on one line, cut short, and safe to print: an engine's words may hold
    escape sequences or bidi overrides, which are shown escaped. Not :func:`one_line`:
    the escaping comes between the folding of white space and the cut, so that an
    escape counts in the length and a line break is folded rather than escaped."""
    return cut(printable(" ".join(text.split())), MAX_REASON)


def run_file(path: str | Path, registry: Registry, engine: Engine | None = None) -> ScenarioResult:
    """Run one scenario file against ``engine`` (default: ours, in this process); a file
    that breaks the format is a failure, with its reason.

    Nothing a file holds, nor anything an engine does, makes this raise: a problem the
    checks name is reported as they word it; anything else as an ``internal error``, so
    that the run goes on.
    """
    name = "(unreadable scenario)"
    try:
        scenario = load_scenario(path)
        name = scenario.name
        return run_scenario(scenario, registry, engine)
    except OriflammeError as exc:
        reason = _one_line(str(exc))
    except Exception as exc:  # the last safety net: one file must not end the run
        reason = _one_line(f"{INTERNAL}: {type(exc).__name__}: {exc}")
    return ScenarioResult(str(path), name, False, (reason,))


def run_scenario(
    scenario: Scenario, registry: Registry, engine: Engine | None = None
) -> ScenarioResult:
    if engine is None:
        engine = LocalEngine(registry, build_game(scenario, registry))
    else:
        position, config = checked_position(scenario, registry)
        setup = Setup(scenario.sets, scenario.players, scenario.variants, position, config)
        try:
            engine.load(setup)
        except EngineRefused as refused:
            reason = f"the engine refused the starting position: {refused}"
            return _failed(scenario, _one_line(reason))
        except OriflammeError as broken:
            return _failed(scenario, _one_line(f"loading the starting position: {broken}"))
    try:
        for step in scenario.steps:
            play_step(engine, step)
    except StepFailed as failure:
        return _failed(scenario, str(failure))
    try:
        found = differences(scenario, engine.table(), engine.decision())
    except OriflammeError as broken:
        reason = f"reading the position after the last step: {broken}"
        return _failed(scenario, _one_line(reason))
    if found:
        reached = f"after step {len(scenario.steps)} of {len(scenario.steps)}"
        return ScenarioResult(
            scenario.path, scenario.name, False, (f"expectations failed {reached}:", *found)
        )
    return ScenarioResult(scenario.path, scenario.name, True)


def _failed(scenario: Scenario, reason: str) -> ScenarioResult:
    return ScenarioResult(scenario.path, scenario.name, False, (reason,))


def play_step(engine: Engine, step: Step) -> None:
    """Answer ``step``, after checking that the engine asks for it."""
    where = f"step {step.number} ({step.where})"
    try:
        _answer(engine, step, where)
    except OriflammeError as broken:  # the engine could not be asked (a remote one died)
        raise StepFailed(f"{where}: {_one_line(str(broken))}") from None


def _answer(engine: Engine, step: Step, where: str) -> None:
    asked = engine.decision()
    if asked == "end":
        raise StepFailed(
            f"{where}: {step.family} should answer a {step.kind} decision, but the game is over"
            f"{engine.unasked(step)}"
        )
    if asked != {step.family: step.kind}:
        raise StepFailed(
            f"{where}: expected {{{step.family}: {step.kind}}} to be asked, "
            f"but the game asks {asked}{engine.unasked(step)}"
        )
    before = engine.fingerprint() if step.error else None
    try:
        engine.answer(step)
    except EngineRefused as refused:
        reason = refused.message if refused.code in (*REFUSALS, ENGINE_ERROR) else str(refused)
        if refused.code not in REFUSALS:
            raise StepFailed(
                f"{where}: answering {dict(step.answer)} failed: {_one_line(reason)}"
            ) from None
        if not step.error:
            raise StepFailed(
                f"{where}: the engine refused {dict(step.answer)}: {_one_line(reason)}"
            ) from None
        if engine.fingerprint() != before:
            raise StepFailed(f"{where}: the refused answer changed the game") from None
        return
    if step.error:
        raise StepFailed(
            f"{where}: {dict(step.answer)} should have been refused, but the engine accepted it"
        )
