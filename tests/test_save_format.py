"""docs/saves.md and the saves the engine writes agree, so that neither changes silently.

The fields the page documents (its tables of the top-level fields, of ``config.``,
``rules.`` and ``pending.``, of the kinds of question, and its list of event kinds) are
the ones ``Game.to_json`` writes, for base and base+Ablaze games stopped at a
placement, a reveal, a target question, a Royal Decree's move, an Ablaze question and
the game's end. Every path that writes a save (``Game.to_json``, ``oriflamme play
--save``'s file, the web server's games file, an OpenSpiel state's pickle) is read back
by ``oriflamme.saves.load`` to an equal game, and the page's example is the save it says
it is, loads, and its Python runs as written. Seeds are drawn afresh and printed.
"""

from __future__ import annotations

import asyncio
import io
import json
import pickle
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from oriflamme import Game, GameConfig, Registry
from oriflamme.arguments import build_parser
from oriflamme.events import EVENT_TYPES
from oriflamme.savefile import load_game, save_game
from oriflamme.saves import load
from oriflamme.terminal import play_command

from .conftest import ROOT

PAGE = ROOT / "docs" / "saves.md"
FAMILIES = ("red", "blue", "green", "yellow", "black")
BASE = ("base",)
BOTH = ("base", "ablaze")
#: The points a game is saved at: the kind of question it waits on (None: the game is over).
POINTS: tuple[str | None, ...] = ("place", "reveal", "target", "move", None)
ABLAZE_POINTS: tuple[str | None, ...] = ("twin", "choose")
#: How many seeds in a row are tried to reach a point before the test gives up.
TRIES = 400


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the page's section headed ``## title`` (up to the next ``## ``)."""
    text = page()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def rows(text: str) -> list[str]:
    """The names in the first column of the tables in ``text``: `` | `name` | ... ``."""
    return re.findall(r"^\| `([a-z_.]+)` \|", text, flags=re.M)


def documented_top() -> list[str]:
    return rows(section("The fields"))


def documented_inner(prefix: str) -> list[str]:
    return [name.split(".", 1)[1] for name in rows(page()) if name.startswith(f"{prefix}.")]


def draw_seed() -> int:
    seed = random.SystemRandom().randrange(2**63)
    print(f"seed {seed}")
    return seed


def reach(registry: Registry, sets: tuple[str, ...], point: str | None, seed: int) -> Game:
    """A game of ``sets`` played at random from ``seed`` (or the seeds after it) until it
    asks a question of kind ``point`` (a random number of answers in, so that the point
    is not always the first), or to its end."""
    for attempt in range(TRIES):
        rng = random.Random(seed + attempt)
        families = FAMILIES[: rng.randint(3, 5)]
        game = Game.new(
            GameConfig(families=families, sets=sets, seed=(seed + attempt) % 2**63),
            registry=registry,
        )
        skip = rng.randrange(40)
        answered = 0
        while game.decision is not None:
            if answered >= skip and point is not None and game.decision.kind == point:
                return game
            game.answer_option(rng.randrange(len(game.decision.options)))
            answered += 1
        if point is None:
            return game
    raise AssertionError(f"no game of {sets} from seed {seed} reached a {point} question")


def all_points() -> list[tuple[tuple[str, ...], str | None]]:
    return [(BASE, p) for p in POINTS] + [(BOTH, p) for p in POINTS + ABLAZE_POINTS]


