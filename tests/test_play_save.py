"""``oriflamme play --save`` and ``--load``: a game saved after every answer, whole or
not at all, goes on from its save exactly as it would have gone on uninterrupted; a
save that cannot be continued is one line naming the file, with status 2."""

from __future__ import annotations

import io
import json
import os
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from oriflamme import Registry
from oriflamme.arguments import build_parser
from oriflamme.cli import main
from oriflamme.savefile import save_game
from oriflamme.saves import load
from oriflamme.terminal import play_command

# Bots of each kind, so that every kind is seen to play on the same after a load.
BOTS = "--bots random,heuristic,ismcts:iterations=3"


def typing(count: int | None, answer: str = "1") -> Callable[[str], str]:
    """A person who types ``answer`` ``count`` times (for ever if None), then leaves."""
    typed = [0]

    def read(_prompt: str) -> str:
        if count is not None and typed[0] >= count:
            raise EOFError
        typed[0] += 1
        return answer

    return read


def play(options: str, registry: Registry, read: Callable[[str], str]) -> str:
    out = io.StringIO()
    args = build_parser().parse_args(["play", "--no-plugins", *options.split()])
    assert play_command(args, registry, read=read, out=out) == 0
    return out.getvalue()


@pytest.mark.parametrize(("seed", "sets"), [(3, "base"), (8, "base,ablaze"), (21, "ablaze")])
def test_a_game_continued_from_its_save_ends_as_it_would_have(
    registry: Registry, tmp_path: Path, seed: int, sets: str
) -> None:
    print(f"seed {seed}, sets {sets}")
    setup = f"--families 4 --sets {sets} --seed {seed} {BOTS}"
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    ending = play(f"{setup} --save {whole}", registry, typing(None))
    for stop in (5, 11):  # twice, the second time continuing the continued game
        text = play(f"{setup} --save {part}", registry, typing(stop)) if stop == 5 else ""
        if stop == 11:
            text = play(f"--load {part} --save {part} {BOTS}", registry, typing(6))
        assert "You left the game.\nThe game is saved in " in text
        saved = load(part.read_text(encoding="utf-8"), registry=registry)
        decision = saved.decision
        assert decision is not None
        assert decision.family == "red"
    resumed = play(f"--load {part} --save {part} {BOTS}", registry, typing(None))
    assert part.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    assert load(whole.read_text(encoding="utf-8"), registry=registry).over
    final = [line for line in ending.splitlines() if line.startswith("The game is over: ")]
    assert final
    assert final[0] in resumed.splitlines()
    assert f"Oriflamme: the game saved in {part}, 4 families, sets {sets}, seed {seed}" in resumed
    assert sorted(os.listdir(tmp_path)) == ["part.json", "whole.json"]  # no leftovers


def test_options_that_agree_with_the_save_are_welcome(registry: Registry, tmp_path: Path) -> None:
    print("seed 4")
    save = tmp_path / "game.json"
    play(
        f"--families 3 --seed 4 --variant ambush_own_elimination=revised --save {save}",
        registry,
        typing(3),
    )
    text = play(
        f"--load {save} --families 3 --sets base --seed 4 "
        "--variant ambush_own_elimination=revised --seat 2 --bots random",
        registry,
        typing(0),
    )
    assert "You are blue." in text  # --seat chooses, as for a new game


def test_a_loaded_game_over_shows_its_final_scores(registry: Registry, tmp_path: Path) -> None:
    print("seed 2")
    save = tmp_path / "game.json"
    ending = play(f"--families 3 --seed 2 --bots random --save {save}", registry, typing(None))
    again = play(f"--load {save} --bots random", registry, typing(0))
    final = [line for line in ending.splitlines() if line.startswith("The game is over: ")]
    assert final[0] in again.splitlines()
    assert "Which card" not in again
    assert "Type the number of an answer" not in again  # nothing is asked
    assert "Type the number of an answer" in ending


