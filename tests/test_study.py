"""``oriflamme study``: the tallies against games walked by hand, the same totals whatever
the number of processes, the files and plots written, and a mistake in one clear line."""

from __future__ import annotations

import csv
import errno
import json
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import oriflamme.study
import oriflamme.study.run
from oriflamme import COLOURS, Game, GameConfig, Registry
from oriflamme.bots import play_out
from oriflamme.bots.kinds import parse_bots
from oriflamme.cli import main
from oriflamme.events import Eliminated, Gained, Lost, Placed, Revealed, Stolen
from oriflamme.simulate import simulate
from oriflamme.study.report import FILES, PLOTS
from oriflamme.study.run import play_games
from oriflamme.study.tally import CARD_FIELDS, GROUPS, SHARE, Tally
from oriflamme.testing import game_at
from oriflamme.text import quote

PNG = b"\x89PNG\r\n\x1a\n"


def run_cli(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exit:  # argparse's own errors leave this way
        return int(exit.code or 0)


def played(registry: Registry, config: GameConfig, seed: int, bots: str) -> tuple[Game, int]:
    """Game ``seed`` of a study of ``config``, dealt and played as a study plays it."""
    choices = parse_bots((bots,), len(config.families), registry)
    rng = random.Random(seed)
    game = Game.new(config, registry=registry, record=True, seed=seed, rng=rng)
    players = {f: c.make(rng, registry) for f, c in zip(config.families, choices, strict=True)}
    return game, play_out(game, players)


def by_hand(game: Game) -> dict[str, Counter[str]]:
    """Some of a study's counts for one game, from its events and its referee's view:
    copies (card ids) placed by their family, revealed, eliminated, kept back; cards
    eliminated by each; Influence each brought its own family, tokens aside (1 per token:
    a Conspiracy's doubling is its ability)."""
    position = game.position()
    key = {card: label.split(".")[1] for label, card in position.ids.items()}
    colour = {card: label.split(".")[0] for label, card in position.ids.items()}
    copies: dict[str, set[int]] = {name: set() for name in ("placed", "revealed", "eliminated")}
    counts: dict[str, Counter[str]] = {"kills": Counter(), "gain": Counter(), "kept": Counter()}
    for event in game.events:
        if isinstance(event, Placed) and event.family == colour[event.card]:
            copies["placed"].add(event.card)
        if isinstance(event, Revealed):
            copies["revealed"].add(event.card)
            # The tokens are not the ability's: what a reveal gains beyond them is.
            counts["gain"][key[event.card]] -= min(event.gained, event.tokens)
        if isinstance(event, Eliminated):
            copies["eliminated"].add(event.card)
            if event.by is not None:
                counts["kills"][key[event.by]] += 1
        if (
            isinstance(event, Gained)
            and event.card is not None
            and event.family == colour[event.card]
        ):
            counts["gain"][key[event.card]] += event.amount
        if (
            isinstance(event, Stolen)
            and event.card is not None
            and event.thief == colour[event.card]
        ):
            counts["gain"][key[event.card]] += event.amount
    for name, cards in copies.items():
        counts[name] = Counter(key[card] for card in cards)
    for labels in position.hands.values():
        for label in labels:
            counts["kept"][label.split(".")[1]] += 1
    return counts


@pytest.mark.parametrize(
    ("options", "bots"),
    [
        ({"sets": ("base",)}, "random"),
        ({"sets": ("ablaze",)}, "heuristic"),
        ({"sets": ("base", "ablaze")}, "heuristic"),
    ],
)
def test_a_game_tallied_as_walked_by_hand(
    registry: Registry, options: dict[str, Any], bots: str
) -> None:
    seeds = range(11, 15)
    print(f"seeds={seeds.start}..{seeds.stop - 1} {options} {bots}")
    config = GameConfig(families=COLOURS[:3], seed=seeds.start, **options)
    for seed in seeds:
        game, decisions = played(registry, config, seed, bots)
        tally = Tally(config.families)
        tally.add(game, decisions)
        # The study's own loop plays the very same game.
        alone = play_games(
            config, range(seed, seed + 1), registry, parse_bots((bots,), 3, registry)
        )
        assert alone.to_dict() == tally.to_dict()
        counts = by_hand(game)
        checked = set()
        for key in set(game.cards):
            row = tally.card(key)
            assert row["games"] == 1
            assert row["copies"] == 3 * game.cards.count(key)
            assert row["placed"] == counts["placed"][key], key
            assert row["revealed"] == counts["revealed"][key], key
            assert row["eliminated"] == counts["eliminated"][key], key
            assert row["eliminations"] == counts["kills"][key], key
            assert row["kept_back"] == counts["kept"][key], key
            assert row["ability_gain"] == counts["gain"][key], key
            checked.add(key)
        assert sum(tally.card(key)["kept_back"] for key in checked) == 3  # one card each
        won = set(game.winners)
        for seat, family in enumerate(config.families):
            assert tally.seats[seat][0] == int(won == {family})
            assert tally.seats[seat][3] == game.scores[family]


def test_a_lord_and_a_spy_by_hand(registry: Registry) -> None:
    """A hand-checked game: every Influence a Lord and a Spy brought their family, the
    tokens their reveals gained, and what the Spy took from others, read off the log."""
    seed = 5
    print(f"seed={seed}")
    config = GameConfig(families=COLOURS[:3], seed=seed)
    game, decisions = played(registry, config, seed, "random")
    tally = Tally(config.families)
    tally.add(game, decisions)
    labels = {card: label for label, card in game.position().ids.items()}
    ability = {"lord": 0, "spy": 0}
    tokens = {"lord": 0, "spy": 0}
    taken = {"lord": 0, "spy": 0}
    for event in game.events:
        card = getattr(event, "card", None)
        family, key = labels[card].split(".")[:2] if card is not None else ("", "")
        if key not in ability:
            continue
        if isinstance(event, Revealed):
            tokens[key] += event.gained
            ability[key] -= event.gained  # the reveal's gain event names the card too
        if isinstance(event, Gained):
            assert event.family == family, "no Bribery in the base game"
            ability[key] += event.amount
        if isinstance(event, Stolen):
            assert (key, event.thief) == ("spy", family)
            ability[key] += event.amount
            taken[key] += event.amount
        assert not isinstance(event, Lost), "neither card makes anyone lose Influence"
    for key, gain in ability.items():
        row = tally.card(key)
        assert row["ability_gain"] == gain, key
        assert row["token_gain"] == tokens[key], key
        assert row["ability_loss_others"] == taken[key], key
        assert row["ability_loss"] == row["ability_gain_others"] == 0
    # The seed was chosen for a game where both did something.
    assert min(ability.values()) > 0
    assert taken["spy"] > 0


def test_a_conspiracy_by_hand() -> None:
    """A hand-checked position: a Conspiracy's reveal gains 1 per token as token gain and
    as much again by its ability; an Heir's reveal gains its tokens as token gain only."""
    game = game_at(
        {
            "round": 6,
            "phase": "resolution",
            "influence": {"red": 2, "blue": 3, "green": 1},
            "queue": [
                {"card": "red.conspiracy", "tokens": 3},
                {"card": "blue.conspiracy", "tokens": 1},
                {"card": "green.heir", "tokens": 2},
            ],
            "hands": {"red": ["red.heir"], "blue": ["blue.lord"], "green": ["green.lord"]},
        }
    )
    for family in ("red", "blue", "green"):
        decision = game.decision
        assert decision is not None
        assert (decision.family, decision.kind) == (family, "reveal")
        game.answer(True)
    assert game.decision is None
    # Red: 3 tokens, doubled, 2 + 6 = 8. Blue: 1 token, doubled, 3 + 2 = 5. Green: 2
    # tokens, then the Heir's 2 (no other face-up Heir), 1 + 2 + 2 = 5.
    assert game.scores == {"red": 8, "blue": 5, "green": 5}
    tally = Tally(game.families)
    tally.add(game, 3)
    conspiracy = tally.card("conspiracy")
    assert conspiracy["revealed"] == 2
    assert conspiracy["token_gain"] == 3 + 1
    assert conspiracy["ability_gain"] == 3 + 1
    assert conspiracy["ability_gain_squares"] == 3 * 3 + 1 * 1  # per copy: red's, blue's
    assert conspiracy["token_gain_squares"] == 3 * 3 + 1 * 1
    assert conspiracy["ability_gain_others"] == conspiracy["ability_loss_others"] == 0
    heir = tally.card("heir")
    assert (heir["token_gain"], heir["ability_gain"]) == (2, 2)
    assert heir["token_gain_squares"] == 2 * 2  # green's; red's Heir stayed in hand


@pytest.mark.parametrize(
    ("sets", "families", "bots"),
    [("base", 3, "random"), ("ablaze", 4, "heuristic"), ("base,ablaze", 5, "random")],
)
def test_totals_add_up(registry: Registry, sets: str, families: int, bots: str) -> None:
    seed, games = 100, 40
    print(f"seed={seed} games={games} sets={sets}")
    config = GameConfig(families=COLOURS[:families], sets=tuple(sets.split(",")), seed=seed)
    choices = parse_bots((bots,), families, registry)
    tally = play_games(config, range(seed, seed + games), registry, choices)
    assert tally.games == games
    # Whole shares: every game hands out exactly one win.
    assert sum(row[2] for row in tally.seats) == games * SHARE
    assert sum(row[2] for row in tally.turns) == games * SHARE
    rows = [tally.card(key) for key in tally.cards]
    assert sum(row["kept_back"] for row in rows) == games * families  # one card each
    assert sum(row["copies"] for row in rows) == sum(row["games"] for row in rows) * families
    for key in tally.cards:
        row = tally.card(key)
        reserve = key == "twin"  # never dealt: it waits beside its family
        assert row["dealt"] + row["set_aside"] == (0 if reserve else row["copies"]), key
        assert row["kept_back"] <= row["dealt"]
        assert row["revealed"] <= row["placed"] <= row["copies"]
        assert row["eliminated_face_down"] <= row["eliminated"] <= row["placed"]
        for group in ("placed", "revealed", "kept_back", "set_aside"):
            assert row[f"{group}_wins"] + row[f"{group}_shared_wins"] <= row[group]
            assert row[f"{group}_share"] <= SHARE * row[group]
    assert tally.card("lord" if "base" in sets else "queen")["ability_gain"] > 0
    if sets == "base":
        # A Conspiracy's reveal gains its tokens twice: once as tokens, once by its
        # ability; it names no other gain (no Bribery here to hand it to another family).
        conspiracy = tally.card("conspiracy")
        assert conspiracy["ability_gain"] == conspiracy["token_gain"] > 0
        assert conspiracy["ability_gain_others"] == 0
    # Merged in any order, the same totals.
    halves = [
        play_games(config, range(seed + games // 2, seed + games), registry, choices),
        play_games(config, range(seed, seed + games // 2), registry, choices),
    ]
    merged = Tally(config.families)
    for part in halves:
        merged.merge(part)
    assert merged.to_dict() == tally.to_dict()
    assert Tally.from_dict(json.loads(json.dumps(tally.to_dict()))) == tally


def test_the_seats_are_simulates_games(registry: Registry) -> None:
    seed, games = 300, 50
    print(f"seed={seed}")
    config = GameConfig(families=COLOURS[:4], seed=seed)
    tally = play_games(
        config, range(seed, seed + games), registry, parse_bots(("random",), 4, registry)
    )
    summary = simulate(config, games, registry, bots=("random",))
    assert [row[0] for row in tally.seats] == summary.wins
    assert [row[1] for row in tally.seats] == summary.shared
    assert [row[3] for row in tally.seats] == summary.score_total
    assert tally.decisions == summary.decisions


def study(capsys: pytest.CaptureFixture[str], out: Path, *options: str) -> list[str]:
    argv = ["study", "--no-plugins", "--progress", "never", "--out", str(out), *options]
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()


def read(out: Path, name: str) -> Any:
    return json.loads((out / name).read_text(encoding="utf-8"))


def test_the_totals_do_not_depend_on_the_number_of_processes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seed = 21
    print(f"seed={seed}", file=sys.stderr)  # stdout is what the command prints
    # 300 games: more than one share (250), so two processes really share them out.
    common = ("--games", "300", "--seed", str(seed), "--sets", "base")
    alone = study(capsys, tmp_path / "one", *common, "--jobs", "1")
    two = study(capsys, tmp_path / "two", *common, "--jobs", "2")
    assert alone[0].startswith("300 games, 3 families, sets base, seeds 21 to 320, 1 process,")
    assert two[0].startswith("300 games, 3 families, sets base, seeds 21 to 320, 2 processes,")
    assert alone[1] == two[1]
    for name in ("totals.json", "cards.json", "seats.json"):
        first, second = read(tmp_path / "one", name), read(tmp_path / "two", name)
        assert first.pop("study").pop("where") == "1 process"
        assert second.pop("study").pop("where") == "2 processes"
        # The same file, keys in the same order too: a diff of two runs shows nothing.
        assert json.dumps(first) == json.dumps(second), name
    for name in ("cards.csv", "seats.csv"):
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


@pytest.mark.parametrize(
    ("sets", "cards"),
    [("base", 10), ("ablaze", 11), ("base,ablaze", 21)],
)
def test_the_files_and_plots(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, sets: str, cards: int
) -> None:
    seed = 3
    print(f"seed={seed}", file=sys.stderr)
    out = tmp_path / "made" / "if missing"
    lines = study(capsys, out, "--games", "30", "--seed", str(seed), "--sets", sets, "--jobs", "1")
    assert lines[0].startswith(f"30 games, 3 families, sets {sets}, seeds 3 to 32, 1 process")
    assert lines[1].startswith("win rate when placed: highest ")
    for name in [*FILES, *PLOTS.values()]:
        assert str(out / name) in lines[2]
    for name in PLOTS.values():
        data = (out / name).read_bytes()
        assert data.startswith(PNG), name
        assert len(data) > 10_000, name  # a drawing, not an empty canvas
    with (out / "cards.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    if sets == "base,ablaze":  # 10 types drawn a game: 30 games meet most of the 21
        assert 10 < len(rows) <= cards
    else:
        assert len(rows) == cards
    data = read(out, "cards.json")
    assert data["study"]["games"] == 30
    assert data["study"]["seeds"] == [3, 32]
    assert [row["card"] for row in data["rows"]] == [row["card"] for row in rows]
    for row, line in zip(data["rows"], rows, strict=True):
        assert list(row) == list(line)
        # Every rate is the counts' own: the CSV rounds it to 6 figures.
        if row["placed"]:
            assert float(line["placed_win_rate"]) == pytest.approx(row["placed_win_rate"], 1e-5)
            assert 0 <= row["placed_ci_low"] <= row["placed_win_rate"] <= row["placed_ci_high"]
        else:
            assert line["placed_win_rate"] == ""
            assert row["placed_win_rate"] is None
    seats = read(out, "seats.json")["rows"]
    assert [(s["by"], s["number"]) for s in seats] == [
        ("seat", 1),
        ("seat", 2),
        ("seat", 3),
        ("turn", 1),
        ("turn", 2),
        ("turn", 3),
    ]
    assert sum(s["win_rate"] for s in seats if s["by"] == "seat") == pytest.approx(1)
    assert sum(s["win_rate"] for s in seats if s["by"] == "turn") == pytest.approx(1)
    totals = read(out, "totals.json")["totals"]
    assert set(next(iter(totals["cards"].values()))) == set(CARD_FIELDS)
    summary = (out / "summary.md").read_text(encoding="utf-8")
    for name in PLOTS.values():
        assert f"]({name})" in summary
    ranked = sorted((r for r in data["rows"] if r["placed"]), key=lambda r: -r["placed_win_rate"])
    assert f"Strongest: **{ranked[0]['name']}**" in summary
    assert f"Weakest: **{ranked[-1]['name']}**" in summary


def test_every_column_is_documented(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    study(capsys, tmp_path, "--games", "5", "--jobs", "1")
    documented = oriflamme.study.__doc__ or ""
    for name in ("cards.json", "seats.json"):
        data = read(tmp_path, name)
        for column in [*data["rows"][0], *data["study"]]:
            # A column of each moment (placed_wins...) is documented once, as M_wins.
            moment = next((g for g in GROUPS if column.startswith(f"{g}_")), None)
            general = f"``M_{column.removeprefix(f'{moment}_')}``" if moment else ""
            assert f"``{column}``" in documented or general in documented, column


def test_a_file_for_a_folder_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "results"
    path.write_text("keep me")
    assert run_cli(["study", "--no-plugins", "--games", "3", "--out", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("oriflamme: error: --out ")
    assert "is a file: name a folder" in err
    assert len(err.splitlines()) == 1
    assert path.read_text() == "keep me"
    # A folder that cannot be made (in that file) is refused before any game too.
    assert run_cli(["study", "--no-plugins", "--games", "3", "--out", str(path / "in")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("oriflamme: error: --out ")
    assert "cannot make that folder: Not a directory" in err
    assert len(err.splitlines()) == 1


def test_an_empty_out_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # what --out '' would have written into
    assert run_cli(["study", "--no-plugins", "--games", "3", "--out", ""]) == 2
    assert capsys.readouterr().err == (
        "oriflamme: error: --out is empty: name a folder (made if missing)\n"
    )
    assert not list(tmp_path.iterdir())


def refuse_to_play(monkeypatch: pytest.MonkeyPatch) -> None:
    def play(*args: object, **options: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(oriflamme.study.run, "run_jobs", play)


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() == 0,
    reason="permissions do not stop root (nor work so on Windows)",
)
def test_a_folder_that_cannot_be_written_is_refused_before_any_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    refuse_to_play(monkeypatch)
    out = tmp_path / "locked"
    out.mkdir(mode=0o500)
    try:
        assert run_cli(["study", "--no-plugins", "--games", "3", "--out", str(out)]) == 2
    finally:
        out.chmod(0o700)
    err = capsys.readouterr().err
    assert err.startswith(
        f"oriflamme: error: --out {quote(str(out))}: cannot write in that folder: "
    )
    assert "Permission denied" in err
    assert len(err.splitlines()) == 1
    assert not list(out.iterdir())


def test_a_folder_where_writing_fails_is_refused_before_any_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As above, for any user (root too): the trial file cannot be written."""
    refuse_to_play(monkeypatch)

    def unwritable(*args: object, **options: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", unwritable)
    out = tmp_path / "out"
    assert run_cli(["study", "--no-plugins", "--games", "3", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"oriflamme: error: --out {quote(str(out))}: cannot write in that folder: "
        "Permission denied\n"
    )


def test_a_written_folder_keeps_no_trial_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    study(capsys, tmp_path, "--games", "3", "--jobs", "1")
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([*FILES, *PLOTS.values()])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "argument --games: must be at least 1, not 0"),
        (["--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
        (["--families", "7"], "a game has 3 to 5 families, not 7"),
        (["--sets", "nope"], "unknown card set 'nope'"),
        (["--bots", "genius"], "genius"),
        (["--bots", "random,random"], "--bots names 2 bots for 3 seats"),
        (["--seed", "x"], "argument --seed: not a whole number in digits 0-9: 'x'"),
        (["--jobs", "2", "--ray", "auto"], "argument --ray: not allowed with argument --jobs"),
        (["--seed", str(2**63 - 1), "--games", "2"], "the last game's seed"),
    ],
)
def test_a_mistake_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    out = tmp_path / "out"
    assert run_cli(["study", "--no-plugins", "--out", str(out), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert not out.exists(), "nothing is written for a mistake"


def test_out_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["study", "--no-plugins"]) == 2
    err = capsys.readouterr().err
    assert "the following arguments are required: --out" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "missing",
    [
        (
            "matplotlib",
            [],
            "the study's plots need matplotlib: pip install 'matplotlib>=3.7' 'ray>=2.9'",
        ),
        ("ray", ["--ray", "local"], "--ray needs Ray: pip install 'matplotlib>=3.7' 'ray>=2.9'"),
    ],
)
def test_a_missing_extra_is_named(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    missing: tuple[str, list[str], str],
) -> None:
    module, argv, message = missing
    # None in sys.modules makes `import` fail as if the package were not installed.
    monkeypatch.setitem(sys.modules, module, None)
    out = tmp_path / "out"
    assert run_cli(["study", "--no-plugins", "--games", "3", "--out", str(out), *argv]) == 2
    assert capsys.readouterr().err == f"oriflamme: error: {message}\n"
    assert not out.exists()


def test_a_ray_address_where_nothing_answers_is_refused_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("ray")
    out = tmp_path / "out"
    # Port 1 of this machine: refused at once (Ray itself would retry for minutes).
    argv = ["study", "--no-plugins", "--games", "3", "--out", str(out), "--ray", "127.0.0.1:1"]
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("oriflamme: error: --ray 127.0.0.1:1: nothing answers there (")
    assert len(err.splitlines()) == 1
    assert not out.exists()
