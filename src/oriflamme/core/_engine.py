"""The engine: the placement phase and the resolution phase, run as a loop that stops
whenever a family must answer.

Work in progress is kept as data, so a game can be cloned or saved at any question:
``pending`` is the question, ``resume`` how an ability goes on once it is answered,
and ``tasks`` a stack of work waiting for the current ability to finish. A task names
a registered ability's public method, or one of the engine's own steps
(:data:`STEPS`); nothing else can be continued with, also from a save.
"""

from __future__ import annotations

from typing import Any, Final, cast

from ._ability import Ability
from ._blame import overrun
from ._bounds import MAX_EVENTS, MAX_TOKENS
from ._budget import OverBudget, steps_bound
from ._decisions import REVEAL_OPTIONS, Answer, Decision, Placement, Placements, new_decision
from ._effects import Effects
from ._errors import PluginError
from ._events import (
    Activated,
    GameEnded,
    GameStarted,
    Revealed,
    RoundEnded,
    RoundStarted,
    TokenAdded,
)
from ._identity import NO_CARD, CardId
from ._rules import GameRules
from ._scoring import final_scores, winners
from ._state import END, LAST_ROUND, PLACEMENT, RESOLUTION, State, replaced

#: The engine's own steps that a task may name (ability key None).
STEPS = frozenset({"finish"})
_FINISH: Final = "finish"


