"""``oriflamme ladder``: bots against bots, seats rotated, on every core; win rates with
95% confidence intervals and Elo ratings (see :mod:`.rating`).

A match puts one bot (the challenger) against another in every other seat: with 3
families, ``heuristic`` against two ``random`` bots, whose fair share of wins is a
third. ``rungs`` plays each bot against the one listed before it; ``pairs`` every
ordered pair. Game ``i`` of every match is dealt from seed ``S + i`` (the same deals
for every match) with the challenger in seat ``i mod families``; the bots then draw
from the game's generator, as in ``oriflamme simulate``, so each game replays on its
own, and the results are the same whatever the number of processes (the times apart).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TextIO

import attrs

from oriflamme import ConfigError, Game, GameConfig, Registry

from ..choices import describe_cards, game_config
from ..simulate import progress_bar
from .kinds import QUICK_KINDS, BotChoice, parse_bot
from .rating import BOOTSTRAP_ROUNDS, BOOTSTRAP_SEED, Games, elo, elo_intervals, wilson

#: Games per task handed to a process, for bots that answer at once and for others.
QUICK_TASK, SEARCH_TASK = 100, 1


@attrs.frozen
class Match:
    """One bot alone against another in every other seat."""

    challenger: BotChoice
    field: BotChoice

    @property
    def name(self) -> str:
        return f"{self.challenger.text} vs {self.field.text}"


def matches(bots: Sequence[BotChoice], kind: str) -> list[Match]:
    """``rungs``: each bot against the one before it; ``pairs``: every ordered pair."""
    if kind == "rungs":
        return [Match(bots[i], bots[i - 1]) for i in range(1, len(bots))]
    return [Match(a, b) for a in bots for b in bots if a.text != b.text]


@attrs.define
class Result:
    """What a match's games add up to: the challenger's wins (outright, and shared ones
    as counts and as shares), and each bot's decisions and time spent on them."""

    games: int = 0
    wins: int = 0
    shared: int = 0
    share: float = 0.0  # outright wins plus the challenger's share of shared ones
    field_share: float = 0.0
    # How the games ended, for the ratings' bootstrap: (number of winners, whether the
    # challenger was one of them) -> games.
    endings: dict[tuple[int, bool], int] = attrs.field(factory=dict)
    decisions: dict[str, int] = attrs.field(factory=dict)
    seconds: dict[str, float] = attrs.field(factory=dict)
    slowest: dict[str, float] = attrs.field(factory=dict)

    def merge(self, other: Result) -> None:
        self.games += other.games
        self.wins += other.wins
        self.shared += other.shared
        self.share += other.share
        self.field_share += other.field_share
        for ending, count in other.endings.items():
            self.endings[ending] = self.endings.get(ending, 0) + count
        for bot, count in other.decisions.items():
            self.decisions[bot] = self.decisions.get(bot, 0) + count
            self.seconds[bot] = self.seconds.get(bot, 0.0) + other.seconds[bot]
            self.slowest[bot] = max(self.slowest.get(bot, 0.0), other.slowest[bot])


def play_match(config: GameConfig, registry: Registry, match: Match, games: range) -> Result:
    """Play game ``i`` of ``match`` for each ``i`` in ``games``, in this process."""
    result = Result()
    families = config.families
    seats = len(families)
    for i in games:
        seed = config.seed + i
        rng = random.Random(seed)
        game = Game.new(config, registry=registry, record=False, seed=seed, rng=rng)
        challenger = families[i % seats]
        choices = {f: match.challenger if f == challenger else match.field for f in families}
        bots = {f: choices[f].make(rng, registry) for f in families}
        decision = game.decision
        while decision is not None:
            family = decision.family
            start = time.perf_counter()
            answer = bots[family].choose(game.observe(family))
            spent = time.perf_counter() - start
            name = choices[family].text
            result.decisions[name] = result.decisions.get(name, 0) + 1
            result.seconds[name] = result.seconds.get(name, 0.0) + spent
            result.slowest[name] = max(result.slowest.get(name, 0.0), spent)
            game.answer(answer)
            decision = game.decision
        winners = game.winners
        result.games += 1
        if challenger in winners:
            result.share += 1 / len(winners)
            if len(winners) == 1:
                result.wins += 1
            else:
                result.shared += 1
        result.field_share += sum(1 / len(winners) for f in winners if f != challenger)
        ending = (len(winners), challenger in winners)
        result.endings[ending] = result.endings.get(ending, 0) + 1
    return result