def saved(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(game.to_json())
    return data


# (1) The fields the page documents are the fields the engine writes.


@pytest.mark.parametrize(("sets", "point"), all_points())
def test_the_documented_fields_are_the_fields_written(
    registry: Registry, sets: tuple[str, ...], point: str | None
) -> None:
    seed = draw_seed()
    print(f"sets {','.join(sets)}, saved at {point or 'the end'}")
    game = reach(registry, sets, point, seed)
    data = saved(game)
    # The page says the fields are listed in the order to_json writes them.
    assert list(data) == documented_top()
    assert list(data["config"]) == documented_inner("config")
    assert list(data["rules"]) == documented_inner("rules")
    if point is None:
        assert data["pending"] is None
        assert data["resume"] is None
        assert data["tasks"] == []
        assert data["phase"] == "end"
    else:
        # `subject` is written only when the question has one (a Royal Decree's move).
        written = [name for name in documented_inner("pending") if name != "subject"]
        if point == "move":
            written.append("subject")
        assert list(data["pending"]) == written
        assert data["pending"]["kind"] == point
    if point in ("place", "reveal", None):
        assert data["resume"] is None
    else:
        # A card's question: [ability key, method, card, [arguments]], the engine's end of
        # the card's turn at the bottom of the work waiting.
        key, method, card, arguments = data["resume"]
        assert type(key) is str
        assert type(method) is str
        assert data["pending"]["card"] == card
        assert type(arguments) is list
        assert data["tasks"][0] == [None, "finish", data["acting"], []]
    assert load(game.to_json(), registry=registry) == game


def test_the_kinds_of_question_documented_are_the_built_in_kinds(registry: Registry) -> None:
    text = section("The question waiting: `pending`")
    kinds = [name for name in rows(text) if "." not in name]
    game = Game.new(GameConfig(sets=BOTH), registry=registry)
    assert sorted(kinds) == sorted(game.rules.kinds)
    assert sorted(kinds) == sorted(p for p in POINTS + ABLAZE_POINTS if p is not None)


def test_the_event_kinds_listed_are_the_events_a_log_holds() -> None:
    text = section("The log")
    listed = re.search(r"The kinds are the\s+event names in snake case \(([^)]*)\)", text)
    assert listed is not None
    assert sorted(re.findall(r"`([a-z_]+)`", listed.group(1))) == sorted(EVENT_TYPES)


# (2) Every path that writes a save is read back to an equal game.


@pytest.mark.parametrize("sets", [BASE, BOTH])
def test_to_json_reads_back_equal_at_every_answer(
    registry: Registry, sets: tuple[str, ...]
) -> None:
    seed = draw_seed()
    rng = random.Random(seed)
    game = Game.new(
        GameConfig(families=FAMILIES[: rng.randint(3, 5)], sets=sets, seed=seed),
        registry=registry,
    )
    while True:
        text = game.to_json()
        again = load(text, registry=registry)
        assert again == game
        assert again.to_json() == text
        if game.decision is None:
            break
        game.answer_option(rng.randrange(len(game.decision.options)))


def typing(count: int) -> Callable[[str], str]:
    """A person who answers the first option ``count`` times, then leaves."""
    typed = [0]

    def read(_prompt: str) -> str:
        if typed[0] >= count:
            raise EOFError
        typed[0] += 1
        return "1"

    return read


@pytest.mark.parametrize("sets", ["base", "base,ablaze"])
def test_the_file_play_save_writes_is_the_save_itself(
    registry: Registry, tmp_path: Path, sets: str
) -> None:
    seed = draw_seed()
    path = tmp_path / "game.json"
    args = build_parser().parse_args(
        ["play", "--no-plugins", "--families", "3", "--sets", sets, "--seed", str(seed)]
        + ["--bots", "random", "--save", str(path)]
    )
    assert play_command(args, registry, read=typing(5), out=io.StringIO()) == 0
    text = path.read_text(encoding="utf-8")
    game = load(text, registry=registry)
    # Nothing around the engine's save: the file is what to_json writes, byte for byte.
    assert game.to_json() == text
    assert game.config.seed == seed
    # And what the command line reads is what it writes.
    game.answer_option(0)
    save_game(game, str(path))
    assert load_game(str(path), registry) == game
    assert load(path.read_text(encoding="utf-8"), registry=registry) == game


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
@pytest.mark.parametrize("sets", [BASE, BOTH])
def test_the_web_servers_saves_read_back_equal(
    registry: Registry,
    tmp_path: Path,
    sets: tuple[str, ...],
    store: str,
    request: pytest.FixtureRequest,
) -> None:
    from oriflamme.web.store import SAVE_EVERY, open_store  # noqa: PLC0415 - the web extra
    from oriflamme.web.tables import Tables  # noqa: PLC0415

    seed = draw_seed()
    rng = random.Random(seed)
    if store == "postgresql":  # the store of several server processes
        db = request.getfixturevalue("postgres").database(f"saves_{seed}_{len(sets)}")
    else:
        db = str(tmp_path / "games.sqlite3")
    tables = Tables(open_store(db), entry_points=False)

    async def play() -> tuple[int, int]:
        """Every family a person (no bots), answering at random: after each answer, the
        game the file holds is the game played. How many saves were written, and the
        number of answers."""
        table, _, _ = await tables.create({"families": 3, "sets": list(sets), "seed": seed})
        stored = tables.store.load(table.id)
        assert stored is not None
        fresh = Game.new(GameConfig(families=FAMILIES[:3], sets=sets, seed=seed), registry=registry)
        assert load(stored.initial, registry=registry) == fresh
        assert stored.save == stored.initial
        saves = 0
        while table.game.decision is not None:
            decision = table.game.decision
            option = list(decision.options)[rng.randrange(len(decision.options))]
            answer = json.loads(json.dumps(option))  # as a client sends it
            await tables.answer(table, decision.family, answer, table.step)
            kept = tables.store.load(table.id)
            assert kept is not None
            assert kept.save_step == kept.step - len(kept.later)
            game = load(kept.save, registry=registry)
            for family, later in kept.later:  # as the server reads a game back
                game.answer(later, family=family)
            assert game == table.game
            if not kept.later:  # a save was written at this answer: the game itself
                saves += 1
                assert load(kept.save, registry=registry) == table.game
        return saves, table.step

    try:
        saves, answers = asyncio.run(play())
    finally:
        tables.close()
        tables.store.close()
    assert saves == answers // SAVE_EVERY + (answers % SAVE_EVERY != 0)  # and at the end


def test_an_openspiel_state_pickles_through_its_save(monkeypatch: pytest.MonkeyPatch) -> None:
    """The OpenSpiel game's states pickle their game as its save (``to_json``), read back
    by ``oriflamme.saves.load``."""
    pyspiel = pytest.importorskip("pyspiel")
    from oriflamme.rl import openspiel  # noqa: PLC0415 - registers the game with OpenSpiel

    read: list[str] = []

    def reading(text: str, **options: Any) -> Game:
        read.append(text)
        return load(text, **options)

    monkeypatch.setattr(openspiel, "load_game", reading)
    seed = draw_seed()
    rng = random.Random(seed)
    for sets in ("base", "base,ablaze"):
        state = pyspiel.load_game("python_oriflamme", {"families": 3, "sets": sets})
        state = state.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.randrange(256))
        while True:
            if rng.random() < 0.1 or state.is_terminal():
                again = pickle.loads(pickle.dumps(state))
                assert read[-1] == state.game.to_json()
                assert again.game == state.game
                assert again.game is not state.game
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


