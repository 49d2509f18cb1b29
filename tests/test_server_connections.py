"""Connections cannot lock the server: timeouts, a total limit and a per-address limit.

Real sockets against the real server (uvicorn behind ``bestiary.server.gate``) on 127.0.0.1.
Floods come from other loopback source addresses (127.0.0.2, ...; the target is always
127.0.0.1) so the per-address limit can be told from the total one. Counts stay small.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from tests.live import LiveServer

WAIT = 15.0  # the most any test waits for the server to act (it acts after 1 s timeouts)


def open_socket(server: LiveServer, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(
        ("127.0.0.1", server.port), timeout=WAIT, source_address=(source, 0)
    )
    return sock


def closed_by_server(sock: socket.socket, within: float = WAIT) -> bool:
    """True if the server closes (or resets) the connection within ``within`` seconds."""
    sock.settimeout(within)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def still_open(sock: socket.socket) -> bool:
    sock.settimeout(0.05)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except TimeoutError:
        return True  # nothing to read, not closed
    except (ConnectionResetError, BrokenPipeError):
        return False


def get(server: LiveServer, path: str, source: str = "127.0.0.1") -> bytes:
    """One HTTP/1.1 GET on a fresh connection; the raw answer's status line."""
    with open_socket(server, source) as sock:
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    limits = ServerSettings(
        max_connections=20,
        max_per_address=10,
        header_timeout=1.0,
        hello_timeout=1.0,
        idle_timeout=1.0,
    )
    with LiveServer(f"sqlite:///{tmp_path / 'c.sqlite'}", TableSettings(), server=limits) as live:
        yield live


def test_silent_and_slowloris_connections_are_closed(server: LiveServer) -> None:
    silent = open_socket(server)
    slow = open_socket(server)
    slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
    with silent, slow:
        assert closed_by_server(silent)
        assert closed_by_server(slow)


def test_a_slow_body_is_closed(server: LiveServer) -> None:
    with open_socket(server) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        assert closed_by_server(sock)


def test_an_idle_kept_alive_connection_is_closed(server: LiveServer) -> None:
    with open_socket(server) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.settimeout(WAIT)
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        assert closed_by_server(sock)


def test_a_socket_that_never_says_hello_is_closed(server: LiveServer) -> None:
    with server.http() as http:
        code = http.post("/api/tables", json={"game": "wild", "seats": 2, "name": "ann"}).json()[
            "code"
        ]
    with connect(f"{server.ws_url}/ws/{code}", open_timeout=WAIT) as ws:
        error = json.loads(ws.recv(timeout=WAIT))
        assert error["type"] == "error" and error["code"] == "no_hello"
        with pytest.raises(Exception, match=r"1008|closed"):
            ws.recv(timeout=WAIT)


def test_idle_floods_never_lock_a_new_client_out(server: LiveServer) -> None:
    """40 silent connections against a limit of 20 (from 4 addresses, 10 each): at most 20 stay
    open, and a new client is still served at once, since it evicts the oldest idle one."""
    flood = [open_socket(server, f"127.0.0.{2 + i % 4}") for i in range(40)]
    try:
        assert get(server, "/api/games", "127.0.0.9") == b"HTTP/1.1 200 OK"
        time.sleep(0.2)  # let the server's closes reach us before counting
        assert sum(still_open(s) for s in flood) <= 20
    finally:
        for sock in flood:
            sock.close()


def test_one_address_cannot_take_every_connection(server: LiveServer) -> None:
    flood = [open_socket(server, "127.0.0.2") for _ in range(15)]
    try:
        time.sleep(0.2)
        assert sum(still_open(s) for s in flood) <= 10
        assert get(server, "/api/games", "127.0.0.3") == b"HTTP/1.1 200 OK"
    finally:
        for sock in flood:
            with contextlib.suppress(OSError):
                sock.close()


def test_a_trusted_proxy_is_not_held_to_the_per_address_limit(tmp_path: Path) -> None:
    """A proxy carries many clients on its own address: connections from a trusted network are
    counted in the total only (their clients are counted by forwarded address)."""
    limits = ServerSettings(max_per_address=10, trusted_proxies=("127.0.0.0/30",))
    with LiveServer(f"sqlite:///{tmp_path / 't.sqlite'}", server=limits) as server:
        proxy = [open_socket(server, "127.0.0.2") for _ in range(15)]
        stranger = [open_socket(server, "127.0.0.5") for _ in range(15)]
        try:
            time.sleep(0.2)
            assert sum(still_open(s) for s in proxy) == 15
            assert sum(still_open(s) for s in stranger) <= 10
        finally:
            for sock in proxy + stranger:
                sock.close()


