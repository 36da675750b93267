"""Perft: the reference counts of tests/perft, checked three ways.

The counts in ``tests/perft/counts.yaml`` are checked against :func:`oriflamme.perft.perft`
and, independently, against :func:`naive`: a counter written here from the definition
in docs/perft.md alone. It never reads the engine's list of options: at each decision
it writes every answer the notation could hold (each card in hand at each spot, each
top card, each index...), turns each into the engine's terms itself, keeps those the
engine accepts, and plays each one. Each first answer of a divide is also replayed as
a ``play`` step through the conformance runner. Two small positions are counted by
hand. No randomness: nothing to seed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from oriflamme import FIRST, LAST, Answer, Game, Placement, Placements, Position, Registry
from oriflamme.cli import main
from oriflamme.conformance.model import Step
from oriflamme.conformance.position import build_game
from oriflamme.conformance.runner import run_scenario
from oriflamme.conformance.scenario import load_scenario, parse_scenario
from oriflamme.perft import MAX_DEPTH, PerftError, divide, perft

from .conftest import ROOT

PERFT = ROOT / "tests" / "perft"
POSITIONS = sorted((PERFT / "positions").glob("*.yaml"))
COUNTS: dict[str, dict[int, int]] = yaml.safe_load(
    (PERFT / "counts.yaml").read_text(encoding="utf-8")
)
#: The largest count checked against the engine (about 2 s in pure Python); the
#: deeper counts of the file take up to minutes each: ORIFLAMME_PERFT_LIMIT=N raises it.
ENGINE_LIMIT = int(os.environ.get("ORIFLAMME_PERFT_LIMIT", "200000"))
#: The naive counter plays every sequence out, answer by answer, each checked first:
#: it checks each position at the depths whose count is at most this (a few seconds).
NAIVE_LIMIT = 10_000
#: The depth at which each first answer is replayed from the scenario's text.
REPLAY_DEPTH = 3


def game_at(path: Path, registry: Registry) -> Game:
    return build_game(load_scenario(path), registry)


def test_every_position_has_reference_counts_to_depth_4_at_least() -> None:
    assert len(POSITIONS) >= 10
    assert sorted(COUNTS) == [path.stem for path in POSITIONS]
    for name, counts in COUNTS.items():
        assert isinstance(counts, Mapping), f"{name}: depth -> count expected"
        assert all(type(count) is int and count > 0 for count in counts.values()), name
        depths = sorted(counts)
        assert depths == list(range(1, len(depths) + 1)), f"{name}: depths {depths}"
        assert len(depths) >= 4, f"{name}: counts to depth {len(depths)} only"


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.stem)
def test_the_counts_are_the_reference_counts(path: Path, registry: Registry) -> None:
    game = game_at(path, registry)
    before = game.snapshot()
    counts = {depth: count for depth, count in COUNTS[path.stem].items() if count <= ENGINE_LIMIT}
    assert len(counts) >= 7, f"{path}: only {len(counts)} counts up to {ENGINE_LIMIT:,}"
    found = {depth: perft(game, depth) for depth in counts}
    assert found == counts, f"{path}: perft against tests/perft/counts.yaml"
    assert game.snapshot() == before, "perft leaves the game it counts from as it was"


def test_the_docs_table_is_the_reference_counts() -> None:
    """docs/perft.md's table of counts says what tests/perft/counts.yaml says."""
    text = (ROOT / "docs" / "perft.md").read_text(encoding="utf-8")
    table = text.split("## Reference counts", 1)[1].split("### Time per count", 1)[0]
    rows = {}
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0].startswith("`"):
            counts = [int(cell.replace(",", "")) for cell in cells[1:] if cell]
            rows[cells[0].strip("`")] = dict(enumerate(counts, start=1))
    assert rows == COUNTS


# The independent counter.


def in_engine_terms(position: Position, step: Step) -> Answer | None:
    """``step``'s answer as the engine takes it (docs/rulings.md P1: a card in the
    queue by the index of its position, a card in hand by its id), or None if it
    names a card that is not a top card (RULINGS R6) or not in the game."""
    answer = step.answer
    if step.kind in ("reveal", "move", "choose"):
        value: Answer = answer[{"reveal": "reveal", "move": "to", "choose": "choose"}[step.kind]]
        return value
    tops = {stack[-1].card: index for index, stack in enumerate(position.queue)}
    named = answer["target"] if step.kind == "target" else answer["at"]
    spot = named if named in ("first", "last") else tops.get(named)
    if spot is None or step.kind in ("target", "twin"):
        return spot
    card = position.ids.get(answer["place"])
    return None if card is None else Placement(card, spot)


