"""The store on a real PostgreSQL server: the restart scenarios of test_server_restart.py, the
store's own reads and writes (JSON columns, event order, the finished list), and a database that
cannot be reached."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from bestiary.bench.loadtest import free_port
from bestiary.cli import app
from bestiary.server.store import Store, StoreUnavailable
from tests.pg import Cluster, throwaway_cluster
from tests.test_server_restart import finished_games_survive_restart, game_survives_restart


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
