"""A table of friends over a real server's sockets: seats kept for people until the start (bots
fill the rest then), a link that seats a friend or says why not, reactions (refused to a
spectator and past a seat's allowance, never stored), and the rematch."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bestiary.server.reactions import BURST
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("friends") / "friends.sqlite"
    limits = ServerSettings(tables_per_minute=600, joins_per_minute=6000, seats_per_address=1000)
    settings = TableSettings(tick_seconds=0.01, bot_pause=0.0, grace_seconds=60)
    with LiveServer(f"sqlite:///{db}", settings, server=limits) as live:
        yield live


def host(http: httpx.Client, game: str = "duel", seats: int = 3) -> tuple[str, str]:
    made = http.post("/api/tables", json={"game": game, "seats": seats, "name": "ann"})
    assert made.status_code == 201, made.text
    return made.json()["code"], made.json()["token"]


def test_seats_wait_for_friends_until_the_start_and_a_late_link_says_why(
    server: LiveServer,
) -> None:
    with server.http() as http:
        code, ann = host(http)
        bob = http.post(f"/api/tables/{code}/join", json={"name": "bob"})
        assert bob.status_code == 200 and bob.json()["seat"] == 1
        refused = http.post(f"/api/tables/{code}/start", json={"token": ann})
        assert refused.json()["detail"] == (
            "every seat must be filled (by a player or a bot) before starting."
        )
        bad = http.post(f"/api/tables/{code}/start", json={"token": ann, "fill": "nobody"})
        assert bad.status_code == 400 and "no bot called 'nobody'" in bad.json()["detail"]
        started = http.post(f"/api/tables/{code}/start", json={"token": ann, "fill": "random"})
        assert started.status_code == 200, started.text
        seats = started.json()["seats"]
        assert [(s["name"], s["bot"]) for s in seats] == [
            ("ann", None),
            ("bob", None),
            ("random-3", "random"),
        ]
        late = http.post(f"/api/tables/{code}/join", json={"name": "cy"})
        assert late.json()["detail"] == (
            f"the game at table {code} has already started; you can watch it."
        )
        full_code, _ = host(http, seats=2)
        http.post(f"/api/tables/{full_code}/join", json={"name": "bob"})
        full = http.post(f"/api/tables/{full_code}/join", json={"name": "cy"})
        assert full.json()["detail"] == (
            f"every seat at table {full_code} is taken; the host can free one, or you can watch."
        )


def play_out(sockets: list[TableSocket]) -> None:
    """Each person plays their first legal action until the game is over."""
    acted: set[tuple[int, int]] = set()
    for _ in range(500):
        if any(s.latest is not None and s.latest["over"] for s in sockets):
            return
        for number, sock in enumerate(sockets):
            latest = sock.latest
            if latest and latest["legal"] and (number, latest["seq"]) not in acted:
                acted.add((number, latest["seq"]))
                sock.act(latest["legal"][0], ref=latest["seq"])
            sock.timeout, patience = 0.2, sock.timeout
            with contextlib.suppress(TimeoutError):  # nothing new for this seat yet
                sock.wait(lambda m: m["type"] == "state", "a state")
            sock.timeout = patience
    raise AssertionError("the game did not end")


def test_reactions_reach_the_table_but_a_spectator_and_a_flood_are_refused(
    server: LiveServer,
) -> None:
    with server.http() as http:
        code, ann_token = host(http, seats=2)
        bob_token = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()["token"]
        seq = http.get(f"/api/tables/{code}").json()["seq"]
    ann = TableSocket(server, code, ann_token)
    bob = TableSocket(server, code, bob_token)
    watcher = TableSocket(server, code)
    watcher.send({"type": "react", "reaction": "wave", "ref": 1})
    refused = watcher.wait_ref(1)
    assert refused == {
        "type": "error",
        "code": "not_seated",
        "message": "spectators cannot send reactions; take a seat to react.",
        "ref": 1,
    }
    ann.send({"type": "react", "reaction": "gg", "ref": 2})  # in the waiting room too
    shown = {"type": "reaction", "seat": 0, "player": "ann", "reaction": "gg"}
    for sock in (bob, watcher, ann):
        assert sock.wait(lambda m: m["type"] == "reaction") == shown
    for ref in range(3, 3 + BURST - 1):
        ann.send({"type": "react", "reaction": "yes", "ref": ref})
    ann.send({"type": "react", "reaction": "yes", "ref": 99})
    flood = ann.wait_ref(99)
    assert flood["code"] == "slow_down" and flood["message"].startswith("too many reactions")
    ann.send({"type": "react", "reaction": "x" * 17})
    long = ann.wait(lambda m: m["type"] == "error")
    assert long["code"] == "bad_message" and "reaction" in long["message"]
    ann.send({"type": "react", "reaction": "meet", "ref": 100})  # wild's, not duel's
    assert ann.wait_ref(100)["code"] == "bad_reaction"
    bob.send({"type": "react", "reaction": "wave", "ref": 101})  # bob's allowance is his own
    assert ann.wait(lambda m: m["type"] == "reaction")["player"] == "bob"
    with server.http() as http:
        assert http.get(f"/api/tables/{code}").json()["seq"] == seq  # no event: not a move
    for sock in (ann, bob, watcher):
        sock.close()


def test_a_rematch_seats_everyone_still_there_and_the_old_link_follows(
    server: LiveServer,
) -> None:
    with server.http() as http:
        code, ann_token = host(http)
        bob_token = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()["token"]
        ann = TableSocket(server, code, ann_token)
        bob = TableSocket(server, code, bob_token)
        watcher = TableSocket(server, code)
        early = http.post(f"/api/tables/{code}/rematch", json={"token": ann_token})
        assert early.json()["detail"] == "a rematch is offered once the game is over."
        http.post(f"/api/tables/{code}/start", json={"token": ann_token, "fill": "random"})
        play_out([ann, bob])
        for sock in (ann, bob):
            sock.wait_state(lambda m: bool(m["over"]), "the end")
        pressed = http.post(f"/api/tables/{code}/rematch", json={"token": bob_token})
        assert pressed.status_code == 200, pressed.text
        made: dict[str, Any] = pressed.json()
        new = made["code"]
        told = {
            name: sock.wait(lambda m: m["type"] == "rematch", "the rematch")
            for name, sock in (("ann", ann), ("bob", bob), ("watcher", watcher))
        }
        assert told["watcher"] == {"type": "rematch", "code": new}
        assert told["bob"] == {"type": "rematch", "code": new, "seat": 0, "token": made["token"]}
        assert told["ann"]["seat"] == 2
        again = http.post(f"/api/tables/{code}/rematch", json={"token": ann_token}).json()
        assert again == {"code": new, "seat": 2, "token": told["ann"]["token"]}
        table = http.get(f"/api/tables/{new}").json()
        assert table["status"] == "playing" and table["game"] == "duel"
        assert [s["name"] for s in table["seats"]] == ["bob", "random-3", "ann"]
        assert http.get(f"/api/tables/{code}").json()["next"] == new
        assert new not in http.get(f"/api/tables/{code}/record").text
    ann_again = TableSocket(server, new, told["ann"]["token"])
    assert ann_again.welcome["seat"] == 2 and ann_again.welcome["player"] == "ann"
    for sock in (ann, bob, watcher, ann_again):
        sock.close()