def notation_answers(game: Game) -> list[tuple[Step, Answer]]:
    """Every answer to ``game``'s decision that the notation can write and the engine
    accepts, each once, with the engine's form of it (docs/scenarios.md, ``play``)."""
    decision = game.decision
    assert decision is not None
    position = game.position()
    family, kind = decision.family, decision.kind
    tops = [stack[-1].card for stack in position.queue]
    # docs/scenarios.md: in an empty queue `first` and `last` are one answer.
    ends = ["first", "last"] if position.queue else ["first"]
    candidates: list[dict[str, Any]]
    if kind == "place":
        hand = position.hands.get(family, ())
        candidates = [{"place": card, "at": at} for card in hand for at in [*ends, *tops]]
    elif kind == "reveal":
        candidates = [{"reveal": True}, {"reveal": False}]
    elif kind == "target":
        candidates = [{"target": card} for card in tops]
    elif kind == "move":
        candidates = [{"to": index} for index in range(len(position.queue) + 1)]
    elif kind == "twin":
        candidates = [{"at": at} for at in [*ends, *tops]]
    elif kind == "choose":
        candidates = [{"choose": word} for word in ("gain", "repeat")]
    else:
        pytest.fail(f"a {kind} decision: the positions use built-in kinds only")
    accepted = []
    for candidate in candidates:
        step = Step(0, family, kind, candidate, False, "perft")
        answer = in_engine_terms(position, step)
        if answer is not None and game.legal(answer):
            accepted.append((step, answer))
    return accepted


def naive(game: Game, depth: int) -> int:
    """docs/perft.md's definition, as plainly as it reads: every sequence played out."""
    decision = game.decision
    if decision is None or depth == 0:
        return 1
    answers = notation_answers(game)
    # RULINGS R4: a decision with one legal answer is never asked; and the engine
    # offers exactly the answers it accepts.
    assert len(answers) >= 2, f"{decision} is asked with {len(answers)} answer(s)"
    assert len(answers) == len(decision.options), f"{decision} offers other answers"
    total = 0
    for step, answer in answers:
        child = game.clone()
        child.answer(answer, family=step.family)
        total += naive(child, depth - 1)
    return total


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.stem)
def test_an_independent_counter_finds_the_reference_counts(path: Path, registry: Registry) -> None:
    game = game_at(path, registry)
    counts = COUNTS[path.stem]
    depths = [depth for depth in sorted(counts) if counts[depth] <= NAIVE_LIMIT]
    assert len(depths) >= 3, f"{path}: only depths {depths} are cheap enough to check"
    found = {depth: naive(game, depth) for depth in depths}
    assert found == {depth: counts[depth] for depth in depths}, f"{path}: naive counter"


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.stem)
def test_divide_adds_up_and_each_answer_replays_from_the_notation(
    path: Path, registry: Registry
) -> None:
    """Each line of a divide, put in the scenario's ``play``, is accepted by the
    conformance runner, and the count from there is the line's count."""
    game = game_at(path, registry)
    lines = divide(game, REPLAY_DEPTH)
    assert sum(count for _, count in lines) == COUNTS[path.stem][REPLAY_DEPTH]
    assert len({text for text, _ in lines}) == len(lines) == len(notation_answers(game))
    text = path.read_text(encoding="utf-8")
    for line, count in lines:
        scenario = parse_scenario(f"{text}play:\n  - {line}\n", f"{path} + {line}")
        assert run_scenario(scenario, registry).passed, f"{path}: {line} is not a valid step"
        (step,) = scenario.steps
        child = build_game(scenario, registry)
        answer = in_engine_terms(child.position(), step)
        assert answer is not None, f"{path}: {line} names no top card"
        child.answer(answer, family=step.family)
        assert perft(child, REPLAY_DEPTH - 1) == count, f"{path}: after {line}"


# Counted by hand.


def test_the_tiny_placement_counted_by_hand(registry: Registry) -> None:
    """tests/perft/positions/base-tiny-placement.yaml, round 1, empty queue.

    Red places one of its two Soldiers at the only spot (2 answers: the notation
    writes the copies apart); blue its Heir first or last (x2), green its Archer first
    or last (x2): 8 queues, 4 orders per Soldier, R = the Soldier:
    [G B R], [B R G], [G R B], [R B G]. The first card's reveal: x2, 16.
    Depth 5, per order, after the first card is kept hidden (its token: the next
    card's reveal, 2) or revealed:
    - green's Archer first: it must eliminate the first card (itself) or the last:
      2 answers, asked; 2 + 2 = 4 ([G B R] and [G R B]);
    - blue's Heir first: gains 2, nothing to ask; the Soldier's reveal: 2 + 2 = 4;
    - the Soldier first: its one neighbour, the Heir, is eliminated unasked (R4);
      the walk reaches green's Archer, whose reveal is asked: 2 + 2 = 4.
    So 8 queues x 4 = 32.
    """
    game = game_at(PERFT / "positions" / "base-tiny-placement.yaml", registry)
    assert [perft(game, depth) for depth in range(1, 6)] == [2, 4, 8, 16, 32]
    assert divide(game, 1) == [
        ("red: {place: red.soldier, at: first}", 1),
        ("red: {place: red.soldier.2, at: first}", 1),
    ]
    assert perft(game, 0) == 1


