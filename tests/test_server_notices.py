"""Lobby notices between workers (``bestiary.server.notices``): a worker hears the other
workers' lobby changes, in the order they were committed, and is never woken for its own."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from bestiary.server.notices import Notices
from bestiary.server.ownership import Cluster
from bestiary.server.store import Store
from tests.pg import Cluster as Postgres
from tests.pg import throwaway_cluster


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    with throwaway_cluster() as running:
        yield running


def lobby_change(store: Store, code: str, status: str) -> None:
    store.write("own", {"code": code, "lobby": {"code": code, "status": status}, "new": True})
    store.flush()


def test_a_worker_hears_the_others_lobby_changes_and_not_its_own(
    postgres: Postgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.database("notices")
    stores = [Store(url, inline=False) for _ in range(2)]
    workers = [
        Cluster(store, k, 2, f"127.0.0.1:{k + 1}", lease=600) for k, store in enumerate(stores)
    ]
    for worker in workers:
        worker.join()
    heard: list[str] = []

    async def listen() -> dict[str, dict[str, Any]]:
        notices = Notices(workers[0], asyncio.get_running_loop())
        hear = notices._heard

        def counted(channel: str, payload: str) -> tuple[str, dict[str, Any]] | None:
            heard.append(channel)
            return hear(channel, payload)

        monkeypatch.setattr(notices, "_heard", counted)
        notices.start()
        try:
            lobby_change(stores[0], "MINE", "open")  # worker 0's own table
            lobby_change(stores[1], "THEIRS", "open")
            lobby_change(stores[1], "THEIRS", "playing")
            lobby_change(stores[1], "GONE", "open")
            lobby_change(stores[1], "GONE", "finished")
            for _ in range(200):  # up to 10 s for the last change to arrive
                if (
                    "GONE" not in notices.others
                    and notices.others.get("THEIRS", {}).get("status") == "playing"
                    and len(heard) >= 4
                ):
                    break
                await asyncio.sleep(0.05)
            return dict(notices.others)
        finally:
            notices.stop()

    try:
        others = asyncio.run(listen())
    finally:
        for worker, store in zip(workers, stores, strict=True):
            store.close()
            worker.leave()
    assert others == {"THEIRS": {"code": "THEIRS", "status": "playing"}}
    assert heard == ["bestiary_lobby_1"] * 4  # worker 0 was never woken for MINE
