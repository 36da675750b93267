"""The server's limits, against a real server on 127.0.0.1: an answer plays once, pages
of another site and other host names are refused, floods are slowed down, bots are
capped, and the games file is private and does not grow for ever.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from oriflamme.web.limits import Limits, Rate
from oriflamme.web.sqlite import SQLiteStore
from oriflamme.web.store import Seat, StoreError, token_hash

from .web_server import TEST_LIMITS, call, get, post, server_thread, watch

SEED = 2102


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    limits = Limits(
        create_rate=TEST_LIMITS.create_rate,
        answer_rate=Rate(30, 60.0),
        allowed_hosts=("games.example.org",),
        bot_workers=2,
    )
    with server_thread(tmp_path_factory.mktemp("limits") / "games.sqlite3", limits=limits) as found:
        yield found


def create(url: str, **fields: Any) -> dict[str, Any]:
    status, made = post(f"{url}/api/games", {"families": 3, **fields})
    assert status == 201, made
    return made  # type: ignore[no-any-return]


def asked(url: str, made: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for family, token in made["seats"].items():
        seen = get(f"{url}/api/games/{made['id']}", token)[1]
        if seen["answers"]:
            return family, seen
    raise AssertionError("nobody is asked")


def send_at_once(
    start: threading.Barrier, path: str, body: object, token: str, results: list[int]
) -> None:
    start.wait()
    results.append(post(path, body, token)[0])


def test_the_same_answer_sent_twice_at_once_plays_once(url: str) -> None:
    print(f"seed {SEED}")
    rng = random.Random(SEED)
    for number in range(8):
        made = create(url, seed=SEED + number)
        for _ in range(4):
            family, seen = asked(url, made)
            body = {"answer": rng.choice(seen["answers"]), "step": seen["step"]}
            results: list[int] = []
            start = threading.Barrier(3)
            path = f"{url}/api/games/{made['id']}/answer"
            threads = [
                threading.Thread(
                    target=send_at_once,
                    args=(start, path, body, made["seats"][family], results),
                )
                for _ in range(3)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert sorted(results) == [200, 409, 409], results
            after = get(f"{url}/api/games/{made['id']}")[1]
            assert after["step"] == seen["step"] + 1


def test_a_page_of_another_site_is_refused(url: str) -> None:
    made = create(url)
    family, seen = asked(url, made)
    body = {"answer": seen["answers"][0], "step": seen["step"]}
    for origin in ("https://evil.example", "null", "http://127.0.0.1:1"):
        for path, sent in (
            ("/api/games", {"families": 3}),
            (f"/api/games/{made['id']}/answer", body),
        ):
            status, found, _ = call(
                "POST",
                url + path,
                sent,
                token=made["seats"][family],
                headers={"Origin": origin},
            )
            assert status == 403, (origin, path)
            assert "another site" in found["error"]
        # A text/plain form post of another site is refused the same way.
        status, _, _ = call(
            "POST",
            f"{url}/api/games",
            raw=b'{"families": 3}',
            headers={"Origin": origin, "Content-Type": "text/plain"},
        )
        assert status == 403
        ws = url.replace("http://", "ws://") + f"/api/games/{made['id']}/ws"
        with pytest.raises(Exception, match="403"):
            connect(ws, open_timeout=10, origin=Origin(origin))
    assert get(f"{url}/api/games/{made['id']}")[1]["step"] == seen["step"]
    # The server's own pages are served, and a program sends no Origin at all.
    status, _, _ = call("POST", f"{url}/api/games", {"families": 3}, headers={"Origin": url})
    assert status == 201
    with connect(
        url.replace("http://", "ws://") + f"/api/games/{made['id']}/ws",
        open_timeout=10,
        origin=Origin(url),
    ) as socket:
        socket.send(json.dumps({"token": None}))
        assert json.loads(socket.recv(timeout=10))["id"] == made["id"]


def test_another_host_name_is_refused(url: str) -> None:
    port = url.rsplit(":", 1)[1]
    for host, served in (
        (f"evil.example:{port}", False),
        ("rebound.attacker.test", False),
        (f"localhost:{port}", True),
        (f"127.0.0.1:{port}", True),
        (f"games.example.org:{port}", True),
        ("[::1]", True),
    ):
        status, found, _ = call("GET", f"{url}/api/installed", headers={"Host": host})
        assert (status == 200) == served, (host, status)
        if not served:
            assert status == 400
            assert "--allowed-hosts" in found["error"]


def test_a_bot_over_the_servers_cap_is_400_saying_the_cap(url: str) -> None:
    for bot, words in (
        ("ismcts:iterations=10000000", str(Limits().bot_iterations)),
        ("ismcts:seconds=3600", "2"),
    ):
        status, found = post(f"{url}/api/games", {"families": 3, "bots": {"blue": bot}})
        assert status == 400, found
        assert "bots.blue" in found["error"]
        assert words in found["error"]
    made = create(url, bots={"blue": f"ismcts:iterations={Limits().bot_iterations}"})
    assert made["seats"].keys() == {"red", "green"}


def test_a_creation_flood_is_slowed_down(tmp_path: Path) -> None:
    limits = Limits(create_rate=Rate(5, 60.0), bot_workers=2)
    with server_thread(tmp_path / "games.sqlite3", limits=limits) as url:
        statuses = []
        for _ in range(20):
            status, found, headers = call("POST", f"{url}/api/games", {"families": 3})
            statuses.append(status)
            if status == 429:
                assert int(headers["retry-after"]) >= 1
                assert "at most 5 in 60 seconds" in found["error"]
        assert statuses[:5] == [201] * 5
        assert set(statuses[5:]) == {429}


def test_a_seat_answering_too_fast_is_slowed_down(url: str) -> None:
    made = create(url)
    family, seen = asked(url, made)
    token = made["seats"][family]
    path = f"{url}/api/games/{made['id']}/answer"
    # Stale answers (a retry, a double click) are refused for free...
    stale = {"answer": seen["answers"][0], "step": seen["step"] + 1}
    assert {post(path, stale, token)[0] for _ in range(40)} == {409}
    # ...illegal ones reach the engine, and count.
    illegal = {"answer": [999, "first"], "step": seen["step"]}
    statuses = [post(path, illegal, token)[0] for _ in range(40)]
    assert statuses[:30] == [400] * 30
    assert set(statuses[30:]) == {429}
    assert get(f"{url}/api/games/{made['id']}")[1]["step"] == seen["step"]


def test_a_refused_creation_costs_nothing(tmp_path: Path) -> None:
    limits = Limits(create_rate=Rate(2, 60.0), bot_workers=2)
    with server_thread(tmp_path / "games.sqlite3", limits=limits) as url:
        for _ in range(10):
            assert post(f"{url}/api/games", {"families": 9})[0] == 400
        assert [post(f"{url}/api/games", {"families": 3})[0] for _ in range(3)] == [201, 201, 429]


def test_replays_are_slowed_down_per_address(tmp_path: Path) -> None:
    limits = Limits(create_rate=TEST_LIMITS.create_rate, replay_rate=Rate(5, 60.0), bot_workers=2)
    with server_thread(tmp_path / "games.sqlite3", limits=limits) as url:
        made = create(url)
        statuses = [get(f"{url}/api/games/{made['id']}/replay?step=0")[0] for _ in range(8)]
        assert statuses == [200] * 5 + [429] * 3
        # A step that is not a whole number written in ASCII digits is a plain refusal.
        for step in ("%C2%B9", "%D9%A3", "1e3"):
            status, found = get(f"{url}/api/games/{made['id']}/replay?step={step}")
            assert status == 400, step
            assert "whole number" in found["error"]


def test_the_games_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with server_thread(path) as url:
        create(url)
    for found in tmp_path.iterdir():
        mode = stat.S_IMODE(os.stat(found).st_mode)
        assert mode & 0o077 == 0, (found.name, oct(mode))
    loose = tmp_path / "loose.sqlite3"
    loose.touch(mode=0o644)
    SQLiteStore(loose).close()
    assert stat.S_IMODE(os.stat(loose).st_mode) == 0o600
    # A journal left open to others (by an older server) is closed to them too.
    with sqlite3.connect(loose) as db:
        db.execute("PRAGMA user_version")
    wal = Path(f"{loose}-wal")
    wal.write_bytes(b"")
    wal.chmod(0o644)
    opened = SQLiteStore(loose)
    assert stat.S_IMODE(os.stat(wal).st_mode) == 0o600
    opened.close()
    # A file that is not a games file is refused and left as it was.
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n" * 100)
    notes.chmod(0o644)
    with pytest.raises(StoreError):
        SQLiteStore(notes)
    assert stat.S_IMODE(os.stat(notes).st_mode) == 0o644


def test_finished_and_abandoned_games_expire(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "games.sqlite3")
    seat = [Seat("red", "person", token_hash("t"))]
    for game in ("done", "left", "live"):
        store.create(game, {"config": {}}, "start", seat)
    store.record("done", 1, "red", "true", "end", over=True)
    now = time.time()
    assert store.expire(now - 10, now - 10) == []  # all of them answered just now
    gone = store.expire(now + 1, now - 10)
    assert gone == ["done"]
    assert store.load("done") is None
    assert store.answers("done", 10) == []
    assert sorted(store.expire(now + 1, now + 1)) == ["left", "live"]
    assert store.count() == 0
    store.close()


def test_a_full_server_refuses_new_games_saying_so(tmp_path: Path) -> None:
    limits = Limits(create_rate=TEST_LIMITS.create_rate, max_games=3, bot_workers=2)
    with server_thread(tmp_path / "games.sqlite3", limits=limits) as url:
        for _ in range(3):
            create(url)
        status, found, headers = call("POST", f"{url}/api/games", {"families": 3})
        assert status == 503
        assert "at most 3 games" in found["error"]
        assert "retry-after" in headers


def test_a_game_of_bots_alone_waits_while_nobody_watches(tmp_path: Path) -> None:
    # With no time unwatched allowed, it waits from the start until someone watches.
    limits = Limits(create_rate=TEST_LIMITS.create_rate, unwatched_seconds=0, bot_workers=2)
    bots = dict.fromkeys(["red", "blue", "green"], "random")
    with server_thread(tmp_path / "games.sqlite3", limits=limits) as url:
        made = create(url, bots=bots, seed=SEED)
        time.sleep(1)
        assert get(f"{url}/api/games/{made['id']}")[1]["step"] == 0
        with watch(url, made["id"], None) as socket:
            deadline = time.monotonic() + 30
            while json.loads(socket.recv(timeout=30))["phase"] != "end":
                assert time.monotonic() < deadline
