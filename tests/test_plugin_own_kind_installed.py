"""A plugin whose card asks a question of a kind of its own (tests/plugins/oriflamme-oracle:
the Oracle, whose `omen` question is answered `sun` or `moon`), built and installed from
its package into a fresh virtual environment beside the project, as a user would install
it: listed, played by the bots, saved while its question waits and read back in another
process, a tampered save refused, its question sent as JSON and answered from JSON.

Games are driven in the installed Python (a script run with the environment's
interpreter), from seeds drawn as the server draws them; each seed is printed."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT
from .helpers import venv_with

ORACLE = ROOT / "tests" / "plugins" / "oriflamme-oracle"
#: How many games the search for a pending omen may play (the Oracle is in most games
#: of base + oracle, and asks each time it acts face up).
ATTEMPTS = 40

# The tests need a plugin installed in a venv of their own first: tens of seconds.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return venv_with(tmp_path_factory.mktemp("oracle") / "venv", ROOT, ORACLE)


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}


def run_cli(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin" / "oriflamme"), *args],
        cwd=venv.parent,
        env=_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def oriflamme(venv: Path, *args: str) -> str:
    run = run_cli(venv, *args)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stderr == "", run.stderr
    return run.stdout


def python(venv: Path, script: str, *args: str, given: str | None = None) -> str:
    """Run ``script`` with the environment's interpreter (``given`` on its standard
    input); its stdout."""
    run = subprocess.run(
        [str(venv / "bin" / "python"), "-c", script, *args],
        cwd=venv.parent,
        env=_env(),
        input=given,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout


# What the scripts share: the state of a game as plain JSON data, for every family and a
# spectator, and the gains an answer brought.
COMMON = r"""
import json, sys
from oriflamme import Game, Registry
from oriflamme.events import Gained


def views(game):
    seen = {str(f): game.observe(f).to_dict() for f in (*game.families, None)}
    return json.loads(json.dumps(seen))


def answered(game, option):
    before = len(game.events)
    decision = game.decision
    game.answer(option)
    gains = [
        [e.family, e.amount]
        for e in game.events[before:]
        if type(e) is Gained and e.card == decision.card
    ]
    return {"views": views(game), "save": game.to_json(), "gains": gains}
"""

# Plays games of base + oracle, answering with the first option, until the Oracle's omen
# is asked; writes the save, the question and each answer's outcome to argv[1].
SEARCH = (
    COMMON
    + r"""
import random

registry = Registry()
out, attempts = sys.argv[1], int(sys.argv[2])
for attempt in range(attempts):
    seed = random.SystemRandom().randrange(2**63)
    game = Game.new(registry=registry, seed=seed, sets=("base", "oracle"),
                    families=("red", "blue", "green"))
    while game.decision is not None and game.decision.kind != "omen":
        game.answer(game.decision.options[0])
    print(f"seed {seed}: {'the omen is asked' if game.decision else 'no omen'}", flush=True)
    if game.decision is not None:
        break
else:
    sys.exit(f"no game of {attempts} asked the omen")

decision = game.decision
observed = game.observe(decision.family)
tops = [stack[-1] for stack in observed.queue]
face_down = sum(1 for top in tops if not observed.is_up(top))
result = {
    "seed": seed,
    "save": game.to_json(),
    "decision": decision.to_dict(),
    "resume": json.loads(game.to_json())["resume"],  # the engine's work, as saved
    "face_down": face_down,
    "answered": {},
}
# The last option is answered in the original game itself, the others in copies.
for option in decision.options:
    played = game if option == decision.options[-1] else game.clone()
    result["answered"][option] = answered(played, option)
with open(out, "w") as file:
    json.dump(result, file)
"""
)

# Reads the save of argv[1] back in this process and answers its question with each
# option; writes what it saw to argv[2].
RELOAD = (
    COMMON
    + r"""
from oriflamme.saves import load

with open(sys.argv[1]) as file:
    found = json.load(file)
