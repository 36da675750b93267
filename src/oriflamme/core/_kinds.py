"""Kinds of decision: how each checks an answer.

Every decision has a kind. The three kinds core asks are below; a plugin (the
built-in sets too) adds its own with the hook ``register_decision_kinds`` and asks it
with ``Effects.ask``. A kind:

* checks an answer (:meth:`DecisionKind.check`): it returns the answer in its
  canonical form, accepting it as Python or as JSON sent back from
  :meth:`Decision.to_dict`, or raises :class:`IllegalAnswer` saying why. Checking
  never changes the game, and a message names only what every family may see: the
  answer as sent, public cards, card ids, never a hidden card's name, for the sender
  may not be the family asked (docs/rulings.md P4);
* says whether its options are private to the family asked (``private_options``):
  the others see only who is asked and what kind of question.

A kind says no sentence to a person (its refusals are errors, for programs): the
question and its answers in words are :mod:`oriflamme.text`'s, which words a plugin's
kind by its own ``question`` and ``option`` methods when it has them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final, NoReturn, cast

from ._bounds import MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_VALUES
from ._compiling import mypyc_attr
from ._decisions import FIRST, LAST, Answer, At, Decision, Placement
from ._effects import Effects
from ._errors import IllegalAnswer
from ._identity import CardId
from ._shown import indices, shown


@mypyc_attr(allow_interpreted_subclasses=True)  # plugins subclass it
class DecisionKind:
    """A kind of question. Subclass it to add one; override what differs.

    The default accepts exactly one of the options (``True`` is not ``1``, a JSON
    list is a tuple); :mod:`oriflamme.text` words its question from ``help`` and each
    option by itself.
    Options must be JSON values (strings, numbers, booleans, lists of them) so that a
    decision can be sent to a client and saved.
    """

    # Class attributes, which a subclass sets in its body (compiled, a plain annotated
    # attribute would be an instance slot that hides the subclass's value).
    #: The name ``ask`` uses. Unique among installed kinds.
    name: ClassVar[str] = ""
    #: What the question asks, for a person (used when the asker gives no words).
    help: ClassVar[str] = "choose one of the options"
    #: Whether the options show the asked family's hidden cards (its hand, say).
    private_options: ClassVar[bool] = False

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        """``answer`` in its canonical form, or :class:`IllegalAnswer` saying why."""
        wanted = _tupled(answer, 0, [MAX_ARGUMENT_VALUES])
        for option in decision.options:
            if _same(option, wanted):
                return option
        raise refuse(decision, f"{shown(answer)} is not one of the options {self.listed(decision)}")

    def listed(self, decision: Decision) -> str:
        """The options, for a refusal: whoever sent the answer may read it (P4)."""
        if self.private_options:
            return "the family asked sees (they are private)"
        return _listed(decision.options)

    # Checks a kind may use for answers of common shapes, refused as the built-in
    # kinds refuse theirs.

    def refuse(self, decision: Decision, why: str) -> IllegalAnswer:
        """The refusal of an answer to ``decision`` because of ``why``, worded as the
        built-in kinds word theirs (``red must answer a pick decision: <why>``): raise
        it. ``why`` is read by whoever sent the answer, who may be another family: it
        must not show the asked family's secrets."""
        return refuse(decision, why)

    def queue_index(self, decision: Decision, answer: object) -> int:
        """``answer`` as a queue index that is one of the options (a whole number,
        never a bool), or :class:`IllegalAnswer` saying why."""
        return _index(decision, answer, self.name)

    def queue_place(self, game: Effects, decision: Decision, answer: object, what: str) -> At:
        """``answer`` as a place in the queue that is one of the options: ``first``,
        ``last`` (``first`` in an empty queue) or a position index; else
        :class:`IllegalAnswer` saying that ``what`` (``the Twin``) cannot go there."""
        at = _spot(game, decision, answer)
        if at not in decision.options:
            raise refuse(
                decision,
                f"{what} cannot go at {shown(at)}; the legal places are "
                f"{_listed(decision.options)}",
            )
        return at

    def word(self, decision: Decision, answer: object) -> str:
        """``answer`` as a word (a string) that is one of the options, or
        :class:`IllegalAnswer` saying why."""
        if type(answer) is not str or answer not in decision.options:
            raise refuse(
                decision, f"{shown(answer)} is not one of the options {self.listed(decision)}"
            )
        return answer


