"""The door of the server: how many TCP connections it keeps, from whom, and for how long.

uvicorn accepts every connection and waits for a request forever; a few thousand silent or
slowloris connections then hold every descriptor. :func:`gated_protocols` wraps uvicorn's own
HTTP and WebSocket protocols so that every connection passes the :class:`Gate` first:

- at most ``max_connections`` in all and ``max_per_address`` from one peer address (a proxy the
  operator trusts is not counted per address here: its clients are counted by their forwarded
  address when they open a table socket, see ``app.py``);
- when the server is full, the oldest connection that has not yet sent a whole request is
  closed to make room (a flood of idle connections cannot lock a new client out); only when
  every connection is busy is the newcomer refused;
- a request (headers and body) must arrive within ``header_timeout`` seconds of the connection
  or of its first byte, else the connection is closed (slowloris);
- a request's head (its line and headers) may be at most ``MAX_HEAD_BYTES``: past that, while it
  still arrives, it is answered 431 and the connection closed (uvicorn's httptools protocol keeps
  every header it is sent; the number of header lines is ``bodycap.HeaderCap``'s);
- a table socket whose client leaves more than ``WRITE_BUFFER_LIMIT`` bytes unread is cut off.

A table socket's messages go through ASGI. Where this protocol offers it (``DIRECT``, the
default), they are also read and written here without a task switch per message; with
``direct=False`` every frame is uvicorn's and websockets' own, and a socket whose writes wait
(flow control) longer than ``WRITE_STALL_SECONDS`` is cut off instead.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import OPEN
from websockets.streams import StreamReader

from bestiary.server.buckets import client_key
from bestiary.server.metrics import refused
from bestiary.server.wire import client_texts, text_frame

log = logging.getLogger("bestiary.server")

# The ASGI scope extension through which a table socket writes without a task switch: a dict
# with ``send(text) -> bool``, ``drop()`` and ``read(reader | None)`` (see ``Connection``).
DIRECT = "bestiary.direct"

# A socket whose client lets this much of what the server wrote wait in the server's buffer (past
# what the kernel holds) reads too slowly to follow its table: it is cut off. Everything written
# counts, the answers to its own control frames (pongs) too: a client that pings and never reads
# grew the server by a megabyte per megabyte it sent.
WRITE_BUFFER_LIMIT = 1 << 20

# A socket whose writes have waited this long (asyncio's flow control: the client reads nothing)
# is cut off; its table's messages to it wait in its outbox (``Connection``) meanwhile.
WRITE_STALL_SECONDS = 10.0

# A request line and headers larger than this are refused while they arrive (nginx's default
# `large_client_header_buffers` is 4 of 8 KiB; a browser's are a few KiB).
MAX_HEAD_BYTES = 32 * 1024
_HEAD_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: application/json\r\ncontent-length: 54\r\nconnection: close\r\n\r\n"
    b'{"detail":"the request\'s headers are far too large."}\n'
)


@dataclass
class _Entry:
    address: str | None  # None: a trusted proxy, not counted per address
    busy: bool = False  # has sent a whole request (or is a WebSocket)


class Gate:
    """Every open connection by its transport; admission, eviction and release."""

    def __init__(
        self,
        max_connections: int,
        max_per_address: int,
        trusted: tuple[str, ...] = (),
        ipv6_prefix: int = 64,
    ) -> None:
        self.ipv6_prefix = ipv6_prefix
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.trusted = tuple(ipaddress.ip_network(t) for t in trusted)
        self._open: dict[asyncio.BaseTransport, _Entry] = {}  # insertion order = age
        self._per_address: Counter[str] = Counter()
        self.refused = 0
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection in, or say no (the caller closes it)."""
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
        address = None if self._trusted(host) else client_key(host, self.ipv6_prefix)
        if address is not None and self._per_address[address] >= self.max_per_address:
            self.refused += 1
            refused("connections_per_address")
            return False
        if len(self._open) >= self.max_connections and not self._evict_idle():
            self.refused += 1
            refused("connections_full")
            return False
        self._open[transport] = _Entry(address)
        if address is not None:
            self._per_address[address] += 1
        return True

    def _trusted(self, host: str) -> bool:
        if not self.trusted:
            return False
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    def _evict_idle(self) -> bool:
        for transport, entry in self._open.items():
            if not entry.busy:
                self.evicted += 1
                refused("idle_connection_evicted")
                self.release(transport)
                transport.close()
                return True
        return False

    def busy(self, transport: asyncio.BaseTransport) -> None:
        entry = self._open.get(transport)
        if entry is not None:
            entry.busy = True

    def idle(self, transport: asyncio.BaseTransport) -> None:
        """Between two requests of a kept-alive connection: may be evicted again."""
        entry = self._open.get(transport)
        if entry is not None:
            entry.busy = False

    def release(self, transport: asyncio.BaseTransport) -> None:
        entry = self._open.pop(transport, None)
        if entry is not None and entry.address is not None:
            self._per_address[entry.address] -= 1
            if not self._per_address[entry.address]:
                del self._per_address[entry.address]


