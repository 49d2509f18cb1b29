"""Per-address limits behind several workers (docs/reliability.md, "Limits behind several
workers"): two real ``bestiary serve --worker K`` processes on a throwaway PostgreSQL cluster
behind nginx. A client's new tables, joins, seats and table sockets are counted by both workers
together, so it reaches each limit exactly as behind one process, whichever worker its requests
land on; a worker killed with -9 takes its sockets with it, and its tables' seats count again
at the worker that restores them.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bestiary.bench.loadtest import free_port
from bestiary.server.shards import shard_of
from bestiary.server.store import Store
from bestiary.server.workers import Workers
from tests.pg import Cluster, throwaway_cluster
from tests.test_server_workers import report, wait_for

LIMITS = [
    "--tables-per-minute", "4", "--joins-per-minute", "4", "--seats-per-address", "5",
    "--max-per-address", "3", "--grace", "600", "--pace", "fast",
]  # fmt: skip


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as running:
        yield running


def two_workers(cluster: Cluster, name: str, lease: float) -> Workers:
    db = cluster.database(name)
    Store(db).close()
    ports = [free_port(), free_port()]
    return Workers(db, 2, free_port(), ports=ports, serve_args=LIMITS, lease=lease)


@pytest.fixture(scope="module")
def workers(cluster: Cluster) -> Iterator[Workers]:
    """Short leases: a killed worker's tables are restored within seconds."""
    with two_workers(cluster, "limits", lease=2.0) as running:
        yield running


@pytest.fixture(scope="module")
def steady_workers(cluster: Cluster) -> Iterator[Workers]:
    """Leases no load can make lapse: a worker whose lease has run out no longer counts (its
    seats are summed over living workers only), which would let a race give one seat more."""
    with two_workers(cluster, "limits_steady", lease=60.0) as running:
        yield running


def as_client(workers: Workers, k: int, address: str) -> httpx.Client:
    """Worker ``k`` directly, as nginx would pass a request from ``address``."""
    return httpx.Client(
        base_url=f"http://127.0.0.1:{workers.ports[k]}",
        headers={"x-forwarded-for": address},
        timeout=10,
    )


def create(workers: Workers, k: int, address: str, seats: int = 4) -> httpx.Response:
    return as_client(workers, k, address).post(
        "/api/tables", json={"game": "wild", "seats": seats, "name": "host"}
    )


def table_at(workers: Workers, k: int, address: str) -> str:
    made = create(workers, k, address)
    assert made.status_code == 201, made.text
    code: str = made.json()["code"]
    return code


def join(workers: Workers, k: int, code: str, address: str, name: str) -> httpx.Response:
    return as_client(workers, k, address).post(f"/api/tables/{code}/join", json={"name": name})


def test_new_tables_a_minute_count_on_every_worker(workers: Workers) -> None:
    for k in (0, 1, 0, 1):  # a burst of 4, spread over both workers
        assert create(workers, k, "198.51.100.1").status_code == 201
    for k in (1, 0):
        refused = create(workers, k, "198.51.100.1")
        assert refused.status_code == 429
        assert refused.json()["detail"] == (
            "too many new tables from your address; try again in a minute."
        )
        assert int(refused.headers["retry-after"]) >= 1
    assert create(workers, 1, "198.51.100.2").status_code == 201  # another client is not held


def test_an_ipv6_client_is_its_slash_64_on_every_worker(workers: Workers) -> None:
    home = ["2001:db8:7:7::1", "2001:db8:7:7::2", "2001:db8:7:7:ffff::3", "2001:db8:7:7::4"]
    for k, address in zip((0, 1, 0, 1), home, strict=True):
        assert create(workers, k, address).status_code == 201
    assert create(workers, 1, "2001:db8:7:7::99").status_code == 429
    assert create(workers, 1, "2001:db8:7:8::1").status_code == 201  # the next /64


def test_joins_a_minute_count_on_every_worker(workers: Workers) -> None:
    tables = [table_at(workers, k, f"203.0.113.{k}") for k in (0, 1)]
    for n, k in enumerate((0, 1, 0, 1)):
        assert join(workers, k, tables[k], "198.51.100.20", f"p{n}").status_code == 200
    for k in (0, 1):
        refused = join(workers, k, tables[k], "198.51.100.20", f"late{k}")
        assert refused.status_code == 429
        assert refused.json()["detail"].startswith("too many seats taken from your address")


