"""The ``oriflamme`` command: play, simulate, conformance, cards, plugins.

Whatever is typed, the command ends without a traceback, with one of these statuses:

- 0: done (for ``conformance``: every scenario passed);
- 1: a scenario failed, or the system refused to read or write something (one line
  on stderr says what);
- 2: a mistake in what was asked (a bad option, a missing file, no scenario found,
  an unknown plugin, an impossible configuration), reported in one line on stderr;
- 130: interrupted (Ctrl-C), quietly;
- 141: whoever read the output stopped reading (``oriflamme cards | head -2``): the
  status of a process ended by SIGPIPE, quietly, as the Python docs advise.

What the options accept is bounded, and shown in each command's ``--help``; a value
out of bounds is refused before anything runs:

- ``--families`` 3 to 5; ``--seat`` 1 to 5 (and at most ``--families``);
- ``--games`` 1 to :data:`MAX_GAMES`; ``--jobs`` 1 to :data:`MAX_JOBS`; ``--size`` 1 to
  :data:`MAX_SIZE` (the sets chosen must also have that many card types);
- ``--seed`` 0 to :data:`MAX_SEED`; for ``simulate`` the last game's seed too
  (``--seed`` + ``--games`` - 1);
- a number is written in the digits 0-9, at most :data:`MAX_DIGITS` of them (leading
  zeros aside);
- a text value (a list of names, NAME=VALUE, a plugin's name) is at most
  :data:`MAX_TEXT` characters; an error message quotes at most :data:`QUOTE` characters
  of what was typed, and is at most :data:`MAX_MESSAGE` characters long.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib.metadata
import io
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from .commands import cards_command, conformance_command, plugins_command
from .core.config import MAX_FAMILIES, MIN_FAMILIES
from .core.errors import OriflammeError, PluginError
from .core.plugins import ENTRY_POINT_GROUP, Registry, builtin_plugins
from .simulate import simulate_command
from .terminal import play_command
from .web.serve import add_serve, serve_command

#: Games one ``simulate`` may play (hours of work on one core: a bound, not a goal).
MAX_GAMES = 10_000_000
#: Processes ``simulate --jobs`` may start.
MAX_JOBS = 1024
#: Card types ``--size`` may ask for (no installed sets come near it).
MAX_SIZE = 1000
#: The largest seed: a seed fits in 63 bits, as other tools expect of a number.
MAX_SEED = 2**63 - 1
#: Digits a number may have (MAX_SEED has 19).
MAX_DIGITS = 20
#: Characters in one text value.
MAX_TEXT = 1000
#: Characters of a bad value quoted back in a message.
QUOTE = 40
#: Characters in one error line.
MAX_MESSAGE = 1000

# ASCII digits only: int() would also take "٣", "3_000" or " 3 ", none of which a
# person means as a number here.
_NUMBER = re.compile(r"[+-]?[0-9]+")

EXIT_FAILED, EXIT_MISTAKE, EXIT_INTERRUPTED, EXIT_PIPE = 1, 2, 130, 141
# What a failed write to stdout raises (a full disk, a dead terminal), with no file named.
_WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF}


def quote(text: str) -> str:
    """``text`` as a message shows it: quoted, and cut to :data:`QUOTE` characters."""
    return repr(text) if len(text) <= QUOTE else repr(text[:QUOTE]) + "..."


def one_line(text: str) -> str:
    """``text`` on one line of at most :data:`MAX_MESSAGE` characters."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 3] + "..."


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


