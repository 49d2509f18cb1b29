"""Durable before visible: a table's events are stored, committed, and only then sent.

Jobs that would touch the game wait their turn (in order) while bots think or events are
being committed; while the store is down the table pauses, says so, and resumes with
nothing lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bestiary.core.driver import Played
from bestiary.core.records import Event
from bestiary.server.metrics import COMMIT_SECONDS, MOVES
from bestiary.server.protocol import error_message
from bestiary.server.table_core import STORAGE_DOWN, TableCore, log


class Commits(TableCore):
    """Durable before visible: a table's events are stored, committed, and only then sent."""

    def _hold(self, job: Callable[[], None], reveals: bool = False) -> bool:
        """Whether game job ``job`` must wait (and is kept, in order, until it may run): the
        table's bots are thinking, an earlier job waits, something is due first (which starts
        now), or ``job`` ``reveals`` the state (a socket's first view) while events of it are
        not yet committed. Otherwise the driver's clock is brought to now and ``job`` runs."""
        if self._may_run(reveals):
            return False
        self._keep(job, reveals)
        return True

    def _may_run(self, reveals: bool = False) -> bool:
        """``_hold`` without the job: False if the job must be kept (``_keep``). A move asks
        this first, so that the job it would keep is only made when it waits."""
        match = self.match
        queued = bool(self._held) and not self._settling
        blocked = queued or (reveals and self._unsent > 0)
        free = self._busy is None and self.paused is None and self.status == "playing"
        free = free and self.halted is None
        if free and not blocked and match is not None:
            due, now = match.next_due(), self._now_tick()  # one reading: the clock moves on
            if due is not None and due <= now:
                self._due()
            else:
                match.advance(now)  # nothing is due by then: this only sets the tick
        return self._busy is None and not blocked

    def _keep(self, job: Callable[[], None], reveals: bool = False) -> None:
        if self._settling:
            self._held.appendleft((job, reveals))  # it was first in line: it stays first
        else:
            self._held.append((job, reveals))

    def _publish(
        self,
        played: list[Played],
        actor: int | None,
        ref: int | str | None,
        t: float | None = None,
        always: bool = False,
    ) -> None:
        """Number, stamp and store new events; they are sent once the store has them."""
        match = self.match
        assert match is not None and self.state is not None
        for fault in match.faults:
            log.warning("table %s: %s", self.code, fault)
        match.faults.clear()
        events: list[Event] = []
        for step in played:
            stamp = round(self._tick_time(step.tick) if t is None else t, 3)
            # The driver's own moves are its bots' and, for a seat no bot plays, the answer
            # the clock gave when it ran out: marked, so the log says so (records ignore it).
            timed_out = actor is None and step.by is not None and step.by not in match.agents
            for event in step.events:
                if timed_out and event.get("by") == step.by:
                    event = {**event, "timeout": True}
                self.seq += 1
                self.store.append_event(self.code, self.seq, {**event, "t": stamp})
                events.append(event)
        self._busy = None  # whatever thought these events is done
        if events or always:
            self._turn_clock()  # before the messages are made: they show it
        if events or always:
            finished = self.state.is_over and self.status == "playing"
            if finished:
                self._finish()
            # Messages are made now, from the state these events made, and sent once they are
            # committed; meanwhile the table plays on (later events are sent after these).
            sends = self._messages(events, actor, ref)
            if finished:
                sends.append((self.all_connections(), self._table_message()))
            self._unsent += 1
            self._unsent_sends.append((sends, len(events), time.perf_counter()))
            # Sent by the store's writer itself, on the loop, right after the commit: no inbox
            # round trip per group (the actor is idle whenever a callback runs). The store calls
            # back in the order it was asked, so each call sends the oldest group.
            self.store.commit(self._commit_done)
        self._settled()

    def _commit_done(self) -> None:
        self._job(self._committed)  # a job of this actor: whatever it causes waits its turn

    def _committed(self) -> None:
        self._unsent -= 1
        sends, moves, since = self._unsent_sends.popleft()
        MOVES.inc(moves)
        COMMIT_SECONDS.observe(time.perf_counter() - since)
        for conns, text in sends:
            for conn in conns:
                conn.send_text(text)
        self._settled()

    def _settled(self) -> None:
        """Run the jobs that waited and may run now, in order, then wait for the clock."""
        if self._settling:
            return  # a waiting job's own events: the loop below goes on with the next one
        self._settling = True
        try:
            while self._held and self._busy is None:
                job, reveals = self._held[0]
                if reveals and self._unsent > 0:
                    break
                self._held.popleft()
                try:
                    job()
                except Exception:
                    log.exception("table %s: job failed", self.code)
        finally:
            self._settling = False
        self._arm()

    def _finish(self) -> None:
        self._stop_turn_clock()
        self.status = "finished"
        self.finished = time.time()
        for seat in self.seats:
            if seat.grace:
                seat.grace.cancel()
            seat.grace = None
        self._cancel_timer()
        self._save_table()

    def _storage(self, reason: str | None) -> None:
        """The store's news (run by its writer on the loop): down (with why), or back."""
        if self.status != "playing":
            return
        if reason is not None and self.paused is None:
            self.paused = reason
            self._paused_at = self.clock.now()
            self._cancel_timer()
            log.warning("table %s: paused, storage unavailable (%s)", self.code, reason)
            self._tell(error_message("storage", STORAGE_DOWN))
        elif reason is None and self.paused is not None:
            self._t0 += self.clock.now() - self._paused_at  # no tick passed while paused
            self.paused = None
            log.warning("table %s: storage is back, play resumes", self.code)
            self._tell({"type": "notice", "code": "storage_back", "message": "storage is back."})
            self._arm()

    def move_out(self, why: str) -> None:
        """Another server process serves this table from now on (``server.keeper``): nothing more
        is played here, and every socket is told ``moving`` and closed (clients reconnect)."""
        self.paused = why
        self.store.unwatch(self._storage)
        self._cancel_timer()
        self._tell(error_message("moving", why))
        for conn in self.all_connections():
            conn.close()
