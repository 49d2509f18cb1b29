"""The load generator's end of the clock: a client whose answer comes at the very end stops."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any, cast

import orjson
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.server.leanhttp import LeanHTTP, LobbyError
from bestiary.server.leansocket import LeanSocket, lean_connect
from bestiary.server.live import LiveServer
from bestiary.server.loadtest import Client, Level, _finish_plays


class FakeSocket:
    """A client socket fed by the test: what the client sends, and what it reads next."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self.acted = asyncio.Event()

    async def send(self, text: str) -> None:
        message = orjson.loads(text)
        self.sent.append(message)
        if message["type"] == "action":
            self.acted.set()

    def __aiter__(self) -> FakeSocket:
        return self

    async def __anext__(self) -> str:
        return await self.inbox.get()

    def feed(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait(orjson.dumps(message).decode())

    def arrived(self) -> list[str]:
        texts = []
        while not self.inbox.empty():
            texts.append(self.inbox.get_nowait())
        return texts

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
    play = asyncio.ensure_future(client.play(cast(LeanSocket, socket), "token"))
    socket.feed(_state(1, [{"by": "p1", "do": "down", "card": "otter"}]))
    await socket.acted.wait()
    # the answer: its move is applied and it is now someone else's turn (nothing legal)
    asyncio.get_running_loop().call_later(0.05, socket.feed, _state(2, [], ref=client.ref))
    await _finish_plays(level, [client], [play], stop_at=time.monotonic())
    return level


def test_a_client_answered_after_the_clock_stopped_is_done_not_stuck() -> None:
    level = asyncio.run(_answer_just_before_the_clock())
    assert level.errors == 0
    assert level.stuck == []
    assert level.moves == 1


async def _one_mover_at_a_table() -> tuple[list[int], list[int], Level]:
    """Two clients of a table sharing one turn (``--movers 1``), both told they may act."""
    level = Level("wild", 1)
    turns = asyncio.Semaphore(1)
    clients = [Client(level, random.Random(i), time.monotonic() + 3600, turns) for i in range(2)]
    sockets = [FakeSocket(), FakeSocket()]
    plays = [
        asyncio.ensure_future(c.play(cast(LeanSocket, s), "token"))
        for c, s in zip(clients, sockets, strict=True)
    ]
    call = [{"by": "p", "do": "call", "call": "bear"}]
    for socket in sockets:
        socket.feed(_state(1, call))
    await asyncio.sleep(0.05)
    first = [len(s.actions()) for s in sockets]
    mover = first.index(1)
    # the mover's answer reaches both: now the other one may act, and the mover waits
    for i, socket in enumerate(sockets):
        socket.feed(_state(2, call, ref=clients[i].ref if i == mover else None))
    await asyncio.sleep(0.05)
    second = [len(s.actions()) for s in sockets]
    for play in plays:
        play.cancel()
    return first, second, level


def test_movers_limits_the_actions_a_table_has_in_flight() -> None:
    first, second, level = asyncio.run(_one_mover_at_a_table())
    assert sorted(first) == [0, 1]  # one of the two acted, the other waited its turn
    assert second == [1, 1]  # the answer freed the turn, and the other one took it
    assert level.moves == 1


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
