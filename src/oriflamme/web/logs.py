"""Logs that cannot fill a disk: at most so many records of one kind a minute.

A flood of one error (a client retrying a bad request in a loop, a server out of file
descriptors failing each ``accept``) would otherwise write the same lines as fast as
it can. :class:`LogLimit` lets the first ``per_minute`` records of each kind through in
each minute and counts the rest; when that minute is over it logs one line saying how
many were left out. A kind is the logger's name, the message's template (its first
line: asyncio writes each error's details after it) and the level.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

#: The attribute that marks a record as a count of left-out ones: it is always let through.
SUPPRESSED = "oriflamme_suppressed"
#: Kinds followed at once; more than that (never seen: templates come from the code)
#: are counted together, one kind per logger and level.
MAX_KINDS = 1024
#: How much of a template a count quotes.
QUOTE = 100

Kind = tuple[str, str, int]


class _Window:
    """One kind's minute: when it ends, records let through, records left out."""

    __slots__ = ("end", "passed", "suppressed")

    def __init__(self, end: float) -> None:
        self.end = end
        self.passed = 0
        self.suppressed = 0


class LogLimit(logging.Filter):
    """A filter for loggers: at most ``per_minute`` records of each kind per minute
    (``seconds``); the counts of the rest are logged on ``report`` at WARNING.

    Safe to share between loggers and threads. Call :meth:`flush` on stopping, to log
    the counts of minutes not yet over."""

    def __init__(
        self,
        per_minute: int,
        report: logging.Logger,
        *,
        seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.per_minute = per_minute
        self.report = report
        self.seconds = seconds
        self._clock = clock
        self._windows: dict[Kind, _Window] = {}
        self._lock = threading.Lock()
        # One timer at most, for the earliest minute with records left out: nothing
        # runs while nothing is left out.
        self._timer: threading.Timer | None = None
        self._timer_due = 0.0

    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, SUPPRESSED):
            return True
        now = self._clock()
        over: list[tuple[Kind, int]] = []
        with self._lock:
            kind = self._kind(record, now, over)
            window = self._windows.get(kind)
            if window is None or now >= window.end:
                if window is not None and window.suppressed:
                    over.append((kind, window.suppressed))
                window = self._windows[kind] = _Window(now + self.seconds)
            let_through = window.passed < self.per_minute
            if let_through:
                window.passed += 1
            else:
                window.suppressed += 1
                if window.suppressed == 1:
                    self._schedule(window.end, now)
        self._log_counts(over)
        return let_through

    def flush(self) -> None:
        """Logs the counts of every minute not yet over, and stops the timer."""
        with self._lock:
            over = [(kind, w.suppressed) for kind, w in self._windows.items() if w.suppressed]
            self._windows.clear()
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        self._log_counts(over)

    def _kind(self, record: logging.LogRecord, now: float, over: list[tuple[Kind, int]]) -> Kind:
        template = record.msg if isinstance(record.msg, str) else type(record.msg).__name__
        kind = (record.name, template.partition("\n")[0][:QUOTE], record.levelno)
        if kind in self._windows or len(self._windows) < MAX_KINDS:
            return kind
        for known, window in list(self._windows.items()):  # forget minutes that are over
            if now >= window.end:
                if window.suppressed:
                    over.append((known, window.suppressed))
                del self._windows[known]
        if len(self._windows) < MAX_KINDS:
            return kind
        return (record.name, "...", record.levelno)

    def _schedule(self, due: float, now: float) -> None:
        """Has the counts logged at ``due``, unless the timer is due earlier already."""
        if self._timer is not None and self._timer_due <= due:
            return
        if self._timer is not None:
            self._timer.cancel()
        # Never less than a moment: a timer a hair early is set again, not in a loop.
        self._timer = threading.Timer(max(0.01, due - now), self._on_time)
        self._timer.daemon = True  # a stopping server does not wait for it
        self._timer_due = due
        self._timer.start()

    def _on_time(self) -> None:
        with self._lock:
            now = self._clock()
            over = []
            for kind, window in list(self._windows.items()):
                if now >= window.end:
                    if window.suppressed:
                        over.append((kind, window.suppressed))
                    del self._windows[kind]
            self._timer = None
            pending = [w.end for w in self._windows.values() if w.suppressed]
            if pending:
                self._schedule(min(pending), now)
        self._log_counts(over)

    def _log_counts(self, over: list[tuple[Kind, int]]) -> None:
        for (name, template, level), count in over:
            self.report.warning(
                "%d more %s lines of %s like %r were suppressed (at most %d a minute)",
                count,
                logging.getLevelName(level),
                name,
                template,
                self.per_minute,
                extra={SUPPRESSED: count},
            )
