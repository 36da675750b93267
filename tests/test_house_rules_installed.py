"""The example plugin package, built and installed into a fresh virtual environment
beside the project, exactly as a user would install it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT
from .helpers import venv_with

HOUSE = ROOT / "examples" / "house-rules"

# The tests need a plugin installed in a venv of their own first: tens of seconds.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return venv_with(tmp_path_factory.mktemp("house") / "venv", ROOT, HOUSE)


def oriflamme(venv: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    run = subprocess.run(
        [str(venv / "bin" / "oriflamme"), *args],
        cwd=venv.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stderr == "", run.stderr
    return run.stdout


def test_plugins_lists_the_house_rules(venv: Path) -> None:
    assert "house (oriflamme-house-rules 0.1.0)" in oriflamme(venv, "plugins")
    listing = json.loads(oriflamme(venv, "plugins", "--json"))
    house = {p["name"]: p for p in listing["plugins"]}["house"]
    assert house["sets"] == ["house"]
    assert house["cards"] == ["jester", "pickpocket"]
    assert [v["name"] for v in house["variants"]] == ["generous_heir", "bounty"]
    assert {
        "register_card_sets",
        "register_abilities",
        "register_variants",
        "replace_abilities",
        "register_bot_kinds",
        "card_eliminated",
        "loadable_saves",
    } <= set(house["hooks"])
    assert house["bots"] == ["house_heuristic"]
    assert listing["problems"] == []
    without = json.loads(oriflamme(venv, "plugins", "--json", "--without", "house"))
    assert "house" not in {p["name"] for p in without["plugins"]}


def test_cards_shows_the_house_cards(venv: Path) -> None:
    out = oriflamme(venv, "cards")
    assert "House rules (set house, plugin house)" in out
    assert "jester         Jester" in out
    assert "pickpocket     Pickpocket" in out
    assert "[no ability implemented]" not in out


def test_its_scenarios_pass(venv: Path) -> None:
    out = oriflamme(venv, "conformance", str(HOUSE / "scenarios"))
    assert out.strip().endswith("12 passed, 0 failed")


@pytest.mark.parametrize(
    "variants", [[], ["bounty=true"], ["generous_heir=true"], ["bounty=true", "generous_heir=true"]]
)
def test_bots_play_with_each_variant(venv: Path, variants: list[str]) -> None:
    flags = [arg for v in variants for arg in ("--variant", v)]
    out = oriflamme(
        venv, "simulate", "--sets", "base,house", "--games", "100", "--families", "4", *flags
    )
    assert out.startswith("100 games, 4 families, sets base,house")


def test_its_bot_kind_is_listed_and_plays(venv: Path) -> None:
    listing = json.loads(oriflamme(venv, "bots", "--json"))
    kinds = {kind["name"]: kind for kind in listing["bots"]}
    assert list(kinds)[:4] == ["random", "heuristic", "learned", "ismcts"]
    assert kinds["house_heuristic"]["plugin"] == "house"
    assert [s["name"] for s in kinds["house_heuristic"]["settings"]] == ["boldness"]
    assert "house_heuristic (plugin house)" in oriflamme(venv, "bots")
    out = oriflamme(
        venv,
        "simulate",
        "--sets",
        "base,house",
        "--games",
        "60",
        "--progress",
        "never",
        "--bots",
        "house_heuristic:boldness=2,random,random",
    )
    assert "house_heuristic:boldness=2 " in out
