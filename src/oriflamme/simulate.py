"""``oriflamme simulate``: bots play many games; wins per seat and per bot, mean scores.

Game ``i`` is dealt from seed ``S + i``, and its bots draw from the same generator, so
every game is reproducible on its own. Games are shared out among ``--jobs`` processes
(default: every core); the totals are sums over games, so they are the same whatever
the number of processes.

The report names what was played: the sets and cards, every variant with its value
(or "no variants"), and each house-rule plugin in play with its cards. A game has one
winner or a shared win (RULINGS G6): "wins" counts the games won alone, "shared" the
shared wins, and "win %" counts both, as ``oriflamme ladder`` does: an outright win is
one, a win shared by ``k`` families a ``1/k`` share (kept as a fraction, so that the
totals are the same whatever the order the processes hand them back in).

A game that fails (a bot's error, an engine's bug) stops the run with
:class:`GameFailed`, which names the game and its seed: ``--seed SEED --games 1`` with
the same options plays that game alone again.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TextIO

import attrs

from oriflamme import Game, GameConfig, GameRules, OriflammeError, Registry
from oriflamme.text import one_line

from .bots.kinds import QUICK_KINDS, BotChoice, parse_bots
from .bots.play import SHARE_PARTS, Bot
from .bots.play import play_games as bots_play_games
from .choices import describe_cards, game_config
from .pool import share_out

_CHUNK = 250  # games per task handed to a process: small enough for a smooth progress bar
_SEARCH_CHUNK = 2  # the same, when a bot searches
_REASON = 600  # characters of a failed game's reason: the error line has room for the rest

#: The legend under the table: what each column counts (the same words as the ladder's
#: for win %).
LEGEND = (
    "wins: games won alone; shared: wins shared with other families (RULINGS G6); "
    "win %: outright wins plus a share of shared ones (1/k of a win shared by k), "
    "as in oriflamme ladder"
)


class GameFailed(OriflammeError):
    """A game of a run failed: its seed, what went wrong and, once known, the run's
    first seed and number of games (which make its number).

    ``mistake`` tells an error the engine reports (a plugin's bot that fails, a
    configuration a plugin refuses: a mistake in what was asked, as anywhere else)
    from any other exception (a bug). Made from plain values only, so that it crosses
    from a worker process intact."""

    def __init__(
        self,
        seed: int,
        reason: str,
        first: int | None = None,
        games: int | None = None,
        *,
        mistake: bool = False,
    ) -> None:
        super().__init__(seed, reason, first, games)
        self.seed = seed
        self.reason = reason
        self.first = first
        self.games = games
        self.mistake = mistake

    def __reduce__(self) -> tuple[Any, ...]:
        # The keyword is not in args: a worker's copy keeps it this way.
        return (_game_failed, (self.seed, self.reason, self.first, self.games, self.mistake))

    def __str__(self) -> str:
        which = f"the game of seed {self.seed}"
        if self.first is not None and self.games is not None:
            which = f"game {self.seed - self.first + 1} of {self.games} (seed {self.seed})"
        return (
            f"{which} failed: {self.reason}; to play it alone again, run the same command "
            f"with --seed {self.seed} --games 1"
        )


@attrs.define
class Summary:
    """The results of a run of games, per seat (seat 1 is the first family)."""

    families: tuple[str, ...]
    bots: tuple[str, ...]  # the bot in each seat, as chosen (``ismcts:iterations=50``)
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    wins: list[int] = attrs.field(factory=list)  # outright wins
    shared: list[int] = attrs.field(factory=list)  # wins shared with another family
    #: Outright wins plus 1/k of each win shared by k families: what win % counts.
    share: list[Fraction] = attrs.field(factory=list)
    score_total: list[int] = attrs.field(factory=list)

    def __attrs_post_init__(self) -> None:
        seats = len(self.families)
        self.wins = self.wins or [0] * seats
        self.shared = self.shared or [0] * seats
        self.share = self.share or [Fraction(0)] * seats
        self.score_total = self.score_total or [0] * seats

    def merge(self, other: Summary) -> None:
        self.games += other.games
        self.decisions += other.decisions
        for seat in range(len(self.families)):
            self.wins[seat] += other.wins[seat]
            self.shared[seat] += other.shared[seat]
            self.share[seat] += other.share[seat]
            self.score_total[seat] += other.score_total[seat]

    def seats(self) -> list[dict[str, Any]]:
        games = max(self.games, 1)
        return [
            {
                "seat": seat + 1,
                "family": family,
                "bot": self.bots[seat],
                "games": self.games,
                "wins": self.wins[seat],
                "shared_wins": self.shared[seat],
                "win_rate": float(self.share[seat] / games),
                "mean_score": self.score_total[seat] / games,
            }
            for seat, family in enumerate(self.families)
        ]

    def by_bot(self) -> dict[str, dict[str, Any]]:
        """The same totals per bot kind, over every seat that kind played: ``seat_games``
        counts one per game and seat, so rates are per seat played."""
        found: dict[str, dict[str, Any]] = {}
        for seat, kind in enumerate(self.bots):
            row = found.setdefault(
                kind, {"seat_games": 0, "wins": 0, "shared_wins": 0, "share": 0, "score": 0}
            )
            row["seat_games"] += self.games
            row["wins"] += self.wins[seat]
            row["shared_wins"] += self.shared[seat]
            row["share"] += self.share[seat]
            row["score"] += self.score_total[seat]
        for row in found.values():
            games = max(row["seat_games"], 1)
            row["win_rate"] = float(row.pop("share") / games)
            row["mean_score"] = row.pop("score") / games
        return found

    def rates(self) -> dict[str, float]:
        seconds = self.seconds or float("nan")
        return {
            "seconds": self.seconds,
            "games_per_second": self.games / seconds,
            "decisions_per_second": self.decisions / seconds,
        }

    def table(self) -> str:
        width = max(8, *(len(bot) for bot in self.bots))
        lines = [
            f"{'seat':<5} {'family':<8} {'bot':<{width}} {'wins':>7} {'shared':>7} {'win %':>7} "
            f"{'mean score':>11}"
        ]
        for row in self.seats():
            lines.append(
                f"{row['seat']:<5} {row['family']:<8} {row['bot']:<{width}} {row['wins']:>7} "
                f"{row['shared_wins']:>7} {100 * row['win_rate']:>6.1f}% {row['mean_score']:>11.2f}"
            )
        lines.append(LEGEND)
        return "\n".join(lines)


def _game_failed(
    seed: int, reason: str, first: int | None, games: int | None, mistake: bool
) -> GameFailed:
    return GameFailed(seed, reason, first, games, mistake=mistake)


def play_games(
    config: GameConfig,
    seeds: range,
    registry: Registry,
    bots: Sequence[str | BotChoice],
) -> Summary:
    """Play one game per seed in ``seeds``, in this process; ``bots`` are the choices
    of each seat (``"random"``, ``"ismcts:iterations=50"``, or parsed).

    A game that raises (anything but an interruption) is :class:`GameFailed`, naming
    its seed."""
    choices = [
        bot if isinstance(bot, BotChoice) else parse_bots([bot], 1, registry)[0] for bot in bots
    ]
    summary = Summary(config.families, tuple(choice.text for choice in choices))
    finished = 0

    def count(game: Game, decisions: int) -> None:
        nonlocal finished
        finished += 1

    try:
        totals = bots_play_games(config, seeds, registry, makers(choices, registry), on_game=count)
    except Exception as exc:
        # The games are played in seed order: the one that failed follows those done.
        mistake = isinstance(exc, OriflammeError)
        reason = str(exc) if mistake else f"{type(exc).__name__}: {exc}"
        # Cut short, so that the line's end, how to play the game again, is never cut.
        raise GameFailed(seeds[finished], one_line(reason, _REASON), mistake=mistake) from exc
    summary.games = totals.games
    summary.decisions = totals.decisions
    summary.wins = totals.wins
    summary.shared = totals.shared
    summary.share = [
        wins + Fraction(parts, SHARE_PARTS)
        for wins, parts in zip(totals.wins, totals.share_parts, strict=True)
    ]
    summary.score_total = totals.scores
    return summary


def makers(
    choices: Sequence[BotChoice], registry: Registry
) -> list[Callable[[random.Random], Bot]]:
    """For each seat's choice, what makes its bot from a game's generator (as
    :func:`oriflamme.bots.play_games` takes them)."""
    return [choice.maker(registry) for choice in choices]


def chunk_size(bots: Sequence[BotChoice]) -> int:
    """Games per task: fewer when a bot searches (a game then takes seconds, not
    milliseconds), so that the processes share the work evenly and the bar moves."""
    return _CHUNK if all(bot.kind.name in QUICK_KINDS for bot in bots) else _SEARCH_CHUNK


def simulate(
    config: GameConfig,
    games: int,
    registry: Registry,
    *,
    jobs: int = 1,
    bots: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games; game ``i`` is dealt from ``config.seed + i``.

    ``jobs`` processes share the games out (1: this process); the totals do not
    depend on it. ``bots`` chooses the bot of each seat, or one for all (default:
    random), as ``--bots`` does.
    """
    kinds = parse_bots(tuple(bots) or ("random",), len(config.families), registry)
    summary = Summary(config.families, tuple(kind.text for kind in kinds))
    start = time.perf_counter()

    def play(seeds: range) -> Summary:
        return play_games(config, seeds, registry, kinds)

    try:
        share_out(
            play,
            summary.merge,
            config.seed,
            games,
            size=chunk_size(kinds),
            jobs=jobs,
            progress=progress,
        )
    except GameFailed as failed:
        raise GameFailed(
            failed.seed, failed.reason, config.seed, games, mistake=failed.mistake
        ) from failed
    summary.seconds = time.perf_counter() - start
    return summary


