"""A study's plots, as PNG files: win rates per card, Influence by ability, eliminations,
seat advantage. Needs matplotlib (the ``study`` extra, or ``plot`` for
matplotlib alone), drawn with its Agg backend: files only, never a window."""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path
from typing import Any

from oriflamme import ConfigError

from .report import PLOTS, ranked
from .run import EXTRA

#: Each moment's colour and label in the win-rate plot.
_MOMENTS = (
    ("placed", "#4c72b0", "placed"),
    ("revealed", "#55a868", "revealed"),
    ("kept_back", "#c44e52", "kept back"),
)
_FAIR = "#444444"


def check_plotting() -> None:
    """Refuse, before any game is played, a study whose plots could not be drawn."""
    try:
        with warnings.catch_warnings():
            # A dependency's deprecation notice at import is no concern of a study's.
            warnings.simplefilter("ignore", DeprecationWarning)
            matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise ConfigError(f"the study's plots need matplotlib: {EXTRA}") from None
    matplotlib.use("Agg")  # a file, never a window


def draw(
    folder: Path, study: dict[str, Any], cards: list[dict[str, Any]], seats: list[dict[str, Any]]
) -> list[Path]:
    """Draw every plot into ``folder``; returns their paths."""
    check_plotting()
    import matplotlib.pyplot as plt  # noqa: PLC0415 - an optional extra

    paths = []
    for name, figure in figures(study, cards, seats).items():
        path = folder / PLOTS[name]
        # Constrained layout keeps the title and every label inside the figure; the
        # tight box is the last guard against anything drawn past its edge.
        figure.savefig(path, dpi=110, bbox_inches="tight", pad_inches=0.1)
        plt.close(figure)
        paths.append(path)
    return paths


def figures(
    study: dict[str, Any], cards: list[dict[str, Any]], seats: list[dict[str, Any]]
) -> dict[str, Any]:
    """Every plot's figure, by its name in :data:`~oriflamme.study.report.PLOTS`, not
    yet saved."""
    check_plotting()
    import matplotlib.pyplot as plt  # noqa: PLC0415 - an optional extra

    fair = 1 / len(study["families"])
    order = ranked(cards)[::-1]  # barh draws from the bottom: the strongest on top
    heading = (
        f"{study['games']:,} games, {len(study['families'])} families, sets "
        f"{', '.join(study['sets'])}; bots {', '.join(_bots(study['bots']))}"
    )
    found = {}
    for name, drawer in (
        ("win_rates", _win_rates),
        ("ability", _ability),
        ("eliminated", _eliminated),
        ("seats", _seats),
    ):
        rows = seats if name == "seats" else order
        figure = drawer(plt, rows, fair)
        figure.suptitle(heading, fontsize=9)
        found[name] = figure
    return found


def _bots(bots: list[str]) -> list[str]:
    """The bots of the seats, a run of the same bot once with its count."""
    named: list[str] = []
    counts: list[int] = []
    for bot in bots:
        if named and named[-1] == bot:
            counts[-1] += 1
        else:
            named.append(bot)
            counts.append(1)
    return [
        f"{count} x {bot}" if count > 1 else bot for bot, count in zip(named, counts, strict=True)
    ]


def _error(rows: list[dict[str, Any]], value: str, low: str, high: str) -> list[list[float]]:
    """Matplotlib's asymmetric error bars (0 where there is no interval)."""
    below = [row[value] - row[low] if row[low] is not None else 0.0 for row in rows]
    above = [row[high] - row[value] if row[high] is not None else 0.0 for row in rows]
    return [below, above]


def _size(rows: list[dict[str, Any]], per: float) -> tuple[float, float]:
    return 8.0, 1.6 + per * max(len(rows), 1)


