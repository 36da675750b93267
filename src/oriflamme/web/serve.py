"""``oriflamme serve``: the web server on uvicorn (the optional extra ``oriflamme[web]``).

This module imports nothing of the extra until the command runs, so the command line
works, and says what to install, without it.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import socket
import sys
from pathlib import Path
from typing import Any

from ..core.errors import OriflammeError

#: A client's messages are not read (answers go through POST): any large one is refused.
WS_MAX_SIZE = 4096
_TOKEN = re.compile(r"(token=)[^&\s]*")


def default_db() -> Path:
    """``$XDG_DATA_HOME/oriflamme/games.sqlite3``, or under ``~/.local/share``."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "oriflamme" / "games.sqlite3"


def add_serve(commands: Any) -> None:
    """The ``serve`` command's options, on the command line's sub-commands."""
    serve = commands.add_parser("serve", help="play in a browser: the lobby, games, the JSON API")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    serve.add_argument(
        "--port", type=_port, default=8000, help="port, 0 to 65535 (default 8000; 0: any free)"
    )
    serve.add_argument(
        "--db",
        type=Path,
        default=None,
        help=f"the SQLite file games are kept in (default {default_db()})",
    )


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a port number (0 to 65535)")
    return int(text)


class _HideTokens(logging.Filter):
    """Access log lines show each request's path with any seat token blanked out."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN.sub(r"\1...", arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


def serve_command(args: argparse.Namespace) -> int:
    """Serve until interrupted; the address is printed once the server listens."""
    try:
        import uvicorn  # noqa: PLC0415 - the optional extra, needed by this command only

        from .app import create_app  # noqa: PLC0415 - it imports the extra
    except ImportError as exc:
        raise OriflammeError(
            f"oriflamme serve needs the web extra ({exc.name} is missing): "
            "pip install 'oriflamme[web]'"
        ) from exc
    db = args.db if args.db is not None else default_db()
    app = create_app(db)
    try:
        listening = socket.create_server((args.host, args.port))
    except OSError as exc:
        raise OriflammeError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from exc
    host, port = listening.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"oriflamme: playing at http://{shown}:{port}/ (games kept in {db}); Ctrl+C stops")
    sys.stdout.flush()
    # Requests (stdout) and websockets opened (stderr) are logged with their paths.
    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(_HideTokens())
    config = uvicorn.Config(
        app, ws_max_size=WS_MAX_SIZE, timeout_graceful_shutdown=2, log_level="info"
    )
    uvicorn.Server(config).run(sockets=[listening])
    return 0
