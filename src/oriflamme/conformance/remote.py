"""The runner's side of the engine protocol (docs/engine-protocol.md): any program,
started once for a whole run and driven over its stdin and stdout.

An engine is input like any other, and its bounds are kept here: a reply line of at
most :data:`~.protocol.MAX_LINE` bytes, within :data:`~.protocol.TIMEOUT` seconds,
holding JSON of the protocol's shape. An engine that breaks one (dies, hangs, prints
garbage) fails the scenario it was playing, with one line saying what it did; it is
stopped (its whole process group, on POSIX) and reaped, and started again for the
next scenario. Nothing an engine does makes the runner raise anything but an
:class:`~oriflamme.OriflammeError`.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from types import TracebackType
from typing import IO, Any, NoReturn, cast

from oriflamme import OriflammeError
from oriflamme.text import one_line
from oriflamme.yamlfile import show

from .engines import Engine, Setup
from .model import Step
from .protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    TIMEOUT,
    EngineRefused,
    Next,
    ProtocolError,
    Table,
    check_reply,
    decode,
    encode,
    load_state,
    read_line,
    read_next,
    read_options,
    read_table,
)

#: How long a stopped engine has to exit by itself (after ``quit``, or once it has
#: closed its output) before it is killed.
GRACE = 2.0

#: The characters of an engine's stderr quoted when it breaks: the end of its last line.
STDERR_QUOTE = 200

#: The bytes of an engine's stderr kept: its last lines, a stack trace's included.
STDERR_KEPT = 8192

#: A line that names an error, as runtimes write them: ``TypeError: ...``,
#: ``java.lang.IllegalStateException: ...``, ``thread 'main' panicked at ...``,
#: ``panic: ...``, ``error: ...``; a stack frame (``at f (x.js:3:9)``) does not.
_ERROR_LINE = re.compile(r"^(?!at )(\S*(Error|Exception)\b|.*\bpanicked\b|panic:|error\b)", re.I)

#: Scenarios in a row that may break the engine before the run stops: an engine that
#: cannot start, or hangs on every scenario, must not cost ten seconds a scenario.
MAX_BREAKS_IN_A_ROW = 3


class EngineError(OriflammeError):
    """An engine that cannot be used: a command that cannot be run, or a broken engine."""


class EngineBroken(EngineError):
    """The engine broke the protocol or its bounds, and was stopped."""


class _Overlong:
    """What the reading thread hands over for a line over the bound."""


_TOO_LONG = _Overlong()


class _Tail:
    """The end of a stream, read to its end by a thread: an engine's last words."""

    def __init__(self) -> None:
        self.data = b""

    def drain(self, stream: IO[bytes]) -> None:
        buffered = cast(io.BufferedReader, stream)  # what Popen makes of a pipe
        with contextlib.suppress(OSError, ValueError):
            for chunk in iter(lambda: buffered.read1(4096), b""):
                self.data = (self.data + chunk)[-STDERR_KEPT:]

    def last_words(self) -> str:
        """The last line that names an error, else the last line. A runtime may write
        more after the error: Node.js a stack trace and its version, Java its frames."""
        lines = [line.strip() for line in self.data.decode("utf-8", "replace").splitlines()]
        lines = [line for line in lines if line]
        named = [line for line in lines if _ERROR_LINE.search(line)]
        last = (named or lines or [""])[-1]
        return last if len(last) <= STDERR_QUOTE else "..." + last[-STDERR_QUOTE:]


def _read_lines(
    stream: IO[bytes], lines: queue.Queue[bytes | _Overlong | None], max_line: int
) -> None:
    """Hand each line of ``stream`` over; then None, at its end or after a line too long."""
    try:
        while True:
            line = read_line(stream, max_line)
            if line is None:
                lines.put(_TOO_LONG)
                break
            if not line:
                break
            lines.put(line)
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)


