"""Trains the learned bot's weights (:mod:`oriflamme.bots.learned`) by policy gradient.

::

    python -m oriflamme.rl.train_policy --seed 1 --games 400000 --out learned.bin \\
        --curve learned-training.csv --plot learned-training.png

The policy starts as the heuristic bot (its score's weight high, every feature's 0)
and plays 3-family base games against two heuristic bots, in every seat in turn
(``--opponents self``: against itself, every seat learning), sampling its answers from
the softmax of its logits. After every batch of games,
REINFORCE: each of its answers' log-probability gradient (the chosen option's features
less their expectation under the policy) times the game's result (1 for a win, a share
of one for a shared win, RULINGS G6) less a running baseline, averaged over the
batch, one Adam step. Every ``--every`` games the greedy policy (the highest logit,
as the bot plays) is measured against two heuristic bots on the same held-out games;
the curve (games trained, win %, 95% Wilson interval) goes to a CSV and a PNG.
Everything flows from ``--seed``: the same seed and games train the same weights.

Needs numpy (the ``rl`` extra); matplotlib for the plot.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from oriflamme import COLOURS, Game, GameConfig, Observation, Registry
from oriflamme.bots import HeuristicBot
from oriflamme.bots.learned import Features, Layout, Weights, logits

#: Where the heuristic score's weight starts: sampling the softmax then plays about as
#: the heuristic bot does while still trying its near-best options.
START = 8.0
#: Whom the policy trains against, as the weights file records it.
OPPONENTS = {
    "heuristic": "2 x heuristic, 3-family base games",
    "self": "itself in every seat (self-play), 3-family base games",
}
#: Held-out games' seeds start here (training games' seeds come from --seed).
HELD_OUT = 10**9


class Policy:
    """Weights being trained, and the sampling and greedy play they give."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.weights = np.zeros(layout.size)
        self.weights[0] = START
        self.values: list[float] = self.weights.tolist()

    def refresh(self) -> None:
        self.values = self.weights.tolist()


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def result(game: Game, family: str) -> float:
    winners = game.winners
    return 1.0 / len(winners) if family in winners else 0.0


def play_game(
    policy: Policy,
    registry: Registry,
    seed: int,
    seat: int,
    *,
    greedy: bool,
    self_play: bool = False,
) -> list[tuple[float, list[dict[int, float]]]]:
    """One game, the policy in ``seat`` and heuristic bots elsewhere (``self_play``:
    the policy in every seat): for each seat the policy plays, its result and, for a
    sampling policy, the log-probability gradient of each of its answers."""
    config = GameConfig(families=COLOURS[:3], sets=("base",), seed=seed)
    rng = random.Random(seed)
    game = Game.new(config, registry=registry, record=False, seed=seed, rng=rng)
    me = game.families[seat]
    learners = set(game.families) if self_play else {me}
    others = {family: HeuristicBot(rng) for family in game.families if family not in learners}
    features = Features(policy.layout, HeuristicBot(rng))
    draw = rng.random
    grads: dict[str, list[dict[int, float]]] = {family: [] for family in learners}
    values = policy.values
    decision = game.decision
    while decision is not None:
        family = decision.family
        seen: Observation = game.observe(family)
        if family not in learners:
            game.answer(others[family].choose(seen))
        elif len(decision.options) == 1:
            game.answer_option(0)
        else:
            scores, found = features.read(seen)
            logit = logits(values, scores, found)
            top = max(logit)
            if greedy:
                best = [i for i, v in enumerate(logit) if v >= top - 1e-9]
                game.answer_option(best[int(draw() * len(best))])
            else:
                weights = [math.exp(v - top) for v in logit]
                total = sum(weights)
                pick = draw() * total
                chosen = len(weights) - 1
                for i, w in enumerate(weights):
                    pick -= w
                    if pick < 0:
                        chosen = i
                        break
                grads[family].append(gradient(scores, found, weights, total, chosen))
                game.answer_option(chosen)
        decision = game.decision
    return [(result(game, family), grads[family]) for family in sorted(learners)]