game = load(found["save"], registry=Registry())
result = {
    "decision": game.decision.to_dict(),
    "same_save": game.to_json() == found["save"],
    "answered": {},
}
for option in game.decision.options:
    played = game if option == game.decision.options[-1] else game.clone()
    result["answered"][option] = answered(played, option)
with open(sys.argv[2], "w") as file:
    json.dump(result, file)
"""
)


@pytest.fixture(scope="module")
def omen(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A game of base + oracle waiting on the Oracle's omen, found in the installed
    Python, with its save and each answer's outcome there."""
    out = tmp_path_factory.mktemp("omen") / "found.json"
    print(python(venv, SEARCH, str(out), str(ATTEMPTS)), end="")
    found: dict[str, Any] = json.loads(out.read_text())
    return found


# 1. Listed, with no problems.


def test_plugins_lists_the_oracle_with_its_kind(venv: Path) -> None:
    assert "oracle (oriflamme-oracle 0.1.0)" in oriflamme(venv, "plugins")
    listing = json.loads(oriflamme(venv, "plugins", "--json"))
    assert listing["problems"] == []
    oracle = {p["name"]: p for p in listing["plugins"]}["oracle"]
    assert oracle["problem"] is None
    assert oracle["distribution"] == "oriflamme-oracle"
    assert oracle["builtin"] is False
    assert oracle["sets"] == ["oracle"]
    assert oracle["cards"] == ["oracle"]
    assert oracle["abilities"] == ["oracle"]
    assert {
        "register_card_sets",
        "register_abilities",
        "register_decision_kinds",
        "loadable_saves",
    } <= set(oracle["hooks"])


def test_cards_shows_the_oracle(venv: Path) -> None:
    out = oriflamme(venv, "cards")
    assert "Oracle (set oracle, plugin oracle)" in out
    assert "oracle         Oracle" in out
    assert "[no ability implemented]" not in out


# 2. Saved while the omen waits, read back in another process.


def test_the_omen_is_asked_with_its_stored_count(omen: dict[str, Any]) -> None:
    decision = omen["decision"]
    assert decision["kind"] == "omen"
    assert decision["options"] == ["sun", "moon"]
    # The decision says which ability asks; the save holds its continuation: the
    # Oracle's read, with the face-down cards it counted.
    assert decision["ability"] == "oracle"
    assert decision["subject"] is None
    key, method, card, args = omen["resume"]
    assert (key, method, card) == ("oracle", "read", decision["card"])
    assert args == [omen["face_down"]]


def test_each_answer_gains_by_the_omen_and_the_count(omen: dict[str, Any]) -> None:
    family, seen = omen["decision"]["family"], omen["face_down"]
    sun, moon = omen["answered"]["sun"]["gains"], omen["answered"]["moon"]["gains"]
    assert sun[:1] == [[family, 1]]
    # Gaining 0 is no gain at all.
    assert moon[:1] == ([[family, seen]] if seen else [])


def test_the_save_reads_back_in_another_process(
    venv: Path, omen: dict[str, Any], tmp_path: Path
) -> None:
    found, back = tmp_path / "found.json", tmp_path / "back.json"
    found.write_text(json.dumps(omen))
    python(venv, RELOAD, str(found), str(back))
    loaded = json.loads(back.read_text())
    assert loaded["same_save"], "the game read back saves other than it was saved"
    assert loaded["decision"] == omen["decision"]
    assert set(loaded["answered"]) == set(omen["answered"]) == {"sun", "moon"}
    for option, there in loaded["answered"].items():
        here = omen["answered"][option]
        assert there["views"] == here["views"], option
        assert there["gains"] == here["gains"], option
        assert there["save"] == here["save"], option


