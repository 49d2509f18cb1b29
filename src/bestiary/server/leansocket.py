"""A WebSocket client for the load generator: websockets' own sans-I/O protocol on a bare
asyncio transport.

The load generator has one core for 800 clients. With the library's asyncio client each message
costs several task switches (its reader task, the assembler, the caller), and at 200 tables
the generator, not the server, was the limit (its core at 96%). Here a frame is parsed in the
transport's callback and handed over through one queue; a send is a write to the transport.
Framing, masking and the closing handshake are the library's.
"""

from __future__ import annotations

import asyncio
from typing import cast
from urllib.parse import urlsplit

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri


class LeanSocket(asyncio.Protocol):
    """One client connection: ``await send(text)``, ``async for text in socket``, ``close()``."""

    def __init__(self, uri: str) -> None:
        self.protocol = ClientProtocol(parse_uri(uri), max_size=None)
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()  # None: the socket has ended
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self._parts: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                self._handshake_done()
            elif isinstance(event, Frame):
                self._frame(event)
        self._flush()

    def _handshake_done(self) -> None:
        if self.opened.done():
            return
        if self.protocol.handshake_exc is not None:
            self.opened.set_exception(self.protocol.handshake_exc)
        else:
            self.opened.set_result(None)

    def _frame(self, frame: Frame) -> None:
        if frame.opcode in (Opcode.TEXT, Opcode.CONT):
            self._parts.append(bytes(frame.data))
            if frame.fin:
                self.inbox.put_nowait(b"".join(self._parts).decode())
                self._parts = []
        elif frame.opcode is Opcode.CLOSE:
            self.inbox.put_nowait(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self.inbox.put_nowait(None)
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

    async def send(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        self._flush()

    def __aiter__(self) -> LeanSocket:
        return self

    async def __anext__(self) -> str:
        text = await self.inbox.get()
        if text is None:
            self.inbox.put_nowait(None)  # every later read ends too
            raise StopAsyncIteration
        return text

    def arrived(self) -> list[str]:
        """The messages that have come in and not been read, without waiting for more."""
        texts = []
        while not self.inbox.empty():
            text = self.inbox.get_nowait()
            if text is None:
                self.inbox.put_nowait(None)  # the end stays for the next read
                break
            texts.append(text)
        return texts

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
