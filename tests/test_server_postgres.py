"""The store on a real PostgreSQL server: the restart scenarios of test_server_restart.py, the
store's own reads and writes (JSON columns, event order, the finished list), and a database that
cannot be reached."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from bestiary.bench.loadtest import free_port
from bestiary.cli import app
from bestiary.server.store import READ_SECONDS, Store, StoreUnavailable
from tests.pg import Cluster, throwaway_cluster
from tests.serverproc import ServerProcess
from tests.test_server_restart import finished_games_survive_restart, game_survives_restart
from tests.test_server_retention import (
    sweep_keeps_the_newest_and_the_live,
    two_sweeps_at_once_delete_each_game_once,
)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as running:
        yield running


@pytest.fixture
def db(cluster: Cluster, request: pytest.FixtureRequest) -> str:
    """A fresh database per test, named after it."""
    return cluster.database(request.node.name.lower())


def test_game_survives_restart(db: str) -> None:
    game_survives_restart(db)


def test_finished_games_survive_restart(db: str) -> None:
    finished_games_survive_restart(db)


def table_row(code: str, status: str, finished: float | None = None) -> dict[str, object]:
    return {
        "code": code,
        "game": "critters",
        "options": {"set_size": 3, "nested": {"list": [1, 2.5, None, True]}},
        "seats": [{"name": "Zoë 🦝", "token": "ab" * 32}, {"name": "bob", "bot": "random"}],
        "status": status,
        "header": {"game": "critters", "players": ["Zoë 🦝", "bob"], "seed": 2**40},
        "winners": None,
        "created": 1.25,
        "started": 2.5,
        "finished": finished,
    }


def test_store_round_trips_rows_and_events(db: str) -> None:
    store = Store(db)
    store.save_table(table_row("AAAAAA", "playing"))
    for seq in (3, 1, 2):  # the record is read in seq order, whatever the write order
        store.append_event("AAAAAA", seq, {"by": "bob", "do": "down", "seq": seq, "t": seq / 3})
    store.save_table(table_row("BBBBBB", "finished", finished=10.0))
    store.save_table(table_row("CCCCCC", "finished", finished=20.0))
    store.save_table({**table_row("AAAAAA", "playing"), "winners": ["bob"]})  # an update
    store.close()

    again = Store(db)  # a new engine: nothing comes from memory
    (playing,) = again.load(["playing"])
    assert playing.options == table_row("", "")["options"]
    assert playing.seats[0]["name"] == "Zoë 🦝"
    assert playing.header is not None and playing.header["seed"] == 2**40
    assert playing.winners == ["bob"]
    assert [e["seq"] for e in playing.events] == [1, 2, 3]
    assert playing.events[0]["t"] == 1 / 3
    assert [t.code for t in again.finished()] == ["CCCCCC", "BBBBBB"]
    assert [t.code for t in again.finished(limit=1)] == ["CCCCCC"]
    assert again.exists("BBBBBB") and not again.exists("DDDDDD")
    assert again.get("DDDDDD") is None
    again.close()


def test_an_unreachable_database_is_one_sentence() -> None:
    url = f"postgresql+psycopg://ann:secret@127.0.0.1:{free_port()}/nowhere"  # nothing listens
    with pytest.raises(StoreUnavailable) as refused:
        Store(url)
    message = str(refused.value)
    assert message.startswith("cannot open the database postgresql+psycopg://ann:***@127.0.0.1")
    assert "secret" not in message and "\n" not in message
    served = CliRunner().invoke(app, ["serve", "--db", url])
    assert served.exit_code != 0
    assert served.output.strip() == f"error: {message}"


def cluster_processes(cluster: Cluster) -> list[int]:
    """The cluster's postmaster and every backend it forked (each connection is a process)."""
    main = int((cluster.root / "data" / "postmaster.pid").read_text().split()[0])
    children = subprocess.run(
        ["pgrep", "-P", str(main)], capture_output=True, text=True, check=False
    ).stdout.split()
    return [main, *map(int, children)]


def test_a_stalled_database_never_stalls_the_loop(
    db: str, cluster: Cluster, tmp_path: Path
) -> None:
    # docs/reliability.md, "The loop": every read on behalf of a request runs beside the loop
    with ServerProcess(db, tmp_path / "log") as server, server.http() as http:
        assert http.get("/api/tables").status_code == 200
        frozen = cluster_processes(cluster)
        answers: dict[str, tuple[int, float]] = {}

        def ask(path: str) -> None:
            start = time.monotonic()
            status = httpx.get(server.url + path, timeout=30).status_code
            answers[path] = (status, time.monotonic() - start)

        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        try:
            strangers = [
                threading.Thread(target=ask, args=(path,))
                for path in ("/api/tables", "/api/tables/ZZZZZZ", "/api/tables/ZZZZZZ/record")
            ]
            for stranger in strangers:
                stranger.start()
            slowest = 0.0
            deadline = time.monotonic() + 6
            while time.monotonic() < deadline:  # what needs no database answers meanwhile
                start = time.monotonic()
                assert http.get("/api/games").status_code == 200
                slowest = max(slowest, time.monotonic() - start)
                time.sleep(0.1)
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)
        for stranger in strangers:
            stranger.join()
    print(f"slowest /api/games during the stall {slowest:.3f} s; the strangers: {answers}")
    assert slowest < 1.0
    for path, (status, took) in answers.items():
        assert status == 503 and took < READ_SECONDS + 1, path


def test_a_sweep_deletes_exactly_the_finished_games_past_the_retention(db: str) -> None:
    sweep_keeps_the_newest_and_the_live(db)


def test_two_sweeps_at_once_delete_each_game_once(db: str) -> None:
    two_sweeps_at_once_delete_each_game_once(db)