def test_seats_held_count_on_every_worker(workers: Workers) -> None:
    me = "198.51.100.30"
    for k in (0, 1, 0):  # 3 seats, as hosts
        table_at(workers, k, me)
    others = [table_at(workers, k, f"203.0.113.3{k}") for k in (0, 1)]
    seated = [join(workers, k, others[k], me, "guest") for k in (0, 1)]
    assert [s.status_code for s in seated] == [200, 200]  # 5 seats: the limit
    more = table_at(workers, 0, "203.0.113.40")
    for refused in (join(workers, 0, more, me, "again"), create(workers, 1, me)):
        assert refused.status_code == 429  # a host's seat counts too
        assert refused.json()["detail"] == (
            "your address already holds 5 seats at open tables and games in play; "
            "leave one or finish a game first."
        )
    # a seat given up at worker 1 frees a place at worker 0
    token = seated[1].json()["token"]
    left = as_client(workers, 1, me).post(f"/api/tables/{others[1]}/leave", json={"token": token})
    assert left.status_code == 200
    time.sleep(0.5)  # worker 1 tells the database after answering (one statement)
    assert join(workers, 0, more, me, "back").status_code == 200


def test_a_dead_worker_s_seats_count_again_where_its_tables_are_restored(
    workers: Workers,
) -> None:
    me = "198.51.100.40"
    hosted = [table_at(workers, k, me) for k in (1, 1, 0)]
    others = [table_at(workers, 0, f"203.0.113.4{n}") for n in range(3)]
    assert join(workers, 0, others[0], me, "guest").status_code == 200  # 4 seats
    workers.kill(1)
    try:
        wait_for("worker 0 to restore worker 1's tables", lambda: _holds(workers, 0, hosted))
        assert join(workers, 0, others[1], me, "guest").status_code == 200  # 5
        refused = join(workers, 0, others[2], me, "guest")
        assert refused.status_code == 429 and "holds 5 seats" in refused.json()["detail"]
    finally:
        workers.start_worker(1)
        wait_for("worker 1 to take its tables back", lambda: _holds(workers, 1, hosted[:2]))


def _holds(workers: Workers, k: int, codes: list[str]) -> bool:
    return set(codes) <= set(report(workers, k)["tables"])


@contextlib.contextmanager
def socket(
    workers: Workers, k: int, code: str, address: str
) -> Iterator[tuple[ClientConnection, Any]]:
    url = f"ws://127.0.0.1:{workers.ports[k]}/ws/{code}"
    with connect(url, additional_headers={"x-forwarded-for": address}) as ws:
        # a refused socket may be closed before its hello is sent; its one message is still read
        with contextlib.suppress(ConnectionClosed):
            ws.send(json.dumps({"type": "hello", "v": 1}))
        yield ws, json.loads(ws.recv(timeout=10))


def test_table_sockets_count_on_every_worker(workers: Workers) -> None:
    codes = [table_at(workers, k, f"203.0.113.5{k}") for k in (0, 1)]
    me = "198.51.100.50"
    with contextlib.ExitStack() as held:
        for k in (0, 1, 0):
            _, first = held.enter_context(socket(workers, k, codes[k], me))
            assert first["type"] == "welcome"
        for k in (1, 0):
            with socket(workers, k, codes[k], me) as (_, refused):
                assert refused["type"] == "error" and refused["code"] == "too_many"
        with socket(workers, 1, codes[1], "198.51.100.51") as (_, other):
            assert other["type"] == "welcome"  # another client is not held
    # all closed: the count went down at both workers
    wait_for("the sockets to be counted out", lambda: _welcomed(workers, codes[1], me))


def _welcomed(workers: Workers, code: str, address: str) -> bool:
    with contextlib.ExitStack() as held:
        for _ in range(3):
            _, first = held.enter_context(socket(workers, 1, code, address))
            if first["type"] != "welcome":
                return False
    return True


def test_through_nginx_one_client_is_refused_whichever_worker_answers(workers: Workers) -> None:
    proxy = httpx.Client(base_url=workers.url, timeout=10)  # every request from 127.0.0.1
    answers = [
        proxy.post("/api/tables", json={"game": "wild", "seats": 2, "name": "ann"})
        for _ in range(6)
    ]
    made = [a for a in answers if a.status_code == 201]
    assert len(made) == 4 and [a.status_code for a in answers[4:]] == [429] * 2
    assert {shard_of(a.json()["code"], 2) for a in made} == {0, 1}  # nginx chose both workers


def test_a_client_racing_both_workers_for_seats_gets_exactly_its_limit(
    steady_workers: Workers,
) -> None:
    """Eight seats asked at once (four new tables, four joins), half at each worker: five are
    given, whatever the order, since the claims of one client take turns in the database."""
    workers = steady_workers
    me = "198.51.100.70"
    others = [table_at(workers, k, f"203.0.113.7{n}") for n, k in enumerate((0, 1, 0, 1))]
    asks = [partial(create, workers, k, me) for k in (0, 1, 0, 1)]
    asks += [partial(join, workers, n % 2, code, me, "racer") for n, code in enumerate(others)]
    with ThreadPoolExecutor(len(asks)) as pool:
        answers = list(pool.map(lambda ask: ask(), asks))
    assert sum(a.status_code in (200, 201) for a in answers) == 5
    refused = [a.json()["detail"] for a in answers if a.status_code == 429]
    assert all("holds 5 seats" in detail for detail in refused), refused
