"""What a table puts on the wire: each seat's state message, encoded, and the frame around it.

The hot path of every move (a state message for each seat and one for the spectators), kept
apart from the table's asyncio parts so that mypyc compiles it (setup.py's ``COMPILED``). Every
viewer-facing event passes the one filter (``core.game.redacted``) here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, Protocol, TypeVar

import orjson

try:
    from websockets.speedups import apply_mask
except ImportError:  # websockets without its C part (as its own frames module falls back)
    from websockets.utils import apply_mask

from bestiary.core.game import Action, State
from bestiary.core.records import Event
from bestiary.core.viewer import redacted, view_in_parts

# Who receives a message: a socket (``connection.Connection``, which imports this module, so
# only its type variable here).
Receiver = TypeVar("Receiver")
Seen = TypeVar("Seen", covariant=True)


class Seated(Protocol[Seen]):
    """What a message needs of a seat (``seats.Seat``)."""

    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str | None: ...
    @property
    def connections(self) -> Collection[Seen]: ...


def encode(message: dict[str, Any]) -> bytes:
    """A server message as compact JSON, UTF-8 (orjson: the table sends a lot of these); a text
    frame's payload as it is, never decoded to ``str`` and encoded back on its way out."""
    return orjson.dumps(message)


def text_frame(payload: bytes) -> bytes:
    """One unfragmented, unmasked text frame (RFC 6455, 5.2: what a server sends) of
    ``payload``, which must be UTF-8.

    >>> text_frame(b'{"type":"pong"}')
    b'\\x81\\x0f{"type":"pong"}'
    """
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 65536:
        return bytes((0x81, 126, size >> 8, size & 0xFF)) + payload
    return b"\x81\x7f" + size.to_bytes(8, "big") + payload


def client_texts(data: bytes, max_size: int | None) -> list[str] | None:
    """The messages in ``data`` when it is nothing but whole, unfragmented, masked text frames
    (RFC 6455, 5.2: what a client sends) of at most ``max_size`` bytes each, in valid UTF-8;
    None for anything else (a control frame, a fragment, a frame cut across reads, a frame too
    large, bad UTF-8), which websockets' own parser then reads, errors and all.

    >>> client_texts(b'\\x81\\x84\\x00\\x00\\x00\\x00ping', 1 << 20)
    ['ping']
    >>> client_texts(b'\\x89\\x80\\x00\\x00\\x00\\x00', 1 << 20) is None  # a ping: websockets'
    True
    """
    texts: list[str] = []
    at, end = 0, len(data)
    while at < end:
        if at + 6 > end or data[at] != 0x81:  # FIN, no RSV bits, text
            return None
        second = data[at + 1]
        if second < 0x80:  # not masked: websockets refuses it
            return None
        size = second & 0x7F
        at += 2
        if size == 126:
            if at + 2 > end:
                return None
            size = int.from_bytes(data[at : at + 2], "big")
            at += 2
        elif size == 127:
            if at + 8 > end:
                return None
            size = int.from_bytes(data[at : at + 8], "big")
            at += 8
        if (max_size is not None and size > max_size) or at + 4 + size > end:
            return None
        payload = apply_mask(data[at + 4 : at + 4 + size], data[at : at + 4])
        at += 4 + size
        try:
            texts.append(payload.decode())
        except UnicodeDecodeError:
            return None
    return texts


# Legal actions, each as its event's JSON, made once: a state message lists every legal action
# (a Game Changer's swaps are dozens of nested objects). The engines intern actions, so the
# same objects come back move after move: they are found by identity first (hashing a
# dataclass's fields would be most of the lookup), then by value (a game that makes new equal
# actions). Both are cleared when full (names differ from table to table).
_BY_ID: dict[int, tuple[Any, Any]] = {}  # id(action): (action, fragment); the entry keeps the
# action alive, so no other object can have its id meanwhile
_LEGAL: dict[Any, Any] = {}  # by value (hashable actions): orjson fragments
LEGAL_KEPT = 50_000


def legal_json(actions: Iterable[Action]) -> list[Any]:
    """``[a.to_event() for a in actions]``, as JSON that ``encode`` embeds as it is."""
    shown = []
    by_id = _BY_ID
    for action in actions:
        entry = by_id.get(id(action))
        if entry is None:
            if len(by_id) >= LEGAL_KEPT:
                by_id.clear()
            entry = by_id[id(action)] = (action, _made(action))
        shown.append(entry[1])
    return shown