def _between_frames(parser: Any) -> bool:
    """Whether websockets' parser (a generator) waits for the first byte of a frame: suspended,
    innermost, in its stream's ``at_eof`` (inside a frame it waits in ``read_exact``)."""
    inner = parser
    while inner.gi_yieldfrom is not None:
        inner = inner.gi_yieldfrom
    return inner is not parser and inner.gi_code is _AT_EOF


_AT_EOF = StreamReader.at_eof.__code__


def _largest(message: int | None, fragment: int | None) -> int | None:
    """The largest frame websockets accepts, as its parser works it out between messages."""
    if message is None:
        return fragment
    return message if fragment is None else min(message, fragment)


def gated_protocols(
    gate: Gate, header_timeout: float, direct: bool = True
) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP (httptools) and WebSocket protocol classes, behind ``gate``; ``direct``:
    the table sockets' messages read and written without a task switch (``DIRECT``)."""

    class Released(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            gate.release(self.transport)
            super().connection_lost(exc)

        def _cut(self) -> None:
            """Abort: no closing handshake, no graceful close (either would wait behind the
            backlog the client does not read)."""
            refused("socket_not_reading")
            self.transport.abort()

    class StockWebSocket(Released):
        _stalled: asyncio.TimerHandle | None = None

        def connection_lost(self, exc: Exception | None) -> None:
            if self._stalled is not None:
                self._stalled.cancel()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)  # may write: pongs, closing frames
            if self.transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
                self._cut()

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._stalled is None:
                self._stalled = self.loop.call_later(WRITE_STALL_SECONDS, self._cut)

        def resume_writing(self) -> None:
            if self._stalled is not None:
                self._stalled.cancel()
                self._stalled = None
            super().resume_writing()

    class GatedWebSocket(Released):
        _reader: Callable[[str | bytes], None] | None = None

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            if hasattr(self, "scope"):  # an accepted upgrade: the app may use the socket directly
                self.scope["extensions"][DIRECT] = {
                    "send": self.send_now,
                    "drop": self.drop,
                    "read": self.read_with,
                }

        def read_with(self, reader: Callable[[str | bytes], None] | None) -> None:
            self._reader = reader

        # websockets' parser is known to stand between frames with nothing buffered (it has read
        # nothing since it was last found so), and the largest frame it takes
        _between = False
        _frame_limit: int | None = None

        def data_received(self, data: bytes) -> None:
            texts = self._whole_texts(data)
            if texts is None:
                self._between = False
                super().data_received(data)  # may write: pongs, closing frames, direct sends
            else:
                for text in texts:
                    self._deliver(text)
            self._cut_if_behind()

        def _whole_texts(self, data: bytes) -> list[str] | None:
            """The messages of ``data`` read here, without websockets' parser and its frame
            objects, when it is only whole text frames (a client's actions) and websockets'
            parser stands between two frames with nothing buffered, so that nothing it would
            see differently is skipped; None: websockets reads ``data``."""
            conn = self.conn
            if self._reader is None or self.close_sent or conn.state is not OPEN:
                return None
            if not self._between:
                if (
                    conn.extensions
                    or conn.current_size is not None  # inside a fragmented message
                    or conn.reader.buffer
                    or not _between_frames(conn.parser)
                ):
                    return None
                self._between = True
                self._frame_limit = _largest(conn.max_message_size, conn.max_fragment_size)
            return client_texts(data, self._frame_limit)

        def handle_ping(self) -> None:
            if not self._cut_if_behind():
                super().handle_ping()

        def _cut_if_behind(self) -> bool:
            """Abort (no closing handshake: it would wait behind the backlog) a client that
            leaves more than ``WRITE_BUFFER_LIMIT`` bytes unread in the server's buffer."""
            transport = self.transport
            if transport.is_closing() or transport.get_write_buffer_size() <= WRITE_BUFFER_LIMIT:
                return False
            transport.abort()
            return True

        def send_receive_event_to_app(self) -> None:
            """A whole message: to the app's reader at once when it has one and nothing is queued
            before it (order kept), else through ASGI's queue as uvicorn does."""
            reader = self._reader
            if reader is None or self.close_sent or not self.queue.empty():
                super().send_receive_event_to_app()
                return
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            self.frames = []
            message: str | bytes = data
            if self.curr_msg_data_type == "text":
                try:
                    message = data.decode()
                except UnicodeDecodeError:
                    self.conn.send_close(1007)  # as uvicorn does: invalid UTF-8 in a text frame
                    self.handle_parser_exception()
                    return
            self._deliver(message)

        def _deliver(self, message: str | bytes) -> None:
            """One whole message to the app: its reader, or ASGI's queue (as uvicorn does)."""
            reader = self._reader
            if self.close_sent:
                return  # as uvicorn does: past the close, messages are dropped
            if reader is None or not self.queue.empty():
                if isinstance(message, str):
                    self.queue.put_nowait({"type": "websocket.receive", "text": message})
                else:
                    self.queue.put_nowait({"type": "websocket.receive", "bytes": message})
                return
            try:
                reader(message)
            except Exception:  # a bug in one message's handling must not end the connection
                log.exception("a table socket's message could not be handled")

        def drop(self) -> None:
            """Cut the connection without a closing handshake (a client that reads nothing)."""
            if not self.transport.is_closing():
                self.transport.abort()

        def send_now(self, text: bytes) -> bool:
            """Write one text message (UTF-8) now, without a task switch through ASGI; False
            when the socket cannot take it at once (closing, or its buffer is full: flow
            control)."""
            if (
                not self.handshake_complete
                or self.close_sent
                or self.disconnected
                or self.initial_response is not None
                or not self.writable.is_set()
                or self.transport.is_closing()
            ):
                return False
            conn = self.conn
            if conn.state is not OPEN:
                return False  # the client's close frame came: no data frame may follow it
            if conn.extensions:  # a negotiated extension (compression) rewrites every frame
                conn.send_text(text)
                self.transport.write(b"".join(conn.data_to_send()))
            else:  # the frame as websockets would make it, without its per-frame objects
                self.transport.write(text_frame(text))
            return not self._cut_if_behind()

    class GatedHttp(HttpToolsProtocol):
        _late: asyncio.TimerHandle | None = None
        _admitted = False
        _in_request = False
        _head: int | None = 0  # bytes of this request received before its headers ended

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if not gate.admit(transport):
                transport.abort()  # no response: a refused flood costs nothing to write
                return
            self._admitted = True
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if not self._admitted:
                return  # refused at the door: uvicorn never saw it
            self._disarm()
            gate.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._late is None and not self._in_request:
                self._arm()  # the first byte of a kept-alive connection's next request
            self._in_request = True
            if self._head is not None:
                self._head += len(data)
                if self._head > MAX_HEAD_BYTES:
                    self._head_too_large()
                    return
            super().data_received(data)

        def on_headers_complete(self) -> None:
            self._head = None  # the body is the body cap's
            super().on_headers_complete()

        def _head_too_large(self) -> None:
            refused("head_too_large")
            self._disarm()
            transport: Any = self.transport
            transport.write(_HEAD_TOO_LARGE)
            transport.close()

        def _arm(self) -> None:
            self._disarm()
            self._late = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._late is not None:
                self._late.cancel()
                self._late = None

        def _too_slow(self) -> None:
            self._late = None
            transport: Any = self.transport
            if transport.get_protocol() is self and not transport.is_closing():
                refused("request_too_slow")
                gate.release(transport)
                transport.close()

        def on_message_complete(self) -> None:
            self._disarm()
            gate.busy(self.transport)
            super().on_message_complete()

        def on_response_complete(self) -> None:
            self._in_request = False
            self._head = 0
            gate.idle(self.transport)
            super().on_response_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            gate.busy(self.transport)
            super().handle_websocket_upgrade()

    return GatedHttp, GatedWebSocket if direct else StockWebSocket
