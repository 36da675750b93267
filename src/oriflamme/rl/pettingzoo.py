"""Oriflamme as a PettingZoo AEC environment, in the style of its classic card games.

    from oriflamme.rl.pettingzoo import env

    game = env(families=3, sets=("base",))
    game.reset(seed=42)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        action = None if terminated or truncated else game.action_space(agent).sample(
            observation["action_mask"]
        )
        game.step(action)

Agents are the families (``red``, ``blue``...). Each observation is a dict: the
``observation`` vector of :mod:`.observations`, made from that agent's own view only,
and the ``action_mask`` of :mod:`.actions` (all 0 when the agent is not asked). Spaces
are built for every card type a game may hold (:func:`~.actions.card_pool`), so they
stay the same when each deal draws its card list from several sets. Rewards come at
the end (:mod:`.returns`: ``reward="outcome"``, or ``"score"`` for the difference in
Influence). ``reset(seed=s)`` deals the game ``Game.new(config, seed=s)`` deals; an
unseeded reset after it deals the next of a sequence drawn from ``s``. ``render()``
shows the terminal's text of the view of the agent to act and its legal actions, as
PettingZoo asks: ``render_mode="human"`` prints it (after every step too) and returns
None; ``"ansi"``, or no render mode, returns it.

Needs the optional extra ``oriflamme[rl]`` (pettingzoo, numpy).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from oriflamme import COLOURS, Game, GameConfig, Registry
from oriflamme.limits import MAX_FAMILIES, MIN_FAMILIES
from oriflamme.text import Words, view_lines

from .actions import ActionSpace, card_pool
from .observations import Encoding
from .returns import check_returns, returns

Observation = dict[str, np.ndarray[Any, Any]]


def env(**kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are: an illegal action
    ends the game with -1 for the agent that took it, an action outside the space
    fails at once, and calls out of order are refused."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for it
    """The unwrapped environment (see :func:`env`); ``config`` are GameConfig fields
    (``cards``, ``size``, ``variants``, ``first_player``...)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "oriflamme_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        families: int | Sequence[str] = 3,
        sets: Sequence[str] = ("base",),
        *,
        reward: str = "outcome",
        render_mode: str | None = None,
        registry: Registry | None = None,
        **config: Any,
    ) -> None:
        super().__init__()
        if isinstance(families, int):
            if not MIN_FAMILIES <= families <= MAX_FAMILIES:
                raise ValueError(
                    f"families must be {MIN_FAMILIES} to {MAX_FAMILIES}, not {families}"
                )
            families = COLOURS[:families]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be human, ansi or None, not {render_mode!r}")
        self.reward = check_returns(reward)
        self.render_mode = render_mode
        self.config = GameConfig(families=tuple(families), sets=tuple(sets), **config)
        self.config.check()
        self.registry = registry if registry is not None else Registry()
        pool = card_pool(self.config, self.registry)
        self.actions = ActionSpace(pool, registry=self.registry)
        self.encoding = Encoding(pool)
        self.possible_agents = list(self.config.families)
        vector = spaces.Box(0.0, np.inf, (self.encoding.size,), np.float32)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": vector,
                    "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The engine's game being played (a copy is yours to explore with ``clone()``)."""
        if self._game is None:
            raise RuntimeError("call reset() first")
        return self._game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            deal = seed
        else:
            deal = self._seeds.randrange(2**63)
        self.reset_to(Game.new(self.config, registry=self.registry, seed=deal))

    def reset_to(self, game: Game) -> None:
        """Play on from ``game``, a game of this environment's families and card pool:
        a saved game (``oriflamme.saves.load``), a position, or a determinised deal."""
        if game.families != self.config.families:
            raise ValueError(f"the game's families are {', '.join(game.families)}, not these")
        unknown = set(game.cards) - set(self.actions.cards)
        if unknown:
            raise ValueError(f"cards outside this environment's pool: {', '.join(sorted(unknown))}")
        if game.over:
            raise ValueError("the game is over")
        self._game = game
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._asked()

    def _asked(self) -> str:
        decision = self.game.decision
        assert decision is not None, "a game not over always asks someone"
        return decision.family

    def observe(self, agent: str) -> Observation:
        seen = self.game.observe(agent)
        mask = np.zeros(self.actions.size, dtype=np.int8)
        mask[self.actions.legal(seen)] = 1
        return {
            "observation": self.encoding.array(seen),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if action is None:
            raise ValueError("an agent that is asked must act, not pass None")
        # ActionError (not legal now) leaves the game as it was: the wrapper of
        # env() ends the episode before that, as PettingZoo's classic games do.
        answer = self.actions.decode(game.observe(agent), int(action))
        self._cumulative_rewards[agent] = 0.0
        game.answer(answer, family=agent)
        if game.over:
            self.rewards = returns(self.reward, game.scores, game.winners)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agent
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self._asked()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The terminal's text of the view of the agent to act (or that acted last), its
        legal actions worded as :meth:`~.actions.ActionSpace.describe` words them
        (positions from 1, as the view numbers the queue); printed in human mode."""
        seen = self.game.observe(self.agent_selection)
        lines = [
            f"{self.agent_selection}'s view",
            *view_lines(Words(seen, self.game.rules.definitions)),
        ]
        if seen.over:
            lines.append("Winners: " + ", ".join(seen.winners))
        elif seen.asked:
            actions = self.actions.legal(seen)
            lines.append(
                "Legal actions: " + "; ".join(f"{a} {self.actions.describe(a)}" for a in actions)
            )
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._game = None
