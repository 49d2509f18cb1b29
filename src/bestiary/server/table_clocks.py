"""A table's time: the driver's ticks in wall time, a kept timer, and a person's turn clock.

Each is a small object over the table's clock (``TableClock``; tests step a fake one), which the
table composes: ``Ticks`` turns wall time into the driver's ticks (standing still while the store
is down), ``Alarm`` is one timer kept while it rings no later than wanted, and ``TurnClock`` gives
the person to move ``turn_seconds`` before the table moves for them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bestiary.server.table_settings import Handle, TableClock

Post = Callable[[Callable[[], None]], None]  # runs a job inside the table's actor


class Ticks:
    """Tick ``n`` of the driver starts ``n * tick_seconds`` after ``start``; ``offset`` seconds of
    play came before tick 0 (a restored game). While paused no tick passes."""

    def __init__(self, clock: TableClock, tick_seconds: float) -> None:
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.t0 = 0.0  # clock time of tick 0
        self.offset = 0.0
        self.paused_at: float | None = None

    def start(self) -> None:
        self.t0 = self.clock.now()

    def pause(self) -> None:
        if self.paused_at is None:
            self.paused_at = self.clock.now()

    def resume(self) -> None:
        if self.paused_at is not None:
            self.t0 += self.clock.now() - self.paused_at  # no tick passed while paused
            self.paused_at = None

    def now_tick(self) -> int:
        return max(0, int((self.clock.now() - self.t0) / self.tick_seconds + 1e-9))

    def starts_at(self, tick: int) -> float:
        """Clock time at which ``tick`` starts."""
        return self.t0 + tick * self.tick_seconds

    def played(self) -> float:
        """Seconds of play so far (the clock stands still while paused)."""
        now = self.paused_at if self.paused_at is not None else self.clock.now()
        return self.offset + now - self.t0

    def played_at(self, tick: int) -> float:
        """Seconds of play at the start of ``tick``."""
        return self.offset + tick * self.tick_seconds


class Alarm:
    """One timer that runs ``ring`` (inside the actor) at the time last ``want``-ed.

    A timer already set to ring no later than the time wanted is kept: ringing early, its owner
    finds nothing to do yet and wants again, where a cancel and a new timer on every move cost
    more. A ring from a timer cancelled after it rang is ignored. ``ring`` is held only while the
    timer is set (a part holds nothing of its owner's for good: a table that is done with is
    freed at once, not at the next full collection)."""

    def __init__(self, clock: TableClock, post: Post) -> None:
        self.clock = clock
        self.post = post
        self._ring: Callable[[], None] | None = None
        self._timer: Handle | None = None
        self._at = 0.0  # when it rings (clock time)
        self._armed = 0  # timers set so far: a ring that is not the latest one's is stale

    @property
    def set(self) -> bool:
        return self._timer is not None

    def want(self, at: float, ring: Callable[[], None]) -> None:
        if self._timer is not None:
            if self._at <= at:
                return
            self.cancel()
        self._ring = ring
        self._armed += 1
        self._at = at
        wait = max(0.0, at - self.clock.now())
        self._timer = self.clock.later(wait, partial(self.post, partial(self._rang, self._armed)))

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._ring = None
        self._armed += 1  # a ring already on its way is stale

    def _rang(self, armed: int) -> None:
        ring = self._ring
        if armed == self._armed and ring is not None:
            self._timer = self._ring = None
            ring()


class TurnClock:
    """The turn clock of one person: ``run`` (again after every change) gives them ``seconds``
    from now; when they run out, ``over(person, seq)`` (``seq``: the table's when it started)."""

    def __init__(self, clock: TableClock, post: Post) -> None:
        self.clock = clock
        self.alarm = Alarm(clock, post)
        self.due: float | None = None
        self.of: tuple[str, int] | None = None  # the person, and the seq it started at
        self._over: Callable[[str, int], None] | None = None

    def run(self, person: str, seq: int, seconds: float, over: Callable[[str, int], None]) -> None:
        self.due, self.of, self._over = self.clock.now() + seconds, (person, seq), over
        self.alarm.want(self.due, self._rang)  # the due time only moves later: the timer is kept

    def stop(self) -> None:
        self.alarm.cancel()
        self.due = self.of = self._over = None

    def left(self) -> float | None:
        return None if self.due is None else max(0.0, self.due - self.clock.now())

    def _rang(self) -> None:
        if self.due is None or self.of is None or self._over is None:
            return
        if self.due - self.clock.now() > 1e-3:  # restarted since the timer was set
            self.alarm.want(self.due, self._rang)
            return
        self._over(*self.of)
