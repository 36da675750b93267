"""The ladder: seat-rotated matches, their win rates with 95% intervals, Elo ratings
fitted to every game, the same results whatever the number of processes, and a plot."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from oriflamme.bots.rating import Games, Tally, elo, elo_intervals, wilson
from oriflamme.cli import main


def test_wilson_matches_the_textbook_interval() -> None:
    low, high = wilson(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4)
    assert math.isclose(high, 0.5962, abs_tol=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_recovers_the_strengths_that_made_the_results() -> None:
    # Luce model: a bot of strength s wins against two of strength 1 with s / (s + 2).
    # Strength 18 (Elo +502) wins 90% against two anchors; 2x that (+120) wins half
    # against two of it.
    ratings = elo(
        [
            Tally({"strong": 1, "anchor": 2}, 30_000, {"strong": 27_000, "anchor": 3_000}),
            Tally({"stronger": 1, "strong": 2}, 30_000, {"stronger": 15_000, "strong": 15_000}),
        ],
        "anchor",
    )
    assert ratings["anchor"] == 0.0
    assert math.isclose(ratings["strong"], 400 * math.log10(18), abs_tol=1.0)
    assert math.isclose(ratings["stronger"], 400 * math.log10(36), abs_tol=1.0)


def test_elo_is_finite_for_a_bot_that_never_wins() -> None:
    ratings = elo([Tally({"hopeless": 1, "anchor": 2}, 100, {"anchor": 100})], "anchor")
    assert -2000 < ratings["hopeless"] < -300


def _elo_of(rate: float) -> float:
    # Luce model: strength s against two anchors wins s / (s + 2).
    return 400 * math.log10(2 * rate / (1 - rate))


def test_elo_intervals_are_a_seeded_bootstrap_over_games() -> None:
    # 400 games of one bot against two anchors, 360 won: its rating's interval should be
    # about the Wilson interval of 90% carried through the Luce model, and a quarter the
    # games twice as wide.
    def table(games: int) -> Games:
        won = games * 9 // 10
        return Games(
            {"strong": 1, "anchor": 2},
            [({"strong": 1.0, "anchor": 0.0}, won), ({"strong": 0.0, "anchor": 1.0}, games - won)],
        )

    assert table(400).tally() == Tally(
        {"strong": 1, "anchor": 2}, 400, {"strong": 360.0, "anchor": 40.0}
    )
    found = elo_intervals([table(400)], "anchor")
    assert found == elo_intervals([table(400)], "anchor")  # the same draws: seeded
    assert found["anchor"] == (0.0, 0.0)
    low, high = found["strong"]
    point = elo([table(400).tally()], "anchor")["strong"]
    assert low < point < high
    wilson_low, wilson_high = wilson(360, 400)
    assert low == pytest.approx(_elo_of(wilson_low), abs=25)
    assert high == pytest.approx(_elo_of(wilson_high), abs=25)
    other = elo_intervals([table(400)], "anchor", seed=1)["strong"]
    assert other == pytest.approx((low, high), abs=15)  # another seed: about the same
    small_low, small_high = elo_intervals([table(100)], "anchor")["strong"]
    assert 1.6 < (small_high - small_low) / (high - low) < 2.6


def ladder(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    argv = ["ladder", "--no-plugins", "--progress", "never", "--json", *args]
    print(f"argv={argv}", file=sys.stderr)  # the seeds, for a failure's report
    assert main(argv) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_a_ladder_rates_every_rung_and_its_results_do_not_depend_on_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    common = ("--bots", "random,heuristic,ismcts:iterations=3", "--games", "6", "--seed", "40")
    alone = ladder(capsys, *common, "--jobs", "1")
    two = ladder(capsys, *common, "--jobs", "2")
    for data in (alone, two):
        data.pop("heading")
        for bot in data["bots"]:  # type: ignore[attr-defined]
            bot.pop("seconds_per_decision")
            bot.pop("slowest_decision")
    assert alone == two
    matches = alone["matches"]
    assert [(m["challenger"], m["field"]) for m in matches] == [  # type: ignore[attr-defined]
        ("heuristic", "random"),
        ("ismcts:iterations=3", "heuristic"),
    ]
    for match in matches:  # type: ignore[attr-defined]
        assert match["games"] == 6
        low, high = match["ci95"]
        assert low <= match["win_rate"] <= high
        assert match["fair_share"] == pytest.approx(1 / 3)
    ratings = {b["bot"]: b["elo"] for b in alone["bots"]}  # type: ignore[attr-defined]
    assert ratings["random"] == 0.0
    assert set(ratings) == {"random", "heuristic", "ismcts:iterations=3"}
    for bot in alone["bots"]:  # type: ignore[attr-defined]
        low, high = bot["elo_ci95"]
        assert low <= bot["elo"] <= high, bot
    anchor = next(b for b in alone["bots"] if b["bot"] == "random")  # type: ignore[attr-defined]
    assert anchor["elo_ci95"] == [0.0, 0.0]


def test_pairs_plays_every_ordered_pair(capsys: pytest.CaptureFixture[str]) -> None:
    data = ladder(capsys, "--bots", "random,heuristic", "--matches", "pairs", "--games", "3")
    pairs = [(m["challenger"], m["field"]) for m in data["matches"]]  # type: ignore[attr-defined]
    assert pairs == [("random", "heuristic"), ("heuristic", "random")]


def test_the_text_table_and_the_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "ladder.png"
    args = ["ladder", "--no-plugins", "--progress", "never", "--bots", "random,heuristic"]
    assert main([*args, "--games", "9", "--families", "4", "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ladder: 4 families, sets base, 9 games a match (seeds 0 to 8)")
    assert "heuristic vs 3 x random" in out
    assert "25.0%" in out  # the fair share of 4 families
    assert f"plot: {plot}" in out
    assert plot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random"], "--bots names the bots of a ladder: at least 2 different ones"),
        (["--bots", "random,random"], "at least 2 different ones"),
        (["--bots", "random,genius"], "unknown bot 'genius'"),
        (["--plot", "ladder.svg"], "--plot writes a PNG file: its name ends in .png"),
        (["--plot", "/no/such/folder/x.png"], "no folder '/no/such/folder' to write it in"),
        (["--games", "0"], "argument --games: must be at least 1, not 0"),
        (["--matches", "all"], "argument --matches: invalid choice: 'all'"),
    ],
)
def test_a_ladder_mistake_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    try:
        status = main(["ladder", "--no-plugins", "--games", "2", *args])
    except SystemExit as exit:
        status = int(exit.code or 0)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