def test_the_royal_decree_counted_by_hand(registry: Registry) -> None:
    """tests/perft/positions/base-royal-decree.yaml: red's face-down Decree first, then
    [blue.spy up, blue.lord] | green.heir | [red.soldier up, red.archer] |
    green.ambush | blue.assassination.

    Depth 1: the Decree's reveal, 2. Depth 2: kept hidden, blue.lord's reveal comes
    next (2); revealed, it targets any of the 5 other top cards: 7. Depth 3: hidden
    then blue.lord kept or revealed, green.heir's reveal: 2 x 2 = 4. Revealed: a lone
    card may go to any index but its own among 6 positions (5 moves: docs/rulings.md
    P2); the top of a stack leaves the stack, so all 7 indices are moves. Tops of
    stacks: blue.lord, red.archer (7 each); lone: green.heir, green.ambush,
    blue.assassination (5 each): 29. 4 + 29 = 33.
    """
    game = game_at(PERFT / "positions" / "base-royal-decree.yaml", registry)
    assert [perft(game, depth) for depth in (1, 2, 3)] == [2, 7, 33]
    assert [text for text, _ in divide(game, 2)] == [
        "red: {reveal: true}",
        "red: {reveal: false}",
    ]
    lines = divide(game.clone(), 1)
    assert lines == [("red: {reveal: true}", 1), ("red: {reveal: false}", 1)]
    game.answer(True)
    assert [text for text, _ in divide(game, 1)] == [
        f"red: {{target: {card}}}"
        for card in ("blue.lord", "green.heir", "red.archer", "green.ambush", "blue.assassination")
    ]
    game.answer(1)  # blue.lord (position 1), the top of a stack: 7 places
    assert [text for text, _ in divide(game, 1)] == [f"red: {{to: {n}}}" for n in range(7)]


def test_a_finished_game_counts_once_at_any_depth(registry: Registry) -> None:
    game = game_at(PERFT / "positions" / "base-round6-end.yaml", registry)
    counts = COUNTS["base-round6-end"]
    # Every game from here ends within 10 decisions: deeper, the count stays.
    assert perft(game, 10) == perft(game, 14) == counts[10]
    assert counts[9] < counts[10]
    game = game_at(PERFT / "positions" / "base-tiny-placement.yaml", registry)
    while game.decision is not None:
        game.answer_option(0)
    assert [perft(game, depth) for depth in (0, 1, 5)] == [1, 1, 1]
    with pytest.raises(PerftError, match="the game is over"):
        divide(game, 1)


@pytest.mark.parametrize("depth", [-1, True, 1.0, "2"])
def test_a_depth_that_is_not_a_count_is_refused(depth: Any, registry: Registry) -> None:
    game = game_at(POSITIONS[0], registry)
    with pytest.raises(PerftError, match="depth"):
        perft(game, depth)
    with pytest.raises(PerftError, match="depth"):
        divide(game, depth)


def test_divide_needs_a_depth_of_1(registry: Registry) -> None:
    with pytest.raises(PerftError, match="divide needs a depth of 1 or more, not 0"):
        divide(game_at(POSITIONS[0], registry), 0)


def test_perft_and_divide_refuse_options_written_alike(registry: Registry) -> None:
    """An engine that offered ``first`` and ``last`` in an empty queue (docs/scenarios.md:
    one answer) would count one answer twice: both refuse to count it."""
    game = game_at(PERFT / "positions" / "base-tiny-placement.yaml", registry)
    decision = game.decision
    assert decision is not None
    assert isinstance(decision.options, Placements)
    assert not game.position().queue
    doubled = Placements(decision.options.cards, (FIRST, LAST))
    game._state.pending = decision._replace(options=doubled)  # an engine with this bug
    assert game.decision is not None
    assert len(game.decision.options) == 4
    for count in (lambda: perft(game, 1), lambda: perft(game, 3), lambda: divide(game, 1)):
        with pytest.raises(PerftError, match="two answers written alike"):
            count()


# The command.


def run_perft(argv: list[str]) -> int:
    """``oriflamme perft ARGV --no-plugins``, through the cli: its exit status."""
    try:
        return main(["perft", *argv, "--no-plugins"])
    except SystemExit as exit:  # argparse's own errors leave this way
        return int(exit.code or 0)


