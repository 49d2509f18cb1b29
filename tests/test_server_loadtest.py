"""The load generator: its clients, the frames their sockets read and write, its lobby calls."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any, cast

import orjson
import pytest
from typer.testing import CliRunner

from bestiary.bench.leanhttp import LeanHTTP, LobbyError
from bestiary.bench.leansocket import LeanSocket, lean_connect
from bestiary.bench.loadtest import Client, Level, Turns, _finish_plays, _run, _run_level
from bestiary.cli import app
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from tests.live import LiveServer


class FakeSocket:
    """A client socket fed by the test: what the client sends, and what it hears next."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.listener: Callable[[bytes | None], None] | None = None

    def send_now(self, payload: bytes) -> None:
        self.sent.append(orjson.loads(payload))

    def listen(self, listener: Callable[[bytes | None], None]) -> None:
        self.listener = listener

    def feed(self, message: dict[str, Any]) -> None:
        assert self.listener is not None
        self.listener(orjson.dumps(message))

    def actions(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == "action"]


def _state(seq: int, legal: list[dict[str, Any]], ref: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "state", "seq": seq, "legal": legal, "over": False}
    if ref is not None:
        message["ref"] = ref
    return message


async def _answer_just_before_the_clock() -> Level:
    """uvloop fires the level's timer up to a millisecond early: the table's clients are told to
    stop while the client's own clock still runs, and its answer arrives in that gap."""
    level = Level("critters", 1)
    client = Client(level, random.Random(1), stop_at=time.monotonic() + 3600)
    socket = FakeSocket()
    client.start(cast(LeanSocket, socket), "token")
    socket.feed(_state(1, [{"by": "p1", "do": "down", "card": "otter"}]))
    assert len(socket.actions()) == 1
    # the answer: its move is applied and it is now someone else's turn (nothing legal)
    asyncio.get_running_loop().call_later(0.05, socket.feed, _state(2, [], ref=client.ref))
    await _finish_plays(level, [client], stop_at=time.monotonic())
    return level


def test_a_client_answered_after_the_clock_stopped_is_done_not_stuck() -> None:
    level = asyncio.run(_answer_just_before_the_clock())
    assert level.errors == 0
    assert level.stuck == []
    assert level.moves == 1


async def _one_mover_at_a_table() -> tuple[list[int], list[int], Level]:
    """Two clients of a table sharing one turn (``--movers 1``), both told they may act."""
    level = Level("wild", 1)
    turns = Turns(1)
    clients = [Client(level, random.Random(i), time.monotonic() + 3600, turns) for i in range(2)]
    sockets = [FakeSocket(), FakeSocket()]
    for client, socket in zip(clients, sockets, strict=True):
        client.start(cast(LeanSocket, socket), "token")
    call = [{"by": "p", "do": "call", "call": "bear"}]
    for socket in sockets:
        socket.feed(_state(1, call))
    first = [len(s.actions()) for s in sockets]
    mover = first.index(1)
    # the mover's answer reaches both: now the other one may act, and the mover waits
    for i, socket in enumerate(sockets):
        socket.feed(_state(2, call, ref=clients[i].ref if i == mover else None))
    second = [len(s.actions()) for s in sockets]
    return first, second, level


def test_movers_limits_the_actions_a_table_has_in_flight() -> None:
    first, second, level = asyncio.run(_one_mover_at_a_table())
    assert sorted(first) == [0, 1]  # one of the two acted, the other waited its turn
    assert second == [1, 1]  # the answer freed the turn, and the other one took it
    assert level.moves == 1


async def _a_bad_message() -> Level:
    level = Level("critters", 1)
    client = Client(level, random.Random(1), stop_at=time.monotonic() + 3600)
    socket = FakeSocket()
    client.start(cast(LeanSocket, socket), "token")
    socket.feed({"type": "state", "seq": 1})  # no legal actions, no over
    await _finish_plays(level, [client], stop_at=time.monotonic() + 1)
    return level


def test_a_message_a_client_cannot_read_is_its_tables_error() -> None:
    level = asyncio.run(_a_bad_message())
    assert level.errors == 1
    assert "without its legal actions" in level.stuck[0][1][0]


