"""How often one client may do a thing: a token bucket per client, refused with 429.

Each client (an address creating games, a seat answering) has a bucket of
``rate.count`` requests, refilled evenly over ``rate.seconds``. A request finding it
empty is refused with 429 and ``Retry-After``: the seconds until it would be served.
The buckets are kept in the games store (:meth:`.store.Store.take`), so every server
process sharing it counts one limit, and a restart forgets nothing; the store forgets
the buckets that are full again.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

from .limits import Rate
from .tables import Refused

#: Takes one request from the bucket named by its first argument, of COUNT refilled
#: over SECONDS: 0.0 if taken, else the seconds until one would be.
Take = Callable[[str, int, float], Awaitable[float]]


class RateLimit:
    """The buckets of one kind of request: ``kind`` names them in the store, ``what``
    in a refusal."""

    def __init__(self, rate: Rate, kind: str, what: str, take: Take) -> None:
        self.rate = rate
        self.kind = kind
        self.what = what
        self._take = take

    async def take(self, client: str) -> None:
        """One request of ``client``; refused (429) if it has none left."""
        count = self.rate.count
        if count == 0:
            return
        wait = await self._take(f"{self.kind}:{client}", count, self.rate.seconds)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise Refused(
                429,
                f"too many {self.what}: at most {count} in {self.rate.seconds:g} seconds; "
                f"try again in {seconds} s",
                retry_after=seconds,
            )