def test_the_cli_plays_on_from_the_save(venv: Path, omen: dict[str, Any], tmp_path: Path) -> None:
    # A person at seat 1 who leaves at once: the bots answer the omen if it is theirs.
    save = tmp_path / "game.json"
    save.write_text(omen["save"])
    run = subprocess.run(
        [str(venv / "bin" / "oriflamme"), "play", "--load", str(save), "--bots", "random"],
        cwd=venv.parent,
        env=_env(),
        input="q\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    # Seat 1 leaves at its next question; when it has none left (the save may be taken
    # in the last round), the bots play the game to its end.
    left = "You left the game." in run.stdout
    assert left or "The game is over: " in run.stdout, run.stdout[-2000:]
    assert "The game is saved in" not in run.stdout  # no --save: nothing is said of one


def tampered(save: str, resume: list[Any] | None = None, **pending: Any) -> str:
    data = json.loads(save)
    if resume is not None:
        data["resume"] = resume
    data["pending"] = {**data["pending"], **pending}
    return json.dumps(data)


Tampering = tuple[Callable[[list[Any]], list[Any]], dict[str, str], str]

#: What is changed in the save: its continuation (from the one saved), its question's
#: fields, and what the refusal says.
TAMPERINGS: dict[str, Tampering] = {
    # The stored count, of the wrong type.
    "a word for the count": (
        lambda r: ["oracle", "read", r[2], ["many"]],
        {},
        "the Oracle counted a number of cards, not 'many'",
    ),
    "a boolean for the count": (
        lambda r: ["oracle", "read", r[2], [True]],
        {},
        "the Oracle counted a number of cards, not True",
    ),
    "a list for the count": (
        lambda r: ["oracle", "read", r[2], [[3]]],
        {},
        "the Oracle counted a number of cards, not (3,)",
    ),
    "a count too many": (
        lambda r: ["oracle", "read", r[2], [r[3][0], 1]],
        {},
        "oracle.read is continued with 2 argument(s) and an answer, which it does not take",
    ),
    # A continuation the Oracle does not have, or does not declare for an omen.
    "an undeclared continuation": (
        lambda r: ["oracle", "foretell", r[2], r[3]],
        {},
        "the saved game continues with oracle.foretell, which is not a method of a "
        "registered ability",
    ),
    "another kind of question": (
        lambda r: r,
        {"kind": "choose"},
        "oracle.read resumes a choose question, which it never asks",
    ),
}


@pytest.mark.parametrize("what", list(TAMPERINGS))
def test_a_tampered_save_is_refused(
    venv: Path, omen: dict[str, Any], tmp_path: Path, what: str
) -> None:
    resume, pending, why = TAMPERINGS[what]
    text = tampered(omen["save"], resume(omen["resume"]), **pending)
    save = tmp_path / "tampered.json"
    save.write_text(text)
    # From Python: a SaveError (one of the project's errors) naming what is wrong.
    script = r"""
import sys
from oriflamme import OriflammeError, Registry, SaveError
from oriflamme.saves import load

try:
    load(open(sys.argv[1]).read(), registry=Registry())
except SaveError as error:
    assert isinstance(error, OriflammeError)
    print(error)
else:
    sys.exit("the tampered save was loaded")
"""
    message = python(venv, script, str(save)).strip()
    assert why in message, message
    # From the command line: one line, no traceback.
    run = run_cli(venv, "play", "--load", str(save))
    assert run.returncode == 2, run.stdout[-2000:] + run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    assert run.stderr.strip() == f"oriflamme: error: --load {save}: {message}"


# 3. The bots answer it.


@pytest.mark.parametrize("bots", ["random", "heuristic", "heuristic,random,random"])
def test_bots_play_it_to_the_end(venv: Path, bots: str) -> None:
    out = oriflamme(venv, "simulate", "--sets", "base,oracle", "--games", "50", "--bots", bots)
    assert out.startswith("50 games, 3 families, sets base,oracle")
    assert "house rules: oracle (oriflamme-oracle 0.1.0): cards: oracle" in out


def test_an_ismcts_bot_plays_it(venv: Path) -> None:
    out = oriflamme(
        venv,
        "simulate",
        "--sets",
        "base,oracle",
        "--games",
        "1",
        "--bots",
        "ismcts:iterations=20,random,random",
    )
    assert out.startswith("1 games, 3 families, sets base,oracle"), out


def test_each_bot_answers_the_omen(venv: Path, omen: dict[str, Any]) -> None:
    script = r"""
import json, sys
from oriflamme import Registry
from oriflamme.bots import make_bot
from oriflamme.saves import load

registry = Registry()
game = load(sys.stdin.read(), registry=registry)
decision = game.decision
answers = {}
for kind in ("random", "heuristic", "ismcts:iterations=20"):
    for seed in range(3):
        answer = make_bot(kind, registry=registry, seed=seed).choose(game.observe(decision.family))
        copy = game.clone()
        copy.answer(answer)
        answers.setdefault(kind, []).append(answer)
print(json.dumps(answers))
"""
    answers = json.loads(python(venv, script, given=omen["save"]))
    for kind, given in answers.items():
        assert set(given) <= {"sun", "moon"}, kind


def test_bots_answer_every_omen_of_whole_games(venv: Path) -> None:
    script = r"""
import json, random
from oriflamme import Game, Registry
from oriflamme.bots import make_bot

registry = Registry()
asked = {}
for seats in (["random"] * 3, ["heuristic"] * 3, ["ismcts:iterations=20", "random", "random"]):
    games = 1 if seats[0].startswith("ismcts") else 10
    for _ in range(games):
        seed = random.SystemRandom().randrange(2**63)
        print(f"seed {seed}: {','.join(seats)}", flush=True)
        game = Game.new(registry=registry, seed=seed, sets=("base", "oracle"),
                        families=("red", "blue", "green"))
        bots = {f: make_bot(kind, registry=registry, seed=seed + i)
                for i, (f, kind) in enumerate(zip(game.families, seats))}
        while game.decision is not None:
            family = game.decision.family
            if game.decision.kind == "omen":
                asked[seats[0]] = asked.get(seats[0], 0) + 1
            game.answer(bots[family].choose(game.observe(family)))
        assert game.over
print(json.dumps(asked))
"""
    out = python(venv, script).splitlines()
    print("\n".join(out[:-1]))
    asked = json.loads(out[-1])
    print(f"omen questions the bots answered: {asked}")
    # Ten games of base + oracle ask the omen (if one did not, its seed is printed).
    assert asked.get("random", 0) > 0, asked
    assert asked.get("heuristic", 0) > 0, asked


# 4. As JSON, as the web page sends it.


def test_the_omen_goes_out_and_comes_back_as_json(venv: Path, omen: dict[str, Any]) -> None:
    script = r"""
import json, sys
from oriflamme import IllegalAnswer, Registry
from oriflamme.saves import load

game = load(sys.stdin.read(), registry=Registry())
decision = game.decision
sent = json.loads(json.dumps(decision.to_dict()))
view = json.loads(json.dumps(game.observe(decision.family).to_dict()))
out = {"sent": sent, "view": view["decision"], "accepted": {}, "refused": {}}
for option in sent["options"]:
    by_json, by_python = game.clone(), game.clone()
    by_json.answer(json.loads(json.dumps(option)))
    by_python.answer(option)
    out["accepted"][option] = by_json == by_python and by_json.to_json() != game.to_json()
# The kind's own check: a word in any case, with spaces about it, is that omen.
loose, exact = game.clone(), game.clone()
loose.answer(" MOON ")
exact.answer("moon")
out["loose"] = loose == exact
for wrong in (1, True, "eclipse", ["sun"], None):
    copy = game.clone()
    try:
        copy.answer(json.loads(json.dumps(wrong)))
    except IllegalAnswer as error:
        out["refused"][json.dumps(wrong)] = [str(error), copy == game]
print(json.dumps(out))
"""
    out = json.loads(python(venv, script, given=omen["save"]))
    assert out["sent"] == omen["decision"]
    assert out["sent"]["options"] == ["sun", "moon"]
    assert out["view"] == out["sent"]  # the family asked sees its own question whole
    assert out["accepted"] == {"sun": True, "moon": True}
    assert out["loose"] is True
    family = omen["decision"]["family"]
    assert set(out["refused"]) == {"1", "true", '"eclipse"', '["sun"]', "null"}
    for wrong, (message, unchanged) in out["refused"].items():
        assert unchanged, wrong
        assert message.startswith(f"{family} must answer an omen decision"), message
