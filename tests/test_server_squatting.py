"""Seats cannot be squatted, and every per-address limit counts an IPv6 client by its /64
(docs/reliability.md, "Limits and timeouts"). Against ``bestiary serve`` in its own process,
behind a trusted proxy (127.0.0.1) so that each request names its client in
``X-Forwarded-For``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.live import TableSocket
from tests.serverproc import ServerProcess

LIMITS = (
    "trusted_proxies=('127.0.0.1',), seats_per_address=3, joins_per_minute=4,"
    " tables_per_minute=10, max_per_address=5"
)
HOST = {"x-forwarded-for": "203.0.113.1"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(
        f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path / "log", server=LIMITS
    ) as proc:
        yield proc


def _open(http: httpx.Client, seats: int = 8, **more: object) -> tuple[str, str]:
    made = http.post(
        "/api/tables",
        json={"game": "critters", "seats": seats, "name": "host", **more},
        headers=HOST,
    )
    assert made.status_code == 201, made.text
    return made.json()["code"], made.json()["token"]


def _join(http: httpx.Client, code: str, name: str, address: str) -> httpx.Response:
    return http.post(
        f"/api/tables/{code}/join", json={"name": name}, headers={"x-forwarded-for": address}
    )


def test_one_address_cannot_squat_the_seats(server: ServerProcess) -> None:
    squatter = "198.51.100.7"
    with server.http() as http:
        code, _ = _open(http)
        tokens = []
        for i in range(3):
            joined = _join(http, code, f"s{i}", squatter)
            assert joined.status_code == 200, joined.text
            tokens.append(joined.json()["token"])
        capped = _join(http, code, "s3", squatter)
        assert capped.status_code == 429
        assert capped.json()["detail"] == (
            "your address already holds 3 seats at open tables and games in play; "
            "leave one or finish a game first."
        )
        left = http.post(f"/api/tables/{code}/leave", json={"token": tokens.pop()})
        assert left.status_code == 200
        too_fast = _join(http, code, "s4", squatter)  # its fifth join within the minute
        assert too_fast.status_code == 429 and "Retry-After" in too_fast.headers
        assert too_fast.json()["detail"].startswith("too many seats taken from your address")
        friend = _join(http, code, "friend", "192.0.2.5")  # the friend still finds a seat
        assert friend.status_code == 200, friend.text


def test_the_host_removes_a_squatter_before_the_start(server: ServerProcess) -> None:
    with server.http() as http:
        code, host = _open(http, seats=3)
        squat = _join(http, code, "squat", "198.51.100.8").json()
        sock = TableSocket(server.live(), code, squat["token"])
        assert (
            http.post(
                f"/api/tables/{code}/remove", json={"token": squat["token"], "seat": 0}
            ).json()["detail"]
            == "only the host (the first seat) can remove a player."
        )
        removed = http.post(f"/api/tables/{code}/remove", json={"token": host, "seat": 1})
        assert removed.status_code == 200, removed.text
        assert removed.json()["seats"][1]["name"] is None
        unseated = sock.wait(lambda m: m["type"] == "error" and m["code"] == "unseated")
        assert unseated["message"] == "the host gave your seat to someone else."
        again = http.post(f"/api/tables/{code}/leave", json={"token": squat["token"]})
        assert again.json()["detail"] == "that seat token does not belong to this table."
        assert _join(http, code, "friend", "192.0.2.6").status_code == 200


def test_a_player_who_stays_away_after_the_start_loses_the_seat_to_a_bot(
    server: ServerProcess,
) -> None:
    with server.http() as http:
        code, host = _open(http, seats=3)
        here = TableSocket(server.live(), code, host)
        away = _join(http, code, "away", "198.51.100.9").json()["token"]
        present = _join(http, code, "present", "198.51.100.10").json()["token"]
        there = TableSocket(server.live(), code, present)
        assert http.post(f"/api/tables/{code}/start", json={"token": host}).status_code == 200
        refused = http.post(f"/api/tables/{code}/remove", json={"token": host, "seat": 2})
        assert refused.json()["detail"] == (
            "present is at the table; only a player who stays away can be replaced."
        )
        removed = http.post(f"/api/tables/{code}/remove", json={"token": host, "seat": 1})
        assert removed.status_code == 200, removed.text
        seat = removed.json()["seats"][1]
        assert seat["name"] == "away" and seat["bot"] is not None
        back = TableSocket(server.live(), code, away)  # the old token no longer seats anyone
        assert back.welcome["type"] == "error" and back.welcome["code"] == "bad_token"
        for sock in (here, there, back):
            sock.close()


def test_an_ipv6_64_is_one_client(server: ServerProcess) -> None:
    addresses = [f"2001:db8:1:2::{i:x}" for i in range(1, 15)]  # 14 addresses, one /64
    with server.http() as http:
        answers = [
            http.post(
                "/api/tables",
                json={"game": "critters", "seats": 2, "name": "ann"},
                headers={"x-forwarded-for": address},
            ).status_code
            for address in addresses
        ]
        assert answers.count(201) == 3  # seats_per_address: the host's seat counts
        assert answers.count(429) == 11
        other = http.post(
            "/api/tables",
            json={"game": "critters", "seats": 2, "name": "ann"},
            headers={"x-forwarded-for": "2001:db8:1:3::1"},  # the next /64: its own limits
        )
        assert other.status_code == 201
        code = other.json()["code"]
    opened, refused = [], 0
    for address in addresses[:8]:
        ws = connect(
            f"{server.ws_url}/ws/{code}", additional_headers={"x-forwarded-for": address}
        ).__enter__()
        try:
            ws.send(json.dumps({"type": "hello", "v": 1}))
            message = json.loads(ws.recv(timeout=10))
        except ConnectionClosed as closed:  # refused at once, before its hello was read
            assert closed.rcvd is not None and closed.rcvd.code == 1013
            message = {"type": "error", "code": "too_many"}
        if message["type"] == "error" and message["code"] == "too_many":
            refused += 1
            ws.close()
        else:
            opened.append(ws)
    assert len(opened) == 5 and refused == 3  # max_per_address sockets for the whole /64
    for ws in opened:
        ws.close()


def test_new_tables_are_limited_per_64(tmp_path: Path) -> None:
    """Before: 20 tables in a second from 14 addresses of one /64 (limit 10 a minute)."""
    limits = "trusted_proxies=('127.0.0.1',), seats_per_address=100, tables_per_minute=10"
    db = f"sqlite:///{tmp_path / 'db'}"
    with ServerProcess(db, tmp_path / "log", server=limits) as proc, proc.http() as http:
        answers = [
            http.post(
                "/api/tables",
                json={"game": "critters", "seats": 2, "name": "ann"},
                headers={"x-forwarded-for": f"2001:db8:9:9:{i:x}::1"},
            ).status_code
            for i in range(1, 15)
        ]
    assert answers == [201] * 10 + [429] * 4
