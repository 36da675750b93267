"""A game of Oriflamme: set up from a configuration, advanced by answering decisions.

>>> game = Game.new(GameConfig(families=("red", "blue", "green"), seed=1),
...                 registry=Registry(entry_points=False))
>>> game.decision.kind
'place'

An answer is all or nothing: it is applied to a copy of the state, which replaces the
game's only once the answer is fully applied. Whatever is raised meanwhile (a refusal,
a plugin's error, KeyboardInterrupt), the game stays exactly as it was.
"""

from __future__ import annotations

import random
from typing import Any, NoReturn

import attrs

from ._blame import blame, seed_note
from ._bounds import check_seed
from ._budget import BUDGET, Budget, OverBudget, checked_budget, third_party
from ._config import GameConfig
from ._deal import deal
from ._decisions import Answer, Decision
from ._determinise import determinise
from ._effects import Effects
from ._engine import Engine
from ._errors import AbilityError, ConfigError, IllegalAnswer, OriflammeError, PluginError
from ._events import Event
from ._guards import guarded_rules, run_guarded
from ._kinds import DecisionKind, builtin_check, refuse
from ._observation import Observation, observe
from ._plugins import Registry
from ._position import Position, position_of
from ._rules import GameRules
from ._saves import dump, snapshot
from ._scoring import final_scores, winners
from ._shown import indices, shown
from ._state import END, State

_checked: GameConfig | None = None