class Engine:
    """Runs a game's rules on its state. Abilities and event hooks are handed its
    :attr:`effects`, which change the game but cannot run it."""

    effects: Effects

    def __init__(self, state: State, rules: GameRules) -> None:
        self.effects = Effects(state, rules)

    def apply(
        self, decision: Decision | None, answer: Answer | None, starting: bool = False
    ) -> None:
        """Apply a checked ``answer`` to the pending ``decision`` and play on to the next
        question, all within the budget of one answer. No decision: play on from where
        the game is (``starting``: a new game, which logs its first events first).

        An answer that goes over the game's budget (see :mod:`.budget`) raises a
        :class:`PluginError` naming the code that did and the bound; what it changed
        is for the caller to take back (``Game`` answers on a copy)."""
        effects = self.effects
        # Each answer has a budget of its own (Effects._renew, spelled out: this runs
        # once per answer, and compiled, a call costs more than the two stores).
        budget = effects.budget
        effects._steps = budget.steps
        effects._lines = budget.lines
        s = effects._state
        try:
            if decision is not None:
                # The engine's own kinds by its own steps, an ability's question by the
                # continuation it asked with.
                s.pending = None
                kind = decision.kind
                if kind == "reveal":
                    card = decision.card
                    assert card is not None
                    if answer:
                        self._reveal(card)
                    else:
                        self._decline(card)
                elif kind == "place":
                    assert isinstance(answer, Placement)
                    self._place(decision.family, answer)
                else:
                    resume = s.resume
                    assert resume is not None
                    s.resume = None
                    key, name, acting, args = resume
                    self._continue(key, name, acting, args + (answer,))
            elif starting and effects._emitting:
                effects._emit(GameStarted, (s.families[s.first], s.cards))
                effects._emit(RoundStarted, (1, s.families[s.first]))
            self._run()
            if s.log is not s.log_mark:
                self._count_log()
        except OverBudget as exc:
            error = PluginError(overrun(effects._state.rules, exc, effects._state))
            error.__cause__ = exc  # set by hand: compiled, "raise ... from" drops it
            raise error from exc

    def start(self) -> None:
        """Set a new game going: its first events, then play on to its first question."""
        self.apply(None, None, True)

    def run(self) -> None:
        """Play on until a family must answer or the game is over (within the budget
        of one answer, see :meth:`apply`)."""
        self.apply(None, None)

    def _continue(self, key: str | None, name: str, card: CardId, args: tuple[Any, ...]) -> None:
        if key is None:
            if name == _FINISH:
                self._finish(card)
            return
        effects = self.effects
        method = getattr(effects.rules.abilities[key], name)
        # Compiled, a call with its arguments spelled out needs no tuple of them.
        count = len(args)
        if count == 0:
            method(effects, card)
        elif count == 1:
            method(effects, card, args[0])
        elif count == 2:
            method(effects, card, args[0], args[1])
        else:
            method(effects, card, *args)

    # The loop.

    def _count_log(self) -> None:
        """Keep the log within what a save holds (docs/limits.md, "Bounds in play"): it
        keeps its first :data:`~.bounds.MAX_EVENTS` events, and the events of play past
        them are not logged (observers still see them).

        Only an ability that asks without end gets there. The count is kept with the
        newest event counted, so each event is counted once, whoever set the log (a
        save, a determinisation: an event not counted before is counted now)."""
        s = self.effects._state
        # Typed Any: compiled, a value of the log's own tuple type is unboxed and boxed
        # anew, and would never be the mark it is compared with.
        log: Any = s.log
        mark: Any = s.log_mark
        added = 0
        node: Any = log
        while node is not None and node is not mark:
            added += 1
            node = node[0]
        # Reached the mark: its count stands. Reached the start of a log the mark is
        # not in (a log set anew): every event was counted now.
        length = added + (s.log_length if node is mark else 0)
        if length > MAX_EVENTS:
            for _ in range(length - MAX_EVENTS):
                log = log[0]  # the newest events go: the log is its first MAX_EVENTS
            s.log = log
            length = MAX_EVENTS
        s.log_mark = log
        s.log_length = length

    def _run(self) -> None:
        effects = self.effects
        s = effects._state
        while s.pending is None:
            effects._steps -= 1  # bounded: never an endless loop, whatever the state
            if effects._steps < 0:
                raise self._overrun()
            tasks = s.tasks
            if tasks:
                key, name, card, args = tasks[-1]
                s.tasks = tasks[:-1]
                self._continue(key, name, card, args)
            elif s.phase == RESOLUTION:
                # The walk (RULINGS R1): the top card of the next position resolves.
                walk = s.walk
                queue = s.queue
                if walk >= len(queue):
                    self._end_round()
                    continue
                card = queue[walk][-1]
                s.acting = card
                s.acting_gone = False
                if s.up >> card & 1:
                    self._activate(card)
                else:  # a face-down card's reveal is always asked, of its owner
                    s.pending = _reveal_decision(s.owner(card), card)
            elif s.phase == PLACEMENT:
                self._next_to_place()
            else:
                return

    def _overrun(self) -> OverBudget:
        """The engine's loop went over the answer's budget: blame the work it was
        doing, a task or the acting card's ability (none: the position itself)."""
        effects = self.effects
        s = effects._state
        key: str | None = None
        if s.tasks:
            key = s.tasks[-1][0]
        elif s.acting != NO_CARD:
            key = s.identity.keys[s.acting]
        return OverBudget(steps_bound(effects.budget), key)

    # Placement phase (RULINGS G4).

    def _next_to_place(self) -> None:
        effects = self.effects
        s = effects._state
        families = s.families
        count = len(families)
        while s.placed < count:
            seat = (s.first + s.placed) % count
            family = families[seat]
            hand = s.hands[seat]
            if not hand:
                s.placed += 1  # docs/rulings.md P3: nothing to place, no turn
                continue
            spots = effects.spots(family)
            if len(hand) == 1 and len(spots) == 1:
                self._place(family, Placement(hand[0], spots[0]))  # R4: one answer, not asked
                continue
            s.pending = new_decision(family, "place", Placements(hand, spots))
            return
        s.phase = RESOLUTION
        s.walk = 0
        s.acting = NO_CARD

    def _place(self, family: str, placement: Placement) -> None:
        effects = self.effects
        s = effects._state
        card = placement.card
        seat = s.seat[family]
        hand = s.hands[seat]
        index = hand.index(card)
        s.set_zone("hands", replaced(s.hands, seat, hand[:index] + hand[index + 1 :]))
        effects.put(card, family, placement.at)
        s.placed += 1

    # Resolution phase (RULINGS R1, R8).

    def _decline(self, card: CardId) -> None:
        effects = self.effects
        s = effects._state
        count = s.tokens_on(card)
        if count < MAX_TOKENS:  # docs/rulings.md P22: no more tokens past the bound
            count += 1
            s.set_tokens(card, count)
        if effects._emitting:
            effects._emit(TokenAdded, (card, s.owner(card), s.walk, count))
        s.walk += 1
        s.acting = NO_CARD

    def _reveal(self, card: CardId) -> None:
        # RULINGS R2: gain the tokens on it, then apply its ability.
        effects = self.effects
        s = effects._state
        owner = s.owner(card)
        s.up |= 1 << card
        effects._publish(card)
        tokens = s.tokens_on(card)
        gained = 0
        if tokens:
            rules = effects.rules
            key = s.identity.keys[card]
            if key not in rules.tokens_kept:  # the Plot's ability spends them
                s.set_tokens(card, 0)
            if key in rules.tokens_gained:
                gained = tokens
            elif key in rules.tokens_doubled:
                gained = 2 * tokens
            gained = effects.gain(owner, gained, card)  # what the bound leaves (P21)
        if effects._emitting:
            effects._emit(Revealed, (card, owner, tokens, gained))
        s.revealing = card
        self._activate(card)

    def _activate(self, card: CardId) -> None:
        effects = self.effects
        s = effects._state
        if effects._emitting:
            effects._emit(Activated, (card, s.owner(card)))
        # Typed Any, the task and the stack it is on: compiled, a tuple of a known shape
        # is unboxed, and boxed anew would never be the one on the stack.
        finish: Any = (None, _FINISH, card, ())
        s.tasks = s.tasks + (finish,)
        rules = effects.rules
        abilities = rules.abilities
        key = s.identity.keys[card]
        # Compiled, a read-only view's get is a method call; `in` and [] are not.
        # Every ability a table holds is an Ability (the registry takes nothing else):
        # called as one, compiled, it is a direct call, not a lookup by name.
        ability = cast(Ability, abilities[key] if key in abilities else rules.inert)  # noqa: SIM401
        ability.activate(effects, card)
        tasks: tuple[Any, ...] = s.tasks
        if s.pending is None and tasks[-1] is finish:
            s.tasks = tasks[:-1]  # the ability is done: finish now, not through the loop
            self._finish(card)

    def _finish(self, card: CardId) -> None:
        effects = self.effects
        s = effects._state
        used = s.identity.keys[card] in effects.rules.discard_after_use
        if used and effects.position(card) is not None:
            effects.discard(card)
        # RULINGS R8: if the acting card is still on top of its position, the walk
        # moves on; if it left and a card under it is now on top, that card resolves
        # next (a Royal Decree on a stack too: docs/rulings.md P6); if the position
        # is gone, the one that followed it now has its index.
        if not s.acting_gone and s.queue[s.walk][-1] == card:
            s.walk += 1
        s.acting = NO_CARD
        s.revealing = NO_CARD

    def _end_round(self) -> None:
        effects = self.effects
        s = effects._state
        if effects._emitting:
            effects._emit(RoundEnded, (s.round,))
        if s.round >= LAST_ROUND:
            s.phase = END  # RULINGS G5: after round 6 the game ends
            if effects._emitting:
                effects._emit(GameEnded, (tuple(final_scores(s).items()), winners(s)))
            return
        s.round += 1
        s.first = (s.first + 1) % len(s.families)  # RULINGS G5
        s.placed = 0
        s.phase = PLACEMENT
        s.walk = 0
        if effects._emitting:
            effects._emit(RoundStarted, (s.round, s.families[s.first]))


#: The reveal decisions asked so far, by family then card: a decision is an immutable
#: value, and making one costs many times finding it. Bounded: emptied when full.
_REVEALS: Final[dict[str, dict[CardId, Decision]]] = {}
_REVEALS_SIZE: Final = 4096


def _reveal_decision(family: str, card: CardId) -> Decision:
    """``family``'s decision whether to reveal its face-down ``card``, whose turn it is."""
    cards = _REVEALS.get(family)
    if cards is None:
        if len(_REVEALS) >= _REVEALS_SIZE:
            _REVEALS.clear()
        cards = _REVEALS[family] = {}
    found = cards.get(card)
    if found is None:
        if len(cards) >= _REVEALS_SIZE:
            cards.clear()
        found = cards[card] = new_decision(family, "reveal", REVEAL_OPTIONS, card)
    return found