def test_a_table_socket_that_answers_no_ping_is_closed(tmp_path: Path) -> None:
    """A socket says hello and then never answers the server's pings (a dead peer that TCP
    has not noticed): it is closed after the idle timeout."""
    limits = ServerSettings(idle_timeout=1.0, hello_timeout=10.0)
    with LiveServer(f"sqlite:///{tmp_path / 'p.sqlite'}", server=limits) as server:
        with server.http() as http:
            code = http.post("/api/tables", json={"game": "wild", "seats": 2, "name": "ann"})
        sock = _upgraded(server, code.json()["code"])
        sock.sendall(_client_frame(b'{"type": "hello", "v": 1}'))
        with sock:
            assert closed_by_server(sock)  # reads the welcome and the pings, answers none


def _upgraded(server: LiveServer, code: str) -> socket.socket:
    """A raw socket upgraded to a WebSocket on table ``code`` (its answer read, nothing more)."""
    sock = open_socket(server)
    sock.sendall(
        f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:  # byte by byte: a frame may follow at once
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101")
    return sock


def _client_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One masked, unfragmented frame as a client sends it."""
    mask = b"\x0a\x0b\x0c\x0d"
    size = len(payload)
    head = bytes([0x80 | opcode])
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 65536:
        head += bytes([0x80 | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + size.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class _ServerFrames:
    """The frames a server writes on a raw socket, read one by one (opcode, payload)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.buffer = sock, b""

    def _exactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            data = self.sock.recv(65536)
            assert data, "the server closed the connection"
            self.buffer += data
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def next(self) -> tuple[int, bytes]:
        first, second = self._exactly(2)
        size = second & 0x7F
        if size == 126:
            size = int.from_bytes(self._exactly(2), "big")
        elif size == 127:
            size = int.from_bytes(self._exactly(8), "big")
        return first & 0x0F, self._exactly(size)

    def message(self, kind: str) -> dict[str, object]:
        while True:
            opcode, payload = self.next()
            if opcode == 0x1 and json.loads(payload)["type"] == kind:
                return dict(json.loads(payload))


def test_messages_are_read_however_the_frames_arrive(tmp_path: Path) -> None:
    """The server reads a client's whole text frames itself (``gate``) and leaves the rest to
    websockets: frames written together, a frame cut into pieces, a control frame between two
    messages and a frame over the size limit all behave as websockets alone made them."""
    with LiveServer(f"sqlite:///{tmp_path / 'f.sqlite'}") as server:
        with server.http() as http:
            made = http.post("/api/tables", json={"game": "wild", "seats": 2, "name": "ann"})
        with _upgraded(server, made.json()["code"]) as sock:
            frames = _ServerFrames(sock)
            hello = json.dumps({"type": "hello", "v": 1, "token": made.json()["token"]})
            ping = {"type": "ping"}
            sock.sendall(  # two messages in one write
                _client_frame(hello.encode())
                + _client_frame(json.dumps({**ping, "ref": 1}).encode())
            )
            assert frames.message("welcome")["seat"] == 0
            assert frames.message("pong")["ref"] == 1
            cut = _client_frame(json.dumps({**ping, "ref": 2}).encode())
            for piece in (cut[:1], cut[1:3], cut[3:9], cut[9:]):  # one message in four reads
                sock.sendall(piece)
                time.sleep(0.05)
            assert frames.message("pong")["ref"] == 2
            sock.sendall(  # a control frame between messages: answered, in order
                _client_frame(json.dumps({**ping, "ref": 3}).encode())
                + _client_frame(b"are you there", opcode=0x9)
                + _client_frame(json.dumps({**ping, "ref": 4}).encode())
            )
            assert frames.message("pong")["ref"] == 3
            assert frames.next() == (0xA, b"are you there")
            assert frames.message("pong")["ref"] == 4
            sock.sendall(_client_frame(b" " * 70_000))  # over the frame limit: closed, 1009
            opcode, payload = frames.next()
            while opcode != 0x8:
                opcode, payload = frames.next()
            assert int.from_bytes(payload[:2], "big") == 1009
