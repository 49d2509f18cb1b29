"""A socket's messages leave in the order the table made them, sent at once when the socket
can take them and queued when it cannot (flow control); a client that never reads is dropped
rather than left to grow the server's memory."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from bestiary.server import connection
from bestiary.server.connection import Connection
from bestiary.server.settings import ServerSettings
from tests.live import LiveServer, TableSocket
from tests.serverproc import ServerProcess


class FlowControlled:
    """An ASGI ``send`` whose client may stop reading (flow control): a send waits meanwhile."""

    def __init__(self) -> None:
        self.wire: list[str] = []
        self.reading = asyncio.Event()
        self.reading.set()

    async def __call__(self, message: dict[str, Any]) -> None:
        await self.reading.wait()
        self.wire.append(message["text"] if "text" in message else f"closed {message['code']}")


def test_messages_keep_their_order_across_a_full_buffer() -> None:
    async def run() -> list[list[str]]:
        send = FlowControlled()
        conn = Connection(send)  # type: ignore[arg-type]
        seen = []
        send.reading.clear()
        conn.send_text(b"1")  # the client reads nothing: its send waits
        send.reading.set()
        conn.send_text(b"2")  # the socket could take it, but "1" is still waiting: queued too
        seen.append(list(send.wire))
        for _ in range(3):
            await asyncio.sleep(0)  # the writer finishes "1", then sends "2"
        seen.append(list(send.wire))
        conn.send_text(b"3")  # nothing waits any more: written at once
        seen.append(list(send.wire))
        conn.close()
        await conn.finish(1)
        seen.append(send.wire)
        return seen

    before, drained, at_once, wire = asyncio.run(run())
    assert before == []
    assert drained == ["1", "2"]
    assert at_once == ["1", "2", "3"]  # no task switch: on the wire when send_text returns
    assert wire == ["1", "2", "3", "closed 1008"]


def test_a_client_whose_outbox_overflows_is_closed(monkeypatch: Any) -> None:
    monkeypatch.setattr(connection, "OUTBOX_LIMIT", 4)

    async def run() -> tuple[list[str], bool]:
        send = FlowControlled()
        conn = Connection(send)  # type: ignore[arg-type]
        send.reading.clear()
        for n in range(10):
            conn.send_text(str(n).encode())
        closed = conn.closed
        send.reading.set()
        await conn.finish(1)
        return send.wire, closed

    wire, closed = asyncio.run(run())
    assert closed
    assert wire == ["0", "closed 1008"]  # what waited behind the stuck send is dropped


@pytest.mark.parametrize("stock", [False, True], ids=["direct", "stock"])
def test_a_client_that_never_reads_is_dropped(
    tmp_path: Path, monkeypatch: Any, stock: bool
) -> None:
    monkeypatch.setattr(connection, "OUTBOX_LIMIT", 8)  # in this process only: see below
    limits = ServerSettings(stock_transport=stock)
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with LiveServer(db, rate=100_000, server=limits) as server:
        with server.http() as http:
            made = http.post("/api/tables", json={"game": "critters", "seats": 2, "name": "ann"})
            made.raise_for_status()
            code, token = made.json()["code"], made.json()["token"]
        # A raw socket that upgrades, says hello and then pings without ever reading: the
        # server's answers pile up in the kernel, then in its buffer, then in the outbox.
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before the window is set
        sock.connect(("127.0.0.1", server.port))
        sock.sendall(_upgrade(code))
        hello = orjson.dumps({"type": "hello", "token": token, "v": 1})
        sock.sendall(_masked_frame(hello))
        pings = _masked_frame(orjson.dumps({"type": "ping", "ref": "x" * 64})) * 100
        dropped = False
        deadline = time.monotonic() + 30
        sock.settimeout(5)
        while not dropped and time.monotonic() < deadline:
            try:
                sock.sendall(pings)  # its pongs fill the kernel's buffers first (megabytes)
            except TimeoutError:
                continue
            except OSError:
                dropped = True  # the server cut the connection
        sock.close()
        assert dropped, "a client that never read was kept for 30 s"
        # and the table still answers everyone else
        with server.http() as http:
            assert http.get(f"/api/tables/{code}").status_code == 200


def _masked_frame(payload: bytes) -> bytes:
    """One client-to-server text frame (clients must mask; a zero mask keeps it readable)."""
    size = len(payload)
    if size < 126:
        head = bytes([0x81, 0x80 | size])
    else:
        head = bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
    return head + b"\0\0\0\0" + payload


@pytest.mark.parametrize("stock", [False, True], ids=["direct", "stock"])
def test_a_message_whose_handling_fails_does_not_end_the_socket(
    tmp_path: Path, monkeypatch: Any, caplog: Any, stock: bool
) -> None:
    from bestiary.server import app

    handled = app.Reader.read

    def faulty(self: app.Reader, text: str | bytes) -> None:
        if "boom" in str(text):
            raise RuntimeError("a bug in handling one message")
        handled(self, text)

    monkeypatch.setattr(app.Reader, "read", faulty)
    limits = ServerSettings(stock_transport=stock)
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", server=limits) as server:
        with server.http() as http:
            made = http.post("/api/tables", json={"game": "critters", "seats": 2, "name": "ann"})
            made.raise_for_status()
        socket = TableSocket(server, made.json()["code"], made.json()["token"])
        socket.send({"type": "ping", "ref": "boom"})
        socket.send({"type": "ping", "ref": "after"})
        pong = socket.wait(lambda m: m["type"] == "pong", "the pong after the failure")
        assert pong["ref"] == "after"
        socket.socket.close()
    assert "could not be handled" in caplog.text


def test_a_ping_flood_that_never_reads_is_cut_off_with_memory_bounded(tmp_path: Path) -> None:
    """WebSocket ping frames (control frames) from a client that never reads: their pongs
    count against its budget, and it is cut off rather than grow the server (before: 72 to
    248 MB in 20 s, about 1 MB per MB sent, never freed while the client stayed)."""
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with ServerProcess(db, tmp_path / "log", server="idle_timeout=600") as server:
        with server.http() as http:
            made = http.post("/api/tables", json={"game": "critters", "seats": 2, "name": "ann"})
            made.raise_for_status()
            code = made.json()["code"]
            for _ in range(20):
                http.get("/api/tables")  # warm up: what a first request builds is not a leak
        before = server.rss_mb()
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        sock.sendall(_upgrade(code))
        sock.sendall(_masked_frame(orjson.dumps({"type": "hello", "v": 1})))
        ping = bytes([0x89, 0x80 | 125]) + b"\0\0\0\0" + b"p" * 125  # a masked ping frame
        chunk = ping * 8000  # 1 MB
        sent, dropped, peak = 0, False, before
        sock.settimeout(10)
        deadline = time.monotonic() + 60
        while sent < 200 * len(chunk) and time.monotonic() < deadline:
            try:
                sock.sendall(chunk)
            except TimeoutError:
                break  # not read for 10 s (a partly sent chunk cannot be resumed): not a cut
            except OSError:
                dropped = True  # the server cut the connection
                break
            sent += len(chunk)
            peak = max(peak, server.rss_mb())
        sock.close()
        peak = max(peak, server.rss_mb())
        print(f"sent {sent / 1e6:.0f} MB of pings; RSS {before:.0f} MB -> peak {peak:.0f} MB")
        assert dropped, f"a client that pinged {sent / 1e6:.0f} MB and never read was kept"
        assert peak - before < 40, "the server's memory grew with the flood"
        with server.http() as http:
            assert http.get(f"/api/tables/{code}").status_code == 200


def _upgrade(code: str) -> bytes:
    return (
        f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
