"""A game in progress survives a server restart: same record, same views, play goes on."""

from __future__ import annotations

from pathlib import Path

from bestiary.server.live import LiveServer, TableSocket
from bestiary.server.table import TableSettings


def test_game_survives_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.sqlite'}"
    settings = TableSettings(grace_seconds=60)
    with LiveServer(db, settings) as first, first.http() as http:
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
    with LiveServer(db, settings) as second, second.http() as http:
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
