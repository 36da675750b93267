"""The JSON API of docs/web.md, as a contract, against a real server on 127.0.0.1.

Each test talks HTTP (and websockets) over loopback to uvicorn serving the app, its
games in a SQLite file under a temporary folder, and again in a PostgreSQL database.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import oriflamme_house_rules
import pytest
from websockets.sync.client import connect

from .web_server import STORES, answer, call, fresh_db, get, post, server_thread, watch

SEED = 7


@pytest.fixture(scope="module", params=STORES)
def url(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[str]:
    db = fresh_db(request, tmp_path_factory.mktemp("web"), "api")
    with server_thread(db, {"house_rules": oriflamme_house_rules}) as found:
        yield found


def create(url: str, **fields: Any) -> dict[str, Any]:
    status, made = post(f"{url}/api/games", {"families": 3, **fields})
    assert status == 201, made
    return made  # type: ignore[no-any-return]


def view(url: str, game: str, token: str | None = None) -> dict[str, Any]:
    status, found = get(f"{url}/api/games/{game}", token)
    assert status == 200, found
    return found  # type: ignore[no-any-return]


def turn(url: str, game: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The person whose turn it is and their view, waiting while bots play."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for family, token in tokens.items():
            seen = view(url, game, token)
            if seen["answers"] or seen["phase"] == "end":
                return family, seen
        time.sleep(0.02)
    raise AssertionError("no one was asked for 30 s")


def play(url: str, made: dict[str, Any], rng: random.Random, answers: int | None = None) -> None:
    """People answer at random (``answers`` of them, or to the end)."""
    tokens = made["seats"]
    while answers is None or answers > 0:
        family, seen = turn(url, made["id"], tokens)
        if seen["phase"] == "end":
            return
        after = answer(url, made["id"], tokens[family], rng.choice(seen["answers"]), seen["step"])
        assert after["step"] == seen["step"] + 1
        answers = None if answers is None else answers - 1


def test_installed_lists_the_plugins_sets_variants_and_bots(url: str) -> None:
    status, found = get(f"{url}/api/installed")
    assert status == 200
    assert found["families"] == ["red", "blue", "green", "yellow", "black"]
    assert (found["min_families"], found["max_families"]) == (3, 5)
    sets = {s["name"]: s for s in found["sets"]}
    assert {"base", "ablaze", "house"} <= set(sets)
    assert "jester" in {card["key"] for card in sets["house"]["cards"]}
    variants = {v["name"]: v for v in found["variants"]}
    assert variants["bounty"]["plugin"] == "house_rules"
    assert variants["bounty"]["help"]
    assert {"random", "heuristic", "ismcts"} <= set(found["bots"])
    # The levels first, weakest first, each with the bot it is and what it is.
    assert [level["name"] for level in found["levels"]] == ["beginner", "easy", "medium", "hard"]
    assert all(level["bot"] and level["help"] for level in found["levels"])
    assert found["default_bot"] == "medium"
    assert "house_rules" in {p["name"] for p in found["plugins"]}


def test_a_seat_is_given_a_bot_level(url: str) -> None:
    # Every level, two to a game, within the server's caps, kept by its name.
    status, found = get(f"{url}/api/installed")
    assert status == 200
    names = [level["name"] for level in found["levels"]]
    assert len(names) == 4
    for blue, green in zip(names[::2], names[1::2], strict=True):
        made = create(url, bots={"blue": blue, "green": green})
        assert set(made["seats"]) == {"red"}
        seen = view(url, made["id"], made["seats"]["red"])
        assert seen["seats"] == {"red": "person", "blue": blue, "green": green}
    status, found = post(f"{url}/api/games", {"families": 3, "bots": {"blue": "hard:x=1"}})
    assert status == 400
    assert "bots.blue: bot level 'hard' takes no settings" in found["error"]


def test_creating_a_game_gives_one_token_per_person_and_a_spectator_link(url: str) -> None:
    made = create(url, bots={"blue": "random"})
    assert set(made["seats"]) == {"red", "green"}
    assert made["seats"]["red"] != made["seats"]["green"]
    assert made["spectate"] == f"{url}/play/{made['id']}"
    assert made["links"]["red"] == f"{made['spectate']}#token={made['seats']['red']}"
    assert made["table"] == f"{url}/table/{made['id']}#token={made['creator']}"
    assert made["creator"] not in made["seats"].values()
    seen = view(url, made["id"], made["seats"]["red"])
    assert seen["seat"] == "red"
    assert seen["seats"] == {"red": "person", "blue": "random", "green": "person"}
    assert seen["families"] == ["red", "blue", "green"]
    assert len(seen["hand"]) == 7
    assert "seed" not in json.dumps(seen)


def test_every_field_of_a_creation_is_used(url: str) -> None:
    made = create(
        url,
        families=["black", "yellow", "red", "blue"],
        sets=["base", "ablaze"],
        size=10,
        seed=11,
        variants={"bounty": True},
        first_player="yellow",
        bots={"red": "random", "blue": "random"},
    )
    seen = view(url, made["id"], made["seats"]["black"])
    assert seen["families"] == ["black", "yellow", "red", "blue"]
    assert seen["first_player"] == "yellow"
    assert seen["sets"] == ["base", "ablaze"]
    assert seen["variants"]["bounty"] is True
    assert len(set(seen["cards"]) - {"twin"}) == 10  # a Prince brings its Twin along
    listed = create(url, cards=["soldier", "archer", "lord", "jester"] * 2 + ["spy", "heir"])
    assert view(url, listed["id"])["cards"][:4] == ["soldier", "archer", "lord", "jester"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "families is required"),
        ({"families": 2}, "3 to 5"),
        ({"families": ["red", "red", "blue"]}, "must differ"),
        ({"families": 3, "colour": "red"}, "unknown field 'colour'"),
        ({"families": 3, "sets": ["nope"]}, "nope"),
        ({"families": 3, "seed": 1.5}, "seed must be a whole number"),
        ({"families": 3, "bots": {"blue": "genius"}}, "bots.blue: unknown bot 'genius'"),
        ({"families": 3, "bots": {"purple": "random"}}, "'purple' is not a family"),
        ({"families": 3, "bots": {"blue": "ismcts:iterations=0"}}, "bots.blue: bot 'ismcts'"),
        ({"families": 3, "variants": {"no_such": True}}, "no_such"),
        ({"families": 3, "without": ["base"]}, "without: 'base'"),
        ({"families": 3, "first_player": "black"}, "first_player"),
        ([1, 2], "JSON object"),
    ],
)
def test_a_bad_creation_is_400_naming_the_field(url: str, body: object, words: str) -> None:
    status, found = post(f"{url}/api/games", body)
    assert status == 400, found
    assert words in found["error"]


def test_not_json_and_too_large_bodies_are_refused(url: str) -> None:
    status, found, _ = call("POST", f"{url}/api/games", raw=b"{not json")
    assert status == 400
    assert "not JSON" in found["error"]
    status, found, _ = call("POST", f"{url}/api/games", raw=b"[" * 100_000)
    assert status == 413
    assert "larger than" in found["error"]
    status, found, _ = call("POST", f"{url}/api/games", raw=b"[" * 60_000 + b"]" * 60)
    assert status == 400


def test_wrong_token_is_403_and_unknown_game_404(url: str) -> None:
    made = create(url)
    assert get(f"{url}/api/games/{made['id']}", "wrong")[0] == 403
    assert get(f"{url}/api/games/{made['id']}", made["creator"])[0] == 403
    assert get(f"{url}/api/games/nosuchgame")[0] == 404
    assert get(f"{url}/api/games/{'x' * 500}")[0] == 404
    status, found = post(f"{url}/api/games/nosuchgame/answer", {"answer": True, "step": 0}, "x")
    assert status == 404
    assert "no game" in found["error"]
    status, found = post(f"{url}/api/games/{made['id']}/answer", {"answer": True, "step": 0})
    assert status == 403
    assert get(f"{url}/api/nothing")[0] == 404


def test_a_refused_answer_leaves_the_game_as_it_was(url: str) -> None:
    print(f"seed {SEED}")
    made = create(url, seed=SEED)
    game, tokens = made["id"], made["seats"]
    family, seen = turn(url, game, tokens)
    other = next(f for f in tokens if f != family)
    before = {f: view(url, game, t) for f, t in tokens.items()}
    # Not its turn: refused before the engine sees it, naming whose turn it is.
    step = seen["step"]
    status, found = post(
        f"{url}/api/games/{game}/answer",
        {"answer": seen["answers"][0], "step": step},
        tokens[other],
    )
    assert status == 409
    assert f"it is {family}'s turn" in found["error"]
    bad: object
    for bad in ([999, "first"], "sideways", None, [[[]]], {"card": 1}, True, 10**40):
        status, found = post(
            f"{url}/api/games/{game}/answer", {"answer": bad, "step": step}, tokens[family]
        )
        assert status == 400, (bad, found)
        assert found["error"]
    for body in (
        {},
        {"answer": 1, "more": 2},
        [1],
        {"answer": seen["answers"][0]},
        {"answer": seen["answers"][0], "step": "0"},
        {"answer": seen["answers"][0], "step": True},
    ):
        status, found = post(f"{url}/api/games/{game}/answer", body, tokens[family])
        assert status == 400
        assert '{"answer"' in found["error"]
        assert '"step"' in found["error"]
    for stale in (step - 1, step + 1, 10**30):
        status, found = post(
            f"{url}/api/games/{game}/answer",
            {"answer": seen["answers"][0], "step": stale},
            tokens[family],
        )
        assert status == 409, (stale, found)
        assert f"the game is at step {step}" in found["error"]
    assert {f: view(url, game, t) for f, t in tokens.items()} == before


def test_a_whole_game_through_the_api_with_a_bot(url: str) -> None:
    print(f"seed {SEED}")
    made = create(url, sets=["ablaze"], bots={"green": "random"}, seed=SEED)
    play(url, made, random.Random(SEED))
    final = view(url, made["id"])
    assert final["phase"] == "end"
    assert final["answers"] == []
    assert final["waiting_for"] is None
    assert set(final["scores"]) == {"red", "blue", "green"}
    assert final["winners"]
    assert final["scores"] == final["influence"]
    assert any(line for line in final["log"])
    # Every answer is offered as text too, and the question is asked in words.
    status, last = get(f"{url}/api/games/{made['id']}/replay?step={final['step'] - 1}")
    assert status == 200
    assert last["steps"] == final["step"]


def test_every_bot_kind_takes_a_seat_with_its_settings(url: str) -> None:
    print(f"seed {SEED}")
    bots = {"blue": "heuristic", "green": "ismcts:iterations=20"}
    made = create(url, bots=bots, seed=SEED)
    assert view(url, made["id"])["seats"] == {"red": "person", **bots}
    play(url, made, random.Random(SEED))
    assert view(url, made["id"])["phase"] == "end"


def test_views_say_who_is_asked_and_offer_only_their_answers(url: str) -> None:
    made = create(url, seed=SEED + 1)
    family, seen = turn(url, made["id"], made["seats"])
    assert seen["waiting_for"] == family
    assert seen["question"]
    assert len(seen["answer_texts"]) == len(seen["answers"])
    assert seen["answers"] == seen["decision"]["options"]
    for other, token in made["seats"].items():
        if other != family:
            theirs = view(url, made["id"], token)
            assert theirs["answers"] == []
            assert theirs["question"] is None
            assert theirs["waiting_for"] == family
    spectator = view(url, made["id"])
    assert spectator["seat"] is None
    assert spectator["hand"] == []
    assert spectator["answers"] == []


def test_replay_rebuilds_each_step_as_that_seat_saw_it(url: str) -> None:
    print(f"seed {SEED}")
    made = create(url, seed=SEED + 2)
    game, tokens = made["id"], made["seats"]
    seen_at = {}
    rng = random.Random(SEED)
    for _ in range(6):
        family, seen = turn(url, game, tokens)
        seen_at[seen["step"]] = view(url, game, tokens["red"])
        answer(url, game, tokens[family], rng.choice(seen["answers"]), seen["step"])
    for step, then in seen_at.items():
        status, replayed = get(f"{url}/api/games/{game}/replay?step={step}", tokens["red"])
        assert status == 200
        assert replayed["steps"] == 6
        for field in ("queue", "hand", "influence", "log", "phase", "round"):
            assert replayed[field] == then[field], field
        assert replayed["answers"] == []
    for step in ("7", "-1", "x", ""):
        status, found = get(f"{url}/api/games/{game}/replay?step={step}")
        assert status == 400
        assert "0 to 6" in found["error"]


def test_the_websocket_sends_the_view_then_every_change(url: str) -> None:
    made = create(url, seed=SEED + 3)
    game, tokens = made["id"], made["seats"]
    with watch(url, game, tokens["blue"]) as blue:
        first = json.loads(blue.recv(timeout=10))
        assert first["seat"] == "blue"
        assert first["step"] == 0
        play(url, made, random.Random(SEED), answers=3)
        # A watcher is sent the newest view when it is ready: it may skip one.
        steps = [json.loads(blue.recv(timeout=10))["step"]]
        while steps[-1] < 3:
            steps.append(json.loads(blue.recv(timeout=10))["step"])
        assert steps == sorted(set(steps))
        # Frames after the first send only new log lines and events.
        raw = blue.socket
        play(url, made, random.Random(SEED + 1), answers=1)
        frame = json.loads(raw.recv(timeout=10))
        whole = view(url, game, tokens["blue"])
        assert frame["step"] == whole["step"]
        assert 0 < frame["log_from"] <= len(whole["log"])
        assert whole["log"][frame["log_from"] :] == frame["log"]
        assert 0 < frame["events_from"] < len(whole["events"])
        assert whole["events"][frame["events_from"] :] == frame["events"]
        assert whole["log_from"] == whole["events_from"] == 0
    with watch(url, game, None) as spectator:
        first = json.loads(spectator.recv(timeout=10))
        assert first["seat"] is None
        # What it sends after its token, text or not, is ignored.
        spectator.socket.send(b"\x00\x01")
        spectator.send("hello")
        play(url, made, random.Random(SEED + 2), answers=1)
        assert json.loads(spectator.recv(timeout=10))["step"] == first["step"] + 1
    with watch(url, game, "wrong") as wrong:
        assert "error" in json.loads(wrong.recv(timeout=10))
        with pytest.raises(Exception, match="4403"):
            wrong.recv(timeout=10)
    with watch(url, "nosuch", None) as unknown:
        unknown.recv(timeout=10)
        with pytest.raises(Exception, match="4404"):
            unknown.recv(timeout=10)
    ws_url = url.replace("http://", "ws://") + f"/api/games/{game}/ws"
    for hello in ("not json", json.dumps({"token": 5}), json.dumps({"tok": None}), b"\x00"):
        with connect(ws_url, open_timeout=10) as bad:
            bad.send(hello)
            assert "first message" in json.loads(bad.recv(timeout=10))["error"]
            with pytest.raises(Exception, match="4400"):
                bad.recv(timeout=10)


def test_pages_and_responses_carry_the_safety_headers(url: str) -> None:
    for path in ("/", "/play/abc", "/static/game.js", "/api/installed"):
        status, _, headers = call("GET", url + path)
        assert status == 200, path
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-content-type-options"] == "nosniff"
        assert "script-src 'self'" in headers["content-security-policy"]
    made = create(url)
    _, _, headers = call("GET", f"{url}/api/games/{made['id']}", token=made["seats"]["red"])
    assert headers["cache-control"] == "no-store"


def test_all_bot_games_play_to_the_end_on_their_own(url: str) -> None:
    made = create(url, families=4, bots=dict.fromkeys(["red", "blue", "green", "yellow"], "random"))
    assert made["seats"] == {}
    deadline = time.monotonic() + 30
    while view(url, made["id"])["phase"] != "end":
        assert time.monotonic() < deadline, "the bots did not finish in 30 s"
        time.sleep(0.05)


def test_a_token_in_a_url_is_refused_saying_where_it_goes(url: str) -> None:
    made = create(url)
    token = made["seats"]["red"]
    for path in (f"/api/games/{made['id']}", f"/api/games/{made['id']}/replay?step=0"):
        joiner = "&" if "?" in path else "?"
        status, found = get(f"{url}{path}{joiner}token={token}")
        assert status == 400, path
        assert "Authorization: Bearer" in found["error"]
    ws_url = url.replace("http://", "ws://") + f"/api/games/{made['id']}/ws?token={token}"
    with connect(ws_url, open_timeout=10) as socket:
        assert "first message" in json.loads(socket.recv(timeout=10))["error"]
    status, found = get(f"{url}/api/games/{made['id']}?Token={token}")
    assert status == 400
    assert "Authorization: Bearer" in found["error"]
    for header in ("Basic abc", "Bearer", "Bearer " + "x" * 300):
        status, found, _ = call(
            "GET", f"{url}/api/games/{made['id']}", headers={"Authorization": header}
        )
        assert status == 400, header
        assert "Bearer <token>" in found["error"]


def test_the_creator_gets_every_link_back(url: str) -> None:
    made = create(url, families=4, bots={"blue": "random"})
    status, found = get(f"{url}/api/games/{made['id']}/table", made["creator"])
    assert status == 200, found
    assert found["links"] == made["links"]
    assert found["seats"] == made["seats"]
    assert found["spectate"] == made["spectate"]
    assert found["table"] == made["table"]
    assert found["players"] == {
        "red": "person",
        "blue": "random",
        "green": "person",
        "yellow": "person",
    }
    for token in (None, made["seats"]["red"], "guess"):
        status, refused = get(f"{url}/api/games/{made['id']}/table", token)
        assert status == 403, token
        assert "creator" in refused["error"]
    status, _, headers = call("GET", f"{url}/table/{made['id']}")
    assert status == 200
    assert "script-src 'self'" in headers["content-security-policy"]