class Game:
    """A game in progress. Read ``decision``; call ``answer``; repeat until ``over``."""

    __slots__ = ("_engine", "_state")

    _state: State
    _engine: Engine

    def __init__(self, state: State, rules: GameRules | None = None) -> None:
        self._state = state
        # The engine runs the rules with third-party code guarded (see .guards);
        # ``rules`` are those of the game this one is a copy of, already guarded.
        self._engine = Engine(state, rules if rules is not None else guarded_rules(state.rules))

    # Making one.

    @classmethod
    def new(
        cls,
        config: GameConfig | None = None,
        *,
        registry: Registry | None = None,
        record: bool = True,
        seed: int | None = None,
        rng: random.Random | None = None,
        **options: Any,
    ) -> Game:
        """A new game, set up by the rulebook (RULINGS G2) from ``config``.

        ``options`` are GameConfig fields, for a config given inline. Pass one
        ``registry`` when creating many games: building one loads every plugin.
        ``record=False`` keeps no event log (faster, for simulations). ``seed``, if
        given, is the game's seed instead of ``config.seed`` (many games of one
        configuration). ``rng`` is a generator seeded with the game's seed to deal
        from, if the caller has one and wants to go on drawing from it afterwards;
        by default one is made.
        """
        global _checked  # noqa: PLW0603 - the last configuration checked
        if config is None:
            config = GameConfig(**options)
        elif options:
            raise TypeError("give either a GameConfig or its fields, not both")
        if config is not _checked:  # many games of one configuration check it once
            config.check()
            _checked = config
        if seed is None:
            seed = config.seed
        else:
            check_seed(seed)  # the game's own seed, saved with it
        registry = registry if registry is not None else Registry()
        rng = rng if rng is not None else random.Random(seed)
        cards = registry.card_list(config, rng)
        rules = registry.rules_for(config, cards)
        state = deal(config, rules, cards, rng, seed=seed, recording=record)
        game = cls(state)
        _play_on(game, starting=True)
        return game

    @classmethod
    def determinise(
        cls,
        observation: Observation,
        seed: int,
        *,
        registry: Registry | None = None,
        record: bool = True,
    ) -> Game:
        """A complete game that ``observation`` could be of, the cards its family cannot
        see dealt at random from ``seed`` (see :mod:`.determinise`)."""
        registry = registry if registry is not None else Registry()
        # The variants as they are: read-only, and only read.
        rules = registry.rules(observation.sets, observation.variants, extra=observation.cards)
        return cls(determinise(observation, seed, rules, recording=record))

    # Asking and answering.

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        return self._state.pending

    # ``family`` is typed object: compiled, a str annotation would refuse a caller's
    # 0 or ['red'] with TypeError before the method could refuse it as an answer.
    def answer(self, answer: object, *, family: object = None) -> None:
        """Answer the pending decision and play on to the next one.

        ``answer`` is one of ``decision.options``, or the same value as JSON sent it
        back (a placement as a list). ``family``, if given, is who answers: anyone
        else's turn is refused. An answer that is not legal raises
        :class:`IllegalAnswer`, which says why, and leaves the game exactly as it was.
        One whose plugin code fails, or goes over the game's :attr:`budget`, raises
        :class:`AbilityError` naming the plugin, and leaves the game as it was too.
        """
        decision = self._state.pending
        if decision is None or (family is not None and not _asked(decision, family)):
            raise _not_asked(decision, family)
        # _check, spelled out: compiled, one call less on every answer.
        checked = builtin_check(decision.kind, self._engine.effects, decision, answer)
        self._commit(decision, self._table_check(decision, answer) if checked is None else checked)

    def answer_option(self, number: object, *, family: object = None) -> None:
        """Answer with option ``number`` of the pending decision (see :mod:`.decisions`).

        ``family``, if given, is who answers, as for :meth:`answer`."""
        decision = self._state.pending
        if decision is None or (family is not None and not _asked(decision, family)):
            raise _not_asked(decision, family)
        options = decision.options
        if type(number) is not int or not 0 <= number < len(options):
            count = indices(len(options), "option")
            missing = f"option {shown(number)} does not exist (the decision has {count})"
            raise refuse(decision, missing)
        self._commit(decision, options[number])

    def _check(self, decision: Decision, answer: object) -> Answer:
        """``answer`` made canonical by the decision's kind, or refused with its reason:
        a kind that ships with oriflamme checks it at once (an offered answer given as
        offered first), a third-party kind on a copy of the game."""
        # Core's kinds are the same objects in every rules table: their check is
        # trusted, and found by name first (they are asked most).
        checked = builtin_check(decision.kind, self._engine.effects, decision, answer)
        return self._table_check(decision, answer) if checked is None else checked

    def _table_check(self, decision: Decision, answer: object) -> Answer:
        """``answer`` checked by a kind of the rules table (not one of core's)."""
        kind = self._state.rules.kinds[decision.kind]
        # The built-in sets' kinds ship with oriflamme, as their abilities do: trusted.
        if _shipped(kind):
            return kind.check(self._engine.effects, decision, answer)  # type: ignore[no-any-return]
        return self._plugin_check(kind, decision, answer)

    def _plugin_check(self, kind: DecisionKind, decision: Decision, answer: object) -> Answer:
        """A plugin's kind checks ``answer``: on a copy of the game (checking never
        changes it), within the budget of an answer."""
        own = self._engine.effects
        effects = Effects(self._state.clone(), own.rules)
        effects.budget = own.budget
        effects._renew()
        try:
            checked: Answer = run_guarded(effects, kind.check, effects, decision, answer)
        except IllegalAnswer:
            raise
        except (Exception, OverBudget) as exc:
            problem = exc.bound if isinstance(exc, OverBudget) else f"{type(exc).__name__}: {exc}"
            went = "went over" if isinstance(exc, OverBudget) else "raised"
            error = AbilityError(
                f"the {decision.kind!r} decision kind ({type(kind).__module__}."
                f"{type(kind).__qualname__}) {went} {problem}, checking {shown(answer)}; "
                "the game is as it was before this answer"
            )
            error.__cause__ = exc  # set by hand: compiled, "raise ... from" drops it
            raise error from exc
        return checked

    def _commit(self, decision: Decision, answer: Answer) -> None:
        old = self._state
        state = old.clone()
        engine = self._engine
        effects = engine.effects
        effects._state = state  # the rest of an engine is fixed for its game
        # Abilities and hooks are handed the effects as their game: whatever they set
        # there is undone.
        rules, budget = effects.rules, effects.budget
        try:
            engine.apply(decision, answer)
        except Exception as exc:
            effects._state = old
            error = AbilityError(blame(old.rules, exc, decision, answer, old))
            error.add_note(seed_note(old))
            error.__cause__ = exc  # set by hand: compiled, "raise ... from" drops it
            raise error from exc
        except BaseException:
            effects._state = old
            raise
        finally:
            effects.rules, effects.budget = rules, budget
        self._state = state

    def legal(self, answer: object) -> bool:
        """Whether ``answer`` would be accepted now."""
        decision = self._state.pending
        if decision is None:
            return False
        try:
            self._check(decision, answer)
        except IllegalAnswer:
            return False
        return True

    # Looking at it.

    def observe(self, family: object = None) -> Observation:
        """What ``family`` may see now, as plain data; None: what a spectator sees. Any
        other value than a family's name raises ValueError, compiled or not."""
        if family is not None and type(family) is not str:
            known = ", ".join(self._state.families)
            raise ValueError(f"{shown(family)} is not a family of this game ({known})")
        return observe(self._state, family)

    def position(self) -> Position:
        """The whole table as a referee sees it, cards by label (omniscient)."""
        return position_of(self._state)

    @property
    def events(self) -> tuple[Event, ...]:
        """The event log, oldest first (empty for a game made with ``record=False``)."""
        return self._state.events()

    @property
    def over(self) -> bool:
        return self._state.phase == END

    @property
    def scores(self) -> dict[str, int]:
        """Each family's Influence (the final score once the game is over)."""
        return final_scores(self._state)

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning families once the game is over (several for a shared win)."""
        if not self.over:
            raise ValueError("the game is not over yet")
        return winners(self._state)

    @property
    def families(self) -> tuple[str, ...]:
        return self._state.families

    @property
    def cards(self) -> tuple[str, ...]:
        """The card list every family holds."""
        return self._state.cards

    @property
    def config(self) -> GameConfig:
        """The game's configuration, its own seed included."""
        state = self._state
        config = state.config
        return config if config.seed == state.seed else attrs.evolve(config, seed=state.seed)

    @property
    def rules(self) -> GameRules:
        return self._state.rules

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def budget(self) -> Budget:
        """What one answer may cost: engine steps, and lines of plugin code (see
        :mod:`.budget`). Set it to an :class:`~oriflamme.Budget` to change
        the bounds of this game (and of its clones); saves do not keep it."""
        return self._engine.effects.budget

    @budget.setter
    def budget(self, budget: object) -> None:
        try:
            self._engine.effects.budget = checked_budget(budget)
        except (TypeError, ValueError) as exc:
            raise ConfigError(str(exc)) from None

    # Copies and saves.

    def clone(self) -> Game:
        """An independent copy: answering one never changes the other. It keeps the
        game's :attr:`budget`."""
        # Through __init__: compiled, a class's __new__ calls it (with no state).
        effects = self._engine.effects
        copy = Game(self._state.clone(), effects.rules)
        budget = effects.budget
        if budget is not BUDGET:
            copy._engine.effects.budget = budget
        return copy

    def snapshot(self) -> dict[str, Any]:
        """The whole game as plain data: what :meth:`to_json` writes and ``==`` compares."""
        return snapshot(self._state)

    # Gone, and refused with where they went: a program written before may call them.
    @classmethod
    def from_json(cls, *args: object, **kwargs: object) -> NoReturn:
        raise AttributeError("Game.from_json is now oriflamme.saves.load (see docs/migration.md)")

    @classmethod
    def from_position(cls, *args: object, **kwargs: object) -> NoReturn:
        raise AttributeError(
            "Game.from_position is now oriflamme.saves.from_position (see docs/migration.md)"
        )

    def to_json(self) -> str:
        """The game's save, which :func:`oriflamme.saves.load` reads back identical."""
        return dump(self._state)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    def __hash__(self) -> int:
        raise TypeError("a game is not hashable: it changes as it is played")

    def __repr__(self) -> str:
        decision = self.decision
        asking = f"{decision.family} to {decision.kind}" if decision else "over"
        return f"<Game round {self.round} {self.phase}, {asking}>"


