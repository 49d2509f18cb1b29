"""Request headers are bounded in bytes and in number, against a real ``bestiary serve``.

A flood of header bytes is answered 431 and cut once the head passes ``gate.MAX_HEAD_BYTES``
(uvicorn's httptools protocol would keep every byte until the header timeout), so four such
connections leave the server's memory where it was; a request or a socket's handshake with more
than ``app.MAX_HEADERS`` header lines is refused; ordinary requests are untouched.
"""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from bestiary.server.app import MAX_HEADERS
from bestiary.server.gate import MAX_HEAD_BYTES
from tests.serverproc import ServerProcess

FLOOD_BYTES = 20 * 1024 * 1024  # what each flooding connection tries to send


def flood(port: int) -> tuple[int, bytes]:
    """Send a request whose headers never end; how many bytes went before the server cut it,
    and what it answered."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(10)
    sent = 0
    chunk = b"".join(b"x-filler-%06d: %s\r\n" % (i, b"y" * 200) for i in range(300))
    try:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nhost: 127.0.0.1\r\n")
        while sent < FLOOD_BYTES:
            sock.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass  # the server cut the connection
    answer = b""
    try:
        while part := sock.recv(65536):
            answer += part
    except OSError:
        pass
    sock.close()
    return sent, answer


def test_a_flood_of_header_bytes_is_cut_and_memory_stays_put(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'h.sqlite'}", tmp_path / "server.log") as server:
        before = server.rss_mb()
        for _ in range(4):
            sent, answer = flood(server.port)
            assert sent < FLOOD_BYTES  # cut long before the end
            assert answer.startswith(b"HTTP/1.1 431 ")
        after = server.rss_mb()
        assert after - before < 20, f"RSS {before:.0f} -> {after:.0f} MiB"
        assert httpx.get(server.url + "/api/games", timeout=10).status_code == 200


def test_the_number_of_header_lines_is_bounded(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'n.sqlite'}", tmp_path / "server.log") as server:
        some = {f"x-h{i}": "v" for i in range(MAX_HEADERS - 10)}
        assert httpx.get(server.url + "/api/games", headers=some, timeout=10).status_code == 200
        many = {f"x-h{i}": "v" for i in range(MAX_HEADERS + 1)}
        refused = httpx.get(server.url + "/api/games", headers=many, timeout=10)
        assert refused.status_code == 431
        assert str(MAX_HEADERS) in refused.json()["detail"]
        try:
            with connect(server.ws_url + "/ws/ABCDEF", additional_headers=many, open_timeout=10):
                raise AssertionError("a handshake with too many headers was accepted")
        except InvalidStatus as refused_socket:
            assert refused_socket.response.status_code == 403
        # one header line just under the byte bound still passes
        big = {"x-big": "z" * (MAX_HEAD_BYTES - 2048)}
        assert httpx.get(server.url + "/api/games", headers=big, timeout=10).status_code == 200
