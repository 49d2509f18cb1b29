"""Run the server with uvicorn: what ``bestiary serve`` does."""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import gc
import logging
import resource
import socket
from types import FrameType

import uvicorn
from starlette.types import ASGIApp

from bestiary.server.app import create_app
from bestiary.server.gate import Gate, gated_protocols
from bestiary.server.logcap import LogCap, cap_handlers
from bestiary.server.origins import is_ip
from bestiary.server.protocol import MAX_MESSAGE_BYTES
from bestiary.server.reach import friend_addresses, is_loopback
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings

log = logging.getLogger("bestiary.server")

# A WebSocket frame larger than this closes the socket before it is buffered (1009); up to it,
# a message over MAX_MESSAGE_BYTES is answered `too_large` and the socket goes on.
WS_MAX_SIZE = 8 * MAX_MESSAGE_BYTES
SHUTDOWN_SECONDS = 3


def uvicorn_config(
    app: ASGIApp, host: str, port: int, server: ServerSettings | None = None
) -> uvicorn.Config:
    """How uvicorn serves ``app``: the connection gate, timeouts and frame sizes of ``server``.

    ``bestiary serve`` and the tests' ``LiveServer`` both use this, so tests see what runs.
    """
    limits = server or ServerSettings()
    gate = Gate(
        limits.max_connections, limits.max_per_address, limits.trusted_proxies, limits.ipv6_prefix
    )
    http, ws = gated_protocols(gate, limits.header_timeout, direct=not limits.stock_transport)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=http,
        ws=ws,
        log_level="warning",
        access_log=False,
        # forwarded headers are believed only from the proxies the operator names
        proxy_headers=bool(limits.trusted_proxies),
        forwarded_allow_ips=list(limits.trusted_proxies) or None,
        timeout_keep_alive=int(max(1, limits.idle_timeout)),
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # views are small; compressing them costs more than it saves
        ws_ping_interval=limits.idle_timeout,
        ws_ping_timeout=limits.idle_timeout,
        # SIGTERM stops the server within seconds: sockets still open then are cut, not awaited
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )


def descriptors_for(max_connections: int) -> int:
    """Raise the open-file limit so ``max_connections`` fit (with room for the database)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max_connections + 64
    if soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        soft = new
    return max(1, soft - 64)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "sqlite:///bestiary.sqlite",
    settings: TableSettings | None = None,
    rate: float = 100.0,
    quiet: bool = False,
    server: ServerSettings | None = None,
) -> None:
    """Serve the lobby, the tables and the web client until interrupted.

    Raises PortTaken (one sentence) before anything else happens if the port is in use.
    """
    check_port(host, port)  # first: a busy port must not print "serving" or restore tables
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(message)s")
    limits = server or ServerSettings()
    if not is_ip(host):  # the name it listens on is its own
        limits = dataclasses.replace(limits, allowed_hosts=(*limits.allowed_hosts, host))
    room = descriptors_for(limits.max_connections)
    if room < limits.max_connections:
        log.warning("only %d descriptors: --max-connections lowered to that", room)
        limits = dataclasses.replace(limits, max_connections=room)
    app = create_app(db, settings, rate=rate, server=limits)
    app.state.bind = (host, port)  # /api/reach: the table page's hint for friends
    settle_heap()
    if not quiet:
        for line in addresses(host, port):
            print(line, flush=True)
        print(f"records in {db}", flush=True)
    config = uvicorn_config(app, host, port, limits)  # which sets up uvicorn's own loggers
    uvicorn_loggers = (logging.getLogger("uvicorn"), logging.getLogger("uvicorn.access"))
    cap_handlers(LogCap(), logging.getLogger(), *uvicorn_loggers)
    QuietServer(config).run()


class QuietServer(uvicorn.Server):
    """uvicorn's server, its main loop woken once a second (the ``date`` header's tick) or at
    once by a signal to stop, not ten times a second: an idle worker's loop woke for nothing."""

    _stop: asyncio.Future[None] | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = self._loop.create_future()
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 10) % 864000  # every tick is one of uvicorn's once-a-second ones
            await asyncio.wait([self._stop], timeout=1.0)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stop.cancel)  # what main_loop waits on is done


class PortTaken(OSError):
    """The address cannot be listened on; the message says what to do."""


def check_port(host: str, port: int) -> None:
    """Raise PortTaken if ``host:port`` cannot be bound right now (another server has it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise PortTaken(
                    f"port {port} on {host} is already in use (another bestiary server?); "
                    f"stop it or choose another port, e.g. make run PORT={port + 1}"
                ) from None
            raise PortTaken(f"cannot listen on {host}:{port} ({err.strerror})") from None


def addresses(host: str, port: int) -> list[str]:
    """What to open, and what to give friends: every address this server answers on."""
    lines = [f"bestiary is serving at http://localhost:{port}/ (open it in your browser)"]
    if host in ("0.0.0.0", "::"):
        shared = friend_addresses(host, port)
        for url in shared:
            lines.append(f"friends on your network open {url}")
        if not shared:
            lines.append(f"friends on your network open http://<this machine's address>:{port}/")
    elif not is_loopback(host):
        lines = [f"bestiary is serving at http://{host}:{port}/"]
    else:
        lines.append(
            f"only this machine can connect; for friends: make run HOST=0.0.0.0 PORT={port}"
        )
    return lines


# Young collections stay frequent and cheap; a full collection (which walks every live object
# and, with a few hundred tables, stalls every table) becomes rare. A larger young threshold
# saved little CPU for much longer middle collections, so it is left at its default.
COLLECT_THRESHOLDS = (1_000, 10, 1_000)


def settle_heap() -> None:
    """Keep garbage-collection pauses short in a long-running process.

    What start-up built (modules, the app, the rules tables) lives as long as the process, so it is
    frozen out of every later collection, and full collections are made rare: nearly all of a
    table's garbage is acyclic (freed at once by reference counting) or dies young (freed by the
    cheap young collections).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECT_THRESHOLDS)
