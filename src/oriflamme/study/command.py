"""``oriflamme study``: play the games, then write the tables, the plots and the summary."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

from oriflamme import ConfigError, Game, Registry
from oriflamme.text import quote

from ..bots.kinds import parse_bots
from ..choices import describe_cards, game_config
from ..simulate import progress_bar
from . import plot, report, run


def check_out(text: str) -> Path:
    """The folder ``--out`` names; an empty name (``--out ''``, which would write into
    the current folder) and a file there are refused."""
    if not text:
        raise ConfigError("--out is empty: name a folder (made if missing)")
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--out {quote(text)} is a file: name a folder (made if missing)")
    return folder


def make_out(folder: Path) -> None:
    """Make the folder ``--out`` names, if missing, and check that files can be written
    in it (a file is written there and deleted): before any game is played, so that a
    folder that cannot be made or written does not wait for the end of a long run."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ConfigError(
            f"--out {quote(str(folder))}: cannot make that folder: {reason}"
        ) from None
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".oriflamme-study-") as probe:
            probe.write(b"study")
            probe.flush()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ConfigError(
            f"--out {quote(str(folder))}: cannot write in that folder: {reason}"
        ) from None


def study_command(args: argparse.Namespace, registry: Registry, out: TextIO | None = None) -> int:
    out = out if out is not None else sys.stdout
    config = game_config(args, registry, args.seed)
    # Everything that can be refused is, before any game is played.
    first = Game.new(config, registry=registry, record=False)
    bots = tuple(parse_bots(tuple(args.bots), len(config.families), registry))
    plot.check_plotting()
    ray = run.import_ray() if args.ray is not None else None
    folder = check_out(args.out)
    terminal = sys.stderr is not None and sys.stderr.isatty()
    show = args.progress == "always" or (args.progress == "auto" and terminal)
    progress = progress_bar(args.games, sys.stderr) if show else None
    start = time.perf_counter()
    if ray is not None:
        plugins = run.Plugins.of(registry, no_plugins=args.no_plugins, without=args.without)
        started = run.start_ray(ray, args.ray)
        try:
            make_out(folder)
            start = time.perf_counter()  # the time to play, not to start a cluster
            cpus = int(ray.cluster_resources().get("CPU", 0))
            where = f"Ray cluster {args.ray} ({cpus} CPUs)"
            tally = run.run_ray(ray, config, args.games, plugins, bots, progress=progress)
        finally:
            if started:
                ray.shutdown()
    else:
        make_out(folder)
        jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
        where = f"{jobs} process{'es' * (jobs != 1)}"
        tally = run.run_jobs(config, args.games, registry, bots, jobs=jobs, progress=progress)
    seconds = time.perf_counter() - start
    study: dict[str, Any] = {
        "games": tally.games,
        "families": list(config.families),
        "sets": list(config.sets),
        "cards": describe_cards(config, first.cards),
        "variants": dict(first.rules.variants),
        "bots": [bot.text for bot in bots],
        "seeds": [args.seed, args.seed + args.games - 1],
        "where": where,
        "seconds": seconds,
        "decisions": tally.decisions,
        "shared_games": tally.shared_games,
    }
    cards = report.card_rows(tally, registry.cards)
    seats = report.seat_rows(tally, study["bots"])
    report.write_table(folder, "cards", cards, study)
    report.write_table(folder, "seats", seats, study)
    report.write_totals(folder, tally, study)
    plots = plot.draw(folder, study, cards, seats)
    (folder / "summary.md").write_text(report.summary(study, cards, seats) + "\n", "utf-8")
    print(
        f"{tally.games} games, {len(config.families)} families, sets {','.join(config.sets)}, "
        f"seeds {args.seed} to {args.seed + args.games - 1}, {where}, {seconds:.1f} s",
        file=out,
    )
    order = report.ranked(cards)
    if order:
        best, worst = order[0], order[-1]
        print(
            f"win rate when placed: highest {best['name']} "
            f"{100 * best['placed_win_rate']:.1f}%, lowest {worst['name']} "
            f"{100 * worst['placed_win_rate']:.1f}% (fair share {100 / len(config.families):.1f}%)",
            file=out,
        )
    written = [folder / name for name in report.FILES] + plots
    print("wrote " + ", ".join(str(path) for path in written), file=out)
    return 0