# (3) The page's example is a real save, loads, and its Python runs.

#: How the page's example was made: a base game of red, blue and green from this seed,
#: the first option answered this many times.
EXAMPLE_SEED = 2026
EXAMPLE_ANSWERS = 4


def example_game(registry: Registry) -> Game:
    game = Game.new(GameConfig(families=FAMILIES[:3], seed=EXAMPLE_SEED), registry=registry)
    for _ in range(EXAMPLE_ANSWERS):
        game.answer_option(0)
    return game


def example_text() -> str:
    blocks = re.findall(r"^```json\n(.*?)^```", section("An example"), flags=re.S | re.M)
    assert len(blocks) == 1
    text: str = blocks[0]
    return text


def test_the_example_is_the_save_the_page_says_it_is(registry: Registry) -> None:
    game = example_game(registry)
    example = json.loads(example_text())
    written = saved(game)
    # The versions are those of the release that wrote the example; the rest is the same.
    assert [p[:2] for p in example["rules"]["plugins"]] == [
        p[:2] for p in written["rules"]["plugins"]
    ]
    example["rules"]["plugins"] = written["rules"]["plugins"]
    assert example == written
    # The page's words about it.
    words = " ".join(section("An example").split())
    assert f"the seed {EXAMPLE_SEED}, after the first option was answered four times" in words


def test_the_example_loads(registry: Registry) -> None:
    game = example_game(registry)
    loaded = load(example_text(), registry=registry, allow_other_versions=True)
    assert loaded == game
    decision = loaded.decision
    assert decision is not None
    assert (decision.family, decision.kind) == ("blue", "reveal")


def test_the_pages_python_runs(tmp_path: Path) -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", page(), flags=re.S | re.M)
    assert len(blocks) == 2
    (tmp_path / "saved.json").write_text(example_text(), encoding="utf-8")
    for number, block in enumerate(blocks):
        script = tmp_path / f"saves_{number}.py"
        script.write_text(block, encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "-W", "error", str(script)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            cwd=tmp_path,
        )
        assert run.returncode == 0, run.stderr
        # What a block says it prints, in its comments, is what it prints.
        said = re.findall(r"print\(.*\)  # (.*)", block)
        assert run.stdout.splitlines() == said
