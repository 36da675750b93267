"""Shared settings for the damaged-input fuzz tests (``pytest -m fuzz``).

Every fuzz test is seeded (hypothesis's ``derandomize``: the same inputs on every
run) and bounded: ``ORIFLAMME_FUZZ_EXAMPLES`` inputs per test, a small number in
``make test``, thousands in ``make fuzz``. No example database is written: a run
never depends on an earlier one. A hang is a failure: :func:`no_hang` interrupts
code that runs longer than its bound.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from hypothesis import HealthCheck, settings

#: Inputs tried per fuzz test: bounded in ``make test``, raised by ``make fuzz``.
EXAMPLES = int(os.environ.get("ORIFLAMME_FUZZ_EXAMPLES", "60"))

#: Seconds one input may take before it counts as a hang.
HANG_SECONDS = 10

FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


class Hang(BaseException):
    """Raised inside code that ran past :data:`HANG_SECONDS`.

    A BaseException, as KeyboardInterrupt is: the engine takes back an answer that
    raised an Exception and reports it as the plugin's fault, which a hang is not.
    """


@contextmanager
def no_hang(seconds: float = HANG_SECONDS) -> Iterator[None]:
    """Fail with :class:`Hang` if the body runs longer than ``seconds``."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
