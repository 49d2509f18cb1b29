"""What the operator decides for the whole server: its limits, timeouts, decks and proxies.

Every field is a ``bestiary serve`` flag of the same name (docs/operating.md, docs/reliability.md).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ServerSettings:
    """The server's limits (counts, seconds, bytes) and the operator's choices."""

    max_connections: int = 1000  # open TCP connections in all
    max_per_address: int = 50  # open connections (and table sockets) from one client address
    hello_timeout: float = 10.0  # a table socket must say hello within this
    header_timeout: float = 10.0  # a request's headers and body must arrive within this
    idle_timeout: float = 30.0  # a kept-alive HTTP connection, or a socket answering no ping
    max_body_bytes: int = 4096  # an HTTP request body
    tables_per_minute: float = 10.0  # new tables one client address may open
    open_table_seconds: float = 3600.0  # an open table nobody joins or starts expires
    finished_table_seconds: float = 300.0  # a finished game stays in memory for its sockets
    max_spectators: int = 200  # watchers of one table
    allow_seeds: bool = False  # `POST /start` may choose the deal (testing servers only)
    # table sockets' frames read and written by uvicorn and websockets alone (gate.py)
    stock_transport: bool = False
    api_docs: bool = False  # serve /docs, the API's reference page (it loads a CDN's script)
    trusted_proxies: tuple[str, ...] = ()  # peers whose X-Forwarded-For is believed
    allowed_hosts: tuple[str, ...] = ()  # names it answers to besides IPs and localhost
    joins_per_minute: float = 20.0  # seats one client address may take a minute
    seats_per_address: int = 8  # seats one client address holds at once (open or in play)
    ipv6_prefix: int = 64  # IPv6 clients are counted by their network of this prefix
    decks: Path | None = None  # the operator's folder of critters deck files
    # the store keeps the newest this many finished games, none older than this (retention.py)
    keep_finished: int = 10_000
    keep_days: float = 365.0
    sweep_seconds: float = 60.0  # between two sweeps of the store (tests only: no flag)
    wal_limit_mib: float = 64.0  # SQLite's write-ahead log is cut back past this (store.py)
    # several processes on one PostgreSQL database (docs/operating.md, "More than one process")
    worker: int | None = None  # this process is worker `worker` of `workers` (None: the only one)
    workers: int = 1
    lease_seconds: float = 2.5  # a worker that has not renewed its lease this long is gone
    address: str = ""  # host:port where the proxy reaches this worker (shown to the others)

    def __post_init__(self) -> None:
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy)
            except ValueError:
                raise ValueError(
                    f"trusted-proxy {proxy!r} is not an IP address or network"
                ) from None
        if not 1 <= self.ipv6_prefix <= 128:
            raise ValueError("ipv6-prefix must be from 1 to 128")
        for name in (
            "max_connections",
            "max_per_address",
            "max_body_bytes",
            "max_spectators",
            "seats_per_address",
            "keep_finished",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1")
        if self.worker is not None and not 0 <= self.worker < self.workers:
            raise ValueError(f"worker must be one of 0 to {self.workers - 1}")
        for name in (
            "lease_seconds",
            "hello_timeout",
            "header_timeout",
            "idle_timeout",
            "tables_per_minute",
            "joins_per_minute",
            "open_table_seconds",
            "finished_table_seconds",
            "wal_limit_mib",
            "keep_days",
            "sweep_seconds",
        ):
            value = getattr(self, name)
            if not 0 < value < float("inf"):
                raise ValueError(f"{name.replace('_', '-')} must be a positive number")
