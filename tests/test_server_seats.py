"""Who sits where: names people can tell apart, sockets that leave with their seat, watchers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from bestiary.server import table, wire
from bestiary.server.protocol import MAX_MESSAGE_BYTES
from bestiary.server.run import WS_MAX_SIZE
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("seats") / "seats.sqlite"
    limits = ServerSettings(
        tables_per_minute=600, joins_per_minute=6000, seats_per_address=1000, max_spectators=3
    )
    with LiveServer(f"sqlite:///{db}", TableSettings(tick_seconds=0.01), server=limits) as live:
        yield live


def open_table(http: httpx.Client, name: str = "bob", seats: int = 3) -> tuple[str, str]:
    made = http.post("/api/tables", json={"game": "critters", "seats": seats, "name": name})
    assert made.status_code == 201, made.text
    return made.json()["code"], made.json()["token"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("bob\u200b", "invisible or control characters (found U+200B)"),
        ("\u202eboB", "invisible or control characters (found U+202E)"),
        ("b\u0007ob", "invisible or control characters (found U+0007)"),
        ("\u3164", "invisible or control characters (found U+1160)"),  # NFKC of U+3164
        ("b\u043eb", "looks too much like 'bob'"),  # Cyrillic o
        ("BOB", "looks too much like 'bob'"),
        ("B0B", "looks too much like 'bob'"),
        ("\uff42\uff4f\uff42", "'bob' is already taken"),  # full-width: NFKC makes it bob
        ("bob", "'bob' is already taken"),
        ("   ", "1 to 24 characters"),
        ("e\u0301\u0301\u0301\u0301", "more than two accents"),
    ],
)
def test_names_that_cannot_be_told_apart_are_refused(
    server: LiveServer, name: str, says: str
) -> None:
    with server.http() as http:
        code, _ = open_table(http)
        answer = http.post(f"/api/tables/{code}/join", json={"name": name})
        assert answer.status_code == 400
        assert says in answer.json()["detail"], answer.json()["detail"]
        seats = http.get(f"/api/tables/{code}").json()["seats"]
        assert [s["name"] for s in seats] == ["bob", None, None]


def test_names_are_shown_normalized(server: LiveServer) -> None:
    with server.http() as http:
        code, _ = open_table(http, name="\uff3a\uff4f\u00eb  \U0001d41b")  # Ｚｏë  𝐛
        joined = http.post(f"/api/tables/{code}/join", json={"name": "Zoe"})  # not a look-alike
        assert joined.status_code == 200
        seats = http.get(f"/api/tables/{code}").json()["seats"]
        assert [s["name"] for s in seats] == ["Zoë b", "Zoe", None]


def test_leaving_closes_every_socket_of_the_seat(server: LiveServer) -> None:
    """bob leaves with two sockets open; carol takes the seat; neither old socket hears her."""
    with server.http() as http:
        code, ann = open_table(http, name="ann", seats=2)
        bob = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()["token"]
        old = [TableSocket(server, code, bob), TableSocket(server, code, bob)]
        assert all(s.welcome["seat"] == 1 for s in old)
        assert http.post(f"/api/tables/{code}/leave", json={"token": bob}).status_code == 200
        for sock in old:
            gone = sock.wait(lambda m: m["type"] == "error", "being unseated")
            assert gone["code"] == "unseated"
            with pytest.raises(ConnectionClosed):
                sock.socket.recv(timeout=10)
        carol = http.post(f"/api/tables/{code}/join", json={"name": "carol"}).json()
        assert carol["seat"] == 1
        http.post(f"/api/tables/{code}/start", json={"token": ann})
    mine = TableSocket(server, code, carol["token"])
    assert mine.wait_state(lambda m: True)["view"]["hand"]  # carol's own socket sees her hand
    for sock in old:
        with pytest.raises(ConnectionClosed):
            sock.socket.send(json.dumps({"type": "action", "action": {"do": "pass"}}))
            sock.socket.recv(timeout=10)
        assert not any(m["type"] == "state" for m in sock.received)
    # the old token is worth nothing now
    assert TableSocket(server, code, bob).welcome["code"] == "bad_token"
    mine.close()


def test_watchers_are_capped_and_share_one_message(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three watchers take one public state message per change between them; a fourth is
    turned away (max_spectators=3)."""
    with server.http() as http:
        made = http.post(
            "/api/tables",
            json={
                "game": "critters",
                "seats": 2,
                "name": "ann",
                "bots": [{"bot": "greedy"}],
                "start": True,
            },
        ).json()
    code = made["code"]
    watchers = [TableSocket(server, code) for _ in range(3)]
    assert all(w.welcome["type"] == "welcome" for w in watchers)
    fourth = TableSocket(server, code)
    assert fourth.welcome["code"] == "full"
    shares: list[list[int]] = []  # each change: how many sockets each message went to
    real = wire.change_messages

    def counted(*args: Any, **kw: Any) -> list[tuple[list[Any], bytes]]:
        sends = real(*args, **kw)
        shares.append(sorted(len(conns) for conns, _ in sends))
        return sends

    monkeypatch.setattr(table, "change_messages", counted)
    ann = TableSocket(server, code, made["token"])
    state = ann.wait_state(lambda m: bool(m["legal"]), "ann's turn")
    ann.act(state["legal"][0], ref="go")
    ann.wait_ref("go")
    for w in watchers:
        w.wait_state(lambda m: m["seq"] >= state["seq"] + 1, "the watchers to see ann's move")
    assert shares
    assert all(share == [1, 3] for share in shares)  # ann's own, and one for the three watchers
    texts = {json.dumps(w.latest) for w in watchers}
    assert len(texts) == 1
    for sock in [*watchers, ann]:
        sock.close()


def test_the_message_limit_counts_bytes(server: LiveServer) -> None:
    with server.http() as http:
        code, token = open_table(http, name="ann", seats=2)
    sock = TableSocket(server, code, token)
    padding = "€" * (MAX_MESSAGE_BYTES // 3 + 40)  # 3 bytes each: under the limit in characters
    big = json.dumps({"type": "ping", "ref": "x", "pad": padding}, ensure_ascii=False)
    assert len(big) < MAX_MESSAGE_BYTES < len(big.encode())
    sock.send(big)
    assert sock.wait(lambda m: m["type"] == "error")["code"] == "too_large"
    sock.close()


def test_a_frame_too_big_to_buffer_closes_the_socket(server: LiveServer) -> None:
    with server.http() as http:
        code, token = open_table(http, name="ann", seats=2)
    sock = TableSocket(server, code, token)
    sock.send(json.dumps({"type": "ping", "ref": "x" * (WS_MAX_SIZE + 1)}))
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):  # what the table said before the frame, then the close
            sock.socket.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
