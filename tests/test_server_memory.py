"""Memory stays bounded (docs/reliability.md, "Memory"): a refused request leaves nothing, and
after many finished games the server's resident memory returns near where it started.

RSS is read from /proc of ``bestiary serve`` running in its own process
(``tests/serverproc.py``); margins are generous, and nothing here is timed."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.serverproc import ServerProcess

REFUSED = {"game": "critters", "seats": 2, "name": "ann", "bots": [{"bot": "nosuchbot"}]}


def _refused_round(http: httpx.Client, count: int) -> None:
    for _ in range(count):
        made = http.post("/api/tables", json=REFUSED)
        assert made.status_code == 400
        assert made.json()["detail"].startswith("no bot called 'nosuchbot'")


def test_a_thousand_refused_creates_leave_nothing(tmp_path: Path) -> None:
    """Before: 71.5 -> 130.8 MB over three rounds of 1,000, about 20 KB a refusal (each refused
    table stayed watched by the store)."""
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    limits = "tables_per_minute=100000"
    with ServerProcess(db, tmp_path / "log", server=limits) as server, server.http() as http:
        _refused_round(http, 1000)  # warm-up: caches and the allocator's arenas fill once
        start = server.rss_mb()
        for _ in range(2):
            _refused_round(http, 1000)
        end = server.rss_mb()
        assert http.get("/api/tables").json()["total"] == {"open": 0, "playing": 0}
    print(f"RSS after 1,000 refused creates {start:.1f} MB, after 2,000 more {end:.1f} MB")
    assert end - start < 8, f"2,000 refused creates grew the server by {end - start:.1f} MB"


def _play_games(server: ServerProcess, count: int, at_once: int = 25) -> None:
    """``count`` critters games of two bots (the host's seat gets a stand-in at once), played
    to their end, ``at_once`` at a time; returns once the server has forgotten them all."""
    body = {
        "game": "critters",
        "seats": 2,
        "name": "ann",
        "bots": [{"bot": "greedy"}],
        "start": True,
        "tick_seconds": 0.001,
        "bot_pause": 0,
        "grace_seconds": 0,
    }
    with server.http() as http:
        made = 0
        while made < count:
            total = http.get("/api/tables").json()["total"]
            if total["playing"] >= at_once:
                time.sleep(0.05)
                continue
            created = http.post("/api/tables", json=body)
            assert created.status_code == 201, created.text
            made += 1
        deadline = time.monotonic() + 600
        while http.get("/api/tables").json()["total"]["playing"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert http.get("/api/tables").json()["total"]["playing"] == 0
    time.sleep(3)  # finished_table_seconds=1: the finished tables are forgotten meanwhile


def test_memory_returns_near_its_start_after_a_thousand_finished_games(tmp_path: Path) -> None:
    """Nothing grows per finished table: RSS after 1,000 more finished games is within a
    small margin of RSS after the first 100 (which warm up caches and the allocator)."""
    limits = (
        "tables_per_minute=100000, joins_per_minute=100000, seats_per_address=100000,"
        " finished_table_seconds=1"
    )
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with ServerProcess(db, tmp_path / "log", server=limits) as server:
        first = server.rss_mb()
        _play_games(server, 100)
        start = server.rss_mb()
        _play_games(server, 1000)
        end = server.rss_mb()
    print(f"RSS: {first:.1f} MB at start, {start:.1f} MB after 100 games, {end:.1f} MB after 1,100")
    assert end - start < 10, f"1,000 finished games left {end - start:.1f} MB behind"
