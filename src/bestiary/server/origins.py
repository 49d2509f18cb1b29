"""Only the server's own pages may act: the ``Host`` of every request and the ``Origin`` of
every table socket and state-changing request are checked (ASGI middleware, in front of FastAPI).

A page on another site can reach a server bound to 127.0.0.1 through the browser of whoever
runs it: directly (its socket then carries that site's ``Origin``) or by DNS rebinding (its
requests then carry that site's name as ``Host``). So:

- **Host** must be an IP address (a browser sends one only when the page was opened by that
  address), ``localhost`` (or a name under ``.localhost``), the name the server listens on, or
  a name the operator allows (``--allowed-host``: the public name behind a reverse proxy).
  Otherwise 421, and a table socket is refused before it is accepted.
- **Origin**, when a browser sends one (programs need not), must name the same host as the
  request's ``Host``, or an allowed name. Otherwise 403 for a request that changes anything
  (every method but GET, HEAD and OPTIONS) and a refused table socket.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from bestiary.server.bodycap import answer

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _hostname(host: str) -> str:
    """``host`` (a Host header: ``name``, ``name:port``, ``[v6]:port``) without its port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


@lru_cache(maxsize=1024)  # every request's Host, mostly the same few: parsed once each
def is_ip(name: str) -> bool:
    """Whether ``name`` is an IP address (not a name)."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class OwnPages:
    """The names this server answers to, and whether a request's Host and Origin are its own."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = frozenset(_hostname(name) for name in allowed if name)

    def host_ok(self, host: str | None) -> bool:
        if host is None:
            return True  # HTTP/1.0 and some programs send none; a browser always does
        name = _hostname(host)
        return (
            is_ip(name)
            or name == "localhost"
            or name.endswith(".localhost")
            or name in self.allowed
        )

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        if origin is None:
            return True  # not a browser's page
        try:
            name = urlsplit(origin).hostname
        except ValueError:
            return False
        if not name:
            return False  # "null": a sandboxed page or a file
        name = _hostname(name)
        return name in self.allowed or (host is not None and name == _hostname(host))


class HostCheck:
    """Refuse a request with a foreign ``Host``, and a table socket or state-changing request
    with a foreign ``Origin``, before the app sees it."""

    def __init__(self, app: ASGIApp, pages: OwnPages) -> None:
        self.app = app
        self.pages = pages

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = origin = None
        for name, value in scope["headers"]:
            if name == b"host":
                host = value.decode("latin-1")
            elif name == b"origin":
                origin = value.decode("latin-1")
        if not self.pages.host_ok(host):
            why = f"this server does not answer to the name {_hostname(host or '')!r}."
            await self._refuse(kind, send, 421, why)
            return
        checked = kind == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        if checked and not self.pages.origin_ok(origin, host):
            await self._refuse(kind, send, 403, f"pages from {origin} may not use this server.")
            return
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(kind: str, send: Send, status: int, why: str) -> None:
        if kind == "websocket":
            # Refused before it is accepted: the client sees an HTTP 403 and no socket.
            await send({"type": "websocket.close", "code": 1008, "reason": why[:120]})
        else:
            await answer(send, status, {"detail": why})
