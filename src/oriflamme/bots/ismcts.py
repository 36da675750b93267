"""The ISMCTS bot: information-set Monte Carlo tree search over determinised games.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012), as OpenSpiel's
``ismcts.py`` does it: one tree, grown from the bot's own observation only. Each
iteration deals the cards the bot cannot see at random, consistently with what it has
seen (:meth:`Game.determinise <oriflamme.Game.determinise>`), walks down the tree by
UCB among the answers that deal allows (each child counts how often it was available,
so rarely possible answers are not starved), adds one node, plays the game out with
the playout policy, and credits every family's result to the answers it chose.

An opponent's placement is known to the bot only by where the card went: the tree
holds one edge per spot (partially observable moves), and which of its cards goes
there is the playout policy's choice. Every other answer is an edge of its own.

Everything flows from the bot's generator: with an iteration budget, the same
observation and the same generator give the same answer, whatever the hidden cards
really are.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable

from oriflamme import Answer, Decision, Game, Observation, Placements, Registry

from .heuristic import HeuristicBot
from .learned import LearnedBot
from .play import pending

PLAYOUTS = ("heuristic", "learned", "random")
#: The iterations a decision gets by default: under a second on a 2-core laptop.
ITERATIONS = 300
#: UCB's exploration constant, for rewards between 0 and 1.
EXPLORATION = 0.7


class Node:
    """What the search knows of one answer from one information set."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0


class IsmctsBot:
    """Searches the game tree from its own observation (see the module's text).

    ``iterations`` determinised games per decision (None: no bound), or as many as
    ``seconds`` allow (None: no time bound; a time budget makes the answer depend on
    the machine's speed, so it is not reproducible). ``playout`` is how games are played
    out past the tree: ``heuristic`` (the heuristic bot for every family), ``learned``
    (the learned bot for every family, :mod:`oriflamme.bots.learned`) or ``random``.
    ``exploration`` is UCB's constant. ``registry`` gives the rules of the determinised
    games: the one the game was made with.
    """

    def __init__(
        self,
        seed: int | random.Random | None = None,
        *,
        registry: Registry,
        iterations: int | None = ITERATIONS,
        seconds: float | None = None,
        playout: str = "heuristic",
        exploration: float = EXPLORATION,
    ) -> None:
        if playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, not {playout!r}")
        if iterations is None and seconds is None:
            raise ValueError("give the search a budget: iterations, seconds or both")
        self._rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.registry = registry
        self.iterations = iterations
        self.seconds = seconds
        self.playout = playout
        self.exploration = exploration
        #: Iterations the last decision ran.
        self.last_iterations = 0

    def choose(self, observation: Observation) -> Answer:
        decision = pending(observation)
        options = decision.options
        if len(options) == 1:
            return options[0]
        # One draw from the bot's generator per decision: the search's own generator
        # is seeded from it, so the bot's stream does not depend on the search's length.
        search = _Search(self, observation.family or "", random.Random(self._rng.getrandbits(64)))
        root = search.run(observation)
        self.last_iterations = search.done
        keys = [search.edge(decision, option) for option in options]
        best = 0
        best_visits = -1
        best_mean = -1.0
        for number, key in enumerate(keys):
            child = root.children.get(key)
            if child is None:
                continue
            mean = child.reward / child.visits if child.visits else 0.0
            if child.visits > best_visits or (child.visits == best_visits and mean > best_mean):
                best, best_visits, best_mean = number, child.visits, mean
        return options[best]


class _Search:
    """One decision's search."""

    def __init__(self, bot: IsmctsBot, me: str, rng: random.Random) -> None:
        self.bot = bot
        self.me = me
        self.rng = rng
        self.random = rng.random
        self.policy: HeuristicBot | LearnedBot | None = (
            HeuristicBot(rng)
            if bot.playout == "heuristic"
            else LearnedBot(rng)
            if bot.playout == "learned"
            else None
        )
        self.done = 0

    def run(self, observation: Observation) -> Node:
        bot = self.bot
        root = Node()
        limit = bot.iterations
        deadline = time.perf_counter() + bot.seconds if bot.seconds is not None else math.inf
        registry = bot.registry
        while limit is None or self.done < limit:
            if self.done and time.perf_counter() >= deadline:
                break
            game = Game.determinise(
                observation, self.rng.getrandbits(62), registry=registry, record=False
            )
            self.iterate(root, game)
            self.done += 1
        return root

    def edge(self, decision: Decision, option: Answer) -> Hashable:
        """The tree's name for ``option``: an opponent's placement by its spot only."""
        if decision.kind == "place" and decision.family != self.me:
            return (decision.family, "place", None, option[1] if isinstance(option, tuple) else 0)
        return (decision.family, decision.kind, decision.card, option)

    def iterate(self, root: Node, game: Game) -> None:
        node = root
        path: list[tuple[Node, str]] = []
        exploration = self.bot.exploration
        decision = game.decision
        while decision is not None:
            family = decision.family
            groups = self.groups(decision)
            children = node.children
            untried = [key for key in groups if key not in children]
            if untried:
                key = untried[int(self.random() * len(untried))]
                child = Node()
                children[key] = child
            else:
                key = None
                child = node
                best = -math.inf
                for each in groups:
                    candidate = children[each]
                    score = candidate.reward / candidate.visits + exploration * math.sqrt(
                        math.log(candidate.available + 1) / candidate.visits
                    )
                    if score > best:
                        best, key, child = score, each, candidate
            for each in groups:
                found = children.get(each)
                if found is not None:
                    found.available += 1
            assert key is not None
            self.answer(game, decision, groups[key])
            path.append((child, family))
            node = child
            decision = game.decision
            if untried:
                break
        self.play_out(game)
        rewards = self.rewards(game)
        for visited, family in path:
            visited.visits += 1
            visited.reward += rewards[family]

    def groups(self, decision: Decision) -> dict[Hashable, list[int]]:
        """The option numbers behind each edge of ``decision``."""
        options = decision.options
        found: dict[Hashable, list[int]] = {}
        if (
            decision.kind == "place"
            and decision.family != self.me
            and isinstance(options, Placements)
        ):
            width = len(options.ats)
            for spot, at in enumerate(options.ats):
                found[(decision.family, "place", None, at)] = list(range(spot, len(options), width))
            return found
        for number, option in enumerate(options):
            key = (decision.family, decision.kind, decision.card, option)
            found.setdefault(key, []).append(number)
        return found

    def answer(self, game: Game, decision: Decision, numbers: list[int]) -> None:
        """Answer with one of ``numbers``: the playout policy picks among several."""
        if len(numbers) == 1:
            game.answer_option(numbers[0])
            return
        policy = self.policy
        if policy is None:
            game.answer_option(numbers[int(self.random() * len(numbers))])
            return
        scores = policy.scores(game.observe(decision.family))
        top = max(scores[n] for n in numbers)
        best = [n for n in numbers if scores[n] >= top - 1e-9]
        game.answer_option(best[int(self.random() * len(best))])

    def play_out(self, game: Game) -> None:
        policy = self.policy
        decision = game.decision
        if policy is None:
            random_ = self.random
            while decision is not None:
                game.answer_option(int(random_() * len(decision.options)))
                decision = game.decision
            return
        while decision is not None:
            game.answer(policy.choose(game.observe(decision.family)))
            decision = game.decision

    @staticmethod
    def rewards(game: Game) -> dict[str, float]:
        """1 for an outright win, a share of it for a shared win (RULINGS G6), else 0."""
        winners = game.winners
        share = 1.0 / len(winners)
        return {family: share if family in winners else 0.0 for family in game.families}
