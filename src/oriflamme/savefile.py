"""Saved games on disk, for ``oriflamme play --save FILE`` and ``--load FILE``.

A save is the engine's JSON save (:meth:`Game.to_json`), written whole or not at all.
Reading one says plainly, naming the file, why it cannot be played: no such file, not
a save, a save of another version or of plugins not installed here, or options that
set up another game than the saved one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import stat
import tempfile

from oriflamme import ConfigError, Game, Registry, SaveError
from oriflamme.limits import MAX_TEXT
from oriflamme.saves import load as load_save


def load_game(path: str, registry: Registry) -> Game:
    """The game saved in the file at ``path``; :class:`SaveError` naming the file and
    what is wrong if there is none to play (a missing file, a file that is not a save,
    a save of another version or of plugins not installed here)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise SaveError(f"--load {path}: no such file") from None
    if not stat.S_ISREG(mode):  # a folder, or a pipe that would block the open
        raise SaveError(f"--load {path}: not a file, so not a saved game")
    with open(path, "rb") as stream:  # a file the system will not read: status 1
        data = stream.read(MAX_TEXT + 1)
    if len(data) > MAX_TEXT:
        raise SaveError(f"--load {path}: not a saved game: more than {MAX_TEXT} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"--load {path}: not a saved game: not UTF-8 text") from None
    try:
        return load_save(text, registry=registry)
    except SaveError as exc:
        # The engine's advice is for the Python API; a player can only install that version.
        said = str(exc).replace(
            "load with allow_other_versions=True to try anyway",
            "install that version to play it",
        )
        raise SaveError(f"--load {path}: {said}") from None


def save_game(game: Game, path: str) -> None:
    """Write ``game`` to ``path`` whole or not at all: into a new file in the same
    folder, then moved over ``path`` (one rename), so a save is never half-written."""
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(game.to_json())
            stream.flush()
            os.fsync(stream.fileno())  # on disk before it takes the save's name
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def check_save_path(path: str, loaded: str | None = None) -> None:
    """Refuse a place ``--save`` cannot write to, or a file there already that is not
    the game ``--load`` continues (``loaded``): another game's save is never written
    over, even by a game left at once."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ConfigError(f"--save {path}: a folder; name a file to save the game in")
    if not os.path.isdir(folder):
        raise ConfigError(f"--save {path}: there is no folder {folder}")
    if os.path.lexists(path) and not (
        loaded is not None and os.path.exists(loaded) and os.path.samefile(path, loaded)
    ):
        go_on = (
            f"To go on with the game saved there, add --load {path}; else name"
            if _looks_like_a_save(path)
            else "It is no saved game: name"
        )
        raise ConfigError(
            f"--save {path}: the file exists, and this game would write over it. {go_on} "
            "another file, or remove that one first"
        )


def _looks_like_a_save(path: str) -> bool:
    """Whether the file at ``path`` is a JSON object naming a save's format (read up to
    :data:`MAX_TEXT` bytes): only then is ``--load`` worth suggesting."""
    try:
        with open(path, "rb") as file:
            data = json.loads(file.read(MAX_TEXT))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "format" in data


def check_same(args: argparse.Namespace, game: Game, path: str) -> None:
    """Refuse options that set up a game otherwise than the saved one was (an option
    left out is None; sets and cards are compared whatever their order)."""
    config, variants, joined = game.config, game.rules.variants, ",".join
    given = [
        ("--families", args.families, len(config.families)),
        ("--sets", args.sets and joined(sorted(args.sets)), joined(sorted(config.sets))),
        ("--cards", args.cards and joined(sorted(args.cards)), joined(sorted(game.cards))),
        ("--size", args.size, config.size or "none"),
        ("--seed", args.seed, config.seed),
    ]
    for name, value in args.variant:  # a value as typed: "revised", "true", "3"
        saved = variants.get(name, "none")
        same = value in (str(saved), json.dumps(saved))
        given.append(("--variant", f"{name}={value}", f"{name}={value}" if same else saved))
    differ = [
        f"{option} {value} (saved: {saved})"
        for option, value, saved in given
        if value not in (None, saved)
    ]
    if differ:
        raise ConfigError(
            f"--load {path}: the saved game was set up otherwise: {'; '.join(differ)}. "
            "Leave these options out: a saved game goes on as it was set up"
        )
