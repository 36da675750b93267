"""The ladder drawn: win rates with their intervals beside each match's fair share, and
the bots' Elo ratings. Needs matplotlib, the optional extra ``oriflamme[plot]``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from oriflamme import ConfigError
from oriflamme.installed import extra

Plot = Callable[[dict[str, Any], str], None]


def check_plot(path: str) -> Plot:
    """The function that draws a ladder into ``path``, once the file is known to be a
    PNG that can be written and matplotlib is there: refused before any game is played."""
    if not path.lower().endswith(".png"):
        raise ConfigError(f"--plot writes a PNG file: its name ends in .png, not {path!r}")
    folder = Path(path).parent
    if not folder.is_dir():
        raise ConfigError(f"--plot {path}: no folder {str(folder)!r} to write it in")
    try:
        import matplotlib  # noqa: PLC0415 - an optional extra, imported when asked for
    except ImportError:
        raise ConfigError(f"--plot needs matplotlib, the plot extra: {extra('plot')}") from None
    matplotlib.use("Agg")  # a file, never a window
    return draw


def draw(data: dict[str, Any], path: str) -> None:
    """Draw the ladder ``data`` (see :func:`oriflamme.bots.ladder.summary`) into ``path``."""
    import matplotlib.pyplot as plt  # noqa: PLC0415 - an optional extra

    figure = figure_of(data)
    # Constrained layout keeps the title and every label inside the figure; the tight
    # box is the last guard against anything drawn past its edge.
    figure.savefig(path, dpi=110, bbox_inches="tight", pad_inches=0.1)
    plt.close(figure)


def figure_of(data: dict[str, Any]) -> Any:
    """The ladder's figure, not yet saved: the matches' win rates, each with its
    interval, its count and its fair share, and the bots' Elo ratings with theirs."""
    import matplotlib.pyplot as plt  # noqa: PLC0415 - an optional extra

    rows = data["matches"]
    bots = data["bots"]
    figure, (left, right) = plt.subplots(
        1,
        2,
        figsize=(11, 1.8 + 0.55 * max(len(rows), len(bots))),
        width_ratios=(3, 2),
        layout="constrained",
    )
    labels = [
        f"{r['challenger']}\nvs {round(1 / r['fair_share']) - 1} x {r['field']}" for r in rows
    ]
    rates = [100 * r["win_rate"] for r in rows]
    below = [100 * (r["win_rate"] - r["ci95"][0]) for r in rows]
    above = [100 * (r["ci95"][1] - r["win_rate"]) for r in rows]
    places = list(range(len(rows)))[::-1]
    left.barh(places, rates, xerr=[below, above], color="#4c72b0", capsize=4)
    for place, row, rate in zip(places, rows, rates, strict=True):
        fair = 100 * row["fair_share"]
        left.plot([fair, fair], [place - 0.4, place + 0.4], color="#c44e52", linestyle="--")
        # Beside the interval's end, so that the bar's figure never sits on it.
        left.text(
            100 * row["ci95"][1] + 1.5,
            place,
            f"{rate:.1f}% n={row['games']:,}",
            va="center",
            fontsize=8,
        )
    left.set_yticks(places, labels, fontsize=8)
    # Room past 100% for the figure beside a bar; the ticks stop at 100.
    left.set_xlim(0, 125)
    left.set_xticks(range(0, 101, 20))
    left.set_xlabel("challenger's win rate, % (95% CI; dashed: fair share)")
    names = [b["bot"] for b in bots]
    ratings = [b["elo"] for b in bots]
    lows = [b["elo_ci95"][0] for b in bots]
    highs = [b["elo_ci95"][1] for b in bots]
    spread = [
        [max(0.0, r - low) for r, low in zip(ratings, lows, strict=True)],
        [max(0.0, high - r) for r, high in zip(ratings, highs, strict=True)],
    ]
    right.bar(range(len(bots)), ratings, yerr=spread, color="#55a868", capsize=4)
    right.set_title("Elo: 95% CI by bootstrap over games", fontsize=8)
    right.axhline(0, color="#444444", linewidth=0.8)
    right.set_xticks(range(len(bots)), names, rotation=20, ha="right", fontsize=8)
    right.set_ylabel(f"Elo ({data['anchor']} = 0), 95% CI")
    for place, (rating, high) in enumerate(zip(ratings, highs, strict=True)):
        # Above the interval's top, so that the figure never sits on the error bar.
        right.annotate(
            f"{rating:+.0f}",
            (place, max(rating, high, 0.0)),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=8,
        )
    # Room above the highest label and below the lowest bar: no label touches the frame.
    top = max([*highs, *ratings, 0.0])
    bottom = min([*lows, *ratings, 0.0])
    span = max(top - bottom, 1.0)
    right.set_ylim(bottom - 0.08 * span, top + 0.18 * span)
    figure.suptitle(data.get("heading", "ladder"), fontsize=9)
    return figure