def refuse(decision: Decision, why: str) -> IllegalAnswer:
    """The refusal of an answer to ``decision``, for the family that must answer it."""
    kind = decision.kind
    article = "an" if kind[:1] in ("a", "e", "i", "o", "u") else "a"  # an omen decision
    return IllegalAnswer(f"{decision.family} must answer {article} {kind} decision: {why}")


#: Options nest no deeper than a save holds them (.bounds), and hold no more values;
#: a deeper or bigger answer matches none and is left as sent.
DEPTH = MAX_ARGUMENT_DEPTH


def _tupled(value: object, depth: int, left: list[int]) -> object:
    """``value`` with its lists as tuples, as the options are kept; ``left[0]``: how
    many values more it may hold before it is left as sent (it matches no option)."""
    left[0] -= 1
    if type(value) is list and depth < DEPTH and left[0] >= 0:
        return tuple([_tupled(item, depth + 1, left) for item in value])
    return value


def _same(option: object, wanted: object) -> bool:
    """Whether ``wanted`` is ``option``: the same types all through (``True`` is not
    ``1``), so that none of a caller's own code runs (an ``__eq__`` that says yes to
    everything, or raises)."""
    kind = type(option)
    if type(wanted) is not kind:
        return False
    if kind is tuple:
        parts = cast(tuple[object, ...], option)
        other = cast(tuple[object, ...], wanted)
        return len(parts) == len(other) and all(
            _same(part, given) for part, given in zip(parts, other, strict=True)
        )
    return option == wanted  # None, bool, int, float, str: their own comparison


def _listed(options: Iterable[Answer]) -> str:
    return ", ".join(repr(o) for o in options)


def _index(decision: Decision, answer: object, what: str) -> int:
    """A queue index answer: an int (never a bool), one of the options."""
    if type(answer) is not int:
        raise refuse(decision, f"a {what} is answered with a queue index, not {shown(answer)}")
    if answer not in decision.options:
        raise refuse(
            decision,
            f"{what} {shown(answer)} is not allowed; the legal answers are "
            f"{_listed(decision.options)}",
        )
    return answer


def _spot(game: Effects, decision: Decision, at: object) -> At:
    """A place in the queue: ``first``, ``last`` or a position index that exists."""
    if type(at) is str and at in (FIRST, LAST):  # a str, not whatever equals one
        return FIRST if not game.queue else at  # FORMAT: one answer in an empty queue
    if type(at) is not int:
        raise refuse(
            decision,
            f"a place in the queue is 'first', 'last' or a position index, not {shown(at)}",
        )
    length = len(game.queue)
    if not 0 <= at < length:
        raise refuse(decision, f"there is no position {shown(at)}: the queue has {indices(length)}")
    return at


class SharedKind(DecisionKind):
    """A kind of which one object serves every registry and game of the process, as
    the built-in kinds do: it refuses to be written to (a bot holding the rules could
    otherwise make the hand's options public in every game). Subclass it for a kind a
    plugin registers as one module-level object."""

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"the {self.name} kind of question cannot be changed")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"the {self.name} kind of question cannot be changed")


class PlaceKind(SharedKind):
    """The placement phase: put a card from hand at an end, or on a card you own."""

    name = "place"
    help = "place a card from your hand, face down"
    private_options = True  # they list the hand

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        return _placement(game, decision, answer)