def test_the_command_prints_the_count_and_the_time(
    capsys: pytest.CaptureFixture[str], registry: Registry
) -> None:
    path = PERFT / "positions" / "base-royal-decree.yaml"
    assert run_perft([str(path), "--depth", "4"]) == 0
    out, err = capsys.readouterr()
    assert out == f"{COUNTS['base-royal-decree'][4]}\n"
    assert err.startswith(f"perft depth 4: {COUNTS['base-royal-decree'][4]} sequences in ")
    assert "per second" in err


def test_the_command_divides(capsys: pytest.CaptureFixture[str], registry: Registry) -> None:
    path = PERFT / "positions" / "ablaze-prince-twin.yaml"
    assert run_perft([str(path), "--depth", "3", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    total = COUNTS["ablaze-prince-twin"][3]
    expected = [f"{text}: {count}" for text, count in divide(game_at(path, registry), 3)]
    assert lines == [*expected, f"total: {total}"]
    assert sum(int(line.rsplit(": ", 1)[1]) for line in lines[:-1]) == total


def with_play(path: Path, steps: list[str], tmp_path: Path) -> Path:
    """A copy of the scenario at ``path`` with ``steps`` as its ``play``."""
    text = path.read_text(encoding="utf-8")
    assert "\nplay:" not in text
    copy = tmp_path / path.name
    lines = "".join(f"  - {step}\n" for step in steps)
    copy.write_text(f"{text}play:\n{lines}", encoding="utf-8")
    return copy


@pytest.mark.parametrize("name", ["base-royal-decree", "ablaze-prince-twin", "mixed-resolution"])
def test_the_command_counts_from_the_position_after_play(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/perft.md, reproducing the counts, step 4: the first line of a divide,
    appended to ``play``, divides again to that line's count, a ply shorter."""
    path = PERFT / "positions" / f"{name}.yaml"
    assert run_perft([str(path), "--depth", "3", "--divide"]) == 0
    first, count = capsys.readouterr().out.splitlines()[0].rsplit(": ", 1)
    played = with_play(path, [first], tmp_path)
    assert run_perft([str(played), "--depth", "2", "--divide"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"total: {count}"
    assert run_perft([str(played), "--depth", "2"]) == 0
    assert capsys.readouterr().out == f"{count}\n"


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        (["red: {reveal: maybe}"], "'reveal' must be true or false, not 'maybe'"),
        (["blue: {reveal: true}"], "yaml:22): expected {blue: reveal} to be asked"),
        (["red: {reveal: true}", "red: {target: red.nobody}"], "play: step 2 ("),
        (["red: {reveal: true}", "red: {target: red.spy}"], "play: step 2 ("),
    ],
    ids=["notation", "not-asked", "unknown-card", "covered-card"],
)
def test_a_play_step_that_cannot_be_played_is_one_line_with_status_2(
    steps: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played = with_play(PERFT / "positions" / "base-royal-decree.yaml", steps, tmp_path)
    assert run_perft([str(played), "--depth", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_a_play_step_for_a_decision_applied_unasked_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RULINGS R4: red's Soldier, first, has one neighbour, blue's Heir, and eliminates
    it unasked, so a step answering that target is refused, as the runner refuses it."""
    steps = [
        "red: {place: red.soldier, at: first}",
        "blue: {place: blue.heir, at: last}",
        "green: {place: green.archer, at: last}",
        "red: {reveal: true}",
        "red: {target: blue.heir}",
    ]
    played = with_play(PERFT / "positions" / "base-tiny-placement.yaml", steps, tmp_path)
    assert run_perft([str(played), "--depth", "1"]) == 2
    err = capsys.readouterr().err
    assert "play: step 5 (" in err
    assert "expected {red: target} to be asked, but the game asks {'green': 'reveal'}" in err


def _finished(tmp_path: Path) -> Path:
    path = tmp_path / "over.yaml"
    path.write_text(
        "name: over\nsets: [base]\nplayers: [red, blue, green]\n"
        "state: {round: 6, phase: resolution}\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["/no/such/file.yaml", "--depth", "2"], "/no/such/file.yaml: cannot read"),
        ([str(PERFT / "counts.yaml"), "--depth", "2"], "counts.yaml:"),
        ([str(POSITIONS[0]), "--depth", "0"], "--depth: must be at least 1, not 0"),
        ([str(POSITIONS[0]), "--depth", str(MAX_DEPTH + 1)], f"must be at most {MAX_DEPTH}"),
        ([str(POSITIONS[0]), "--depth", "two"], "not a whole number in digits 0-9: 'two'"),
        ([str(POSITIONS[0])], "the following arguments are required: --depth"),
        (["FINISHED", "--depth", "1"], "the game is over at this position"),
    ],
)
def test_a_mistake_is_one_line_with_status_2(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    registry: Registry,
) -> None:
    argv = [str(_finished(tmp_path)) if arg == "FINISHED" else arg for arg in argv]
    assert run_perft(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
