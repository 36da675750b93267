"""Failing well: each way a plugin can be broken gets a message that names it, and
never corrupts a game: every answer is all or nothing, whatever is raised."""

from __future__ import annotations

import io
import re
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from oriflamme import (
    Ability,
    AbilityError,
    CardId,
    Effects,
    Game,
    GameConfig,
    Placement,
    Registry,
    hookimpl,
)
from oriflamme.arguments import build_parser
from oriflamme.events import Revealed
from oriflamme.expansions.base.lord import Lord
from oriflamme.savefile import load_game
from oriflamme.terminal import play_command
from oriflamme.testing import game_at, registry_with

from .helpers import card_id, hand


def fake_distribution(
    root: Path, name: str, version: str, *, entry: str, module: str, source: str
) -> None:
    """A package installed in ``root``: its module and its dist-info with an entry point."""
    (root / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(f"[oriflamme]\n{entry} = {module}\n", encoding="utf-8")


def test_a_plugin_that_fails_to_import_is_reported_and_the_others_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_distribution(
        tmp_path,
        "broken-rules",
        "1.0",
        entry="broken",
        module="broken_rules",
        source="raise ImportError('no module named dragons')\n",
    )
    fake_distribution(
        tmp_path,
        "fine-rules",
        "2.0",
        entry="fine",
        module="fine_rules",
        source="""\
        from oriflamme import Variant, hookimpl

        @hookimpl
        def register_variants():
            return [Variant("fine_option", (False, True), False, "A harmless option.")]
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry()
    assert registry.problems == [
        "plugin 'broken' (broken_rules) failed to load: ImportError: no module named dragons"
    ]
    fine = {p.name: p for p in registry.plugins}["fine"]
    assert (fine.distribution, fine.version) == ("fine-rules", "2.0")
    assert registry.variants["fine_option"].plugin == "fine"
    left_out = Registry(exclude=["fine", "broken"])
    assert "fine" not in {p.name for p in left_out.plugins}
    assert left_out.problems == []


TRIPS = 'raise RuntimeError("the Lord tripped")'


def line_of(code: str) -> str:
    """``file:line`` of the one line of this file that holds ``code``."""
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    (number,) = [i for i, line in enumerate(lines, 1) if line.strip() == code]
    return f"{__file__}:{number}"


class Explodes(Ability):
    """Raises when it acts: a bug in someone's plugin."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def activate(self, game: Effects, card: CardId) -> None:
        game.gain(game.owner(card), 5, card)  # a change the failure must take back
        raise self.error


def clumsy(ability: Ability) -> Registry:
    """The built-in sets, and plugin 'clumsy', which replaces the Spy's ability."""
    reg = Registry(entry_points=False)
    reg.register(
        SimpleNamespace(replace_abilities=hookimpl(lambda variants: {"spy": ability})), "clumsy"
    )
    return reg


def spies_placed(registry: Registry) -> Game:
    """A game whose next answer is red revealing its Spy, first in the queue."""
    seed = 3
    print(f"seed={seed}")
    config = GameConfig(
        seed=seed,
        first_player="red",
        cards=("spy", "heir", "lord", "archer", "soldier", "ambush", "conspiracy"),
    )
    game = Game.new(config, registry=registry)
    for family in ("red", "blue", "green"):
        game.answer(Placement(card_id(game, f"{family}.spy"), "last"))
    decision = game.decision
    assert decision is not None
    assert (decision.family, decision.kind, decision.card) == (
        "red",
        "reveal",
        card_id(game, "red.spy"),
    )
    return game


def test_an_ability_that_raises_leaves_the_game_as_it_was() -> None:
    game = spies_placed(clumsy(Explodes(RuntimeError("the jester fell over"))))
    spy = card_id(game, "red.spy")
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)  # red reveals its Spy, whose ability raises
    # Named: the plugin, the card's key and family, the line that raised, the seed.
    assert str(error.value) == (
        "plugin 'clumsy': the ability of 'spy' (red's 'spy' acting) raised RuntimeError: the "
        f"jester fell over at {line_of('raise self.error')}, answering red's reveal "
        "decision with True; the game is as it was before this answer"
    )
    assert isinstance(error.value.__cause__, RuntimeError)
    assert game.snapshot() == before
    game.answer(False)  # the game goes on from where it was
    assert game.observe().tokens_on(spy) == 1


def test_an_observer_that_raises_leaves_the_game_as_it_was() -> None:
    def observe(game: Effects, event: Revealed) -> None:
        raise KeyError("oops")

    seed = 3
    print(f"seed={seed}")
    reg = Registry(entry_points=False)
    reg.register(SimpleNamespace(card_revealed=hookimpl(observe)), "watcher")
    game = Game.new(GameConfig(seed=seed, first_player="red"), registry=reg)
    for family in ("red", "blue", "green"):
        game.answer(Placement(hand(game, family)[0], "last"))
    before = game.snapshot()
    with pytest.raises(
        AbilityError,
        match=r"^plugin 'watcher' failed observing revealed "
        r"\(Revealed\(card=\d+, .*\): KeyError: 'oops' \(at "
        + re.escape(line_of('raise KeyError("oops")'))
        + r"\), answering red's reveal decision with True; the game is as it "
        r"was before this answer\nthe game's seed: 3 ",
    ):
        game.answer(True)
    assert game.snapshot() == before


class TripsAfterTheLord(Ability):
    """The built-in Lord's own ability, then an error: the Lord's gain, the reveal and
    its tokens are all part of the one answer that has to be taken back."""

    trip = True

    def activate(self, game: Effects, card: CardId) -> None:
        Lord().activate(game, card)
        if TripsAfterTheLord.trip:
            raise RuntimeError("the Lord tripped")


class LordTrips:
    @hookimpl
    def replace_abilities(self) -> dict[str, Ability]:
        return {"lord": TripsAfterTheLord()}


def test_an_answer_is_taken_back_whole_after_built_in_code_ran() -> None:
    # Every game is all or nothing (there is no game that skips it): the reveal, the
    # tokens it pays and the built-in Lord's gain are all undone.
    registry = registry_with({"trips": LordTrips()})
    game = game_at(
        {
            "round": 2,
            "phase": "resolution",
            "queue": [
                {"card": "red.lord", "tokens": 2},
                {"card": "red.heir"},
                {"card": "blue.heir"},
            ],
            "hands": {
                "red": ["red.spy", "red.soldier"],
                "blue": ["blue.spy", "blue.soldier"],
                "green": ["green.spy", "green.soldier"],
            },
        },
        registry=registry,
    )
    lord = card_id(game, "red.lord")
    assert game.decision is not None
    assert (game.decision.kind, game.decision.card) == ("reveal", lord)
    before = game.snapshot()
    with pytest.raises(AbilityError) as error:
        game.answer(True)
    assert str(error.value) == (
        "plugin 'trips': the ability of 'lord' (red's 'lord' acting) raised RuntimeError: "
        f"the Lord tripped at {line_of(TRIPS)}, "
        "answering red's reveal decision with True; the game is as it was "
        "before this answer"
    )
    assert game.snapshot() == before
    table = game.observe("blue")
    assert (table.is_up(lord), table.tokens_on(lord), table.key(lord)) == (False, 2, None)
    assert table.influence["red"] == 1
    TripsAfterTheLord.trip = False
    try:
        game.answer(True)  # the same answer, now whole: 2 tokens, 1, and 1 for the Heir
    finally:
        TripsAfterTheLord.trip = True
    assert game.position().queue[0][0].up
    assert game.observe("blue").influence["red"] == 1 + 2 + 1 + 1


def test_a_keyboard_interrupt_in_an_ability_leaves_the_game_as_it_was() -> None:
    game = spies_placed(clumsy(Explodes(KeyboardInterrupt())))
    before = game.snapshot()
    with pytest.raises(KeyboardInterrupt) as error:
        game.answer(True)
    assert type(error.value) is KeyboardInterrupt  # propagated as it is, not wrapped
    assert game.snapshot() == before
    assert game.observe().influence["red"] == 1
    game.answer(False)  # the game goes on from where it was
    assert game.observe().tokens_on(card_id(game, "red.spy")) == 1


def _everything_explodes() -> Registry:
    """The built-in sets, and plugin 'clumsy', whose every base ability raises."""
    keys = [key for key, card in Registry(entry_points=False).cards.items() if card.set == "base"]
    explodes = Explodes(RuntimeError("the jester fell over"))
    registry = Registry(entry_points=False)
    registry.register(
        SimpleNamespace(replace_abilities=hookimpl(lambda variants: dict.fromkeys(keys, explodes))),
        "clumsy",
    )
    return registry


def _played_until_it_fails(registry: Registry, *options: str) -> tuple[int, list[str]]:
    """``oriflamme play`` answering 1 to everything, until the first card acts."""
    out = io.StringIO()

    def typed(prompt: str) -> str:
        out.write(f"{prompt}1\n")
        return "1"

    seed = 424242
    print(f"seed={seed}")
    args = build_parser().parse_args(["play", "--seed", str(seed), *options])
    status = play_command(args, registry, read=typed, out=out)
    return status, out.getvalue().splitlines()


def test_a_game_stopped_by_a_plugin_says_it_was_not_saved() -> None:
    status, lines = _played_until_it_fails(_everything_explodes())
    assert status == 2
    assert lines[-2].startswith("The game stopped: plugin 'clumsy': the ability of "), lines[-2]
    assert "raised RuntimeError: the jester fell over" in lines[-2]
    assert lines[-1].startswith("The game was not saved, so it cannot go on;"), lines[-1]


def test_a_game_stopped_by_a_plugin_says_where_it_is_saved(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    registry = _everything_explodes()
    status, lines = _played_until_it_fails(registry, "--save", str(save))
    assert status == 2
    assert lines[-2].startswith("The game stopped: plugin 'clumsy'"), lines[-2]
    assert lines[-1] == (
        f"The game is saved in {save}. To go on with it: oriflamme play --load {save} --save {save}"
    )
    # The save is the game as it was before the answer that failed: it waits on that
    # answer's question, which is a card's reveal.
    loaded = load_game(str(save), registry)
    assert not loaded.over
    decision = loaded.decision
    assert decision is not None
    assert decision.kind == "reveal"
