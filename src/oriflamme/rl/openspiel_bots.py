"""Bots for :mod:`.openspiel`'s game: ours as ``pyspiel.Bot``, and OpenSpiel's Python
ISMCTS bot made ready for ``pyspiel.evaluate_bots``.

:func:`make_bot` makes an OpenSpiel bot of any of our bot kinds (``random``,
``heuristic``, ``ismcts`` and those plugins register, :func:`oriflamme.bots.bot_kinds`)
from its choice written as text (``ismcts:iterations=50``), for one player of one game:
its ``step(state)`` is the action id of our bot's answer, chosen from that player's own
observation (``state.observation_of(player)``), as our bots always choose; it reads
nothing else of the state. Every choice flows from the bot's seed. Our bots keep
nothing from one decision to the next (the observation holds the public log), so
``restart``, ``restart_at`` and ``inform_action`` have nothing to do. The ``random``
and ``heuristic`` bots provide their policy (``provides_policy()``): uniform over the
legal answers, or over those the heuristic scores best; two answers of one action (two
copies of a card type in hand) add up. A plugin's bot or ``ismcts`` provides none: its
answer comes out of a search, not a distribution it can state.

:func:`openspiel_ismcts` is OpenSpiel's own Python ISMCTS bot with the two things it
lacks to play reproducible games in ``pyspiel.evaluate_bots``:

* ``restart_at``: ``evaluate_bots`` calls it on every bot when the game starts past its
  first node (a deal already drawn), and OpenSpiel's Python ``evaluate_bots`` always
  does; ``ISMCTSBot`` does not define it, so ``pyspiel.Bot``'s own raises
  ``RestartAt(state) not implemented``. The bot searches afresh at every step (its
  search starts with ``reset()``), so restarting is that ``reset()``.
* a resampler that draws from the bot's own seeded generator: without one it asks the
  state to ``resample_from_infostate`` with a new ``pyspiel.UniformProbabilitySampler``
  each time, seeded from the system's entropy, so no two runs search the same deals.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from oriflamme import Answer, Observation
from oriflamme.bots import BotChoice, HeuristicBot, RandomBot, parse_bot

from .openspiel import OriflammeGame, OriflammeState

Policy = list[tuple[int, float]]


class OriflammeBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots playing ``player`` of an OpenSpiel game of :mod:`.openspiel`
    (see the module's documentation)."""

    def __init__(
        self,
        game: OriflammeGame,
        player: int,
        choice: str | BotChoice,
        seed: int | random.Random,
    ) -> None:
        pyspiel.Bot.__init__(self)
        rules = game.rules
        if not 0 <= player < len(rules.families):
            raise ValueError(f"player must be 0 to {len(rules.families) - 1}, not {player}")
        self.choice = parse_bot(choice, rules.registry) if isinstance(choice, str) else choice
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.bot = self.choice.make(rng, rules.registry)
        self._player = player
        self._space = rules.space

    def player_id(self) -> int:
        return self._player

    def restart(self) -> None:
        """Nothing to forget: the bot keeps nothing from one decision to the next."""

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: the bot keeps nothing from one decision to the next."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to note: the next observation's public log holds what was done."""

    def step(self, state: Any) -> int:
        """The action of the bot's answer, or ``pyspiel.INVALID_ACTION`` when its
        player is not asked (a chance node, another's turn, the end), as OpenSpiel's
        Python bots do."""
        seen = self._asked(state)
        if seen is None:
            return int(pyspiel.INVALID_ACTION)
        return self._space.encode(seen, self.bot.choose(seen))

    def provides_policy(self) -> bool:
        return type(self.bot) in (RandomBot, HeuristicBot)

    def get_policy(self, state: Any) -> Policy:
        """Each legal action and the chance that the bot plays it (see the module)."""
        if not self.provides_policy():
            raise ValueError(f"the bot {self.choice.text!r} provides no policy, only its answers")
        seen = self._asked(state)
        decision = seen.decision if seen is not None else None
        if seen is None or decision is None:
            return []
        options = decision.options
        chosen: list[Answer] = list(options)
        bot = self.bot
        if isinstance(bot, HeuristicBot) and len(options) > 1:
            # As HeuristicBot.choose: uniform among the options scored best.
            scores = bot.scores(seen)
            top = max(scores)
            chosen = [o for o, score in zip(options, scores, strict=True) if score >= top - 1e-9]
        found: dict[int, float] = {}
        for option in chosen:
            action = self._space.encode(seen, option)
            found[action] = found.get(action, 0.0) + 1.0 / len(chosen)
        return sorted(found.items())

    def step_with_policy(self, state: Any) -> tuple[Policy, int]:
        """:meth:`get_policy` and :meth:`step`: an action drawn from that policy."""
        return self.get_policy(state), self.step(state)

    def _asked(self, state: Any) -> Observation | None:
        if not isinstance(state, OriflammeState):
            raise TypeError(
                f"an Oriflamme bot plays states of python_oriflamme, not {type(state).__name__}"
            )
        if state.is_terminal() or state.current_player() != self._player:
            return None
        return state.observation_of(self._player)


def make_bot(
    game: OriflammeGame, player: int, choice: str | BotChoice, seed: int | random.Random
) -> OriflammeBot:
    """An OpenSpiel bot of our bot ``choice`` (``kind`` or ``kind:setting=value...``, as
    :func:`oriflamme.bots.parse_bot` reads it, a plugin's kind of ``game``'s registry
    too) playing ``player`` of ``game``, its choices flowing from ``seed``."""
    return OriflammeBot(game, player, choice, seed)


class OpenSpielIsmcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS bot, with ``restart`` and ``restart_at`` (see the
    module): made by :func:`openspiel_ismcts`."""

    def restart(self) -> None:
        self.reset()

    def restart_at(self, state: Any) -> None:
        self.reset()


def openspiel_ismcts(
    game: OriflammeGame,
    seed: int,
    simulations: int,
    *,
    uct_c: float = 2.0,
) -> OpenSpielIsmcts:
    """OpenSpiel's Python ISMCTS bot for ``game`` (any player: it plays whoever is
    asked), ``simulations`` a decision, random rollouts, a fresh resample of the hidden
    cards for each simulation; every random choice (its rollouts, resamples and
    choices) flows from ``seed``."""
    draws = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(draws.randint(2**31)))
    bot = OpenSpielIsmcts(
        game, evaluator, uct_c, simulations, random_state=draws, max_world_samples=-1
    )

    def resample(state: OriflammeState, player: int) -> OriflammeState:
        return state.resample_from_infostate(player, draws.uniform)

    bot.set_resampler(resample)
    return bot
