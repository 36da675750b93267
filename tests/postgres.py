"""A throwaway PostgreSQL cluster for the tests and benchmarks of the PostgreSQL store.

:class:`Cluster` makes one from the distribution's binaries (Debian's ``postgresql``
package: ``/usr/lib/postgresql/<version>/bin``, the newest version present), in a fresh
temporary folder: ``initdb`` with trust authentication, on 127.0.0.1 only, on a free
port, its Unix socket inside that folder; ``pg_ctl stop -m immediate`` and the folder
deleted at the end. Nothing outside the folder is read or changed, so it runs beside the
package's own cluster, or without it.

PostgreSQL refuses to run as root. As root (CI, containers) its commands run as the
``postgres`` system user the package creates, through ``runuser``, and the folder is
handed to that user.

:func:`available` says why a cluster cannot be made here (``None`` when it can), so a
test can skip with that reason (or fail, where CI requires PostgreSQL).
``ORIFLAMME_POSTGRES_BIN`` names the folder of the binaries instead of the search.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import re
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

#: Where Debian's packages install each major version's binaries.
SEARCH = "/usr/lib/postgresql/*/bin"
#: A folder holding initdb and pg_ctl, used instead of :data:`SEARCH` when set.
BIN_VARIABLE = "ORIFLAMME_POSTGRES_BIN"
#: The system user PostgreSQL runs as when this process is root.
SYSTEM_USER = "postgres"
#: The superuser role of every cluster (the name in every URL).
ROLE = "postgres"
HOST = "127.0.0.1"
#: Seconds a cluster may take to accept connections before :class:`ClusterError`.
START_TIMEOUT = 30.0
#: Lines of the server's log quoted in an error.
LOG_TAIL = 20
#: A database name :meth:`Cluster.database` accepts: one that needs no quoting.
NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class ClusterError(RuntimeError):
    """The cluster could not be made, started or used; the message says why."""


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: the newest version's, or ``None``."""
    chosen = os.environ.get(BIN_VARIABLE)
    if chosen is not None:
        folders = [Path(chosen)]
    else:
        # "9.6" < "15": compare versions as numbers, not as text.
        def version(folder: Path) -> tuple[int, ...]:
            return tuple(int(part) for part in re.findall(r"\d+", folder.parent.name))

        folders = sorted(Path("/").glob(SEARCH.lstrip("/")), key=version, reverse=True)
    for folder in folders:
        if all(os.access(folder / name, os.X_OK) for name in ("initdb", "pg_ctl")):
            return folder
    return None


def available() -> str | None:
    """``None`` when a cluster can be made here, else the reason it cannot."""
    if binaries() is None:
        where = os.environ.get(BIN_VARIABLE) or SEARCH
        return f"PostgreSQL is not installed (no {where}/initdb): apt-get install postgresql"
    if importlib.util.find_spec("psycopg") is None:
        return "psycopg is not installed: pip install -e '.[postgres]'"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            return (
                f"running as root, and PostgreSQL refuses root, but there is no "
                f"{SYSTEM_USER!r} user to run it as: apt-get install postgresql"
            )
        if shutil.which("runuser") is None:
            return "running as root, and PostgreSQL refuses root, but runuser is not installed"
    return None


