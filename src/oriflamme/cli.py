"""The ``oriflamme`` command: play, simulate, conformance, cards.

A user's mistake (a bad option, a missing file, an impossible configuration) is
reported in one line on stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from .commands import cards_command, conformance_command, plugins_command
from .core.config import MAX_FAMILIES, MIN_FAMILIES
from .core.errors import OriflammeError
from .core.plugins import Registry
from .simulate import simulate_command
from .terminal import play_command


def _families(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not MIN_FAMILIES <= count <= MAX_FAMILIES:
        raise argparse.ArgumentTypeError(
            f"a game has {MIN_FAMILIES} to {MAX_FAMILIES} families, not {count}"
        )
    return count


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _sets(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one card set, e.g. base")
    return names


def _variant(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def _add_game_options(parser: argparse.ArgumentParser, families: int) -> None:
    parser.add_argument(
        "--families",
        type=_families,
        default=families,
        help=f"number of families, {MIN_FAMILIES} to {MAX_FAMILIES} (default {families})",
    )
    parser.add_argument(
        "--sets", type=_sets, default=("base",), help="card sets, comma-separated (default base)"
    )
    parser.add_argument(
        "--size",
        type=_positive,
        default=None,
        help="with several sets: how many card types to draw (default 10)",
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
        action="append",
        default=[],
        metavar="PLUGIN",
        help="leave this plugin out (repeatable); `oriflamme plugins` lists them",
    )


class _Parser(argparse.ArgumentParser):
    """Reports a bad option in one line (and where to find help), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="oriflamme", description="A rules engine for the card game Oriflamme.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    play = commands.add_parser("play", help="play a game in the terminal against bots")
    _add_game_options(play, 4)
    play.add_argument(
        "--seat", type=_positive, default=1, help="your seat, 1 = the first family (default 1)"
    )
    play.add_argument(
        "--seed", type=int, default=None, help="seed for the deal and the bots (default: random)"
    )
    play.add_argument(
        "--bots",
        choices=("random",),
        default="random",
        help="the bots you play against (default random)",
    )

    simulate = commands.add_parser("simulate", help="bots play many games; print the results")
    _add_game_options(simulate, 3)
    simulate.add_argument(
        "--games", type=_positive, default=100, help="number of games (default 100)"
    )
    simulate.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    simulate.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (default: when it is a terminal)",
    )
    simulate.add_argument(
        "--jobs",
        type=_positive,
        default=None,
        help="processes to play in (default: every core); the totals do not depend on it",
    )
    simulate.add_argument(
        "--bots",
        type=_sets,
        default=("random",),
        metavar="KIND[,KIND...]",
        help="the bot of each seat, or one for every seat (default random)",
    )
    simulate.add_argument(
        "--json", action="store_true", help="print the summary as JSON instead of text"
    )

    conformance = commands.add_parser("conformance", help="run conformance scenarios")
    conformance.add_argument(
        "paths", nargs="+", metavar="PATH", help="scenario files or folders of *.yaml files"
    )
    _add_plugin_options(conformance)
    conformance.add_argument(
        "-q", "--quiet", action="store_true", help="print only failures and the closing line"
    )

    cards = commands.add_parser("cards", help="list the cards of the installed sets")
    cards.add_argument("--sets", type=_sets, default=None, help="only these sets")
    cards.add_argument(
        "--language",
        choices=("en", "fr", "pl"),
        default="en",
        help="card names in this language (default en)",
    )
    _add_plugin_options(cards)

    plugins = commands.add_parser(
        "plugins", help="list the plugins in play: sets, cards, variants, hooks"
    )
    plugins.add_argument("--json", action="store_true", help="print JSON instead of text")
    _add_plugin_options(plugins)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        registry = Registry(entry_points=not args.no_plugins, exclude=args.without)
        for problem in registry.problems:
            print(f"oriflamme: warning: {problem}", file=sys.stderr)
        if args.command == "conformance":
            return conformance_command(args, registry)
        if args.command == "cards":
            return cards_command(args, registry)
        if args.command == "plugins":
            return plugins_command(args, registry)
        if args.command == "simulate":
            return simulate_command(args, registry)
        return play_command(args, registry)
    except (OriflammeError, FileNotFoundError) as exc:
        print(f"oriflamme: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