def _placement(game: Effects, decision: Decision, answer: object) -> Answer:
    # Checked against the game's own hand and queue, never against the options
    # handed out (whoever holds them may have changed them).
    family = decision.family
    state = game._state  # core's own kind: the hand read where it is kept
    hand = state.hands[state.seat[family]]
    if type(answer) is Placement:  # an offered placement, as offered
        # Read as plain objects: a Placement may hold anything a caller put in it.
        given, where = cast("tuple[object, object]", answer)
        if (
            type(given) is int  # 1.0 == 1 and True == 1: exact types only
            and (type(where) is int or type(where) is str)
            and given in hand
            and game.placeable(family, where)
        ):
            return answer
    card, at = _placement_parts(decision, answer)
    spot = _spot(game, decision, at)
    if card in hand and game.placeable(family, spot):
        return Placement(card, spot)
    if card not in hand:
        # Ids only, and not the hand: the sender may be another family (P4).
        raise refuse(
            decision,
            f"card {shown(card)} is not in {family}'s hand: see its observation's hand",
        )
    if game.round < 2:
        raise refuse(decision, "cards may be stacked only from round 2 on (RULINGS G4)")
    raise refuse(
        decision,
        f"the top card of position {spot} belongs to {game.owner(game.top(int(spot)))}: "
        "a family may stack only on a card it owns (RULINGS G4)",
    )


def _placement_parts(decision: Decision, answer: object) -> tuple[CardId, object]:
    # Exact types only, read as their base types read them: a caller's subclass or
    # mapping could run any code of its own (an __iter__, a __getitem__, a __hash__).
    kind = type(answer)
    if kind is dict and _is_placement_dict(cast(dict[object, object], answer)):
        given = cast(dict[str, object], answer)
        card, at = given["card"], given["at"]
    elif (kind is Placement or kind is tuple) and tuple.__len__(
        cast(tuple[object, ...], answer)
    ) == 2:
        card, at = cast(tuple[object, object], answer)
    elif kind is list and len(cast(list[object], answer)) == 2:
        card, at = cast(list[object], answer)
    else:
        raise refuse(decision, f"a placement is answered Placement(card, at), not {shown(answer)}")
    if type(card) is not int:
        raise refuse(decision, f"a placement names a card in hand by its id, not {shown(card)}")
    return card, at


def _is_placement_dict(answer: dict[object, object]) -> bool:
    """Whether ``answer``'s keys are exactly ``card`` and ``at`` (each a str: no key's
    own code runs to compare them)."""
    return (
        len(answer) == 2
        and all(type(key) is str for key in answer)
        and set(answer)
        == {
            "card",
            "at",
        }
    )


class RevealKind(SharedKind):
    """A face-down card's turn: reveal it, or add a token to it (RULINGS R1)."""

    name = "reveal"
    help = "reveal it, or keep it face down"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        return _reveal(decision, answer)


def _reveal(decision: Decision, answer: object) -> Answer:
    if type(answer) is not bool:
        raise refuse(decision, f"a reveal is answered True or False, not {shown(answer)}")
    return answer


class TargetKind(SharedKind):
    """An ability chooses a card in the queue, named by its position."""

    name = "target"
    help = "choose a card"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        return self.queue_index(decision, answer)


_PLACE: Final = PlaceKind()
_REVEAL: Final = RevealKind()
_TARGET: Final = TargetKind()

#: The kinds core asks itself: the engine's (``place``, ``reveal``), and ``target``,
#: which :meth:`Effects.ask_target` asks. The built-in sets register the kinds only
#: their cards ask (``move``, ``twin``, ``choose``), as any plugin registers its own.
BUILTIN_KINDS: tuple[DecisionKind, ...] = (_PLACE, _REVEAL, _TARGET)


def builtin_check(name: str, game: Effects, decision: Decision, answer: object) -> Answer | None:
    """``answer`` to ``decision`` checked by the built-in kind called ``name``, as its
    :meth:`~DecisionKind.check` does (None: no built-in kind has that name).

    Every answer is checked here first. Compiled, comparing the name with these few
    and calling a function is several times quicker than finding the kind in a table
    and calling its method (a plugin may subclass a kind: a method is looked up by
    name), the engine's own two first (they are asked most)."""
    # An offered answer, as offered, is taken at once; anything else is checked in full.
    if name == "reveal":
        return answer if type(answer) is bool else _reveal(decision, answer)
    if name == "place":
        return _placement(game, decision, answer)
    if name == "target":
        if type(answer) is int and answer in decision.options:
            return answer
        return _index(decision, answer, name)
    return None