def free_port() -> int:
    """A TCP port on :data:`HOST` that nothing listens on (at the time of asking)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def _reachable(folder: Path) -> bool:
    """Whether a user other than root can traverse every folder down to ``folder``."""
    return all(os.stat(part).st_mode & stat.S_IXOTH for part in (folder, *folder.parents))


class Cluster:
    """A PostgreSQL cluster of its own, running between ``__enter__`` and ``__exit__``.

    ``settings`` are server settings (``{"max_connections": "200"}``), set after this
    module's own, so they win. Each test module takes a database of its own with :meth:`database`.
    """

    def __init__(
        self, *, settings: Mapping[str, str] | None = None, timeout: float = START_TIMEOUT
    ) -> None:
        found = binaries()
        if found is None:
            raise ClusterError(available() or "PostgreSQL is not installed")
        self.bin = found
        self.settings = dict(settings or {})
        self.timeout = timeout
        self.host = HOST
        self.user = ROLE
        self.port = 0
        self.folder: Path | None = None
        self._names: set[str] = set()
        self._root = os.geteuid() == 0

    @property
    def data(self) -> Path:
        return self._folder() / "data"

    @property
    def sockets(self) -> Path:
        return self._folder() / "sockets"

    @property
    def log(self) -> Path:
        return self._folder() / "server.log"

    def _folder(self) -> Path:
        if self.folder is None:
            raise ClusterError("the cluster is not started (use it in a `with` block)")
        return self.folder

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this cluster, as ``oriflamme serve --db`` takes."""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"

    def database(self, name: str) -> str:
        """Create the empty database ``name`` and return its URL.

        ``name`` is lower case letters, digits and underscores, and new on this cluster.
        """
        import psycopg  # noqa: PLC0415 - an optional extra: available() says when absent
        from psycopg import sql  # noqa: PLC0415

        if not NAME.fullmatch(name) or name in {"postgres", "template0", "template1"}:
            raise ValueError(
                f"database name {name!r}: expected lower case letters, digits and "
                f"underscores (not starting with a digit, at most 63), and not a "
                f"database of PostgreSQL's own"
            )
        if name in self._names:
            raise ValueError(f"database {name!r} was already created on this cluster")
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        self._names.add(name)
        return self.url(name)

    def start(self) -> None:
        """Make the cluster in a new folder and start it; wait until it takes connections."""
        if self.folder is not None:
            raise ClusterError("the cluster is already started")
        self.folder = self._make_folder()
        try:
            self._command(
                "initdb",
                "--pgdata", str(self.data),
                "--username", self.user,
                "--auth", "trust",
                "--encoding", "UTF8",
                "--locale", "C",
                # Durability of the files initdb writes matters nothing for a cluster
                # thrown away; the server's own fsync stays on.
                "--no-sync",
            )  # fmt: skip
            self.sockets.mkdir()
            if self._root:
                account = pwd.getpwnam(SYSTEM_USER)
                os.chown(self.sockets, account.pw_uid, account.pw_gid)
            # Only the loopback address, by TCP or the folder's own socket: trust
            # authentication then admits only users of this machine.
            self._rewrite(
                self.data / "pg_hba.conf",
                "local all all trust\nhost all all 127.0.0.1/32 trust\n",
            )
            # A free port may be taken between asking and binding: try a few.
            for attempt in range(3):
                self.port = free_port()
                if self._try_start() or attempt == 2:
                    break
            self._wait()
        except BaseException:
            self.stop()
            raise

    def restart(self) -> None:
        """Stop the server (as an administrator restarting it would: every connection
        is cut) and start it again on the same port, with the same databases."""
        self._command(
            "pg_ctl", "restart",
            "--pgdata", str(self.data),
            "--log", str(self.log),
            "--mode", "fast",
            "--wait", "--timeout", str(max(1, round(self.timeout))),
        )  # fmt: skip
        self._wait()

    def stop(self) -> None:
        """Stop the server at once (no checkpoint: nothing is kept) and delete the folder."""
        folder = self.folder
        if folder is None:
            return
        try:
            pidfile = self.data / "postmaster.pid"
            if pidfile.exists():
                try:
                    self._command(
                        "pg_ctl", "stop", "--pgdata", str(self.data), "-m", "immediate", "-w"
                    )
                except ClusterError:
                    # pg_ctl could not stop it: SIGQUIT is the postmaster's own immediate
                    # shutdown, so no server outlives its folder.
                    with contextlib.suppress(OSError, ValueError, IndexError):
                        os.kill(int(pidfile.read_text().split()[0]), signal.SIGQUIT)
        finally:
            self.folder = None
            self._names.clear()
            shutil.rmtree(folder, ignore_errors=True)

    def _make_folder(self) -> Path:
        if not self._root:
            return Path(tempfile.mkdtemp(prefix="oriflamme-postgres-"))
        # The postgres user must reach the folder: a temporary folder whose parents it
        # can traverse (the default's, else /tmp, else /var/tmp), handed over to it.
        bases = [Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp")]
        for base in bases:
            if base.is_dir() and _reachable(base):
                folder = Path(tempfile.mkdtemp(prefix="oriflamme-postgres-", dir=base))
                account = pwd.getpwnam(SYSTEM_USER)
                os.chown(folder, account.pw_uid, account.pw_gid)
                return folder
        raise ClusterError(
            f"no temporary folder the {SYSTEM_USER!r} user can reach among "
            f"{', '.join(map(str, bases))}: set TMPDIR to a folder every user can traverse"
        )

    def _settings(self) -> str:
        own = {
            "listen_addresses": f"'{self.host}'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.sockets}'",
            "synchronous_commit": "on",
            "fsync": "on",
        }
        lines = [f"{key} = {value}" for key, value in {**own, **self.settings}.items()]
        return "\n# Set by tests/postgres.py\n" + "\n".join(lines) + "\n"

    def _try_start(self) -> bool:
        """Start on :attr:`port`; ``False`` when that port was taken meanwhile."""
        # postgresql.auto.conf is read after postgresql.conf, and is PostgreSQL's to
        # rewrite: each attempt writes it whole, with that attempt's port.
        self._rewrite(self.data / "postgresql.auto.conf", self._settings())
        try:
            self._command(
                "pg_ctl", "start",
                "--pgdata", str(self.data),
                "--log", str(self.log),
                "--wait", "--timeout", str(max(1, round(self.timeout))),
            )  # fmt: skip
        except ClusterError:
            taken = "could not bind" in self._log_text()
            if not taken:
                raise
            return False
        return True

    def _wait(self) -> None:
        """Return once a connection by TCP succeeds; raise after :attr:`timeout` seconds."""
        import psycopg  # noqa: PLC0415 - an optional extra: available() says when absent

        deadline = time.monotonic() + self.timeout
        while True:
            try:
                with psycopg.connect(self.url(), connect_timeout=2) as connection:
                    connection.execute("SELECT 1")
                return
            except psycopg.OperationalError as error:
                if time.monotonic() > deadline:
                    raise ClusterError(
                        f"PostgreSQL on {self.host}:{self.port} did not accept connections "
                        f"within {self.timeout:g} s ({error}).{self._log_quote()}"
                    ) from None
                time.sleep(0.1)

    def _command(self, program: str, *arguments: str) -> str:
        return self._run_as_owner([str(self.bin / program), *arguments])

    def _run_as_owner(self, command: list[str]) -> str:
        """Run ``command`` as the cluster's owner; raise :class:`ClusterError` if it fails."""
        if self._root:
            command = ["runuser", "-u", SYSTEM_USER, "--", *command]
        try:
            done = subprocess.run(
                command,
                # The postgres user may not be able to read this process's folder.
                cwd=self._folder(),
                capture_output=True,
                text=True,
                timeout=self.timeout + 30,
                check=False,
                env={**os.environ, "LC_ALL": "C"},
            )
        except subprocess.TimeoutExpired:
            raise ClusterError(
                f"{Path(command[0]).name} took more than {self.timeout + 30:g} s: "
                f"{' '.join(command)}{self._log_quote()}"
            ) from None
        if done.returncode != 0:
            output = (done.stderr or done.stdout).strip()
            raise ClusterError(
                f"{' '.join(command)} failed (exit status {done.returncode}): "
                f"{output}{self._log_quote()}"
            )
        return done.stdout

    def _rewrite(self, path: Path, text: str) -> None:
        """Write ``path``, an existing file, keeping its owner and mode (as root too)."""
        with path.open("w", encoding="utf-8") as file:
            file.write(text)

    def _log_text(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except (OSError, ClusterError):
            return ""

    def _log_quote(self) -> str:
        lines = self._log_text().splitlines()[-LOG_TAIL:]
        if not lines:
            return ""
        return "\nThe end of the server's log:\n" + "\n".join(f"  {line}" for line in lines)
