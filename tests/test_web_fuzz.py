"""Damaged requests to a real server: each gets a JSON error (400, 403, 404, 409 or
413), never a server error or a traceback, and a game stays exactly as it was.

Bodies are drawn from JSON-like values near what the API expects (the creation
fields with wrong types and values, answers of every shape) and from raw bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oriflamme.web.creation import FIELDS
from oriflamme.web.limits import Rate

from .fuzzing import FUZZ
from .web_server import TEST_LIMITS, call, get, server_thread

pytestmark = pytest.mark.fuzz

REFUSALS = {400, 403, 404, 409, 413, 429}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["base", "ablaze", "red", "random", "first", "last", "gain", "twin"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
creations = st.dictionaries(st.sampled_from([*FIELDS, "extra"]), values, max_size=6)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    # No rate on answers: every damaged answer reaches the checks behind it.
    limits = attrs.evolve(TEST_LIMITS, answer_rate=Rate(0, 1.0))
    with server_thread(tmp_path_factory.mktemp("fuzz") / "games.sqlite3", limits=limits) as url:
        status, made, _ = call("POST", f"{url}/api/games", {"families": 3, "seed": 5})
        assert status == 201
        yield url, made


def refused(status: int, body: object) -> None:
    assert status in REFUSALS, (status, body)
    assert isinstance(body, dict)
    assert isinstance(body["error"], str)
    assert body["error"]
    assert "Traceback" not in body["error"]


@FUZZ
@given(body=st.one_of(creations, values))
def test_a_damaged_creation_is_refused_or_makes_a_game(
    server: tuple[str, dict[str, Any]], body: object
) -> None:
    url, _ = server
    status, found, _ = call("POST", f"{url}/api/games", body)
    if status == 201:
        assert isinstance(found, dict)
        assert get(f"{url}/api/games/{found['id']}")[0] == 200
    else:
        refused(status, found)


@FUZZ
@given(raw=st.binary(max_size=200))
def test_raw_bytes_are_refused(server: tuple[str, dict[str, Any]], raw: bytes) -> None:
    url, made = server
    for path in ("/api/games", f"/api/games/{made['id']}/answer"):
        status, found, _ = call("POST", url + path, raw=raw, token=made["seats"]["red"])
        if status not in (200, 201):
            refused(status, found)


@FUZZ
@given(answer=values, who=st.sampled_from(["red", "blue", "green", None, "junk"]))
def test_a_damaged_answer_leaves_the_game_as_it_was(
    server: tuple[str, dict[str, Any]], answer: object, who: str | None
) -> None:
    url, made = server
    game = made["id"]
    tokens = made["seats"]
    before = {f: get(f"{url}/api/games/{game}", t)[1] for f, t in tokens.items()}
    legal = any(json.dumps(answer) == json.dumps(a) for v in before.values() for a in v["answers"])
    if legal:
        return  # a legal answer is played: not what this test is about
    token = tokens.get(who or "", "junk" if who == "junk" else "") or None
    step = before["red"]["step"]
    status, found, _ = call(
        "POST", f"{url}/api/games/{game}/answer", {"answer": answer, "step": step}, token=token
    )
    refused(status, found)
    after = {f: get(f"{url}/api/games/{game}", t)[1] for f, t in tokens.items()}
    assert after == before
