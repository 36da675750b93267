"""The built wheel, installed outside the checkout, has everything: the YAML card data too."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from oriflamme.installed import hot_modules

from .conftest import ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout, unpacked by pip into a folder of its own."""
    work = tmp_path_factory.mktemp("wheel")
    # Pure Python: what the wheel holds is checked here, compiling elsewhere (the
    # Makefile's compiled run installs the compiled wheel and runs every test on it).
    build = {**os.environ, "ORIFLAMME_PURE": "1"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(work / "dist"),
        ],
        env=build,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    wheel = next((work / "dist").glob("oriflamme-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "oriflamme/cards/base.yaml" in names
    assert "oriflamme/py.typed" in names
    assert "oriflamme/bots/learned.bin" in names  # the learned bot's weights
    static = ROOT / "src" / "oriflamme" / "web" / "static"
    pages = sorted(path.name for path in static.iterdir())
    assert {"lobby.html", "game.html", "table.html", "game.js", "style.css"} <= set(pages)
    for page in pages:
        assert f"oriflamme/web/static/{page}" in names
    target = work / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            str(wheel),
            "--no-deps",
            "--quiet",
            "--target",
            str(target),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return target


def run_installed(target: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # Run from an empty folder with the installed copy first on the path, so that
    # nothing of the checkout can stand in for what the wheel is missing.
    env = {**os.environ, "PYTHONPATH": str(target)}
    return subprocess.run(
        [sys.executable, *args],
        cwd=target.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_wheel_runs_outside_the_checkout(installed: Path) -> None:
    where = run_installed(installed, "-c", "import oriflamme; print(oriflamme.__file__)")
    assert where.stdout.strip().startswith(str(installed)), where
    cards = run_installed(installed, "-m", "oriflamme", "cards", "--no-plugins")
    assert cards.returncode == 0, cards.stderr
    assert "royal_decree" in cards.stdout
    scenarios = ROOT / "tests" / "conformance" / "base" / "cards"
    run = run_installed(
        installed, "-m", "oriflamme", "conformance", "--quiet", "--no-plugins", str(scenarios)
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("passed, 0 failed")
    game = run_installed(installed, "-m", "oriflamme", "simulate", "--games", "3", "--no-plugins")
    assert game.returncode == 0, game.stderr
    # The learned bot's weights are package data: it plays from the installed copy.
    learned = run_installed(
        installed,
        "-m",
        "oriflamme",
        "simulate",
        "--games",
        "2",
        "--bots",
        "learned",
        "--no-plugins",
    )
    assert learned.returncode == 0, learned.stderr


def test_the_core_needs_three_packages_and_the_rest_are_extras(installed: Path) -> None:
    wheel = next((installed.parent / "dist").glob("oriflamme-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode()
    required = [
        line.split(":", 1)[1].strip()
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:")
    ]
    core = sorted(
        re.split(r"[<>=;\s]", r, maxsplit=1)[0].lower() for r in required if "extra ==" not in r
    )
    assert core == ["attrs", "pluggy", "pyyaml"]
    extras = {
        line.split(":", 1)[1].strip()
        for line in metadata.splitlines()
        if line.startswith("Provides-Extra:")
    }
    assert {"rl", "study", "web", "plot"} <= extras


def test_the_installed_learning_environment_plays(installed: Path) -> None:
    pytest.importorskip("pettingzoo")
    script = (
        "import oriflamme.rl.pettingzoo as pz, numpy as np\n"
        "print(pz.__file__)\n"
        "game = pz.env(families=3, registry=None)\n"
        "game.reset(seed=1)\n"
        "for agent in game.agent_iter():\n"
        "    o, r, t, u, _ = game.last()\n"
        "    game.step(None if t or u else int(np.flatnonzero(o['action_mask'])[0]))\n"
        "print('done')\n"
    )
    run = run_installed(installed, "-c", script)
    assert run.returncode == 0, run.stderr
    where, done = run.stdout.split()
    assert where.startswith(str(installed))
    assert done == "done"


@pytest.mark.skipif(
    os.environ.get("ORIFLAMME_EXPECT_COMPILED") != "1",
    reason="run by `make compiled`, which installs the compiled wheel",
)
def test_the_hot_modules_are_compiled() -> None:
    import oriflamme.bots  # noqa: PLC0415 - the modules under test
    import oriflamme.bots.heuristic  # noqa: PLC0415
    import oriflamme.bots.ismcts  # noqa: PLC0415
    import oriflamme.bots.learned  # noqa: PLC0415
    import oriflamme.bots.play  # noqa: PLC0415
    import oriflamme.bots.random  # noqa: PLC0415
    import oriflamme.core._engine  # noqa: PLC0415
    import oriflamme.core._observation  # noqa: PLC0415
    import oriflamme.expansions.ablaze.plot  # noqa: PLC0415
    import oriflamme.expansions.base  # noqa: PLC0415

    for module in (
        oriflamme.core._engine,
        oriflamme.core._observation,
        oriflamme.bots.heuristic,
        oriflamme.bots.ismcts,
        oriflamme.bots.learned,
        oriflamme.bots.play,
        oriflamme.bots.random,
        oriflamme.expansions.ablaze.plot,
    ):
        assert module.__file__ is not None
        assert not module.__file__.endswith(".py"), f"{module.__name__} is not compiled"
    # The plugin modules hold pluggy's marked hook functions: interpreted, always; and
    # the bots' package only gathers their names.
    for interpreted in (oriflamme.expansions.base, oriflamme.bots):
        assert interpreted.__file__ is not None
        assert interpreted.__file__.endswith(".py")


def test_the_installed_server_serves_its_pages(installed: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(installed), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", "0"]
    db = installed.parent / "games.sqlite3"
    with subprocess.Popen(
        [*command, "--db", str(db)],
        cwd=installed.parent,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            assert str(db) in line, line
            url = line.split()[3]
            for path in ("", "play/x", "static/game.js", "static/style.css", "api/installed"):
                for _ in range(100):  # listening already; the app may still be starting
                    try:
                        with urllib.request.urlopen(url + path, timeout=10) as response:
                            assert response.status == 200, path
                            break
                    except ConnectionError:
                        time.sleep(0.05)
                else:
                    raise AssertionError(f"{url}{path} did not answer")
            # Bots think in worker processes, which import the installed package too.
            bots = dict.fromkeys(["red", "blue", "green"], "random")
            request = urllib.request.Request(
                url + "api/games",
                data=json.dumps({"families": 3, "bots": bots}).encode(),
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                game = json.loads(response.read())["id"]
            deadline = time.monotonic() + 60
            while True:
                with urllib.request.urlopen(f"{url}api/games/{game}", timeout=10) as response:
                    if json.loads(response.read())["phase"] == "end":
                        break
                assert time.monotonic() < deadline, "the installed server's bots did not play"
                time.sleep(0.1)
        finally:
            server.kill()


def _checkout_copy(target: Path) -> Path:
    """The checkout's files as a clone would have them (committed or not, but nothing
    ignored: no build/ or venv), so that a build here leaves nothing in the checkout."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.mark.skipif(
    shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None,
    reason="no C compiler here: the install is pure Python by design",
)
@pytest.mark.skipif(
    os.environ.get("ORIFLAMME_EXPECT_COMPILED") == "1",
    reason="run once, in the development venv: `make compiled` runs the tests again on its wheel",
)
@pytest.mark.slow
def test_pip_install_in_a_clean_venv_gives_the_compiled_form(tmp_path: Path) -> None:
    """What a user gets from ``python3 -m venv v && v/bin/pip install .``: pip's isolated
    build, with the build requirements of pyproject.toml alone, compiles every hot module."""
    source = _checkout_copy(tmp_path / "oriflamme")
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    # Only what pip itself reads: nothing of the development venv or this run may help.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV", "ORIFLAMME_"))
    }

    def run(program: str, *args: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin" / program), *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    build = run("pip", "install", "--disable-pip-version-check", "-v", str(source), timeout=900)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert "installing pure Python" not in build.stdout + build.stderr, build.stderr[-3000:]
    version = run("oriflamme", "--version")
    assert version.stdout.startswith("oriflamme "), version
    assert "(compiled)" in version.stdout, version
    check = (
        "import oriflamme, oriflamme.installed as i\n"
        "print(oriflamme.__file__)\n"
        "print(len(i.hot_modules()), i.interpreted())\n"
    )
    found = run("python", "-c", check)
    assert found.returncode == 0, found.stderr
    where, hot = found.stdout.splitlines()
    assert where.startswith(str(venv)), where
    assert hot == f"{len(hot_modules())} []", hot
