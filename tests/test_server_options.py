"""Options and seeds: every option is checked before anything is created; clients choose no seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bestiary.server.settings import ServerSettings
from bestiary.server.store import Store
from bestiary.server.table import TableSettings
from tests.live import LiveServer

BAD_NIGHTFALL = ["2**64", "Infinity", "-Infinity", "NaN", "-1", "0", "1e400", "3601", '"soon"']


def test_bad_options_are_one_sentence_and_leave_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'o.sqlite'}"
    limits = ServerSettings(tables_per_minute=600, joins_per_minute=6000, seats_per_address=1000)
    with LiveServer(db, TableSettings(), server=limits) as server, server.http() as http:
        for raw in BAD_NIGHTFALL:
            value = str(2**64) if raw == "2**64" else raw
            body = (
                '{"game": "wild", "seats": 2, "name": "ann", '
                f'"options": {{"nightfall_seconds": {value}}}}}'
            )
            answer = http.post(
                "/api/tables", content=body, headers={"content-type": "application/json"}
            )
            assert answer.status_code == 400, (raw, answer.text)
            detail = answer.json()["detail"]
            assert detail.startswith("bad options: ") and detail.endswith("."), detail
            assert "nightfall_seconds" in detail and detail.count(". ") == 0, detail
        # a refusal after the options were fine (an unknown bot) leaves nothing either
        answer = http.post(
            "/api/tables",
            json={"game": "wild", "seats": 2, "name": "ann", "bots": [{"bot": "nobody"}]},
        )
        assert answer.status_code == 400 and "no bot called 'nobody'" in answer.json()["detail"]
        wrong = http.post("/api/tables", json={"game": "wild", "seats": 99, "name": "ann"})
        assert wrong.status_code == 400
        assert wrong.json()["detail"] == (
            "bad request: seats: Input should be less than or equal to 8."
        )
        assert http.get("/api/tables").json()["total"] == {"open": 0, "playing": 0}
    store = Store(db)
    assert store.load(["open", "playing", "finished"]) == []
    store.close()


@pytest.mark.parametrize("value", [4.5, 3600])
def test_sound_nightfall_seconds_are_taken(tmp_path: Path, value: Any) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'o.sqlite'}") as server, server.http() as http:
        answer = http.post(
            "/api/tables",
            json={
                "game": "wild",
                "seats": 2,
                "name": "ann",
                "options": {"nightfall_seconds": value},
            },
        )
        assert answer.status_code == 201, answer.text


def seat_two(server: LiveServer) -> tuple[str, str]:
    with server.http() as http:
        made = http.post(
            "/api/tables",
            json={"game": "critters", "seats": 2, "name": "ann", "bots": [{"bot": "greedy"}]},
        ).json()
    return made["code"], made["token"]


def test_a_client_cannot_choose_the_deal(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 's.sqlite'}") as server:
        code, token = seat_two(server)
        with server.http() as http:
            answer = http.post(f"/api/tables/{code}/start", json={"token": token, "seed": 7})
            assert answer.status_code == 400
            assert answer.json()["detail"] == (
                "this server deals every game itself; a seed is for testing servers only."
            )
            assert http.get(f"/api/tables/{code}").json()["status"] == "open"
            started = http.post(f"/api/tables/{code}/start", json={"token": token})
            assert started.json()["status"] == "playing"


def test_an_operator_may_allow_seeds(tmp_path: Path) -> None:
    limits = ServerSettings(allow_seeds=True)
    with LiveServer(f"sqlite:///{tmp_path / 's.sqlite'}", server=limits) as server:
        code, token = seat_two(server)
        with server.http() as http:
            answer = http.post(f"/api/tables/{code}/start", json={"token": token, "seed": 7})
            assert answer.json()["status"] == "playing"
