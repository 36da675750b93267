"""The learned bot: its weights file, its scores, its play, and ISMCTS's learned playouts."""

from __future__ import annotations

import random
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from oriflamme import COLOURS, Game, GameConfig, Placement, Registry
from oriflamme.bots import HeuristicBot, IsmctsBot, make_bot, play_out
from oriflamme.bots.learned import (
    MAGIC,
    WEIGHTS,
    Features,
    Layout,
    LearnedBot,
    Weights,
    WeightsError,
    logits,
    shipped,
)


def plain(registry: Registry, values: dict[int, float] | None = None) -> Weights:
    """Weights that play as the heuristic bot, with ``values`` set on top."""
    layout = Layout(sorted(registry.cards))
    numbers = [0.0] * layout.size
    numbers[0] = 8.0
    for number, value in (values or {}).items():
        numbers[number] = value
    return Weights(layout, numbers, {"made": "by a test"})


def test_the_shipped_weights_are_small_and_fit_every_built_in_card(registry: Registry) -> None:
    data = resources.files("oriflamme.bots").joinpath(WEIGHTS).read_bytes()
    assert data.startswith(MAGIC)
    assert len(data) < 5_000_000
    weights = shipped()
    assert set(weights.layout.keys) == set(registry.cards)
    assert len(weights.values) == weights.layout.size == len(weights.layout.names())
    assert weights.about["trained_by"] == "python -m oriflamme.rl.train_policy"


def test_weights_survive_a_round_trip_as_float32(registry: Registry) -> None:
    weights = plain(registry, {5: 0.1, 40: -2.5})
    again = Weights.load(weights.dump())
    assert again.layout.keys == weights.layout.keys
    assert again.about == {"made": "by a test"}
    assert again.values[:2] == [8.0, 0.0]
    assert again.values[5] == pytest.approx(0.1, rel=1e-6)
    assert again.values[40] == -2.5


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda data: b"NOTMINE!" + data[8:], "learned.bin: not a weights file"),
        (lambda data: data[:-4], "learned.bin: expected 728 float32 weights, found 727"),
        (lambda data: data[:12] + b"x" + data[13:], "learned.bin: its header cannot be read"),
    ],
)
def test_a_damaged_weights_file_is_refused_in_one_line(
    registry: Registry, damage: object, expected: str
) -> None:
    data = plain(registry).dump()
    assert callable(damage)
    with pytest.raises(WeightsError, match=expected):
        Weights.load(damage(data))


def test_with_its_features_at_zero_it_plays_the_heuristic_bots_games(registry: Registry) -> None:
    # Same seed, same draws: only the scores could make the games differ, so this
    # checks that the bot reads every decision's heuristic scores as the heuristic does.
    weights = plain(registry)
    for seed in range(6):
        print(f"seed={seed}")
        config = GameConfig(families=COLOURS[: 3 + seed % 3], sets=("base", "ablaze"), seed=seed)
        answers = []
        for learned in (False, True):
            rng = random.Random(seed)
            game = Game.new(config, registry=registry, record=False, seed=seed, rng=rng)
            bots = {
                f: LearnedBot(rng, weights=weights) if learned else HeuristicBot(rng)
                for f in game.families
            }
            seen: list[object] = []

            def keep(game: Game, answer: object, seen: list[object] = seen) -> None:
                seen.append(answer)

            play_out(game, bots, on_answer=keep)
            answers.append(seen)
        assert answers[0] == answers[1]


def placed(answer: object) -> int:
    assert isinstance(answer, Placement)
    return answer.card


def test_a_features_weight_changes_what_it_plays(registry: Registry) -> None:
    # A large weight on placing, in round 1, a card the heuristic bot would not play
    # first makes it the card played.
    layout = Layout(sorted(registry.cards))
    config = GameConfig(families=COLOURS[:3], sets=("base",), seed=3)
    game = Game.new(config, registry=registry, record=False)
    assert game.decision is not None
    seen = game.observe(game.decision.family)
    played = seen.key(placed(HeuristicBot(1).choose(seen)))
    other = next(seen.key(card) for card in seen.hand if seen.key(card) != played)
    assert other is not None
    first_round = layout.place_round + layout.type_of(other) * 6 + 0
    answer = placed(LearnedBot(1, weights=plain(registry, {first_round: 100.0})).choose(seen))
    assert seen.key(answer) == other
    assert placed(LearnedBot(1, weights=plain(registry)).choose(seen)) != answer


def test_logits_weigh_the_heuristic_gap_and_the_features() -> None:
    weights = [2.0, 0.5, 1.0, -3.0]
    found = logits(weights, [1.0, 0.5, -20.0], [[2], [3], []])
    # The best: its bonus and feature 2; the next: 0.5 below; the last: floored at -5.
    assert found == [0.5 + 1.0, 2.0 * -0.5 - 3.0, 2.0 * -5.0]


