"""The WebSocket protocol: every message a client may send, validated with pydantic.

Messages are JSON objects with a ``type``. Version 1 is the only version; a client says which
version it speaks in ``hello``. docs/protocol.md lists every message in both directions.
Server messages are built as plain dicts (they are sent far more often than received, and
their shape is fixed here by the ``*_message`` functions).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

# what goes on the wire is made in ``wire`` (compiled), and named here too
from bestiary.server.metrics import refused
from bestiary.server.wire import encode as encode
from bestiary.server.wire import legal_json as legal_json

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 8192

SafeInt = Annotated[int, Field(ge=-(2**53), le=2**53)]
Ref = Annotated[
    SafeInt | Annotated[str, Field(max_length=64)],
    Field(description="The client's own id for a request, echoed back."),
]


class Hello(BaseModel):
    """First message on a table's socket: a seat token to play, none to watch."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["hello"]
    v: int = PROTOCOL_VERSION
    token: str | None = Field(default=None, max_length=128)


class ActionMessage(BaseModel):
    """An action for the sender's seat: a record event line (docs/records.md), ``by`` optional."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["action"]
    action: dict[str, Any]
    ref: Ref | None = None


class Ping(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["ping"]
    ref: Ref | None = None


class React(BaseModel):
    """A reaction for the sender's seat to show the table (one of the game's fixed set)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["react"]
    reaction: str = Field(max_length=16)
    ref: Ref | None = None


ClientMessage = Annotated[Hello | ActionMessage | Ping | React, Field(discriminator="type")]
_CLIENT = TypeAdapter(ClientMessage)


class BadMessage(ValueError):
    """A client message that cannot be read; ``code`` is the error code sent back."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_client_message(text: str | bytes) -> Hello | ActionMessage | Ping | React:
    """Read one client message or raise BadMessage with a one-sentence reason.

    >>> parse_client_message('{"type": "ping"}').type
    'ping'
    >>> parse_client_message('{"type": "dance"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bestiary.server.protocol.BadMessage: unknown message type 'dance' ...
    """
    if _size(text) > MAX_MESSAGE_BYTES:
        raise BadMessage("too_large", f"message is larger than {MAX_MESSAGE_BYTES} bytes.")
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as err:
        raise BadMessage("bad_json", f"message is not valid JSON ({err}).") from None
    if not isinstance(obj, dict):
        raise BadMessage("bad_message", "a message must be a JSON object.")
    kind = obj.get("type")
    if kind not in ("hello", "action", "ping", "react"):
        raise BadMessage(
            "unknown_type",
            f"unknown message type {kind!r} (expected hello, action, ping or react).",
        )
    try:
        return _CLIENT.validate_python(obj)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise BadMessage("bad_message", f"bad {kind} message: {where}: {first['msg']}.") from None


def _size(text: str | bytes) -> int:
    """The message's size in bytes as it came over the wire (UTF-8 for text)."""
    if isinstance(text, bytes) or len(text) * 4 <= MAX_MESSAGE_BYTES:
        return len(text)  # bytes, or text too short to be too large however it encodes
    return len(text.encode("utf-8", "surrogatepass"))


def error_message(code: str, message: str, ref: int | str | None = None) -> dict[str, Any]:
    refused(code)  # every refusal a socket is told counts (GET /metrics)
    return {"type": "error", "code": code, "message": message, "ref": ref}
