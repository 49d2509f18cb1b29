"""What goes on the wire: the frames the server writes itself are the frames websockets would
write, and each move's messages give every seat its own view and the right legal actions."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import orjson
from hypothesis import given
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from bestiary.core.game import get_game, redacted
from bestiary.server.wire import change_messages, state_message, text_frame


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
    alone (its view, its redacted events, its legal actions, or none when it may not act), the
    one seat without a socket gets nothing, and the watchers share one public message."""
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
