"""The command line's options: what each command takes, each value parsed strictly and
bounded (see :mod:`oriflamme.cli` for the bounds and the exit statuses)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any, NoReturn

from oriflamme.limits import MAX_FAMILIES, MAX_SEED, MIN_FAMILIES
from oriflamme.text import one_line, quote

from .bots.levels import DEFAULT_LEVEL, LEVELS, levels
from .conformance.compare import GAMES
from .conformance.export import add_export
from .installed import version_line
from .perft import MAX_DEPTH
from .web.serve import add_serve

#: Games one ``simulate`` may play (hours of work on one core: a bound, not a goal).
MAX_GAMES = 10_000_000
#: Processes ``simulate --jobs`` may start.
MAX_JOBS = 1024
#: Card types ``--size`` may ask for (no installed sets come near it).
MAX_SIZE = 1000
#: Digits a number may have (MAX_SEED has 19).
MAX_DIGITS = 20
#: Characters in one text value.
MAX_TEXT = 1000
#: Characters in one error line.
MAX_MESSAGE = 1000

# ASCII digits only: int() would also take "٣", "3_000" or " 3 ", none of which a
# person means as a number here.
_NUMBER = re.compile(r"[+-]?[0-9]+")

EXIT_FAILED, EXIT_MISTAKE, EXIT_INTERRUPTED, EXIT_PIPE = 1, 2, 130, 141

#: ``--families`` when left out, the same for every command that takes it (``play``,
#: ``simulate``, ``study``, ``ladder``), so that a game played by hand and the games
#: measured by bots are alike unless asked otherwise: three, the smallest game the
#: rules allow and the quickest, as the OpenSpiel game's default and the published
#: ladders (whose fair share of wins, a third, they assume).
FAMILIES = 3
#: ``play``'s ``--families`` and ``--sets`` when left out. The parsed options hold
#: None for them, so that ``--load`` can tell an option given from one left out.
PLAY_FAMILIES, PLAY_SETS = FAMILIES, ("base",)


def _number(text: str, low: int, high: int) -> int:
    written = text.strip()
    if not _NUMBER.fullmatch(written):
        raise argparse.ArgumentTypeError(f"not a whole number in digits 0-9: {quote(text)}")
    digits = written.lstrip("+-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        sign = "-" if written.startswith("-") else ""
        raise argparse.ArgumentTypeError(
            f"must be {low} to {high}, not a {sign}{len(digits)}-digit number"
        )
    value = int(written)
    if value < low:
        raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
    if value > high:
        raise argparse.ArgumentTypeError(f"must be at most {high}, not {value}")
    return value


def _bounded(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        return _number(text, low, high)

    return parse


def _families(text: str) -> int:
    try:
        return _number(text, MIN_FAMILIES, MAX_FAMILIES)
    except argparse.ArgumentTypeError:
        written = text.strip()
        if _NUMBER.fullmatch(written) and len(written) <= MAX_DIGITS:
            raise argparse.ArgumentTypeError(
                f"a game has {MIN_FAMILIES} to {MAX_FAMILIES} families, not {int(written)}"
            ) from None
        raise


def _text(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_TEXT} characters, not {len(text)}: {quote(text)}"
        )
    return text


def _sets(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in _text(text).split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one card set, e.g. base")
    return names


def _bots(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in _text(text).split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot, a level or a kind, e.g. medium")
    return names


def _variant(text: str) -> tuple[str, str]:
    name, sep, value = _text(text).partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {quote(text)}")
    return name.strip(), value.strip()


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--families",
        type=_families,
        default=FAMILIES,
        help=f"number of families, {MIN_FAMILIES} to {MAX_FAMILIES} (default {FAMILIES}, "
        "as in every command)",
    )
    parser.add_argument(
        "--sets", type=_sets, default=("base",), help="card sets, comma-separated (default base)"
    )
    parser.add_argument(
        "--size",
        type=_bounded(1, MAX_SIZE),
        default=None,
        help=f"with several sets: how many card types to draw, at most {MAX_SIZE} (default 10)",
    )
    parser.add_argument(
        "--cards",
        type=_sets,
        default=None,
        metavar="KEY,KEY,...",
        help="an explicit card list instead of --sets, e.g. archer,queen,trap,...",
    )
    parser.add_argument(
        "--variant",
        type=_variant,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rules variant, e.g. ambush_own_elimination=revised (repeatable)",
    )
    _add_plugin_options(parser)


def _add_plugin_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-plugins", action="store_true", help="leave installed third-party plugins out"
    )
    parser.add_argument(
        "--without",
        type=_text,
        action="append",
        default=[],
        metavar="PLUGIN",
        help="leave this plugin out (repeatable); `oriflamme plugins` lists them",
    )


def _seed_help(default: str) -> str:
    return f"{default}; 0 to {MAX_SEED}"


class _Parser(argparse.ArgumentParser):
    """Reports a bad option in one line (and where to find help), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(
            EXIT_MISTAKE,
            f"{self.prog}: error: {one_line(message, MAX_MESSAGE)} (see {self.prog} --help)\n",
        )


