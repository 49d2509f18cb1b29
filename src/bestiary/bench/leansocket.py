"""A WebSocket client for the load generator: websockets' own sans-I/O protocol for the opening
and closing handshakes on a bare asyncio transport, and the frames of an open connection read
and written here.

The load generator has one core for 800 clients. With the library's asyncio client each message
cost several task switches (its reader task, the assembler, the caller), and at 200 tables the
generator, not the server, was the limit (its core at 96%). Then websockets' Python frame parser
(a generator per frame, a ``Frame`` object, its checks) was a seventh of the generator's time.
Here, once the handshake is done, the server's frames (unmasked, never compressed: this client
offers no extension) are cut from the transport's bytes in its callback, and each
text message is handed to a listener there (``listen``) or to a queue for ``async for``. A sent
frame is masked as RFC 6455 asks (a fresh random key each) and written to the transport.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

from websockets.client import ClientProtocol
from websockets.http11 import Response
from websockets.uri import parse_uri

try:
    from websockets.speedups import apply_mask
except ImportError:  # a websockets built without its C extension
    from websockets.utils import apply_mask

# RFC 6455, 5.2: FIN set, and the opcodes a server sends
TEXT, CONTINUATION, CLOSE, PING = 0x1, 0x0, 0x8, 0x9
FIN = 0x80

Listener = Callable[[bytes | None], None]  # a text message's payload; None: the socket has ended


class LeanSocket(asyncio.Protocol):
    """One client connection: ``send_now(payload)`` (or ``await send(text)``), then either
    ``listen(callback)`` or ``async for payload in socket``; ``close()``."""

    def __init__(self, uri: str) -> None:
        self.protocol = ClientProtocol(parse_uri(uri), max_size=None)
        self.inbox: asyncio.Queue[bytes | None] = asyncio.Queue()  # None: the socket has ended
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.listener: Listener | None = None
        self.ended = False
        self._head: bytes | None = b""  # the handshake's answer until it is whole (None: refused)
        self._open = False  # the handshake is done: frames are read here
        self._unread = b""  # the start of a frame whose end has not come yet
        self._parts: list[bytes] = []  # a fragmented message's frames so far

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        if self._open:
            self._frames(data)
        elif self._head is None:  # a refused handshake: websockets reads the answer to its end
            self.protocol.receive_data(data)
            self._handshake_done()
            self._flush()
        else:
            self._handshake(data)

    def _handshake(self, data: bytes) -> None:
        """Hand websockets the response's head alone; the frames after it are read here."""
        head = self._head + data if self._head else data
        switching = head.startswith(b"HTTP/1.1 101 ")
        if not switching and len(head) >= len(b"HTTP/1.1 101 "):
            self._head = None  # a refusal has a body: websockets reads all of it
            self.data_received(head)
            return
        end = head.find(b"\r\n\r\n")
        if end < 0:
            self._head = head  # not whole yet
            return
        self._head = b""
        self.protocol.receive_data(head[: end + 4])
        self._handshake_done()
        if self._open and len(head) > end + 4:
            self._frames(head[end + 4 :])

    def _handshake_done(self) -> None:
        for event in self.protocol.events_received():
            if not isinstance(event, Response) or self.opened.done():
                continue
            if self.protocol.handshake_exc is not None:
                self.opened.set_exception(self.protocol.handshake_exc)
            else:
                self._open = True
                self.opened.set_result(None)

    def _frames(self, data: bytes) -> None:
        """Cut whole frames from what has come in; keep the rest for the next call."""
        buffer = self._unread + data if self._unread else data
        size = len(buffer)
        at = 0
        while size - at >= 2:
            first, second = buffer[at], buffer[at + 1]
            length, start = second & 0x7F, at + 2
            if length == 126:
                if size - at < 4:
                    break
                length, start = int.from_bytes(buffer[at + 2 : at + 4], "big"), at + 4
            elif length == 127:
                if size - at < 10:
                    break
                length, start = int.from_bytes(buffer[at + 2 : at + 10], "big"), at + 10
            end = start + length
            if end > size:
                break
            at = end
            if second & 0x80 or first & 0x70:  # masked, or an extension's bits: not our server
                self._fail(1002)
                return
            self._frame(first, buffer[start:end])
            if self.ended:
                return
        self._unread = buffer[at:]

    def _frame(self, first: int, payload: bytes) -> None:
        opcode = first & 0x0F
        if opcode in (TEXT, CONTINUATION):
            if not first & FIN:
                self._parts.append(payload)
                return
            if self._parts:
                self._parts.append(payload)
                payload = b"".join(self._parts)
                self._parts = []
            self._deliver(payload)
        elif opcode == PING:
            self.protocol.send_pong(payload)
            self._flush()
        elif opcode == CLOSE:
            self._fail(None)  # answered with a close frame, as the closing handshake asks

    def _fail(self, code: int | None) -> None:
        """Send a close frame (``code``; None: an empty one, the answer to the server's), then
        drop the connection; the socket has ended."""
        self._end()
        if self.transport is not None and not self.transport.is_closing():
            try:
                self.protocol.send_close(code)
                self._flush()
            except Exception:  # already closing: the library refuses a second close
                pass
            self.transport.close()

    def _deliver(self, payload: bytes | None) -> None:
        listener = self.listener
        if listener is not None:
            listener(payload)
        else:
            self.inbox.put_nowait(payload)

    def _end(self) -> None:
        if not self.ended:
            self.ended = True
            self._deliver(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self._end()
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))

    def _flush(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        for chunk in self.protocol.data_to_send():
            if chunk:
                transport.write(chunk)
            elif transport.can_write_eof():
                transport.write_eof()  # the protocol is done sending

    def listen(self, listener: Listener) -> None:
        """From now on hand every message to ``listener`` in the transport's callback (the
        messages that came before, first)."""
        self.listener = listener
        for payload in self.arrived():
            listener(payload)
        if self.ended:
            listener(None)

    def send_now(self, payload: bytes) -> None:
        """Send ``payload`` (UTF-8 JSON) as one masked text frame."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        size = len(payload)
        if size < 126:
            head = bytes((FIN | TEXT, 0x80 | size))
        elif size < 65536:
            head = bytes((FIN | TEXT, 0x80 | 126)) + size.to_bytes(2, "big")
        else:
            head = bytes((FIN | TEXT, 0x80 | 127)) + size.to_bytes(8, "big")
        mask = os.urandom(4)
        transport.write(head + mask + apply_mask(payload, mask))

    async def send(self, text: str) -> None:
        self.send_now(text.encode())

    def __aiter__(self) -> LeanSocket:
        return self

    async def __anext__(self) -> bytes:
        payload = await self.inbox.get()
        if payload is None:
            self.inbox.put_nowait(None)  # every later read ends too
            raise StopAsyncIteration
        return payload

    def arrived(self) -> list[bytes]:
        """The messages that have come in and not been read, without waiting for more."""
        payloads = []
        while not self.inbox.empty():
            payload = self.inbox.get_nowait()
            if payload is None:
                self.inbox.put_nowait(None)  # the end stays for the next read
                break
            payloads.append(payload)
        return payloads

    async def close(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        try:
            self.protocol.send_close(1000)
            self._flush()
        except Exception:  # already closing: the library refuses a second close
            pass
        self.transport.close()

    async def __aenter__(self) -> LeanSocket:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()


async def lean_connect(uri: str) -> LeanSocket:
    """Open ``uri`` (``ws://host:port/path``) and wait for the handshake."""
    parts = urlsplit(uri)
    loop = asyncio.get_running_loop()
    _, socket = await loop.create_connection(
        lambda: LeanSocket(uri), parts.hostname or "127.0.0.1", parts.port or 80
    )
    await socket.opened
    return socket
