"""How often one client may do a thing: a token bucket per client, refused with 429.

Each client (an address creating games, a seat answering) has a bucket of
``rate.count`` requests, refilled evenly over ``rate.seconds``. A request finding it
empty is refused with 429 and ``Retry-After``: the seconds until it would be served.
Buckets full again are forgotten, so the memory kept is bounded by the clients of the
last ``rate.seconds``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from .limits import Rate
from .tables import Refused

#: Buckets kept before full ones are swept out.
_SWEEP = 4096


class RateLimit:
    """The buckets of one kind of request (``what``, as a refusal names it)."""

    def __init__(self, rate: Rate, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.what = what
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client: (tokens, as of when)

    def take(self, client: str) -> None:
        """One request of ``client``; refused (429) if it has none left."""
        count = self.rate.count
        if count == 0:
            return
        now = self._clock()
        per_second = count / self.rate.seconds
        tokens, then = self._buckets.get(client, (float(count), now))
        tokens = min(float(count), tokens + (now - then) * per_second)
        if tokens < 1:
            wait = math.ceil((1 - tokens) / per_second)
            raise Refused(
                429,
                f"too many {self.what}: at most {count} in {self.rate.seconds:g} seconds; "
                f"try again in {wait} s",
                retry_after=wait,
            )
        self._buckets[client] = (tokens - 1, now)
        if len(self._buckets) > _SWEEP:
            self._sweep(now, per_second)

    def _sweep(self, now: float, per_second: float) -> None:
        full = float(self.rate.count)
        self._buckets = {
            client: (tokens, then)
            for client, (tokens, then) in self._buckets.items()
            if tokens + (now - then) * per_second < full
        }
