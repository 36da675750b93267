"""Small helpers for the tests: seeded random play and whole-game comparisons."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from oriflamme import COLOURS, Game, GameConfig, Registry
from oriflamme.bots import RandomBot, bot_seed, play_out


def new_game(registry: Registry, seed: int, families: int = 3, **options: Any) -> Game:
    return Game.new(
        GameConfig(families=COLOURS[:families], seed=seed, **options), registry=registry
    )


def random_bots(game: Game, seed: int) -> dict[str, RandomBot]:
    """One random bot per family, each seeded from ``seed`` and its seat."""
    return {f: RandomBot(bot_seed(seed, seat)) for seat, f in enumerate(game.families)}


def played(registry: Registry, seed: int, families: int = 3, **options: Any) -> Game:
    """A whole game, random bots on every side, from ``seed``."""
    game = new_game(registry, seed, families, **options)
    play_out(game, random_bots(game, seed))
    return game


def play_until(game: Game, steps: int, seed: int) -> Game:
    """Answer up to ``steps`` decisions at random (from ``seed``); the game, for chaining."""
    rng = random.Random(seed)
    for _ in range(steps):
        decision = game.decision
        if decision is None:
            break
        game.answer_option(int(rng.random() * len(decision.options)))
    return game


def all_cards(game: Game) -> list[str]:
    """Every card of the game (by label) wherever it is, once per place it appears."""
    return game.position().cards()


def hand(game: Game, family: str) -> tuple[int, ...]:
    """``family``'s hand, as ids (what that family's own observation shows)."""
    return game.observe(family).hand


def card_id(game: Game, label: str) -> int:
    """The id of the card labelled ``label`` (``red.spy``) in ``game``."""
    return game.position().ids[label]


def label(game: Game, card: int) -> str:
    """The label (``red.spy``) of card ``card`` in ``game``."""
    labels = {card_id: name for name, card_id in game.position().ids.items()}
    return labels[card]


def rng_for(seed: int) -> random.Random:
    return random.Random(seed)


def one_card_set(
    folder: Path,
    name: str,
    key: str,
    *,
    card_type: str = "character",
    text: str = "Does something.",
) -> Path:
    """A card-set file of one card, written in ``folder``, for plugins made in tests."""
    path = folder / f"{name}.yaml"
    path.write_text(
        f"set: {name}\ntitle: {name.title()}\ncards:\n  - key: {key}\n"
        f"    name: {key.title()}\n    type: {card_type}\n    text: {text}\n",
        encoding="utf-8",
    )
    return path


def venv_with(where: Path, *packages: Path) -> Path:
    """A fresh virtual environment at ``where`` with ``packages`` pip-installed, as a
    user installs them (pure Python: these check an install, not the compiled build)."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    pure_build([str(where / "bin" / "pip"), "install", "--quiet", *map(str, packages)])
    return where


def pure_build(command: list[str]) -> None:
    """Run ``command`` (a pip install, a ``python -m build``) with oriflamme built as pure
    Python, as these tests check what is built, not the compiling; it must succeed."""
    done = subprocess.run(
        command,
        env={**os.environ, "ORIFLAMME_PURE": "1"},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]


#: A Markdown link's target (inline links; images too).
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(page: Path) -> set[str]:
    """The anchors of ``page``'s headings, as GitHub makes them."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def dead_links(page: Path, root: Path) -> list[str]:
    """The relative links of ``page`` that name nothing under ``root``: a missing file or
    folder, or an anchor that no heading of its page has."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    dead = []
    for target in _LINK.findall(text):
        if "://" in target or target.startswith("mailto:"):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        missing = not linked.is_relative_to(root.resolve()) or not linked.exists()
        if missing or (anchor and linked.suffix == ".md" and anchor not in _anchors(linked)):
            dead.append(target)
    return dead
