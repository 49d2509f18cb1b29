"""Run the server with uvicorn: what ``bestiary serve`` does."""

from __future__ import annotations

import gc
import logging

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
    """Serve the lobby, the tables and the web client until interrupted."""
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(message)s")
    app = create_app(db, settings, rate=rate)
    settle_heap()
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    if not quiet:
        print(f"bestiary is serving at http://{shown}:{port}/  (records in {db})", flush=True)
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
