"""A table's time: the driver's ticks in wall time, its one timer and a person's turn clock.

The timer waits for ``match.next_due()``; the turn clock gives a person to move
``turn_seconds``, then the table's quick bot makes that one move for them.
"""

from __future__ import annotations

from functools import partial

from bestiary.core.agent import default_bot, make_bot
from bestiary.core.driver import Played
from bestiary.server.table_core import TableCore


class Clocks(TableCore):
    """A table's time: the driver's ticks in wall time, its one timer and a person's turn clock."""

    def _now_tick(self) -> int:
        return max(0, int((self.clock.now() - self._t0) / self.pace.tick_seconds + 1e-9))

    def _game_time(self) -> float:
        """Seconds of play so far (the clock stands still while the store is down)."""
        if self.match is None:
            return 0.0
        now = self._paused_at if self.paused is not None else self.clock.now()
        return self._t_offset + now - self._t0

    def _tick_time(self, tick: int) -> float:
        return self._t_offset + tick * self.pace.tick_seconds

    def _stop_turn_clock(self) -> None:
        if self._turn is not None:
            self._turn.cancel()
        self._turn = self._turn_due = None

    def _turn_clock(self) -> None:
        """Start the turn clock of the person who must move now, if any (re-armed after every
        change; answers have the driver's own answer clock)."""
        self._stop_turn_clock()
        seconds, state, match = self.settings.turn_seconds, self.state, self.match
        if seconds is None or self.game.info.real_time or state is None or match is None:
            return
        if state.is_over or self.status != "playing":
            return
        people = [p for p in state.actors if p not in match.agents]
        if not people or state.timeout_action(people[0]) is not None:
            return
        self._turn_due = self.clock.now() + seconds
        self._turn = self._later(seconds, partial(self._turn_over, people[0], self.seq))

    def _turn_over(self, player: str, seq: int) -> None:
        """The clock ran out: the table's quick bot makes this one move for ``player``."""
        self._turn = None
        if self.seq != seq or self.status != "playing" or self.paused is not None:
            if self.seq == seq and self.status == "playing":
                self._turn_clock()  # paused: the player gets a whole turn when play resumes
            return
        if self._hold(partial(self._turn_over, player, seq)):
            return
        state, match = self.state, self.match
        if self.seq != seq or state is None or match is None or player in match.agents:
            return
        if player not in state.actors or not (legal := state.legal_actions(player)):
            return
        try:
            stand_in = make_bot(self.game_name, default_bot(self.game_name, 0.0), player, 0)
        except ValueError:
            return  # a game with no bot: the table waits for its player
        action = stand_in.act(state.view(player), legal) or legal[0]
        events = match.submit(player, action)
        self._publish([Played(match.tick, player, events)], None, None, t=self._game_time())

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _next_due(self) -> int | None:
        """The driver's next due tick, if the table may run it now (playing, not busy)."""
        match = self.match
        if match is None or self._busy or self.paused or self.halted or self.status != "playing":
            return None
        return match.next_due()

    def _due_at(self, tick: int) -> float:
        """Table-clock time to start tick ``tick`` (early by the bots' lead)."""
        return self._t0 + tick * self.pace.tick_seconds - self._lead

    def _arm(self) -> None:
        """Wait for the driver's next due tick (re-armed after every change)."""
        self._cancel_timer()
        due = self._next_due()
        if due is None:
            return
        wait = self._due_at(due) - self.clock.now()
        self._timer = self.clock.later(max(0.0, wait), partial(self.post, self._due))