def game_of(state: State, *, play_on: bool = False) -> Game:
    """The game of ``state``, a state from outside that :mod:`oriflamme.saves` has read
    and checked; ``play_on``: advanced to its first question (a position has none yet)."""
    game = Game(state)
    if play_on:
        _play_on(game, starting=False)
    return game


def _play_on(game: Game, *, starting: bool) -> None:
    """Play ``game`` on to its first question (``starting``: a new game, its first
    events first). A plugin's code that fails meanwhile is named as in an answer
    (see :func:`.blame.blame`); the game is not made."""
    engine = game._engine
    try:
        if starting:
            engine.start()
        else:
            engine.run()
    except Exception as exc:
        if isinstance(exc, OriflammeError) and not isinstance(exc, PluginError):
            raise  # the engine's own word on the position
        state = game._state
        error = AbilityError(blame(state.rules, exc, None, None, state))
        error.add_note(seed_note(state))
        error.__cause__ = exc  # set by hand: compiled, "raise ... from" drops it
        raise error from exc


def _asked(decision: Decision, family: object) -> bool:
    """Whether ``family`` is the family ``decision`` asks: a str, compared as one (a
    caller's object that equals everything is no family)."""
    return type(family) is str and family == decision.family


def _not_asked(decision: Decision | None, family: object) -> IllegalAnswer:
    """The refusal of an answer when no decision is pending, or another family's is."""
    if decision is None:
        return IllegalAnswer("the game is over: there is no decision to answer")
    who = family if type(family) is str and len(family) <= 40 else shown(family)
    return IllegalAnswer(
        f"it is {decision.family}'s turn to answer a {decision.kind} decision, not {who}'s"
    )


#: Whether a class of kind ships with oriflamme, by class (found once: an answer's
#: kind is looked up every answer).
_SHIPPED: dict[type, bool] = {}
_SHIPPED_SIZE = 256


def _shipped(kind: object) -> bool:
    """Whether ``kind`` ships with oriflamme (a built-in set's): its check is trusted."""
    cls = type(kind)
    found = _SHIPPED.get(cls)
    if found is None:
        if len(_SHIPPED) >= _SHIPPED_SIZE:
            _SHIPPED.clear()
        found = _SHIPPED[cls] = not third_party(kind)
    return found
