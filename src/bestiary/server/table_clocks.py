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
        self._turn = self._turn_due = self._turn_of = None
        self._turn_armed += 1  # a ring already on its way is stale

    def _turn_clock(self) -> None:
        """Start the turn clock of the person who must move now, if any (again after every
        change; answers have the driver's own answer clock).

        Its one timer is kept while the clock runs: the due time only moves later, so a timer
        set for an earlier one rings early and waits again (``_turn_rang``), where a cancel and
        a new timer on every move cost more."""
        seconds, person = self.settings.turn_seconds, self._on_the_clock()
        if person is None or seconds is None:
            self._stop_turn_clock()
            return
        self._turn_due, self._turn_of = self.clock.now() + seconds, (person, self.seq)
        if self._turn is None:
            self._turn_armed += 1
            self._turn = self._later(seconds, partial(self._turn_rang, self._turn_armed))

    def _on_the_clock(self) -> str | None:
        """The person a turn clock runs for now: the first to act who is no bot and has no
        answer clock of the driver's (None: no turn clock, or a real-time game)."""
        state, match = self.state, self.match
        if self.settings.turn_seconds is None or self.game.info.real_time:
            return None
        if state is None or match is None or state.is_over or self.status != "playing":
            return None
        person = next((p for p in state.actors if p not in match.agents), None)
        if person is None or state.timeout_action(person) is not None:
            return None
        return person

    def _turn_rang(self, armed: int) -> None:
        """The turn clock's timer: the person's time is up, or it was started again since."""
        if armed != self._turn_armed or self._turn_due is None or self._turn_of is None:
            return  # stopped (or set again) after this timer rang
        self._turn = None
        left = self._turn_due - self.clock.now()
        if left > 1e-3:  # restarted since this timer was set: wait for the rest
            self._turn_armed += 1
            self._turn = self._later(left, partial(self._turn_rang, self._turn_armed))
            return
        self._turn_over(*self._turn_of)

    def _turn_over(self, player: str, seq: int) -> None:
        """The clock ran out: the table's quick bot makes this one move for ``player``."""
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
        self._armed += 1  # a ring already on its way is stale

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
        """Wait for the driver's next due tick (checked again after every change).

        One timer is kept while it rings no later than that tick, or while nothing is due (a
        ring then finds nothing to run): ringing early, it only waits again (``_due``), where a
        cancel and a new timer on every move cost more. Pauses, halts and the end cancel it."""
        due = self._next_due()
        if due is None:
            return
        at = self._due_at(due)
        if self._timer is not None:
            if self._timer_at <= at:
                return
            self._cancel_timer()
        self._armed += 1
        self._timer_at = at
        wait = max(0.0, at - self.clock.now())
        self._timer = self.clock.later(wait, partial(self.post, partial(self._rang, self._armed)))

    def _rang(self, armed: int) -> None:
        if armed == self._armed:  # not cancelled after it rang
            self._timer = None
            self._due()