def test_the_lean_socket_speaks_to_the_real_server(tmp_path: Path) -> None:
    """The load generator's client: handshake, a hello answered, a ping echoed, a clean close."""

    async def talk(server: LiveServer, token: str, code: str) -> list[dict[str, Any]]:
        socket = await lean_connect(f"{server.ws_url}/ws/{code}")
        await socket.send(orjson.dumps({"type": "hello", "v": 1, "token": token}).decode())
        await socket.send(orjson.dumps({"type": "ping", "ref": "p1"}).decode())
        seen: list[dict[str, Any]] = []
        async for text in socket:
            seen.append(orjson.loads(text))
            if seen[-1]["type"] == "pong":
                break
        await socket.close()
        return seen

    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}") as server:
        with server.http() as http:
            made = http.post("/api/tables", json={"game": "critters", "seats": 2, "name": "ann"})
            made.raise_for_status()
        seen = asyncio.run(talk(server, made.json()["token"], made.json()["code"]))
    kinds = [m["type"] for m in seen]
    assert kinds[0] == "welcome" and seen[0]["player"] == "ann"
    assert kinds[-1] == "pong" and seen[-1]["ref"] == "p1"


def test_the_lean_lobby_client_speaks_to_the_real_server(tmp_path: Path) -> None:
    """The load generator's lobby calls: a table made, a refusal answered with its status and
    reason, and one keep-alive connection reused for all of them."""

    async def talk(server: LiveServer) -> list[tuple[int, Any]]:
        host, port = server.url.removeprefix("http://").split(":")
        async with LeanHTTP(host, int(port), keepalive=30) as http:
            made = await http.post("/api/tables", {"game": "critters", "seats": 2, "name": "ann"})
            code = made[1]["code"]
            answers = [made, await http.post(f"/api/tables/{code}/join", {"name": "ann"})]
            answers.append(await http.get("/api/tables/NOSUCH"))
            answers.append((len(http._idle), None))
            return answers

    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}") as server:
        made, refused, missing, idle = asyncio.run(talk(server))
    assert made[0] == 201 and made[1]["seat"] == 0 and made[1]["token"]
    assert refused[0] == 400 and "already taken" in refused[1]["detail"]
    assert missing[0] == 404
    assert idle[0] == 1  # every call went over the one connection


def test_the_lean_lobby_client_retries_a_connection_closed_while_idle() -> None:
    """A server may close an idle keep-alive connection at any time: the next call does not get
    lost on it (the closed connection is dropped, or the call fails on it and is sent again on
    a new one)."""

    async def run() -> tuple[list[tuple[int, Any]], int]:
        accepted = 0

        async def answer_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal accepted
            accepted += 1
            await reader.readuntil(b"\r\n\r\n")
            body = orjson.dumps({"n": accepted})
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()
            writer.close()  # no "Connection: close": the client only learns on its next call

        server = await asyncio.start_server(answer_once, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server, LeanHTTP("127.0.0.1", port, keepalive=30) as http:
            first = await http.get("/")
            await asyncio.sleep(0.05)  # the server's close reaches the client
            second = await http.get("/")
        return [first, second], accepted

    answers, accepted = asyncio.run(run())
    assert answers == [(200, {"n": 1}), (200, {"n": 2})]
    assert accepted == 2


def test_the_lean_lobby_client_says_what_went_wrong() -> None:
    async def run() -> str:
        async def not_http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"SSH-2.0-OpenSSH\r\n\r\n")
            writer.close()

        server = await asyncio.start_server(not_http, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server, LeanHTTP("127.0.0.1", port) as http:
            try:
                await http.post("/api/tables", {})
            except LobbyError as err:
                return str(err)
        return "no error"

    assert "not an HTTP response" in asyncio.run(run())


def test_bench_server_refuses_a_negative_movers_before_starting_anything() -> None:
    result = CliRunner().invoke(app, ["bench", "server", "--movers", "-1"])
    assert result.exit_code != 0
    assert "--movers should be 0 or more, not -1" in result.output


class Wire:
    """The transport under a LeanSocket: what it writes, and whether it was closed."""

    def __init__(self) -> None:
        self.written = b""
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def can_write_eof(self) -> bool:
        return False


def _server_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A frame as a server sends it: unmasked."""
    size = len(payload)
    first = (0x80 if fin else 0) | opcode
    if size < 126:
        return bytes((first, size)) + payload
    if size < 65536:
        return bytes((first, 126)) + size.to_bytes(2, "big") + payload
    return bytes((first, 127)) + size.to_bytes(8, "big") + payload


def _client_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The client's frames (opcode, unmasked payload); each must be final and masked."""
    frames = []
    while data:
        assert data[0] & 0xF0 == 0x80 and data[1] & 0x80  # FIN, no extension bits; masked
        size, at = data[1] & 0x7F, 2
        if size >= 126:
            at = 4 if size == 126 else 10
            size = int.from_bytes(data[2:at], "big")
        mask, payload = data[at : at + 4], data[at + 4 : at + 4 + size]
        frames.append((data[0] & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(payload))))
        data = data[at + 4 + size :]
    return frames


