"""Load on the web server: many games at once, people answering and websockets watching.

Starts ``oriflamme serve`` on 127.0.0.1 (a free port, a fresh SQLite file in a
temporary folder), then ``--clients`` threads each play games to the end through the
JSON API, every seat a person answering at random (seeded), while one websocket per
seat and one spectator's take every view pushed; ``--bot-games`` games of bots alone
run beside them. Bounded by ``--games`` and ``--seconds``. Prints games finished,
answers a second, the latency of an answer (p50, p95, p99), frames pushed, and errors
(anything but a success; there must be none).

    .venv/bin/python benchmarks/web_load.py --clients 16 --games 64
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.web_server import call, server_process

from oriflamme.simulate import progress_bar


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.games = 0
        self.frames = 0
        self.errors: list[str] = []

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


def request(method: str, url: str, body: object = None) -> tuple[int, Any]:
    status, found, _ = call(method, url, body)
    return status, found


def watch(url: str, tally: Tally, stop: threading.Event) -> None:
    """One websocket: counts frames until the game is over (or the run is)."""
    try:
        with connect(url, open_timeout=30) as socket:
            while not stop.is_set():
                try:
                    view = json.loads(socket.recv(timeout=1))
                except TimeoutError:
                    continue
                with tally.lock:
                    tally.frames += 1
                if view["phase"] == "end":
                    return
    except Exception as exc:
        tally.error(f"websocket: {type(exc).__name__}: {exc}")


def play_game(url: str, seed: int, tally: Tally, stop: threading.Event) -> None:
    rng = random.Random(seed)
    families = 3 + seed % 3
    sets = (["base"], ["ablaze"], ["base", "ablaze"])[seed % 3]
    status, made = request(
        "POST", f"{url}/api/games", {"families": families, "sets": sets, "size": 10, "seed": seed}
    )
    if status != 201:
        tally.error(f"create: {status} {made!r:.200}")
        return
    game, tokens = made["id"], made["seats"]
    ws = url.replace("http://", "ws://") + f"/api/games/{game}/ws"
    watchers = [
        threading.Thread(target=watch, args=(f"{ws}?token={token}", tally, stop))
        for token in tokens.values()
    ]
    watchers.append(threading.Thread(target=watch, args=(ws, tally, stop)))
    for thread in watchers:
        thread.start()
    # Whose turn it is comes with each answer's view (waiting_for): no polling.
    status, view = request("GET", f"{url}/api/games/{game}?token={next(iter(tokens.values()))}")
    while status == 200 and view["phase"] != "end" and not stop.is_set():
        family = view["waiting_for"]
        status, view = request("GET", f"{url}/api/games/{game}?token={tokens[family]}")
        if status != 200:
            break
        started = time.perf_counter()
        status, view = request(
            "POST",
            f"{url}/api/games/{game}/answer?token={tokens[family]}",
            {"answer": rng.choice(view["answers"])},
        )
        with tally.lock:
            tally.latencies.append(time.perf_counter() - started)
    if status != 200:
        tally.error(f"game {game}: {status} {view!r:.200}")
    elif view["phase"] == "end":
        with tally.lock:
            tally.games += 1
    for thread in watchers:
        thread.join(60)


def bot_game(url: str, seed: int, tally: Tally) -> None:
    bots = dict.fromkeys(["red", "blue", "green", "yellow"], "random")
    status, made = request("POST", f"{url}/api/games", {"families": 4, "seed": seed, "bots": bots})
    if status != 201:
        tally.error(f"create bot game: {status}")
        return
    watch(url.replace("http://", "ws://") + f"/api/games/{made['id']}/ws", tally, threading.Event())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16, help="games played at once")
    parser.add_argument("--games", type=int, default=64, help="games played by people")
    parser.add_argument("--bot-games", type=int, default=16, help="games of bots alone")
    parser.add_argument("--seconds", type=float, default=300, help="stop after this long")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    tally = Tally()
    stop = threading.Event()
    seeds = iter(range(args.seed, args.seed + args.games))
    seeds_lock = threading.Lock()
    show = progress_bar(args.games, sys.stderr)

    def client(url: str) -> None:
        while not stop.is_set():
            with seeds_lock:
                seed = next(seeds, None)
            if seed is None:
                return
            play_game(url, seed, tally, stop)
            show(tally.games)

    with (
        tempfile.TemporaryDirectory() as folder,
        server_process(Path(folder) / "g.sqlite3") as (
            url,
            _,
        ),
    ):
        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(url,)) for _ in range(args.clients)]
        threads += [
            threading.Thread(target=bot_game, args=(url, 10_000 + n, tally))
            for n in range(args.bot_games)
        ]
        for thread in threads:
            thread.start()
        deadline = started + args.seconds
        for thread in threads:
            thread.join(max(0.0, deadline - time.perf_counter()))
        stop.set()
        for thread in threads:
            thread.join(60)
        seconds = time.perf_counter() - started
    latencies = sorted(tally.latencies)
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    print(
        f"{tally.games} games by people and {args.bot_games} of bots, {args.clients} at once, "
        f"in {seconds:.1f} s"
    )
    print(f"answers: {len(latencies)}, {len(latencies) / seconds:.0f} a second")
    print(
        f"answer latency: p50 {cuts[49] * 1000:.1f} ms, p95 {cuts[94] * 1000:.1f} ms, "
        f"p99 {cuts[98] * 1000:.1f} ms"
    )
    print(f"websocket frames: {tally.frames}")
    print(f"errors: {len(tally.errors)}")
    for line in tally.errors[:10]:
        print(f"  {line}")
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
