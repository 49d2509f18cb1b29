"""What goes on the wire: the frames the server writes itself are the frames websockets would
write, and each move's messages give every seat its own view and the right legal actions."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from unittest.mock import patch

import orjson
from hypothesis import given
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode
from websockets.protocol import SERVER, Protocol

from bestiary.core.game import get_game, redacted
from bestiary.server.gate import _between_frames
from bestiary.server.wire import (
    change_messages,
    client_texts,
    state_message,
    text_frame,
)


@given(st.text(max_size=70_000))
def test_a_text_frame_is_the_one_websockets_makes(text: str) -> None:
    payload = text.encode()
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)


def test_frames_at_each_length_boundary() -> None:
    for size in (0, 125, 126, 65535, 65536):
        payload = b"x" * size
        assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)


@dataclass
class Place:
    """A seat as ``change_messages`` reads it."""

    index: int
    name: str | None
    connections: set[str] = field(default_factory=set)


def test_each_move_sends_each_seat_its_own_view_and_only_actors_legal_actions() -> None:
    """Played out by random moves: every connected seat gets exactly the message it would get
    alone (its view, its redacted events, its legal actions, or none when it may not act), byte
    for byte; the one seat
    without a socket gets nothing, and the watchers share one public message."""
    for name in ("critters", "wild"):
        game = get_game(name)
        players = ["ann", "bo", "cy", "di"]
        state = game.new_game(players, {}, 7)
        rng = random.Random(7)
        seats = [Place(i, p, {f"{p}-socket"}) for i, p in enumerate(players)]
        seats[3].connections.clear()  # di's socket has gone
        watchers = ["w1", "w2"]
        for seq in range(1, 120):
            if state.is_over:
                break
            if state.chance_due:
                events = state.apply(state.chance_outcome(rng))
            else:
                movers = [p for p in players if state.legal_actions(p)]
                mover = rng.choice(movers)
                events = state.apply(rng.choice(state.legal_actions(mover)))
            turn_based = not game.info.real_time
            sends = change_messages(
                state, seats, watchers, events, 0, "r", seq, 1.5, {}, turn_based
            )
            assert [sorted(conns) for conns, _ in sends] == [
                ["ann-socket"], ["bo-socket"], ["cy-socket"], ["w1", "w2"],
            ]  # fmt: skip
            for (_, sent), seat in zip(sends, [*seats[:3], Place(9, None)], strict=True):
                ref = "r" if seat.index == 0 else None
                shown = redacted(state, events, seat.name)
                alone = state_message(state, seat.name, shown, ref, seq, 1.5, {})
                assert sent == alone
                message = orjson.loads(sent)
                assert message["view"] == state.view(seat.name)
                legal = state.legal_actions(seat.name) if seat.name else []
                assert message["legal"] == [a.to_event() for a in legal]
                if seat.name is not None and seat.name not in state.actors:
                    assert message["legal"] == []


def _masked(frame: Frame, mask: bytes) -> bytes:
    """``frame`` as a client sends it, with the mask ``mask``."""
    with patch("secrets.token_bytes", return_value=mask):
        return frame.serialize(mask=True)


MASKS = st.binary(min_size=4, max_size=4)


@given(st.lists(st.text(max_size=300), min_size=1, max_size=4), MASKS)
def test_whole_text_frames_read_as_websockets_reads_them(texts: list[str], mask: bytes) -> None:
    data = b"".join(_masked(Frame(Opcode.TEXT, t.encode()), mask) for t in texts)
    assert client_texts(data, 1 << 20) == texts
    websockets_reads = Protocol(SERVER)
    websockets_reads.receive_data(data[:1])
    assert not _between_frames(websockets_reads.parser)  # inside a frame: left to websockets
    websockets_reads.receive_data(data[1:])
    frames = websockets_reads.events_received()
    assert [bytes(f.data).decode() for f in frames if isinstance(f, Frame)] == texts
    assert _between_frames(websockets_reads.parser) and not websockets_reads.reader.buffer


@given(st.text(min_size=1, max_size=300), MASKS, st.data())
def test_anything_but_whole_text_frames_is_left_to_websockets(
    text: str, mask: bytes, data: st.DataObject
) -> None:
    payload = text.encode()
    whole = _masked(Frame(Opcode.TEXT, payload), mask)
    cut = data.draw(st.integers(1, len(whole) - 1))
    others = [
        whole[:cut],  # a frame cut across two reads
        whole + whole[:cut],
        _masked(Frame(Opcode.TEXT, payload, fin=False), mask),  # a fragment
        _masked(Frame(Opcode.BINARY, payload), mask),
        _masked(Frame(Opcode.PING, payload[:125]), mask),
        whole + _masked(Frame(Opcode.CLOSE, b"\x03\xe8"), mask),
        Frame(Opcode.TEXT, payload).serialize(mask=False),  # unmasked: refused by websockets
        bytes([whole[0] | 0x40]) + whole[1:],  # RSV1: an extension nobody negotiated
    ]
    for other in others:
        assert client_texts(other, 1 << 20) is None
    assert client_texts(whole, len(payload) - 1) is None  # too large: websockets says so
    assert client_texts(whole, len(payload)) == [text]
    bad = _masked(Frame(Opcode.TEXT, b"\xff" + payload), mask)  # not UTF-8
    assert client_texts(bad, 1 << 20) is None
