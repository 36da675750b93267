"""The command line: each command works, and a user's mistake is one clear line."""

from __future__ import annotations

import argparse
import functools
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from oriflamme import Ability, BotKind, BotSetting, PluginError, Registry, cli, hookimpl
from oriflamme.arguments import FAMILIES, PLAY_FAMILIES, build_parser
from oriflamme.cli import main
from oriflamme.commands import bots_command, cards_command
from oriflamme.terminal import MAX_LINE, MAX_WRONG, play_command, read_line

from .conftest import ROOT
from .helpers import one_card_set


def test_cards_lists_every_base_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--no-plugins", "--sets", "base", "--language", "fr"]) == 0
    out = capsys.readouterr().out
    assert "Oriflamme (set base, plugin base)" in out
    for name in ("Archer", "Soldat", "Espion", "Héritier", "Changeforme", "Complot"):
        assert name in out
    assert "no ability implemented" not in out
    assert "Eliminate an adjacent card." not in out  # the texts are French too
    assert "Éliminez une carte adjacente." in out


def test_simulate_prints_wins_per_seat_and_mean_scores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed, games = 1, 20
    print(f"seed={seed}", file=sys.stderr)  # stdout is what the command prints
    args = ["simulate", "--games", str(games), "--families", "5", "--seed", str(seed)]
    args += ["--jobs", "1", "--no-plugins"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "20 games, 5 families, sets base, seeds 1 to 20, 1 process"
    assert lines[1].startswith("cards: archer, soldier, spy, heir")
    assert lines[2] == "variants: ambush_own_elimination=first_edition"
    assert lines[3].split() == [
        "seat",
        "family",
        "bot",
        "wins",
        "shared",
        "win",
        "%",
        "mean",
        "score",
    ]
    seats = [line.split() for line in lines[4:9]]
    assert [row[0] for row in seats] == ["1", "2", "3", "4", "5"]
    assert [row[1] for row in seats] == ["red", "blue", "green", "yellow", "black"]
    assert {row[2] for row in seats} == {"random"}
    outright = sum(int(row[3]) for row in seats)
    shared = sum(int(row[4]) for row in seats)
    # Every game has one outright winner or at least two sharing the win (RULINGS G6).
    assert 0 < outright <= games
    assert outright + shared >= games
    assert shared != 1
    # win %: outright wins and a share of each shared win, so the seats' add up to 100%.
    percents = [float(row[5].rstrip("%")) for row in seats]
    assert sum(percents) == pytest.approx(100, abs=0.3)
    for row, percent in zip(seats, percents, strict=True):
        outright_only = 100 * int(row[3]) / games
        assert outright_only - 0.05 <= percent <= outright_only + 100 * int(row[4]) / 2 / games
    assert "win %: outright wins plus a share of shared ones" in lines[9]
    assert "games/s" in lines[10]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[:10] == lines[:10]  # same seed, same results


def simulated(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["simulate", *args, "--progress", "never", "--no-plugins"]) == 0
    return capsys.readouterr().out.splitlines()


def test_simulate_totals_do_not_depend_on_the_number_of_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed = 40
    print(f"seed={seed}", file=sys.stderr)  # stdout is what the command prints
    common = ("--games", "600", "--seed", str(seed), "--families", "4")
    # 600 games: more than one share of games, so two processes really share them out.
    alone = simulated(capsys, *common, "--jobs", "1")
    two = simulated(capsys, *common, "--jobs", "2")
    assert alone[0] == "600 games, 4 families, sets base, seeds 40 to 639, 1 process"
    assert two[0] == "600 games, 4 families, sets base, seeds 40 to 639, 2 processes"
    assert alone[1:3] == two[1:3]  # the cards and the variants
    assert alone[3] == two[3]
    assert alone[3].startswith("seat")
    seats = alone[4:8]
    assert [line.split()[1] for line in seats] == ["red", "blue", "green", "yellow"]
    assert two[4:8] == seats
    assert 0 < sum(int(line.split()[3]) for line in seats) <= 600


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    seed, games = 7, 30
    print(f"seed={seed}", file=sys.stderr)  # stdout is what the command prints
    out = simulated(capsys, "--games", str(games), "--seed", str(seed), "--jobs", "1", "--json")
    data = json.loads("\n".join(out))
    assert data["games"] == games
    assert data["seeds"] == [seed, seed + games - 1]
    seats = data["seats"]
    assert [s["family"] for s in seats] == ["red", "blue", "green"]
    assert [s["bot"] for s in seats] == ["random"] * 3
    for s in seats:
        assert s["games"] == games
        # A win shared by k families (k is 2 or 3 of 3) counts 1/k, as in the ladder.
        low = (s["wins"] + s["shared_wins"] / 3) / games
        high = (s["wins"] + s["shared_wins"] / 2) / games
        assert low - 1e-12 <= s["win_rate"] <= high + 1e-12
    assert sum(s["win_rate"] for s in seats) == pytest.approx(1)  # every game has a winner
    assert data["cards"] == list(Registry().sets["base"].keys)  # one set: all its cards
    assert data["size"] is None
    assert set(data["bots"]) == {"random"}
    random_bot = data["bots"]["random"]
    assert set(random_bot) == {"seat_games", "wins", "shared_wins", "win_rate", "mean_score"}
    # The random bot played every seat: its totals are the seats' sums.
    assert random_bot["seat_games"] == 3 * games
    assert random_bot["wins"] == sum(s["wins"] for s in seats)
    assert random_bot["shared_wins"] == sum(s["shared_wins"] for s in seats)
    share = sum(s["win_rate"] for s in seats) * games
    assert random_bot["win_rate"] == pytest.approx(share / (3 * games))
    mean = sum(s["mean_score"] for s in seats) / 3
    assert random_bot["mean_score"] == pytest.approx(mean)
    assert data["rates"]["games_per_second"] > 0
    assert data["rates"]["decisions_per_second"] > data["rates"]["games_per_second"]
    assert data["variants"] == {"ambush_own_elimination": "first_edition"}
    # The same run as text shows the same seats.
    text = simulated(capsys, "--games", str(games), "--seed", str(seed), "--jobs", "1")
    for s, line in zip(seats, text[4:7], strict=True):
        assert line.split()[1:5] == [s["family"], "random", str(s["wins"]), str(s["shared_wins"])]


def test_simulate_with_a_mix_and_with_a_card_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "5", "--sets", "base,ablaze", "--no-plugins"]) == 0
    assert "each game draws 10 card types from base, ablaze" in capsys.readouterr().out
    cards = "archer,prince,queen,trap,spy,heir,lord"
    assert main(["simulate", "--games", "5", "--cards", cards, "--no-plugins"]) == 0
    out = capsys.readouterr().out
    assert "sets base,ablaze" in out
    assert "cards: archer, prince, queen, trap, spy, heir, lord, twin" in out


