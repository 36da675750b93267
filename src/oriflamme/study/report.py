"""A study's tables, from its totals: one row per card type and one per seat, written as
CSV and JSON, and the Markdown summary that shows the plots (the columns are listed in
:mod:`oriflamme.study`)."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from oriflamme import CardDef

from ..bots.rating import Z95, wilson
from .tally import GROUPS, SEAT_FIELDS, SHARE, Tally

#: The files a study writes into its folder, besides the plots.
FILES = ("cards.csv", "cards.json", "seats.csv", "seats.json", "totals.json", "summary.md")
#: The plots, by what they show.
PLOTS = {
    "win_rates": "win_rates.png",
    "ability": "ability_influence.png",
    "eliminated": "eliminated.png",
    "seats": "seats.png",
}
#: The cards named strongest and weakest in the summary.
NAMED = 3


def _rate(part: float, whole: int) -> float | None:
    return part / whole if whole else None


def _interval(part: float, whole: int) -> tuple[float | None, float | None]:
    return wilson(part, whole) if whole else (None, None)


def _mean_interval(total: int, squares: int, count: int) -> tuple[float | None, float | None]:
    """The normal 95% interval of a mean of ``count`` values whose sum is ``total`` and
    sum of squares ``squares`` (none for fewer than 2 values), cut at 0: the values are
    gains, never below it."""
    if count < 2:
        return None, None
    mean = total / count
    variance = max(0.0, (squares - count * mean * mean) / (count - 1))
    spread = Z95 * math.sqrt(variance / count)
    return max(0.0, mean - spread), mean + spread


def card_rows(tally: Tally, definitions: Mapping[str, CardDef]) -> list[dict[str, Any]]:
    """One row per card type met, in the order of ``definitions`` (the registry's)."""
    order = {key: number for number, key in enumerate(definitions)}
    rows = []
    for key in sorted(tally.cards, key=lambda k: (order.get(k, len(order)), k)):
        c = tally.card(key)
        card = definitions.get(key)
        placed = c["placed"]
        row: dict[str, Any] = {
            "card": key,
            "name": card.name if card else key,
            "set": card.set if card else "",
            "type": card.type.value if card else "",
            "games": c["games"],
            "copies": c["copies"],
            "dealt": c["dealt"],
            "set_aside": c["set_aside"],
            "kept_back": c["kept_back"],
            "placed": placed,
            "put_face_up": c["put_face_up"],
            "revealed": c["revealed"],
            "placed_rate": _rate(placed, c["copies"]),
            "revealed_rate": _rate(c["revealed"], placed),
            "kept_back_rate": _rate(c["kept_back"], c["dealt"]),
        }
        for group in GROUPS:
            count = c[group]
            share = c[f"{group}_share"] / SHARE
            low, high = _interval(share, count)
            row[f"{group}_wins"] = c[f"{group}_wins"]
            row[f"{group}_shared_wins"] = c[f"{group}_shared_wins"]
            row[f"{group}_win_rate"] = _rate(share, count)
            row[f"{group}_ci_low"] = low
            row[f"{group}_ci_high"] = high
        low, high = _interval(c["eliminated"], placed)
        gain_low, gain_high = _mean_interval(c["ability_gain"], c["ability_gain_squares"], placed)
        token_low, token_high = _mean_interval(c["token_gain"], c["token_gain_squares"], placed)
        row.update(
            {
                "eliminated": c["eliminated"],
                "eliminated_face_down": c["eliminated_face_down"],
                "eliminated_rate": _rate(c["eliminated"], placed),
                "eliminated_ci_low": low,
                "eliminated_ci_high": high,
                "eliminations": c["eliminations"],
                "eliminations_per_placed": _rate(c["eliminations"], placed),
                "token_gain": c["token_gain"],
                "token_gain_per_revealed": _rate(c["token_gain"], c["revealed"]),
                "token_gain_per_placed": _rate(c["token_gain"], placed),
                "token_gain_ci_low": token_low,
                "token_gain_ci_high": token_high,
                "ability_gain": c["ability_gain"],
                "ability_gain_per_placed": _rate(c["ability_gain"], placed),
                "ability_gain_ci_low": gain_low,
                "ability_gain_ci_high": gain_high,
                "ability_gain_others": c["ability_gain_others"],
                "ability_loss": c["ability_loss"],
                "ability_loss_others": c["ability_loss_others"],
                "ability_net_per_placed": _rate(c["ability_gain"] - c["ability_loss"], placed),
            }
        )
        rows.append(row)
    return rows


def seat_rows(tally: Tally, bots: Sequence[str]) -> list[dict[str, Any]]:
    """One row per seat (``by`` = ``seat``: the configuration's order of families), then
    one per place in round 1's turn order (``by`` = ``turn``: 1 is the first player)."""
    families = tally.families
    fair = 1 / len(families)
    games = tally.games
    rows = []
    for by, table in (("seat", tally.seats), ("turn", tally.turns)):
        for number, values in enumerate(table):
            counts = dict(zip(SEAT_FIELDS, values, strict=True))
            share = counts["share"] / SHARE
            low, high = _interval(share, games)
            rate = _rate(share, games)
            rows.append(
                {
                    "by": by,
                    "number": number + 1,
                    "family": families[number] if by == "seat" else "",
                    "bot": bots[number] if by == "seat" else "",
                    "games": games,
                    "wins": counts["wins"],
                    "shared_wins": counts["shared_wins"],
                    "win_rate": rate,
                    "ci_low": low,
                    "ci_high": high,
                    "advantage": rate - fair if rate is not None else None,
                    "mean_score": _rate(counts["score"], games),
                }
            )
    return rows


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    return f"{value:.6g}" if isinstance(value, float) else value


def write_table(folder: Path, name: str, rows: list[dict[str, Any]], study: dict[str, Any]) -> None:
    """``name``.csv (one line per row; an empty cell: no value, as for a rate of 0 in 0)
    and ``name``.json (the study's description and the rows; null: no value)."""
    with (folder / f"{name}.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(list(rows[0]) if rows else [])
        for row in rows:
            writer.writerow([_cell(value) for value in row.values()])
    text = json.dumps({"study": study, "rows": rows}, indent=1)
    (folder / f"{name}.json").write_text(text + "\n", encoding="utf-8")


def write_totals(folder: Path, tally: Tally, study: dict[str, Any]) -> None:
    """The raw totals, whole numbers that add up over games (see :class:`Tally`)."""
    text = json.dumps({"study": study, "totals": tally.to_dict()}, indent=1)
    (folder / "totals.json").write_text(text + "\n", encoding="utf-8")


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _figure(row: dict[str, Any], group: str) -> str:
    rate = row[f"{group}_win_rate"]
    if rate is None:
        return "n/a"
    low, high = row[f"{group}_ci_low"], row[f"{group}_ci_high"]
    return f"{_percent(rate)} [{_percent(low)}, {_percent(high)}] of {row[group]:,}"


def ranked(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards their family placed at least once, highest win rate when placed first."""
    found = [row for row in cards if row["placed"]]
    return sorted(found, key=lambda row: (-row["placed_win_rate"], row["card"]))


def _verdict(row: dict[str, Any], fair: float) -> str:
    if row["placed_ci_low"] > fair:
        return "above the fair share"
    if row["placed_ci_high"] < fair:
        return "below the fair share"
    return "within noise of the fair share"


def summary(study: dict[str, Any], cards: list[dict[str, Any]], seats: list[dict[str, Any]]) -> str:
    """The Markdown summary: what was played, the strongest and weakest cards with their
    figures, seat advantage, and the plots."""
    fair = 1 / len(study["families"])
    order = ranked(cards)
    lines = [
        "# Oriflamme balance study",
        "",
        f"{study['games']:,} games, {len(study['families'])} families, sets "
        f"{', '.join(study['sets'])}; bots {', '.join(study['bots'])}; seeds "
        f"{study['seeds'][0]} to {study['seeds'][1]}; {study['where']}, "
        f"{study['seconds']:.1f} s. {study['cards']}.",
        "",
        f"A family's fair share of wins is {_percent(fair)} (a shared win counts as its "
        "share). Win rates are of the card's own family, with 95% Wilson intervals: "
        "*placed* = its family put it into the queue, *revealed* = its family turned it "
        "face up, *kept back* = it was still in its family's hand at the end (every family "
        "keeps one of its 7 cards back). Influence by ability excludes the tokens gained "
        "on revealing it, 1 per token (a Conspiracy's doubling is its ability). The "
        "figures measure these bots' play, not the cards alone.",
        "",
    ]
    if order:
        lines += ["## Strongest and weakest cards (win rate when placed)", ""]
        lines += [
            "| | card | placed | revealed | kept back | ability Influence per placed |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        named = order[:NAMED] + [row for row in order[-NAMED:] if row not in order[:NAMED]]
        for row in named:
            rank = order.index(row) + 1
            gain = row["ability_gain_per_placed"]
            lines.append(
                f"| {rank} | {row['name']} | {_figure(row, 'placed')} | "
                f"{_figure(row, 'revealed')} | {_figure(row, 'kept_back')} | "
                f"{gain:.2f} |"
            )
        best, worst = order[0], order[-1]
        lines += [
            "",
            f"Strongest: **{best['name']}**, its family won {_percent(best['placed_win_rate'])} "
            f"of the games it was placed in ({_verdict(best, fair)}). Weakest: "
            f"**{worst['name']}**, {_percent(worst['placed_win_rate'])} "
            f"({_verdict(worst, fair)}).",
        ]
        gains = sorted(order, key=lambda row: -(row["ability_gain_per_placed"] or 0.0))
        most = max(order, key=lambda row: row["eliminated_rate"] or 0.0)
        lines += [
            f"Most Influence by its ability: **{gains[0]['name']}**, "
            f"{gains[0]['ability_gain_per_placed']:.2f} per copy placed; least: "
            f"**{gains[-1]['name']}**, {gains[-1]['ability_gain_per_placed']:.2f}. Most often "
            f"eliminated: **{most['name']}**, {_percent(most['eliminated_rate'])} of copies "
            "placed.",
            "",
        ]
    lines += ["## Seats", ""]
    for by, heading in (("seat", "by seat"), ("turn", "by round 1's turn order (1: first player)")):
        rows = [row for row in seats if row["by"] == by]
        figures = ", ".join(
            f"{row['family'] or row['number']} {_percent(row['win_rate'])} "
            f"[{_percent(row['ci_low'])}, {_percent(row['ci_high'])}]"
            for row in rows
        )
        lines.append(f"- Win rate {heading}: {figures}.")
    lines += ["", "## Plots", ""]
    titles = {
        "win_rates": "Win rate when placed, revealed, kept back",
        "ability": "Influence gained by each card's ability",
        "eliminated": "How often each card was eliminated",
        "seats": "Seat advantage",
    }
    for name, title in titles.items():
        lines += [f"![{title}]({PLOTS[name]})", ""]
    return "\n".join(lines)
