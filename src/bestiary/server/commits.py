"""Durable before visible: a table's outbox of messages waiting for their events' commit, and its
line of jobs waiting their turn.

``Outbox``: each group of new events is queued in the store with the messages made from it; the
store says when everything queued so far is committed, in the order asked, and only then is the
oldest group's messages sent. ``Line``: jobs that would touch the game while bots think or events
are being committed wait, in order, and run once they may.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

from bestiary.server.connection import Connection
from bestiary.server.metrics import COMMIT_SECONDS, MOVES
from bestiary.server.store import Store

log = logging.getLogger("bestiary.server")

Sends = list[tuple[list[Connection], bytes]]  # each message, with the sockets it goes to


class Outbox:
    """Messages sent once the store has committed the events they show.

    ``run`` runs a job as the table's actor (the store calls back on the loop, while the actor is
    idle: no inbox round trip per group); ``after`` runs after each group is sent."""

    def __init__(
        self, store: Store, run: Callable[[Callable[[], None]], None], after: Callable[[], None]
    ) -> None:
        self.store = store
        self.run = run
        self.after = after
        self._groups: deque[tuple[Sends, int, float]] = deque()  # messages, events, since

    @property
    def unsent(self) -> int:
        """Groups of events made but not yet committed (so not yet sent)."""
        return len(self._groups)

    def send_when_committed(self, sends: Sends, events: int) -> None:
        self._groups.append((sends, events, time.perf_counter()))
        self.store.commit(self._commit_done)

    def _commit_done(self) -> None:
        self.run(self._send_oldest)  # a job of the actor: whatever it causes waits its turn

    def _send_oldest(self) -> None:
        sends, events, since = self._groups.popleft()
        MOVES.inc(events)
        COMMIT_SECONDS.observe(time.perf_counter() - since)
        for conns, text in sends:
            for conn in conns:
                conn.send_text(text)
        self.after()


class Line:
    """Jobs waiting their turn, in order; ``may_go(reveals)`` says whether the first may run now
    (``reveals``: the job shows the state, so it waits for every commit)."""

    def __init__(self, may_go: Callable[[bool], bool], name: str) -> None:
        self.may_go = may_go
        self.name = name
        self._held: deque[tuple[Callable[[], None], bool]] = deque()
        self._running = False

    def __bool__(self) -> bool:
        return bool(self._held)

    def waiting(self) -> bool:
        """Jobs wait, and none of them is running now (a job that runs may itself go on)."""
        return bool(self._held) and not self._running

    def keep(self, job: Callable[[], None], reveals: bool = False) -> None:
        if self._running:
            self._held.appendleft((job, reveals))  # it was first in line: it stays first
        else:
            self._held.append((job, reveals))

    def run(self) -> bool:
        """Run the jobs that may run now, in order; False when already running (a waiting job's
        own events: the loop running it goes on with the next one)."""
        if self._running:
            return False
        self._running = True
        try:
            while self._held:
                job, reveals = self._held[0]
                if not self.may_go(reveals):
                    break
                self._held.popleft()
                try:
                    job()
                except Exception:
                    log.exception("table %s: job failed", self.name)
        finally:
            self._running = False
        return True
