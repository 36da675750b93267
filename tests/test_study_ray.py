"""``oriflamme study --ray``: a real local Ray cluster (no mocks), started once for the
module; the same totals as on one machine, and a worker's error said as it is."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from oriflamme import COLOURS, GameConfig, PluginError, Registry
from oriflamme.bots.kinds import parse_bots
from oriflamme.cli import main
from oriflamme.study.run import Plugins, play_games, run_ray, start_ray


@pytest.fixture(scope="module")
def ray() -> Iterator[ModuleType]:
    module = pytest.importorskip("ray")
    with pytest.MonkeyPatch.context() as patch:
        # Else Ray writes an auth token under the home directory.
        patch.setenv("RAY_AUTH_MODE", "disabled")
        module.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            yield module
        finally:
            module.shutdown()


def study(capsys: pytest.CaptureFixture[str], out: Path, *options: str) -> list[str]:
    argv = ["study", "--no-plugins", "--progress", "never", "--out", str(out), *options]
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()


def read(out: Path, name: str) -> Any:
    data = json.loads((out / name).read_text(encoding="utf-8"))
    data["study"].pop("where")
    data["study"].pop("seconds")
    return data


def test_the_totals_on_ray_are_those_of_one_machine(
    ray: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seed = 17
    print(f"seed={seed}", file=sys.stderr)  # stdout is what the command prints
    common = ("--games", "60", "--seed", str(seed), "--sets", "base,ablaze", "--bots", "heuristic")
    # The process is connected already: the command uses that cluster and leaves it open.
    on_ray = study(capsys, tmp_path / "ray", *common, "--ray", "auto")
    assert ray.is_initialized()
    alone = study(capsys, tmp_path / "one", *common, "--jobs", "1")
    assert on_ray[0].startswith("60 games, 3 families, sets base,ablaze, seeds 17 to 76, Ray ")
    assert "(2 CPUs)" in on_ray[0]
    assert on_ray[1] == alone[1]
    for name in ("totals.json", "cards.json", "seats.json"):
        on, off = read(tmp_path / "ray", name), read(tmp_path / "one", name)
        on.pop("study"), off.pop("study")  # where and how long it ran
        assert json.dumps(on) == json.dumps(off), name
    for name in ("cards.csv", "seats.csv"):
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "one" / name).read_text()


def test_a_worker_with_other_plugins_is_refused(ray: ModuleType, registry: Registry) -> None:
    seed = 4
    print(f"seed={seed}")
    config = GameConfig(families=COLOURS[:3], seed=seed)
    bots = parse_bots(("random",), 3, registry)
    good = Plugins.of(registry, no_plugins=True, without=())
    tally = run_ray(ray, config, 12, good, bots)
    assert tally == play_games(config, range(seed, seed + 12), registry, bots)
    # A driver that expects a plugin the workers do not have: their games would differ.
    other = Plugins(False, (), (*good.expected, ("elsewhere", "9.9")))
    with pytest.raises(PluginError) as refused:
        run_ray(ray, config, 3, other, bots)
    # The worker's own error, not Ray's wrapper of it with the worker's traceback.
    assert type(refused.value) is PluginError
    there = ", ".join(f"{info.name} {info.version}" for info in registry.plugins)
    assert str(refused.value) == (
        f"a Ray worker has other plugins than the study's: {there} instead of {there}, "
        "elsewhere 9.9; install the same ones on every node"
    )


def test_a_process_already_connected_keeps_its_connection(ray: ModuleType) -> None:
    assert start_ray(ray, "local") is False
    assert ray.is_initialized()
