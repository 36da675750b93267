"""A study's plots, as PNG files: win rates per card, Influence by ability, eliminations,
seat advantage. Needs matplotlib (``pip install 'oriflamme[study]'``), drawn with its
Agg backend: files only, never a window."""

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

    fair = 1 / len(study["families"])
    order = ranked(cards)[::-1]  # barh draws from the bottom: the strongest on top
    heading = (
        f"{study['games']:,} games, {len(study['families'])} families, sets "
        f"{','.join(study['sets'])}, bots {','.join(study['bots'])}"
    )
    paths = []
    for name, drawer in (
        ("win_rates", _win_rates),
        ("ability", _ability),
        ("eliminated", _eliminated),
        ("seats", _seats),
    ):
        rows = seats if name == "seats" else order
        figure = drawer(plt, rows, fair)
        figure.suptitle(heading, fontsize=9)
        figure.tight_layout()
        path = folder / PLOTS[name]
        figure.savefig(path, dpi=110)
        plt.close(figure)
        paths.append(path)
    return paths


def _error(rows: list[dict[str, Any]], value: str, low: str, high: str) -> list[list[float]]:
    """Matplotlib's asymmetric error bars (0 where there is no interval)."""
    below = [row[value] - row[low] if row[low] is not None else 0.0 for row in rows]
    above = [row[high] - row[value] if row[high] is not None else 0.0 for row in rows]
    return [below, above]


def _height(rows: list[dict[str, Any]], per: float) -> tuple[float, float]:
    return 8.0, 1.4 + per * max(len(rows), 1)


def _win_rates(plt: Any, rows: list[dict[str, Any]], fair: float) -> Any:
    figure, axes = plt.subplots(figsize=_height(rows, 0.75))
    width = 0.26
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
    axes.axvline(100 * fair, color=_FAIR, linestyle="--", linewidth=1, label="fair share")
    axes.set_yticks(places, [row["name"] for row in rows], fontsize=8)
    axes.set_xlabel("the card's family won, % of copies (95% CI)")
    axes.set_xlim(0, 100)
    axes.legend(fontsize=8, loc="lower right")
    return figure


def _ability(plt: Any, rows: list[dict[str, Any]], fair: float) -> Any:
    figure, axes = plt.subplots(figsize=_height(rows, 0.5))
    places = list(range(len(rows)))
    gains = [row["ability_gain_per_placed"] for row in rows]
    spread = _error(rows, "ability_gain_per_placed", "ability_gain_ci_low", "ability_gain_ci_high")
    tokens = [(row["token_gain"] / row["placed"]) for row in rows]
    axes.barh(
        [p + 0.2 for p in places],
        gains,
        height=0.4,
        xerr=spread,
        color="#4c72b0",
        capsize=2,
        label="by its ability, for its family (95% CI)",
    )
    axes.barh(
        [p - 0.2 for p in places],
        tokens,
        height=0.4,
        color="#dd8452",
        label="tokens gained on revealing it (1 per token)",
    )
    for place, row in zip(places, rows, strict=True):
        # Beyond the interval's end, so that the figure never sits on it.
        end = max(row["ability_gain_ci_high"] or 0.0, row["ability_gain_per_placed"], 0.0)
        gain = row["ability_gain_per_placed"]
        axes.text(end + 0.05, place + 0.2, f"{gain:.2f}", va="center", fontsize=7)
    axes.axvline(0, color=_FAIR, linewidth=0.8)
    axes.set_yticks(places, [row["name"] for row in rows], fontsize=8)
    axes.set_xlabel("Influence per copy placed")
    axes.legend(fontsize=8, loc="lower right")
    return figure


def _eliminated(plt: Any, rows: list[dict[str, Any]], fair: float) -> Any:
    figure, axes = plt.subplots(figsize=_height(rows, 0.45))
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
        end = 100 * (row["eliminated_ci_high"] or 0.0)
        axes.text(max(end, rate) + 1, place, f"{rate:.1f}%", va="center", fontsize=7)
    axes.set_yticks(places, [row["name"] for row in rows], fontsize=8)
    axes.set_xlabel("% of copies placed that were eliminated")
    axes.set_xlim(0, 100)
    axes.legend(fontsize=8, loc="lower right")
    return figure


def _seats(plt: Any, rows: list[dict[str, Any]], fair: float) -> Any:
    figure, panels = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
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
        for place, rate in enumerate(rates):
            axes.text(place, rate / 2, f"{rate:.1f}%", ha="center", fontsize=8, color="white")
        axes.set_xticks(range(len(found)), labels, fontsize=8)
        axes.set_title(title, fontsize=9)
    panels[0].set_ylabel("win rate, % (95% CI)")
    panels[0].legend(fontsize=8, loc="lower right")
    return figure