# What a worker process plays with: set in the parent before the pool forks.
_JOB: tuple[GameConfig, Registry, list[Match]] | None = None


def _play_task(task: tuple[int, range]) -> tuple[int, Result]:
    assert _JOB is not None
    config, registry, found = _JOB
    number, games = task
    return number, play_match(config, registry, found[number], games)


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _tasks(found: list[Match], games: int) -> Iterator[tuple[int, range]]:
    for number, match in enumerate(found):
        quick = {match.challenger.kind.name, match.field.kind.name} <= QUICK_KINDS
        size = QUICK_TASK if quick else SEARCH_TASK
        for start in range(0, games, size):
            yield number, range(start, min(start + size, games))


def run_ladder(
    config: GameConfig,
    registry: Registry,
    found: list[Match],
    games: int,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[Result]:
    """Play ``games`` games of every match; ``jobs`` processes share them out."""
    global _JOB  # noqa: PLW0603 - handed to the forked workers
    results = [Result() for _ in found]
    tasks = list(_tasks(found, games))
    done = 0
    if jobs <= 1 or len(tasks) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for number, part in tasks:
            results[number].merge(play_match(config, registry, found[number], part))
            done += len(part)
            if progress is not None:
                progress(done)
        return results
    _JOB = (config, registry, found)
    try:
        context = multiprocessing.get_context("fork")
        workers = min(jobs, len(tasks))
        with ProcessPoolExecutor(workers, context, initializer=_ignore_interrupts) as pool:
            futures = [pool.submit(_play_task, task) for task in tasks]
            try:
                for future in as_completed(futures):
                    number, result = future.result()
                    results[number].merge(result)
                    done += result.games
                    if progress is not None:
                        progress(done)
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        _JOB = None
    return results


def summary(
    found: list[Match], results: list[Result], families: int, anchor: str
) -> dict[str, Any]:
    """The ladder as plain data: each match's win rate and interval, each bot's Elo
    rating and time per decision."""
    tallies = []
    rows = []
    decisions: dict[str, int] = {}
    seconds: dict[str, float] = {}
    slowest: dict[str, float] = {}
    for match, result in zip(found, results, strict=True):
        challenger, field = match.challenger.text, match.field.text
        tallies.append(Games({challenger: 1, field: families - 1}, _results(result, match)))
        low, high = wilson(result.share, result.games)
        rows.append(
            {
                "challenger": challenger,
                "field": field,
                "games": result.games,
                "wins": result.wins,
                "shared_wins": result.shared,
                "win_rate": result.share / max(result.games, 1),
                "ci95": [low, high],
                "fair_share": 1 / families,
            }
        )
        for bot, count in result.decisions.items():
            decisions[bot] = decisions.get(bot, 0) + count
            seconds[bot] = seconds.get(bot, 0.0) + result.seconds[bot]
            slowest[bot] = max(slowest.get(bot, 0.0), result.slowest[bot])
    ratings = elo([table.tally() for table in tallies], anchor)
    intervals = elo_intervals(tallies, anchor)
    bots = [
        {
            "bot": bot,
            "elo": ratings[bot],
            "elo_ci95": list(intervals[bot]),
            "decisions": decisions.get(bot, 0),
            "seconds_per_decision": seconds.get(bot, 0.0) / max(decisions.get(bot, 0), 1),
            "slowest_decision": slowest.get(bot, 0.0),
        }
        for bot in sorted(ratings, key=lambda b: ratings[b])
    ]
    return {"matches": rows, "bots": bots, "anchor": anchor}


def _results(result: Result, match: Match) -> list[tuple[dict[str, float], int]]:
    """Each way a match's games ended, as each bot's wins in such a game, and how many
    games ended so."""
    challenger, field = match.challenger.text, match.field.text
    found = []
    for (winners, won), count in sorted(result.endings.items()):
        share = 1 / winners if won else 0.0
        found.append(({challenger: share, field: 1 - share}, count))
    return found


def table(data: dict[str, Any]) -> str:
    """The ladder as text: the matches, then the bots."""
    name = max([len(f"{r['challenger']} vs N x {r['field']}") for r in data["matches"]] + [5])
    lines = [
        f"{'match':<{name}} {'games':>6} {'wins':>6} {'shared':>6} {'win %':>6}  "
        f"{'95% CI':<15} {'fair':>5}"
    ]
    for row in data["matches"]:
        low, high = row["ci95"]
        label = f"{row['challenger']} vs {round(1 / row['fair_share']) - 1} x {row['field']}"
        lines.append(
            f"{label:<{name}} {row['games']:>6} {row['wins']:>6} {row['shared_wins']:>6} "
            f"{100 * row['win_rate']:>5.1f}%  [{100 * low:4.1f}%, {100 * high:4.1f}%]  "
            f"{100 * row['fair_share']:>4.1f}%"
        )
    width = max([len(b["bot"]) for b in data["bots"]] + [3])
    lines.append("")
    lines.append(
        f"{'bot':<{width}} {'Elo':>6}  {'95% CI':<13} {'decisions':>10} {'s/decision':>11} "
        f"{'slowest':>8}"
    )
    for bot in data["bots"]:
        low, high = bot["elo_ci95"]
        interval = f"[{low:+.0f}, {high:+.0f}]"
        lines.append(
            f"{bot['bot']:<{width}} {bot['elo']:>+6.0f}  {interval:<13} {bot['decisions']:>10} "
            f"{bot['seconds_per_decision']:>11.4f} {bot['slowest_decision']:>8.3f}"
        )
    lines.append(
        "win %: outright wins plus a share of shared ones (RULINGS G6); Elo: the Luce model "
        f"fitted to every game, {data['anchor']} at 0, 400 points = odds of 10 to 1; its "
        f"95% CI: {BOOTSTRAP_ROUNDS} draws of the games with replacement (seed "
        f"{BOOTSTRAP_SEED}), refitted"
    )
    return "\n".join(lines)


def ladder_command(args: argparse.Namespace, registry: Registry, out: TextIO | None = None) -> int:
    out = out if out is not None else sys.stdout
    config = game_config(args, registry, args.seed)
    first = Game.new(config, registry=registry, record=False)  # a bad choice fails here
    choices = [parse_bot(text, registry) for text in args.bots]
    if len({choice.text for choice in choices}) < 2:
        raise ConfigError("--bots names the bots of a ladder: at least 2 different ones")
    found = matches(choices, args.matches)
    plot = None
    if args.plot is not None:
        from .plot import check_plot  # noqa: PLC0415 - matplotlib is an optional extra

        plot = check_plot(args.plot)
    total = len(found) * args.games
    terminal = sys.stderr is not None and sys.stderr.isatty()
    show = args.progress == "always" or (args.progress == "auto" and terminal)
    progress = progress_bar(total, sys.stderr) if show else None
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    start = time.perf_counter()
    results = run_ladder(config, registry, found, args.games, jobs=jobs, progress=progress)
    seconds = time.perf_counter() - start
    data = summary(found, results, len(config.families), choices[0].text)
    heading = (
        f"ladder: {len(config.families)} families, sets {','.join(config.sets)}, "
        f"{args.games} games a match (seeds {args.seed} to {args.seed + args.games - 1}), "
        f"seats rotated, {jobs} process{'es' * (jobs != 1)}, {seconds:.0f} s"
    )
    data["heading"] = heading
    data["cards"] = describe_cards(config, first.cards)
    data["variants"] = dict(first.rules.variants)
    if plot is not None:
        plot(data, args.plot)
    if args.json:
        print(json.dumps(data, indent=1), file=out)
        return 0
    print(heading, file=out)
    print(data["cards"], file=out)
    print(table(data), file=out)
    if args.plot is not None:
        print(f"plot: {args.plot}", file=out)
    return 0
