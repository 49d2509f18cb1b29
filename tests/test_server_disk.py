"""Disk stays bounded (docs/reliability.md, "Disk"): SQLite's write-ahead log is cut back past
``--wal-limit`` while all-bot tables write flat out; a line that repeats is logged a few
times a minute. Against ``bestiary serve`` in its own
process."""

from __future__ import annotations

import io
import logging
import socket
import time
from pathlib import Path

import httpx

from bestiary.server.logcap import BURST, LogCap
from tests.serverproc import ServerProcess
from tests.test_server_replays import STUCK, bots_table

# An endless critters deck (no greedy bot ever fills three sets), played at full speed.
MIB = 1024 * 1024


def flat_out(http: httpx.Client) -> str:
    return bots_table(http, STUCK, bot_pause=0, bot="greedy")


def test_the_write_ahead_log_stays_near_its_limit_under_flat_out_tables(tmp_path: Path) -> None:
    db, log = tmp_path / "db.sqlite", tmp_path / "log"
    wal = Path(f"{db}-wal")
    limits = "wal_limit_mib=1, tables_per_minute=1000, seats_per_address=1000"
    with ServerProcess(f"sqlite:///{db}", log, server=limits) as server, server.http() as http:
        codes = [flat_out(http) for _ in range(3)]
        peak, cuts, last = 0, 0, 0
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline:
            now = wal.stat().st_size if wal.exists() else 0
            cuts += now < last  # the file was cut back
            peak, last = max(peak, now), now
            time.sleep(0.02)
        stored = sum(http.get(f"/api/tables/{code}").json()["seq"] for code in codes)
    print(f"peak log {peak / MIB:.1f} MiB, cut back {cuts} times, {stored} events")
    assert stored > 3000, "the tables played on"
    assert cuts >= 2
    # the limit, plus what about a second of flat-out writing adds before the next check
    assert peak < 4 * MIB
    assert "storage unavailable" not in log.read_text()


def test_a_stranger_cannot_fill_the_log(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", log) as server:
        for _ in range(300):  # each one a warning of uvicorn's
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
                sock.sendall(b"GET /\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert sock.recv(100).startswith(b"HTTP/1.1 400")
        assert httpx.get(server.url + "/api/games").status_code == 200
    said = log.read_text().splitlines()
    assert len([line for line in said if "Invalid HTTP request" in line]) == BURST


def test_a_capped_line_says_how_many_like_it_were_left_out() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(LogCap(burst=2, period=0.2))
    logger = logging.getLogger("bestiary.test.logcap")
    logger.addHandler(handler)
    logger.propagate = False
    for n in range(5):
        logger.warning("table %s: refused", n)
    logger.error("another kind of line")
    time.sleep(0.25)  # the period is over
    logger.warning("table %s: refused", 9)
    assert stream.getvalue().splitlines() == [
        "table 0: refused",
        "table 1: refused",
        "another kind of line",
        "table 9: refused [3 more like this left out of the log]",
    ]