def test_a_save_is_whole_or_not_written(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    print("seed 5")
    save = tmp_path / "game.json"
    play(f"--families 3 --seed 5 --bots random --save {save}", registry, typing(4))
    kept = save.read_text(encoding="utf-8")
    game = load(kept, registry=registry)
    game.answer_option(0)

    def broken(_handle: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="No space left"):
        save_game(game, str(save))
    assert save.read_text(encoding="utf-8") == kept  # the last whole save stays
    assert os.listdir(tmp_path) == ["game.json"]  # and the half-written one is gone


def _saved(registry: Registry, folder: Path, options: str = "") -> dict[str, object]:
    save = folder / "source.json"
    play(f"--families 3 --seed 7 --bots random {options} --save {save}", registry, typing(2))
    data: dict[str, object] = json.loads(save.read_text(encoding="utf-8"))
    return data


def _plugin_missing(data: dict[str, object]) -> None:
    rules = data["rules"]
    assert isinstance(rules, dict)
    rules["plugins"].append(["ghosts", "oriflamme-ghosts", "1.0"])


def _plugin_older(data: dict[str, object]) -> None:
    rules = data["rules"]
    assert isinstance(rules, dict)
    for plugin in rules["plugins"]:
        plugin[2] = "0.0.1"


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (None, "no such file"),
        ("folder", "not a file, so not a saved game"),
        ("Hello, world.\n", "not a saved game: line 1: Expecting value"),
        ('{"format": "something else"}', "not a saved game: the 'format' field is missing"),
        (b"\xff\xfe\x00", "not a saved game: not UTF-8 text"),
        (lambda data: data.update(version=99), "saved game version 99 is not supported"),
        (_plugin_missing, "this game was saved with plugin 'ghosts' (oriflamme-ghosts 1.0)"),
        (_plugin_older, "this game was saved with plugin 'base' version 0.0.1"),
    ],
)
def test_a_save_that_cannot_be_continued_is_one_line_and_status_2(
    registry: Registry,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    write: object,
    message: str,
) -> None:
    print("seed 7")
    path = tmp_path / "game.json"
    if write == "folder":
        path.mkdir()
    elif isinstance(write, str):
        path.write_text(write, encoding="utf-8")
    elif isinstance(write, bytes):
        path.write_bytes(write)
    elif callable(write):
        data = _saved(registry, tmp_path)
        write(data)
        path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["play", "--no-plugins", "--load", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"oriflamme: error: --load {path}: {message}"), captured.err
    assert captured.err.count("\n") == 1
    assert "allow_other_versions" not in captured.err  # advice for the Python API only


def test_a_save_of_a_plugin_left_out_is_refused(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    print("seed 7")
    _saved(registry, tmp_path, "--sets ablaze")
    path = tmp_path / "source.json"
    capsys.readouterr()
    assert main(["play", "--no-plugins", "--without", "ablaze", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"oriflamme: error: --load {path}: this game was saved with plugin ")
    assert "'ablaze'" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        ("--families 4", "--families 4 (saved: 3)"),
        ("--sets ablaze", "--sets ablaze (saved: base)"),
        ("--seed 8", "--seed 8 (saved: 7)"),
        ("--size 9", "--size 9 (saved: none)"),
        ("--variant ambush_own_elimination=revised", "=revised (saved: first_edition)"),
        ("--cards spy,heir,archer", "--cards archer,heir,spy (saved: ambush,archer,assass"),
        ("--families 5 --seed 1", "--families 5 (saved: 3); --seed 1 (saved: 7)."),
    ],
)
def test_options_that_disagree_with_the_save_are_refused(
    registry: Registry,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    options: str,
    refused: str,
) -> None:
    print("seed 7")
    _saved(registry, tmp_path)
    path = tmp_path / "source.json"
    capsys.readouterr()
    assert main(["play", "--no-plugins", "--load", str(path), *options.split()]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"oriflamme: error: --load {path}: the saved game was set up otherwise: ")
    assert refused in err
    assert err.count("\n") == 1
    assert "Leave these options out" in err


