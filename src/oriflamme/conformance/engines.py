"""The engine a scenario is run against: what the runner asks of it, and ours in-process.

The runner (:mod:`.runner`) loads a position into an :class:`Engine`, asks it for the
pending decision, answers, and reads the position back, in the scenario notation
only. :class:`LocalEngine` is this project's engine in the runner's own process;
:class:`~.remote.RemoteEngine` is any program that speaks docs/engine-protocol.md,
and ``oriflamme engine`` (:mod:`.serve`) puts a :class:`LocalEngine` behind it.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import Any

import attrs

from oriflamme import (
    FIRST,
    LAST,
    CardId,
    Game,
    GameConfig,
    IllegalAnswer,
    OriflammeError,
    Placement,
    Position,
    Registry,
)
from oriflamme.saves import from_position

from .model import ZONES, Step
from .protocol import (
    ENGINE_ERROR,
    ILLEGAL_ANSWER,
    UNKNOWN_CARD,
    UNSUPPORTED,
    EngineRefused,
    Next,
    Table,
    entries,
)


@attrs.frozen
class Setup:
    """A scenario's starting position, checked (:func:`.position.scenario_position`)."""

    sets: tuple[str, ...]
    players: tuple[str, ...]
    variants: Mapping[str, Any]
    position: Position
    config: GameConfig


class Engine(abc.ABC):
    """What a scenario needs of an engine.

    Each method may raise :class:`~.protocol.EngineRefused` (the engine's error
    reply, with its code) or any other :class:`OriflammeError` saying why the
    engine could not be asked (a remote one that died, say), in one line.
    """

    #: Who this engine is, in messages.
    label = "the engine"

    @abc.abstractmethod
    def load(self, setup: Setup) -> None:
        """Set up the game at ``setup``'s position, advanced to its first decision."""

    @abc.abstractmethod
    def decision(self) -> Next:
        """The pending decision: ``{family: kind}``, or ``"end"`` once the game is over."""

    @abc.abstractmethod
    def answer(self, step: Step) -> None:
        """Answer the pending decision with ``step``'s answer, in the scenario notation.

        A refused answer raises :class:`EngineRefused` with a code of
        :data:`~.protocol.REFUSALS`, and leaves the game exactly as it was."""

    @abc.abstractmethod
    def table(self) -> Table:
        """The position now, as the scenario notation reads it."""

    def options(self) -> tuple[Mapping[str, Any], ...]:
        """The legal answers to the pending decision, each as a step's answer (``()``
        once the game is over): the protocol's optional ``options``. An engine without
        it raises :class:`EngineRefused` with the code ``unsupported``."""
        raise EngineRefused(UNSUPPORTED, f"{self.label} does not list the legal answers")

    def fingerprint(self) -> object:
        """Something equal before and after an answer only if it changed nothing."""
        return (self.table(), self.decision())

    def unasked(self, step: Step) -> str:
        """Why ``step`` was not asked, if the engine can tell; see :class:`LocalEngine`."""
        return ""


class LocalEngine(Engine):
    """This project's engine, in this process."""

    label = "oriflamme"

    def __init__(self, registry: Registry, game: Game | None = None) -> None:
        self.registry = registry
        self._game = game
        self._since = 0  # where the event log stood after the last answer

    @property
    def game(self) -> Game:
        if self._game is None:
            raise OriflammeError("no position is loaded: load one first")
        return self._game

    def load(self, setup: Setup) -> None:
        self._game = from_position(setup.position, setup.config, registry=self.registry)
        self._since = 0

    def decision(self) -> Next:
        decision = self.game.decision
        return "end" if decision is None else {decision.family: decision.kind}

    def answer(self, step: Step) -> None:
        game = self.game
        try:
            game.answer(engine_answer(game, step), family=step.family)
        except IllegalAnswer as refused:
            named = [step.answer.get(key) for key in ("place", "target", "at")]
            known = game.position().ids
            strange = any(
                isinstance(c, str) and c not in ("first", "last") and c not in known for c in named
            )
            raise EngineRefused(UNKNOWN_CARD if strange else ILLEGAL_ANSWER, str(refused)) from None
        except OriflammeError as failed:
            raise EngineRefused(ENGINE_ERROR, str(failed)) from None
        self._since = len(game.events)

    def options(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(answer_options(self.game))

    def table(self) -> Table:
        game = self.game
        position = game.position()
        zones = {zone: position.zone(zone) for zone in ZONES}
        winners = game.winners if game.over else None
        return Table(game.round, game.phase, position.influence, entries(position), zones, winners)

    def fingerprint(self) -> object:
        return self.game.snapshot()  # the whole game, hidden order and log included

    def unasked(self, step: Step) -> str:
        """What the log says of the step's decision, if the engine applied it unasked.

        RULINGS R4 (docs/scenarios.md, ``play``): a decision with exactly one legal answer is
        applied without asking, so a scenario must not list it as a step.
        """
        game = self.game
        labels = {card: label for label, card in game.position().ids.items()}

        def label(card: CardId | None) -> str:
            return labels.get(card, "a card") if card is not None else "no card"

        def by(card: CardId | None) -> bool:
            return label(card).split(".")[0] == step.family

        for event in game.events[self._since :]:
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


def answer_options(game: Game) -> list[dict[str, Any]]:
    """The options of ``game``'s decision, in the engine's order, each written as the
    answer of a ``play`` step (docs/scenarios.md): the reverse of :func:`engine_answer`.
    ``[]`` once the game is over.

    A card is named by its label, a queue position by the label of its top card, and
    the one place of an empty queue as ``first``. A kind a plugin adds is written
    ``{kind: option}``.
    """
    decision = game.decision
    if decision is None:
        return []
    position = game.position()
    labels = {card: label for label, card in position.ids.items()}
    kind = decision.kind
    found: list[dict[str, Any]] = []
    for option in decision.options:
        if kind == "place":
            assert isinstance(option, Placement)
            found.append({"place": labels[option.card], "at": _spot(option.at, position)})
        elif kind == "reveal":
            found.append({"reveal": bool(option)})
        elif kind == "target":
            found.append({"target": _spot(option, position)})
        elif kind == "move":
            found.append({"to": option})
        elif kind == "twin":
            found.append({"at": _spot(option, position)})
        else:  # "choose", and a plugin's own kinds, under their own name
            found.append({kind: option})
    return found


def _spot(at: object, position: Position) -> str:
    """An end of the queue, or the top card of the position at index ``at``."""
    if at in (FIRST, LAST):
        return FIRST if not position.queue else str(at)  # one answer in an empty queue
    assert type(at) is int
    return position.queue[at][-1].card


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