def _label(axes: Any, x: float, y: float, text: str, size: float = 6.5) -> None:
    """A bar's figure, a few points past ``x`` (the end of its bar or interval), so that
    it never sits on either."""
    axes.annotate(
        text, (x, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=size
    )


def _percent_axis(axes: Any) -> None:
    # Room past 100% for the figures beside the bars; the ticks stop at 100.
    axes.set_xlim(0, 125)
    axes.set_xticks(range(0, 101, 20))


def _win_rates(plt: Any, rows: list[dict[str, Any]], fair: float) -> Any:
    figure, axes = plt.subplots(figsize=_size(rows, 0.8), layout="constrained")
    width = 0.27
    places = list(range(len(rows)))
    for shift, (group, colour, label) in enumerate(_MOMENTS):
        shown = [row for row in rows if row[f"{group}_win_rate"] is not None]
        at = [places[rows.index(row)] + (1 - shift) * width for row in shown]
        rates = [100 * row[f"{group}_win_rate"] for row in shown]
        spread = [
            [100 * e for e in side]
            for side in _error(shown, f"{group}_win_rate", f"{group}_ci_low", f"{group}_ci_high")
        ]
        axes.barh(at, rates, height=width, xerr=spread, color=colour, label=label, capsize=2)
        for y, rate, row in zip(at, rates, shown, strict=True):
            end = max(rate, 100 * (row[f"{group}_ci_high"] or 0.0))
            _label(axes, end, y, f"{rate:.1f}% n={row[group]:,}")
    axes.axvline(100 * fair, color=_FAIR, linestyle="--", linewidth=1, label="fair share")
    axes.set_yticks(places, [row["name"] for row in rows], fontsize=8)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    axes.set_xlabel("the card's family won, % of copies (95% CI; n = copies)")
    _percent_axis(axes)
    axes.legend(fontsize=8, loc="lower right")
    return figure


def _ability(plt: Any, rows: list[dict[str, Any]], fair: float) -> Any:
    figure, axes = plt.subplots(figsize=_size(rows, 0.55), layout="constrained")
    places = list(range(len(rows)))
    ends = [0.0]
    for shift, (what, colour, label) in enumerate(
        (
            ("ability_gain", "#4c72b0", "by its ability, for its family"),
            ("token_gain", "#dd8452", "tokens gained on revealing it (1 per token)"),
        )
    ):
        value = f"{what}_per_placed"
        low, high = f"{what}_ci_low", f"{what}_ci_high"
        at = [p + 0.2 - 0.4 * shift for p in places]
        means = [row[value] for row in rows]
        axes.barh(
            at,
            means,
            height=0.4,
            xerr=_error(rows, value, low, high),
            color=colour,
            capsize=2,
            label=f"{label} (95% CI)",
        )
        for y, mean, row in zip(at, means, rows, strict=True):
            end = max(mean, row[high] if row[high] is not None else mean, 0.0)
            ends.append(end)
            interval = f" [{row[low]:.2f}, {row[high]:.2f}]" if row[low] is not None else ""
            _label(axes, end, y, f"{mean:.2f}{interval} n={row['placed']:,}")
    axes.axvline(0, color=_FAIR, linewidth=0.8)
    axes.set_yticks(places, [row["name"] for row in rows], fontsize=8)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    # Room past the longest bar for its figure.
    axes.set_xlim(0, max(max(ends) / 0.68, 0.5))
    axes.set_xlabel("Influence per copy placed (95% CI; n = copies placed)")
    axes.legend(fontsize=8, loc="lower right")
    return figure


def _eliminated(plt: Any, rows: list[dict[str, Any]], fair: float) -> Any:
    figure, axes = plt.subplots(figsize=_size(rows, 0.45), layout="constrained")
    places = list(range(len(rows)))
    rates = [100 * row["eliminated_rate"] for row in rows]
    down = [100 * row["eliminated_face_down"] / row["placed"] for row in rows]
    spread = [
        [100 * e for e in side]
        for side in _error(rows, "eliminated_rate", "eliminated_ci_low", "eliminated_ci_high")
    ]
    axes.barh(places, rates, xerr=spread, color="#c44e52", capsize=2, label="eliminated (95% CI)")
    axes.barh(places, down, color="#8c2d30", label="... while face down")
    for place, row, rate in zip(places, rows, rates, strict=True):
        end = max(rate, 100 * (row["eliminated_ci_high"] or 0.0))
        _label(axes, end, place, f"{rate:.1f}% n={row['placed']:,}", size=7)
    axes.set_yticks(places, [row["name"] for row in rows], fontsize=8)
    axes.set_xlabel("% of copies placed that were eliminated (95% CI; n = copies placed)")
    _percent_axis(axes)
    axes.legend(fontsize=8, loc="lower right")
    return figure


def _seats(plt: Any, rows: list[dict[str, Any]], fair: float) -> Any:
    figure, panels = plt.subplots(1, 2, figsize=(9, 3.8), sharey=True, layout="constrained")
    top = 0.0
    for axes, by, title in (
        (panels[0], "seat", "by seat (family)"),
        (panels[1], "turn", "by round 1's turn order"),
    ):
        found = [row for row in rows if row["by"] == by]
        labels = [
            f"{row['number']}\n{row['family']}" if by == "seat" else str(row["number"])
            for row in found
        ]
        rates = [100 * (row["win_rate"] or 0.0) for row in found]
        spread = [
            [100 * e for e in side] for side in _error(found, "win_rate", "ci_low", "ci_high")
        ]
        axes.bar(range(len(found)), rates, yerr=spread, color="#4c72b0", capsize=4)
        axes.axhline(100 * fair, color=_FAIR, linestyle="--", linewidth=1, label="fair share")
        for place, (rate, row) in enumerate(zip(rates, found, strict=True)):
            end = max(rate, 100 * (row["ci_high"] or 0.0))
            top = max(top, end)
            axes.annotate(
                f"{rate:.1f}%\nn={row['games']:,}",
                (place, end),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=8,
            )
        axes.set_xticks(range(len(found)), labels, fontsize=8)
        axes.set_title(title, fontsize=9)
    # Room above the highest interval for its two lines of figures.
    panels[0].set_ylim(0, max(top, 100 * fair) * 1.3 + 1)
    panels[0].set_ylabel("win rate, % (95% CI; n = games)")
    panels[0].legend(fontsize=8, loc="lower right")
    return figure
