"""The load generator's end of the clock: a client whose answer comes at the very end stops."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any, cast

import orjson

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