async def _lean_socket_over(chunks: list[bytes]) -> tuple[list[bytes | None], Wire, bool]:
    """A LeanSocket opened on a ``Wire``; the server's answer, then ``chunks``, come in."""
    from websockets.utils import accept_key

    socket = LeanSocket("ws://127.0.0.1:1/ws/ABCDEF")
    wire = Wire()
    socket.connection_made(cast(asyncio.Transport, wire))
    request = wire.written.decode()
    key = request.split("Sec-WebSocket-Key: ")[1].split("\r\n")[0]
    wire.written = b""
    heard: list[bytes | None] = []
    socket.listen(heard.append)
    answer = (
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Accept: {accept_key(key)}\r\n\r\n"
    ).encode()
    socket.data_received(answer[:20])  # the answer's head in two parts, a frame right after
    socket.data_received(answer[20:] + chunks[0])
    opened = socket.opened.done() and socket.opened.exception() is None
    for chunk in chunks[1:]:
        socket.data_received(chunk)
    return heard, wire, opened


def test_the_lean_socket_reads_frames_however_the_bytes_come() -> None:
    """Messages of every length field, a fragmented one, frames cut anywhere, a ping (answered
    with its pong) and a close (answered with a close frame, then the socket ends)."""
    long = b'{"view":"' + b"x" * 70_000 + b'"}'
    stream = (
        _server_frame(0x1, b'{"type":"welcome"}')
        + _server_frame(0x1, b"[" + b"1," * 200 + b"1]")
        + _server_frame(0x9, b"beat")
        + _server_frame(0x1, b'{"a":', fin=False)
        + _server_frame(0x0, b'"b"}')
        + _server_frame(0x1, long)
        + _server_frame(0x8, (1001).to_bytes(2, "big"))
    )
    cuts = [0, 5, 20, 21, 300, 450, 70_000, len(stream)]
    chunks = [stream[a:b] for a, b in pairwise(cuts)]
    heard, wire, opened = asyncio.run(_lean_socket_over(chunks))
    assert opened
    assert heard == [
        b'{"type":"welcome"}', b"[" + b"1," * 200 + b"1]", b'{"a":"b"}', long, None
    ]  # fmt: skip
    assert _client_frames(wire.written) == [(0xA, b"beat"), (0x8, b"")]
    assert wire.closed


def test_the_lean_socket_masks_what_it_sends() -> None:
    async def run() -> bytes:
        socket = LeanSocket("ws://127.0.0.1:1/ws/ABCDEF")
        wire = Wire()
        socket.transport = cast(asyncio.Transport, wire)
        for size in (3, 200, 70_000):
            socket.send_now(b"y" * size)
        return wire.written

    assert _client_frames(asyncio.run(run())) == [(0x1, b"y" * n) for n in (3, 200, 70_000)]


def test_the_lean_socket_ends_on_a_masked_frame_from_the_server() -> None:
    masked = bytes((0x81, 0x80 | 2)) + b"\x00\x00\x00\x00" + b"{}"
    heard, wire, _ = asyncio.run(_lean_socket_over([masked]))
    assert heard == [None]
    assert _client_frames(wire.written) == [(0x8, (1002).to_bytes(2, "big"))]
    assert wire.closed


def test_a_level_against_the_real_server_counts_every_answered_move(tmp_path: Path) -> None:
    """The whole generator, for a short level of each game (wild with one action in flight a
    table): every move counted has its latency, no table fails, the idle probe is answered, and
    critters' tables play games to their end and are replaced through the lobby."""
    limits = ServerSettings(
        max_connections=5000, max_per_address=5000, tables_per_minute=1e6, joins_per_minute=1e6,
        seats_per_address=10**6,
    )  # fmt: skip
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with LiveServer(db, TableSettings(grace_seconds=3600), rate=5000.0, server=limits) as server:
        critters = _run(_run_level(server.url, "critters", 3, 3.0, []))
        wild = _run(_run_level(server.url, "wild", 2, 2.0, [], movers=1))
    for level in (critters, wild):
        assert (level.errors, level.stuck) == (0, [])
        assert level.moves > 0 and len(level.latencies) == level.moves
        assert level.probe
    assert critters.games >= 1


def test_bench_server_without_msgspec_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "msgspec", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "bestiary.bench.loadtest")
    result = CliRunner().invoke(app, ["bench", "server", "--tables", "1"])
    assert result.exit_code != 0
    assert "bench server needs msgspec: pip install 'bestiary[bench]'" in result.output
