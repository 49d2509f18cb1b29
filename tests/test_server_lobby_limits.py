"""The lobby under strangers: bodies capped before they are read, new tables rate-limited per
address (the real one, behind a proxy the operator trusts), open tables expire, lists paged."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from pathlib import Path
from typing import Any

import sqlalchemy
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bestiary.server.settings import ServerSettings
from bestiary.server.store import Store
from bestiary.server.table import TableSettings
from tests.live import LiveServer

NEW = {"game": "wild", "seats": 2, "name": "ann"}


def raw_request(server: LiveServer, head: bytes, chunks: list[bytes]) -> tuple[bytes, int]:
    """Send ``head`` then ``chunks`` one by one while the server lets us; return its status line
    and how many chunks went out before it answered."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head)
        sent = 0
        sock.settimeout(0.2)
        for chunk in chunks:
            try:
                answer = sock.recv(4096)
            except TimeoutError:
                sock.sendall(chunk)
                sent += 1
                continue
            return answer.split(b"\r\n", 1)[0], sent
        sock.settimeout(10)
        return sock.recv(4096).split(b"\r\n", 1)[0], sent


def test_a_body_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'b.sqlite'}") as server:
        declared = (
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 300000000\r\n\r\n"
        )
        status, sent = raw_request(server, declared, [b"x" * 65536] * 50)
        assert status == b"HTTP/1.1 413 Request Entity Too Large" and sent == 0
        chunked = (
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"400\r\n" + b" " * 1024 + b"\r\n"
        status, sent = raw_request(server, chunked, [chunk] * 50)
        assert status == b"HTTP/1.1 413 Request Entity Too Large" and 4 <= sent < 10
        with server.http() as http:
            refused = http.post("/api/tables", json={**NEW, "options": {"x": "y" * 5000}})
            assert refused.status_code == 413
            assert refused.json()["detail"] == "a request body may be at most 4096 bytes."
            assert http.post("/api/tables", json=NEW).status_code == 201


def test_new_tables_are_rate_limited_per_address(tmp_path: Path) -> None:
    limits = ServerSettings(tables_per_minute=3)
    with (
        LiveServer(f"sqlite:///{tmp_path / 'r.sqlite'}", server=limits) as server,
        server.http() as http,
    ):
        codes = [http.post("/api/tables", json=NEW).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        again = http.post("/api/tables", json=NEW)
        assert again.json()["detail"] == (
            "too many new tables from your address; try again in a minute."
        )
        assert 1 <= int(again.headers["retry-after"]) <= 20
        # not a trusted proxy: a forged X-Forwarded-For changes nothing
        forged = http.post("/api/tables", json=NEW, headers={"x-forwarded-for": "198.51.100.7"})
        assert forged.status_code == 429


def test_behind_a_trusted_proxy_each_client_has_its_own_limit(tmp_path: Path) -> None:
    limits = ServerSettings(tables_per_minute=2, trusted_proxies=("127.0.0.1",))
    with (
        LiveServer(f"sqlite:///{tmp_path / 'p.sqlite'}", server=limits) as server,
        server.http() as http,
    ):

        def create(client: str) -> int:
            headers = {"x-forwarded-for": client, "x-forwarded-proto": "https"}
            return http.post("/api/tables", json=NEW, headers=headers).status_code

        assert [create("203.0.113.5") for _ in range(3)] == [201, 201, 429]
        assert [create("203.0.113.6") for _ in range(3)] == [201, 201, 429]


def test_open_tables_nobody_starts_expire(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'e.sqlite'}"
    limits = ServerSettings(open_table_seconds=1.0)
    with (
        LiveServer(db, TableSettings(tick_seconds=0.01), server=limits) as server,
        server.http() as http,
    ):
        idle = http.post("/api/tables", json=NEW).json()["code"]
        started = http.post(
            "/api/tables", json={**NEW, "bots": [{"bot": "random"}], "start": True}
        ).json()["code"]
        deadline = time.monotonic() + 20
        while http.get(f"/api/tables/{idle}").status_code != 404:
            assert time.monotonic() < deadline, "the open table never expired"
            time.sleep(0.1)
        assert http.get(f"/api/tables/{started}").status_code == 200
        assert http.get("/api/tables").json()["total"]["open"] == 0
    store = Store(db)
    assert [t.code for t in store.load(["open"])] == []
    store.close()


def test_the_lobby_is_paged(tmp_path: Path) -> None:
    limits = ServerSettings(tables_per_minute=600, joins_per_minute=6000, seats_per_address=1000)
    with (
        LiveServer(f"sqlite:///{tmp_path / 'l.sqlite'}", server=limits) as server,
        server.http() as http,
    ):
        made = [http.post("/api/tables", json=NEW).json()["code"] for _ in range(5)]
        first = http.get("/api/tables", params={"limit": 2}).json()
        second = http.get("/api/tables", params={"limit": 2, "offset": 2}).json()
        last = http.get("/api/tables", params={"limit": 2, "offset": 4}).json()
        assert first["total"] == {"open": 5, "playing": 0}
        pages = [t["code"] for page in (first, second, last) for t in page["open"]]
        assert pages == made[::-1]  # newest first, each once
        assert http.get("/api/tables", params={"limit": 1000}).status_code == 400


def test_table_sockets_are_counted_by_the_forwarded_address(tmp_path: Path) -> None:
    """Behind a trusted proxy every client arrives from the proxy's address; the limit on table
    sockets per address counts each client's forwarded address instead."""
    limits = ServerSettings(max_per_address=2, trusted_proxies=("127.0.0.1",))
    with (
        LiveServer(f"sqlite:///{tmp_path / 'w.sqlite'}", server=limits) as server,
        server.http() as http,
        contextlib.ExitStack() as sockets,
    ):
        code = http.post("/api/tables", json=NEW).json()["code"]

        def watch(client: str) -> dict[str, object]:
            ws = sockets.enter_context(
                connect(
                    f"{server.ws_url}/ws/{code}",
                    additional_headers={"x-forwarded-for": client},
                    open_timeout=10,
                )
            )
            with contextlib.suppress(ConnectionClosed):  # a refused socket may be closing
                ws.send(json.dumps({"type": "hello", "v": 1}))
            answer: dict[str, object] = json.loads(ws.recv(timeout=10))
            return answer

        first = [watch("203.0.113.5") for _ in range(3)]
        assert [m["type"] for m in first] == ["welcome", "welcome", "error"]
        assert first[2]["code"] == "too_many"
        assert watch("203.0.113.6")["type"] == "welcome"


def finished_games(store: Store, count: int, start: int = 0) -> None:
    """``count`` finished games stored as the lobby lists them (two pairs finish at once)."""
    for n in range(start, start + count):
        store.save_table(
            {
                "code": f"F{n:05d}",
                "game": "critters",
                "options": {},
                "seats": [{"name": "ann"}, {"name": "bo"}],
                "status": "finished",
                "header": None,
                "winners": ["ann"],
                "created": 1000.0 + n,
                "started": 1000.0 + n,
                "finished": 2000.0 + n // 2,
            }
        )
    store.flush()


def test_finished_games_page_by_cursor_each_once_newest_first(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'f.sqlite'}"
    store = Store(db)
    finished_games(store, 250)
    store.close()
    with LiveServer(db) as server, server.http() as http:
        seen: list[str] = []
        page = http.get("/api/tables", params={"limit": 100}).json()
        while True:
            seen += [game["code"] for game in page["finished"]]
            if page["next"] is None:
                break
            page = http.get("/api/tables", params={"limit": 100, "before": page["next"]}).json()
        newest_first = sorted(
            (f"F{n:05d}" for n in range(250)), key=lambda c: (int(c[1:]) // 2, c), reverse=True
        )
        assert seen == newest_first
        by_offset = http.get("/api/tables", params={"limit": 100, "offset": 100}).json()
        assert [game["code"] for game in by_offset["finished"]] == seen[100:200]
        for bad in ("x", "nan~F00001", "2000.0~f00001", "inf~A", "2000.0~"):
            refused = http.get("/api/tables", params={"before": bad})
            assert refused.status_code == 400
            assert refused.json()["detail"] == (
                "bad request: before must be the 'next' of a listing's page of finished games."
            )


def test_a_page_of_finished_games_is_read_from_the_index_not_sorted(tmp_path: Path) -> None:
    # what makes a page cost the same at 100 and 100,000 finished games (docs/reliability.md)
    store = Store(f"sqlite:///{tmp_path / 'p.sqlite'}")
    finished_games(store, 50)
    said: list[tuple[str, Any]] = []
    sqlalchemy.event.listen(
        store.engine,
        "before_cursor_execute",
        lambda _c, _cur, sql, params, *_: said.append((sql, params)),
    )
    for offset, before in ((0, None), (20, None), (0, (2010.0, "F00021"))):
        said.clear()
        store.finished(10, offset, before)
        ((sql, params),) = said
        with store.engine.connect() as conn:
            plan = " / ".join(
                row[-1] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", params)
            )
        assert "tables_status_finished" in plan and "TEMP B-TREE" not in plan, plan
    store.close()
