"""One client socket: an outbox drained by its own writer, and a flood limit on what it sends.

The table actor never waits on a socket. A message is written at once when the socket can take
it (the server's own protocol offers that, see ``gate.DIRECT``: no task switch per message, which
was a fifth of a move's cost), else dropped into the outbox, in order; a client too slow to keep
up with a bounded outbox is disconnected rather than slowing the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from bestiary.server.buckets import Bucket
from bestiary.server.gate import DIRECT
from bestiary.server.wire import encode

OUTBOX_LIMIT = 512
_CLOSE = b""  # sentinel in the outbox: close the socket


class Connection:
    """A WebSocket seen from the server: who it is (``seat``) and how to reach it."""

    def __init__(
        self, websocket: WebSocket | None, rate: float = 100.0, burst: float = 200.0
    ) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.closed = False
        self._flood = Bucket(rate, burst)
        # messages in the outbox or being sent by the writer (not ``outbox.empty()``, a Python
        # call per message and seat)
        self._waiting = 0
        self.direct: Callable[[bytes], bool] | None = None
        self._drop: Callable[[], None] | None = None
        self._read: Callable[[Callable[[str | bytes], None] | None], None] | None = None
        if websocket is not None:
            extension = websocket.scope.get("extensions", {}).get(DIRECT)
            if extension is not None:
                self.direct, self._drop = extension["send"], extension["drop"]
                self._read = extension["read"]

    def read_directly(self, reader: Callable[[str | bytes], None] | None) -> None:
        """Have each message read by ``reader`` as it arrives, where the protocol can (None:
        no more); what arrived before, and the end of the socket, still come through ASGI."""
        if self._read is not None:
            self._read(reader)

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: bytes) -> None:
        """Send one text message (its UTF-8 bytes: ``protocol.encode``)."""
        if self.closed:
            return
        if self.direct is not None and not self._waiting and self.direct(text):
            return  # written at once: nothing was waiting before it
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            # Too slow to follow the table (it can reconnect and catch up). It reads nothing,
            # so a closing handshake would wait behind the queue forever: cut the connection.
            self.close()
            if self._drop is not None:
                self._drop()
            return
        self._waiting += 1
        self.outbox.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(_CLOSE)

    def allow(self) -> bool:
        """False when the client sends faster than the flood limit."""
        return self._flood.take()

    async def write_loop(self) -> None:
        """Send the outbox in order until closed or until the client has gone.

        A client that has gone is the normal end of a socket, not an error: the task ends quietly
        rather than keep an exception whose traceback holds this socket's frames in a reference
        cycle (thousands of those per minute under load made for long full collections).
        """
        assert self.websocket is not None
        try:
            while True:
                text = await self.outbox.get()
                if text == _CLOSE:
                    await self.websocket.close(code=1008)
                    return
                await self.websocket.send_text(text.decode())
                self._waiting -= 1
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True  # starlette: peer gone, or already closed (a RuntimeError)