@pytest.mark.parametrize("seed", [12, 13])
def test_it_reads_an_option_for_every_option_and_sums_them_sooner_alike(
    registry: Registry, seed: int
) -> None:
    print(f"seed={seed}")
    weights = shipped().values
    features = Features(shipped().layout, HeuristicBot(0))
    config = GameConfig(families=COLOURS[: seed - 9], sets=("base", "ablaze"), seed=seed)
    rng = random.Random(seed)
    game = Game.new(config, registry=registry, record=False, seed=seed, rng=rng)
    size = shipped().layout.size
    decision = game.decision
    while decision is not None:
        seen = game.observe(decision.family)
        scores, found = features.read(seen)
        assert len(scores) == len(found) == len(decision.options)
        assert all(0 <= number < size for numbers in found for number in numbers)
        # The shortcut the bot plays by gives the reference's numbers.
        assert features.logits(seen, weights) == pytest.approx(logits(weights, scores, found))
        game.answer_option(int(rng.random() * len(decision.options)))
        decision = game.decision


def test_ismcts_plays_out_with_the_learned_bot(registry: Registry) -> None:
    config = GameConfig(families=COLOURS[:3], sets=("base",), seed=5)
    game = Game.new(config, registry=registry, record=False)
    family = game.decision.family  # type: ignore[union-attr]
    seen = game.observe(family)
    answers = [
        IsmctsBot(7, registry=registry, iterations=20, playout="learned").choose(seen)
        for _ in range(2)
    ]
    assert answers[0] == answers[1]
    assert answers[0] in game.decision.options  # type: ignore[union-attr]
    bot = make_bot("ismcts:iterations=5:playout=learned", registry=registry, seed=1)
    assert isinstance(bot, IsmctsBot)
    assert bot.playout == "learned"


def test_it_plays_without_numpy() -> None:
    # Playing needs the standard library only: numpy is for training.
    script = (
        "import sys; sys.modules['numpy'] = None\n"
        "import random\n"
        "from oriflamme import COLOURS, Game, GameConfig, Placement, Registry\n"
        "from oriflamme.bots import make_bot, play_out\n"
        "registry = Registry(entry_points=False)\n"
        "rng = random.Random(2)\n"
        "game = Game.new(GameConfig(families=COLOURS[:3], seed=2), registry=registry, rng=rng)\n"
        "bots = {f: make_bot('learned', registry=registry, seed=rng) for f in game.families}\n"
        "print(play_out(game, bots), sorted(game.winners))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[0]) > 10


@pytest.mark.parametrize("opponents", ["heuristic", "self"])
def test_training_is_reproducible_from_its_seed(tmp_path: Path, opponents: str) -> None:
    pytest.importorskip("numpy")
    from oriflamme.rl import train_policy  # noqa: PLC0415 - needs numpy

    print(f"seed 3, opponents {opponents}")
    made = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.bin"
        curve = tmp_path / f"{run}.csv"
        flags = ["--seed", "3", "--games", "40", "--batch", "20", "--every", "20"]
        flags += ["--opponents", opponents]
        flags += ["--eval-games", "6", "--out", str(out), "--curve", str(curve)]
        assert train_policy.main(flags) == 0
        made.append(out.read_bytes())
        rows = curve.read_text().splitlines()
        assert rows[0].startswith("games_trained,eval_games,wins,win_rate,low,high")
        assert [row.split(",")[0] for row in rows[1:]] == ["0", "20", "40"]
    assert made[0] == made[1]
    trained = Weights.load(made[0])
    assert trained.about["games"] == 40
    assert trained.about["opponents"] == train_policy.OPPONENTS[opponents]
    # Two steps of policy gradient moved the weights from where they started.
    assert trained.values != plain(Registry(entry_points=False)).values


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--batch", "0"], "argument --batch: expected 1 or more, not 0"),
        (["--games", "-5"], "argument --games: expected 1 or more, not -5"),
        (["--every", "0"], "argument --every: expected 1 or more, not 0"),
        (["--eval-games", "0"], "argument --eval-games: expected 1 or more, not 0"),
        (["--rate", "nan"], "argument --rate: expected a step size above 0, not nan"),
        (["--rate", "-1"], "argument --rate: expected a step size above 0, not -1"),
        (["--out", "/nonexistent/x.bin"], "--out /nonexistent/x.bin: the folder"),
    ],
)
def test_training_refuses_bad_settings_before_it_plays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, flags: list[str], said: str
) -> None:
    pytest.importorskip("numpy")
    from oriflamme.rl import train_policy  # noqa: PLC0415 - needs numpy

    curve = tmp_path / "curve.csv"
    with pytest.raises(SystemExit):
        train_policy.main([*flags, "--curve", str(curve)])
    assert said in capsys.readouterr().err
    assert not curve.exists()


def test_training_measures_at_each_multiple_of_every_it_passes(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from oriflamme.rl import train_policy  # noqa: PLC0415 - needs numpy

    curve = tmp_path / "curve.csv"
    flags = ["--seed", "5", "--games", "100", "--batch", "20", "--every", "30"]
    flags += ["--eval-games", "3", "--out", str(tmp_path / "w.bin"), "--curve", str(curve)]
    assert train_policy.main(flags) == 0
    measured = [row.split(",")[0] for row in curve.read_text().splitlines()[1:]]
    # Batches end at 20, 40, ...: the first at or past 30, 60 and 90 are 40, 60 and 100.
    assert measured == ["0", "40", "60", "100"]
