"""Which requests the server answers: by the host they name and the site they come from.

- **Host.** A request must name the server by an IP address, ``localhost``, or one of
  ``--allowed-hosts``. A web page of another site cannot reach a server on this machine
  by making its own name point here (DNS rebinding): the request would name that site.
- **Origin.** A browser says which site a page came from (``Origin``) on every request
  that changes something and on every websocket. Such a request from a page of another
  site (another scheme, host or port) is refused: another site's page cannot create
  games, answer or watch for a player. A request with no ``Origin`` is not from a web
  page of another site (a browser always sends it there), so programs using the API
  need not send one.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from oriflamme.text import cut, quote

#: Methods that change nothing: a page of another site may read what the server would
#: show anyone (the lobby's lists); it gets no token with it.
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


class HostsAndOrigins:
    """An ASGI middleware refusing a request that names another host (400) or that
    comes from a page of another site (403)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.hosts = frozenset(name.lower().strip() for name in allowed_hosts if name.strip())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {name: value for name, value in scope["headers"] if name in _READ}
        host = headers.get(b"host", b"").decode("latin-1")
        problem: tuple[int, str] | None = None
        if not self.allowed(host):
            problem = (
                400,
                f"this server does not answer to the host {quote(host, 80)}: it answers to IP "
                "addresses, localhost and the names given to serve --allowed-hosts",
            )
        elif scope["type"] == "websocket" or scope.get("method") not in SAFE:
            origin = headers.get(b"origin")
            scheme = str(scope.get("scheme", "http"))
            if origin is not None and not same_site(origin.decode("latin-1"), host, scheme):
                ours = {"ws": "http", "wss": "https"}.get(scheme, scheme)
                problem = (
                    403,
                    f"requests from pages of another site ({cut(origin.decode('latin-1'), 80)}) "
                    f"are refused: this server is {ours}://{cut(host, 80)} (behind a proxy "
                    "serving https, give it to --trusted-proxies and have it send "
                    "X-Forwarded-Proto)",
                )
        if problem is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            # Closing before accepting answers the handshake with 403.
            await send({"type": "websocket.close", "code": 1008})
        else:
            await _refuse(send, *problem)

    def allowed(self, host: str) -> bool:
        name = _name(host)
        if not name:
            return False
        if "*" in self.hosts or name in self.hosts or name == "localhost":
            return True
        if name.endswith(".localhost") or any(
            pattern.startswith("*.") and name.endswith(pattern[1:]) for pattern in self.hosts
        ):
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True


_READ = frozenset({b"host", b"origin"})


def same_site(origin: str, host: str, scheme: str = "http") -> bool:
    """Whether the page ``origin`` (``scheme://host[:port]``) is the server's own, named
    ``host`` (the request's ``Host``) and reached by ``scheme`` (the request's: ``http``
    or ``https``, ``ws`` or ``wss``; behind a trusted proxy, the one it forwards): the
    scheme, the host and the port must all be the same."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False  # "null", a file, an extension's page
    # A websocket's scheme is its page's, written for sockets.
    ours = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    if parts.scheme != ours:
        return False
    default = 443 if ours == "https" else 80
    named = urlsplit(f"//{host}")
    try:
        host_port = named.port
    except ValueError:
        return False
    return (parts.hostname, port or default) == (named.hostname, host_port or default)


def _name(host: str) -> str:
    """The name in a ``Host`` header, without its port or a final dot (``localhost.``
    is ``localhost``), in lower case."""
    host = host.strip().lower()
    if host.startswith("["):  # an IPv6 address
        return host[1 : host.find("]")] if "]" in host else ""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return name[:-1] if name.endswith(".") else name


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
