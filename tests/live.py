"""A real server on 127.0.0.1 in a background thread, and a blocking table client.

Tests, browser tests and examples use these to talk to the real app over real sockets
(uvicorn, lifespan on, a real database), waiting for conditions rather than sleeping.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from bestiary.bench.loadtest import free_port
from bestiary.server.app import create_app
from bestiary.server.run import uvicorn_config
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings

Message = dict[str, Any]


class LiveServer:
    """``with LiveServer(db_url) as server:`` serves at ``server.url`` until the block ends."""

    def __init__(
        self,
        db_url: str,
        settings: TableSettings | None = None,
        port: int | None = None,
        rate: float = 100.0,
        server: ServerSettings | None = None,
    ) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        app = create_app(db_url, settings, rate=rate, server=server)
        app.state.bind = ("127.0.0.1", self.port)  # as `bestiary serve` records it
        self.app = app
        self._server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", self.port, server))
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=20)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)


class TableSocket:
    """One client's socket to a table; every read waits at most ``timeout`` seconds."""

    def __init__(
        self, server: LiveServer, code: str, token: str | None = None, timeout: float = 10.0
    ) -> None:
        self.timeout = timeout
        self.socket: ClientConnection = connect(
            f"{server.ws_url}/ws/{code}", open_timeout=timeout, max_size=None
        ).__enter__()
        self.received: list[Message] = []
        self.latest: Message | None = None  # the latest `state` message
        self.send({"type": "hello", "v": 1, "token": token})
        self.welcome = self.wait(lambda m: m["type"] in ("welcome", "error"))

    def send(self, message: Message | str) -> None:
        self.socket.send(message if isinstance(message, str) else json.dumps(message))

    def act(self, action: Message, ref: int | str | None = None) -> None:
        self.send({"type": "action", "action": action, "ref": ref})

    def recv(self) -> Message:
        message: Message = json.loads(self.socket.recv(timeout=self.timeout))
        self.received.append(message)
        if message["type"] == "state":
            self.latest = message
        return message

    def wait(self, done: Callable[[Message], bool], what: str = "a message") -> Message:
        """Read messages until one satisfies ``done``; TimeoutError names what was awaited."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                message = self.recv()
            except TimeoutError:
                break
            if done(message):
                return message
        raise TimeoutError(f"waited {self.timeout} s for {what}")

    def wait_state(self, done: Callable[[Message], bool], what: str = "a state") -> Message:
        if self.latest is not None and done(self.latest):
            return self.latest
        return self.wait(lambda m: m["type"] == "state" and done(m), what)

    def wait_ref(self, ref: int | str) -> Message:
        """The answer to the request sent with ``ref`` (its new state, or an error)."""
        return self.wait(lambda m: m.get("ref") == ref, f"an answer to {ref!r}")

    def wait_past(self, seq: int) -> Message:
        """The first state after ``seq``."""
        return self.wait_state(lambda m: bool(m["seq"] > seq), f"a state past {seq}")

    def close(self) -> None:
        self.socket.close()
