"""What abilities and event hooks may do to a game: the rulebook's verbs, ``ask`` and
``then`` (the read-only questions about the table are :class:`._board.Board`'s).

An ability receives an :class:`Effects` (its ``game`` argument). Everything it reads
is immutable (tuples, read-only mappings), and everything it changes goes through a
verb here, which records its event and tells the observers. It holds the game's state
but not the engine (:mod:`.engine`, which holds an Effects): an ability changes the
game, never plays it on. Cards are card ids (see :mod:`.identity`); positions are
queue indices, 0 resolving first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import BuiltinMethodType
from typing import Any, Final, cast

from ._board import Board
from ._bounds import MAX_INFLUENCE, MAX_STRING, question_problem, value_problem
from ._budget import BUDGET, MAX_LINES, MAX_STEPS, Budget, OverBudget, steps_bound
from ._decisions import FIRST, LAST, Answer, At, Decision, Options, Placements, new_decision
from ._errors import OriflammeError, PluginError
from ._events import (
    Applied,
    Bribed,
    Discarded,
    Eliminated,
    Event,
    Gained,
    Lost,
    Moved,
    Placed,
    Stolen,
)
from ._identity import NO_CARD, CardId
from ._questions import (
    asker,
    check_continuation,
    check_task,
    checked_options,
    continuation_names,
    words,
)
from ._rules import GameRules
from ._saveable import saveable
from ._state import State, replaced

#: A method of a registered ability, continued with by name: ``then(game, card, *args)``.
AbilityMethod = Callable[..., None]
#: The type of a compiled (or C) object's bound method.
_COMPILED_METHOD: Final = BuiltinMethodType
#: The continuation each compiled ability method stands for, by rules table (a rules
#: table is compared by identity, and kept alive while it is here).
_CONTINUATIONS: Final[dict[GameRules, dict[object, tuple[str, str]]]] = {}
_CONTINUATIONS_SIZE: Final = 64


class Effects(Board):
    """The game, as a card's ability or an event hook sees it and acts on it."""

    # Influence (RULINGS G7: it never goes below 0; docs/rulings.md P21: nor above
    # MAX_INFLUENCE, the most a save holds).

    def gain(self, family: str, amount: int, card: CardId | None = None) -> int:
        """``family`` gains ``amount`` Influence from the supply (because of ``card``),
        up to :data:`~.bounds.MAX_INFLUENCE` in all; returns what it gained."""
        if amount <= 0:
            return 0
        s = self._state
        seat = s.seat[family]
        held = s.influence[seat]
        if amount > MAX_INFLUENCE - held:  # docs/rulings.md P21: the supply gives no more
            amount = MAX_INFLUENCE - held
            if amount <= 0:
                if self._running is not None:
                    self._step()  # third-party code that gains without end is still stopped
                return 0
        s.influence = replaced(s.influence, seat, held + amount)
        if self._emitting:
            self._emit(Gained, (family, amount, card))
        return amount

    def lose(self, family: str, amount: int, card: CardId | None = None) -> int:
        """``family`` loses up to ``amount`` to the supply; returns what it lost."""
        s = self._state
        seat = s.seat[family]
        taken = min(amount, s.influence[seat])
        if taken > 0:
            s.influence = replaced(s.influence, seat, s.influence[seat] - taken)
            if self._emitting:
                self._emit(Lost, (family, taken, card))
        return taken

    def steal(self, thief: str, victim: str, amount: int, card: CardId | None = None) -> int:
        """``thief`` takes up to ``amount`` from ``victim``; returns what was taken.

        RULINGS B-Spy: stealing from yourself changes nothing. docs/rulings.md P21: a
        thief takes no more than brings it to :data:`~.bounds.MAX_INFLUENCE`; the
        victim keeps the rest.
        """
        if thief == victim:
            return 0
        s = self._state
        loser = s.seat[victim]
        winner = s.seat[thief]
        # Two steps: compiled, a min of three arguments is a call to the builtin.
        taken = min(amount, s.influence[loser])
        taken = min(taken, MAX_INFLUENCE - s.influence[winner])
        if taken > 0:
            influence = list(s.influence)
            influence[loser] -= taken
            influence[winner] += taken
            s.influence = tuple(influence)
            if self._emitting:
                self._emit(Stolen, (thief, victim, taken, card))
            return taken
        if self._running is not None:
            self._step()  # third-party code that steals nothing without end is stopped
        return 0

    # Cards leaving the queue.

    def eliminate(self, card: CardId, by: CardId | None, *, gain: bool = True) -> None:
        """Eliminate top card ``card``, by card ``by`` (RULINGS R5).

        It is turned face up, its tokens go back to the supply, it goes to its
        original owner's eliminated pile (a Bribery token on it is removed), and the
        owner of ``by`` gains 1 unless ``gain`` is False (the Cutthroat counts its
        own). Its ability does not apply; only its reaction, if it has one.
        """
        s = self._state
        position = self.index(card)
        owner = s.owner(card)
        # The eliminator's owner, read now: a card that eliminates itself loses its
        # Bribery token with it, and its briber still gains (RULINGS R3, R5).
        eliminator = s.owner(by) if by is not None else None
        face_down = not s.up >> card & 1
        tokens = self._leave_queue(position, card)
        self._to_pile("eliminated", card)
        fields = (card, by, owner, tokens, face_down)
        if s.recording:
            s.log = (s.log, Eliminated, fields)  # logged before the gain it causes
        if gain and eliminator is not None:
            self.gain(eliminator, 1, by)
        self._observe(Eliminated, fields)  # docs/rulings.md P7: once the eliminator gained
        reactions = self.rules.reactions
        key = s.identity.keys[card]
        # Compiled, a read-only view's get is a method call; `in` and [] are not.
        reaction = reactions[key] if key in reactions else None  # noqa: SIM401
        if reaction is not None:
            reaction.eliminated(self, card, by, owner)

    def discard(self, card: CardId) -> None:
        """Discard top card ``card`` from the queue into its original owner's pile.

        A card that carried a Bribery token goes to the eliminated pile instead
        (RULINGS A-Bribery). Tokens on it go back to the supply.
        """
        s = self._state
        owner = s.owner(card)
        bribed = bool(s.bribes and s.bribes[card])
        self._leave_queue(self.index(card), card)
        pile = "eliminated" if bribed else "discarded"
        self._to_pile(pile, card)
        if self._emitting:
            self._emit(Discarded, (card, owner, pile))

    def discard_attacker(self, card: CardId) -> None:
        """Discard ``card``, a card that eliminated a card reacting to it (an Ambush,
        a Trap), if it is still on top in the queue. It is discarded, not eliminated:
        nothing reacts to it."""
        if self.position(card) is not None:
            self.discard(card)

    def _leave_queue(self, position: int, card: CardId) -> int:
        """Take top card ``card`` out of the queue: face, tokens and Bribery token go."""
        s = self._state
        self._remove_top(position)
        s.up &= ~(1 << card)
        tokens = s.tokens_on(card)
        if tokens:
            s.set_tokens(card, 0)
        if s.bribes and s.bribes[card]:
            bribes = replaced(s.bribes, card, "")
            s.bribes = bribes if any(bribes) else ()  # () again once no card carries one
        return tokens

    def _to_pile(self, pile: str, card: CardId) -> None:
        s = self._state
        seat = s.seat[s.identity.colours[card]]  # piles lie in front of the ORIGINAL owner
        zone = s.zone(pile)
        s.set_zone(pile, replaced(zone, seat, (*zone[seat], card)))
        self._publish(card)

    def _publish(self, card: CardId) -> None:
        """Every family has now seen ``card`` face up: its key is public for good."""
        s = self._state
        if not s.public[card]:
            s.public = replaced(s.public, card, s.identity.keys[card])

    # Cards moving within or into the queue.

    def move(self, card: CardId, to: int) -> None:
        """Move top card ``card`` to be a new position at index ``to`` once moved.

        It keeps its face and tokens; the card under it, if any, becomes the top.
        """
        source = self.index(card)
        self._remove_top(source)
        self._insert_position(to, card)
        if self._emitting:
            self._emit(Moved, (card, source, to, self.is_up(card)))

    def put(self, card: CardId, family: str, at: At, *, face_up: bool = False) -> None:
        """Put ``card`` (already out of its zone) into the queue for ``family``.

        ``at`` is ``"first"``, ``"last"`` or the index of a position to stack on.
        """
        if at == FIRST:
            self.insert(card, family, 0, face_up=face_up)
        elif at == LAST:
            self.insert(card, family, len(self._state.queue), face_up=face_up)
        else:
            index = int(at)
            on = self._state.queue[index][-1]
            self._stack_on(index, card)
            self._face(card, face_up)
            if self._emitting:
                self._emit(Placed, (family, card, index, on, face_up))

    def insert(self, card: CardId, family: str, index: int, *, face_up: bool = False) -> None:
        """Put ``card`` into the queue as a new position at ``index``, for ``family``.

        The walk treats it like any card placed ahead of or behind it (RULINGS R8).
        """
        self._insert_position(index, card)
        self._face(card, face_up)
        if self._emitting:
            self._emit(Placed, (family, card, index, None, face_up))

    def _face(self, card: CardId, up: bool) -> None:
        if up:
            self._state.up |= 1 << card
            self._publish(card)

    def bribe(self, card: CardId, family: str) -> None:
        """Put ``family``'s Bribery token on ``card``, replacing any other (RULINGS A-Bribery).

        The card now belongs to ``family`` (R3) until it leaves the queue.
        """
        s = self._state
        bribes = s.bribes or ("",) * len(s.identity)
        s.bribes = replaced(bribes, card, family)
        if self._emitting:
            self._emit(Bribed, (card, family))

    def take(self, zone: str, family: str, card: CardId) -> None:
        """Take ``card`` out of ``family``'s ``zone`` (hands, reserve, discarded...)."""
        s = self._state
        piles = s.zone(zone)
        seat = s.seat[family]
        cards = piles[seat]
        index = cards.index(card)
        s.set_zone(zone, replaced(piles, seat, cards[:index] + cards[index + 1 :]))

    def apply_ability(self, key: str, card: CardId, source: CardId | None = None) -> None:
        """Apply the ability of card key ``key`` with ``card`` acting (a copy, or a Plot).

        ``source``: the card in the queue whose ability it is (``key`` is its key), which
        an :class:`~.events.Applied` event then names, so that every family can tell
        which ability acts; None for an ability named by its key alone."""
        if source is not None and self._emitting:
            self._emit(Applied, (card, source))
        self.rules.ability(key).activate(self, card)

    # Questions, and work to do after them.

    def ask(
        self,
        family: str,
        kind: str,
        options: Sequence[Answer],
        then: AbilityMethod,
        card: CardId,
        *args: Any,
        # Typed loosely so that a wrong one is refused with its reason (see .questions),
        # compiled as well: a ``str`` and a ``Mapping[Any, str]``.
        question: object = None,
        labels: object = None,
        subject: object = None,
    ) -> None:
        """Ask ``family`` a question of ``kind`` among ``options``, then call ``then``.

        ``then(game, card, *args, answer)`` is called with the answer; it must be a
        method of a registered ability, and ``args`` must be saveable (None, bools,
        numbers, strings, and tuples or lists of them, within :mod:`.bounds`: whole
        numbers within 2**63 - 1 either side of 0, 8 levels deep, 1,000 values, 64
        KiB of a save): a game waiting on a question can be cloned and saved. RULINGS
        R4: with no option nothing happens; with exactly one it is applied without
        asking, after the code that follows the ``ask`` (always: whatever the count,
        the continuation runs after it). ``question`` and ``labels`` (option ->
        words) word it for a person. ``subject`` is the other card the question is
        about, if any (a card in the queue: the one a Royal Decree moves); the
        decision carries it (``Decision.subject``), with the key of the asking
        ability (``Decision.ability``).

        A plugin's question is checked at once (see :mod:`.questions`): a kind the
        engine asks itself, a family or card not in the game, options that are not
        JSON values a save holds or that the kind would refuse, words longer than a
        save holds, a question that takes more of a save than one may (1 MiB with its
        options and words), a subject that is not a card in the queue, a second
        question: each is a :class:`PluginError` naming the plugin, and the answer is
        taken back.
        """
        self._ask(
            family,
            kind,
            options,
            then,
            card,
            args=args,
            question=question,
            labels=labels,
            subject=subject,
        )

    def _ask(
        self,
        family: str,
        kind: str,
        options: Sequence[Answer],
        then: AbilityMethod,
        card: CardId,
        *,
        args: tuple[Any, ...],
        question: object = None,
        labels: object = None,
        subject: object = None,
    ) -> None:
        # ask() with its arguments as a tuple: compiled, a call with none gathered into
        # *args costs a fraction of one that has them.
        s = self._state
        if self._observing:
            raise PluginError(
                f"an observer of {self._observing} asked a {kind} question; hooks may not ask"
            )
        key, name = self._continuation(then)
        # The built-in cards ask as the rules say, and cost no step here: the engine's
        # loop counts the work their questions start. Third-party code is checked.
        running = self._running
        if running is not None:
            self._step()
        if kind not in self.rules.kinds:
            known = ", ".join(sorted(self.rules.kinds))
            raise PluginError(
                f"{self._asker(key)} asked a question of unknown decision kind {kind!r} "
                f"(known kinds: {known})"
            )
        if s.pending is not None:
            raise PluginError(
                f"{self._asker(key)} asked while {s.pending.family} is already asked a "
                f"{s.pending.kind} question; an ability asks one question at a time, as "
                "the last thing it does"
            )
        try:
            checked = saveable(args, key, name)
        except PluginError as error:
            raise PluginError(f"{self._asker(key)}: {error}") from None
        chosen: Options
        if running is not None:
            chosen = self._checked_question(
                then,
                checked,
                key,
                name,
                family=family,
                kind=kind,
                options=options,
                card=card,
                question=question,
                labels=labels,
                subject=subject,
            )
        else:
            chosen = options if isinstance(options, Placements) else tuple(options)
        if not chosen:
            return
        if len(chosen) == 1:
            task_args = checked + (chosen[0],)
            if running is not None:  # a task a save holds, as then() queues one
                check_task(s, self._asker(key), card)
                try:
                    task_args = saveable(task_args, key, name)
                except PluginError as error:
                    raise PluginError(f"{self._asker(key)}: {error}") from None
                self._check_arguments(task_args, key, name)
            s.tasks = s.tasks + ((key, name, card, task_args),)
            return
        if question is None and labels is None:
            about = cast("CardId | None", subject)  # a plugin's, checked above
            if about is None and kind == "target" and type(chosen) is tuple:
                s.pending = _target_decision(family, chosen, card, key)
            else:
                s.pending = new_decision(family, kind, chosen, card, ability=key, subject=about)
        else:
            words_ = words(chosen, labels)
            about = cast("CardId | None", subject)
            s.pending = Decision(
                family, kind, chosen, card, cast("str | None", question), words_, key, about
            )
        if running is not None:
            pending = s.pending
            problem = question_problem(tuple(chosen), pending.question, pending.labels)
            if problem is not None:
                raise PluginError(f"{self._asker(key)} asked a question that {problem}")
        s.resume = (key, name, card, checked)

    def ask_target(
        self, card: CardId, positions: Sequence[int], then: AbilityMethod, *args: Any
    ) -> None:
        """Ask ``card``'s owner to choose one of the top cards at ``positions``."""
        self._ask(self.owner(card), "target", positions, then, card, args=args)

    def then(self, then: AbilityMethod, card: CardId, *args: Any) -> None:
        """Call ``then(game, card, *args)`` once the work started after this call is done."""
        key, name = self._continuation(then)
        try:
            checked = saveable(args, key, name)
        except PluginError as error:
            raise PluginError(f"{self._asker(key)}: {error}") from None
        s = self._state
        if self._running is not None:  # third-party code: see ask
            self._step()
            check_task(s, self._asker(key), card)
            self._check_work(then, checked, key, name)
        s.tasks = s.tasks + ((key, name, card, checked),)

    def _asker(self, key: str) -> str:
        """Who asks or queues, for an error (see :func:`.questions.asker`)."""
        return asker(self.rules, self._running, key)

    def _checked_question(
        self,
        then: AbilityMethod,
        args: tuple[Any, ...],
        key: str,
        name: str,
        **question: Any,
    ) -> tuple[Answer, ...]:
        """A third-party question's options, checked (see :func:`.questions.checked_options`),
        its arguments saveable, and its continuation able to take them and the answer."""
        self._check_arguments(args, key, name)
        chosen = checked_options(self, self._asker(key), **question)
        check_continuation(self._asker(key), then, continuation_names(len(args), answer=True))
        return chosen

    def _check_work(self, then: AbilityMethod, args: tuple[Any, ...], key: str, name: str) -> None:
        """A third-party task: its arguments saveable, and its continuation able to
        take them as the engine will call it."""
        self._check_arguments(args, key, name)
        check_continuation(self._asker(key), then, continuation_names(len(args), answer=False))

    def _check_arguments(self, args: tuple[Any, ...], key: str, name: str) -> None:
        """Third-party arguments within every bound of a save (:func:`.bounds.value_problem`):
        :func:`.saveable.saveable` passes a few plain values at once, however long."""
        problem = value_problem(args)
        if problem is not None:
            who = self._asker(key)
            raise PluginError(
                f"{who}: the arguments of {key}.{name} cannot be saved: they {problem}"
            )

    def _continuation(self, method: AbilityMethod) -> tuple[str, str]:
        # A continuation is stored by name (ability key, method name) so that a game
        # waiting on it can be cloned and saved.
        rules = self.rules
        # A compiled method's object and name never change, nor the rules' keys: what
        # one stands for is found once. (Equal bound methods: the same object's.)
        compiled = type(method) is _COMPILED_METHOD
        if compiled:
            known = _CONTINUATIONS.get(rules)
            if known is not None:
                found = known.get(method)
                if found is not None:
                    return found
        keys = rules.ability_keys
        owner = id(getattr(method, "__self__", None))
        key = keys[owner] if owner in keys else None  # noqa: SIM401 - see Engine._activate
        name: str = getattr(method, "__name__", "")
        if key is None or not name or name.startswith("_"):
            raise PluginError(
                f"{method!r} is not a public method of a registered ability: "
                "ask() and then() continue with one, by name"
            )
        if len(name) > MAX_STRING:  # the name is saved with the work waiting
            raise PluginError(
                f"{self._asker(key)} continues with a method whose name has {len(name):,} "
                f"characters: a save holds at most {MAX_STRING:,}"
            )
        if compiled:
            known = _CONTINUATIONS.get(rules)
            if known is None:
                if len(_CONTINUATIONS) >= _CONTINUATIONS_SIZE:
                    _CONTINUATIONS.clear()  # bounded: the tables of a few rules at a time
                known = _CONTINUATIONS[rules] = {}
            known[method] = (key, name)
        return key, name

    # Events.

    def _emit(self, kind: type[Event], fields: tuple[Any, ...]) -> None:
        """Record an event of type ``kind`` with ``fields`` in the log, and tell the
        plugins that observe its kind."""
        if self._running is not None:
            self._step()  # third-party code that keeps changing the game is stopped
        s = self._state
        if s.recording:
            s.log = (s.log, kind, fields)
        self._observe(kind, fields)

    def _observe(self, kind: type[Event], fields: tuple[Any, ...]) -> None:
        observers = self.rules.observers
        if not observers or kind not in observers:  # compiled, cheaper than a view's get
            return
        hook = observers[kind]
        if hook is None:
            return
        event = kind(*fields)
        observing = self._observing
        self._observing = event.kind
        try:
            hook(game=self, event=event)
        except OriflammeError:
            raise
        except Exception as exc:
            plugin = self.rules.hook_plugin(exc)
            error = PluginError(
                f"plugin {plugin!r} failed observing {event.kind} "
                f"({event!r}): {type(exc).__name__}: {exc}"
            )
            error.__cause__ = exc  # set by hand: compiled, "raise ... from" drops it
            raise error from exc
        finally:
            self._observing = observing

    @property
    def acting(self) -> CardId | None:
        """The card whose turn it is in the resolution phase, if any."""
        acting = self._state.acting
        return None if acting == NO_CARD else acting

    # What the current answer may still spend (see :mod:`.budget`): set afresh by each
    # answer; class-level defaults, so that making one (a clone's) costs nothing more.
    budget: Budget = BUDGET
    _steps: int = MAX_STEPS
    _lines: int = MAX_LINES
    # The third-party callable running now (see .guards.run_guarded), None in the
    # engine's and the built-in cards' own code.
    _running: object = None

    def _renew(self) -> None:
        """The whole :attr:`budget` to spend: each answer has one of its own."""
        budget = self.budget
        self._steps = budget.steps
        self._lines = budget.lines

    def _step(self) -> None:
        """One engine step of the answer's budget (see :mod:`.budget`)."""
        self._steps -= 1
        if self._steps < 0:
            raise OverBudget(steps_bound(self.budget))

    def __init__(self, state: State, rules: GameRules) -> None:
        self._bind(state, rules)

    def _bind(self, state: State, rules: GameRules) -> None:
        self._state = state
        self.rules = rules
        # Events are built only when someone reads them: the log, or an observer.
        self._emitting = state.recording or bool(rules.observers)
        self._observing = ""  # the kind of event whose hooks are running: they may not ask


#: The target decisions asked so far: a decision is an immutable value, and making one
#: costs many times finding it. Emptied when full.
_TARGETS: Final[dict[Any, Decision]] = {}
_TARGETS_SIZE: Final = 4096


def _target_decision(
    family: str, options: tuple[Answer, ...], card: CardId, ability: str
) -> Decision:
    """``new_decision(family, "target", options, card, ability=ability)``, the same value: one
    already made, when ``options`` are whole numbers (not bools: ``True == 1``)."""
    for option in options:
        if type(option) is not int:
            return new_decision(family, "target", options, card, ability=ability)
    key: Any = (family, options, card, ability)
    found = _TARGETS.get(key)
    if found is None:
        if len(_TARGETS) >= _TARGETS_SIZE:
            _TARGETS.clear()
        found = _TARGETS[key] = new_decision(family, "target", options, card, ability=ability)
    return found
