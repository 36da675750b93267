"""Where bots think (oriflamme.web.thinking), against real worker processes: the same
answers as a bot in the server's process, tables sharing the workers' time, clients sharing
it before their tables do and each held to its cap of decisions at once, the people lane
served while games of bots alone fill theirs, work dropped, bots that never answer or
fail, and closing; and the caps a server puts on bot settings (players.check_bot).

The misbehaving bots are tests/slow_bots.py, a plugin registered by name as the
server registers one; every game's seed is printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
import types
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import oriflamme_house_rules
import pytest

import oriflamme.text
from oriflamme import COLOURS, ConfigError, Game, GameConfig, Observation, Registry
from oriflamme.bots import parse_bot
from oriflamme.bots.levels import LEVELS, levels
from oriflamme.web.installed import installed
from oriflamme.web.limits import Limits
from oriflamme.web.players import check_bot, make_bot
from oriflamme.web.thinking import (
    QUICK_SECONDS,
    Dropped,
    Lane,
    Plugins,
    Thinkers,
    dump_observation,
    load_observation,
)

from . import slow_bots

PLUGINS: Mapping[str, object] = {"house_rules": oriflamme_house_rules, "slow_bots": slow_bots}
#: Seconds any one step may take before the test fails: bounds, not speeds.
PATIENCE = 30.0
#: The servers' cap on iterations, by default.
CAP = Limits().bot_iterations


def registry(without: tuple[str, ...] = ()) -> Registry:
    """The registry a server of :data:`PLUGINS` makes (and so each of its workers)."""
    made = Registry(entry_points=False, exclude=sorted(without))
    for name, plugin in PLUGINS.items():
        if name not in without:
            made.register(plugin, name)
    return made


def run(test: Callable[[Thinkers], Awaitable[None]], **limits: Any) -> None:
    """``test`` with thinkers of ``limits``, by default of two workers (the people lane's;
    the bots lane has one), closed after."""

    async def main() -> None:
        chosen = Limits(**{"bot_workers": 2, **limits})
        thinkers = Thinkers(chosen, PLUGINS, entry_points=False)
        try:
            await asyncio.wait_for(test(thinkers), 4 * PATIENCE)
        finally:
            thinkers.close()

    asyncio.run(main())


def an_observation() -> Observation:
    game = Game.new(GameConfig(families=COLOURS[:3], sets=("base",), seed=1), registry=registry())
    decision = game.decision
    assert decision is not None
    return game.observe(decision.family)


async def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended and been collected, waiting a little (the
    server collects a killed worker in the background)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        await asyncio.sleep(0.05)
    return False


# The same answers as in the server's process.

GAMES = (
    # (table, lane, configuration, plugins left out, each family's bot)
    (
        "base",
        Lane.PEOPLE,
        GameConfig(families=COLOURS[:3], sets=("base",), seed=8101),
        ("ablaze",),
        ("random", "heuristic", "ismcts:iterations=20"),
    ),
    (
        "ablaze",
        Lane.BOTS,
        GameConfig(families=COLOURS[:4], sets=("base", "ablaze"), seed=8102),
        (),
        ("ismcts:iterations=20", "random", "heuristic", "ismcts:iterations=20:playout=random"),
    ),
    (
        "house",
        Lane.PEOPLE,
        GameConfig(
            families=COLOURS[:3],
            sets=("base", "house"),
            size=10,
            seed=8103,
            variants={"bounty": True},
        ),
        (),
        ("house_heuristic:boldness=2", "ismcts:iterations=20:playout=random", "random"),
    ),
)


async def play(  # noqa: PLR0917 - a game of GAMES, as it is written there
    thinkers: Thinkers,
    table: str,
    lane: Lane,
    config: GameConfig,
    without: tuple[str, ...],
    bots: tuple[str, ...],
) -> int:
    """Plays a game through, every answer the worker's, each checked against the same
    bot in this process: the number of answers."""
    rules = registry(without)
    game = Game.new(config, registry=rules)
    kinds = dict(zip(game.families, bots, strict=True))
    step = 0
    while (decision := game.decision) is not None:
        family = decision.family
        observation = game.observe(family)
        seed = f"{config.seed}:{family}:{step}"
        mine = make_bot(kinds[family], rules, random.Random(seed)).choose(observation)
        theirs = await thinkers.think(table, lane, kinds[family], without, observation, seed)
        assert theirs == json.loads(json.dumps(mine)), (table, config.seed, step, family)
        game.answer(theirs, family=family)
        step += 1
    return step


def test_a_worker_answers_as_the_server_would() -> None:
    for table, _, config, _, bots in GAMES:
        print(f"{table}: seed {config.seed}, bots {', '.join(bots)}")

    async def test(thinkers: Thinkers) -> None:
        steps = await asyncio.gather(*(play(thinkers, *game) for game in GAMES))
        assert all(count > 30 for count in steps)

    run(test)


def test_an_observation_crosses_whole() -> None:
    config = GameConfig(families=COLOURS[:4], sets=("base", "ablaze"), seed=8104)
    print(f"seed {config.seed}")
    game = Game.new(config, registry=registry())
    other = registry()  # a worker's: its own rules, made from the same plugins
    rng = random.Random(config.seed)
    while game.decision is not None:
        for family in (*game.families, None):
            seen = game.observe(family)
            back = load_observation(dump_observation(seen))
            assert back == seen
            # Words included, with the worker's own rules, made from the same plugins.
            rules = other.rules(back.sets, dict(back.variants), extra=back.cards)
            assert oriflamme.text.table(back, rules) == oriflamme.text.table(seen, game.rules)
        game.answer_option(rng.randrange(len(game.decision.options)))


# Lanes and turns.


def test_tables_share_the_workers_time_not_their_turns() -> None:
    observation = an_observation()
    order: list[str] = []

    async def turns(thinkers: Thinkers, table: str, kind: str) -> None:
        for _ in range(3):
            answer = await thinkers.think(table, Lane.BOTS, kind, (), observation, "seed")
            assert answer is not None
            order.append(table)

    async def test(thinkers: Thinkers) -> None:
        # One worker in the bots lane: the order answers come in is the order they
        # were worked out in. Each table has its first turn in the order it asked; then
        # the slow table, which has had the most time, waits until the quick ones
        # have had as much.
        await asyncio.gather(
            turns(thinkers, "slow", "napping:nap=0.5"),
            turns(thinkers, "quick", "napping:nap=0.01"),
            turns(thinkers, "random", "random"),
        )

    run(test)
    print(order)
    assert order[:3] == ["slow", "quick", "random"]
    assert sorted(order[3:7]) == ["quick", "quick", "random", "random"]
    assert order[7:] == ["slow", "slow"]


def test_quick_bots_are_not_queued_behind_searches_that_have_not_started() -> None:
    observation = an_observation()
    order: list[str] = []

    async def turns(thinkers: Thinkers, table: str, kind: str, count: int) -> None:
        for _ in range(count):
            answer = await thinkers.think(table, Lane.BOTS, kind, (), observation, "seed")
            assert answer is not None
            order.append(table)

    async def test(thinkers: Thinkers) -> None:
        # Four tables of slow bots ask first: once one decision of theirs has shown
        # what they cost, the two quick tables' six go before the other three (two:
        # a table asks again a moment after its answer, when the next has been taken).
        await asyncio.gather(
            *(turns(thinkers, f"slow{n}", "napping:nap=0.4", 1) for n in range(4)),
            turns(thinkers, "quick0", "napping:nap=0.01", 3),
            turns(thinkers, "quick1", "napping:nap=0.01", 3),
        )

    run(test)
    print(order)
    assert order[0] == "slow0"
    assert sorted(order[1:7]) == ["quick0"] * 3 + ["quick1"] * 3
    assert order[7:] == ["slow1", "slow2", "slow3"]


QUICK = ("random", "heuristic", "beginner", "medium")


def test_a_person_playing_quick_bots_never_waits_behind_a_search() -> None:
    observation = an_observation()
    done: list[str] = []

    async def test(thinkers: Thinkers) -> None:
        # The people lane's one worker is busy with a long decision of another game.
        searching = asyncio.create_task(
            thinkers.think("search", Lane.PEOPLE, "napping:nap=3", (), observation, "seed")
        )
        await asyncio.sleep(0.5)
        for step in range(5):
            # The levels that are quick kinds are quick from their first decision too.
            for kind in QUICK:
                answer = await thinkers.think(
                    "quick", Lane.PEOPLE, kind, (), observation, f"seed:{step}"
                )
                assert answer is not None
                done.append(kind)
        assert not searching.done()  # all of them answered while it still searched
        assert await searching is not None

    run(test)
    assert done == list(QUICK) * 5


def test_a_table_has_one_decision_at_a_time() -> None:
    observation = an_observation()

    async def test(thinkers: Thinkers) -> None:
        first = asyncio.create_task(
            thinkers.think("t", Lane.PEOPLE, "random", (), observation, "seed")
        )
        await asyncio.sleep(0)
        with pytest.raises(ValueError, match="already has a decision"):
            await thinkers.think("t", Lane.PEOPLE, "random", (), observation, "seed")
        assert await first is not None

    run(test)


def test_people_are_served_while_games_of_bots_fill_their_lane() -> None:
    observation = an_observation()
    base = os.nice(0)

    async def test(thinkers: Thinkers) -> None:
        alone = [
            asyncio.create_task(
                thinkers.think(f"alone{n}", Lane.BOTS, "napping:nap=60", (), observation, "seed")
            )
            for n in range(3)
        ]
        await asyncio.sleep(0)
        person = await thinkers.think("person", Lane.PEOPLE, "whoami", (), observation, "seed")
        assert not any(task.done() for task in alone)  # still thinking, or waiting
        assert isinstance(person, list)
        assert person[1] == min(19, base + 5)  # below the server
        for n in range(3):
            thinkers.drop(f"alone{n}")
        for task in alone:
            with pytest.raises(Dropped):
                await task

    run(test)


def test_the_bots_lane_runs_lowest() -> None:
    observation = an_observation()
    base = os.nice(0)

    async def test(thinkers: Thinkers) -> None:
        found = await thinkers.think("t", Lane.BOTS, "whoami", (), observation, "seed")
        assert isinstance(found, list)
        assert found[0] != os.getpid()
        assert found[1] == min(19, base + 19)

    run(test)


# Clients.


async def warm(thinkers: Thinkers, lane: Lane, count: int, observation: Observation) -> set[int]:
    """Starts ``count`` workers in ``lane`` (a decision of each of ``count`` clients at once,
    until as many workers have answered them): their process ids."""
    while True:
        answers = await asyncio.gather(
            *(
                thinkers.think(
                    f"warm{n}", lane, "timed:nap=0.3", (), observation, "s", client=f"warm{n}"
                )
                for n in range(count)
            )
        )
        pids = {timed(answer)[0] for answer in answers}
        if len(pids) == count:
            return pids


def timed(answer: object) -> tuple[int, float, float]:
    """A timed bot's answer: its worker's process id, when it started and ended."""
    assert isinstance(answer, list)
    pid, started, ended = answer
    return int(pid), float(started), float(ended)


async def asking(  # noqa: PLR0917 - a table's decisions, as think takes them
    thinkers: Thinkers,
    table: str,
    lane: Lane,
    kind: str,
    client: str,
    observation: Observation,
    answers: list[tuple[str, object]],
    count: int = 10**6,
) -> None:
    """``table`` of ``client`` asks for ``count`` decisions one after another, each answer
    in ``answers`` with its table, or until it is dropped."""
    with contextlib.suppress(Dropped):
        for step in range(count):
            seed = f"{table}:{step}"
            answer = await thinkers.think(table, lane, kind, (), observation, seed, client=client)
            answers.append((table, answer))


def most_at_once(spans: list[tuple[float, float]]) -> int:
    """The most of ``spans`` (start, end) running at the same time."""
    # An end before a start at the same moment: the one ended, then the other began.
    moments = sorted([(end, -1) for _, end in spans] + [(start, 1) for start, _ in spans])
    most = running = 0
    for _, step in moments:
        running += step
        most = max(most, running)
    return most


def test_a_client_s_tables_leave_the_people_lane_to_others() -> None:
    observation = an_observation()
    # Client a's tables search for long, one after another; client b's is quick to
    # answer but not a quick kind (the people lane's, not the quick one's).
    long, short = 1.2, 0.2
    assert short > QUICK_SECONDS
    waits: list[float] = []
    hogged: list[tuple[str, object]] = []

    async def test(thinkers: Thinkers) -> None:
        await warm(thinkers, Lane.PEOPLE, 2, observation)
        tables = [f"a{n}" for n in range(4)]
        hogging = [
            asyncio.create_task(
                asking(thinkers, table, Lane.PEOPLE, f"timed:nap={long}", "a", observation, hogged)
            )
            for table in tables
        ]
        await asyncio.sleep(0.1)  # a's first decision running
        step = 0
        # Until a has had three decisions, at most one at a time.
        while len(hogged) < 3:
            start = time.monotonic()
            answer = await thinkers.think(
                "b", Lane.PEOPLE, f"timed:nap={short}", (), observation, f"b:{step}", client="b"
            )
            waits.append(time.monotonic() - start)
            assert timed(answer)[2] - timed(answer)[1] >= short
            step += 1
        for table in tables:
            thinkers.drop(table)
        await asyncio.gather(*hogging)

    run(test)
    spans = [timed(answer)[1:] for _, answer in hogged]
    print(f"b waited {min(waits):.3f}s to {max(waits):.3f}s for {len(waits)} decisions of {short}s")
    print(f"a: {len(spans)} decisions of {long}s, at most {most_at_once(spans)} at once")
    # Never behind a's searches, which take six times as long.
    assert max(waits) < short + 0.6
    assert most_at_once(spans) == 1  # the people lane has two workers: a has one


def test_clients_share_a_lane_before_their_tables_do() -> None:
    observation = an_observation()
    answers: list[tuple[str, object]] = []

    async def test(thinkers: Thinkers) -> None:
        # The bots lane has one worker: every decision is of the same cost, and the
        # answers are served one after the other.
        tasks = [
            asyncio.create_task(
                asking(thinkers, table, Lane.BOTS, "napping:nap=0.1", client, observation, answers)
            )
            for table, client in (("a0", "a"), ("a1", "a"), ("a2", "a"), ("a3", "a"), ("b", "b"))
        ]
        while len(answers) < 30:
            await asyncio.sleep(0.05)
        for table in ("a0", "a1", "a2", "a3", "b"):
            thinkers.drop(table)
        await asyncio.gather(*tasks)

    run(test)
    served = [table for table, _ in answers[:30]]
    counts = {table: served.count(table) for table in sorted(set(served))}
    print(f"served in turn: {' '.join(served)}; {counts}")
    # A table of its own, b has half the time; a's four tables share the other half.
    assert counts["b"] >= 12  # 15 if shared exactly, 6 if shared by table
    assert all(counts[f"a{n}"] >= 3 for n in range(4))


def test_a_client_s_decisions_at_once_are_capped() -> None:
    observation = an_observation()
    answers: list[tuple[str, object]] = []
    crash = 0.5

    async def test(thinkers: Thinkers) -> None:
        warmed = await warm(thinkers, Lane.PEOPLE, 3, observation)
        # Client c at its cap of two: one decision ends its worker, another takes
        # longer, and a third waits, one worker idle. Once the first has failed, the
        # third is run at once by the idle worker, not by the one replacing the worker
        # gone.
        failing = asyncio.create_task(
            thinkers.think(
                "c0", Lane.PEOPLE, f"crash:nap={crash}", (), observation, "s", client="c"
            )
        )
        long = asyncio.create_task(
            thinkers.think("c1", Lane.PEOPLE, "timed:nap=1.2", (), observation, "s", client="c")
        )
        ended: list[float] = []
        failing.add_done_callback(lambda _: ended.append(time.monotonic()))
        await asyncio.sleep(0)
        asked = time.monotonic()
        waiting = await thinkers.think(
            "c2", Lane.PEOPLE, "timed:nap=0.2", (), observation, "s", client="c"
        )
        assert await failing is None
        failed = ended[0]
        pid, started, _ = timed(waiting)
        longest = timed(await long)
        print(
            f"c's third decision waited {started - asked:.3f}s, started {started - failed:+.3f}s "
            f"from the first's failure, in worker {pid} of {sorted(warmed)}"
        )
        assert started - asked > crash - 0.1  # held by the cap
        assert pid in warmed  # the idle worker's, not a new one's
        assert pid != longest[0]
        assert abs(started - failed) < 0.5
        # Then three tables of a, three decisions each: two at once, not three, and
        # each of the others run as soon as one of those ends.
        await asyncio.gather(
            *(
                asking(
                    thinkers, f"a{n}", Lane.PEOPLE, "timed:nap=0.4", "a", observation, answers, 3
                )
                for n in range(3)
            )
        )

    run(test, bot_workers=3, bot_tables_per_client=2)
    spans = [timed(answer)[1:] for _, answer in answers]
    starts = sorted(start for start, _ in spans)
    ends = sorted(end for _, end in spans)
    # Two at a time: the third decision starts once the first has ended, and so on.
    gaps = [start - end for start, end in zip(starts[2:], ends, strict=False)]
    print(
        f"a: {len(spans)} decisions, at most {most_at_once(spans)} at once; from an end to "
        f"the next start {min(gaps):.3f}s to {max(gaps):.3f}s"
    )
    assert most_at_once(spans) == 2
    assert min(gaps) >= 0
    assert max(gaps) < 0.3


def test_a_worker_is_started_only_for_work_it_could_take() -> None:
    observation = an_observation()
    answers: list[tuple[str, object]] = []

    async def test(thinkers: Thinkers) -> None:
        # Client b asked a moment ago: client a is not alone, and its three tables, at
        # its cap of one decision at once, could use one worker of the people lane's
        # three. Another started would be idle.
        other = await thinkers.think(
            "b", Lane.PEOPLE, "timed:nap=0.1", (), observation, "s", client="b"
        )
        answers.append(("b", other))
        await asyncio.gather(
            *(
                asking(
                    thinkers, f"a{n}", Lane.PEOPLE, "timed:nap=0.3", "a", observation, answers, 2
                )
                for n in range(3)
            )
        )

    run(test, bot_workers=3)
    workers = [timed(answer)[0] for _, answer in answers]
    print(f"b's decision, then a's, in workers {workers}")
    assert len(workers) == 7
    assert len(set(workers)) == 1


def test_a_client_alone_uses_every_worker_until_another_asks() -> None:
    observation = an_observation()
    answers: list[tuple[str, object]] = []
    asked: list[float] = []

    async def test(thinkers: Thinkers) -> None:
        # A household behind one address, nobody else about: its three tables think
        # at once in the people lane's three workers. Then b asks, and from then on a
        # is held to its cap of one, leaving workers to b.
        tables = [
            asyncio.create_task(
                asking(thinkers, f"a{n}", Lane.PEOPLE, "timed:nap=0.3", "a", observation, answers)
            )
            for n in range(3)
        ]
        while len(answers) < 9:
            await asyncio.sleep(0.05)
        asked.append(time.monotonic())
        for step in range(3):
            other = await thinkers.think(
                "b", Lane.PEOPLE, "timed:nap=0.1", (), observation, f"b:{step}", client="b"
            )
            answers.append(("b", other))
        await asyncio.sleep(1.0)
        for table in ("a0", "a1", "a2"):
            thinkers.drop(table)
        await asyncio.gather(*tables)

    run(test, bot_workers=3)
    mine = [timed(answer)[1:] for table, answer in answers if table != "b"]
    before = [span for span in mine if span[1] <= asked[0]]
    # Decisions started once b had asked and its first was taken (one of a's ran then).
    after = [span for span in mine if span[0] > asked[0] + 0.35]
    print(
        f"a alone: {len(before)} decisions, at most {most_at_once(before)} at once; "
        f"beside b: {len(after)}, at most {most_at_once(after)} at once"
    )
    assert most_at_once(before) == 3
    assert after
    assert most_at_once(after) == 1


def test_lanes_split_the_workers() -> None:
    # The people lane has them all, games of bots alone half as many, and one more
    # takes the people's quick decisions; every lane one at least, limits checked or not.
    quick = {Lane.QUICK: 1}
    assert Thinkers(Limits(bot_workers=1)).sizes() == {Lane.PEOPLE: 1, Lane.BOTS: 1, **quick}
    assert Thinkers(Limits(bot_workers=2)).sizes() == {Lane.PEOPLE: 2, Lane.BOTS: 1, **quick}
    assert Thinkers(Limits(bot_workers=3)).sizes() == {Lane.PEOPLE: 3, Lane.BOTS: 1, **quick}
    assert Thinkers(Limits(bot_workers=8)).sizes() == {Lane.PEOPLE: 8, Lane.BOTS: 4, **quick}


# Dropping, failing, closing.


def test_dropped_work_is_never_run_and_its_answer_ignored() -> None:
    observation = an_observation()

    async def test(thinkers: Thinkers) -> None:
        warm = await thinkers.think("warm", Lane.BOTS, "whoami", (), observation, "seed")
        assert isinstance(warm, list)
        # The idle worker takes the napping table's decision at once; the crashing
        # one's waits behind it. Had it run, the worker would be another one after.
        napping = asyncio.create_task(
            thinkers.think("napping", Lane.BOTS, "napping:nap=1", (), observation, "seed")
        )
        crashing = asyncio.create_task(
            thinkers.think("crashing", Lane.BOTS, "crash", (), observation, "seed")
        )
        await asyncio.sleep(0)
        thinkers.drop("crashing")
        thinkers.drop("napping")
        thinkers.drop("nobody")  # nothing to drop: nothing happens
        for task in (crashing, napping):
            with pytest.raises(Dropped):
                await task
        after = await thinkers.think("after", Lane.BOTS, "whoami", (), observation, "seed")
        assert after == warm  # the same worker, which never met the crashing bot
        again = await thinkers.think("napping", Lane.BOTS, "random", (), observation, "seed")
        assert again is not None

    run(test)


def test_a_bot_that_never_answers_is_stopped() -> None:
    observation = an_observation()
    timeout = 1.0

    async def test(thinkers: Thinkers) -> None:
        before = await thinkers.think("t", Lane.PEOPLE, "whoami", (), observation, "seed")
        assert isinstance(before, list)
        start = time.monotonic()
        assert await thinkers.think("t", Lane.PEOPLE, "forever", (), observation, "s") is None
        assert time.monotonic() - start < timeout + 5
        after = await thinkers.think("t", Lane.PEOPLE, "whoami", (), observation, "seed")
        assert isinstance(after, list)
        assert after[0] != before[0]  # replaced
        assert await gone(before[0])

    run(test, bot_timeout=timeout)


def test_a_bot_that_fails_gives_no_answer() -> None:
    observation = an_observation()

    async def test(thinkers: Thinkers) -> None:
        before = await thinkers.think("t", Lane.BOTS, "whoami", (), observation, "seed")
        assert await thinkers.think("t", Lane.BOTS, "broken", (), observation, "seed") is None
        # A bot's failure is its decision's: the worker goes on.
        assert await thinkers.think("t", Lane.BOTS, "whoami", (), observation, "s") == before
        # A bot that ends its process: no answer, and another worker.
        assert await thinkers.think("t", Lane.BOTS, "crash", (), observation, "seed") is None
        after = await thinkers.think("t", Lane.BOTS, "whoami", (), observation, "seed")
        assert isinstance(before, list)
        assert isinstance(after, list)
        assert after[0] != before[0]
        # A kind the worker does not know: no answer either.
        assert await thinkers.think("t", Lane.BOTS, "genius", (), observation, "s") is None

    run(test)


def test_closing_stops_the_workers_at_once() -> None:
    observation = an_observation()

    async def test(thinkers: Thinkers) -> None:
        pids = []
        for table, lane in (("a", Lane.PEOPLE), ("b", Lane.BOTS)):
            found = await thinkers.think(table, lane, "whoami", (), observation, "seed")
            assert isinstance(found, list)
            pids.append(found[0])
        busy = [
            asyncio.create_task(thinkers.think(table, lane, "forever", (), observation, "s"))
            for table, lane in (("a", Lane.PEOPLE), ("b", Lane.BOTS), ("c", Lane.BOTS))
        ]
        await asyncio.sleep(0.2)
        start = time.monotonic()
        thinkers.close()
        assert time.monotonic() - start < 5
        for task in busy:
            with pytest.raises(Dropped):
                await task
        for pid in pids:
            assert await gone(pid)
        with pytest.raises(Dropped):
            await thinkers.think("d", Lane.PEOPLE, "random", (), observation, "seed")
        thinkers.close()  # again: nothing more to do

    run(test, bot_timeout=60.0)


def test_plugins_must_be_importable_by_name() -> None:
    assert Plugins.of(PLUGINS, entry_points=False).modules == (
        ("house_rules", "oriflamme_house_rules"),
        ("slow_bots", "tests.slow_bots"),
    )
    for plugin in (types.SimpleNamespace(), types.ModuleType("made_up")):
        with pytest.raises(ConfigError, match="plugin 'odd': bots think in worker processes"):
            Thinkers(Limits(), {"odd": plugin})


# Caps.


@pytest.fixture(scope="module")
def everyone() -> Registry:
    return registry()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "ismcts:iterations=10000000",
            f"bots.blue: ismcts iterations at most {CAP} on this server, not 10000000 "
            "(serve --bot-iterations raises it)",
        ),
        (
            "ismcts:seconds=3600",
            "bots.blue: ismcts seconds at most 2 on this server, not 3600 "
            "(serve --bot-seconds raises it)",
        ),
        (
            f"budgeted:iterations={CAP + 1}",
            f"bots.blue: budgeted iterations at most {CAP} on this server, not {CAP + 1}",
        ),
        ("budgeted:seconds=2.5", "bots.blue: budgeted seconds at most 2 on this server, not 2.5"),
        ("genius", "bots.blue: unknown bot 'genius'"),
    ],
)
def test_a_bot_over_the_cap_is_refused(everyone: Registry, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        check_bot(text, "blue", everyone)
    assert str(refused.value).startswith(message)


def test_a_bot_within_the_caps_is_kept(everyone: Registry) -> None:
    for text in ("random", "ismcts", f"ismcts:iterations={CAP}", "house_heuristic:boldness=2"):
        assert check_bot(text, "blue", everyone) == text
    # A time budget alone: a count is written in, so every decision is bounded by one.
    assert check_bot("ismcts:seconds=2", "blue", everyone) == f"ismcts:seconds=2:iterations={CAP}"
    assert (
        check_bot("ismcts:playout=random:seconds=0.5", "blue", everyone)
        == f"ismcts:playout=random:seconds=0.5:iterations={CAP}"
    )
    # A plugin's kind whose default count is over the cap: the cap is written in.
    assert check_bot("budgeted", "blue", everyone) == f"budgeted:iterations={CAP}"
    assert check_bot("budgeted:iterations=10", "blue", everyone) == "budgeted:iterations=10"


def test_every_level_is_within_a_server_s_default_caps(everyone: Registry) -> None:
    # A level is kept by its name, the same bot as its choice, which the caps allow.
    for level in LEVELS:
        assert check_bot(level.name, "blue", everyone) == level.name
        assert check_bot(level.choice, "blue", everyone) == level.choice
    offered = installed(everyone)
    assert [level["name"] for level in offered["levels"]] == [level.name for level in LEVELS]
    assert offered["default_bot"] == "medium"


def test_a_server_with_lower_caps_offers_the_levels_within_them(everyone: Registry) -> None:
    searched = {
        level.name: int(parse_bot(level.choice).settings["iterations"])
        for level in LEVELS
        if "iterations" in parse_bot(level.choice).settings
    }
    strongest = max(searched, key=lambda name: searched[name])
    cap = searched[strongest] - 1
    lower = Limits(bot_iterations=cap)
    with pytest.raises(ConfigError) as refused:
        check_bot(strongest, "blue", everyone, limits=lower)
    assert str(refused.value).startswith(
        f"bots.blue: level {strongest} is {levels()[strongest].choice}: ismcts "
        f"iterations at most {cap} on this server"
    )
    offered = [level["name"] for level in installed(everyone, lower)["levels"]]
    assert offered == [level.name for level in LEVELS if searched.get(level.name, 0) <= cap]
    assert strongest not in offered


def test_a_server_sets_its_own_caps(everyone: Registry) -> None:
    higher = Limits(bot_iterations=10**7, bot_seconds=3600)
    for text in ("ismcts:iterations=10000000", "ismcts:seconds=3600:iterations=5"):
        assert check_bot(text, "blue", everyone, limits=higher) == text
    lower = Limits(bot_iterations=100)
    # The search's default count, 300, is over this cap.
    assert check_bot("ismcts", "blue", everyone, limits=lower) == "ismcts:iterations=100"
    with pytest.raises(ConfigError, match="at most 100 on this server, not 300"):
        check_bot("ismcts:iterations=300", "blue", everyone, limits=lower)
    with pytest.raises(ConfigError, match=r"bots\.blue: a bot kind is a text"):
        check_bot(7, "blue", everyone)
