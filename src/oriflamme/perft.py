"""Perft: how many distinct sequences of decisions a position has, to a given depth.

As in chess engines, counting every path through the game tree from a fixed position
checks that two engines (or two versions of one) offer the same legal answers and
play them the same way, without agreeing on anything but the scenario notation.

The definition (docs/perft.md says it in full, with the reference counts):

- The position is the one a scenario's ``state`` sets, advanced to its first asked
  decision, then its ``play`` steps played as the conformance runner plays them
  (:func:`position_after_play`); its ``expect`` is ignored.
- A ply is one **asked** decision, of any kind (place, reveal, target, move, twin,
  choose, and any kind a plugin adds). A decision with one legal answer is never
  asked (docs/scenarios.md, RULINGS R4): the engine applies it and it is no ply.
- Two answers are distinct when the scenario notation writes them differently: the
  step ``red: {place: red.soldier.2, at: first}`` differs from ``red: {place:
  red.soldier, at: first}``, even though the positions they lead to are alike. The
  engine must offer each answer once: options written alike (``first`` and ``last``
  in an empty queue, say) are a :class:`PerftError`, from :func:`perft` and
  :func:`divide` alike.
- ``perft(position, 0)`` is 1; a finished game counts 1 at any depth (the sequence
  that ended it, cut short); otherwise ``perft(p, n)`` is the sum over the asked
  decision's answers ``a`` of ``perft(p after a, n - 1)``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Mapping
from typing import Any

from oriflamme import Decision, Game, OriflammeError, Placements, Registry

from .conformance.compare import make_step, word
from .conformance.engines import LocalEngine, Setup, answer_options
from .conformance.model import Scenario, Step
from .conformance.position import build_game, checked_position
from .conformance.protocol import UNSUPPORTED, EngineRefused
from .conformance.remote import RemoteEngine
from .conformance.runner import StepFailed, play_step
from .conformance.scenario import load_scenario

#: The deepest count the command runs: each ply multiplies the work by the number of
#: answers (a placement offers dozens), so deeper is hours or days, not a check.
MAX_DEPTH = 10


#: The kinds whose distinct options :func:`_answer` always writes apart (a card's
#: label, a top card's label and a word name one thing each), but for ``first`` and
#: ``last`` in an empty queue.
_WRITTEN_APART = frozenset({"place", "reveal", "target", "move", "twin", "choose"})


class PerftError(OriflammeError):
    """A position perft cannot count from: a finished game, a bad depth, a ``play``
    step that cannot be played, or a decision offering two answers written alike."""


def position_after_play(scenario: Scenario, registry: Registry) -> Game:
    """The game at ``scenario``'s starting position after its ``play`` steps, each
    played as the conformance runner plays it: the step must be the decision asked
    (RULINGS R4: an unasked one is refused) and be accepted, or refused if it says
    ``error: true``. A step that is not is a :class:`PerftError`, in one line."""
    engine = LocalEngine(registry, build_game(scenario, registry))
    try:
        for step in scenario.steps:
            play_step(engine, step)
    except StepFailed as failure:
        raise PerftError(f"play: {failure}") from None
    return engine.game


def perft(game: Game, depth: int) -> int:
    """The number of distinct sequences of ``depth`` asked decisions from ``game``.

    ``game`` is left as it is. A game that ends before ``depth`` decisions counts the
    sequence that ended it once (see the module's docstring)."""
    if type(depth) is not int or depth < 0:
        raise PerftError(f"the depth is a whole number, 0 or more, not {depth!r}")
    return _count(game.clone(), depth)


def _count(game: Game, depth: int) -> int:
    """``perft`` on a game this function may change (a clone of the caller's)."""
    decision = game.decision
    if decision is None or depth == 0:
        return 1
    # The options are the distinct answers: the engine offers each answer once (checked
    # here, as divide checks it), and never a decision with one (core/control.py
    # refuses a game that does).
    width = _width(game, decision)
    if depth == 1:
        return width  # each answer ends one sequence: no need to play it
    total = 0
    for number in range(width):
        # The last answer is played on the game itself: it is not needed afterwards.
        child = game if number == width - 1 else game.clone()
        child.answer_option(number)
        total += _count(child, depth - 1)
    return total


def _width(game: Game, decision: Decision) -> int:
    """``len(answer_texts(game))``, raising as it does, but cheap where it can be: the
    built-in kinds write distinct options apart unless the queue is empty (``first``
    and ``last`` are then one answer), so their options need only be distinct."""
    options = decision.options
    if decision.kind in _WRITTEN_APART and (
        game._state.queue or decision.kind not in ("place", "twin")
    ):
        if isinstance(options, Placements):
            cards, ats = options.cards, options.ats
            if len(set(cards)) == len(cards) and len(set(ats)) == len(ats):
                return len(options)
        else:
            try:
                # Not bool and int alike (True == 1): they are written apart.
                keys = {(type(option), option) for option in options}
            except TypeError:  # an unhashable option: written out below
                keys = set()
            if len(keys) == len(options):
                return len(options)
    return len(answer_texts(game))


def divide(game: Game, depth: int) -> list[tuple[str, int]]:
    """Each answer to ``game``'s decision, as a scenario step writes it, with the count
    of the sequences of ``depth`` decisions that start with it, in the order of the
    decision's options. The counts add up to ``perft(game, depth)``."""
    return list(divided(game, depth))


def divided(game: Game, depth: int) -> Iterator[tuple[str, int]]:
    """:func:`divide`, one answer at a time: a long count shows its progress."""
    if type(depth) is not int or depth < 1:
        raise PerftError(f"divide needs a depth of 1 or more, not {depth!r}")
    if game.decision is None:
        raise PerftError("the game is over: no decision to divide by")
    for number, text in enumerate(answer_texts(game)):
        child = game.clone()
        child.answer_option(number)
        yield text, _count(child, depth - 1)


def answer_texts(game: Game) -> list[str]:
    """The options of ``game``'s decision as ``play`` steps write them (docs/scenarios.md), in
    the engine's order, e.g. ``red: {place: red.spy, at: first}``.

    Two options written alike would be one answer to another engine (``first`` and
    ``last`` in an empty queue, docs/scenarios.md, are written ``first`` here); the built-in
    kinds never offer that (docs/rulings.md, R4), and a plugin's kind that did could
    not be counted by this definition: a :class:`PerftError` says so."""
    decision = game.decision
    if decision is None:
        return []
    texts = [step_text(decision.family, answer) for answer in answer_options(game)]
    if len(set(texts)) != len(texts):
        twice = sorted({text for text in texts if texts.count(text) > 1})
        raise PerftError(
            f"the {decision.kind} decision offers two answers written alike ({twice[0]}): "
            "perft counts answers as the scenario notation writes them"
        )
    return texts


def step_text(family: str, answer: Mapping[str, Any]) -> str:
    """``family``'s ``answer`` as a ``play`` step writes it: ``red: {reveal: true}``."""
    return f"{family}: {{{answer_text(answer)}}}"


def answer_text(answer: Mapping[str, Any]) -> str:
    """An answer in the notation of a ``play`` step, without its braces."""
    return ", ".join(f"{key}: {word(value)}" for key, value in answer.items())


# The command.


def perft_command(args: argparse.Namespace, registry: Registry) -> int:
    """Print the count (with ``--divide``, one line per first answer, then the total);
    the time taken goes to stderr. A file that is not a scenario, a ``play`` step that
    cannot be played, or a position with no decision, is an :class:`OriflammeError`
    (one line, status 2, from the cli)."""
    scenario = load_scenario(args.path)
    game = position_after_play(scenario, registry)
    if game.decision is None:
        after = " after its play steps" if scenario.steps else ""
        raise PerftError(
            f"{args.path}: the game is over at this position{after}: no decision to count"
        )
    if args.engine is not None:
        return compare_command(args, scenario, game, registry)
    start = time.perf_counter()
    if args.divide:
        total = 0
        for text, count in divided(game, args.depth):
            print(f"{text}: {count}", flush=True)
            total += count
        print(f"total: {total}")
    else:
        total = perft(game, args.depth)
        print(total)
    seconds = time.perf_counter() - start
    rate = f"{total / seconds:,.0f}" if seconds > 0 else "-"
    print(
        f"perft depth {args.depth}: {total:,} sequences in {seconds:.3f} s ({rate} per second)",
        file=sys.stderr,
    )
    return 0


# Against another engine.

#: Who ours is, and who the other, in what is printed.
OURS, THEIRS = "oriflamme", "the engine"


class RemoteTree:
    """The other engine's game tree from a perft position, walked over the protocol.

    The protocol has no undo: a node is reached by loading the scenario's starting
    position and playing its steps and then the node's path of answers again, unless
    the engine stands on the node's parent (going down costs one answer)."""

    def __init__(self, engine: RemoteEngine, scenario: Scenario, registry: Registry) -> None:
        position, config = checked_position(scenario, registry)
        self.setup = Setup(scenario.sets, scenario.players, scenario.variants, position, config)
        # The steps marked error are refused, and change nothing.
        self.steps = tuple(step for step in scenario.steps if not step.error)
        self.engine = engine
        self.at: tuple[Step, ...] | None = None  # where the engine stands

    def go(self, path: tuple[Step, ...]) -> None:
        if path == self.at:
            return
        at, self.at = self.at, None  # unknown until the answers are in
        if at is not None and path[:-1] == at and path:
            self.engine.answer(path[-1])
        else:
            self.engine.load(self.setup)
            for step in (*self.steps, *path):
                self.engine.answer(step)
        self.at = path

    def options(self, path: tuple[Step, ...]) -> list[tuple[str, Step]] | None:
        """The answers offered at ``path``, each as a ``play`` step writes it and as a
        step; None once the game is over."""
        self.go(path)
        asked = self.engine.decision()
        if not isinstance(asked, dict):
            return None
        ((family, _),) = asked.items()
        return [
            (step_text(family, answer), make_step(family, answer))
            for answer in self.engine.options()
        ]

    def count(self, path: tuple[Step, ...], depth: int) -> int:
        """``perft`` of the node at ``path``."""
        if depth == 0:
            return 1
        options = self.options(path)
        if options is None:
            return 1
        if depth == 1:
            return len(options)
        return sum(self.count((*path, step), depth - 1) for _, step in options)

    def divide(self, path: tuple[Step, ...], depth: int) -> dict[str, tuple[Step, int]] | None:
        """Each answer at ``path``, written, with its step and its count."""
        options = self.options(path)
        if options is None:
            return None
        return {text: (step, self.count((*path, step), depth - 1)) for text, step in options}


def compare_command(
    args: argparse.Namespace, scenario: Scenario, game: Game, registry: Registry
) -> int:
    """``perft PATH --depth N --engine CMD``: 0 if every first answer's count agrees,
    1 naming the first branch, one ply at a time, whose counts differ."""
    began = time.perf_counter()
    with RemoteEngine(args.engine) as engine:
        tree = RemoteTree(engine, scenario, registry)
        try:
            tree.options(())
        except EngineRefused as refused:
            if refused.code != UNSUPPORTED:
                raise PerftError(f"{engine.label} refuses the perft position: {refused}") from None
            raise PerftError(
                f"{engine.label} does not list the legal answers (the protocol's options "
                "op, docs/engine-protocol.md), which perft --engine counts"
            ) from None
        try:
            status = descend(tree, game, args.depth, engine.label)
        except OriflammeError as failed:  # the engine broke, or refused its own answer
            print(f"{THEIRS} fails: {failed}")
            status = 1
    print(f"perft depth {args.depth} on both: {time.perf_counter() - began:.3f} s", file=sys.stderr)
    return status


def descend(tree: RemoteTree, game: Game, depth: int, label: str) -> int:
    """Divide on both from the top, and go down the first branch whose counts differ."""
    path: tuple[Step, ...] = ()
    named: list[str] = []
    ours_total = perft(game, depth)
    theirs_total = tree.count(path, depth)
    print(f"depth {depth}: {OURS} {ours_total:,}, {label} {theirs_total:,}")
    indent = ""
    while True:
        mine = dict(divided(game, depth))
        theirs = tree.divide(path, depth)
        if theirs is None:
            print(f"{indent}{THEIRS} ends the game here, and {OURS} goes on")
            break
        texts = [*mine, *(text for text in theirs if text not in mine)]
        differing = next(
            (
                text
                for text in texts
                if text not in theirs or text not in mine or theirs[text][1] != mine[text]
            ),
            None,
        )
        if differing is None:
            if not named:
                print(f"every count agrees: {len(mine)} first answers")
                return 0
            print(f"{indent}(its answers' counts agree: the difference is below depth 1)")
            return 1
        named.append(differing)
        if differing not in theirs:
            print(f"{indent}{differing}: {OURS} {mine[differing]:,}, {THEIRS} does not offer it")
            break
        if differing not in mine:
            count = theirs[differing][1]
            print(f"{indent}{differing}: {THEIRS} {count:,}, {OURS} does not offer it")
            break
        print(f"{indent}{differing}: {OURS} {mine[differing]:,}, {THEIRS} {theirs[differing][1]:,}")
        step = theirs[differing][0]
        child = game.clone()
        child.answer_option(answer_texts(game).index(differing))
        game, path, depth, indent = child, (*path, step), depth - 1, indent + "  "
        theirs_over = tree.options(path) is None
        if game.decision is None or theirs_over:
            who, other = (OURS, THEIRS) if game.decision is None else (THEIRS, OURS)
            print(f"{indent}after it, {who} ends the game and {other} goes on")
            break
    print(f"the first branch whose counts differ: {'; '.join(named)}")
    return 1