def gradient(
    scores: Sequence[float],
    found: Sequence[Sequence[int]],
    weights: Sequence[float],
    total: float,
    chosen: int,
) -> dict[int, float]:
    """d log pi(chosen) / d weights: the chosen option's features less their expectation."""
    top = max(scores)
    grad: dict[int, float] = {}

    def add(i: int, scale: float) -> None:
        gap = scores[i] - top
        grad[0] = grad.get(0, 0.0) + scale * max(gap, -5.0)
        if gap >= -1e-9:
            grad[1] = grad.get(1, 0.0) + scale
        for number in found[i]:
            grad[number] = grad.get(number, 0.0) + scale

    add(chosen, 1.0)
    for i, w in enumerate(weights):
        if w > 1e-12:
            add(i, -w / total)
    return grad


def evaluate(policy: Policy, registry: Registry, games: int) -> float:
    """The greedy policy's win share against two heuristic bots on the held-out games."""
    won = 0.0
    for number in range(games):
        won += play_game(policy, registry, HELD_OUT + number, number % 3, greedy=True)[0][0]
    return won


def bar(done: int, total: int, start: float, note: str) -> None:
    width = 30
    filled = width * done // max(total, 1)
    elapsed = time.perf_counter() - start
    eta = elapsed / done * (total - done) if done else 0.0
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games "
        f"{elapsed:5.0f}s, {eta:5.0f}s left {note}"
    )
    sys.stderr.flush()


def train(args: argparse.Namespace) -> int:
    registry = Registry(entry_points=False)
    layout = Layout(sorted(registry.cards))
    policy = Policy(layout)
    rng = random.Random(args.seed)
    first_moment = np.zeros(layout.size)
    second_moment = np.zeros(layout.size)
    steps = 0
    baseline = 1 / 3
    rows: list[tuple[int, int, float, float, float, float, float]] = []
    start = time.perf_counter()

    def measure(done: int) -> None:
        won = evaluate(policy, registry, args.eval_games)
        low, high = wilson(won, args.eval_games)
        rows.append(
            (
                done,
                args.eval_games,
                won,
                won / args.eval_games,
                low,
                high,
                time.perf_counter() - start,
            )
        )
        sys.stderr.write(
            f"\n{done} games: greedy {100 * won / args.eval_games:.1f}% "
            f"[{100 * low:.1f}%, {100 * high:.1f}%] of {args.eval_games}, "
            f"heuristic weight {policy.weights[0]:.2f}\n"
        )
        write_curve(args.curve, rows)
        if args.plot:  # at every measure: a run stopped early still has its plot
            plot(args.plot, rows)

    measure(0)
    done = 0
    while done < args.games:
        batch = min(args.batch, args.games - done)
        total = np.zeros(layout.size)
        for _ in range(batch):
            seed = rng.getrandbits(62)
            played = play_game(
                policy, registry, seed, done % 3, greedy=False, self_play=args.opponents == "self"
            )
            for won, grads in played:
                advantage = won - baseline
                baseline += 0.01 * (won - baseline)
                for grad in grads:
                    for number, value in grad.items():
                        total[number] += advantage * value
            done += 1
        # Adam, ascending the expected result.
        step = total / batch
        steps += 1
        first_moment = 0.9 * first_moment + 0.1 * step
        second_moment = 0.999 * second_moment + 0.001 * step * step
        corrected = first_moment / (1 - 0.9**steps)
        scale = np.sqrt(second_moment / (1 - 0.999**steps)) + 1e-8
        policy.weights += args.rate * corrected / scale
        policy.refresh()
        bar(done, args.games, start, f"baseline {baseline:.3f}")
        if done // args.every > (done - batch) // args.every or done == args.games:
            measure(done)
            save(args.out, policy, args, done)
    sys.stderr.write("\n")
    print(f"trained on {done} games in {time.perf_counter() - start:.0f} s; weights in {args.out}")
    return 0