def test_simulate_json_gives_the_cards_as_a_list_of_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cards = "archer,prince,queen,trap,spy,heir,lord"
    data = json.loads("\n".join(simulated(capsys, "--games", "2", "--cards", cards, "--json")))
    assert data["cards"] == ["archer", "prince", "queen", "trap", "spy", "heir", "lord", "twin"]
    assert data["size"] is None
    assert data["sets"] == ["base", "ablaze"]
    # Each game draws its own list: no list is the run's, and the draw's size says so.
    data = json.loads(
        "\n".join(simulated(capsys, "--games", "2", "--sets", "base,ablaze", "--json"))
    )
    assert data["cards"] is None
    assert data["size"] == 10
    data = json.loads("\n".join(simulated(capsys, "--games", "2", "--size", "8", "--json")))
    assert data["cards"] is None
    assert data["size"] == 8


def test_every_command_has_the_same_default_number_of_families(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = build_parser()
    given = {
        "play": [],
        "simulate": [],
        "study": ["--out", "somewhere"],
        "ladder": [],
    }
    helps = {}
    for command, extra in given.items():
        with pytest.raises(SystemExit):
            parser.parse_args([command, "--help"])
        helps[command] = " ".join(capsys.readouterr().out.split())
        assert f"(default {FAMILIES}, as in every command)" in helps[command], command
        args = parser.parse_args([command, *extra])
        # play leaves it None until it knows whether a save gives it (--load).
        assert (args.families or PLAY_FAMILIES) == FAMILIES, command
    # What is played when it is left out: a game of that many families, in each command.
    assert simulated(capsys, "--games", "1")[0].startswith(f"1 games, {FAMILIES} families")
    screen = subprocess.run(
        [sys.executable, "-m", "oriflamme", "play", "--seed", "3", "--no-plugins"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert screen.stdout.startswith(f"Oriflamme: {FAMILIES} families")


def test_each_command_s_default_bots_are_explained_in_its_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command, reason in (
        ("play", "default medium: heuristic, which plays as a person might"),
        ("simulate", "default random: the fastest, for many games"),
        ("study", "default heuristic: a card's strength shows in good play"),
    ):
        with pytest.raises(SystemExit):
            build_parser().parse_args([command, "--help"])
        assert reason in " ".join(capsys.readouterr().out.split()), command


def test_conformance_command_prints_a_line_per_scenario_and_a_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = ROOT / "tests" / "conformance" / "base" / "cards"
    assert main(["conformance", "--no-plugins", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].endswith("passed, 0 failed")
    assert all(line.startswith("PASS ") for line in out[:-1])


def run_cli(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exit:  # argparse's own errors leave this way
        return int(exit.code or 0)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--families", "7"], "a game has 3 to 5 families, not 7"),
        (["simulate", "--games", "0"], "must be at least 1, not 0"),
        (["simulate", "--jobs", "0"], "must be at least 1, not 0"),
        (
            ["simulate", "--bots", "genius"],
            "unknown bot 'genius' (known bots: random, heuristic, learned, ismcts)",
        ),
        (["simulate", "--bots", "random,random"], "--bots names 2 bots for 3 seats"),
        (["simulate", "--sets", "nope"], "unknown card set 'nope'"),
        (["simulate", "--variant", "nope=1"], "unknown variant 'nope'"),
        (["simulate", "--variant", "oops"], "expected NAME=VALUE, not 'oops'"),
        (["conformance", "/no/such/place"], "no such file or folder: /no/such/place"),
        (["play", "--seat", "5"], "--seat 5: a game of 3 families has seats 1 to 3"),
        (["play", "--seat", "9"], "argument --seat: must be at most 5, not 9"),
        (["play", "--seat", "9" * 5000], "--seat: must be 1 to 5, not a 5000-digit number"),
        (["play", "--seed", "-1"], "argument --seed: must be at least 0, not -1"),
        (["play", "--seed", str(2**63)], f"must be at most {2**63 - 1}, not {2**63}"),
        (["simulate", "--games", "²"], "--games: not a whole number in digits 0-9: '²'"),
        (["simulate", "--games", "٣"], "--games: not a whole number in digits 0-9: '٣'"),
        (["simulate", "--games", "10000001"], "must be at most 10000000, not 10000001"),
        (["simulate", "--jobs", "1025"], "must be at most 1024, not 1025"),
        (["simulate", "--size", "1001"], "must be at most 1000, not 1001"),
        (["simulate", "--families", "9" * 30], "must be 3 to 5, not a 30-digit number"),
        (
            ["simulate", "--seed", str(2**63 - 1), "--games", "2"],
            "the last game's seed, --seed + --games - 1 = 9223372036854775808, is more than",
        ),
        (["cards", "--sets", "x" * 1001], "--sets: at most 1000 characters, not 1001: 'xxxx"),
        (["plugins", "--without", "nope"], "--without 'nope': no plugin of that name (plugins:"),
        (["conformance", str(ROOT / "src" / "oriflamme" / "core")], "no scenario found: no *"),
        (["cards", "--sets", "nope"], "unknown card set 'nope'"),
        (
            ["simulate", "--cards", "twin,archer,queen,trap,spy,heir,lord,soldier"],
            "card 'twin' needs 'prince' in the card list",
        ),
        (["play", "--cards", "archer,unicorn"], "unknown card 'unicorn'"),
        (
            ["simulate", "--sets", "base,ablaze", "--size", "3"],
            "a card list needs at least 7 card types, not 3",
        ),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_a_user_mistake_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert run_cli([*argv, "--no-plugins"] if argv else argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
    assert len(err) < 1200, "a message quotes a bounded part of what was typed"
    assert "Traceback" not in err


def test_an_unreadable_scenario_fails_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-latin1.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    good = ROOT / "tests" / "conformance" / "base" / "cards"
    first_good = sorted(good.glob("*.yaml"))[0]
    argv = ["conformance", "--no-plugins", str(tmp_path), "/dev/zero", str(first_good)]
    assert main(argv) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 passed, 2 failed"
    assert out[0] == f"FAIL {tmp_path / 'a-latin1.yaml'}: (unreadable scenario)"
    assert "a-latin1.yaml" in out[1]
    assert "UTF-8" in out[1]
    assert out[2] == "FAIL /dev/zero: (unreadable scenario)"
    assert out[3].startswith("    /dev/zero")
    assert out[4].startswith(f"PASS {first_good}")


def test_an_interrupt_ends_quietly_with_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*_args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cards_command", interrupted)
    assert main(["cards", "--no-plugins"]) == 130
    assert capsys.readouterr().err == ""


def test_an_error_on_several_lines_is_reported_on_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(*_args: object) -> int:
        raise PluginError("plugin 'odd' failed:\n  first reason\n  second reason")

    monkeypatch.setattr(cli, "plugins_command", failing)
    assert main(["plugins", "--no-plugins"]) == 2
    err = capsys.readouterr().err
    assert err == "oriflamme: error: plugin 'odd' failed: first reason second reason\n"


def _next(typed: Iterator[str], _prompt: str) -> str:
    return next(typed)


def answers(first: str, then: str = "1") -> Iterator[str]:
    yield first
    while True:
        yield then


def play_args(**changes: object) -> argparse.Namespace:
    args = argparse.Namespace(
        families=4, sets=("base",), cards=None, size=None, variant=[], seat=1, seed=5, bots="random"
    )
    for key, value in changes.items():
        setattr(args, key, value)
    return args


def test_play_reaches_the_final_scores(registry: Registry) -> None:
    out = io.StringIO()
    typed = answers("not a number")
    assert play_command(play_args(), registry, read=lambda _p: next(typed), out=out) == 0
    text = out.getvalue()
    assert "Please type a number from 1 to" in text  # bad input asks again
    assert "=== Round 6 of 6" in text
    assert "The game is over: red" in text
    assert "Your hand:" in text
    assert "Influence: red" in text


@pytest.mark.parametrize(
    "choice",
    [
        {"sets": ("ablaze",)},
        {"sets": ("base", "ablaze")},
        {"cards": ("archer", "prince", "queen", "trap", "spy", "heir", "lord", "plot")},
    ],
)
def test_play_with_ablaze_cards_reaches_the_final_scores(
    registry: Registry, choice: dict[str, object]
) -> None:
    for seed in range(4):
        out = io.StringIO()
        typed = answers("1", "2")
        args = play_args(seed=seed, **choice)
        assert play_command(args, registry, read=functools.partial(_next, typed), out=out) == 0
        assert "The game is over: red" in out.getvalue(), f"seed {seed}"


def test_play_leaves_cleanly_at_the_end_of_input(registry: Registry) -> None:
    def closed(_prompt: str) -> str:
        raise EOFError

    out = io.StringIO()
    assert play_command(play_args(), registry, read=closed, out=out) == 0
    assert "You left the game." in out.getvalue()


@pytest.mark.parametrize("typed", ["²", "٣", "9" * 5000, "", "   ", "0", "-1", "1.0", "\ufffd"])
def test_play_asks_again_whatever_is_typed(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{typed}\n" * 3))
    out = io.StringIO()
    assert play_command(play_args(), registry, out=out) == 0
    text = out.getvalue()
    assert text.count("Please type a number from 1 to 7") == 3
    assert text.endswith("You left the game.\n")  # the end of input leaves


def test_play_ends_after_too_many_wrong_answers(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n" * (MAX_WRONG + 5)))
    out = io.StringIO()
    assert play_command(play_args(), registry, out=out) == 1
    text = out.getvalue()
    assert text.count("Please type a number") == MAX_WRONG
    assert f"{MAX_WRONG} answers in a row were not one of the choices" in text


def test_a_long_line_is_cut_and_the_rest_of_it_skipped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("7" * (5 * MAX_LINE + 3) + "\n2\n"))
    assert read_line("> ") == "7" * MAX_LINE
    assert read_line("> ") == "2\n"
    with pytest.raises(EOFError):
        read_line("> ")
    assert capsys.readouterr().out == "> > > "


def test_play_reads_bytes_that_are_not_utf8_as_a_wrong_answer() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "oriflamme", "play", "--seed", "3", "--no-plugins"],
        input=b"\xff\xfe\x80\n" + b"1\n" * 400,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert b"Please type a number from 1 to 7" in result.stdout
    assert b"The game is over: " in result.stdout
    assert result.stderr == b""


def test_play_as_a_command_with_piped_answers() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "oriflamme", "play", "--seed", "3", "--no-plugins"],
        input="1\n" * 400,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "The game is over: " in result.stdout
    assert result.stderr == ""


def test_cards_flags_a_card_without_ability_and_an_ability_without_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = one_card_set(tmp_path, "odd", "mime", text="Does nothing at all.")
    registry = Registry(entry_points=False)
    registry.register(
        SimpleNamespace(
            register_card_sets=hookimpl(lambda: [sheet]),
            register_abilities=hookimpl(lambda: {"ghost": Ability()}),
        ),
        "odd",
    )
    args = argparse.Namespace(sets=None, language="en")
    assert cards_command(args, registry) == 0
    out = capsys.readouterr().out
    assert "mime           Mime" in out
    assert "Does nothing at all.  [no ability implemented]" in out
    assert (
        "[ability with no card] 'ghost': plugin odd implements it, but no set has that card" in out
    )


def test_plugins_text_lists_builtins_with_their_hooks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins", "--no-plugins"]) == 0
    out = capsys.readouterr().out
    assert "base (built in)" in out
    assert (
        "variant:   ambush_own_elimination = first_edition/revised (default first_edition)" in out
    )
    assert main(["plugins", "--no-plugins", "--without", "ablaze"]) == 0
    assert "ablaze" not in capsys.readouterr().out


def test_play_against_a_bot_of_each_kind(registry: Registry) -> None:
    out = io.StringIO()
    typed = answers("1")
    args = play_args(bots=("ismcts:iterations=3", "heuristic", "random"), seed=8)
    assert play_command(args, registry, read=lambda _p: next(typed), out=out) == 0
    text = out.getvalue()
    assert "Bots: blue (ismcts:iterations=3), green (heuristic), yellow (random)" in text
    assert "The game is over: red" in text


def test_play_names_one_bot_for_all_or_one_per_other_seat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_cli(["play", "--no-plugins", "--bots", "random,heuristic,random"]) == 2
    err = capsys.readouterr().err
    assert "--bots names 3 bots for 2 other seats: name 1 or 2" in err
    assert len(err.strip().splitlines()) == 1


def test_bots_gives_every_setting_s_default(capsys: pytest.CaptureFixture[str]) -> None:
    kinds = [
        BotKind("plain", "a kind with none", lambda rng, registry: None),
        BotKind(
            "tuned",
            "a kind with settings",
            lambda rng, registry, **settings: None,
            (
                BotSetting("depth", int, 3, "how deep", low=1, high=9),
                BotSetting("style", str, "bold", "how it plays", choices=("bold", "shy")),
                BotSetting("limit", float, None, "a cap on something", low=0),
            ),
        ),
    ]
    registry = Registry(entry_points=False)
    registry.register(SimpleNamespace(register_bot_kinds=hookimpl(lambda: kinds)), "kinds")
    assert bots_command(argparse.Namespace(json=False), registry) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = lines.index("Bot kinds, with their settings (--bots KIND):")  # after the levels
    settings = [line for line in lines[listed:] if line.startswith("  ")]
    # Every setting of every kind, built in or a plugin's, with its default.
    assert len(settings) == 4 + 3
    assert all("(default " in line for line in settings), settings
    assert (
        "  ismcts:playout=... one of heuristic, learned, random: how searched games are played "
        in "\n".join(settings)
    )
    assert any(line.endswith("(default heuristic)") for line in settings)
    assert any(
        line.startswith("  ismcts:exploration=") and line.endswith("(default 0.7)")
        for line in settings
    )
    assert "  tuned:depth=... from 1 to 9: how deep (default 3)" in settings
    assert "  tuned:style=... one of bold, shy: how it plays (default bold)" in settings
    assert "  tuned:limit=... at least 0: a cap on something (default none)" in settings
    assert "random: plays any legal answer, uniformly at random (no settings)" in lines
    assert "plain (plugin kinds): a kind with none (no settings)" in lines
