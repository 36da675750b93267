"""Several server processes, one truth: ``oriflamme serve`` started twice on one store
(a PostgreSQL database, as hosts behind a load balancer; a SQLite file, as processes on
one host), clients spread over both, and one of them killed with ``kill -9``.

What each test holds to: any process takes any answer for any game; two processes
answering one step at once keep one answer and refuse the other (409); a watcher on
one process sees every answer taken by the other; a game's bots run in one process,
and go on in another when that one dies; and ``serve --workers N`` shares one port
between N processes, starting again one that is killed.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from oriflamme.web.store import open_store
from oriflamme.web.tables import LEASE_SECONDS

from .web_server import (
    STORES,
    answer,
    fresh_db,
    get,
    post,
    server_process,
    server_thread,
    watch,
)

SEED = 2_817_346_105  # as the server draws them: a 32-bit number
#: Seconds a game may wait on another process to take its bots on (the lease a dead
#: process held lapses, then the next look for games waiting on bots finds it).
TAKE_OVER_SECONDS = 40


@pytest.fixture(params=STORES)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_db(request, tmp_path, "processes")


@contextlib.contextmanager
def two_servers(db: str, args: tuple[str, ...] = ()) -> Iterator[list[tuple[str, Any]]]:
    with server_process(db, args) as one, server_process(db, args) as other:
        yield [one, other]


def wait_for(
    url: str, game: str, token: str | None, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    deadline = time.monotonic() + TAKE_OVER_SECONDS + 30
    while True:
        status, view = get(f"{url}/api/games/{game}", token)
        assert status == 200, view
        if done(view):
            return view  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, f"the game stayed at step {view['step']}"
        time.sleep(0.05)


def asked_or_over(view: dict[str, Any]) -> bool:
    return bool(view["answers"]) or view["phase"] == "end"


def test_a_game_played_through_two_processes_is_seen_whole_on_both(db: str) -> None:
    print(f"seed {SEED}, store {db}")
    rng = random.Random(SEED)
    with two_servers(db) as servers:
        urls = [url for url, _ in servers]
        status, made = post(
            f"{urls[0]}/api/games", {"families": 3, "seed": SEED, "bots": {"green": "random"}}
        )
        assert status == 201, made
        game, seats = made["id"], made["seats"]
        # Red answers through the first process and watches on the second; blue the
        # other way round; a spectator watches on each.
        answers_to = {"red": urls[0], "blue": urls[1]}
        watchers = [("red", urls[1]), ("blue", urls[0]), (None, urls[0]), (None, urls[1])]
        with contextlib.ExitStack() as stack:
            sockets = [
                (who, stack.enter_context(watch(url, game, seats.get(who or ""))))
                for who, url in watchers
            ]
            steps = 0
            while True:
                views = {f: get(f"{answers_to[f]}/api/games/{game}", seats[f])[1] for f in seats}
                if views["red"]["phase"] == "end":
                    break
                asked = [f for f, view in views.items() if view["answers"]]
                if not asked:  # the bot's turn
                    time.sleep(0.02)
                    continue
                family = asked[0]
                view = views[family]
                # The answer goes to the process that did not give the view.
                url = answers_to[family]
                answer(url, game, seats[family], rng.choice(view["answers"]), view["step"])
                steps += 1
            final = {url: get(f"{url}/api/games/{game}")[1] for url in urls}
            assert final[urls[0]] == final[urls[1]]
            last = final[urls[0]]["step"]
            print(f"{steps} answers by people, {last} in all")
            for who, socket in sockets:
                frames = [json.loads(socket.recv(timeout=30))]
                while frames[-1]["step"] < last:
                    frames.append(json.loads(socket.recv(timeout=30)))
                assert frames[-1]["phase"] == "end", who
                steps_seen = [frame["step"] for frame in frames]
                assert steps_seen == sorted(steps_seen), who
    store = open_store(db)
    try:
        kept = store.load(game)
        assert kept is not None
        assert kept.over
        assert kept.step == last
        assert len(store.answers(game)) == last
    finally:
        store.close()


def test_one_step_answered_on_two_processes_at_once_is_kept_once(db: str) -> None:
    print(f"seed {SEED}, store {db}")
    rng = random.Random(SEED)
    with two_servers(db) as servers:
        urls = [url for url, _ in servers]
        status, made = post(f"{urls[0]}/api/games", {"families": 3, "seed": SEED})
        assert status == 201, made
        game, seats = made["id"], made["seats"]
        for _ in range(12):
            views = {f: get(f"{urls[0]}/api/games/{game}", t)[1] for f, t in seats.items()}
            family = next(f for f, view in views.items() if view["answers"])
            view = views[family]
            given = rng.choice(view["answers"])
            results = race(urls, game, seats[family], given, view["step"])
            statuses = sorted(status for status, _ in results)
            assert statuses == [200, 409], results
            refused = next(body for status, body in results if status == 409)
            assert "step" in refused["error"], refused
        after = [get(f"{url}/api/games/{game}")[1]["step"] for url in urls]
        assert after == [12, 12]
    store = open_store(db)
    try:
        assert len(store.answers(game)) == 12
    finally:
        store.close()


def race(urls: list[str], game: str, token: str, given: Any, step: int) -> list[tuple[int, Any]]:
    """The same answer sent to each server at the same moment: each one's (status, body)."""
    start = threading.Barrier(len(urls))
    results: list[tuple[int, Any]] = []

    def send(url: str) -> None:
        start.wait()
        body = {"answer": given, "step": step}
        results.append(post(f"{url}/api/games/{game}/answer", body, token))

    threads = [threading.Thread(target=send, args=(url,)) for url in urls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_a_database_restart_is_not_felt_by_players(postgres: Any, tmp_path: Path) -> None:
    """Every connection the servers held is cut: no request fails for it, and a watcher
    hears again of the answers the other server takes (it listens again)."""
    db = postgres.database(f"restart_{os.getpid()}")
    rng = random.Random(SEED)
    print(f"seed {SEED}, store {db}")
    with server_thread(db) as one, server_thread(db) as other:
        status, made = post(f"{one}/api/games", {"families": 3, "seed": SEED})
        assert status == 201, made
        game, seats = made["id"], made["seats"]
        with watch(one, game, None) as socket:
            socket.recv(timeout=30)

            def answer_once() -> int:
                views = {f: get(f"{other}/api/games/{game}", t) for f, t in seats.items()}
                assert all(status == 200 for status, _ in views.values()), views
                family = next(f for f, (_, view) in views.items() if view["answers"])
                view = views[family][1]
                given = rng.choice(view["answers"])
                return answer(other, game, seats[family], given, view["step"])["step"]  # type: ignore[no-any-return]

            answer_once()
            assert json.loads(socket.recv(timeout=30))["step"] == 1
            postgres.restart()
            for _ in range(6):
                step = answer_once()
            frame = json.loads(socket.recv(timeout=30))
            while frame["step"] < step:
                frame = json.loads(socket.recv(timeout=30))
            assert frame["step"] == step == 7


def play_red(url: str, made: dict[str, Any], rng: random.Random, answers: int) -> dict[str, Any]:
    """Red (the one person) answers ``answers`` times through ``url`` (or until the end):
    its view after its last answer."""
    view: dict[str, Any] = {}
    for _ in range(answers):
        found = wait_for(url, made["id"], made["seats"]["red"], asked_or_over)
        if found["phase"] == "end":
            return found
        view = answer(
            url, made["id"], made["seats"]["red"], rng.choice(found["answers"]), found["step"]
        )
    return view


@pytest.mark.slow
@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_kill_9_of_the_process_running_the_bots_loses_nothing_and_another_runs_them(
    db: str,
) -> None:
    print(f"seed {SEED}, store {db}")
    # Bots that think a little, so that the kill finds them thinking.
    bots = {"blue": "ismcts:iterations=1000", "green": "ismcts:iterations=1000"}
    request = {"families": 3, "seed": SEED, "bots": bots}
    rng = random.Random(SEED)
    with two_servers(db) as servers:
        (first, first_process), (second, _) = servers
        status, made = post(f"{first}/api/games", request)
        assert status == 201, made
        game, red = made["id"], made["seats"]["red"]
        # Red answers through the first process, which so runs the bots after each answer.
        play_red(first, made, rng, 4)
        with watch(second, game, red) as socket:
            socket.recv(timeout=30)
            before = play_red(first, made, rng, 1)
            while before["answers"]:  # red again: on until a bot's turn
                before = play_red(first, made, rng, 1)
            # Killed once it holds the lease on the game's bots: they are thinking in it.
            holder = lease_holder(db, game)
            assert holder is not None, "the first process did not take the bots on"
            first_process.send_signal(signal.SIGKILL)
            first_process.wait(30)
            killed = time.monotonic()
            view = json.loads(socket.recv(timeout=TAKE_OVER_SECONDS))
            while view["step"] <= before["step"]:
                view = json.loads(socket.recv(timeout=TAKE_OVER_SECONDS))
            took = time.monotonic() - killed
            print(f"killed at step {before['step']}; a bot answered {took:.1f} s later")
            # Not before the dead process's lease lapsed: nobody ran them twice.
            assert took > LEASE_SECONDS / 2, took
        status, then = get(f"{second}/api/games/{game}/replay?step={before['step']}", red)
        assert status == 200
        for field in ("queue", "hand", "influence", "log", "round", "phase"):
            assert then[field] == before[field], field
        final = play_red(second, made, rng, 10_000)
        final = wait_for(second, game, red, lambda v: v["phase"] == "end")
        assert final["phase"] == "end"
    store = open_store(db)
    try:
        kept = store.load(game)
        assert kept is not None
        assert kept.over
        assert len(store.answers(game)) == final["step"]
    finally:
        store.close()


def lease_holder(db: str, game: str) -> str | None:
    """Who holds the lease on ``game``'s bots (None once a second has passed with nobody
    holding it), read straight from the PostgreSQL database."""
    import psycopg  # noqa: PLC0415 - the postgres extra

    deadline = time.monotonic() + 1.0
    with psycopg.connect(db, autocommit=True) as connection:
        while time.monotonic() < deadline:
            row = connection.execute(
                "SELECT bot_owner FROM oriflamme.games WHERE id = %s", (game,)
            ).fetchone()
            if row is not None and row[0] is not None:
                return str(row[0])
            time.sleep(0.005)
    return None


def server_children(process: Any) -> list[int]:
    """The server processes ``serve --workers`` started (not the helpers Python starts)."""
    found = []
    path = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    for pid in path.read_text().split():
        with contextlib.suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            if b"spawn_main" in command:
                found.append(int(pid))
    return found


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime and stime


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_serve_workers_share_the_port_and_one_killed_is_started_again(db: str) -> None:
    print(f"seed {SEED}, store {db}")
    with server_process(db, ["--workers", "2"]) as (url, process):
        deadline = time.monotonic() + 60
        while len(children := server_children(process)) < 2:
            assert time.monotonic() < deadline, "serve --workers 2 did not start 2 processes"
            time.sleep(0.1)
        ticks = {pid: cpu_ticks(pid) for pid in children}
        rng = random.Random(SEED)
        made = [
            post(
                f"{url}/api/games", {"families": 3, "seed": SEED + n, "bots": {"green": "random"}}
            )[1]
            for n in range(4)
        ]
        # Each request on a new connection, from several clients at once: the system
        # hands connections to both processes.
        failed: list[BaseException] = []

        def play(game: dict[str, Any], answers: int) -> None:
            try:
                playing(game, answers)
            except BaseException as exc:
                failed.append(exc)

        def playing(game: dict[str, Any], answers: int) -> None:
            mine = random.Random(rng.random())
            deadline = time.monotonic() + 120
            while answers > 0:
                assert time.monotonic() < deadline, "the game did not move on"
                views = {
                    f: get(f"{url}/api/games/{game['id']}", t)[1] for f, t in game["seats"].items()
                }
                if views["red"]["phase"] == "end":
                    return
                asked = [f for f, v in views.items() if v["answers"]]
                if not asked:  # the bot's turn
                    time.sleep(0.02)
                    continue
                view = views[asked[0]]
                given = mine.choice(view["answers"])
                answer(url, game["id"], game["seats"][asked[0]], given, view["step"])
                answers -= 1

        threads = [threading.Thread(target=play, args=(game, 15)) for game in made]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not failed, failed
        worked = {pid: cpu_ticks(pid) - ticks[pid] for pid in children}
        print(f"CPU ticks of each server process: {worked}")
        assert all(used > 0 for used in worked.values()), worked
        os.kill(children[0], signal.SIGKILL)
        deadline = time.monotonic() + 60
        while len(again := server_children(process)) < 2 or children[0] in again:
            assert time.monotonic() < deadline, "the killed server process was not replaced"
            time.sleep(0.1)
        threads = [threading.Thread(target=play, args=(game, 10_000)) for game in made]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(300)
        assert not failed, failed
        for game in made:
            assert get(f"{url}/api/games/{game['id']}")[1]["phase"] == "end"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_serve_workers_gives_up_saying_why_when_no_process_can_start(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "oriflamme", "serve", "--port", "0", "--db", str(db)]
            + ["--workers", "2"],
            stdout=stdout,
            stderr=stderr,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while len(children := server_children(process)) < 2:
            assert time.monotonic() < deadline, "serve --workers 2 did not start 2 processes"
            time.sleep(0.1)
        time.sleep(1.0)  # both have opened the file
        # The file is no longer a games file: a process started now cannot open it.
        junk = tmp_path / "junk"
        junk.write_bytes(b"not a games file " * 100)
        for end in ("-wal", "-shm"):
            Path(f"{db}{end}").unlink(missing_ok=True)
        os.replace(junk, db)
        for child in children:  # none left serving
            os.kill(child, signal.SIGKILL)
        status = process.wait(120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(30)
    said = err.read_text()
    print(said)
    assert status != 0
    assert "none is serving" in said.strip().splitlines()[-1]
    assert f"cannot use {db}" in said  # each process said why
    assert "Traceback" not in said


def test_a_client_meets_each_rate_limit_once_across_processes_and_restarts(db: str) -> None:
    # Four creations an address and three answers a seat in ten minutes, whichever
    # process serves them, before and after a restart.
    args = ("--create-rate", "4/600", "--answer-rate", "3/600")
    print(f"seed {SEED}, store {db}")
    bots = {"blue": "random", "green": "random"}

    def red_answers(urls: list[str], game: dict[str, Any], count: int) -> list[int]:
        statuses = []
        for n in range(count):
            view = wait_for(urls[0], game["id"], game["seats"]["red"], asked_or_over)
            status, _ = post(
                f"{urls[n % len(urls)]}/api/games/{game['id']}/answer",
                {"answer": view["answers"][0], "step": view["step"]},
                token=game["seats"]["red"],
            )
            statuses.append(status)
        return statuses

    with two_servers(db, args) as servers:
        urls = [url for url, _ in servers]
        made = [
            post(f"{urls[n % 2]}/api/games", {"families": 3, "seed": SEED + n, "bots": bots})
            for n in range(8)
        ]
        assert [status for status, _ in made] == [201] * 4 + [429] * 4
        game = made[0][1]
        answered = red_answers(urls, game, 4)
        assert answered == [200, 200, 200, 429]
    # Started again: what came before still counts.
    with server_process(db, args) as (url, _):
        status, found = post(f"{url}/api/games", {"families": 3, "bots": bots})
        assert status == 429, found
        assert "try again in" in found["error"]
        assert red_answers([url], game, 1) == [429]
    print(f"creations through two processes: {[s for s, _ in made]}; red's answers: {answered}")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_serve_workers_2_meets_a_client_with_one_limit(db: str) -> None:
    with server_process(db, ["--workers", "2", "--create-rate", "5/600"]) as (url, process):
        deadline = time.monotonic() + 60
        while len(server_children(process)) < 2:
            assert time.monotonic() < deadline, "serve --workers 2 did not start 2 processes"
            time.sleep(0.1)
        # Each request on a new connection: the system hands them to either process.
        statuses = [post(f"{url}/api/games", {"families": 3, "bots": {}})[0] for _ in range(12)]
        print(f"creations through serve --workers 2: {statuses}")
        assert statuses == [201] * 5 + [429] * 7
