"""Memory stays bounded (docs/reliability.md, "Memory"): a refused request leaves nothing, and
after many finished games the server's resident memory returns near where it started.

RSS is read from /proc of ``bestiary serve`` running in its own process
(``tests/serverproc.py``); margins are generous, and nothing here is timed."""

from __future__ import annotations

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