def progress_bar(total: int, stream: TextIO) -> Callable[[int], None]:
    step = max(1, total // 100)
    shown = [0]

    def show(done: int) -> None:
        if done - shown[0] < step and done != total:
            return
        shown[0] = done
        filled = 30 * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show


def simulate_command(
    args: argparse.Namespace, registry: Registry, out: TextIO | None = None
) -> int:
    out = out if out is not None else sys.stdout
    config = game_config(args, registry, args.seed)
    # One game up front, so that a bad choice fails before any is played.
    first = Game.new(config, registry=registry, record=False)
    kinds = tuple(args.bots)
    parse_bots(kinds, len(config.families), registry)  # a bad choice fails before any game
    terminal = sys.stderr is not None and sys.stderr.isatty()
    show = args.progress == "always" or (args.progress == "auto" and terminal)
    progress = progress_bar(args.games, sys.stderr) if show else None
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    try:
        summary = simulate(config, args.games, registry, jobs=jobs, bots=kinds, progress=progress)
    except GameFailed:
        if progress is not None:
            sys.stderr.write("\n")  # the error goes on a line of its own, below the bar
        raise
    variants = dict(first.rules.variants)
    house = house_rules(first.rules, registry)
    if args.json:
        print(
            json.dumps(
                {
                    "games": summary.games,
                    "families": list(config.families),
                    "sets": list(config.sets),
                    "cards": card_keys(config, first.cards),
                    "size": drawn_size(config),
                    "variants": variants,
                    "house_rules": house,
                    "seeds": [args.seed, args.seed + args.games - 1],
                    "jobs": jobs,
                    "seats": summary.seats(),
                    "bots": summary.by_bot(),
                    "decisions": summary.decisions,
                    "rates": summary.rates(),
                },
                indent=1,
            ),
            file=out,
        )
        return 0
    rates = summary.rates()
    print(
        f"{summary.games} games, {len(config.families)} families, sets "
        f"{','.join(config.sets)}, seeds {args.seed} to {args.seed + args.games - 1}, "
        f"{jobs} process{'es' * (jobs != 1)}",
        file=out,
    )
    print(describe_cards(config, first.cards), file=out)
    chosen = ", ".join(f"{k}={_text(v)}" for k, v in variants.items())
    print(f"variants: {chosen}" if chosen else "no variants", file=out)
    for plugin in house:
        print(_house_text(plugin), file=out)
    print(summary.table(), file=out)
    print(
        f"{summary.seconds:.2f} s: {rates['games_per_second']:,.0f} games/s, "
        f"{rates['decisions_per_second']:,.0f} decisions/s",
        file=out,
    )
    return 0


def drawn_size(config: GameConfig) -> int | None:
    """How many card types each game draws for itself, or None if every game has the
    same card list (``--cards``, or one set whole): as :func:`describe_cards` tells it."""
    if config.cards is None and (len(config.sets) > 1 or config.size is not None):
        return config.size or 10
    return None


def card_keys(config: GameConfig, cards: Sequence[str]) -> list[str] | None:
    """The card keys every game is dealt from (``cards``, the first game's), or None when
    each game draws its own (:func:`drawn_size` says how many)."""
    return None if drawn_size(config) is not None else list(cards)


def house_rules(rules: GameRules, registry: Registry) -> list[dict[str, Any]]:
    """The plugins in play that do not ship with oriflamme, each with the cards it adds
    and those whose ability it replaces (among the cards the games may deal)."""
    builtin = {info.name for info in registry.plugins if info.builtin}
    sets = registry.sets
    found = []
    for name, distribution, version in rules.plugins:
        if name in builtin:
            continue
        cards = [key for key, card in rules.definitions.items() if sets[card.set].plugin == name]
        changed = sorted(key for key, plugin in rules.ability_plugins.items() if plugin == name)
        found.append(
            {
                "plugin": name,
                "distribution": distribution,
                "version": version,
                "cards": cards,
                "abilities_replaced": [key for key in changed if key not in cards],
            }
        )
    return found


def _house_text(plugin: dict[str, Any]) -> str:
    cards = plugin["cards"]
    parts = ["cards: " + ", ".join(cards) if cards else "no cards of its own"]
    if plugin["abilities_replaced"]:
        parts.append("abilities replaced: " + ", ".join(plugin["abilities_replaced"]))
    package = f"{plugin['distribution']} {plugin['version']}".strip()
    where = f"{plugin['plugin']} ({package})" if package else plugin["plugin"]
    return f"house rules: {where}: {'; '.join(parts)}"


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