def _made(action: Action) -> Any:
    """``action``'s fragment, found by value where it can be."""
    by_value = _LEGAL
    try:
        found = by_value.get(action)
    except TypeError:  # a game whose actions are not hashable: made each time
        return _fragment(action)
    if found is None:
        if len(by_value) >= LEGAL_KEPT:
            by_value.clear()
        found = by_value[action] = _fragment(action)
    return found


def _fragment(action: Action) -> Any:
    return orjson.Fragment(orjson.dumps(action.to_event()))


def state_message(
    state: State,
    player: str | None,
    events: list[Event],
    ref: int | str | None,
    seq: int,
    t: float,
    timers: dict[str, float],
    acting: Sequence[str] | None = None,
    view: Any = None,
) -> bytes:
    """``player``'s state message (``None``: a spectator's): its view, its form of ``events``,
    its legal actions, encoded by orjson in one call. ``acting``: the players who may act (the
    others' legal lists are empty, the State protocol's ``actors``), when the caller has it;
    None: every player is asked. ``view``: the view as ``shared_view`` made it; None:
    ``state.view(player)``."""
    over = state.is_over
    legal: list[Any] = []
    if player is not None and (acting is None or player in acting):
        legal = legal_json(state.legal_actions(player))
    message: dict[str, Any] = {
        "type": "state",
        "seq": seq,
        "t": t,
        "events": events,
        "view": state.view(player) if view is None else view,
        "legal": legal,
        "over": over,
    }
    if timers:
        message["timers"] = timers
    if ref is not None:
        message["ref"] = ref
    if over:
        message["summary"] = state.summary()
        message["winners"] = state.winners()
    return encode(message)


def change_messages(
    state: State,
    seats: Sequence[Seated[Receiver]],
    spectators: Iterable[Receiver],
    events: list[Event],
    actor: int | None,
    ref: int | str | None,
    seq: int,
    t: float,
    timers: dict[str, float],
    turn_based: bool,
) -> list[tuple[list[Receiver], bytes]]:
    """Every connected seat its own view and its own form of each event (``ref`` to the
    ``actor``'s seat), then every spectator the public one (one message shared by all of them).

    ``turn_based``: only the players who may act are asked for legal actions (in a real-time
    game nearly everyone may, so asking who first would only repeat the work)."""
    acting = state.actors if turn_based else None
    sends: list[tuple[list[Receiver], bytes]] = []
    made: Made = {}  # this move's encoded view parts (``shared_view``)
    for seat in seats:
        if not seat.connections:
            continue
        shown = redacted(state, events, seat.name)
        own = ref if seat.index == actor else None
        view = shared_view(state, seat.name, made)
        text = state_message(state, seat.name, shown, own, seq, t, timers, acting, view)
        sends.append((list(seat.connections), text))
    watching = list(spectators)
    if watching:
        shown = redacted(state, events, None)
        view = shared_view(state, None, made)
        sends.append(
            (watching, state_message(state, None, shown, None, seq, t, timers, None, view))
        )
    return sends


# id(part): (part, its JSON between the braces); the entry holds the part, so no other object
# can take its id while the move's messages are made
Made = dict[int, tuple[Any, bytes]]


def shared_view(state: State, player: str | None, made: Made) -> Any:
    """``player``'s view for a message, encoding once a move what the seats' views share.

    A game whose state offers ``view_in_parts`` (``core.game.view_in_parts``: dicts that, merged
    in order, are the view; a part every seat sees alike is one object until the state changes)
    has each part encoded once for all the seats (``made``), and the view joined from the
    encoded parts (an ``orjson.Fragment``, byte for byte ``orjson.dumps(state.view(player))``).
    A game that offers only ``view`` gets the view itself, which orjson encodes with the
    message: nothing else is asked of a game. (Sharing values of a whole view instead, by
    identity, cost more than encoding them again: docs/driver.md.)"""
    parts = view_in_parts(state, player)
    if len(parts) == 1:
        return parts[0]
    pieces: list[bytes] = [b"{"]  # then each part's JSON and a comma: one join, one copy
    for part in parts:
        if not part:
            continue  # no keys: nothing between the commas
        found = made.get(id(part))
        if found is None:
            found = made[id(part)] = (part, orjson.dumps(part)[1:-1])
        pieces.append(found[1])
        pieces.append(b",")
    if len(pieces) == 1:
        return orjson.Fragment(b"{}")
    pieces[-1] = b"}"  # the last comma closes the object
    return orjson.Fragment(b"".join(pieces))
