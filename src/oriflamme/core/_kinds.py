"""Kinds of decision: how each checks an answer, and how it is put to a person.

Every decision has a kind. The six built-in kinds are below; a plugin adds its own
with the hook ``register_decision_kinds`` and asks it with ``Effects.ask``. A kind:

* checks an answer (:meth:`DecisionKind.check`): it returns the answer in its
  canonical form, accepting it as Python or as JSON sent back from
  :meth:`Decision.to_dict`, or raises :class:`IllegalAnswer` saying why. Checking
  never changes the game, and a message names only what every family may see: the
  answer as sent, public cards, card ids, never a hidden card's name, for the sender
  may not be the family asked (docs/rulings.md P4);
* words the question and each option for a person (:meth:`question`,
  :meth:`option`), through a :class:`Words` that names cards as one family sees them
  and gives that family's observation (``words.seen``: tokens, the rules); positions
  are counted from 1 there, as the table shows them, and every answer says what it
  does;
* says whether its options are private to the family asked (``private_options``):
  the others see only who is asked and what kind of question.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final, NoReturn, Protocol, cast

from ._bounds import MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_VALUES
from ._cardsets import RevealTokens
from ._compiling import mypyc_attr
from ._decisions import FIRST, LAST, Answer, At, Decision, Placement
from ._effects import Effects
from ._errors import IllegalAnswer
from ._identity import CardId
from ._observation import Observation
from ._shown import indices, shown


class Words(Protocol):
    """Names of things as one family sees them (see :mod:`oriflamme.text`)."""

    @property
    def seen(self) -> Observation:
        """The observation the words are of: what they may tell (tokens, the rules)."""
        ...

    @property
    def language(self) -> str:
        """The language of card names and texts: ``en``, or a code the card data names."""
        ...

    def card(self, card: CardId | None) -> str:
        """A card: ``blue Soldier``, or ``a face-down card`` if the family may not know it."""
        ...

    def position(self, index: int) -> str:
        """The top card of the position at index ``index``, counted from 1 as the table
        shows it: index 2 is ``position 3: blue's face-down card``."""
        ...

    def spot(self, at: At) -> str:
        """A place in the queue: ``at the first end``, ``on top of position 2: ...``."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True)  # plugins subclass it
class DecisionKind:
    """A kind of question. Subclass it to add one; override what differs.

    The default accepts exactly one of the options (``True`` is not ``1``, a JSON
    list is a tuple), words the question from ``help`` and each option by itself.
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

    def question(self, decision: Decision, words: Words) -> str:
        """The question, for the family asked."""
        if decision.question:
            return decision.question
        about = f"Your {words.card(decision.card)}: " if decision.card is not None else ""
        return f"{about}{self.help}"

    def option(self, decision: Decision, option: Answer, words: Words) -> str:
        """One option, in words."""
        label = _label(decision, option)
        return label if label is not None else str(option)


def refuse(decision: Decision, why: str) -> IllegalAnswer:
    """The refusal of an answer to ``decision``, for the family that must answer it."""
    return IllegalAnswer(f"{decision.family} must answer a {decision.kind} decision: {why}")


def _label(decision: Decision, option: Answer) -> str | None:
    if decision.labels is None:
        return None
    try:
        return decision.labels[list(decision.options).index(option)]
    except ValueError:
        return None


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


def counted(count: int, noun: str) -> str:
    """``count`` ``noun``, the noun agreeing (``1 token``, ``2 tokens``, ``0 tokens``)."""
    return f"{count} {noun}{'s' * (count != 1)}"


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``... ``11th``, ``21st``."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(number % 10, 'th')}"


class BuiltinKind(DecisionKind):
    """The built-in kinds: one object each, shared by every registry and game of the
    process, so none may be written to (a bot holding the rules could otherwise make
    the hand's options public in every game)."""

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"the {self.name} kind of question cannot be changed")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"the {self.name} kind of question cannot be changed")


class PlaceKind(BuiltinKind):
    """The placement phase: put a card from hand at an end, or on a card you own."""

    name = "place"
    help = "place a card from your hand, face down"
    private_options = True  # they list the hand

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        # Checked against the game's own hand and queue, never against the options
        # handed out (whoever holds them may have changed them).
        family = decision.family
        if type(answer) is Placement:  # an offered placement, as offered
            # Read as plain objects: a Placement may hold anything a caller put in it.
            given, where = cast("tuple[object, object]", answer)
            if (
                type(given) is int  # 1.0 == 1 and True == 1: exact types only
                and (type(where) is int or type(where) is str)
                and given in game.zone_of("hands", family)
                and game.placeable(family, where)
            ):
                return answer
        card, at = _placement_parts(decision, answer)
        spot = _spot(game, decision, at)
        hand = game.zone_of("hands", family)
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

    def question(self, decision: Decision, words: Words) -> str:
        return "Place a card from your hand, face down: which card, and where?"

    def option(self, decision: Decision, option: Answer, words: Words) -> str:
        assert isinstance(option, Placement)
        return f"Put your {words.card(option.card)} {words.spot(option.at)}"


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


class RevealKind(BuiltinKind):
    """A face-down card's turn: reveal it, or add a token to it (RULINGS R1)."""

    name = "reveal"
    help = "reveal it, or keep it face down"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        if type(answer) is not bool:
            raise refuse(decision, f"a reveal is answered True or False, not {shown(answer)}")
        return answer

    def question(self, decision: Decision, words: Words) -> str:
        card = decision.card
        tokens = words.seen.tokens_on(card) if card is not None else 0
        on_it = f", with {counted(tokens, 'token')} on it," if tokens else ""
        return f"Your {words.card(card)}{on_it} is next: reveal it, or keep it face down?"

    def option(self, decision: Decision, option: Answer, words: Words) -> str:
        card = decision.card
        tokens = words.seen.tokens_on(card) if card is not None else 0
        if not option:
            # RULINGS R1: declining adds a token, which revealing later pays out.
            more = "1 token" if not tokens else f"a {ordinal(tokens + 1)} token"
            return f"Keep it face down (it gets {more})"
        return f"Reveal it ({_revealing(words, card, tokens)})"


