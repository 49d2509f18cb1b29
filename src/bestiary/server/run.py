"""Run the server with uvicorn: what ``bestiary serve`` does."""

from __future__ import annotations

import errno
import gc
import logging
import socket

import uvicorn

from bestiary.server.app import create_app
from bestiary.server.table import TableSettings


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "sqlite:///bestiary.sqlite",
    settings: TableSettings | None = None,
    rate: float = 100.0,
    quiet: bool = False,
) -> None:
    """Serve the lobby, the tables and the web client until interrupted.

    Raises PortTaken (one sentence) before anything else happens if the port is in use.
    """
    check_port(host, port)  # first: a busy port must not print "serving" or restore tables
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(message)s")
    app = create_app(db, settings, rate=rate)
    settle_heap()
    if not quiet:
        for line in addresses(host, port):
            print(line, flush=True)
        print(f"records in {db}", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,  # views are small; compressing them costs more than it saves
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )


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
        try:
            names = socket.gethostbyname_ex(socket.gethostname())[2]
        except OSError:
            names = []
        shared = [ip for ip in names if not ip.startswith("127.")]
        for ip in shared:
            lines.append(f"friends on your network open http://{ip}:{port}/")
        if not shared:
            lines.append(f"friends on your network open http://<this machine's address>:{port}/")
    elif host not in ("127.0.0.1", "localhost", "::1"):
        lines = [f"bestiary is serving at http://{host}:{port}/"]
    else:
        lines.append(
            f"only this machine can connect; for friends: make run HOST=0.0.0.0 PORT={port}"
        )
    return lines


# Young collections stay frequent and cheap; a full collection (which walks every live object:
# with a few hundred tables, hundreds of milliseconds that stall every table) becomes rare.
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
