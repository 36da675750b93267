"""Oriflamme as an OpenSpiel game: ``python_oriflamme``.

OpenSpiel knows a Python game only once its module is imported: ``import
oriflamme.rl.openspiel``, then ``pyspiel.load_game("python_oriflamme(families=4,sets=ablaze)")``.
It needs ``open_spiel``; the engine does not. Sequential, imperfect information,
general-sum, returns at the end only. Player ``p`` is seat ``p``: ``red``, ``blue``,
``green``, ``yellow``, ``black``, as many as there are families (who plays first is dealt).

**Parameters.** ``families`` (3 to 5, default 3); ``sets`` (default ``base``: several,
e.g. ``base+ablaze``, draw ``size`` card types, 0 for the default 10); ``cards`` (an
explicit card list instead, repeats allowed, e.g. ``soldier+archer+...+jester``);
``reward`` (``outcome`` or ``score``, see :mod:`.returns`); ``variants`` (``name:value``
each, e.g. ``ambush_own_elimination:revised``). Lists are written with ``+``: a game
string splits at every ``,`` (a parameter dictionary may use ``,``; the game keeps ``+``).
Cards come from the installed plugins and from :data:`PLUGINS` (registered by hand).

**The deal** is :data:`DEAL_BYTES` (4) chance nodes of 256 equally likely outcomes: the
bytes of a 32-bit deal seed, least significant first (outcome ``b`` of node ``i`` adds
``b * 256**i``). After the fourth, ``Game.new(config, seed=seed)`` deals everything: the
card list (of several sets), every hand and set-aside card, the first player. No
observation shows the outcomes; replaying a history gives the same game.

**Actions** are :class:`~.actions.ActionSpace`'s for :func:`~.actions.card_pool`, the same
for every deal; the legal ones are the engine's options. **Observations**: see
:mod:`.openspiel_observer`.

**What is safe to show a player.** ``history()`` (the deal's outcomes, then every
action's id), ``action_to_string`` and ``serialize`` (with
``pyspiel.serialize_game_and_state``) are the *referee's* view: an action id and its
text name the card type of every placement (``place Archer at the first end``), face
down or not, and the deal's outcomes make the seed that deals every hand, as in
OpenSpiel's own games of imperfect information. Show them to no player during a game.
What is safe to show one: its observation and information-state strings and tensors
(its own view; the information-state string is :mod:`.openspiel_information`'s compact
text of all it has seen and done), and ``str(state)``, the spectator's view
(``game.observe(None)``): the queue with ``?`` for a card not seen face up, Influence,
the sizes of hands and set-aside cards, the piles; before the deal only ``dealing: k
of 4 drawn``.

**Bounds.** Utility: ``outcome`` -1 to 1; ``score`` ±``MAX_INFLUENCE`` (10,000, the most
Influence a legal state holds; games stay within a few dozen). Game length: each round
one placement a family and :data:`QUESTIONS_PER_POSITION` questions for each of the
:data:`~.actions.POSITIONS` queue positions: a generous bound (the built-in sets ask
about 2 a position at most; games of five families take about 100 decisions), not a
proof: a plugin's card that asks many more questions could pass it.

**Search.** ``state.resample_from_infostate(player, sampler)`` deals a complete game
consistent with all that player has seen (``Game.determinise``), for OpenSpiel's Python
ISMCTS bot: :func:`.openspiel_play.play_ismcts_vs_random` plays it against random bots.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from oriflamme import COLOURS, Game, GameConfig, Observation, Registry
from oriflamme.limits import MAX_FAMILIES, MAX_INFLUENCE, MIN_FAMILIES
from oriflamme.saves import load as load_game

from .actions import POSITIONS, ActionSpace, card_pool
from .observations import ROUNDS, Encoding
from .openspiel_information import information_string
from .openspiel_observer import OriflammeObserver, observation_text
from .returns import check_returns, returns

#: Chance nodes of the deal, each one byte of the deal seed.
DEAL_BYTES = 4
#: Questions one queue position may ask as it resolves, for the game-length bound.
QUESTIONS_PER_POSITION = 4
#: Plugins to register by hand in every game's registry, by name: for a plugin that is
#: not installed (an installed one loads by itself), as in a plugin's own tests.
PLUGINS: dict[str, object] = {}

PARAMETERS: dict[str, int | str] = {
    "families": 3,
    "sets": "base",
    "size": 0,
    "cards": "",
    "reward": "outcome",
    "variants": "",
}

GAME_TYPE = pyspiel.GameType(
    short_name="python_oriflamme",
    long_name="Python Oriflamme",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_FAMILIES,
    min_num_players=MIN_FAMILIES,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def _names(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.replace(",", "+").split("+") if name.strip())


def _params(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every parameter, checked, lists written with ``+`` (a game string splits ``,``)."""
    found: dict[str, Any] = {**PARAMETERS, **(params or {})}
    unknown = set(found) - set(PARAMETERS)
    if unknown:
        raise ValueError(f"python_oriflamme has no parameter {', '.join(sorted(unknown))}")
    if type(found["families"]) is not int or not MIN_FAMILIES <= found["families"] <= MAX_FAMILIES:
        raise ValueError(f"families must be {MIN_FAMILIES} to {MAX_FAMILIES}")
    if type(found["size"]) is not int or found["size"] < 0:
        raise ValueError("size must be a whole number, 0 for the default")
    check_returns(found["reward"])
    pairs = []
    for item in _names(found["variants"]):
        name, sep, value = item.replace("=", ":").partition(":")
        if not sep or not name.strip():
            raise ValueError(f"a variant is written name:value, not {item!r}")
        pairs.append(f"{name.strip()}:{value.strip()}")
    found.update(sets="+".join(_names(found["sets"])), cards="+".join(_names(found["cards"])))
    found["variants"] = "+".join(pairs)
    return found


