"""A view in another language: ``?language=en|fr|pl`` on the view, the answer, the
replay and the websocket gives the card names and texts (and, as far as
:mod:`oriflamme.text` speaks that language, the sentences) in it; any other language is
refused with 400 naming the ones spoken (see docs/web.md). The pages' own words
(static/words.js) are all in French and Polish, with no English left in them and the
games' own terms (the story's family names, the rulebooks' File and Kolejka)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .web_server import TIMEOUT, call, get, post, server_thread

#: Cards whose names differ in each language (from the card data).
SOLDIER = {"en": "Soldier", "fr": "Soldat", "pl": "Żołnierz"}
#: How the story's first line begins in each language.
ROUND_BEGINS = {"en": "Round 1 begins", "fr": "Le tour 1 commence", "pl": "Zaczyna się runda 1"}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("languages") / "games.sqlite3"
    with server_thread(db) as found:
        yield found


@pytest.fixture(scope="module")
def game(url: str) -> dict[str, Any]:
    """A game of three people with every card of the base set (a Soldier among them)."""
    status, made, _ = call("POST", f"{url}/api/games", {"families": 3, "seed": 11})
    assert status == 201, made
    return {"id": made["id"], "token": made["seats"]["red"], "seats": made["seats"]}


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_a_view_names_the_cards_in_its_language(
    url: str, game: dict[str, Any], language: str
) -> None:
    status, view = get(f"{url}/api/games/{game['id']}?language={language}", game["token"])
    assert status == 200, view
    assert view["language"] == language
    assert view["names"]["soldier"] == SOLDIER[language]
    english = get(f"{url}/api/games/{game['id']}", game["token"])[1]
    assert english["language"] == "en"
    assert (view["texts"]["soldier"] == english["texts"]["soldier"]) == (language == "en")
    # The story is told in the language too: its first line opens round 1.
    assert view["log"][0].startswith(ROUND_BEGINS[language]), view["log"]
    # The same game, the same seat: only the words differ.
    for field in ("hand", "queue", "answers", "step", "influence"):
        assert view[field] == english[field], field


@pytest.mark.parametrize("language", ["de", "FR", "", "en-GB", "x" * 300])
def test_an_unknown_language_is_refused_naming_the_ones_spoken(
    url: str, game: dict[str, Any], language: str
) -> None:
    for path in ("", "/replay?step=0&"):
        joined = "&" if "?" in path else "?"
        address = f"{url}/api/games/{game['id']}{path.rstrip('&')}{joined}language={language}"
        status, body = get(address, game["token"])
        assert status == 400, (address, body)
        said = body["error"]
        assert "en, fr, pl" in said, said
        assert repr(language[:20]) in said, said
        assert len(said) < 200, said


def test_an_answer_and_a_replay_come_back_in_the_language_asked(
    url: str, game: dict[str, Any]
) -> None:
    base = f"{url}/api/games/{game['id']}"
    seen = get(f"{base}?language=pl", game["token"])[1]
    token = game["seats"][seen["waiting_for"]]
    seen = get(f"{base}?language=pl", token)[1]
    assert seen["language"] == "pl"
    assert seen["answers"]
    status, after = post(
        f"{base}/answer?language=fr", {"answer": seen["answers"][0], "step": seen["step"]}, token
    )
    assert status == 200, after
    assert after["language"] == "fr"
    assert after["names"]["soldier"] == "Soldat"
    status, bad = post(
        f"{base}/answer?language=xx", {"answer": seen["answers"][0], "step": 1}, token
    )
    assert status == 400
    assert "en, fr, pl" in bad["error"]
    status, replayed = get(f"{base}/replay?step=0&language=pl", token)
    assert status == 200, replayed
    assert replayed["names"]["soldier"] == "Żołnierz"


def test_the_websocket_sends_views_in_its_language_and_refuses_another(
    url: str, game: dict[str, Any]
) -> None:
    ws = url.replace("http://", "ws://") + f"/api/games/{game['id']}/ws"
    with connect(f"{ws}?language=fr", open_timeout=TIMEOUT) as socket:
        socket.send(json.dumps({"token": None}))
        view = json.loads(socket.recv(timeout=TIMEOUT))
    assert view["seat"] is None
    assert (view["language"], view["names"]["soldier"]) == ("fr", "Soldat")
    with connect(f"{ws}?language=klingon", open_timeout=TIMEOUT) as socket:
        # Refused before the token is even read.
        refused = json.loads(socket.recv(timeout=TIMEOUT))
        assert "'klingon'" in refused["error"]
        assert "en, fr, pl" in refused["error"]
        with pytest.raises(ConnectionClosed):
            socket.recv(timeout=TIMEOUT)
    assert socket.close_code == 4400


#: The page's own words (static/words.js), each language's table of them.
WORDS_JS = Path(__file__).parent.parent / "src" / "oriflamme" / "web" / "static" / "words.js"
#: Words a language shares with English on purpose (the game's own terms, loan words):
#: any other word of an English value found in its translation was left untranslated.
SAME_WORDS = {
    "fr": {
        "bot",
        "code",
        "face",
        "influence",
        "intrigue",
        "ismcts",
        "long",
        "oriflamme",
        "page",
        "position",
        "prince",
        "scores",
        "secret",
        "table",
        "tables",
        "token",
        "type",
        "types",
    },
    "pl": {"bot", "ismcts", "link", "oriflamme", "prince", "problem", "start", "token"},
}


def words_table(name: str) -> dict[str, str]:
    """``const <name> = {...}`` of words.js: each key's value as written (a string or a
    function of the counts), comments left out."""
    text = WORDS_JS.read_text(encoding="utf-8")
    found = re.search(rf"^const {name} = \{{\n(.*?)^\}};", text, re.S | re.M)
    assert found, f"{WORDS_JS.name} has no table {name!r}"
    body = "\n".join(
        line for line in found.group(1).splitlines() if not line.strip().startswith("//")
    )
    parts = re.split(r'^  "([\w.]+)": ', body, flags=re.M)
    return {
        key: value.strip().rstrip(",") for key, value in zip(parts[1::2], parts[2::2], strict=True)
    }


def words_in(value: str, shortest: int = 3) -> set[str]:
    """The words of a value as people read them (not its placeholders, not its code),
    of `shortest` letters or more: the short ones ("a", "de", "i") are shared by chance."""
    said = re.sub(r"\{\w+\}|\$\{[^}]*\}|\(\{[^)]*\}\) =>", " ", value)
    return {word.lower() for word in re.findall(r"[^\W\d_]+", said) if len(word) >= shortest}


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_the_pages_words_are_all_translated(language: str) -> None:
    english = words_table("en")
    translated = words_table(language)
    assert len(english) > 100, "words.js was not read"
    assert sorted(set(english) - set(translated)) == [], "keys without words"
    assert sorted(set(translated) - set(english)) == [], "keys English does not know"
    left = {
        key: sorted(shared)
        for key, value in translated.items()
        if (shared := (words_in(english[key]) & words_in(value)) - SAME_WORDS[language])
    }
    assert left == {}, f"English words left in {language}"
    # A value the same as its English one says only words the languages share.
    same = {
        key: sorted(words_in(value, 1) - SAME_WORDS[language])
        for key, value in translated.items()
        if value == english[key] and words_in(value, 1) - SAME_WORDS[language]
    }
    assert same == {}, f"English left as it is in {language}"


#: Words a language's pages must not say, and why (the rulebooks' and the story's terms).
NOT_SAID = {
    "fr": {
        r"\bextensions?\b": "a plugin is a module (Ablaze is the extension)",
        r"\breplay\b": "a finished game is 'revue'",
        r"\bfile\b": "the File takes its capital, as in the rulebook",
        r"\b(rouge|bleu|vert|jaune|noir)\b": "a family's name takes its capital, as in the story",
    },
    "pl": {
        r"\b(czerwoni|niebiescy|zieloni|żółci|czarni)\b": "a family is one player, as in the story",
        r"\bkolejk": "the Kolejka takes its capital, as in the rulebook",
        r"\b[Ww]pływy\b": "Influence is Wpływ, as in the rulebook",
    },
}


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_the_pages_use_the_games_own_terms(language: str) -> None:
    said = {
        (key, why)
        for key, value in words_table(language).items()
        for pattern, why in NOT_SAID[language].items()
        if re.search(pattern, value)
    }
    assert said == set(), sorted(said)
