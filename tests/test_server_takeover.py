"""A worker that takes a long game over from a dead one replays its record beside the loop
(docs/reliability.md, "A long finished game never holds the server up"): real ``bestiary
serve --worker K`` processes on a throwaway PostgreSQL cluster (tests/pg.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from bestiary.bench.loadtest import free_port
from bestiary.server.store import Store
from bestiary.server.workers import Workers
from tests.pg import Cluster, throwaway_cluster
from tests.test_server_replays import STUCK, bots_table, lobby_polled

SERVE = ["--tables-per-minute", "600", "--seats-per-address", "1000", "--allow-seeds"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as running:
        yield running


def test_long_games_taken_over_are_replayed_beside_the_loop(cluster: Cluster) -> None:
    db = cluster.database("takeover")
    Store(db).close()  # the schema, once, before the workers race to make it
    ports = [free_port() for _ in range(2)]
    with Workers(db, 2, free_port(), ports=ports, serve_args=SERVE, lease=2.0) as workers:
        zero = httpx.Client(base_url=f"http://127.0.0.1:{ports[0]}", timeout=10)
        one = httpx.Client(base_url=f"http://127.0.0.1:{ports[1]}", timeout=10)
        # about 200 events a second: a while between 4,000 and the end at the bound on a
        # game's length (chosen deals where greedy bots never gather the wilds a win takes)
        codes = [bots_table(zero, STUCK, bot_pause=0.004, bot="greedy", seed=s) for s in (1, 2, 3)]
        deadline = time.monotonic() + 120
        while True:
            tables = [zero.get(f"/api/tables/{c}").json() for c in codes]
            playing = [t for t in tables if t["status"] == "playing"]
            if len(playing) >= 2 and min(t["seq"] for t in playing) >= 4000:
                break
            assert time.monotonic() < deadline, f"the tables played on: {tables}"
            time.sleep(0.25)
        codes = [t["code"] for t in playing]
        with lobby_polled(str(one.base_url)) as slowest:  # worker 1's, as it takes them over
            workers.kill(0)
            deadline = time.monotonic() + 60
            while not set(codes) <= set(one.get("/api/worker").json()["tables"]):
                assert time.monotonic() < deadline, "worker 1 took the tables over"
                time.sleep(0.1)
            seqs = [one.get(f"/api/tables/{c}").json()["seq"] for c in codes]
            time.sleep(1.0)
    print(f"\n{len(codes)} games of {min(seqs)}-{max(seqs)} events taken over; worker 1's slowest")
    print(f"lobby answer meanwhile {slowest[0]:.3f} s")
    assert min(seqs) >= 4000
    assert slowest[0] < 1.0  # before: 3.0 s (three restores of 4,000 events on the loop)