class _Version(argparse.Action):
    """``--version``: the version and whether this install runs compiled, found out only
    when asked (it imports the hot modules)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help=kwargs.get("help"))

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(version_line())
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="oriflamme", description="A rules engine for the card game Oriflamme.")
    parser.add_argument(
        "--version",
        action=_Version,
        help="print the version and whether this install is compiled or pure Python, and exit",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    play = commands.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play a game in the terminal against bots. At any question, c lists "
        "the cards of the game with their texts; q leaves.",
    )
    _add_game_options(play)
    play.set_defaults(families=None, sets=None)  # PLAY_FAMILIES and PLAY_SETS, unless --load
    play.add_argument(
        "--seat",
        type=_bounded(1, MAX_FAMILIES),
        default=1,
        help=f"your seat, 1 = the first family, 1 to {MAX_FAMILIES} (default 1)",
    )
    play.add_argument(
        "--seed",
        type=_bounded(0, MAX_SEED),
        default=None,
        help=_seed_help("seed for the deal and the bots (default: random)"),
    )
    named = ", ".join(level.name for level in LEVELS)
    play.add_argument(
        "--bots",
        type=_bots,
        default=(DEFAULT_LEVEL,),
        metavar="LEVEL[,LEVEL...]",
        help=f"the bots you play against: a level, weakest first {named} (default "
        f"{DEFAULT_LEVEL}: {levels()[DEFAULT_LEVEL].choice}, which plays as a person might, "
        "where simulate's default, random, only moves fast), or a bot kind with settings "
        "as KIND:NAME=VALUE; one for every other seat, or one per other seat in seat order "
        "(`oriflamme bots` lists the levels and kinds). Each bot answer is drawn from the "
        "game's seed, the bot's seat and the number of events so far, so a game continued "
        "with --load plays on as it would have",
    )
    play.add_argument(
        "--language",
        type=_text,
        default="en",
        metavar="CODE",
        help="the cards' names and texts in this language: en (default) or a code the card "
        "data gives, fr or pl for the base and Ablaze cards (a card with no text in it "
        "shows its English one)",
    )
    play.add_argument(
        "--save",
        type=_text,
        default=None,
        metavar="FILE",
        help="write the game to FILE after every answer (yours and the bots'), whole or "
        "not at all; --load FILE continues it (it may be the same file). A file that "
        "exists is written over only when it is the game --load continues",
    )
    play.add_argument(
        "--load",
        type=_text,
        default=None,
        metavar="FILE",
        help="continue the game saved in FILE, its bots playing on from its own seed. "
        "It keeps the families, cards, variants and seed it was set up with: "
        "--families, --sets, --size, --cards, --variant or --seed that say otherwise "
        "are refused; --seat and --bots choose as for a new game",
    )

    simulate = commands.add_parser(
        "simulate",
        help="bots play many games; print the results",
        description="Bots play many games; print the wins, shared wins, win % and mean "
        "score of each seat and each bot. The bots are random unless --bots names others: "
        "the fastest (thousands of games a second, for measuring the engine and the rules' "
        "chance), where play's default, heuristic, plays as a person might.",
    )
    _add_game_options(simulate)
    _add_run_options(
        simulate,
        simulate,
        why="random: the fastest, for many games; heuristic, play's default, plays better",
    )
    simulate.add_argument(
        "--json", action="store_true", help="print the summary as JSON instead of text"
    )
    _add_study(commands)

    _add_ladder(commands)
    add_serve(commands)
    _add_perft(commands)

    conformance = commands.add_parser("conformance", help="run conformance scenarios")
    conformance.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="scenario files or folders of *.yaml files (finding none is an error); "
        "none: the whole suite this install carries",
    )
    conformance.add_argument(
        "--subset",
        action="append",
        type=_text,
        default=None,
        metavar="NAME",
        help="only this part of the installed suite, a folder of its tests/conformance "
        "(base, ablaze, mixed, format, placement); may be repeated; no PATH then",
    )
    add_export(conformance)
    _add_compare(conformance)
    _add_plugin_options(conformance)
    conformance.add_argument(
        "-q", "--quiet", action="store_true", help="print only failures and the closing line"
    )
    conformance.add_argument(
        "--engine",
        type=_text,
        default=None,
        metavar="CMD",
        help="run the scenarios against this command, an engine that speaks "
        "docs/engine-protocol.md (e.g. 'oriflamme engine'), not in this process",
    )

    engine = commands.add_parser(
        "engine", help="speak the engine protocol (docs/engine-protocol.md) on stdin and stdout"
    )
    _add_plugin_options(engine)

    cards = commands.add_parser("cards", help="list the cards of the installed sets")
    cards.add_argument("--sets", type=_sets, default=None, help="only these sets")
    cards.add_argument(
        "--language",
        choices=("en", "fr", "pl"),
        default="en",
        help="card names and texts in this language (default en; a text the card data "
        "lacks in it is shown in English)",
    )
    _add_plugin_options(cards)

    plugins = commands.add_parser(
        "plugins", help="list the plugins in play: sets, cards, variants, hooks"
    )
    plugins.add_argument("--json", action="store_true", help="print JSON instead of text")
    _add_plugin_options(plugins)

    bots = commands.add_parser("bots", help="list the bot kinds and their settings")
    bots.add_argument("--json", action="store_true", help="print JSON instead of text")
    _add_plugin_options(bots)
    return parser


def _add_run_options(
    parser: argparse.ArgumentParser,
    jobs: argparse._ActionsContainer,
    *,
    why: str,
    bots: str = "random",
) -> None:
    """The options of a run of many games: ``--games``, ``--seed``, ``--progress``,
    ``--jobs`` (added to ``jobs``: the parser, or a group of options that exclude each
    other) and ``--bots`` (default ``bots``, for the reason ``why`` gives in the help),
    as ``simulate`` takes them."""
    parser.add_argument(
        "--games",
        type=_bounded(1, MAX_GAMES),
        default=100,
        help=f"number of games, 1 to {MAX_GAMES} (default 100)",
    )
    parser.add_argument(
        "--seed",
        type=_bounded(0, MAX_SEED),
        default=0,
        help=_seed_help("seed of the first game (default 0); game i has seed SEED+i"),
    )
    _add_progress(parser)
    jobs.add_argument(
        "--jobs",
        type=_bounded(1, MAX_JOBS),
        default=None,
        help=f"processes to play in, 1 to {MAX_JOBS} (default: every core); "
        "the totals do not depend on it",
    )
    parser.add_argument(
        "--bots",
        type=_bots,
        default=(bots,),
        metavar="KIND[,KIND...]",
        help="the bot of each seat, or one for every seat, with settings as "
        f"KIND:NAME=VALUE, e.g. ismcts:iterations=2000 (default {why})",
    )


def _add_study(commands: argparse._SubParsersAction[Any]) -> None:
    study = commands.add_parser(
        "study",
        help="balance study: bots play many games; per card and per seat win rates, "
        "Influence, eliminations, as CSV, JSON, PNG plots and a Markdown summary",
    )
    _add_game_options(study)
    where = study.add_mutually_exclusive_group()
    _add_run_options(
        study,
        where,
        bots="heuristic",
        why="heuristic: a card's strength shows in good play, random play would mostly "
        "measure luck",
    )
    where.add_argument(
        "--ray",
        type=_text,
        default=None,
        metavar="ADDRESS",
        help="play on a Ray cluster instead: its address, auto (the cluster this machine "
        "is part of) or local (start one here, on every core); needs oriflamme[study]",
    )
    study.add_argument(
        "--out",
        type=_text,
        required=True,
        metavar="DIR",
        help="the folder to write the tables, plots and summary into (made if missing)",
    )


def _add_ladder(commands: argparse._SubParsersAction[Any]) -> None:
    ladder = commands.add_parser(
        "ladder", help="bot against bot, seats rotated: win rates with 95%% CIs, Elo ratings"
    )
    _add_game_options(ladder)
    ladder.add_argument(
        "--bots",
        type=_bots,
        default=("random", "heuristic"),
        metavar="KIND[,KIND...]",
        help="the bots, weakest first, with settings as KIND:NAME=VALUE, "
        "e.g. random,heuristic,ismcts (default random,heuristic)",
    )
    ladder.add_argument(
        "--matches",
        choices=("rungs", "pairs"),
        default="rungs",
        help="rungs: each bot alone against the bot before it in every other seat; "
        "pairs: every bot alone against every other (default rungs)",
    )
    ladder.add_argument(
        "--games",
        type=_bounded(1, MAX_GAMES),
        default=300,
        help=f"games per match, 1 to {MAX_GAMES} (default 300)",
    )
    ladder.add_argument(
        "--seed",
        type=_bounded(0, MAX_SEED),
        default=0,
        help=_seed_help(
            "seed of the first game (default 0); game i of every match has seed SEED+i"
        ),
    )
    ladder.add_argument(
        "--jobs",
        type=_bounded(1, MAX_JOBS),
        default=None,
        help=f"processes to play in, 1 to {MAX_JOBS} (default: every core); "
        "the results do not depend on it",
    )
    _add_progress(ladder)
    ladder.add_argument(
        "--plot",
        type=_text,
        default=None,
        metavar="FILE.png",
        help="also draw the results in this PNG file (needs matplotlib: oriflamme[plot])",
    )
    ladder.add_argument("--json", action="store_true", help="print JSON instead of text")


def _add_progress(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (default: when it is a terminal)",
    )


def _add_compare(parser: argparse.ArgumentParser) -> None:
    """``conformance --compare CMD`` and its options (oriflamme.conformance.compare)."""
    group = parser.add_argument_group(
        "comparing two engines",
        "--compare CMD plays seeded games on this engine and on CMD and stops at the first "
        "difference, written as a scenario that shows it (docs/engine-protocol.md, "
        '"Finding where two engines differ")',
    )
    group.add_argument(
        "--compare",
        type=_text,
        default=None,
        metavar="CMD",
        help="an engine that speaks docs/engine-protocol.md, compared with this one; "
        "no PATH then; exit status 0 if no difference is found, 1 if one is",
    )
    group.add_argument(
        "--games",
        type=_bounded(1, MAX_GAMES),
        default=GAMES,
        help=f"games to play, 1 to {MAX_GAMES} (default {GAMES})",
    )
    group.add_argument(
        "--seed",
        type=_bounded(0, MAX_SEED),
        default=None,
        help=f"seed of the first game, 0 to {MAX_SEED}; game i has seed SEED+i "
        "(default: drawn at random, and printed)",
    )
    group.add_argument(
        "--sets",
        type=_sets,
        default=None,
        help="the card sets of every game, comma-separated; with several, each game draws "
        "10 card types among them (default: each game draws base, ablaze, or both)",
    )
    group.add_argument(
        "--families",
        type=_families,
        default=None,
        help=f"families in every game, {MIN_FAMILIES} to {MAX_FAMILIES} "
        "(default: each game draws its number)",
    )
    group.add_argument(
        "--variant",
        type=_variant,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rules variant for every game, e.g. ambush_own_elimination=revised (repeatable)",
    )
    group.add_argument(
        "--out",
        type=_text,
        default=".",
        metavar="DIR",
        help="the folder the scenario of a difference is written to, made if missing "
        "(default: the current folder)",
    )
    group.add_argument(
        "--jobs",
        type=_bounded(1, MAX_JOBS),
        default=None,
        help=f"processes to play in, each with its own CMD, 1 to {MAX_JOBS} "
        "(default: every core); what is found does not depend on it",
    )
    _add_progress(group)


def _add_perft(commands: Any) -> None:
    """The ``perft`` command's options (oriflamme.perft)."""
    perft_parser = commands.add_parser(
        "perft",
        help="count the distinct sequences of decisions from a scenario's position",
        description="Count the distinct sequences of DEPTH asked decisions from the "
        "position a scenario's state sets, after its play steps (its expect is "
        "ignored); docs/perft.md defines the count.",
    )
    perft_parser.add_argument("path", type=_text, metavar="PATH", help="a scenario file")
    perft_parser.add_argument(
        "--depth",
        type=_bounded(1, MAX_DEPTH),
        required=True,
        help=f"the number of decisions in each sequence, 1 to {MAX_DEPTH}",
    )
    perft_parser.add_argument(
        "--divide",
        action="store_true",
        help="also print each first answer, as a play step writes it, with its count",
    )
    perft_parser.add_argument(
        "--engine",
        type=_text,
        default=None,
        metavar="CMD",
        help="count on this engine too, a program that speaks docs/engine-protocol.md with "
        "its options op, and name the first branch whose counts differ, one ply at a time "
        "(exit status 1 if one does)",
    )
    _add_plugin_options(perft_parser)