def _revealing(words: Words, card: CardId | None, tokens: int) -> str:
    """What revealing ``card`` does with its ``tokens`` (RULINGS R2), then its ability."""
    key = words.seen.key(card) if card is not None else None
    mode = words.seen.rules.reveal_tokens.get(key) if key is not None else None
    on_it, goes = "its " + counted(tokens, "token"), "goes" if tokens == 1 else "go"
    if not tokens:
        return "apply its ability"
    if mode is RevealTokens.ABILITY:
        return f"apply its ability, which spends {on_it}"
    if mode is RevealTokens.GAIN:
        paid = f"gain {on_it}"
    elif mode is RevealTokens.DOUBLE:
        paid = f"gain twice {on_it}: {2 * tokens} Influence"
    elif mode is RevealTokens.SUPPLY:
        paid = f"{on_it} {goes} back to the supply"
    else:  # words of a family that may not know the card: no more than its face tells
        paid = f"{on_it} {goes} as the card says"
    return f"{paid}, then apply its ability"


class TargetKind(BuiltinKind):
    """An ability chooses a card in the queue, named by its position."""

    name = "target"
    help = "choose a card"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        return _index(decision, answer, "target")

    def question(self, decision: Decision, words: Words) -> str:
        if decision.question:
            return decision.question
        return f"{_acting(decision, words)} Which card?"

    def option(self, decision: Decision, option: Answer, words: Words) -> str:
        label = _label(decision, option)
        if label is not None:
            return label
        assert isinstance(option, int)
        where = words.position(option)
        return where[:1].upper() + where[1:]  # an answer begins with a capital


def _acting(decision: Decision, words: Words) -> str:
    """``Your blue Archer: "<its text>"``: the acting card and the text of the ability
    that asks, which says what the chosen card is for. A Shapeshifter asks with the
    ability it copies, named by the observation's continuation (public, as at the
    table: everyone sees which card is copied)."""
    card = decision.card
    acting = f"Your {words.card(card)}"
    seen = words.seen
    key = seen.key(card) if card is not None else None
    if key is None:
        return f"{acting}:"
    resume = seen.resume
    ability = resume[0] if resume is not None and resume[2] == card else None
    definitions = seen.rules.definitions
    if ability is not None and ability != key and ability in definitions:
        key = ability
        name = definitions[key].name_in(words.language)
        acting += f", copying {'an' if name[:1] in 'AEIOU' else 'a'} {name}"
    return f'{acting}: "{definitions[key].text_in(words.language)}"'


class MoveKind(BuiltinKind):
    """The Royal Decree's destination: the index the card will have once moved."""

    name = "move"
    help = "choose where the card goes"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        return _index(decision, answer, "move")

    def question(self, decision: Decision, words: Words) -> str:
        return f"Your {words.card(decision.card)} moves the card you chose: where to?"

    def option(self, decision: Decision, option: Answer, words: Words) -> str:
        assert isinstance(option, int)
        # FORMAT.md: the index the card has once moved, the Decree still in place.
        return f"Move it so that it becomes position {option + 1}"


class TwinKind(BuiltinKind):
    """The Prince places its Twin: as ``at`` in a placement."""

    name = "twin"
    help = "place the Twin"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        at = _spot(game, decision, answer)
        if at not in decision.options:
            raise refuse(
                decision,
                f"the Twin cannot go at {shown(at)}; the legal places are "
                f"{_listed(decision.options)}",
            )
        return at

    def question(self, decision: Decision, words: Words) -> str:
        return f"Your {words.card(decision.card)} places your Twin, face up: where?"

    def option(self, decision: Decision, option: Answer, words: Words) -> str:
        assert isinstance(option, str | int)
        return f"Put the Twin {words.spot(option)}"


class ChooseKind(BuiltinKind):
    """A choice among named options; the asker words them (``labels``)."""

    name = "choose"
    help = "choose"

    def check(self, game: Effects, decision: Decision, answer: object) -> Answer:
        if type(answer) is not str or answer not in decision.options:
            raise refuse(
                decision, f"{shown(answer)} is not one of the options {self.listed(decision)}"
            )
        return answer

    def question(self, decision: Decision, words: Words) -> str:
        if decision.question:
            return decision.question
        return f"Your {words.card(decision.card)} chooses one of these:"


_PLACE: Final = PlaceKind()
_REVEAL: Final = RevealKind()
_TARGET: Final = TargetKind()
_MOVE: Final = MoveKind()
_TWIN: Final = TwinKind()
_CHOOSE: Final = ChooseKind()

BUILTIN_KINDS: tuple[DecisionKind, ...] = (_PLACE, _REVEAL, _TARGET, _MOVE, _TWIN, _CHOOSE)


def builtin_kind(name: str) -> DecisionKind | None:
    """The built-in kind of question called ``name`` (None: a plugin's kind, or none).

    Every answer looks its kind up here: compiled, comparing the name with these few
    is several times quicker than a lookup in a table, the engine's own two first (they
    are asked most)."""
    if name == "reveal":
        return _REVEAL
    if name == "place":
        return _PLACE
    if name == "target":
        return _TARGET
    if name == "move":
        return _MOVE
    if name == "twin":
        return _TWIN
    if name == "choose":
        return _CHOOSE
    return None
