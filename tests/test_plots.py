"""The study's and the ladder's figures, drawn from small real runs and saved: every
title, axis label and bar figure lies inside the figure, no title sits on a frame, and
every bar says how many it counts (n=...)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from oriflamme.cli import main

pytest.importorskip("matplotlib")

import matplotlib

matplotlib.use("Agg")  # a file, never a window

import matplotlib.pyplot as plt
from matplotlib.container import BarContainer

from oriflamme.bots.plot import figure_of
from oriflamme.study.plot import figures

#: A pixel's slack for rounding.
SLACK = 1.0


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    print(f"argv={argv}", file=sys.stderr)  # the seeds, for a failure's report
    assert main(argv) == 0
    return capsys.readouterr().out


def texts(figure: Any) -> list[Any]:
    """The figure's titles, axis labels, tick labels and the texts drawn on its axes."""
    found = list(figure.texts)
    if figure._suptitle is not None:
        found.append(figure._suptitle)
    for axes in figure.axes:
        found += [axes.title, axes._left_title, axes._right_title]
        found += [axes.xaxis.label, axes.yaxis.label, *axes.texts]
        for axis in (axes.xaxis, axes.yaxis):
            # The ticks drawn: a locator may offer some beyond the axis's ends.
            low, high = sorted(axis.get_view_interval())
            found += [t.label1 for t in axis.get_major_ticks() if low <= t.get_loc() <= high]
    return [text for text in found if text.get_visible() and text.get_text()]


def inside(box: Any, frame: Any) -> bool:
    return bool(
        box.x0 >= frame.x0 - SLACK
        and box.y0 >= frame.y0 - SLACK
        and box.x1 <= frame.x1 + SLACK
        and box.y1 <= frame.y1 + SLACK
    )


def check(figure: Any, path: Path, bars: dict[int, int]) -> None:
    """Save ``figure`` to ``path`` and check its layout as saved: ``bars`` maps each
    axes (by number) to how many bars on it must carry a count."""
    figure.savefig(path, dpi=110)
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    renderer = figure.canvas.get_renderer()
    frame = figure.bbox
    title = figure._suptitle
    assert title is not None
    assert title.get_text()
    for text in texts(figure):
        box = text.get_window_extent(renderer)
        assert inside(box, frame), f"{path.name}: {text.get_text()!r} at {box} outside {frame}"
    heading = title.get_window_extent(renderer)
    for number, axes in enumerate(figure.axes):
        plot = axes.get_window_extent(renderer)
        # The figure's title above every panel, not across its frame.
        assert heading.y0 >= plot.y1 - SLACK, f"{path.name}: the title sits on panel {number}"
        if axes.title.get_text():
            top = axes.title.get_window_extent(renderer)
            assert top.y0 >= plot.y1 - SLACK, f"{path.name}: panel {number}'s title on its frame"
        # A bar's figure (its count, or a rating) lies within its panel's frame, not
        # across it.
        labels = [text for text in axes.texts if "n=" in text.get_text()]
        for label in axes.texts:
            box = label.get_window_extent(renderer)
            assert box.y1 < plot.y1, f"{path.name}: {label.get_text()!r} on the frame's top"
            assert box.x1 < plot.x1, f"{path.name}: {label.get_text()!r} on the frame's side"
            assert inside(box, plot), f"{path.name}: {label.get_text()!r} outside its panel"
        drawn = [c for c in axes.containers if isinstance(c, BarContainer)]
        assert len(labels) == bars.get(number, 0), (path.name, number, len(labels))
        if number in bars:
            assert drawn, path.name
    plt.close(figure)


@pytest.mark.parametrize(("sets", "families"), [("base", 3), ("ablaze", 4), ("base,ablaze", 5)])
def test_the_study_figures_keep_everything_inside(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, sets: str, families: int
) -> None:
    out = tmp_path / "study"
    argv = ["study", "--no-plugins", "--progress", "never", "--jobs", "1", "--out", str(out)]
    run(
        capsys, [*argv, "--games", "40", "--seed", "5", "--sets", sets, "--families", str(families)]
    )
    cards = json.loads((out / "cards.json").read_text(encoding="utf-8"))
    seats = json.loads((out / "seats.json").read_text(encoding="utf-8"))
    study = cards["study"]
    placed = [row for row in cards["rows"] if row["placed"]]
    moments = sum(
        row[f"{group}_win_rate"] is not None
        for row in placed
        for group in ("placed", "revealed", "kept_back")
    )
    expected = {
        "win_rates": {0: moments},
        "ability": {0: 2 * len(placed)},
        "eliminated": {0: len(placed)},
        "seats": {0: families, 1: families},
    }
    drawn = figures(study, cards["rows"], seats["rows"])
    assert set(drawn) == set(expected)
    for name, figure in drawn.items():
        check(figure, tmp_path / f"{name}.png", expected[name])


def test_a_small_count_is_shown_beside_its_bar(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "study"
    argv = ["study", "--no-plugins", "--progress", "never", "--jobs", "1", "--out", str(out)]
    run(capsys, [*argv, "--games", "40", "--seed", "5", "--sets", "base"])
    cards = json.loads((out / "cards.json").read_text(encoding="utf-8"))
    seats = json.loads((out / "seats.json").read_text(encoding="utf-8"))
    figure = figures(cards["study"], cards["rows"], seats["rows"])["win_rates"]
    shown = {text.get_text() for text in figure.axes[0].texts}
    for row in cards["rows"]:
        rate = row["kept_back_win_rate"]
        if rate is not None:
            assert f"{100 * rate:.1f}% n={row['kept_back']:,}" in shown, row["card"]
    plt.close("all")


def test_the_ladder_figure_keeps_everything_inside(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["ladder", "--no-plugins", "--progress", "never", "--jobs", "1", "--json"]
    out = run(capsys, [*argv, "--bots", "random,heuristic", "--matches", "pairs", "--games", "9"])
    data = json.loads(out)
    figure = figure_of(data)
    check(figure, tmp_path / "ladder.png", {0: len(data["matches"])})
    # The Elo panel: a bar per bot, its interval drawn, its figure above it and below
    # the frame's top.
    assert [b["bot"] for b in data["bots"]] == ["random", "heuristic"]
    for bot in data["bots"]:
        low, high = bot["elo_ci95"]
        assert low <= bot["elo"] <= high
