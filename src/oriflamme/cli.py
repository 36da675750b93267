"""The ``oriflamme`` command: play, simulate, study, ladder, conformance, engine, perft, cards,
plugins, bots, serve.

Whatever is typed, the command ends without a traceback, with one of these statuses:

- 0: done (for ``conformance``: every scenario passed);
- 1: a scenario failed, a game of ``simulate`` failed other than by a plugin's error
  (one line on stderr names the game and its seed, to play it alone again; a
  plugin's error names them too, with status 2), or the system refused to read or
  write something (one line on stderr says what);
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
- ``--seed`` 0 to :data:`MAX_SEED`; for ``simulate``, ``study`` and ``ladder`` the last
  game's seed too (``--seed`` + ``--games`` - 1);
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
import sys
from collections.abc import Sequence
from typing import TextIO

from oriflamme import ENTRY_POINT_GROUP, OriflammeError, PluginError, Registry, builtin_plugins
from oriflamme.limits import MAX_SEED
from oriflamme.text import QUOTE, escaped, one_line, quote

from .arguments import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_MISTAKE,
    EXIT_PIPE,
    MAX_DIGITS,
    MAX_GAMES,
    MAX_JOBS,
    MAX_MESSAGE,
    MAX_SIZE,
    MAX_TEXT,
    build_parser,
)
from .bots.ladder import ladder_command
from .commands import bots_command, cards_command, conformance_command, plugins_command
from .conformance.serve import engine_command
from .perft import perft_command
from .simulate import GameFailed, simulate_command
from .study.command import study_command
from .terminal import play_command
from .web.serve import serve_command

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_MISTAKE",
    "EXIT_PIPE",
    "MAX_DIGITS",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_MESSAGE",
    "MAX_SEED",
    "MAX_SIZE",
    "MAX_TEXT",
    "QUOTE",
    "main",
]

# What a failed write to stdout raises (a full disk, a dead terminal), with no file named.
_WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF}


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    if args.command in ("simulate", "study", "ladder") and args.seed + args.games - 1 > MAX_SEED:
        last = args.seed + args.games - 1
        _say(
            f"oriflamme {args.command}: error: the last game's seed, --seed + --games - 1 = "
            f"{last}, is more than {MAX_SEED} (see oriflamme {args.command} --help)"
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
        _say(f"oriflamme: warning: {one_line(problem, MAX_MESSAGE)}")
    if args.command == "conformance":
        return conformance_command(args, registry)
    if args.command == "engine":
        return engine_command(args, registry)
    if args.command == "cards":
        return cards_command(args, registry)
    if args.command == "plugins":
        return plugins_command(args, registry)
    if args.command == "bots":
        return bots_command(args, registry)
    if args.command == "ladder":
        return ladder_command(args, registry)
    if args.command == "simulate":
        return simulate_command(args, registry)
    if args.command == "perft":
        return perft_command(args, registry)
    if args.command == "study":
        return study_command(args, registry)
    return play_command(args, registry)


def _say(line: str) -> None:
    """One line on stderr, each character a terminal would obey written out (a
    plugin's error, a save's words, a path); if even stderr is gone, there is no one
    left to tell."""
    with contextlib.suppress(OSError, ValueError):
        print(escaped(line), file=sys.stderr, flush=True)


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
        _say(f"oriflamme: error: {one_line(str(exc), MAX_MESSAGE)}")
        return EXIT_MISTAKE
    except OSError as exc:
        _drop_unwritable(sys.stdout)
        writing = exc.filename is None and exc.errno in _WRITE_ERRORS
        reason = one_line(str(exc), MAX_MESSAGE)
        _say(f"oriflamme: error: {'cannot write the output: ' * writing}{reason}")
        return EXIT_FAILED
    except GameFailed as exc:  # a plugin's error is a mistake as anywhere; a bug is not
        _say(f"oriflamme: error: {one_line(str(exc), MAX_MESSAGE)}")
        return EXIT_MISTAKE if exc.mistake else EXIT_FAILED
    except OriflammeError as exc:
        _say(f"oriflamme: error: {one_line(str(exc), MAX_MESSAGE)}")
        return EXIT_MISTAKE
