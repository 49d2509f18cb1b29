"""A worker's group of moves on PostgreSQL: one fenced statement, sent by the driver itself
(``Store._write_events``, ``Cluster.insert_events``). Every line comes back as it was written,
a table another worker owns gets none of its events, and a connection killed between groups
fails the next group the way the writer retries (then it commits)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import SQLAlchemyError

from bestiary.server.ownership import Cluster as Owners
from bestiary.server.store import Store, Write
from tests.pg import Cluster, throwaway_cluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as running:
        yield running


@pytest.fixture(scope="module")
def worker(cluster: Cluster) -> Iterator[tuple[Store, Owners]]:
    """Worker 0 of 1 holding tables A and B (tests add events with seqs of their own)."""
    store = Store(cluster.database("group_commit"), inline=False)
    owners = Owners(store, 0, 1, "127.0.0.1:1", lease=600)
    owners.join()
    for code in ("A", "B"):
        store.save_table(
            {
                "code": code,
                "game": "critters",
                "options": {},
                "seats": [],
                "status": "playing",
                "header": None,
                "winners": None,
                "created": time.time(),
                "started": None,
                "finished": None,
            }
        )
        store.write("own", {"code": code, "lobby": {"status": "playing"}, "new": True})
    store.flush()
    yield store, owners
    store.close()
    owners.leave()


def stored(store: Store, code: str) -> list[dict[str, Any]]:
    table = store.get(code)
    assert table is not None
    return table.events


def group(code: str, first: int, events: list[dict[str, Any]]) -> list[Write]:
    return [
        ("event", {"code": code, "seq": first + n, "line": orjson.dumps(event).decode()})
        for n, event in enumerate(events)
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.dictionaries(st.text(), json_values, max_size=4), min_size=1, max_size=6))
def test_every_line_comes_back_as_it_was_written(
    worker: tuple[Store, Owners], events: list[dict[str, Any]]
) -> None:
    store, _ = worker
    before = stored(store, "A")
    store._write(group("A", len(before) + 1, events))
    assert stored(store, "A") == before + events


def test_a_table_another_worker_took_gets_none_of_its_events(
    worker: tuple[Store, Owners], cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg  # the postgres extra (the cluster fixture says when it is missing)

    store, owners = worker
    lost: list[set[str]] = []
    monkeypatch.setattr(owners, "lost", lost.append)
    a, b = len(stored(store, "A")), len(stored(store, "B"))
    with psycopg.connect(cluster_dsn(cluster), autocommit=True) as conn:
        conn.execute("UPDATE owners SET incarnation = 'someone else' WHERE code = 'B'")
        try:
            store._write(group("A", a + 1, [{"x": 1}]) + group("B", b + 1, [{"y": 2}]))
        finally:
            conn.execute(
                "UPDATE owners SET incarnation = %s WHERE code = 'B'", (owners.incarnation,)
            )
    assert lost == [{"B"}]
    assert stored(store, "A")[a:] == [{"x": 1}]
    assert len(stored(store, "B")) == b


def test_a_connection_killed_between_groups_fails_the_next_as_the_writer_retries(
    worker: tuple[Store, Owners], cluster: Cluster
) -> None:
    import psycopg

    store, _ = worker
    a = len(stored(store, "A"))
    store._write(group("A", a + 1, [{"n": 1}]))  # the writer's connection is open
    with psycopg.connect(cluster_dsn(cluster), autocommit=True) as conn:
        killed = conn.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = 'group_commit' AND pid <> pg_backend_pid()"
        ).fetchone()
    assert killed is not None and killed[0] > 0
    again = group("A", a + 2, [{"n": 2}])
    with pytest.raises(SQLAlchemyError):  # what run_writer keeps and tries again
        store._write(again)
    store._write(again)
    assert stored(store, "A")[a:] == [{"n": 1}, {"n": 2}]


def cluster_dsn(cluster: Cluster) -> str:
    return f"host=127.0.0.1 port={cluster.port} user=bestiary dbname=group_commit"


def test_the_writer_tells_each_waiter_after_its_group_commits_and_retries_a_failed_one(
    worker: tuple[Store, Owners], cluster: Cluster
) -> None:
    """Through ``run_writer`` (the writer's own thread, told back on the loop): a waiter runs
    only once everything queued before it is stored; a group whose connection was killed is
    kept, the watchers hear the store is down and back, and nothing is lost or reordered."""
    import psycopg

    store, _ = worker
    a = len(stored(store, "A"))
    told: list[tuple[str, int]] = []  # (waiter, events of A stored when it ran)
    news: list[str | None] = []
    store.watch(news.append)

    async def play() -> None:
        writer = asyncio.ensure_future(store.run_writer())
        loop = asyncio.get_running_loop()

        async def commit(name: str) -> None:
            done: asyncio.Future[None] = loop.create_future()

            def committed() -> None:
                told.append((name, len(stored(store, "A")) - a))
                done.set_result(None)

            store.commit(committed)
            await done

        for write in group("A", a + 1, [{"n": 1}, {"n": 2}]):
            store._queue(*write)
        await commit("first")
        with psycopg.connect(cluster_dsn(cluster), autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = 'group_commit' AND pid <> pg_backend_pid()"
            )
        store._queue(*group("A", a + 3, [{"n": 3}])[0])
        second = asyncio.ensure_future(commit("second"))
        store._queue(*group("A", a + 4, [{"n": 4}])[0])  # queued after that waiter
        await asyncio.gather(second, commit("third"))
        writer.cancel()

    try:
        asyncio.run(play())
    finally:
        store.unwatch(news.append)
    assert told == [("first", 2), ("second", 4), ("third", 4)]
    assert stored(store, "A")[a:] == [{"n": n} for n in range(1, 5)]
    assert len(news) == 2 and news[0] is not None and news[1] is None
    assert store.queued == 0 and store.down is None
