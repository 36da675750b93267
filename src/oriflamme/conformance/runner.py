"""Running scenarios: set up, play the steps, check the expectations, report.

A failing scenario reports its name and file, the step it reached, and expected
against actual for each key that differs, like a perft "divide". One bad file
never stops a run: whatever goes wrong with it is its failure, in one line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from ..core.decisions import Placement
from ..core.errors import IllegalAnswer, OriflammeError
from ..core.game import Game
from ..core.identity import CardId
from ..core.plugins import Registry
from ..core.position import Position
from .expect import actual_next, differences
from .model import Scenario, Step
from .position import build_game
from .scenario import load_scenario


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


class _StepFailed(Exception):
    pass


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


def run_paths(paths: Iterable[str | Path], registry: Registry) -> Iterator[ScenarioResult]:
    for path in find_scenarios(paths):
        yield run_file(path, registry)


#: The longest reason given for a failure, in characters (a plugin's error may be long).
MAX_REASON = 500

#: How an error that no check foresaw is reported: a bug to fix, never a verdict on the file.
INTERNAL = "internal error"


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_REASON else line[: MAX_REASON - 3] + "..."


def run_file(path: str | Path, registry: Registry) -> ScenarioResult:
    """Run one scenario file; a file that breaks the format is a failure, with its reason.

    Nothing a file holds makes this raise: a problem the checks name is reported as
    they word it; anything else as an ``internal error``, so that the run goes on.
    """
    name = "(unreadable scenario)"
    try:
        scenario = load_scenario(path)
        name = scenario.name
        return run_scenario(scenario, registry)
    except OriflammeError as exc:
        reason = _one_line(str(exc))
    except Exception as exc:  # the last safety net: one file must not end the run
        reason = _one_line(f"{INTERNAL}: {type(exc).__name__}: {exc}")
    return ScenarioResult(str(path), name, False, (reason,))


def run_scenario(scenario: Scenario, registry: Registry) -> ScenarioResult:
    game = build_game(scenario, registry)
    try:
        since = 0
        for step in scenario.steps:
            _play(game, step, since)
            since = len(game.events)
    except _StepFailed as failure:
        return ScenarioResult(scenario.path, scenario.name, False, (str(failure),))
    found = differences(scenario, game)
    if found:
        reached = f"after step {len(scenario.steps)} of {len(scenario.steps)}"
        return ScenarioResult(
            scenario.path, scenario.name, False, (f"expectations failed {reached}:", *found)
        )
    return ScenarioResult(scenario.path, scenario.name, True)


def _play(game: Game, step: Step, since: int) -> None:
    """Answer ``step``; ``since`` is where the log stood when the last step was answered."""
    where = f"step {step.number} ({step.where})"
    decision = game.decision
    if decision is None:
        raise _StepFailed(
            f"{where}: {step.family} should answer a {step.kind} decision, but the game is over"
            f"{_unasked(game, step, since)}"
        )
    if decision.family != step.family or decision.kind != step.kind:
        raise _StepFailed(
            f"{where}: expected {{{step.family}: {step.kind}}} to be asked, "
            f"but the game asks {actual_next(game)}{_unasked(game, step, since)}"
        )
    before = game.snapshot() if step.error else None
    try:
        game.answer(engine_answer(game, step), family=step.family)
    except IllegalAnswer as refused:
        if not step.error:
            raise _StepFailed(
                f"{where}: the engine refused {dict(step.answer)}: {_one_line(str(refused))}"
            ) from None
        if game.snapshot() != before:
            raise _StepFailed(f"{where}: the refused answer changed the game") from None
        return
    except OriflammeError as failed:
        raise _StepFailed(
            f"{where}: answering {dict(step.answer)} failed: {_one_line(str(failed))}"
        ) from None
    if step.error:
        raise _StepFailed(
            f"{where}: {dict(step.answer)} should have been refused, but the engine accepted it"
        )


def _unasked(game: Game, step: Step, since: int) -> str:
    """What the log says of the step's decision, if the engine applied it unasked.

    RULINGS R4 (FORMAT.md, ``play``): a decision with exactly one legal answer is
    applied without asking, so a scenario must not list it as a step.
    """
    labels = {card: label for label, card in game.position().ids.items()}

    def label(card: CardId | None) -> str:
        return labels.get(card, "a card") if card is not None else "no card"

    def by(card: CardId | None) -> bool:
        return label(card).split(".")[0] == step.family

    for event in game.events[since:]:
        done = ""
        if event.kind == "placed" and event.family == step.family:
            if step.kind == ("twin" if event.face_up else "place"):
                done = f"{step.family} placed {label(event.card)}"
        elif step.kind == "target" and event.kind == "eliminated" and by(event.by):
            done = f"{label(event.by)} eliminated {label(event.card)}"
        elif step.kind == "target" and event.kind in ("stolen", "bribed"):
            family = event.thief if event.kind == "stolen" else event.family
            if family == step.family:
                done = f"{label(event.card)} chose its card"
        elif step.kind == "move" and event.kind == "moved":
            done = f"{label(event.card)} was moved to {event.to}"
        if done:
            return (
                f"; {step.family}'s {step.kind} was not asked: it had one legal answer, "
                f"which the engine applied without asking ({done}; RULINGS R4): "
                "remove this step"
            )
    return ""


def engine_answer(game: Game, step: Step) -> Any:
    """The step's answer in the engine's terms: cards become ids and queue positions.

    The scenario names cards by label, as a referee who sees everything would; the
    engine's answers name a card in hand by its id and a card in the queue by its
    position, so that a family's answers never need another family's hidden cards.
    A card that is not a top card cannot be named by position, and is refused here,
    as the engine would.
    """
    answer = step.answer
    kind = step.kind
    if kind == "reveal":
        return answer["reveal"]
    if kind == "move":
        return answer["to"]
    if kind == "choose":
        return answer["choose"]
    position = game.position()
    if kind == "target":
        return _top_position(position, answer["target"], "target")
    at = answer["at"]
    spot = at if at in ("first", "last") else _top_position(position, at, "place on")
    if kind == "twin":
        return spot
    card = position.ids.get(answer["place"])
    if card is None:
        raise IllegalAnswer(f"cannot place {answer['place']}: there is no such card in this game")
    return Placement(card, spot)


def _top_position(position: Position, card: str, what: str) -> int:
    for index, stack in enumerate(position.queue):
        if stack[-1].card == card:
            return index
    covered = any(entry.card == card for stack in position.queue for entry in stack)
    where = "covered" if covered else "not in the queue"
    raise IllegalAnswer(
        f"cannot {what} {card}: it is {where}; only the top card of a "
        "position can be chosen (RULINGS R6)"
    )
