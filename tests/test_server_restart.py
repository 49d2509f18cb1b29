"""A server restart loses nothing: a game in progress plays on, finished games stay replayable.

The scenarios take a database URL; tests/test_server_postgres.py runs them on PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

from bestiary.core.game import replay
from bestiary.core.records import parse_lines
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket

SEEDED = ServerSettings(allow_seeds=True)  # seeded deals make the views comparable


def test_game_survives_restart(tmp_path: Path) -> None:
    game_survives_restart(f"sqlite:///{tmp_path / 'restart.sqlite'}")


def test_finished_games_survive_restart(tmp_path: Path) -> None:
    finished_games_survive_restart(f"sqlite:///{tmp_path / 'finished.sqlite'}")


def game_survives_restart(db: str) -> None:
    """A wild game stopped mid-meeting comes back with the same views and plays on."""
    settings = TableSettings(grace_seconds=60)
    with LiveServer(db, settings, server=SEEDED) as first, first.http() as http:
        made = http.post("/api/tables", json={"game": "wild", "seats": 2, "name": "ann"}).json()
        code, ann_token = made["code"], made["token"]
        bob_token = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()["token"]
        http.post(f"/api/tables/{code}/start", json={"token": ann_token, "seed": 3})
        ann, bob = TableSocket(first, code, ann_token), TableSocket(first, code, bob_token)
        card = ann.wait_state(lambda m: True)["view"]["hand"][0]
        bob_card = bob.wait_state(lambda m: True)["view"]["hand"][0]
        ann.act({"do": "call", "card": card, "call": card}, ref=1)
        ann.wait_state(lambda m: m.get("ref") == 1)
        bob.act({"do": "call", "card": bob_card, "call": card}, ref=2)
        bob.wait_state(lambda m: m.get("ref") == 2)
        ann.act({"do": "meet", "with": "bob"}, ref=3)
        before_ann = ann.wait_state(lambda m: m.get("ref") == 3)
        before_bob = bob.wait_state(lambda m: m["seq"] == before_ann["seq"])
        ann.close()
        bob.close()
    # a new server process on the same database
    with LiveServer(db, settings, server=SEEDED) as second, second.http() as http:
        listing = http.get("/api/tables").json()
        assert code in [t["code"] for t in listing["playing"]]
        ann, bob = TableSocket(second, code, ann_token), TableSocket(second, code, bob_token)
        after_ann = ann.wait_state(lambda m: True)
        after_bob = bob.wait_state(lambda m: True)
        for before, after in ((before_ann, after_ann), (before_bob, after_bob)):
            assert after["seq"] == before["seq"] == 3
            assert after["view"] == before["view"]
            assert after["legal"] == before["legal"]
        # bob's pending ask from ann is still there: he agrees and they meet
        bob.act({"do": "meet", "with": "ann"}, ref=4)
        met = ann.wait_state(lambda m: len(m["view"]["meetings"]) == 1)
        assert met["seq"] == 4
        assert met["view"]["meetings"][0]["cards"] == {"ann": card, "bob": bob_card}
        ann.close()
        bob.close()


def finished_games_survive_restart(db: str) -> None:
    """Finished games are listed after a restart, with the same records, and replay to the end."""
    # ann never connects: with no grace her stand-in bot plays her seat at once
    settings = TableSettings(grace_seconds=0, tick_seconds=0.001, answer_seconds=0.01)
    body = {"game": "critters", "seats": 2, "name": "ann", "bots": [{"bot": "random"}]}
    records: dict[str, str] = {}
    with LiveServer(db, settings, server=SEEDED) as first, first.http() as http:
        for seed in (1, 2):
            made = http.post("/api/tables", json=body).json()
            code = made["code"]
            watcher = TableSocket(first, code)
            http.post(f"/api/tables/{code}/start", json={"token": made["token"], "seed": seed})
            watcher.wait_state(lambda m: bool(m["over"]), "the end of the game")
            watcher.close()
            records[code] = http.get(f"/api/tables/{code}/record").text
    with LiveServer(db, settings, server=SEEDED) as second, second.http() as http:
        listing = http.get("/api/tables").json()
        assert {t["code"] for t in listing["finished"]} == set(records)
        assert listing["playing"] == []
        for code, before in records.items():
            assert http.get(f"/api/tables/{code}/record").text == before
            header, events = parse_lines(before.splitlines())
            frames = http.get(f"/api/tables/{code}/replay").json()
            assert len(events) > 0
            assert len(frames["frames"]) == 1 + len(events)  # the deal, then each event
            assert frames["summary"] == replay(header, events).summary()
