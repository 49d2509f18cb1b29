"""An HTTP body cap enforced before the body is read, and a cap on the number of request
headers (ASGI middleware, in front of FastAPI).

A declared ``Content-Length`` over the cap is answered 413 at once, without reading a byte of
the body; a chunked body is read only up to the cap and answered 413 the moment it passes it.
Either way the connection is closed, so the rest of the body is never read. A body within the
cap is read whole here and handed to the app as one message.
"""

from __future__ import annotations

from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyCap:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body: bytes = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, replaying(whole, receive), send)

    async def _refuse(self, send: Send) -> None:
        detail = f"a request body may be at most {self.max_bytes} bytes."
        await answer(send, 413, {"detail": detail})


class HeaderCap:
    """A request (or a socket's handshake) with more than ``max_headers`` header lines is
    refused: 431 over HTTP, a refused handshake for a socket. Their bytes are bounded before
    this, while they arrive (``gate``)."""

    def __init__(self, app: ASGIApp, max_headers: int) -> None:
        self.app = app
        self.max_headers = max_headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" or len(scope["headers"]) <= self.max_headers:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            detail = f"a request may have at most {self.max_headers} headers."
            await answer(send, 431, {"detail": detail})
        else:
            await send({"type": "websocket.close", "code": 1008})


def replaying(message: Message, receive: Receive) -> Receive:
    """``receive`` as it was before ``message`` was taken from it: that first, then the rest."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return message

    return replay


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the HTTP parser refuses such a request before this
    return None


async def answer(send: Send, status: int, content: Any) -> None:
    body = orjson.dumps(content)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
