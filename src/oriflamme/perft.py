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
import json
import re
import sys
import time
from collections.abc import Iterator
from typing import Any

from oriflamme import (
    FIRST,
    LAST,
    Answer,
    Decision,
    Game,
    OriflammeError,
    Placement,
    Placements,
    Position,
    Registry,
)

from .conformance.engines import LocalEngine
from .conformance.model import Scenario
from .conformance.position import build_game
from .conformance.runner import _play, _StepFailed
from .conformance.scenario import load_scenario

#: The deepest count the command runs: each ply multiplies the work by the number of
#: answers (a placement offers dozens), so deeper is hours or days, not a check.
MAX_DEPTH = 10

# A word the notation may write bare: no quotes needed, and not read as another type
# (YAML 1.1 reads yes/no/on/off/null as non-strings; digits as numbers).
_BARE = re.compile(r"[a-z][a-z0-9_.-]*")
_NOT_BARE = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n"})


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
            _play(engine, step)
    except _StepFailed as failure:
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
    position = game.position()
    labels = {card: label for label, card in position.ids.items()}
    texts = [
        f"{decision.family}: {{{_answer(decision, option, position, labels)}}}"
        for option in decision.options
    ]
    if len(set(texts)) != len(texts):
        twice = sorted({text for text in texts if texts.count(text) > 1})
        raise PerftError(
            f"the {decision.kind} decision offers two answers written alike ({twice[0]}): "
            "perft counts answers as the scenario notation writes them"
        )
    return texts


def _answer(decision: Decision, option: Answer, position: Position, labels: dict[int, str]) -> str:
    """One option in the notation of a ``play`` step's answer, without its braces."""
    kind = decision.kind
    if kind == "place":
        assert isinstance(option, Placement)
        return f"place: {labels[option.card]}, at: {_spot(option.at, position)}"
    if kind == "reveal":
        return f"reveal: {'true' if option else 'false'}"
    if kind == "target":
        return f"target: {_spot(option, position)}"
    if kind == "move":
        return f"to: {option}"
    if kind == "twin":
        return f"at: {_spot(option, position)}"
    # "choose", and a plugin's own kinds, under their own name.
    return f"{kind}: {_word(option)}"


def _spot(at: object, position: Position) -> str:
    """An end of the queue, or the top card of the position at index ``at``."""
    if at in (FIRST, LAST):
        return FIRST if not position.queue else str(at)  # one answer in an empty queue
    assert type(at) is int
    return position.queue[at][-1].card


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and _BARE.fullmatch(value) and value not in _NOT_BARE:
        return value
    return json.dumps(value)  # JSON is YAML: quoted where a bare word would misread


# The command.


def add_perft(commands: Any) -> None:
    """The ``perft`` command's options, on the command line's sub-commands."""
    # Imported here: arguments.py imports this module to add the command.
    from .arguments import _add_plugin_options, _bounded, _text  # noqa: PLC0415

    perft_parser = commands.add_parser(
        "perft",
        help="count the distinct sequences of decisions from a scenario's position",
        description="Count the distinct sequences of DEPTH asked decisions from the "
        "position a scenario's state sets, after its play steps (its expect is "
        "ignored); docs/perft.md defines the count.",
    )
    perft_parser.add_argument("path", type=_text, metavar="PATH", help="a scenario file")
    perft_parser.add_argument(
        "--depth",
        type=_bounded(1, MAX_DEPTH),
        required=True,
        help=f"the number of decisions in each sequence, 1 to {MAX_DEPTH}",
    )
    perft_parser.add_argument(
        "--divide",
        action="store_true",
        help="also print each first answer, as a play step writes it, with its count",
    )
    _add_plugin_options(perft_parser)


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