@pytest.mark.parametrize(
    ("where", "message"),
    [("missing/game.json", "there is no folder"), (".", "a folder; name a file")],
)
def test_a_save_that_cannot_be_written_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, message: str
) -> None:
    path = tmp_path / where
    assert main(["play", "--no-plugins", "--save", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"oriflamme: error: --save {path}: {message}")
    assert err.count("\n") == 1


def test_a_seat_the_saved_game_has_not(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    print("seed 7")
    _saved(registry, tmp_path)
    path = tmp_path / "source.json"
    capsys.readouterr()
    assert main(["play", "--no-plugins", "--load", str(path), "--seat", "4"]) == 2
    err = capsys.readouterr().err
    assert err == "oriflamme: error: --seat 4: a game of 3 families has seats 1 to 3\n"


def test_a_new_game_never_writes_over_another_games_save(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    print("seed 7")
    _saved(registry, tmp_path)
    kept = tmp_path / "source.json"
    before = kept.read_bytes()
    other = tmp_path / "other.json"
    other.write_text("my notes\n", encoding="utf-8")  # not even a save: kept all the same
    for options in (
        ["--save", str(kept)],  # a new game, left at once
        ["--seed", "9", "--save", str(other)],
        ["--load", str(kept), "--save", str(other)],  # continued, but into another file
    ):
        capsys.readouterr()
        assert main(["play", "--no-plugins", *options]) == 2, options
        captured = capsys.readouterr()
        target = options[-1]
        # --load is suggested only where there is a save to go on with.
        go_on = (
            f"To go on with the game saved there, add --load {target}"
            if target == str(kept)
            else "It is no saved game: name another file"
        )
        assert captured.err.startswith(
            f"oriflamme: error: --save {target}: the file exists, and this game would "
            f"write over it. {go_on}"
        ), captured.err
        assert captured.err.count("\n") == 1
        assert captured.out == ""
    assert kept.read_bytes() == before
    assert other.read_text(encoding="utf-8") == "my notes\n"


def test_a_game_goes_on_saving_into_the_file_it_was_loaded_from(
    registry: Registry, tmp_path: Path
) -> None:
    print("seed 7")
    _saved(registry, tmp_path)
    path = tmp_path / "source.json"
    steps = len(json.loads(path.read_text(encoding="utf-8"))["log"])
    play(f"--load {path} --save {path}", registry, typing(3))
    assert len(json.loads(path.read_text(encoding="utf-8"))["log"]) > steps


def test_leaving_a_saved_game_says_how_to_go_on_with_it(registry: Registry, tmp_path: Path) -> None:
    print("seed 7")
    path = tmp_path / "my game.json"  # a space: the command must still work as written
    options = ["play", "--no-plugins", "--families", "3", "--seed", "7", "--bots", "random"]
    args = build_parser().parse_args([*options, "--save", str(path)])
    shown = io.StringIO()
    assert play_command(args, registry, read=typing(2), out=shown) == 0
    out = shown.getvalue()
    told = out.rstrip("\n").splitlines()[-1]
    assert told.startswith(f"The game is saved in {path}. To go on with it: oriflamme play ")
    command = shlex.split(told.split("To go on with it: ", 1)[1])
    assert command == ["oriflamme", "play", "--load", str(path), "--save", str(path)]
    args = build_parser().parse_args([*command[1:], "--no-plugins"])
    assert play_command(args, registry, read=typing(1), out=io.StringIO()) == 0


def test_leaving_an_unsaved_game_adds_nothing(registry: Registry) -> None:
    print("seed 7")
    out = play("--families 3 --seed 7 --bots random", registry, typing(2))
    assert out.rstrip("\n").splitlines()[-1] == "You left the game."