class RemoteEngine(Engine):
    """A program that speaks the engine protocol, run as ``command`` (split as a POSIX
    shell would, but never run through one)."""

    def __init__(
        self,
        command: str,
        *,
        timeout: float = TIMEOUT,
        max_line: int = MAX_LINE,
        hello_timeout: float = TIMEOUT,
    ) -> None:
        shown = one_line(command, 60)
        self.label = f'engine "{shown}"'
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise EngineError(f'--engine "{shown}": {exc}') from None
        if not self.argv:
            raise EngineError("--engine: the command is empty")
        self.timeout = timeout  # for each reply but the hello's
        self.hello_timeout = hello_timeout  # a program just started may be slow to reply
        self.max_line = max_line
        self.breaks = 0  # times it broke, and was stopped
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | _Overlong | None] = queue.Queue()
        self._tail = _Tail()
        self._threads: list[threading.Thread] = []
        self._ids = itertools.count(1)

    def __enter__(self) -> RemoteEngine:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # Starting and stopping.

    def start(self) -> None:
        """Start the program and shake hands: :class:`EngineBroken` if it cannot."""
        self.close()
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=os.name == "posix",  # its own group, to stop as one
            )
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the command
            self.breaks += 1
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise EngineBroken(f"{self.label}: cannot start it: {reason}") from None
        assert process.stdout is not None
        assert process.stderr is not None
        self._process = process
        self._ids = itertools.count(1)  # each program's requests are numbered from 1
        self._lines = queue.Queue()
        self._tail = _Tail()
        self._threads = [
            threading.Thread(
                target=_read_lines, args=(process.stdout, self._lines, self.max_line), daemon=True
            ),
            threading.Thread(target=self._tail.drain, args=(process.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        try:
            reply = self._request("hello", self.hello_timeout, protocol=PROTOCOL_VERSION)
        except EngineRefused as refused:
            self._broke(f"it refused the hello of protocol {PROTOCOL_VERSION}: {refused}")
        protocol = reply.get("protocol")
        if protocol != PROTOCOL_VERSION or type(protocol) is not int:  # not true: bool is an int
            self._broke(f"its hello names protocol {show(protocol)}, not {PROTOCOL_VERSION}")

    def close(self) -> None:
        """Say ``quit``, and stop and reap the program (killed if it lingers)."""
        process = self._process
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                process.stdin.write(encode({"id": next(self._ids), "op": "quit"}))
                process.stdin.flush()
        self._stop(GRACE)

    def _stop(self, grace: float) -> int | None:
        """Stop the program, after ``grace`` seconds for it to exit by itself; its status."""
        process = self._process
        if process is None:
            return None
        self._process = None
        if process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                process.stdin.close()  # an engine that reads to the end of its input exits
        deadline = time.monotonic() + grace
        while not _exited(process) and time.monotonic() < deadline:
            time.sleep(0.005)
        _kill(process)
        status = process.wait()
        for thread, stream in zip(self._threads, (process.stdout, process.stderr), strict=True):
            thread.join(timeout=GRACE)
            if not thread.is_alive() and stream is not None:  # closing under a reader blocks
                stream.close()
        return status

    def _broke(self, reason: str, *, died: str = "") -> NoReturn:
        """Stop the engine and fail with ``reason`` (``died``: the request it died on)."""
        status = self._stop(GRACE if died else 0)
        if died:
            reason = f"{_ended(status)} before replying to {died}"
        self.breaks += 1
        words = self._tail.last_words()
        said = f"; its stderr says: {words!r}" if words else ""
        raise EngineBroken(f"{self.label}: {reason}{said}")

    # The conversation.

    def _request(self, op: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        """Send one request, and read its reply: the reply's fields if it is ok,
        :class:`EngineRefused` if it is an error, :class:`EngineBroken` if there is none
        within ``timeout`` seconds (default: :attr:`timeout`)."""
        if self._process is None:
            self.start()
        process = self._process
        assert process is not None
        assert process.stdin is not None
        ident = next(self._ids)
        try:
            process.stdin.write(encode({"id": ident, "op": op, **fields}))
            process.stdin.flush()
        except (OSError, ValueError):  # BrokenPipeError: it is gone
            self._broke("", died=op)
        wait = self.timeout if timeout is None else timeout
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self._broke(f"no reply to {op} within {wait:g} s")
        if line is None:
            self._broke("", died=op)
        if isinstance(line, _Overlong):
            self._broke(f"its reply to {op} is longer than {self.max_line} bytes")
        try:
            reply = decode(line, strict=True)
        except ProtocolError as exc:
            self._broke(f"its reply to {op} is {exc}")
        try:
            check_reply(reply, ident)
        except ProtocolError as exc:
            self._broke(f"bad reply to {op}: {exc}")
        return reply

    def _ask(self, op: str) -> dict[str, Any]:
        try:
            return self._request(op)
        except EngineRefused as refused:
            raise ProtocolError(f"{self.label} replied to {op} with an error: {refused}") from None

    def load(self, setup: Setup) -> None:
        state = load_state(
            setup.position, setup.players, setup.config.first_player or setup.players[0]
        )
        self._request(
            "load",
            sets=list(setup.sets),
            players=list(setup.players),
            variants=dict(setup.variants),
            state=state,
        )

    def decision(self) -> Next:
        reply = self._ask("decision")
        try:
            return read_next(reply.get("next"))
        except ProtocolError as exc:
            raise ProtocolError(f"{self.label}: its reply to decision: {exc}") from None

    def answer(self, step: Step) -> None:
        self._request("answer", family=step.family, answer=dict(step.answer))

    def options(self) -> tuple[Mapping[str, Any], ...]:
        """The engine's ``options``: :class:`EngineRefused` with ``unsupported`` from an
        engine without the op, as any other error reply."""
        reply = self._request("options")
        try:
            return read_options(reply.get("options"))
        except ProtocolError as exc:
            raise ProtocolError(f"{self.label}: its reply to options: {exc}") from None

    def table(self) -> Table:
        reply = self._ask("state")
        try:
            return read_table(reply.get("state"))
        except ProtocolError as exc:
            raise ProtocolError(f"{self.label}: its reply to state: {exc}") from None


def _exited(process: subprocess.Popen[bytes]) -> bool:
    """Whether the program has exited, without reaping it: until it is reaped its id
    cannot be reused, so that killing its group can only reach its own processes."""
    if os.name != "posix" or not hasattr(os, "waitid"):  # macOS: Python 3.13 and later
        return process.poll() is not None
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)  # what it started too
        elif process.poll() is None:
            process.kill()


def _ended(status: int | None) -> str:
    if status is not None and status < 0:
        return f"it was killed by signal {-status}"
    return f"it exited with status {status}"


class BreaksInARow:
    """When a run against ``engine`` stops: called after each scenario, it is None
    until :data:`MAX_BREAKS_IN_A_ROW` scenarios in a row have broken the engine, and
    then says so."""

    def __init__(self, engine: RemoteEngine) -> None:
        self.engine = engine
        self.breaks = engine.breaks  # as the last scenario left it
        self.in_a_row = 0

    def __call__(self) -> str | None:
        broke = self.engine.breaks > self.breaks
        self.breaks = self.engine.breaks
        self.in_a_row = self.in_a_row + 1 if broke else 0
        if self.in_a_row < MAX_BREAKS_IN_A_ROW:
            return None
        return f"{self.engine.label} broke {self.in_a_row} scenarios in a row"