def _variant(text: str) -> tuple[str, str]:
    name, sep, value = _text(text).partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {quote(text)}")
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
            EXIT_MISTAKE, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n"
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="oriflamme", description="A rules engine for the card game Oriflamme.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    play = commands.add_parser("play", help="play a game in the terminal against bots")
    _add_game_options(play, 4)
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
    play.add_argument(
        "--bots",
        choices=("random",),
        default="random",
        help="the bots you play against (default random)",
    )

    simulate = commands.add_parser("simulate", help="bots play many games; print the results")
    _add_game_options(simulate, 3)
    simulate.add_argument(
        "--games",
        type=_bounded(1, MAX_GAMES),
        default=100,
        help=f"number of games, 1 to {MAX_GAMES} (default 100)",
    )
    simulate.add_argument(
        "--seed",
        type=_bounded(0, MAX_SEED),
        default=0,
        help=_seed_help("seed of the first game (default 0); game i has seed SEED+i"),
    )
    simulate.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (default: when it is a terminal)",
    )
    simulate.add_argument(
        "--jobs",
        type=_bounded(1, MAX_JOBS),
        default=None,
        help=f"processes to play in, 1 to {MAX_JOBS} (default: every core); "
        "the totals do not depend on it",
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
        "paths",
        nargs="+",
        metavar="PATH",
        help="scenario files or folders of *.yaml files (finding none is an error)",
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
    add_serve(commands)
    return parser


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    if args.command == "simulate" and args.seed + args.games - 1 > MAX_SEED:
        last = args.seed + args.games - 1
        _say(
            f"oriflamme simulate: error: the last game's seed, --seed + --games - 1 = {last}, "
            f"is more than {MAX_SEED} (see oriflamme simulate --help)"
        )
        raise SystemExit(EXIT_MISTAKE)  # as argparse leaves on a mistake
    return args


def _registry(args: argparse.Namespace) -> Registry:
    """The plugins asked for; ``--without`` an unknown plugin is a mistake, not a no-op."""
    builtins = [name for name, _ in builtin_plugins()]
    installed = sorted(ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
    for name in args.without:
        if name not in builtins and name not in installed:
            known = ", ".join(sorted({*builtins, *installed}))
            raise PluginError(f"--without {quote(name)}: no plugin of that name (plugins: {known})")
    # With --no-plugins, an installed plugin is left out already: only built-ins remain.
    excluded = [name for name in args.without if not args.no_plugins or name in builtins]
    return Registry(entry_points=not args.no_plugins, exclude=excluded)


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":  # the server loads every installed plugin, per game
        return serve_command(args)
    registry = _registry(args)
    for problem in registry.problems:
        _say(f"oriflamme: warning: {one_line(problem)}")
    if args.command == "conformance":
        return conformance_command(args, registry)
    if args.command == "cards":
        return cards_command(args, registry)
    if args.command == "plugins":
        return plugins_command(args, registry)
    if args.command == "simulate":
        return simulate_command(args, registry)
    return play_command(args, registry)


def _say(line: str) -> None:
    """One line on stderr; if even stderr is gone, there is no one left to tell."""
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def _flush(stream: TextIO | None) -> None:
    if stream is not None:
        stream.flush()


def _drop_unwritable(*streams: TextIO | None) -> None:
    """Point each stream that can no longer be written at /dev/null (the Python docs'
    advice for SIGPIPE), so that the exit's own flush reports nothing."""
    for stream in streams:
        try:
            _flush(stream)
        except (OSError, ValueError):
            try:
                assert stream is not None
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, stream.fileno())
                os.close(devnull)
            except (OSError, ValueError, io.UnsupportedOperation):
                pass  # not a real file: nothing will be flushed to it at exit


def _tolerant_output() -> None:
    """A card name or a path that the terminal's encoding cannot show is escaped, not fatal."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command in ``argv`` (default: ``sys.argv[1:]``); return its exit status.

    argparse's own exits (a bad option: 2; ``--help``: 0) leave as SystemExit.
    """
    _tolerant_output()
    try:
        try:
            return _run(_parse(argv))
        finally:
            _flush(sys.stdout)  # a write error shows here, not as a message at exit
    except BrokenPipeError:
        _drop_unwritable(sys.stdout, sys.stderr)
        return EXIT_PIPE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except FileNotFoundError as exc:  # a path given that does not exist: a mistake
        _say(f"oriflamme: error: {one_line(str(exc))}")
        return EXIT_MISTAKE
    except OSError as exc:
        _drop_unwritable(sys.stdout)
        writing = exc.filename is None and exc.errno in _WRITE_ERRORS
        _say(f"oriflamme: error: {'cannot write the output: ' * writing}{one_line(str(exc))}")
        return EXIT_FAILED
    except OriflammeError as exc:
        _say(f"oriflamme: error: {one_line(str(exc))}")
        return EXIT_MISTAKE
