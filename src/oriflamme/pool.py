"""Games shared out by seed: played in this process, or over a pool of forked processes
(``oriflamme simulate`` and ``oriflamme study``).

The games from seed ``first`` on are cut into shares of consecutive seeds; each share is
played by one call of a play function and its result handed back to the caller as it
comes in, in whatever order the shares finish. Results that are sums over games are
then the same whatever the number of processes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.pool
import queue
import signal
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

Result = TypeVar("Result")

# What a forked worker plays a share with: set in the parent before the pool forks, so
# that the function (a closure, say) is inherited, never pickled.
_PLAY: Callable[[range], Any] | None = None


def shares(first: int, games: int, size: int) -> Iterator[range]:
    """The seeds of ``games`` games from ``first`` on, ``size`` at a time (the last
    share may be smaller)."""
    for start in range(first, first + games, size):
        yield range(start, min(start + size, first + games))


def _play_share(seeds: range) -> tuple[int, Any]:
    assert _PLAY is not None
    return len(seeds), _PLAY(seeds)


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the pool,
    # and a worker that also raised KeyboardInterrupt would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def share_out(
    play: Callable[[range], Result],
    merge: Callable[[Result], None],
    first: int,
    games: int,
    *,
    size: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Play ``games`` games from seed ``first`` on: ``play(seeds)`` plays a share of at
    most ``size`` seeds, and ``merge`` receives its result, in this process.

    ``jobs`` forked processes share the shares out (no more than there are shares);
    with one job, a single share, or no ``fork`` on this platform, they are played in
    this process, in order. ``progress`` is called with the number of games done after
    each share. Ctrl-C stops every process quietly: the workers ignore it, the parent
    raises KeyboardInterrupt and the pool is ended.
    """
    global _PLAY  # noqa: PLW0603 - handed to the forked workers
    done = 0
    if jobs <= 1 or games <= size or "fork" not in multiprocessing.get_all_start_methods():
        for seeds in shares(first, games, size):
            merge(play(seeds))
            done += len(seeds)
            if progress is not None:
                progress(done)
        return
    _PLAY = play
    try:
        # No more processes than shares of games: the others would only idle.
        processes = min(jobs, -(-games // size))
        context = multiprocessing.get_context("fork")
        with context.Pool(processes, initializer=_ignore_interrupts) as pool:
            # At most two shares per process are handed out at a time. Fed all of them
            # at once (imap_unordered), the pool's feeding thread was still writing
            # shares when a failed game ended the pool, and the pool was seen to hang
            # for ever joining it; this way it has nothing left to write by then.
            finished: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
            waiting = shares(first, games, size)
            out = 0
            for seeds in itertools.islice(waiting, 2 * processes):
                _hand_out(pool, seeds, finished)
                out += 1
            while out:
                played, part = finished.get()
                out -= 1
                if not played:
                    raise part
                count, result = part
                for seeds in itertools.islice(waiting, 1):
                    _hand_out(pool, seeds, finished)
                    out += 1
                merge(result)
                done += count
                if progress is not None:
                    progress(done)
    finally:
        _PLAY = None


def _hand_out(pool: Any, seeds: range, finished: queue.SimpleQueue[tuple[bool, Any]]) -> None:
    pool.apply_async(
        _play_share,
        (seeds,),
        callback=lambda part: finished.put((True, part)),
        error_callback=lambda error: finished.put((False, error)),
    )
