"""The lobby's busiest calls answered in front of FastAPI's routing (ASGI middleware, inside the
Host, Origin and body checks): opening a table, joining it, starting it, and its sockets.

Each finished game at a busy server is replaced by one of each (the bench replaces ~37 a second
at 200 tables), and FastAPI's work around a call (matching every route, solving dependencies,
validating the answer before serializing it, its middleware stack) cost more than the call.
Here the same function as the route's answers the same request, and only a request that is
plainly well formed is taken: a JSON body (``Content-Type: application/json``) that ``json``
reads and the route's own model accepts. Anything else (a bad body, another content type, a
path with a root) goes on to FastAPI untouched, so its refusals are FastAPI's own, word for
word. An answer is serialized as FastAPI serializes the route's response model, and a refusal
(``HTTPException``) answered by FastAPI's own handler.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import HTTPException, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from pydantic import BaseModel, TypeAdapter, ValidationError
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from bestiary.server.bodycap import replaying

# the route's function: (its body, the client's address, the path's table code) -> its answer
Answer = Callable[[Any, str, str], Awaitable[Any]]
Socket = Callable[[WebSocket, str], Awaitable[None]]


@dataclass(frozen=True)
class QuickCall:
    """One ``POST`` route taken here: its path (a table code as FastAPI's ``{code}`` matches
    it), its body's model, its function, and its answer's type and status."""

    path: str
    body: type[BaseModel]
    answer: Answer
    shape: Any  # the route's response model
    status: int = 200
    pattern: re.Pattern[str] = field(init=False)
    serializer: TypeAdapter[Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", re.compile(self.path.replace("{code}", "([^/]+)")))
        object.__setattr__(self, "serializer", TypeAdapter(self.shape))


class QuickLobby:
    """``calls`` and the table socket (``/ws/{code}``) answered here; the rest by ``app``."""

    def __init__(
        self, app: ASGIApp, calls: list[QuickCall], socket: Socket, client: Callable[[Scope], str]
    ) -> None:
        self.app = app
        self.calls = calls
        self.socket = socket
        self.client = client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if scope.get("root_path"):  # mounted under a prefix: FastAPI's routing knows it
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            found = _SOCKET.fullmatch(scope["path"])
            if found is not None:
                await self.socket(WebSocket(scope, receive, send), found[1])
                return
        elif kind == "http" and scope["method"] == "POST":
            for call in self.calls:
                found = call.pattern.fullmatch(scope["path"])
                if found is not None:
                    message = await receive()
                    if await self._answer(call, found, message, scope, receive, send):
                        return
                    receive = replaying(message, receive)
                    break
        await self.app(scope, receive, send)

    async def _answer(
        self,
        call: QuickCall,
        found: re.Match[str],
        message: Any,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> bool:
        """Answer a well-formed request to ``call``; False: it is FastAPI's to answer."""
        body = _body(call, message, scope)
        if body is None:
            return False
        code = found[1] if found.groups() else ""
        try:
            answer = await call.answer(body, self.client(scope), code)
        except HTTPException as refused:
            response = await http_exception_handler(Request(scope, receive), refused)
        else:
            content = call.serializer.dump_json(answer, by_alias=True)
            response = Response(content, call.status, media_type="application/json")
        await response(scope, receive, send)
        return True


_SOCKET = re.compile(r"/ws/([^/]+)")
_JSON = b"application/json"


def _body(call: QuickCall, message: Any, scope: Scope) -> BaseModel | None:
    """The request's body as the route's model, when FastAPI would read it so without a word
    (a whole JSON body under its own content type); None: FastAPI reads it, and says why not."""
    if message["type"] != "http.request" or message.get("more_body", False):
        return None
    content_type = next((value for name, value in scope["headers"] if name == b"content-type"), b"")
    raw = message.get("body", b"")
    if content_type != _JSON or not raw:
        return None
    try:
        return call.body.model_validate(json.loads(raw))  # as Starlette's Request.json() reads
    except (ValueError, RecursionError, ValidationError):  # ValidationError is a ValueError
        return None