def save(path: str, policy: Policy, args: argparse.Namespace, done: int) -> None:
    about = {
        "trained_by": "python -m oriflamme.rl.train_policy",
        "seed": args.seed,
        "games": done,
        "batch": args.batch,
        "rate": args.rate,
        "opponents": OPPONENTS[args.opponents],
    }
    Path(path).write_bytes(Weights(policy.layout, policy.weights.tolist(), about).dump())


def write_curve(path: str, rows: list[tuple[int, int, float, float, float, float, float]]) -> None:
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(
            ["games_trained", "eval_games", "wins", "win_rate", "low", "high", "seconds"]
        )
        for row in rows:
            writer.writerow(
                [row[0], row[1], f"{row[2]:g}"] + [f"{v:.4f}" for v in row[3:6]] + [f"{row[6]:.0f}"]
            )


def plot(path: str, rows: list[tuple[int, int, float, float, float, float, float]]) -> None:
    import matplotlib  # noqa: PLC0415 - only to draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    xs = [row[0] for row in rows]
    rates = [100 * row[3] for row in rows]
    lows = [100 * row[4] for row in rows]
    highs = [100 * row[5] for row in rows]
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.fill_between(xs, lows, highs, alpha=0.25, label="95% interval")
    axes.plot(xs, rates, marker="o", label="learned (greedy) vs 2 x heuristic")
    axes.axhline(100 / 3, color="grey", linestyle="--", label="fair share 33.3%")
    axes.set_xlabel("training games")
    axes.set_ylabel(f"win % of {rows[0][1]} held-out games")
    axes.set_title("The learned bot against two heuristic bots (3 families, base)")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def _positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {number}")
    return number


def _rate(text: str) -> float:
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    # A negative step would descend the expected result; nan or inf would break play.
    if not (math.isfinite(number) and number > 0):
        raise argparse.ArgumentTypeError(f"expected a step size above 0, not {text}")
    return number


def _writable(parser: argparse.ArgumentParser, flag: str, path: str) -> None:
    """Refuses at once a file that could not be written, rather than after the first
    20,000 games."""
    if not path:
        return
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        parser.error(f"{flag} {path}: the folder {folder} does not exist")
    if Path(path).is_dir():
        parser.error(f"{flag} {path}: is a folder, not a file")
    if not os.access(folder, os.W_OK):
        parser.error(f"{flag} {path}: the folder {folder} cannot be written")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m oriflamme.rl.train_policy", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seed", type=int, default=1, help="everything flows from it (default 1)")
    parser.add_argument(
        "--games", type=_positive, default=400_000, help="training games (default 400000)"
    )
    parser.add_argument(
        "--batch", type=_positive, default=500, help="games per gradient step (default 500)"
    )
    parser.add_argument("--rate", type=_rate, default=0.02, help="Adam's step size (default 0.02)")
    parser.add_argument(
        "--every",
        type=_positive,
        default=20_000,
        help="measure at the end of the first batch at or past each multiple of this many "
        "training games, and at the end (default 20000)",
    )
    parser.add_argument(
        "--eval-games",
        type=_positive,
        default=3_000,
        help="held-out games per measure (default 3000)",
    )
    parser.add_argument(
        "--opponents",
        choices=sorted(OPPONENTS),
        default="heuristic",
        help="train against two heuristic bots, or self-play: the policy in every seat, "
        "each seat's answers learning from its own result (measured against heuristic "
        "bots either way)",
    )
    parser.add_argument(
        "--out", default="learned.bin", help="the weights file to write (default learned.bin)"
    )
    parser.add_argument(
        "--curve", default="learning.csv", help="the learning curve's CSV (default learning.csv)"
    )
    parser.add_argument(
        "--plot", default="", help="the learning curve's PNG (needs matplotlib; default none)"
    )
    args = parser.parse_args(argv)
    for flag in ("out", "curve", "plot"):
        _writable(parser, f"--{flag}", getattr(args, flag))
    return train(args)


if __name__ == "__main__":
    raise SystemExit(main())