class Rules:
    """What every state of one game shares: its configuration, its own registry (made
    once, not per state), action space and encoding. A state's copy keeps the same one;
    games of the same parameters alive at once share one (see :data:`_LIVE`)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = dict(params)
        self.families = COLOURS[: params["families"]]
        cards = _names(params["cards"])
        self.config = GameConfig(
            families=self.families,
            sets=_names(params["sets"]),
            cards=cards or None,
            size=params["size"] or None,
            variants=dict(item.split(":", 1) for item in _names(params["variants"])),
        )
        self.config.check()
        self.reward: str = params["reward"]
        self.registry = Registry()
        if PLUGINS:
            installed = {info.name for info in self.registry.plugins}
            for name, plugin in PLUGINS.items():
                if name not in installed:
                    self.registry.register(plugin, name)
        pool = card_pool(self.config, self.registry)
        self.space = ActionSpace(pool, registry=self.registry)
        self.encoding = Encoding(pool)
        self.seat = {family: seat for seat, family in enumerate(self.families)}
        Game.new(self.config, registry=self.registry, record=False)  # refuse a bad one now

    def __deepcopy__(self, memo: object) -> Rules:
        return self  # shared, never changed

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules_for, (self.params,))


#: The rules of the games alive, by their parameters: a game loaded again while one of
#: the same parameters lives (as deserialising does) shares them rather than load
#: every plugin again; so does an unpickled state.
_LIVE: weakref.WeakValueDictionary[str, Rules] = weakref.WeakValueDictionary()


def _rules_for(params: Mapping[str, Any]) -> Rules:
    key = repr(sorted(params.items()))
    rules = _LIVE.get(key)
    if rules is None:
        rules = _LIVE[key] = Rules(params)
    return rules


class _Table:
    """The engine's game of one state (None before the deal). A copy clones it; a
    pickle keeps its save, loaded back with the registry of its rules."""

    __slots__ = ("game", "rules")

    def __init__(self, game: Game | None, rules: Rules) -> None:
        self.game = game
        self.rules = rules

    def __deepcopy__(self, memo: object) -> _Table:
        return _Table(self.game.clone() if self.game is not None else None, self.rules)

    def __reduce__(self) -> tuple[Any, ...]:
        text = self.game.to_json() if self.game is not None else None
        return (_load, (text, self.rules))


def _load(text: str | None, rules: Rules) -> _Table:
    game = load_game(text, registry=rules.registry) if text is not None else None
    return _Table(game, rules)


class OriflammeGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (see the module's documentation for its parameters)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        found = _params(params)
        self.rules = _rules_for(found)
        families = found["families"]
        bound = 1.0 if self.rules.reward == "outcome" else float(MAX_INFLUENCE)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.space.size,
            max_chance_outcomes=256,
            num_players=families,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=ROUNDS * (families + QUESTIONS_PER_POSITION * POSITIONS),
        )
        super().__init__(GAME_TYPE, info, found)

    def new_initial_state(self) -> OriflammeState:
        return OriflammeState(self)

    def max_chance_nodes_in_history(self) -> int:
        return DEAL_BYTES

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> OriflammeObserver:
        if isinstance(iig_obs_type, Mapping):  # called with the parameters alone
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observer parameters are not supported, not {dict(params)}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a player's own observation is supported (public and private)")
        return OriflammeObserver(
            self.rules.encoding, self.rules.space.size, perfect_recall=kind.perfect_recall
        )


class OriflammeState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal's outcomes so far, then the engine's game."""

    def __init__(self, game: OriflammeGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._deal: list[int] = []
        self._table = _Table(None, game.rules)
        # Each player's own actions, in order (for its information state).
        self._own: list[list[int]] = [[] for _ in game.rules.families]
        self._texts: dict[int, str] = {}

    @property
    def game(self) -> Game | None:
        """The engine's game (None before the deal): omniscient, for tests and tools."""
        return self._table.game

    def observation_of(self, player: int) -> Observation | None:
        game = self._table.game
        return game.observe(self._rules.families[player]) if game is not None else None

    def own_actions(self, player: int) -> Sequence[int]:
        return self._own[player]

    def deal_drawn(self) -> int:
        return len(self._deal)

    def information_text(self, player: int) -> str:
        """The information-state string (:mod:`.openspiel_information`)."""
        # Search asks for it several times a node: it is kept until the next action.
        text = self._texts.get(player)
        if text is None:
            seen = self.observation_of(player)
            if seen is None:
                return f"dealing: {self.deal_drawn()} drawn"
            text = self._texts[player] = information_string(seen, self._own[player])
        return text

    # OpenSpiel's state API.

    def current_player(self) -> int:
        game = self._table.game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        decision = game.decision
        if decision is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._rules.seat[decision.family]

    def _legal_actions(self, player: int) -> list[int]:
        seen = self.observation_of(player)
        return [] if seen is None else self._rules.space.legal(seen)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(byte, 1.0 / 256) for byte in range(256)]

    def _apply_action(self, action: int) -> None:
        self._texts.clear()
        game = self._table.game
        if game is None:
            if not 0 <= action < 256:
                raise ValueError(f"a deal outcome is a byte, 0 to 255, not {action}")
            self._deal.append(int(action))
            if len(self._deal) == DEAL_BYTES:
                seed = int.from_bytes(bytes(self._deal), "little")
                rules = self._rules
                self._table.game = Game.new(rules.config, registry=rules.registry, seed=seed)
            return
        decision = game.decision
        if decision is None:
            raise ValueError("the game is over")
        seen = game.observe(decision.family)
        game.answer(self._rules.space.decode(seen, int(action)), family=decision.family)
        self._own[self._rules.seat[decision.family]].append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        # The referee's view: a placement names its card (see the module).
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal byte {action}"
        return self._rules.space.describe(action)

    def is_terminal(self) -> bool:
        game = self._table.game
        return game is not None and game.over

    def returns(self) -> list[float]:
        game = self._table.game
        if game is None or not game.over:
            return [0.0] * len(self._rules.families)
        found = returns(self._rules.reward, game.scores, game.winners)
        return [found[family] for family in self._rules.families]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> OriflammeState:
        """A state that ``player_id`` cannot tell from this one: every card it has not
        seen dealt afresh (``Game.determinise``) from a seed drawn from
        ``probability_sampler`` (a float in [0, 1)). It keeps the player's own actions
        and no one else's, nor the deal's outcomes: its ``history()`` starts empty.
        Before the deal: a state with as many outcomes drawn from the sampler."""
        state = OriflammeState(self.get_game())
        game = self._table.game
        if game is None:
            for _ in self._deal:
                state.apply_action(min(255, int(probability_sampler() * 256)))
            return state
        seed = int(probability_sampler() * 2**53)
        seen = game.observe(self._rules.families[player_id])
        state._table.game = Game.determinise(seen, seed, registry=self._rules.registry)
        state._own[player_id] = list(self._own[player_id])
        return state

    def __str__(self) -> str:
        """The spectator's view, safe to show anyone (OpenSpiel prints it in its
        checks and errors): public information only, no hidden card, no deal seed."""
        game = self._table.game
        if game is None:
            return f"dealing: {len(self._deal)} of {DEAL_BYTES} drawn"
        return observation_text(game.observe(None))


pyspiel.register_game(GAME_TYPE, OriflammeGame)
