"""One client socket as the table sees it: what the table sends it, in order and without ever
waiting on it, and a flood limit on what it sends.

A message goes out through the socket's ASGI ``send``. The table's actor never waits on a
socket, so each ``send`` is run at once only as far as it goes without waiting (while the
client reads, all the way: no task switch per message); the first one that would wait (flow
control: the client reads too slowly) is finished by the socket's own writer task, and the
messages after it wait in order behind it. A client too slow to keep up with a bounded outbox
is closed rather than slowing the table (and cut off by ``gate``).

Where the server's own protocol offers it (the scope's ``gate.DIRECT`` extension), a message is
written by it at once instead, and each message the client sends is handed to the socket's
reader as it arrives (``read_directly``): no ASGI message and no task switch per message.
"""

from __future__ import annotations

import asyncio
import types
from collections import deque
from collections.abc import Callable, Generator
from typing import Any

from starlette.types import Message, Send

from bestiary.server.buckets import Bucket
from bestiary.server.wire import encode

OUTBOX_LIMIT = 512


class Connection:
    """A WebSocket seen from the table: who it is (``seat``) and how to reach it."""

    def __init__(
        self,
        send: Send | None,
        rate: float = 100.0,
        burst: float = 200.0,
        direct: dict[str, Any] | None = None,
    ) -> None:
        self._send = send
        self.seat: int | None = None
        self.closed = False
        self._flood = Bucket(rate, burst)
        self.outbox: deque[Message] = deque()  # what waits behind a send that had to wait
        self._writer: asyncio.Task[None] | None = None
        # the server's own protocol (``gate.DIRECT``): send(text) -> bool, drop(), read(reader)
        self.direct: Callable[[bytes], bool] | None = None
        self._drop: Callable[[], None] | None = None
        self._read: Callable[[Callable[[str | bytes], None] | None], None] | None = None
        if direct is not None:
            self.direct, self._drop, self._read = direct["send"], direct["drop"], direct["read"]

    def read_directly(self, reader: Callable[[str | bytes], None] | None) -> None:
        """Have each message read by ``reader`` as it arrives, where the protocol can (None:
        no more); what arrived before, and the end of the socket, still come through ASGI."""
        if self._read is not None:
            self._read(reader)

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: bytes) -> None:
        """Send one text message (its UTF-8 bytes: ``wire.encode``)."""
        if self.closed:
            return
        if self.direct is not None and self._writer is None and self.direct(text):
            return  # written at once: nothing was waiting before it
        self._put({"type": "websocket.send", "text": text.decode()})

    def close(self) -> None:
        """Close the socket (after what was sent before); nothing more is sent."""
        if not self.closed:
            self.closed = True
            self._put({"type": "websocket.close", "code": 1008})

    def gone(self) -> None:
        """The client has gone: nothing more is sent, not even a close."""
        self.closed = True
        self.outbox.clear()

    def allow(self) -> bool:
        """False when the client sends faster than the flood limit."""
        return self._flood.take()

    def _put(self, event: Message) -> None:
        if self._send is None:
            return
        if self._writer is None:
            try:
                rest = _start(self._send, event)
            except (OSError, RuntimeError):  # uvicorn: the client has gone, or it was closed
                self.gone()
                return
            if rest is not None:
                self._writer = asyncio.get_running_loop().create_task(self._write(rest))
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            # Too slow to follow the table (it can reconnect and catch up): what waits is
            # dropped, and the socket is closed after the send that waits now.
            self.outbox.clear()
            self.closed = True
            if self._drop is not None:  # it reads nothing: a closing handshake would wait
                self._drop()
                return
            event = {"type": "websocket.close", "code": 1008}
        self.outbox.append(event)

    async def _write(self, rest: Any) -> None:
        """Finish the send that had to wait, then send what waited behind it, in order."""
        assert self._send is not None
        try:
            await rest
            while self.outbox:
                await self._send(self.outbox.popleft())
        except (OSError, RuntimeError):
            self.gone()
        finally:
            self._writer = None

    async def finish(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for what is still being sent, then give it up."""
        writer = self._writer
        if writer is not None:
            await asyncio.wait([writer], timeout=timeout)
            writer.cancel()


def _start(send: Send, event: Message) -> Any:
    """Run ``send(event)`` until it would wait: None when it is done, else an awaitable that
    finishes it (the coroutine protocol: what it waits on, then the rest of it)."""
    steps = send(event).__await__()
    try:
        waits_on = next(steps)
    except StopIteration:
        return None
    return _rest(waits_on, steps)


@types.coroutine
def _rest(waits_on: Any, steps: Generator[Any, None, None]) -> Generator[Any, None, None]:
    yield waits_on
    yield from steps
