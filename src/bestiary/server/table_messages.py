"""What a table sends: each seat its own view and events, spectators the public one.

The messages themselves are made in ``wire`` (compiled), where every viewer-facing event passes
the one filter (``core.game.redacted``).
"""

from __future__ import annotations

from typing import Any

from bestiary.core.records import Event
from bestiary.server.connection import Connection
from bestiary.server.table_core import TableCore
from bestiary.server.wire import change_messages, encode, state_message


class Messages(TableCore):
    """What a table sends: each seat its own view and events, spectators the public one."""

    def _table_message(self) -> bytes:
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
    ) -> bytes:
        state = self.state
        assert state is not None
        timers = self._timers() if timers is None else timers
        return state_message(state, player, events, ref, self.seq, self._t(), timers)

    def _messages(
        self, events: list[Event], actor: int | None, ref: Any
    ) -> list[tuple[list[Connection], bytes]]:
        """Every seat its own view and its own form of each event; spectators the public one
        (one message shared by all of them)."""
        state = self.state
        assert state is not None
        turn_based = not self.game.info.real_time
        return change_messages(
            state, self.seats, self.spectators, events, actor, ref, self.seq, self._t(),
            self._timers(), turn_based,
        )  # fmt: skip

    def _t(self) -> float:
        """A message's ``t``: seconds of play, to the millisecond."""
        return round(self._game_time(), 3)
