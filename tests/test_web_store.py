"""Nothing lost: games kept in SQLite survive the server being killed (``kill -9``).

The server runs as ``oriflamme serve`` in a process of its own, is killed with SIGKILL
mid-game, and is started again on the same file: every link still works, every
answer it confirmed is there, and bots that were to answer play on exactly as they
would have (their choices are seeded by game, family and step).
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from oriflamme.web.sqlite import SQLiteStore
from oriflamme.web.store import LAYOUT, Seat, StoreError, seat_of, token_hash

from .web_server import answer, get, post, server_process, watch

SEED = 31


def wait_for(url: str, game: str, token: str | None, done: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        status, view = get(f"{url}/api/games/{game}", token)
        assert status == 200, view
        if done(view):
            return view  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, "the game did not move on for 60 s"
        time.sleep(0.05)


def my_turn(view: dict[str, Any]) -> bool:
    return bool(view["answers"]) or view["phase"] == "end"


def play_red(
    url: str, made: dict[str, Any], rng: random.Random, answers: int
) -> dict[str, Any] | None:
    """Red (the one person) answers at random ``answers`` times: its last new view."""
    after = None
    for _ in range(answers):
        view = wait_for(url, made["id"], made["seats"]["red"], my_turn)
        if view["phase"] == "end":
            break
        after = answer(
            url, made["id"], made["seats"]["red"], rng.choice(view["answers"]), view["step"]
        )
    return after


@pytest.mark.slow
def test_kill_9_mid_game_loses_nothing_and_bots_play_on(tmp_path: Path) -> None:
    print(f"seed {SEED}")
    bots = {"blue": "random", "green": "random"}
    request = {"families": 3, "sets": ["base", "ablaze"], "size": 10, "seed": SEED, "bots": bots}
    # The same game, uninterrupted, on a server of its own: what the bots will answer.
    with server_process(tmp_path / "reference.sqlite3") as (url, _):
        status, reference = post(f"{url}/api/games", request)
        assert status == 201
        play_red(url, reference, random.Random(SEED), 10_000)
        expected = wait_for(url, reference["id"], None, lambda v: v["phase"] == "end")
    db = tmp_path / "games.sqlite3"
    rng = random.Random(SEED)
    with server_process(db) as (url, process):
        status, made = post(f"{url}/api/games", request)
        assert status == 201
        before = play_red(url, made, rng, 6)
        # Killed at once: the bots are half-way through their answers, or about to start.
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    with server_process(db) as (url, _):
        assert before is not None
        after = wait_for(url, made["id"], made["seats"]["red"], lambda v: True)
        print(f"killed at step {before['step']}, {after['step']} answers kept")
        assert after["step"] >= before["step"]
        status, then = get(
            f"{url}/api/games/{made['id']}/replay?step={before['step']}", made["seats"]["red"]
        )
        assert status == 200
        for field in ("queue", "hand", "influence", "log", "round", "phase"):
            assert then[field] == before[field], field
        play_red(url, made, rng, 10_000)
        final = wait_for(url, made["id"], None, lambda v: v["phase"] == "end")
    # The same answers from everyone: the same game to the end.
    assert final["step"] == expected["step"]
    assert final["log"] == expected["log"]
    assert final["scores"] == expected["scores"]


def test_a_server_restarted_keeps_every_link(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with server_process(db) as (url, process):
        status, made = post(f"{url}/api/games", {"families": 3, "seed": SEED})
        assert status == 201
        views = {f: get(f"{url}/api/games/{made['id']}", t)[1] for f, t in made["seats"].items()}
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    with server_process(db) as (url, _):
        for family, token in made["seats"].items():
            status, view = get(f"{url}/api/games/{made['id']}", token)
            assert status == 200
            assert view == views[family]
        assert get(f"{url}/api/games/{made['id']}", "guess")[0] == 403


def test_a_file_that_is_not_a_games_file_is_refused_in_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    for path in (junk, other):
        result = subprocess.run(
            [sys.executable, "-m", "oriflamme", "serve", "--port", "0", "--db", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode != 0
        assert str(path) in result.stderr
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_file_of_another_layout_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    SQLiteStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {LAYOUT + 1}")
    with pytest.raises(StoreError, match=f"layout {LAYOUT + 1}, expected {LAYOUT}"):
        SQLiteStore(path)


def test_an_answer_is_kept_only_at_the_step_it_follows(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "games.sqlite3")
    store.create("g", {"config": {}}, "start", [Seat("red", "person", token_hash("t"))])
    store.record("g", 1, "red", "true", "after one", over=False)
    with pytest.raises(StoreError, match="does not hold that game at that step"):
        store.record("g", 1, "red", "false", "again", over=False)
    with pytest.raises(StoreError):
        store.record("nope", 1, "red", "true", "x", over=False)
    found = store.load("g")
    assert found is not None
    assert (found.save, found.step, found.over) == ("after one", 1, False)
    assert store.answers("g", 5) == [("red", True)]
    assert seat_of(found.seats, "t") == "red"
    assert seat_of(found.seats, "T") is None
    assert found.seats[0].token_hash != "t"  # only the hash is kept
    store.close()


def test_the_server_log_never_shows_a_token(tmp_path: Path) -> None:
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    command = [sys.executable, "-m", "oriflamme", "serve", "--port", "0"]
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [*command, "--db", str(tmp_path / "g.sqlite3")], stdout=stdout, stderr=stderr
        )
        try:
            deadline = time.monotonic() + 30
            while "http://" not in out.read_text():
                assert time.monotonic() < deadline, err.read_text()
                time.sleep(0.05)
            url = out.read_text().split()[3].rstrip("/")
            status, made = post(f"{url}/api/games", {"families": 3})
            assert status == 201
            token = made["seats"]["red"]
            assert get(f"{url}/api/games/{made['id']}", token)[0] == 200
            assert get(f"{url}/api/games/{made['id']}/table", made["creator"])[0] == 200
            with watch(url, made["id"], token) as socket:
                socket.recv(timeout=10)
            time.sleep(0.5)  # the log lines are written after the responses
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(30)
    logged = out.read_text() + err.read_text()
    assert f"/api/games/{made['id']}" in logged
    assert "WebSocket" in logged
    assert token not in logged
    assert made["creator"] not in logged


def test_a_game_saved_before_an_upgrade_plays_on(tmp_path: Path) -> None:
    """A games file written by an older release: its saves name that release's
    version, and its games still open and play on after the server is upgraded."""
    db = tmp_path / "games.sqlite3"
    rng = random.Random(SEED)
    with server_process(db) as (url, process):
        status, made = post(f"{url}/api/games", {"families": 3, "seed": SEED, "bots": {}})
        assert status == 201
        before = play_red(url, made, rng, 1)
        assert before is not None
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT id, initial, save FROM games").fetchall()
        assert rows
        for game_id, *texts in rows:
            older = []
            for text in texts:
                saved = json.loads(text)
                plugins = saved["rules"]["plugins"]
                assert plugins, "a save names the plugins of its rules"
                for plugin in plugins:
                    plugin[2] = "0.0.1"  # as a release before this one wrote it
                older.append(json.dumps(saved))
            connection.execute(
                "UPDATE games SET initial = ?, save = ? WHERE id = ?", (*older, game_id)
            )
    with server_process(db) as (url, _):
        status, view = get(f"{url}/api/games/{made['id']}", made["seats"]["red"])
        assert status == 200, view
        assert view["step"] == before["step"]
        for field in ("queue", "hand", "influence", "round", "phase"):
            assert view[field] == before[field], field
        status, replayed = get(f"{url}/api/games/{made['id']}/replay?step=0", made["seats"]["red"])
        assert status == 200, replayed
        # Whoever's turn it is answers: the game plays on.
        asked = {
            family: seen
            for family, token in made["seats"].items()
            if (seen := get(f"{url}/api/games/{made['id']}", token)[1])["answers"]
        }
        assert len(asked) == 1, asked.keys()
        ((family, seen),) = asked.items()
        after = answer(url, made["id"], made["seats"][family], seen["answers"][0], seen["step"])
        assert after["step"] == before["step"] + 1
