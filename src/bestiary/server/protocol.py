"""The WebSocket protocol: every message a client may send, validated with pydantic.

Messages are JSON objects with a ``type``. Version 1 is the only version; a client says which
version it speaks in ``hello``. docs/server.md lists every message in both directions.
Server messages are built as plain dicts (they are sent far more often than received, and
their shape is fixed here by the ``*_message`` functions).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from bestiary.core.game import Action

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


ClientMessage = Annotated[Hello | ActionMessage | Ping, Field(discriminator="type")]
_CLIENT = TypeAdapter(ClientMessage)


class BadMessage(ValueError):
    """A client message that cannot be read; ``code`` is the error code sent back."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_client_message(text: str | bytes) -> Hello | ActionMessage | Ping:
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
    if kind not in ("hello", "action", "ping"):
        raise BadMessage(
            "unknown_type", f"unknown message type {kind!r} (expected hello, action or ping)."
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


def encode(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (orjson: the table sends a lot of these)."""
    return orjson.dumps(message).decode()


# Legal actions, each as its event's JSON, made once: a state message lists every legal action
# (a Game Changer's swaps are dozens of nested objects, a twentieth of the server's time at 200
# tables), and the engines intern actions, so the same ones come back move after move. Cleared
# when full (names differ from table to table).
_LEGAL: dict[Any, orjson.Fragment] = {}  # keyed by the (hashable, interned) actions
LEGAL_KEPT = 50_000


def legal_json(actions: Iterable[Action]) -> list[orjson.Fragment]:
    """``[a.to_event() for a in actions]``, as JSON that ``encode`` embeds as it is."""
    shown = []
    for action in actions:
        try:
            found = _LEGAL.get(action)
        except TypeError:  # a game whose actions are not hashable: made each time
            shown.append(_fragment(action))
            continue
        if found is None:
            if len(_LEGAL) >= LEGAL_KEPT:
                _LEGAL.clear()
            found = _LEGAL[action] = _fragment(action)
        shown.append(found)
    return shown


def _fragment(action: Action) -> orjson.Fragment:
    return orjson.Fragment(orjson.dumps(action.to_event()))


def error_message(code: str, message: str, ref: int | str | None = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "ref": ref}
