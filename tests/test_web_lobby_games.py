"""Games made as the lobby makes them, with no seed (the server draws one of up to 19
digits), survive a restart (``kill -9``), a replay, and being let go from memory.

The games are played by people answering at random through the API, past several of
the file's saves (one every ``SAVE_EVERY`` answers), and stopped between two of them.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

from oriflamme.web.limits import Limits
from oriflamme.web.store import SAVE_EVERY

from .web_server import TEST_LIMITS, answer, get, post, server_process, server_thread

SEED = 2101
#: As the lobby sends it: no seed.
LOBBY = ({"families": 3}, {"families": 4, "sets": ["base", "ablaze"], "size": 10})


def play(url: str, made: dict[str, Any], rng: random.Random, answers: int) -> dict[str, Any]:
    """People answer at random ``answers`` times (or to the end): the spectator's view."""
    tokens = made["seats"]
    for _ in range(answers):
        views = {f: get(f"{url}/api/games/{made['id']}", t)[1] for f, t in tokens.items()}
        asked = [f for f, v in views.items() if v["answers"]]
        if not asked:
            break
        (family,) = asked
        seen = views[family]
        answer(url, made["id"], tokens[family], rng.choice(seen["answers"]), seen["step"])
    return get(f"{url}/api/games/{made['id']}")[1]  # type: ignore[no-any-return]


def views_of(url: str, made: dict[str, Any]) -> dict[str | None, Any]:
    found = {f: get(f"{url}/api/games/{made['id']}", t)[1] for f, t in made["seats"].items()}
    found[None] = get(f"{url}/api/games/{made['id']}")[1]
    return found


def seeds(db: Path) -> list[int]:
    with sqlite3.connect(db) as found:
        rows = found.execute("SELECT request FROM games").fetchall()
    return [json.loads(row[0])["config"]["seed"] for row in rows]


def test_lobby_games_survive_a_kill_and_replay_after_it(tmp_path: Path) -> None:
    print(f"seed {SEED}")
    rng = random.Random(SEED)
    db = tmp_path / "games.sqlite3"
    made: list[dict[str, Any]] = []
    before: list[dict[str | None, Any]] = []
    with server_process(db) as (url, process):
        for number in range(6):
            status, game = post(f"{url}/api/games", LOBBY[number % 2])
            assert status == 201, game
            # Stopped between two saves, and past at least one.
            play(url, game, rng, SAVE_EVERY + 1 + number * 3)
            made.append(game)
            before.append(views_of(url, game))
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    drawn = seeds(db)
    print(f"seeds drawn: {drawn}")
    assert all(0 <= seed < 2**63 for seed in drawn)
    with server_process(db) as (url, _):
        for game, views in zip(made, before, strict=True):
            assert views_of(url, game) == views
            step = views[None]["step"]
            for family, token in game["seats"].items():
                status, replayed = get(f"{url}/api/games/{game['id']}/replay?step={step}", token)
                assert status == 200, replayed
                for field in ("queue", "hand", "influence", "log", "round", "phase"):
                    assert replayed[field] == views[family][field], field
            # And it plays on to the end.
            final = play(url, game, rng, 10_000)
            assert final["phase"] == "end"


def test_lobby_games_let_go_from_memory_are_read_back(tmp_path: Path) -> None:
    print(f"seed {SEED}")
    rng = random.Random(SEED)
    limits = Limits(create_rate=TEST_LIMITS.create_rate, max_live=4, bot_workers=2)
    with server_thread(tmp_path / "games.sqlite3", limits=limits) as url:
        made, before = [], []
        for number in range(12):  # three times what memory holds
            status, game = post(f"{url}/api/games", LOBBY[number % 2])
            assert status == 201, game
            play(url, game, rng, 3 + number)
            made.append(game)
            before.append(views_of(url, game))
        for game, views in zip(made, before, strict=True):
            assert views_of(url, game) == views
            status, replayed = get(f"{url}/api/games/{game['id']}/replay?step=1")
            assert status == 200, replayed


def test_games_polled_past_what_memory_holds_play_on(tmp_path: Path) -> None:
    # Two games waiting on a searching bot, each polled by its player, with room in
    # memory for one: a game whose bots are thinking is not let go, so both move on.
    print(f"seed {SEED}")
    limits = Limits(create_rate=TEST_LIMITS.create_rate, max_live=1, bot_workers=2)
    bots = {"red": "ismcts:iterations=30", "blue": "ismcts:iterations=30"}
    with server_thread(tmp_path / "games.sqlite3", limits=limits) as url:
        made = [
            post(f"{url}/api/games", {"families": 3, "bots": bots, "first_player": "red"})[1]
            for _ in range(2)
        ]
        deadline = time.monotonic() + 60
        while True:
            views = [
                get(f"{url}/api/games/{game['id']}", game["seats"]["green"])[1] for game in made
            ]
            if all(view["answers"] for view in views):
                break  # both games came round to the person
            assert time.monotonic() < deadline, [view["step"] for view in views]
            time.sleep(0.02)
        assert all(view["step"] >= 2 for view in views)
