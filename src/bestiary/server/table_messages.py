"""What a table sends: each seat its own view and events, spectators the public one.

Every viewer-facing event passes the one filter (``core.game.redacted``) here.
"""

from __future__ import annotations

from typing import Any

from bestiary.core.game import redacted
from bestiary.core.records import Event
from bestiary.server.connection import Connection
from bestiary.server.protocol import encode, legal_json
from bestiary.server.table_core import TableCore


class Messages(TableCore):
    """What a table sends: each seat its own view and events, spectators the public one."""

    def _table_message(self) -> str:
        return encode({"type": "table", "table": self.info()})

    def _timers(self) -> dict[str, float]:
        """The driver's public timers, as seconds left at this message (the clients'
        countdowns): ``quiet`` (the quiet clock: wild's Nightfall) and ``answer`` (the answer
        the table will give for a player who lets it run out)."""
        if self.match is None or self.status != "playing":
            return {}
        now = self._game_time()
        out: dict[str, float] = {}
        for name, due in self.match.deadlines().items():
            tick = min(due.values()) if isinstance(due, dict) else due
            out[name] = round(max(0.0, self._tick_time(tick) - now), 1)
        if self._turn_due is not None:
            out["turn"] = round(max(0.0, self._turn_due - self.clock.now()), 1)
        return out

    def _state_message(
        self,
        player: str | None,
        events: list[Event],
        ref: int | str | None,
        timers: dict[str, float] | None = None,
    ) -> str:
        state = self.state
        assert state is not None
        over = state.is_over
        message: dict[str, Any] = {
            "type": "state",
            "seq": self.seq,
            "t": round(self._game_time(), 3),
            "events": events,
            "view": state.view(player),
            "legal": legal_json(state.legal_actions(player)) if player else [],
            "over": over,
        }
        timers = self._timers() if timers is None else timers
        if timers:
            message["timers"] = timers
        if ref is not None:
            message["ref"] = ref
        if over:
            message["summary"] = state.summary()
            message["winners"] = state.winners()
        return encode(message)

    def _messages(
        self, events: list[Event], actor: int | None, ref: Any
    ) -> list[tuple[list[Connection], str]]:
        """Every seat its own view and its own form of each event; spectators the public one
        (one message shared by all of them)."""
        state = self.state
        assert state is not None
        timers = self._timers()
        sends: list[tuple[list[Connection], str]] = []
        for seat in self.seats:
            if not seat.connections:
                continue
            shown = redacted(state, events, seat.name)
            own = ref if seat.index == actor else None
            text = self._state_message(seat.name, shown, own, timers)
            sends.append((list(seat.connections), text))
        if self.spectators:
            text = self._state_message(None, redacted(state, events, None), None, timers)
            sends.append((list(self.spectators), text))
        return sends
